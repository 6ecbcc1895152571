#!/bin/bash
# script: ours prints perf 6.1's lines for perf 6.1 files (default, -g, -F, -a); buildid-list -H of a pipe
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
use_private_home
W="$WORKLOADS/report_mix"
[ -x "$W" ] || fail "workload $W not built"
err=0

"$PERF_REF" record -q -e cpu-clock -o f.data -- "$W" 0.3 2>/dev/null || fail "perf 6.1 record"
"$PERF_REF" record -q -g -e cpu-clock -o g.data -- "$W" 0.3 2>/dev/null || fail "perf 6.1 record -g"
"$PERF_REF" record -q -a -e cpu-clock -o a.data -- "$W" 0.3 2>/dev/null || fail "perf 6.1 record -a"

same() {  # name, args...: outputs must be identical
	local name=$1; shift
	"$PERF_REF" script "$@" > "ref-$name.txt" 2>/dev/null || fail "perf 6.1 script $name"
	"$PERF" script "$@" > "our-$name.txt" 2> "our-$name.err" || { cat "our-$name.err"; fail "our script $name"; }
	[ -s "ref-$name.txt" ] || fail "perf 6.1 printed nothing for $name"
	if ! diff -u "ref-$name.txt" "our-$name.txt" > "diff-$name.txt"; then
		echo "== $name differs from perf 6.1:"; head -20 "diff-$name.txt"; err=1
	else
		echo "-- $name: $(wc -l < "our-$name.txt") lines identical"
	fi
}
same default -i f.data
same callchain -i g.data
same fields -i f.data -F comm,tid,pid,time,event,ip,sym,dso,symoff,period
same short -i f.data -F ip,sym

# System-wide: every line must agree but for the choice among symbol aliases
# at one address (kallsyms lists memcpy and __pi_memcpy at the same address),
# which may differ on a few lines.
"$PERF_REF" script -i a.data > ref-a.txt 2>/dev/null || fail "perf 6.1 script -a"
"$PERF" script -i a.data > our-a.txt 2>/dev/null || fail "our script -a"
python3 - ref-a.txt our-a.txt <<'PY' || err=1
import re, sys
ref = open(sys.argv[1]).read().splitlines()
ours = open(sys.argv[2]).read().splitlines()
if len(ref) != len(ours):
    print(f"line count: perf {len(ref)} ours {len(ours)}"); sys.exit(1)
# everything but the symbol name (keep its +offset)
strip = lambda l: re.sub(r' \S+(\+0x[0-9a-f]+) \(', r' SYM\1 (', l)
alias = 0
for a, b in zip(ref, ours):
    if a == b:
        continue
    if strip(a) != strip(b):
        print("differs:\n  perf: " + a + "\n  ours: " + b); sys.exit(1)
    alias += 1
print(f"-- system-wide: {len(ref)} lines, {alias} with another alias name")
sys.exit(1 if alias * 20 > len(ref) else 0)
PY
# buildid-list -H of a pipe stream lists the hit binaries with empty ids;
# perf 6.1 names the vDSO by the temporary copy it makes (a new random name
# each run), ours [vdso]: compared with that name put back.
"$PERF_REF" record -q -e cpu-clock -o - -- "$W" 0.3 > p.data 2>/dev/null || fail "perf 6.1 record -o -"
"$PERF_REF" buildid-list -H -i - < p.data 2>/dev/null |
	sed -E 's|/tmp/perf-vdso\.so-[A-Za-z0-9]+$|[vdso]|' > ref-ph.txt || fail "perf 6.1 buildid-list -H"
"$PERF" buildid-list -H -i - < p.data > our-ph.txt 2> our-ph.err || { cat our-ph.err; fail "our buildid-list -H"; }
[ -s ref-ph.txt ] || fail "perf 6.1 listed nothing for the pipe"
if ! diff -u ref-ph.txt our-ph.txt; then
	echo "== buildid-list -H of a pipe differs from perf 6.1"; err=1
else
	echo "-- buildid-list -H of a pipe: $(wc -l < our-ph.txt) binaries, as perf 6.1"
fi
exit $err
