#!/bin/bash
# JVMTI agent: every record of a real dump is valid and the code bytes equal the stopped JVM's memory
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
need_jvmti

$JAVA -agentpath:"$AGENT"=dir="$PWD/jd" -cp "$JAVA_CLASSES" JvmtiHot --wait-file "$PWD/go" 1 >java.out 2>java.err &
jpid=$!
trap 'kill -CONT $jpid 2>/dev/null; kill -9 $jpid 2>/dev/null; jvmti_cleanup' EXIT
for i in $(seq 100); do grep -q warm java.out && break; sleep 0.1; done
grep -q warm java.out || fail "workload did not warm up"
dump=$(find_dump jd)

kill -STOP $jpid
# the marker: the dump's first page mapped r-x, which is what perf record logs
grep -E "^[0-9a-f]+-[0-9a-f]+ r-xp 00000000 .* $(readlink -f "$dump")\$" /proc/$jpid/maps >maps.txt ||
	fail "no executable mapping of the dump in /proc/$jpid/maps"
start=$(cut -d- -f1 maps.txt); end=$(cut -d' ' -f1 maps.txt | cut -d- -f2)
[ $((0x$end - 0x$start)) = "$(getconf PAGESIZE)" ] || fail "marker mapping is not one page: $(cat maps.txt)"
# the JVM is frozen: what the dump says is in memory must be in memory
"$JITDUMP_CHECK" --killed --mem $jpid --min-identical 90 "$dump" >check.out 2>check.err
rc=$?
kill -CONT $jpid
cat check.out
[ $rc = 0 ] || fail "checker: $(head -5 check.err)"
compared=$(checker_field compared "$(grep '^memory:' check.out)")
[ "$compared" -gt 100 ] || fail "only $compared code blobs compared"

touch go
wait $jpid || fail "workload failed"
trap jvmti_cleanup EXIT
# after a normal exit: complete, CLOSE at the end, every record valid
"$JITDUMP_CHECK" "$dump" >final.out 2>final.err || fail "checker rejects the final dump: $(head -5 final.err)"
info "$(cat final.out)"

# the memory check can fail: against another process's memory (this shell's) it must
"$JITDUMP_CHECK" --mem $$ "$dump" >other.out 2>&1 && fail "memory check passed against the wrong process"
exit 0
