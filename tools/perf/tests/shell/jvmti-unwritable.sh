#!/bin/bash
# JVMTI agent: an unwritable dir= or a full disk costs one warning, never the JVM's output or exit status
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
need_jvmti

run() {  # run NAME [agent options]: JvmtiHot exits with status 3
	local name=$1
	shift
	$JAVA ${1:+-agentpath:"$AGENT"="$1"} -cp "$JAVA_CLASSES" JvmtiHot 1 --exit 3 >"$name.out" 2>"$name.err"
	echo $? >"$name.rc"
}

compare() {  # compare NAME: same as the run without the agent, plus exactly one warning
	local name=$1
	cmp -s base.out "$name.out" || fail "$name: stdout differs: $(diff base.out "$name.out" | head -3)"
	cmp -s base.rc "$name.rc" || fail "$name: exit status $(cat "$name.rc"), without the agent $(cat base.rc)"
	grep -v '^perf-jvmti: ' "$name.err" >"$name.err.jvm"
	cmp -s base.err "$name.err.jvm" || fail "$name: JVM stderr differs: $(diff base.err "$name.err.jvm" | head -3)"
	[ "$(grep -c '^perf-jvmti: warning: ' "$name.err")" = 1 ] ||
		fail "$name: expected one warning, got: $(cat "$name.err")"
	info "$name: $(grep '^perf-jvmti: ' "$name.err")"
}

run base
[ "$(cat base.rc)" = 3 ] || fail "workload exit status $(cat base.rc), expected 3"

run notadir "dir=/proc/version/jit"
compare notadir
run proc "dir=/proc/sys"
compare proc
if [ "$(id -u)" != 0 ]; then
	mkdir ro && chmod 0500 ro
	run readonly "dir=$PWD/ro"
	compare readonly
fi

# a disk that fills up while the JVM runs: the header fits, the records do not
if [ "$(id -u)" = 0 ] && mkdir full && mount -t tmpfs -o size=64k perf-jvmti-test "$PWD/full" 2>/dev/null; then
	trap 'umount "$PWD/full"; jvmti_cleanup' EXIT
	run full "dir=$PWD/full"
	compare full
	grep -q 'No space left' full.err || fail "full disk: warning does not say why: $(cat full.err)"
	dump=$(find_dump full)
	"$JITDUMP_CHECK" --killed "$dump" >full.check 2>&1 || fail "full disk: the records written are not valid: $(cat full.check)"
	info "full disk: $(cat full.check)"
else
	info "not root or no tmpfs: full-disk case not run"
fi
exit 0
