#!/bin/bash
# JVMTI agent loaded ondemand: idle writes nothing; perf record --jit -p switches it on (replaying what is compiled: named profile), its end switches it off (dump closed, no more writes), a second record does it again
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
. "$TOP/tools/perf/tests/shell/lib/container.sh"   # jit_check
need_jvmti
use_private_home
# record --jit asks for dir=/tmp: this JVM's dumps go to /tmp/java-jit-*, removed on every exit
jpids=
ondemand_cleanup() {
	for p in $jpids; do
		kill -9 "$p" 2>/dev/null
		for d in /tmp/java-jit-*; do
			[ -e "$d/jit-$p.dump" ] || continue
			rm -f "$d/jit-$p.dump" "$d"/jitted-"$p"*.so
			rmdir "$d"
		done
	done
	jvmti_cleanup
}
trap ondemand_cleanup EXIT
dumps() { find /tmp -maxdepth 2 -path "/tmp/java-jit-*/jit-$jpid.dump" 2>/dev/null | sort; }
has_spin() { "$JITDUMP_CHECK" --list "$1" 2>/dev/null | grep -q 'JvmtiHot.spin(long, int)$'; }

$JAVA -agentpath:"$AGENT"=ondemand -cp "$JAVA_CLASSES" JvmtiHot --wait-file "$PWD/go" 1 >java.out 2>java.err &
jpid=$!
jpids=$jpid
for _ in $(seq 200); do grep -q warm java.out && break; sleep 0.1; done
grep -q warm java.out || fail "workload did not warm up"
# JvmtiHot.spin is compiled by now, and the idle agent wrote nothing (its default dir is ~/.debug/jit)
[ -z "$(dumps)" ] && [ -z "$(find "$HOME" -name 'jit-*.dump')" ] || fail "the idle agent wrote a dump"

"$PERF" record --jit -k mono -e cpu-clock -p "$jpid" -o r1.data -- sleep 2 2>r1.err || fail "record --jit: $(cat r1.err)"
first=$(dumps)
[ "$(echo "$first" | wc -w)" = 1 ] || fail "expected one dump after the first record: $first"
# the end of record switched it off: the dump is closed ...
"$JITDUMP_CHECK" "$first" >first.txt 2>&1 || fail "dump not closed after record: $(head -3 first.txt)"
size=$(stat -c %s "$first")
# ... spin, compiled before the switch, is in it only through GenerateEvents' replay ...
has_spin "$first" || fail "the switch did not replay JvmtiHot.spin"
jit_check r1 r1.data "$jpid"

# ... and a second record switches the same agent on again, into a new dump
"$PERF" record --jit -k mono -e cpu-clock -p "$jpid" -o r2.data -- sleep 2 2>r2.err || fail "second record --jit: $(cat r2.err)"
second=$(dumps | grep -vxF "$first")
[ "$(echo "$second" | wc -w)" = 1 ] || fail "expected a second dump: $(dumps)"
"$JITDUMP_CHECK" "$second" >second.txt 2>&1 || fail "second dump not closed after record: $(head -3 second.txt)"
has_spin "$second" || fail "the second switch did not replay JvmtiHot.spin"
jit_check r2 r2.data "$jpid"
size2=$(stat -c %s "$second")

touch go
wait $jpid || fail "workload failed: $(cat java.err)"
! grep -q 'perf-jvmti: warning' java.err || fail "agent warnings: $(cat java.err)"
# off is off: both dumps end with their CLOSE and did not grow while the JVM ran on
"$JITDUMP_CHECK" "$first" >/dev/null 2>&1 && "$JITDUMP_CHECK" "$second" >/dev/null 2>&1 ||
	fail "a record after a dump's CLOSE"
[ "$(stat -c %s "$first")" = "$size" ] && [ "$(stat -c %s "$second")" = "$size2" ] ||
	fail "a dump grew after record switched the agent off"
[ "$(dumps | wc -l)" = 2 ] || fail "the agent started another dump by itself: $(dumps)"

# The JVM's agent is another file than the one record loads (as for a JVM in a container,
# which gets a copy): the loaded copy hands record's load and stop to the idle agent.
cp "$AGENT" copy.so
$JAVA -agentpath:"$PWD/copy.so"=ondemand,verbose -cp "$JAVA_CLASSES" JvmtiHot --wait-file "$PWD/go2" 1 >java2.out 2>java2.err &
jpid=$!
jpids="$jpids $jpid"
for _ in $(seq 200); do grep -q warm java2.out && break; sleep 0.1; done
grep -q warm java2.out || fail "second workload did not warm up"
"$PERF" record --jit -k mono -e cpu-clock -p "$jpid" -o r3.data -- sleep 2 2>r3.err || fail "record --jit (copy): $(cat r3.err)"
third=$(dumps)
[ "$(echo "$third" | wc -w)" = 1 ] || fail "expected one dump of the JVM with a copy: $third"
"$JITDUMP_CHECK" "$third" >third.txt 2>&1 || fail "dump not closed after record (copy): $(head -3 third.txt)"
has_spin "$third" || fail "the switch (copy) did not replay JvmtiHot.spin"
touch go2
wait $jpid || fail "second workload failed: $(cat java2.err)"
! grep -q 'perf-jvmti: warning' java2.err || fail "agent warnings (copy): $(cat java2.err)"
# the idle agent wrote it, as it says (a second agent would write without a word)
grep -q "perf-jvmti: writing $third" java2.err || fail "the dump is not the idle agent's: $(cat java2.err)"
exit 0
