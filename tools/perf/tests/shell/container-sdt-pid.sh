#!/bin/bash
# SDT by pid in a container: record -e sdt_ct:hit -p HOSTPID of a static program that exists only in its own root counts its hits exactly (also when its /app/prog became a symlink to a host binary), no uprobe left; perf 6.1 as the baseline
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/container.sh"
# sdt_ct waits until its semaphore says ct:hit is probed, then for SIGUSR1, sent by the
# workload record starts once its events are enabled (trigger), fires ct:hit N times, prints
# "hits N" and exits; unprobed, it fires after its timeout and prints "hits N unarmed".
# Verified to fail without the protections in util/sdt-pid.c: look_at_file's probe path forced
# to /proc/PID/root/NAME (no no-symlink open, no inode check): "symlink: the program was not
# probed" (the uprobe went on the host binary); sdt_pid__resolve_target opening the target by
# its host path: "probe --target-ns -x /app/link ... was accepted"; sdt_pid__cache_target the
# same: "buildid-cache --target-ns -a /app/link ... was accepted".
need_containers
need_ref_perf
need_cmd chroot
T=$(tracefs_dir) || skip "no tracefs"
W="$WORKLOADS/sdt_ct"
[ -x "$W" ] || skip "$W not built"
use_private_home
cleanup() {
	ct_cleanup
	"$PERF" probe -q -d 'sdt_ct:*' >/dev/null 2>&1
}
trap cleanup EXIT

mkdir -p R/app host A/app
cp "$W" R/app/prog
cp "$W" host/prog

# trigger PID OUT: a workload for record: SIGUSR1 to PID, then until PID has said what it fired
# in OUT (it stays 3 s longer: record ends with its workload, not with its target)
trigger() { echo "kill -USR1 $1; until grep -q '^hits' '$PWD/$2'; do sleep 0.05; done"; }

# hits NAME DATA EXPECTED OUT: NAME's recording has EXPECTED ct:hit samples of the program's pid,
# the program (output OUT) was probed and fired as many, no uprobe of ours is left
hits() {
	local name=$1 data=$2 want=$3 out=$4 got
	[ "$(cat "$out")" = "hits $want" ] || fail "$name: the program was not probed: $(cat "$out")"
	got=$("$PERF" script -i "$data" 2>/dev/null | grep -c 'sdt_ct:hit:')
	[ "$got" = "$want" ] || fail "$name: $got hits of ct:hit recorded, the program fired $want"
	! grep -q '^p:sdt_ct/' "$T/uprobe_events" || fail "$name: a uprobe was left: $(grep sdt_ct "$T/uprobe_events")"
}

# ---- perf 6.1: the binary is not in its cache, and its path means nothing on the host ----
ct_start_chroot "$PWD/R" /app/prog 9 20000 2000 >ref.out
"$PERF_REF" record -q -e sdt_ct:hit -p "$CT_PID" -o ref.data >ref.err 2>&1 &
ref=$!
wait "$CT_PID" 2>/dev/null
for _ in $(seq 100); do [ -s ref.out ] && break; sleep 0.1; done
kill -INT "$ref" 2>/dev/null
wait "$ref"
ref_hits=$("$PERF_REF" script -i ref.data 2>/dev/null | grep -c 'sdt_ct:hit:')
info "perf 6.1: ${ref_hits:-0} hits ($(head -1 ref.err | tr -s ' ')), the program: $(cat ref.out)"
ct_cleanup
"$PERF_REF" probe -q -d 'sdt_ct:*' >/dev/null 2>&1

# ---- ours: found in the maps through the root, probed on /proc/PID/root/app/prog ----
ct_start_chroot "$PWD/R" /app/prog 9 20000 20000 >ours.out
pid=$CT_PID
timeout 30 "$PERF" record -e sdt_ct:hit -p "$pid" -o ours.data -- sh -c "$(trigger "$pid" ours.out)" >ours.err 2>&1 ||
	fail "record -p $pid failed: $(cat ours.err)"
grep -q "^Probing sdt_ct:hit in /proc/$pid/root/app/prog " ours.err ||
	fail "not probed on the container's /app/prog: $(cat ours.err)"
hits ours ours.data 9 ours.out
# perf 6.1 reads what we wrote the same way
[ "$("$PERF_REF" script -i ours.data 2>/dev/null | grep -c 'sdt_ct:hit:')" = 9 ] ||
	fail "perf 6.1 does not see the 9 hits in our recording"
