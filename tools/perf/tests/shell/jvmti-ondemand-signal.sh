#!/bin/bash
# JVMTI agent ondemand,signal=USR1: idle writes nothing; the signal switches it on (replaying what is compiled: named profile), off (dump closed, no more writes), on again
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
. "$TOP/tools/perf/tests/shell/lib/container.sh"   # jit_check
need_ref_perf
need_jvmti
use_private_home

# wait_for SECONDS CMD...: until CMD succeeds
wait_for() {
	local n=$(($1 * 10))
	shift
	for _ in $(seq "$n"); do "$@" && return 0; sleep 0.1; done
	return 1
}
dumps() { find jd -name 'jit-*.dump' 2>/dev/null | sort; }
has_spin() { "$JITDUMP_CHECK" --killed --list "$1" 2>/dev/null | grep -q 'JvmtiHot.spin(long, int)$'; }
closed() { "$JITDUMP_CHECK" "$1" >/dev/null 2>&1; }

# a signal the JVM owns is refused, and the JVM runs as without the option
$JAVA -agentpath:"$AGENT"=ondemand,signal=USR2 -cp "$JAVA_CLASSES" JvmtiHot 0.1 >usr2.out 2>usr2.err ||
	fail "JVM with signal=USR2 failed: $(cat usr2.err)"
grep -q 'perf-jvmti: warning: signal 12 .* refused: HotSpot suspends' usr2.err || fail "signal=USR2 not refused: $(cat usr2.err)"

$JAVA -agentpath:"$AGENT"=ondemand,signal=USR1,dir="$PWD/jd" -cp "$JAVA_CLASSES" JvmtiHot --wait-file "$PWD/go" 1 \
	>java.out 2>java.err &
jpid=$!
trap 'kill -9 $jpid 2>/dev/null; jvmti_cleanup' EXIT
wait_for 20 grep -q warm java.out || fail "workload did not warm up"
# JvmtiHot.spin is compiled by now, and the idle agent wrote nothing
[ -z "$(dumps)" ] || fail "the idle agent wrote a dump: $(dumps)"

kill -USR1 $jpid
wait_for 20 test -n "$(dumps)" || fail "no dump after the first signal: $(cat java.err)"
first=$(dumps)
# spin was compiled before the switch: only GenerateEvents' replay puts it in the dump
wait_for 10 has_spin "$first" || fail "the switch did not replay JvmtiHot.spin"
$PERF_REF record -q -k mono -e cpu-clock -o perf.data -p $jpid -- sleep 1.5 2>rec.err ||
	fail "perf record -p failed: $(tail -3 rec.err)"

kill -USR1 $jpid
wait_for 20 closed "$first" || fail "the second signal did not close the dump"
size=$(stat -c %s "$first")

kill -USR1 $jpid
wait_for 20 test "$(dumps | wc -l)" = 2 || fail "no second dump after the third signal: $(cat java.err)"
second=$(dumps | grep -vxF "$first")
wait_for 10 has_spin "$second" || fail "the second switch did not replay JvmtiHot.spin"
touch go
wait $jpid || fail "workload failed: $(cat java.err)"
trap jvmti_cleanup EXIT
! grep -q 'perf-jvmti: warning' java.err || fail "agent warnings: $(cat java.err)"
# switched off is off: nothing after the CLOSE record, not one byte more
"$JITDUMP_CHECK" "$first" >first.txt 2>&1 || fail "first dump: $(head -3 first.txt)"
[ "$(stat -c %s "$first")" = "$size" ] || fail "the first dump grew after it was closed"
"$JITDUMP_CHECK" "$second" >second.txt 2>&1 || fail "second dump (closed at VM death): $(head -3 second.txt)"
info "first: $(cat first.txt)"

# the profile, recorded while switched on, names >= 90% of its JIT samples and the hot method
jit_check on perf.data "$jpid"
exit 0
