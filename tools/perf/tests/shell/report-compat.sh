#!/bin/bash
# report: ours matches perf 6.1 on perf 6.1 files (file, pipe, -g)
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
use_private_home
W="$WORKLOADS/report_mix"
[ -x "$W" ] || fail "workload $W not built"
cmp="python3 $TOP/tools/perf/tests/shell/lib/report_compare.py"
err=0

check() {  # name, data file, extra report args
	local name=$1 data=$2; shift 2
	"$PERF_REF" report --stdio -i "$data" "$@" > "ref-$name.txt" 2> "ref-$name.err" ||
		fail "perf 6.1 report failed on $name"
	"$PERF" report --stdio -i "$data" "$@" > "our-$name.txt" 2> "our-$name.err" ||
		{ cat "our-$name.err"; fail "our report failed on $name"; }
	if ! $cmp "ref-$name.txt" "our-$name.txt" 20 0.5; then
		echo "== $name: perf 6.1"; head -40 "ref-$name.txt"
		echo "== $name: ours"; head -40 "our-$name.txt"
		err=1
	fi
}

"$PERF_REF" record -q -e cpu-clock -o file.data -- "$W" 1 2>/dev/null || fail "perf 6.1 record failed"
"$PERF_REF" record -q -e cpu-clock -o - -- "$W" 1 > pipe.data 2>/dev/null || fail "perf 6.1 pipe record failed"
"$PERF_REF" record -q -g -e cpu-clock -o graph.data -- "$W" 1 2>/dev/null || fail "perf 6.1 record -g failed"
"$PERF_REF" record -q -g -e cpu-clock -o - -- "$W" 1 > graph-pipe.data 2>/dev/null || fail "perf 6.1 record -g pipe failed"

check file file.data
check file-dso file.data --sort dso
check file-pid file.data --sort pid
check file-srcline file.data --sort sym,srcline
check pipe pipe.data
check graph-children graph.data
check graph-self graph.data --no-children
check graph-pipe graph-pipe.data --no-children
exit $err
