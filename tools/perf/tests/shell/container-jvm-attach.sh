#!/bin/bash
# record --jit -p PID: our agent loaded into a running JVM started without one (on the host and in a container) through the attach socket, stopped at the end; named profile; clear refusals
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
. "$TOP/tools/perf/tests/shell/lib/container.sh"
# No JDK tool is used: perf speaks the /tmp/.java_pid<nspid> protocol itself (trigger file +
# SIGQUIT when no listener runs yet), as the JVM's user, through /proc/PID/root for a container
# (whose JVM gets a copy of the agent in its /tmp, removed at the end). The agent replays what
# is compiled, and the last request tells it to stop and close its dump.
need_containers
need_jvmti
# the host JVM's dump goes to its /tmp (record passes dir=/tmp): removed here on every exit
attach_cleanup() {
	ct_cleanup
	kill -9 $hp $np $dp $op 2>/dev/null
	[ -n "${hp:-}" ] && for d in /tmp/java-jit-*; do
		[ -e "$d/jit-$hp.dump" ] || continue
		rm -f "$d/jit-$hp.dump" "$d"/jitted-"$hp"*.so
		rmdir "$d"
	done
	jvmti_cleanup
}
trap attach_cleanup EXIT

check() {  # check NAME PID
	jit_check "$1" "$1.data" "$2"
}

# 1. a JVM on the host, no agent
mkdir host && cd host
$JAVA -cp "$JAVA_CLASSES" JvmtiHot 600 >java.out 2>java.err &
hp=$!
cd ..
sleep 1.5
"$PERF" record --jit -k mono -e cpu-clock -p "$hp" -o host.data -- sleep 2 2>host.err || fail "record --jit: $(cat host.err)"
check host "$hp"
# stopped: the dump ends with its CLOSE record, and another attach starts a new one
dump=$(find /tmp -maxdepth 2 -path "/tmp/java-jit-*/jit-$hp.dump" 2>/dev/null | head -1)
[ -n "$dump" ] || fail "no dump of $hp in its /tmp"
"$JITDUMP_CHECK" "$dump" >check.txt 2>&1 || fail "dump not closed/valid after the stop: $(head -3 check.txt)"
"$PERF" record --jit -k mono -e cpu-clock -p "$hp" -o host2.data -- sleep 2 2>host2.err || fail "second record --jit: $(cat host2.err)"
check host2 "$hp"
kill -0 "$hp" || fail "the JVM died"

# 1b. a JVM that already runs our agent: it keeps its own dump (the stop is not for it)
$JAVA -agentpath:"$AGENT"=dir="$PWD/own" -cp "$JAVA_CLASSES" JvmtiHot 600 >own.out 2>own.err &
op=$!
sleep 1.5
"$PERF" record --jit -k mono -e cpu-clock -p "$op" -o own.data -- sleep 2 2>ownrec.err || fail "record --jit: $(cat ownrec.err)"
check own "$op"
grep -q "perf-jvmti: warning: already writing" own.err || fail "the second load was not refused: $(cat own.err)"
grep -q "not started by perf record --jit; it goes on" own.err || fail "the user's dump was stopped: $(cat own.err)"
kill -9 "$op"

# 2. a JVM in a container, no agent
mkdir ct
ct_start "$PWD/ct" $JAVA -cp "$JAVA_CLASSES" JvmtiHot 600
sleep 1.5
"$PERF" record --jit -k mono -e cpu-clock -p "$CT_PID" -o ct.data -- sleep 2 2>ct.err || fail "record --jit (container): $(cat ct.err)"
grep -q 'saved 1 jitdump' ct.err || fail "the container's dump was not saved: $(cat ct.err)"
check ct "$CT_PID"
[ -z "$(find ct -name '.perf-jvmti-*')" ] || fail "our agent copy was left in the container: $(ls -a ct)"
ct_cleanup

# 3. refusals, the target unharmed: not a JVM; a JVM with attach disabled
sleep 60 &
np=$!
"$PERF" record --jit -e cpu-clock -p "$np" -o no.data -- sleep 0.2 2>no.err && fail "record --jit on sleep succeeded"
grep -q "process $np is not a HotSpot JVM" no.err || fail "no clear message for a non-JVM: $(cat no.err)"
kill -0 "$np" || fail "the non-JVM was harmed"
$JAVA -XX:+DisableAttachMechanism -cp "$JAVA_CLASSES" JvmtiHot 600 >dis.out 2>&1 &
dp=$!
sleep 1
"$PERF" record --jit -e cpu-clock -p "$dp" -o dis.data -- sleep 0.2 2>dis.err && fail "record --jit on a JVM without attach succeeded"
grep -q "DisableAttachMechanism" dis.err || fail "no clear message for attach disabled: $(cat dis.err)"
kill -0 "$dp" || fail "the JVM without attach was harmed"
"$PERF" record --jit -e cpu-clock -o x.data -- true 2>nop.err && fail "--jit without -p accepted"
grep -q -- "--jit needs -p" nop.err || fail "no message for --jit without -p: $(cat nop.err)"
exit 0
