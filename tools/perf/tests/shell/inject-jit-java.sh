#!/bin/bash
# perf inject --jit, Java end to end: our agent + our record + our inject; >= 90% of JIT samples named; perf 6.1 agrees
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
need_ref_perf
need_jvmti
use_private_home
"$PERF" record -h >/dev/null 2>&1 || skip "our perf record is not built yet (perf record -h fails)"

# java_case NAME AGENT_OPTS: record, inject, check resolution and perf 6.1's view of our file
java_case() {
	local name=$1 opts=$2 dump pid total resolved
	"$PERF" record -q -k mono -e cpu-clock -o "$name.data" -- \
		$JAVA -agentpath:"$AGENT"=dir="$PWD/$name"$opts -cp "$JAVA_CLASSES" JvmtiHot 3 >"$name.out" 2>"$name.err" ||
		fail "$name: record / java failed: $(tail -3 "$name.err")"
	dump=$(find_dump "$name")
	pid=$(basename "$dump" | sed 's/jit-\([0-9]*\)\.dump/\1/')
	"$PERF" inject --jit -i "$name.data" -o "$name.jit" 2>"$name.inject.err" ||
		fail "$name: inject failed: $(cat "$name.inject.err")"

	"$PERF_REF" script -i "$name.jit" -F pid,ip,sym,dso >"$name.script" 2>/dev/null || fail "$name: perf 6.1 script failed"
	# lib/jvmti.sh's counter knows perf's jitted-PID-N.so names; ours is jitted-PID.so as well
	sed -E 's|/jitted-([0-9]+)\.so\)$|/jitted-\1-0.so)|' "$name.script" >"$name.script2"
	read -r total resolved < <(jit_sample_counts "$name.script2" "$pid")
	info "$name: JIT samples $total, resolved $resolved"
	[ "$total" -ge 500 ] || fail "$name: too few JIT samples ($total)"
	[ $((resolved * 100)) -ge $((total * 90)) ] || fail "$name: only $resolved of $total JIT samples resolved"

	# the same top-20 Java symbols, within 1 point, in perf 6.1's report and ours. A method
	# compiled several times (C1, C2, OSR) is one row per code blob in perf 6.1; sum by name.
	by_name() {
		grep 'jitted-' | sed 's/^ *\([0-9.]*\)% *[^ ]*jitted-[^ ]* *\[\.\] *\(.*\)$/\1\t\2/' |
			awk -F '\t' '{ s[$2] += $1 } END { for (k in s) printf "  %6.2f%%  [.] %s\n", s[k], k }' | sort -rn
	}
	"$PERF_REF" report -i "$name.jit" --stdio --sort dso,sym 2>/dev/null | by_name >"$name.ref.txt"
	"$PERF" report -i "$name.jit" --stdio --sort dso,sym 2>/dev/null | by_name >"$name.ours.txt"
	[ -s "$name.ref.txt" ] || fail "$name: perf 6.1 shows no jitted symbol"
	python3 "$TOP/tools/perf/tests/shell/lib/report_compare.py" "$name.ref.txt" "$name.ours.txt" 20 1.0 ||
		fail "$name: our report's Java symbols differ from perf 6.1's"
	grep -q 'JvmtiHot.spin(long, int)' "$name.ours.txt" || fail "$name: JvmtiHot.spin not named: $(head -5 "$name.ours.txt")"
}

java_case java ""
# perf's own agent format: raw JVM signatures, no inline record
java_case raw ",rawnames,noinline"

# Java file:line of the hot method, from the line table
"$PERF" report -i java.jit --stdio --sort sym,srcline 2>/dev/null >srcline.txt
grep -q 'JvmtiHot.spin(long, int) *JvmtiHot.java:[0-9]' srcline.txt ||
	fail "no JvmtiHot.java:N srcline for spin: $(grep spin srcline.txt | head -3)"

# an inlined call site: addr2line -i on an address inside a DW_TAG_inlined_subroutine gives the chain
so=""
for f in $(find java -name 'jitted-*.so' | head -400); do
	readelf --debug-dump=info "$f" 2>/dev/null | grep -q DW_TAG_inlined_subroutine && { so=$f; break; }
done
[ -n "$so" ] || fail "no generated ELF has an inlined subroutine"
lowpc=$(readelf --debug-dump=info "$so" | awk '/DW_TAG_inlined_subroutine/ { f = 1 } f && /DW_AT_low_pc/ { print $NF; exit }')
addr2line -i -f -e "$so" "$lowpc" >a2l.txt
[ "$(grep -c '\.java:[0-9]' a2l.txt)" -ge 2 ] || fail "addr2line -i at $lowpc of $so: no inline chain: $(cat a2l.txt)"
info "inline chain at $lowpc: $(grep '\.java' a2l.txt | tr '\n' ' ')"
exit 0
