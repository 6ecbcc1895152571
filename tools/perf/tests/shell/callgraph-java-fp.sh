#!/bin/bash
# call graph: Java with -XX:+PreserveFramePointer, our agent, -g, inject --jit: the hot method's callers are Java methods
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
. "$TOP/tools/perf/tests/shell/lib/callgraph.sh"
. "$TOP/tools/perf/tests/shell/lib/callgraph-java.sh"
need_cgjava
use_private_home
err=0

record_cgjava -g
"$PERF" script -i jit.data > our.txt 2> script.err || fail "our script failed: $(head -3 script.err)"
read -r m t < <(chain_share our.txt "CgJava.hot(long, int)" "CgJava.middle(long)" "CgJava.outer(long)")
info "ours: $m of $t CgJava.hot samples have CgJava.middle <- CgJava.outer as callers"
[ "$t" -ge 500 ] || { echo "only $t samples in CgJava.hot"; err=1; }
share_ok "$m" "$t" 90 || { grep -m1 -A6 'CgJava.hot' our.txt; echo "Java callers by name: $m of $t"; err=1; }

# our report's caller graph names them too
"$PERF" report --stdio --no-children -i jit.data > report.txt 2>&1 || fail "our report failed"
grep -A4 -- '---CgJava.hot(long, int)' report.txt | grep -q 'CgJava.middle(long)' ||
	{ sed -n 1,30p report.txt; echo "report graph lacks CgJava.middle"; err=1; }

if [ -n "${PERF_REF:-}" ] && [ -x "$PERF_REF" ]; then
	"$PERF_REF" script -i jit.data > ref.txt 2>/dev/null
	read -r rm rt < <(chain_share ref.txt "CgJava.hot(long, int)" "CgJava.middle(long)" "CgJava.outer(long)")
	info "perf 6.1 on the same file: $rm of $rt"
	share_ok "$rm" "$rt" 90 || { echo "perf 6.1 sees the Java callers in only $rm of $rt"; err=1; }
fi
exit $err
