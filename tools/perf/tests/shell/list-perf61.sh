#!/bin/bash
# perf list: same event names and layout as perf 6.1 (sw, hw, tracepoint, globs)
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
tracefs_dir >/dev/null || skip "no tracefs"

# selectors and globs whose output must be identical, line for line
for sel in sw hw tracepoint 'sched:*' sched 'cpu*' cs faults 'irq_vec*:*entry' 'sched:sw' 'no_such_event'; do
	"$PERF" list "$sel" > ours.txt 2> ours.err || fail "perf list '$sel' failed: $(cat ours.err)"
	"$PERF_REF" list "$sel" > ref.txt 2>/dev/null
	if ! cmp -s ours.txt ref.txt; then
		diff ours.txt ref.txt | head -20 >&2
		fail "perf list '$sel' differs from perf 6.1"
	fi
	info "'$sel': $(wc -l < ours.txt) lines, identical"
done

# a selector must really select: sw has no tracepoints and tracepoint has no software events
"$PERF" list sw | grep -q 'Tracepoint event' && fail "sw lists tracepoints"
"$PERF" list tracepoint | grep -q 'Software event' && fail "tracepoint lists software events"
"$PERF" list 'sched:*' | grep -q '^  sched:sched_switch  *\[Tracepoint event\]$' || fail "sched:sched_switch missing"

# The whole list as perf 6.1 prints it, PMU events (msr/tsc/ ...) and the
# closing "Metric Groups:" heading included; SDT events of the build-id cache
# are compared by the probe matrix.
"$PERF" list > ours.txt
"$PERF_REF" list 2>/dev/null | grep -v '\[SDT event\]' > ref.txt
grep -v '\[SDT event\]' ours.txt > ours-nosdt.txt
if ! cmp -s ours-nosdt.txt ref.txt; then
	diff ours-nosdt.txt ref.txt | head -20 >&2
	fail "full perf list differs from perf 6.1"
fi
info "full list: $(wc -l < ours.txt) lines, identical to perf 6.1's (PMU events and the Metric Groups heading included; SDT events apart)"
exit 0
