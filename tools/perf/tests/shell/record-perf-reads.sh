#!/bin/bash
# perf record: perf 6.1 reads our recording cleanly and its top-10 agrees with our report
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
use_private_home

# "comm|dso|sym|pct" for each row of a --stdio report
rows() {
	awk '$1 ~ /^[0-9.]+%$/ { p = $1; sub("%", "", p); s = "";
		for (i = 5; i <= NF; i++) s = s (i > 5 ? " " : "") $i;
		print $2 "|" $3 "|" s "|" p }' "$1"
}
pct_of() { awk -F'|' -v k="$2" '$1 "|" $2 "|" $3 == k { print $4; f = 1 } END { if (!f) print 0 }' "$1"; }

"$PERF" record -q -o ours.data -- "$WORKLOADS/rec_cpu" 800 || fail "our perf record failed"
"$PERF_REF" report -i ours.data --stdio --sort comm,dso,sym >ref.txt 2>ref.err || {
	cat ref.err >&2; fail "perf 6.1 report of our file exited non-zero"; }
if grep -Eiq "incompatible|failed|warning" ref.err; then
	cat ref.err >&2; fail "perf 6.1 complained about our file"
fi
rows ref.txt | head -10 >ref.rows
[ -s ref.rows ] || fail "perf 6.1 shows no samples in our file"
hot=$(pct_of ref.rows "rec_cpu|rec_cpu|rec_hot_a")
awk -v h="$hot" 'BEGIN { exit !(h >= 45 && h <= 80) }' || fail "perf 6.1 sees rec_hot_a at $hot% (expected ~66%)"

# perf 6.1 recording the same workload must tell the same story (loosely: runs differ)
"$PERF_REF" record -q -o theirs.data -- "$WORKLOADS/rec_cpu" 800 2>/dev/null || fail "perf 6.1 record failed"
"$PERF_REF" report -i theirs.data --stdio --sort comm,dso,sym 2>/dev/null >theirs.txt
rows theirs.txt >theirs.rows
their_hot=$(pct_of theirs.rows "rec_cpu|rec_cpu|rec_hot_a")
awk -v a="$hot" -v b="$their_hot" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 10) }' ||
	fail "rec_hot_a: $hot% in our recording, $their_hot% in perf 6.1's"

# exact comparison with our report of the same file
if "$PERF" report -h 2>&1 | grep -q -- '--stdio'; then
	"$PERF" report -i ours.data --stdio --sort comm,dso,sym >our.txt 2>our.err || {
		cat our.err >&2; fail "our report of our file failed"; }
	rows our.txt >our.rows
	while IFS='|' read -r comm dso sym pct; do
		o=$(pct_of our.rows "$comm|$dso|$sym")
		awk -v a="$pct" -v b="$o" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1.0) }' ||
			fail "row $comm $dso $sym: perf 6.1 $pct%, ours $o%"
	done <ref.rows
	info "top-10 rows agree within 1 point"
else
	info "our report not available: compared with perf 6.1's own recording only"
fi
exit 0
