#!/bin/bash
# perf record: two libraries mapped at one address in turn resolve by time
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
use_private_home

A="$WORKLOADS/rec_remap_a.so"
B="$WORKLOADS/rec_remap_b.so"
[ -f "$A" ] && [ -f "$B" ] || fail "remap libraries not built"
"$PERF" record -q -k mono -o r.data -- "$WORKLOADS/rec_remap" "$A" rec_blob_alpha "$B" rec_blob_beta 300 >out.txt ||
	fail "record failed"
addr=$(awk '/^ADDR/ { print $2 }' out.txt)
switch=$(awk '/^SWITCH/ { print $2 }' out.txt)
[ -n "$addr" ] && [ -n "$switch" ] || fail "workload output incomplete: $(cat out.txt)"

# perf 6.1: every sample in the shared range names the library mapped at its time
"$PERF_REF" script -i r.data -F time,ip,sym --ns >script.txt 2>/dev/null || fail "perf 6.1 script failed"
# (hex strings of one length compare like numbers; mawk has no strtonum)
lo=$(printf '%x' $((addr)))
hi=$(printf '%x' $((addr + 8192)))
awk -v lo="$lo" -v hi="$hi" -v sw="$switch" '
	{ t = $1; sub(":", "", t); split(t, a, "."); ns = a[1] * 1000000000 + a[2]
	  ip = $2; if (length(ip) != length(lo) || ip < lo || ip >= hi) next
	  # the switch line is printed just after the new mapping: allow 1 ms
	  if (ns < sw - 1000000) { if ($3 == "rec_blob_alpha") a1++; else bad++ }
	  else if (ns > sw + 1000000) { if ($3 == "rec_blob_beta") b1++; else bad++ } }
	END { print "alpha " a1 ", beta " b1 ", wrong " bad
	      exit !(a1 >= 50 && b1 >= 50 && bad + 0 <= 2) }' script.txt ||
	fail "perf 6.1 resolved the shared address wrongly"

# our report: both phases show up under their own library
if "$PERF" report -h 2>&1 | grep -q -- '--stdio'; then
	"$PERF" report -i r.data --stdio --sort comm,dso,sym >our.txt 2>our.err || fail "our report failed"
	for want in "rec_remap_a.so [.] rec_blob_alpha" "rec_remap_b.so [.] rec_blob_beta"; do
		pct=$(awk -v w="$want" '$1 ~ /%$/ { r = $3 " " $4 " " $5; if (r == w) { sub("%", "", $1); print $1 } }' our.txt)
		awk -v p="${pct:-0}" 'BEGIN { exit !(p >= 30) }' || fail "our report: '$want' at ${pct:-0}%"
	done
fi
exit 0
