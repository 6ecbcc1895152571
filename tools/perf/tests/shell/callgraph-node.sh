#!/bin/bash
# call graph: node --perf-prof with unwinding info, --call-graph dwarf, inject --jit: JS frames unwind into V8's native callers
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/callgraph.sh"
need_cmd node
"$PERF" inject -h 2>&1 | grep -q -- '--jit' || skip "our perf inject has no --jit yet (H6's inject issue)"
node --help | grep -q -- '--perf-prof-unwinding-info' ||
	node --v8-options | grep -q -- '--perf-prof-unwinding-info' || skip "node has no --perf-prof-unwinding-info"
# perf 6.1 takes files under /tmp/perf-* for perf-PID.map files; node writes
# its dump (and inject the jitted ELFs) in the cwd, so work elsewhere
WORK=$(mktemp -d /tmp/cgnode.XXXXXX) || fail "mktemp"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || fail "cd $WORK"
export HOME="$WORK/home"; mkdir -p "$HOME"
JS="$TOP/tools/perf/tests/workloads/cg_node.js"
err=0

"$PERF" record -q -k mono --call-graph dwarf -e cpu-clock -o perf.data -- \
	node --perf-prof --perf-prof-unwinding-info --interpreted-frames-native-stack "$JS" 2 > node.out 2> node.err ||
	fail "record of node failed: $(tail -3 node.err)"
grep -q '^done' node.out || fail "node workload did not finish"
ls jit-*.dump > /dev/null 2>&1 || fail "node wrote no jitdump"
"$PERF" inject --jit -i perf.data -o jit.data 2> inject.err || fail "inject --jit failed: $(tail -3 inject.err)"
ls jitted-*.so > /dev/null 2>&1 || fail "inject wrote no jitted ELF"
readelf -S "$(ls jitted-*.so | head -1)" | grep -q '\.eh_frame' ||
	info "note: the jitted ELFs carry no .eh_frame (unwinding falls back to frame pointers)"

"$PERF" script -i jit.data > our.txt 2> our.err || fail "our script failed: $(head -3 our.err)"
first_callers our.txt "JS:" "node::Start" > our-callers.txt
read -r _ total reach < <(grep '^TOTAL' our-callers.txt)
info "ours: $reach of $total samples in JS code unwind through V8 to node::Start"
[ "$total" -ge 500 ] || { echo "only $total samples in JS code"; err=1; }
share_ok "$reach" "$total" 90 || { grep -m1 -A12 'JS:\*' our.txt; echo "JS chains stop early"; err=1; }
grep -q "Builtin:JSEntry" our.txt || { echo "no chain passes Builtin:JSEntry"; err=1; }

# perf 6.1 on the same input: the same callers of the hottest JS functions
# (it stops unwinding sooner; its chains must agree with ours where it has them)
if [ -n "${PERF_REF:-}" ] && [ -x "$PERF_REF" ]; then
	"$PERF_REF" script --no-inline -i jit.data > ref.txt 2>/dev/null || fail "perf 6.1 script failed"
	first_callers ref.txt "JS:" "node::Start" > ref-callers.txt
	info "perf 6.1: $(grep '^TOTAL' ref-callers.txt | cut -f3) of $(grep '^TOTAL' ref-callers.txt | cut -f2) reach node::Start"
	grep -v '^TOTAL' ref-callers.txt | head -3 > ref-top.txt
	while IFS=$'\t' read -r rc pair; do
		oc=$(awk -F'\t' -v p="$pair" '$2 == p { print $1 }' our-callers.txt)
		info "$pair: perf 6.1 $rc, ours ${oc:-0}"
		[ -n "$oc" ] && [ $(( (oc - rc) * 100 )) -le $(( rc * 2 )) ] && [ $(( (rc - oc) * 100 )) -le $(( rc * 2 )) ] ||
			{ echo "top caller '$pair' differs: perf 6.1 $rc, ours ${oc:-0}"; err=1; }
	done < ref-top.txt
	[ -s ref-top.txt ] || { echo "perf 6.1 found no JS samples"; err=1; }
fi
exit $err
