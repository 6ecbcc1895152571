#!/bin/bash
# JVMTI agent: kill -9 at 10 random moments leaves only complete records (plus one partial tail)
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
need_jvmti
need_cmd python3
[ -f "$JAVA_CLASSES/JvmtiManyMethods.class" ] || skip "JvmtiManyMethods not built"

# an independent walk of the file: count complete records by their size fields
cat >walk.py <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
end = '<' if d[:4] == b'DTiJ' else '>'
hs = struct.unpack(end + 'I', d[8:12])[0]
pos, n = hs, 0
while pos + 16 <= len(d):
    size = struct.unpack(end + 'I', d[pos + 4:pos + 8])[0]
    if size < 16 or pos + size > len(d):
        break
    pos += size
    n += 1
print(n, pos, 'partial' if pos != len(d) else 'whole')
PY

RANDOM=$$
total_records=0
# the SAN run (make test SAN=1) looks for memory errors: half the moments do
runs=10
[ "${PERF_TEST_SAN:-}" = 1 ] && runs=5
for run in $(seq $runs); do
	rm -rf jd
	# 0.20 .. 3.19 s: from the first stubs to the middle of javac
	delay=$(awk -v r=$((RANDOM % 300)) 'BEGIN { printf "%.2f", 0.2 + r / 100 }')
	$JAVA -agentpath:"$AGENT"=dir="$PWD/jd" -cp "$JAVA_CLASSES" JvmtiManyMethods 50 >/dev/null 2>java.err &
	jpid=$!
	sleep "$delay"
	kill -9 $jpid
	wait $jpid 2>/dev/null
	dump=$(find jd -name 'jit-*.dump' 2>/dev/null | head -n 1)
	[ -n "$dump" ] || { info "run $run: killed after ${delay}s before the dump existed"; continue; }
	out=$("$JITDUMP_CHECK" --killed "$dump" 2>check.err) || fail "run $run (${delay}s): checker: $(head -3 check.err)"
	read -r n complete state < <(python3 walk.py "$dump")
	recs=$(checker_field records "$out")
	cbytes=$(checker_field complete_bytes "$out")
	info "run $run: killed after ${delay}s: $recs records, $state, $(checker_field loads "$out") loads"
	[ "$recs" = "$n" ] || fail "run $run: reader yields $recs records, the file holds $n complete ones"
	[ "$cbytes" = "$complete" ] || fail "run $run: reader stops at $cbytes, complete records end at $complete"
	total_records=$((total_records + n))
done
[ "$total_records" -gt $((runs * 100)) ] || fail "the kills came too early to test anything ($total_records records)"
exit 0
