#!/bin/bash
# Containers: node --perf-basic-prof in its own pid+mount namespaces and /tmp: record saves its /tmp/perf-<nspid>.map, report names >= 90% of its JIT samples
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/container.sh"
# node writes /tmp/perf-<nspid>.map in the container's /tmp; samples carry the host pid, and
# perf 6.1 (the baseline, printed) looks for /tmp/perf-<hostpid>.map on the host: 0% named.
# Our record takes the map through /proc/PID/root and saves it in perf.data.jit/; report
# reads that copy (or the live root when the data has no copy), never the host's file.
need_containers
need_cmd node
JS="$TOP/tools/perf/tests/workloads/cg_node.js"
trap 'ct_cleanup' EXIT

# count NAME REPORTER DATA PID
count() {
	local total named
	"$2" script -i "$3" -F pid,ip,sym,dso >"$1.script" 2>"$1.err" || fail "$1: script failed: $(cat "$1.err")"
	read -r total named < <(jit_named "$1.script" "$4")
	echo "$total $named"
}

# 1. recorded to the end: the container and its /tmp are gone when report runs
mkdir ct1 && ct_keep_tree "$PWD/ct1"
"$PERF" record -e cpu-clock -o exited.data -- \
	unshare --pid --fork --mount --mount-proc --kill-child -- \
	sh -c "$CT_MOUNT"' && exec "$@"' "$PWD/ct1" node --perf-basic-prof "$JS" 2 >node1.out 2>rec1.err ||
	fail "record failed: $(tail -3 rec1.err)"
grep -q '^done' node1.out || fail "node did not finish"
ls ct1/perf-*.map >/dev/null 2>&1 || fail "node wrote no perf map in its /tmp: $(ls ct1)"
grep -q 'saved 0 jitdumps and 1 perf map of 1 process in other namespaces to exited.data.jit/' rec1.err ||
	fail "record did not save the map: $(cat rec1.err)"
pid=$(awk '$1 == "proc" { print $2 }' exited.data.jit/index)
rm -rf ct1/*
# a decoy under the host pid's name: never read for a container's process
echo "0 ffffffffffff decoy_from_the_host" >"/tmp/perf-$pid.map"
trap 'rm -f "/tmp/perf-$pid.map"; ct_cleanup' EXIT
read -r total named < <(count exited "$PERF" exited.data "$pid")
info "exited: JIT samples of pid $pid: $total, named $named"
[ "$total" -ge 300 ] || fail "exited: too few JIT samples ($total)"
[ $((named * 100)) -ge $((total * 90)) ] || fail "exited: only $named of $total JIT samples named"
grep -q decoy exited.script && fail "the host's /tmp/perf-$pid.map was read for a container's process"
"$PERF" report -i exited.data --stdio --sort sym 2>/dev/null | grep '%' | head -3 | grep -q 'hot' ||
	fail "the hot JS function is not in the top 3"
rm -f "/tmp/perf-$pid.map"
if [ -x "${PERF_REF:-}" ]; then
	read -r total named < <(count exited.ref "$PERF_REF" exited.data "$pid")
	info "exited: perf 6.1 names $named of $total (baseline)"
fi

# 2. without the copy, report says what is missing
mv exited.data.jit saved.jit
"$PERF" report -i exited.data --stdio >/dev/null 2>nocopy.err
grep -q "pid $pid (pid [0-9]* in its container) has JIT samples but no /tmp/perf-[0-9]*.map in its root" nocopy.err ||
	grep -q "pid $pid .*has JIT samples" nocopy.err || fail "report was silent about the missing map: $(cat nocopy.err)"
mv saved.jit exited.data.jit

# 3. running, recorded by perf 6.1 by host pid: our report reads the map inside its root
if [ -x "${PERF_REF:-}" ]; then
	mkdir ct2
	ct_start "$PWD/ct2" node --perf-basic-prof "$JS" 60
	for i in $(seq 100); do ls ct2/perf-*.map >/dev/null 2>&1 && break; sleep 0.1; done
	sleep 1
	"$PERF_REF" record -q -e cpu-clock -p "$CT_PID" -o live.data -- sleep 2 2>rec2.err || fail "perf 6.1 record -p: $(cat rec2.err)"
	read -r total named < <(count live "$PERF" live.data "$CT_PID")
	info "live: JIT samples of pid $CT_PID: $total, named $named"
	[ "$total" -ge 300 ] || fail "live: too few JIT samples ($total)"
	[ $((named * 100)) -ge $((total * 90)) ] || fail "live: only $named of $total JIT samples named"
	read -r total named < <(count live.ref "$PERF_REF" live.data "$CT_PID")
	info "live: perf 6.1 names $named of $total (baseline)"
	ct_cleanup
fi
exit 0
