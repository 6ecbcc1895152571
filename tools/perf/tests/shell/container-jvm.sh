#!/bin/bash
# Containers: a JVM with our agent in its own pid+mount namespaces and /tmp, recorded on the host: >= 90% of JIT samples named after it exited and while it runs
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
. "$TOP/tools/perf/tests/shell/lib/container.sh"
# The JVM writes /tmp/<dir>/jit-<nspid>.dump in its own /tmp (a host directory bound over it) and
# its marker MMAP names that path; the records carry its host pid. perf 6.1 (baseline, printed,
# not asserted: it names 0% here) matches jit-N.dump against the host pid and opens the path on
# the host. We map nspid -> host pid, take the dump through /proc/PID/root while it runs (record
# keeps a copy in perf.data.jit/) and write the ELFs on our side.
need_containers
need_jvmti
use_private_home
trap 'ct_cleanup; jvmti_cleanup' EXIT

# check NAME DATA PID: jit_check, and the ELFs are on our side
check() {
	local name=$1
	jit_check "$@"
	# no ELF inside the container's /tmp: they are beside the output
	[ -z "$(find ct* -name 'jitted-*.so')" ] || fail "$name: inject wrote into the container: $(find ct* -name 'jitted-*')"
	ls "$name.jit.jit"/jitted-*.so >/dev/null 2>&1 || fail "$name: no ELF in $name.jit.jit/"
}

# perf 6.1 reads what we wrote (once the container is gone: for a live process perf 6.1 opens
# the ELF paths inside its mount namespace, where our output directory is not)
ref_reads() {
	local name=$1
	[ -x "${PERF_REF:-}" ] || return 0
	"$PERF_REF" report -i "$name.jit" --stdio --sort sym 2>/dev/null | grep '%' | head -n 3 >"$name.ref.top3"
	grep -Eq 'JvmtiHot.(spin\(long, int\)|main\(String\[\]\))' "$name.ref.top3" ||
		fail "$name: perf 6.1's report of our output lacks the hot method: $(cat "$name.ref.top3")"
}

# perf 6.1 on the same data: the baseline (seen: 0% after exit; while it runs it names them too)
baseline() {
	local name=$1 data=$2 pid=$3 total named n
	[ -x "${PERF_REF:-}" ] || return 0
	"$PERF_REF" inject --jit -i "$data" -o "$name.ref.jit" >/dev/null 2>"$name.ref.err" || true
	"$PERF_REF" script -i "$name.ref.jit" -F pid,ip,sym,dso >"$name.ref.script" 2>/dev/null || true
	read -r total named < <(jit_named "$name.ref.script" "$pid")
	info "$name: perf 6.1 inject names $named of $total JIT samples (baseline)"
	# perf 6.1 writes its ELFs beside the dump: inside the container (we never do)
	n=$(find ct* -name 'jitted-*.so' | wc -l)
	[ "$n" = 0 ] || info "$name: perf 6.1 wrote $n ELFs into the container's /tmp (removed)"
	find ct* -name 'jitted-*.so' -delete
}

# 1. recorded from start to exit: the container is gone when inject runs
mkdir ct1 && ct_keep_tree "$PWD/ct1"
"$PERF" record -k mono -e cpu-clock -o exited.data -- \
	unshare --pid --fork --mount --mount-proc --kill-child -- \
	sh -c "$CT_MOUNT"' && exec "$@"' "$PWD/ct1" \
	$JAVA -agentpath:"$AGENT"=dir=/tmp -cp "$JAVA_CLASSES" JvmtiHot 3 >java1.out 2>rec1.err ||
	fail "record of the container failed: $(tail -3 rec1.err)"
dump=$(find_dump ct1)
[ "$(basename "$dump")" = jit-1.dump ] || fail "the JVM was not pid 1 in its namespace: $dump"
grep -q 'saved 1 jitdump and 0 perf maps of 1 process in other namespaces to exited.data.jit/' rec1.err ||
	fail "record did not say what it saved: $(cat rec1.err)"
pid=$(awk '$1 == "proc" { print $2 }' exited.data.jit/index)
[ -n "$pid" ] || fail "no process in exited.data.jit/index: $(cat exited.data.jit/index)"
# the container's /tmp is emptied: only record's copy is left
rm -rf ct1/*
check exited exited.data "$pid"
ref_reads exited
baseline exited exited.data "$pid"
grep -q "jit: " exited.inject.err && fail "inject warned: $(cat exited.inject.err)"

# without the copy, inject says why the dump is missing (and does not fail)
mv exited.data.jit saved.jit
"$PERF" inject --jit -i exited.data -o nocopy.jit 2>nocopy.err || fail "inject without a copy failed"
grep -q "pid $pid maps /tmp/.*jit-1.dump, the jitdump of a pid 1: it ran in another pid namespace" nocopy.err ||
	fail "inject was silent about the dump it cannot read: $(cat nocopy.err)"
mv saved.jit exited.data.jit

# 2. a running container recorded by host pid for a few seconds, injected while it runs
mkdir ct2 && ct_keep_tree "$PWD/ct2"
ct_start "$PWD/ct2" $JAVA -agentpath:"$AGENT"=dir=/tmp -cp "$JAVA_CLASSES" JvmtiHot 600
for i in $(seq 100); do [ -n "$(find ct2 -name 'jit-*.dump')" ] && break; sleep 0.1; done
sleep 1
"$PERF" record -k mono -e cpu-clock -p "$CT_PID" -o running.data -- sleep 3 2>rec2.err ||
	fail "record -p failed: $(cat rec2.err)"
grep -q 'saved 1 jitdump' rec2.err || fail "record -p saved no dump: $(cat rec2.err)"
check running running.data "$CT_PID"
baseline running running.data "$CT_PID"

# 3. the same with perf 6.1's recording (no copy): our inject reads the dump through /proc/PID/root
if [ -x "${PERF_REF:-}" ]; then
	"$PERF_REF" record -q -k mono -e cpu-clock -p "$CT_PID" -o ref.data -- sleep 3 2>rec3.err ||
		fail "perf 6.1 record -p failed: $(cat rec3.err)"
	[ ! -e ref.data.jit ] || fail "perf 6.1 made a copy?"
	check live ref.data "$CT_PID"
	baseline live ref.data "$CT_PID"
fi
ct_cleanup
[ -z "$(pgrep -f "JvmtiHot 600")" ] || fail "the container's JVM is still running"
ref_reads running
ref_reads live
exit 0
