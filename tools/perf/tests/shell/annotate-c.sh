#!/bin/bash
# annotate: a C function shows perf 6.1's instructions and shares (within 1 point) and DWARF's line numbers
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
need_cmd objdump addr2line
use_private_home
W="$WORKLOADS/cg_nofp"
[ -x "$W" ] || fail "workload $W not built"
err=0

"$PERF_REF" record -q -e cpu-clock -o ann.data -- "$W" 1 2>/dev/null || fail "perf 6.1 record failed"
"$PERF_REF" annotate --stdio -i ann.data cg_leaf > ref.txt 2>/dev/null || fail "perf 6.1 annotate failed"
"$PERF" annotate --stdio -i ann.data cg_leaf > our.txt 2> our.err || { cat our.err; fail "our annotate failed"; }
"$PERF" annotate --stdio -i ann.data -s cg_leaf > our-s.txt 2>/dev/null
cmp -s our.txt our-s.txt || { echo "-s SYMBOL differs from SYMBOL"; err=1; }

head -1 ref.txt > ref-head.txt; head -1 our.txt > our-head.txt
cmp -s ref-head.txt our-head.txt || { echo "title differs:"; cat ref-head.txt our-head.txt; err=1; }

# instruction rows: "pct : addr: text"
insns() { awk -F' : ' '/^ +[0-9]+\.[0-9][0-9] : / { sub(/^ +/, "", $1); print $1 "\t" $2 }' "$1"; }
insns ref.txt > ref-insns.txt
insns our.txt > our-insns.txt
[ -s ref-insns.txt ] || fail "perf 6.1 printed no instructions"
if ! diff <(cut -f2 ref-insns.txt) <(cut -f2 our-insns.txt) > insn.diff; then
	echo "instructions differ from perf 6.1:"; head -20 insn.diff; err=1
fi
paste ref-insns.txt our-insns.txt | awk -F'\t' '{ d = $1 - $3; if (d < 0) d = -d; if (d > 1) { print "share differs: " $0; bad = 1 } }
	END { exit bad }' || err=1
sum=$(cut -f1 our-insns.txt | paste -sd+ | bc)
awk -v s="$sum" 'BEGIN { exit !(s > 99.5 && s < 100.5) }' || { echo "shares sum to $sum"; err=1; }

# every source row carries the line DWARF gives the next instruction (addr2line, binutils)
awk '/^ +: [0-9]+ / { split($0, p, ":"); n = p[2] + 0; want = 1; next }
	want && /^ +[0-9]+\.[0-9][0-9] : / { split($0, p, " : "); a = p[2]; sub(/^ +/, "", a); sub(/:.*/, "", a);
		print a, n; want = 0 }' our.txt > our-lines.txt
[ -s our-lines.txt ] || { echo "no source lines in our annotate"; err=1; }
while read -r addr line; do
	want=$(addr2line -e "$W" "0x$addr" | sed 's/.*://; s/ .*//')
	[ "$want" = "$line" ] || { echo "source line before $addr is $line, DWARF says $want"; err=1; }
done < our-lines.txt
grep -q "sink += i \* 7" our.txt || { echo "source text missing"; err=1; }

# bad input: a clear error, no crash
"$PERF" annotate --stdio -i nonexistent.data > /dev/null 2> bad.err && { echo "missing file accepted"; err=1; }
[ "$(wc -l < bad.err)" -ge 1 ] || { echo "no error message for a missing file"; err=1; }
exit $err
