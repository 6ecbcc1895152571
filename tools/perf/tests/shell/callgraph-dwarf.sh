#!/bin/bash
# call graph: --call-graph dwarf of a C tree without frame pointers, unwound by us and by perf 6.1
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/callgraph.sh"
need_ref_perf
use_private_home
W="$WORKLOADS/cg_nofp"
[ -x "$W" ] || fail "workload $W not built"
err=0

"$PERF" record -q --call-graph dwarf -e cpu-clock -o dwarf.data -- "$W" 1 2> rec.err ||
	{ cat rec.err; fail "our record --call-graph dwarf failed"; }

# the attr is what perf 6.1 writes for the same options, so perf 6.1 reads it as its own
"$PERF_REF" record -q --call-graph dwarf -e cpu-clock -o ref.data -- true 2>/dev/null ||
	fail "perf 6.1 record --call-graph dwarf failed"
"$PERF_REF" evlist -v -i ref.data > ref-attr.txt 2>/dev/null
"$PERF_REF" evlist -v -i dwarf.data > our-attr.txt 2>/dev/null
if ! diff ref-attr.txt our-attr.txt; then
	echo "attr of --call-graph dwarf differs from perf 6.1's (above: < perf 6.1, > ours)"
	err=1
fi
grep -q "sample_regs_user: 0xff0fff, sample_stack_user: 8192" our-attr.txt ||
	{ echo "regs mask / default stack size not perf's"; err=1; }

"$PERF" script -i dwarf.data > our-script.txt 2> our-script.err ||
	{ cat our-script.err; fail "our script failed"; }
"$PERF_REF" script -i dwarf.data > ref-script.txt 2>/dev/null || fail "perf 6.1 script of our file failed"

read -r m t < <(chain_share our-script.txt cg_leaf cg_b cg_a main)
info "ours: $m of $t cg_leaf samples unwind to cg_b <- cg_a <- main"
share_ok "$m" "$t" 95 || { echo "our unwinding: full chain in only $m of $t leaf samples"; err=1; }
[ "$t" -ge 100 ] || { echo "too few leaf samples ($t)"; err=1; }
read -r rm rt < <(chain_share ref-script.txt cg_leaf cg_b cg_a main)
info "perf 6.1 on our file: $rm of $rt"
share_ok "$rm" "$rt" 95 || { echo "perf 6.1 unwinds only $rm of $rt leaf samples of our file"; err=1; }
# the same samples, the same chains: at most 1% apart
d=$(( m * 1000 / (t ? t : 1) - rm * 1000 / (rt ? rt : 1) ))
[ ${d#-} -le 10 ] || { echo "chain shares differ: ours $m/$t, perf 6.1 $rm/$rt"; err=1; }

# report: the leaf's callee graph is the full chain
"$PERF" report --stdio --no-children -i dwarf.data > our-report.txt 2>&1 ||
	{ cat our-report.txt; fail "our report failed"; }
awk '/\[\.\] cg_leaf$/ { on = 1; next } on && /---cg_leaf/ { getline b; getline a; getline m;
	gsub(/[ |-]/, "", b); gsub(/[ |-]/, "", a); gsub(/[ |-]/, "", m);
	if (b == "cg_b" && a == "cg_a" && m == "main") found = 1; exit }
	END { exit !found }' our-report.txt || { echo "report graph of cg_leaf:"; sed -n 1,30p our-report.txt; err=1; }
"$PERF_REF" report --stdio --no-children -i dwarf.data 2>/dev/null | grep -A6 -- "---cg_leaf" | tr -d ' |-' |
	head -4 | tr '\n' ' ' | grep -q "cg_leaf cg_b cg_a main" ||
	{ echo "perf 6.1's report of our file lacks the chain"; err=1; }

# bad sizes are refused like perf 6.1 does
for bad in dwarf,0 dwarf,70000 dwarf,x lbrx; do
	if "$PERF" record -q --call-graph $bad -o bad.data -- true 2>/dev/null; then
		echo "--call-graph $bad accepted"; err=1
	fi
done
"$PERF" record -q --call-graph dwarf,100 -o small.data -- true 2>/dev/null || { echo "dwarf,100 refused"; err=1; }
"$PERF_REF" evlist -v -i small.data 2>/dev/null | grep -q "sample_stack_user: 104" ||
	{ echo "dwarf,100 not rounded up to 104 like perf 6.1"; err=1; }
"$PERF" record -q --call-graph fp -o fp.data -- true 2>/dev/null || { echo "--call-graph fp refused"; err=1; }
"$PERF" record -q -g -o g.data -- true 2>/dev/null
[ "$("$PERF_REF" evlist -v -i fp.data 2>/dev/null)" = "$("$PERF_REF" evlist -v -i g.data 2>/dev/null)" ] ||
	{ echo "--call-graph fp differs from -g"; err=1; }
exit $err
