#!/bin/bash
# call graph: code without CFI unwinds through the frame pointer, frameless -O2 leaf included (perf 6.1 loses a caller)
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/callgraph.sh"
use_private_home
err=0

# cg_nocfi: frame pointers, no .eh_frame/.debug_frame for its code (as JIT
# code without unwinding info); cg_leaf has no frame of its own at -O2
W="$WORKLOADS/cg_nocfi"
[ -x "$W" ] || fail "workload $W not built"
"$PERF" record -q --call-graph dwarf -e cpu-clock -o nocfi.data -- "$W" 1 2>/dev/null || fail "record failed"
"$PERF" script -i nocfi.data > our.txt 2>&1 || { head our.txt; fail "script failed"; }
read -r m t < <(chain_share our.txt cg_leaf cg_b cg_a main)
info "ours: $m of $t cg_leaf samples have cg_b <- cg_a <- main (rbp chain + stack-top return address)"
share_ok "$m" "$t" 95 || { grep -m1 -A8 cg_leaf our.txt; echo "fp fallback: $m of $t"; err=1; }
if [ -n "${PERF_REF:-}" ] && [ -x "$PERF_REF" ]; then
	"$PERF_REF" script -i nocfi.data > ref.txt 2>/dev/null
	read -r rm rt < <(chain_share ref.txt cg_leaf cg_b cg_a main)
	info "perf 6.1 (known to stop or skip at code without CFI): $rm of $rt"
fi

# cg_fpleaf: -O2 -fno-omit-frame-pointer; DWARF unwinding is not fooled by the frameless leaf
W="$WORKLOADS/cg_fpleaf"
[ -x "$W" ] || fail "workload $W not built"
"$PERF" record -q --call-graph dwarf -e cpu-clock -o leaf.data -- "$W" 1 2>/dev/null || fail "record failed"
"$PERF" script -i leaf.data > leaf.txt 2>&1 || fail "script failed"
read -r m t < <(chain_share leaf.txt cg_leaf cg_b cg_a main)
info "cg_fpleaf --call-graph dwarf: $m of $t"
share_ok "$m" "$t" 95 || { echo "cg_fpleaf dwarf: $m of $t"; err=1; }

# the documented limitation: a kernel frame-pointer chain (-g) has no stack
# copy to read the leaf's return address from, so cg_b is missing there
"$PERF" record -q -g -e cpu-clock -o fp.data -- "$W" 1 2>/dev/null || fail "record -g failed"
"$PERF" script -i fp.data > fp.txt 2>&1 || fail "script failed"
read -r m t < <(chain_share fp.txt cg_leaf cg_a main)
info "cg_fpleaf -g: $m of $t leaf samples go straight to cg_a (documented in perf-record.txt)"
share_ok "$m" "$t" 50 || { echo "expected the gcc leaf-frame effect under -g: $m of $t"; err=1; }
exit $err
