#!/bin/bash
# perf record -k mono: clockid in the attr, CLOCKID feature, sample times on CLOCK_MONOTONIC
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
use_private_home

"$PERF" record -q -k mono -e cpu-clock -o k.data -- "$WORKLOADS/rec_clock" 300 >out.txt ||
	fail "record -k mono failed"
"$PERF_REF" evlist -v -i k.data >evlist.txt 2>&1 || fail "perf 6.1 evlist failed"
grep -q "use_clockid: 1" evlist.txt || fail "use_clockid not set: $(cat evlist.txt)"
grep -q "clockid: 1" evlist.txt || fail "clockid not 1: $(cat evlist.txt)"
"$PERF_REF" report --header-only -i k.data >hdr.txt 2>&1 || fail "perf 6.1 --header-only failed"
grep -q "clockid frequency: 1000 MHz" hdr.txt || fail "no CLOCKID feature: $(grep -i clock hdr.txt)"
grep -q "clockid: monotonic (1)" hdr.txt || fail "no CLOCK_DATA feature"

mark=$(awk '/^MARK/ { print $2 }' out.txt)
[ -n "$mark" ] || fail "workload printed no MARK"
"$PERF_REF" script -i k.data -F time,ip,sym --ns >script.txt 2>/dev/null || fail "perf 6.1 script failed"
# times print as "123.456789012:"; compare in ns with the workload's clock
awk -v mark="$mark" '
	{ t = $1; sub(":", "", t); split(t, a, "."); ns = a[1] * 1000000000 + a[2] }
	/rec_phase_one/ { last1 = ns; n1++ }
	/rec_phase_two/ { if (!first2) first2 = ns; n2++ }
	END {
		if (n1 < 50 || n2 < 50) { print "too few samples: " n1 " / " n2; exit 1 }
		d1 = mark - last1; d2 = first2 - mark
		printf "last phase-one sample %.3f ms before the mark, first phase-two %.3f ms after\n", d1 / 1e6, d2 / 1e6
		if (d1 < -10e6 || d1 > 10e6 || d2 < -10e6 || d2 > 10e6) exit 1
	}' script.txt || fail "sample times are not within 10 ms of CLOCK_MONOTONIC"
exit 0
