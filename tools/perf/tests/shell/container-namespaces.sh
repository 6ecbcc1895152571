#!/bin/bash
# record --namespaces: PERF_RECORD_NAMESPACES as perf 6.1 writes them (attr bit, one per thread at start, the kernel's at fork); perf 6.1's script --show-namespace-events reads ours as ours does, a container's pid and mount namespaces are its own
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/container.sh"
# (perf 6.1's recordings read by ours: the compat matrix, scr_task rows of compat/script.tbl)
# Verified to fail with the synthesized records removed (synthesize_namespaces returning 0
# at once): "fewer than 2 NAMESPACES records (perf-exec's, the fork's): 1"; without the attr bit
# (evlist.c): "the tracking event has no namespaces bit".
need_containers
need_ref_perf
trap 'ct_cleanup' EXIT

# ns_of FILE PID: the pid and mnt inode numbers (hex) of PID's first NAMESPACES record, as script prints
ns_of() {
	awk -v p="$2" '$0 ~ "PERF_RECORD_NAMESPACES " p "/" { f = 1; next }
	f && /3\/pid:/ { sub(/.*3\/pid: [0-9]+\//, ""); sub(/,.*/, ""); pid = $0 }
	f && /5\/mnt:/ { sub(/.*5\/mnt: [0-9]+\//, ""); sub(/,.*/, ""); print pid, $0; exit }' "$1"
}

# a workload: perf-exec's synthesized record and the kernel's at the shell's fork
"$PERF" record -q --namespaces -e cpu-clock -o wl.data -- sh -c 'sleep 0.05; true' ||
	fail "record --namespaces failed"
"$PERF_REF" evlist -v -i wl.data | grep -q 'namespaces: 1' || fail "the tracking event has no namespaces bit"
"$PERF_REF" script -i wl.data --show-namespace-events --show-task-events >wl.ref 2>&1 ||
	fail "perf 6.1 cannot read our file: $(head -3 wl.ref)"
"$PERF" script -i wl.data --show-namespace-events --show-task-events >wl.our 2>&1 || fail "our script failed"
diff wl.ref wl.our >wl.diff || fail "perf 6.1 and ours read our NAMESPACES differently: $(head wl.diff)"
[ "$(grep -c 'PERF_RECORD_NAMESPACES' wl.ref)" -ge 2 ] ||
	fail "fewer than 2 NAMESPACES records (perf-exec's, the fork's): $(grep -c PERF_RECORD_NAMESPACES wl.ref)"

# a process in a container, by host pid: its own pid and mount namespaces
mkdir -p ct
ct_start "$PWD/ct" sleep 30 >/dev/null
pid=$CT_PID
timeout -s INT 0.5 "$PERF" record -q --namespaces -e cpu-clock -p "$pid" -o ct.data
"$PERF_REF" script -i ct.data --show-namespace-events >ct.ref 2>&1 || fail "perf 6.1 cannot read ct.data"
"$PERF" script -i ct.data --show-namespace-events >ct.our 2>&1 || fail "our script failed on ct.data"
diff ct.ref ct.our >ct.diff || fail "container: perf 6.1 and ours differ: $(head ct.diff)"
read -r pidns mntns < <(ns_of ct.ref "$pid")
[ -n "$pidns" ] || fail "container pid $pid: no NAMESPACES record"
want_pid=$(printf '0x%x' "$(stat -L -c %i "/proc/$pid/ns/pid")")
want_mnt=$(printf '0x%x' "$(stat -L -c %i "/proc/$pid/ns/mnt")")
[ "$pidns $mntns" = "$want_pid $want_mnt" ] ||
	fail "container pid $pid: pid/mnt namespaces $pidns $mntns, /proc says $want_pid $want_mnt"
[ "$want_pid" != "$(printf '0x%x' "$(stat -L -c %i /proc/self/ns/pid)")" ] || fail "the container shares our pid namespace"
info "NAMESPACES: perf 6.1 reads ours identically; container pid $pid in pid ns $pidns, mnt ns $mntns"
exit 0
