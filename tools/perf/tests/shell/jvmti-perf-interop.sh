#!/bin/bash
# JVMTI agent: perf 6.1 record -k mono + inject --jit + report name the JIT samples
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
need_ref_perf
need_jvmti
use_private_home

$PERF_REF record -q -k mono -e cpu-clock -o perf.data -- \
	$JAVA -agentpath:"$AGENT"=dir="$PWD/jd" -cp "$JAVA_CLASSES" JvmtiHot 3 >java.out 2>java.err ||
	fail "perf record / java failed: $(tail -3 java.err)"
grep -q '^done$' java.out || fail "workload did not finish"
dump=$(find_dump jd)

# the dump itself: every record valid, and our inline record present
"$JITDUMP_CHECK" --list "$dump" >list.txt 2>check.err || fail "checker rejects the dump: $(head -5 check.err)"
sum=$(grep '^summary:' list.txt)
info "$sum"
loads=$(checker_field loads "$sum")
inl=$(checker_field inline_info "$sum")
[ "$loads" -gt 100 ] || fail "only $loads LOAD records"
[ "$inl" -gt 0 ] || fail "no inline record written, cannot test that perf 6.1 skips it"
grep -q 'JvmtiHot.spin(long, int)$' list.txt || fail "no LOAD for JvmtiHot.spin"

# perf 6.1 inject: our unknown record id is skipped (a warning at most), every LOAD becomes an ELF
$PERF_REF inject --jit -i perf.data -o jit.data 2>inject.err || fail "perf inject failed: $(tail -3 inject.err)"
other=$(grep -v 'unknown record type 65536, skipping' inject.err | grep -v '^$' || true)
[ -z "$other" ] || fail "perf inject complained: $other"
elfs=$(find "$(dirname "$dump")" -name 'jitted-*.so' | wc -l)
[ "$elfs" = "$loads" ] || fail "perf inject wrote $elfs ELF files for $loads LOAD records"

# a DEBUG_INFO followed by our inline record and then the LOAD still gives the ELF its lines
pid=$(basename "$dump" | sed 's/jit-\([0-9]*\)\.dump/\1/')
n=0
while read -r idx addr size dbg inl_flag name; do
	[ "$dbg $inl_flag" = "debug=1 inline=1" ] || continue
	so="$(dirname "$dump")/jitted-$pid-$idx.so"
	readelf -S "$so" | grep -q '\.debug_line' || fail "$so (inline record before its LOAD) lost its line table"
	n=$((n + 1))
done <list.txt
[ "$n" -gt 0 ] || fail "no LOAD preceded by DEBUG_INFO + inline record"
info "$n functions with DEBUG_INFO + inline record kept their line tables"

# >= 90% of the samples in JIT code resolve to a symbol
$PERF_REF script -i jit.data -F pid,ip,sym,dso >script.txt 2>/dev/null || fail "perf script failed"
read -r total resolved < <(jit_sample_counts script.txt "$pid")
info "JIT samples: $total, resolved: $resolved"
[ "$total" -ge 1000 ] || fail "too few JIT samples ($total) to judge"
[ $((resolved * 100)) -ge $((total * 90)) ] || fail "only $resolved of $total JIT samples resolved"

# without inject the same samples are unresolved: the counting can tell the difference
$PERF_REF script -i perf.data -F pid,ip,sym,dso >raw.txt 2>/dev/null
read -r rtotal rresolved < <(jit_sample_counts raw.txt "$pid")
[ "$rtotal" -ge $((total * 9 / 10)) ] && [ "$rresolved" -eq 0 ] ||
	fail "before inject: $rresolved of $rtotal JIT samples resolved, expected none"

# the hot method is among the top 3 Java symbols of perf 6.1 report
awk '{ dso = $NF; gsub(/^\(|\)$/, "", dso) } dso ~ /\/jitted-/ { s = $3; for (i = 4; i < NF; i++) s = s " " $i; print s }' \
	script.txt | sort -u >java-syms.txt
$PERF_REF report -i jit.data --stdio --sort sym 2>/dev/null |
	sed -n 's/^ *[0-9.]*% *\[\.\] *//p' | sed 's/ *$//' >report.txt
top3=$(grep -Fxf java-syms.txt report.txt | head -n 3)
info "top Java symbols: $(echo "$top3" | tr '\n' ';')"
echo "$top3" | grep -Fxq 'JvmtiHot.spin(long, int)' || fail "JvmtiHot.spin not in the top 3 Java symbols"
exit 0