# cached by build-id under its name in the container
bid=$("$PERF" buildid-list -i ours.data 2>/dev/null | awk '$2 ~ /prog$/ { print $1 }')
ls "$HOME"/.debug/app/prog/*/probes >/dev/null 2>&1 || fail "/app/prog was not added to the build-id cache"
info "ours: 9 hits of 9 (perf 6.1: ${ref_hits:-0}), cached as /app/prog ${bid:-}"
ct_cleanup

# ---- -a: not in the cache (its entry names /app/prog, no host file): every process's copies ----
ct_start_chroot "$PWD/R" /app/prog 6 20000 20000 >all.out
pid=$CT_PID
timeout 30 "$PERF" record -e sdt_ct:hit -a -o all.data -- sh -c "$(trigger "$pid" all.out)" >all.err 2>&1 || fail "record -a failed: $(cat all.err)"
grep -q "^Probing sdt_ct:hit in /proc/$pid/root/app/prog " all.err || fail "-a: not probed in the container: $(cat all.err)"
hits all all.data 6 all.out
info "-a: 6 hits of 6, probed in the container's copy"
ct_cleanup

# ---- probe --target-ns=PID -x /app/prog (and a symlink there to a host binary: refused) ----
ln -s "$PWD/host/prog" R/app/link
ct_start_chroot "$PWD/R" /app/prog 4 20000 20000 >probe.out
pid=$CT_PID
# buildid-cache --target-ns: the container's file, by build-id under its name there (a fresh cache)
mkdir h2
HOME=$PWD/h2 "$PERF" buildid-cache --target-ns="$pid" -a /app/link >bc.err 2>&1 &&
	fail "buildid-cache --target-ns -a /app/link (a symlink to a host binary) was accepted"
HOME=$PWD/h2 "$PERF" buildid-cache --target-ns="$pid" -a /app/prog >bc.err 2>&1 ||
	fail "buildid-cache --target-ns=$pid -a /app/prog failed: $(cat bc.err)"
cmp -s h2/.debug/app/prog/*/elf R/app/prog || fail "buildid-cache --target-ns: /app/prog not cached as it is in the container"
"$PERF_REF" probe -q --target-ns="$pid" -x /app/prog %sdt_ct:hit >/dev/null 2>&1
ref_probe=$?
"$PERF_REF" probe -q -d 'sdt_ct:*' >/dev/null 2>&1
"$PERF" probe -q --target-ns="$pid" -x /app/link %sdt_ct:hit >link.err 2>&1 &&
	fail "probe --target-ns -x /app/link (a symlink to a host binary) was accepted: $(grep sdt_ct "$T/uprobe_events")"
grep -q 'symlink' link.err || fail "probe of a symlink: no reason given: $(cat link.err)"
"$PERF" probe -q --target-ns="$pid" -x /app/prog %sdt_ct:hit >probe.err 2>&1 ||
	fail "probe --target-ns=$pid -x /app/prog failed: $(cat probe.err)"
grep -q "^p:sdt_ct/hit /proc/$pid/root/app/prog:" "$T/uprobe_events" ||
	fail "probe --target-ns: not on /proc/$pid/root/app/prog: $(grep sdt_ct "$T/uprobe_events")"
# perf 6.1 takes the line as it is (its probe -l reads the file through that path)
"$PERF_REF" probe -l 2>/dev/null | grep -q "sdt_ct:hit .* in /proc/$pid/root/app/prog" ||
	fail "perf 6.1's probe -l does not list our uprobe on /proc/$pid/root/app/prog: $("$PERF_REF" probe -l 2>&1 | grep sdt_ct)"
timeout 30 "$PERF" record -e sdt_ct:hit -p "$pid" -o probe.data -- sh -c "$(trigger "$pid" probe.out)" >probe.err 2>&1 || fail "record failed: $(cat probe.err)"
"$PERF" probe -q -d 'sdt_ct:*' 2>/dev/null || fail "probe -d failed"
hits probe probe.data 4 probe.out
info "probe --target-ns: 4 hits of 4 (perf 6.1's probe --target-ns exits $ref_probe here); it and buildid-cache refuse a symlink"
ct_cleanup

# ---- the container turns /app/prog into a symlink to a host binary after starting it ----
# (a tmpfs mounted over /app in its mount namespace: the mapped file keeps its name in maps)
unshare --pid --fork --mount --mount-proc --kill-child -- sh -c \
	'mount -t tmpfs t "$0/app" && cp "$1" "$0/app/prog" && { chroot "$0" /app/prog 5 20000 20000 & } &&
	 until [ -n "$(pgrep -x -P $$ prog)" ]; do sleep 0.05; done &&
	 mount -t tmpfs t "$0/app" && ln -s "$2" "$0/app/prog" && touch "$0/ready" && wait' \
	"$PWD/A" "$W" "$PWD/host/prog" >sym.out &
ushare=$!
CT_PIDS="$CT_PIDS $ushare"
for _ in $(seq 200); do [ -e A/ready ] && break; sleep 0.05; done
[ -e A/ready ] || fail "the symlink container did not start"
pid=$(pgrep -x -P "$(pgrep -P "$ushare")" prog)
[ "$(readlink "/proc/$pid/root/app/prog")" = "$PWD/host/prog" ] || fail "the container's /app/prog is no symlink"
timeout 30 "$PERF" record -e sdt_ct:hit -p "$pid" -o sym.data -- sh -c "$(trigger "$pid" sym.out)" >sym.err 2>&1 ||
	fail "symlink: record failed: $(cat sym.err)"
hits symlink sym.data 5 sym.out
grep -q "^Probing sdt_ct:hit in /proc/$pid/map_files/" sym.err ||
	fail "symlink: not probed on the mapped file: $(cat sym.err)"
info "symlink to a host binary: 5 hits of 5, probed on the mapped file, not the host binary"
exit 0
