#!/bin/bash
# Fault: SIGINT and SIGTERM to perf record at random moments, with and without SDT events: a valid file or nothing, no uprobe or workload left
. "$TOP/tools/perf/tests/shell/lib/common.sh"
# record-lifecycle.sh sends one well-timed signal; here they come at random
# moments from "before perf has parsed its options" to "in the middle of
# the drain", for a sampling and an SDT recording (record then creates and
# must remove its own uprobes). Each outcome must be one of:
#   - no output file at all (killed before it existed; perf 6.1 does the same),
#   - a file perf 6.1 and we both read without an error;
# and after it: no uprobe of ours in uprobe_events, no workload process.
# A background job of a non-interactive shell starts with SIGINT ignored;
# env --default-signal gives perf the disposition it has under a terminal.
need_root
need_cmd env timeout
env --default-signal=INT true 2>/dev/null || skip "env --default-signal not supported"
[ -x "$WORKLOADS/rec_cpu" ] && [ -x "$WORKLOADS/sdt_test_O2" ] || skip "workloads not built"
use_private_home
READER=${PERF_REF:-}
[ -x "$READER" ] || READER=$PERF
T=$(tracefs_dir) || T=

# private copies: pgrep can tell our workloads from anyone else's
cp "$WORKLOADS/rec_cpu" ./fsig_cpu_$$
cp "$WORKLOADS/sdt_test_O2" ./fsig_sdt_$$
sdt=
if [ -n "$T" ] && "$PERF" buildid-cache -a "$PWD/fsig_sdt_$$" 2>/dev/null; then
	sdt=1
else
	info "no tracefs or SDT cache: SDT runs skipped"
fi
cleanup() {
	"$PERF" probe -q -d 'sdt_test:*' >/dev/null 2>&1
	pkill -KILL -x "fsig_cpu_$$" 2>/dev/null
	pkill -KILL -x "fsig_sdt_$$" 2>/dev/null
}
trap cleanup EXIT

RANDOM=$$
runs=0 files=0 sdt_events=0
one() {  # one SIG MODE
	local sig=$1 mode=$2 delay rc pid w
	delay=$(awk -v r=$((RANDOM % 1500)) 'BEGIN { printf "%.3f", r / 1000 }')
	rm -f s.data s.err
	if [ "$mode" = sdt ]; then
		w=fsig_sdt_$$
		env --default-signal=INT,TERM "$PERF" record -q -o s.data -e 'sdt_test:*' -- "./$w" 200000 >/dev/null 2>s.err &
	else
		w=fsig_cpu_$$
		env --default-signal=INT,TERM "$PERF" record -q -g -o s.data -e cpu-clock -- "./$w" 5000 >/dev/null 2>s.err &
	fi
	pid=$!
	sleep "$delay"
	kill -"$sig" "$pid" 2>/dev/null
	# the drain of a busy SDT recording takes a few seconds; hung is > 30 s
	timeout 30 tail --pid="$pid" -f /dev/null || { kill -KILL "$pid"; fail "$mode SIG$sig after ${delay}s: record did not exit"; }
	wait "$pid"
	rc=$?
	runs=$((runs + 1))
	sleep 0.2
	pgrep -x "$w" >/dev/null && fail "$mode SIG$sig after ${delay}s: workload $w still running"
	if [ -n "$T" ] && grep -q '^p:sdt_test/' "$T/uprobe_events"; then
		fail "$mode SIG$sig after ${delay}s: uprobes left: $(grep -c . "$T/uprobe_events") lines"
	fi
	if [ ! -e s.data ]; then
		info "$mode SIG$sig after ${delay}s: rc=$rc, no file (killed before it was created)"
		return
	fi
	"$READER" script -i s.data >s.txt 2>s.rerr || fail "$mode SIG$sig after ${delay}s: $READER cannot read the file: $(head -2 s.rerr)"
	"$PERF" script -i s.data >/dev/null 2>s.oerr || fail "$mode SIG$sig after ${delay}s: we cannot read the file: $(head -2 s.oerr)"
	files=$((files + 1))
	[ "$mode" = sdt ] && sdt_events=$((sdt_events + $(grep -c 'sdt_test:' s.txt)))
	info "$mode SIG$sig after ${delay}s: rc=$rc, $(stat -c %s s.data) bytes, $(wc -l <s.txt) events, readable"
}

for i in 1 2 3; do
	for sig in INT TERM; do
		one $sig cpu
		[ -n "$sdt" ] && one $sig sdt
	done
done
[ "$files" -ge $((runs / 2)) ] || fail "only $files of $runs runs left a file: the signals came too early to test anything"
[ -z "$sdt" ] || [ "$sdt_events" -gt 0 ] || fail "no SDT event in any interrupted SDT recording"
info "$runs runs, $files files, all readable; $sdt_events SDT events in total"
exit 0
