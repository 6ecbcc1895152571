#!/bin/bash
# annotate: the hot Java method of an injected file: its instructions, shares summing to 100%, its .java lines
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
. "$TOP/tools/perf/tests/shell/lib/callgraph-java.sh"
need_cgjava
use_private_home
err=0
SRC="$TOP/tools/perf/tests/workloads/java/CgJava.java"

record_cgjava
sym="CgJava.hot(long, int)"
"$PERF" annotate --stdio -i jit.data "$sym" > ann-all.txt 2> ann.err || fail "annotate failed: $(head -3 ann.err)"
# one block per compiled copy of the method (C1, C2, ...): the hottest comes first
awk '/^ Percent \|/ { n++ } n == 1' ann-all.txt > ann.txt
head -1 ann.txt | grep -q "Source code & Disassembly of jitted-.*\.so for cpu-clock ([0-9]* samples, percent: local period)" ||
	{ head -2 ann.txt; echo "title not in perf's shape"; err=1; }

# instructions: as objdump disassembles that ELF symbol
so=$(find "$HOME/.debug/jit" -name 'jitted-*.so' | head -1)
addr=$(sed -n 's/^ *: *\([0-9a-f]\{16\}\) <.*>:$/\1/p' ann.txt | head -1)
[ -f "$so" ] || fail "no jitted ELF for $sym"
start=; end=
while read -r a sz rest; do
	[ "$rest" = "t $sym" ] || [ "$rest" = "T $sym" ] || continue
	[ "$a" = "$addr" ] || continue
	start=$((16#$a)); end=$((start + 16#$sz)); break
done < <(nm -S "$so")
n_ours=$(grep -cE '^ +[0-9]+\.[0-9][0-9] : ' ann.txt)
[ -n "$start" ] || { echo "$sym at $addr not in nm -S of $so"; err=1; }
if [ -n "$start" ]; then
	n_objdump=$(objdump -d --no-show-raw-insn --start-address=$start --stop-address=$end "$so" |
		grep -cE '^ +[0-9a-f]+:	')
	[ "$n_ours" = "$n_objdump" ] || { echo "$n_ours instruction rows, objdump has $n_objdump"; err=1; }
fi
[ "$n_ours" -ge 10 ] || { echo "only $n_ours instruction rows"; err=1; }
sum=$(awk -F' : ' '/^ +[0-9]+\.[0-9][0-9] : / { s += $1 } END { printf "%.2f", s }' ann.txt)
info "$n_ours instructions, shares sum to $sum%"
awk -v s="$sum" 'BEGIN { exit !(s > 99 && s < 101) }' || { echo "shares sum to $sum"; err=1; }

# source rows: lines of CgJava.java inside hot() (between HOT-BEGIN and HOT-END)
lo=$(grep -n 'HOT-BEGIN' "$SRC" | cut -d: -f1); hi=$(grep -n 'HOT-END' "$SRC" | cut -d: -f1)
grep -E '^ +: [0-9]+ +CgJava\.java:[0-9]+$' ann.txt > rows.txt ||
	{ echo "no CgJava.java source rows"; sed -n 1,20p ann.txt; err=1; }
awk -v lo="$lo" -v hi="$hi" '{ split($0, p, ":"); n = p[3] + 0; if (n <= lo || n >= hi) { print "line " n " outside hot()"; bad = 1 } }
	END { exit bad }' rows.txt || err=1
# with the source at hand (cwd = its directory) the rows show the Java text
(cd "$(dirname "$SRC")" && "$PERF" annotate --stdio -i "$OLDPWD/jit.data" "$sym") > ann-src.txt 2>/dev/null
grep -qE '^ +: [0-9]+ +x \^= x << 13;' ann-src.txt || { echo "Java source text not shown"; err=1; }
exit $err
