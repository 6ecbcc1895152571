#!/bin/bash
# perf record: short, missing and interrupted workloads, exit codes, pipe mode, -p, perf.data.old
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
use_private_home

ref_reads() { # file
	"$PERF_REF" report -i "$1" --stdio >/dev/null 2>"$1.err" || { cat "$1.err" >&2; return 1; }
	! grep -Eiq "incompatible|failed|warning" "$1.err"
}

# a command that exits at once: valid file, perf's closing lines
"$PERF" record -o true.data -- true 2>true.err || fail "record true failed"
grep -Eq '^\[ perf record: Woken up [0-9]+ times to write data \]$' true.err || fail "no 'Woken up' line: $(cat true.err)"
grep -Eq '^\[ perf record: Captured and wrote [0-9]+\.[0-9]{3} MB true\.data \([0-9]+ samples\) \]$' true.err ||
	fail "no 'Captured and wrote' line: $(cat true.err)"
ref_reads true.data || fail "perf 6.1 cannot read the record of 'true'"

# the workload's exit status, as perf 6.1 returns it
"$PERF" record -q -o st.data -- sh -c 'exit 3'; ours=$?
"$PERF_REF" record -q -o st-ref.data -- sh -c 'exit 3' 2>/dev/null; theirs=$?
[ "$ours" = "$theirs" ] || fail "exit status $ours, perf 6.1 gives $theirs"

# a command that does not exist: one clear line, non-zero
"$PERF" record -o none.data -- /nonexistent/cmd 2>none.err; rc=$?
[ "$rc" != 0 ] || fail "missing command exited 0"
grep -q "Failed to collect .* for the '/nonexistent/cmd' workload: No such file or directory" none.err ||
	fail "unclear error: $(cat none.err)"

# SIGINT to record: a valid file
"$PERF" record -q -o int.data -- "$WORKLOADS/rec_cpu" 10000 &
pid=$!
# once the workload runs (its comm is perf-exec until the exec), it gets 0.5 s
# of samples: a fixed delay is too short for a loaded machine or a SAN build
for i in $(seq 100); do pgrep -x -P "$pid" rec_cpu >/dev/null && break; sleep 0.1; done
sleep 0.5
kill -INT "$pid"
wait "$pid"
ref_reads int.data || fail "interrupted recording is not readable"
"$PERF_REF" report -i int.data --stdio 2>/dev/null | grep -q rec_hot_a || fail "interrupted recording has no samples"

# SIGTERM likewise
"$PERF" record -q -o term.data -- sleep 10 &
pid=$!
sleep 0.5
kill -TERM "$pid"
wait "$pid"
ref_reads term.data || fail "SIGTERM'd recording is not readable"

# an existing perf.data becomes perf.data.old
"$PERF" record -q -- true || fail "record to perf.data failed"
"$PERF" record -q -- true || fail "second record to perf.data failed"
[ -s perf.data.old ] || fail "perf.data was not kept as perf.data.old"

# pipe mode read by perf 6.1 from stdin
"$PERF" record -q -o - -- "$WORKLOADS/rec_cpu" 300 | "$PERF_REF" report -i - --stdio >pipe.txt 2>pipe.err ||
	fail "perf 6.1 cannot read our pipe: $(cat pipe.err)"
grep -q rec_hot_a pipe.txt || fail "pipe report lacks rec_hot_a"

# -p: attach to a running process until it exits; its threads were synthesized
# long enough that a slow (SAN) perf still attaches while it runs
"$WORKLOADS/rec_cpu" 4000 &
target=$!
sleep 0.2
"$PERF" record -q -p "$target" -o pid.data || fail "record -p failed"
"$PERF_REF" report -i pid.data --stdio 2>/dev/null | grep -q "rec_cpu .*rec_hot_a" || fail "record -p saw no rec_hot_a"
"$PERF_REF" report -D -i pid.data 2>/dev/null | grep -q "PERF_RECORD_COMM: rec_cpu:$target/$target" ||
	fail "no synthesized COMM for the -p target"

# a tracepoint: TRACING_DATA lets perf 6.1 decode it
if tfs=$(tracefs_dir); then
	"$PERF" record -q -e sched:sched_process_exec -o tp.data -- true || fail "tracepoint record failed"
	"$PERF_REF" script -i tp.data >tp.txt 2>tp.err || fail "perf 6.1 script of tracepoint: $(cat tp.err)"
	grep -q "sched:sched_process_exec: filename=" tp.txt || fail "tracepoint not decoded: $(head -3 tp.txt)"
fi

# bad options are clear errors
"$PERF" record -e no-such-event -- true 2>bad.err && fail "unknown event accepted"
grep -q "no-such-event" bad.err || fail "unclear unknown-event error: $(cat bad.err)"
"$PERF" record -k bogus -- true 2>bad.err && fail "unknown clockid accepted"
exit 0
