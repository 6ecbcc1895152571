#!/bin/bash
# Security: a container's symlinks (its /tmp/perf-N.map or jitdump pointing at a host file, or a directory escaping its root) never make record, report or inject read or write a host file
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/container.sh"
# The container has a root of its own (chroot into R, /usr bound in). The host's "secrets" are a
# perf map naming HOST_SECRET_MAP and a jitdump naming HOST_SECRET_FN under $PWD/host. The
# container plants:
#   final:  its /tmp/perf-1.map (or /tmp/jd/jit-1.dump) as an absolute symlink to the host file;
#           followed naively through /proc/PID/root, an absolute target resolves from OUR root;
#   escape: its /tmp (or /tmp/jd) as a relative symlink ../../../..<host dir>: '..' naively
#           walks out of its root into ours (inside it, the path loops: ELOOP).
# We open inside the root (openat2 RESOLVE_IN_ROOT) and refuse a symlink as the last component.
# Verified to fail without the protection, in ns_proc__open (util/namespaces.c): patched to a
# plain openat(/proc/PID/root fd, path + 1): "map-final (our record): a host file was read";
# patched to openat2 without RESOLVE_IN_ROOT (O_NOFOLLOW kept): "map-escape (our record): a host
# file was read". A jitdump is first opened as the mapped object (/proc/PID/map_files), which
# no path can redirect; its path is only walked (in the root) when the mapping is gone.
need_containers
need_cmd python3 chroot
W="$WORKLOADS/sym_jit_map"
[ -x "$W" ] || skip "$W not built"
trap 'ct_cleanup' EXIT

mkdir -p R/usr R/w R/tmp R/proc host/jd
ln -s usr/lib R/lib
ln -s usr/lib64 R/lib64
ln -s usr/bin R/bin
echo "0 ffffffffffffffff HOST_SECRET_MAP" >host/perf-1.map

# mkdump PATH NAME: a jitdump of pid 1 with one function NAME (CLOCK_MONOTONIC timestamps)
mkdump() {
	python3 - "$1" "$2" <<'PY'
import struct, sys, time
path, name = sys.argv[1], sys.argv[2].encode() + b"\0"
ts = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
code = b"\x90" * 15 + b"\xc3"
hdr = struct.pack("<IIIIIIQQ", 0x4A695444, 1, 40, 62, 0, 1, ts, 0)
load = struct.pack("<IIQIIQQQQ", 0, 56 + len(name) + len(code), ts, 1, 1, 0x40000000, 0x40000000,
                   len(code), 1) + name + code
open(path, "wb").write(hdr + load)
PY
}
mkdump host/jd/jit-1.dump HOST_SECRET_FN

no_secret() {  # no_secret WHAT FILES...
	local what=$1
	shift
	! grep -aq 'HOST_SECRET' "$@" 2>/dev/null || fail "$what: a host file was read through the container's symlink"
}

# ---- A. perf map: sym_jit_map in the container writes /tmp/perf-1.map ----
ct_start_root "$PWD/R" /w/sym_jit_map 60000 ct_fn_one ct_fn_two
pid=$CT_PID
for i in $(seq 100); do [ -s R/tmp/perf-1.map ] && break; sleep 0.05; done
[ -s R/tmp/perf-1.map ] || fail "the workload wrote no /tmp/perf-1.map in its root"
[ "$(ct_nspid "$pid")" = 1 ] || fail "the workload is not pid 1 in its namespace"
mv R/tmp/perf-1.map R/tmp/real.map

# records by pid, ours and perf 6.1's; reports by ours
map_case() {  # map_case NAME: record (ours + perf 6.1) and report, no secret, a message
	local name=$1
	"$PERF" record -e cpu-clock -p "$pid" -o "$name.data" -- sleep 1 2>"$name.rec.err" || fail "$name: record: $(cat "$name.rec.err")"
	"$PERF" report -i "$name.data" --stdio --sort sym >"$name.report" 2>"$name.report.err"
	no_secret "$name (our record)" "$name.report" "$name.data.jit"/*
	grep -q "pid $pid" "$name.rec.err" "$name.report.err" || fail "$name: nothing said about pid $pid's map: $(cat "$name.rec.err" "$name.report.err")"
	info "$name: ours: $(grep -h "pid $pid" "$name.rec.err" "$name.report.err" | head -2 | tr '\n' ' ')"
	if [ -x "${PERF_REF:-}" ]; then
		"$PERF_REF" record -q -e cpu-clock -p "$pid" -o "$name.ref.data" -- sleep 1 2>/dev/null || fail "$name: perf 6.1 record"
		"$PERF" report -i "$name.ref.data" --stdio --sort sym >"$name.live.report" 2>"$name.live.err"
		no_secret "$name (live root)" "$name.live.report"
		grep -q "pid $pid" "$name.live.err" || fail "$name: report was silent: $(cat "$name.live.err")"
		info "$name: live: $(head -1 "$name.live.err")"
	fi
}

# A1. the map is a symlink to the host's file
ln -s "$PWD/host/perf-1.map" R/tmp/perf-1.map
map_case map-final
grep -q "symlink" map-final.rec.err || fail "record did not say the map is a symlink: $(cat map-final.rec.err)"
rm R/tmp/perf-1.map

# A2. its /tmp is a relative symlink climbing out of its root to the host dir
mv R/tmp/real.map R/tmp/perf-1.map
mv R/tmp R/tmp.real
ln -s "../../../../../../../../../../../..$PWD/host" R/tmp
map_case map-escape
rm R/tmp
mv R/tmp.real R/tmp
# the untouched map is read (the protection does not lose the container's own map)
"$PERF" record -e cpu-clock -p "$pid" -o good.data -- sleep 1 2>good.err || fail "record: $(cat good.err)"
"$PERF" report -i good.data --stdio --sort sym 2>/dev/null | grep -q ct_fn_ || fail "the container's own map was not used"
ct_cleanup

# ---- B. jitdump: a process in the container maps /tmp/jd/jit-1.dump while we record ----
mkdir -p R/tmp/jd
mkdump R/tmp/jd/jit-1.dump CT_OWN_FN
cat >R/tmp/mapper.py <<'PY'
import mmap, os, time
f = os.open("/tmp/jd/jit-1.dump", os.O_RDONLY)
m = mmap.mmap(f, 0, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ | mmap.PROT_EXEC)
print("mapped", flush=True)
time.sleep(60)
PY
# the workload starts the container and leaves it running: the kernel's MMAP2 names the dump
# as the container sees it, and the dump is read after the record, from the live root
cat >start.sh <<EOF
unshare --pid --fork --mount --mount-proc --kill-child -- \
	sh -c 'mount --bind /usr "\$0/usr" && exec chroot "\$0" /usr/bin/python3 /tmp/mapper.py' "$PWD/R" >mapper.out &
echo \$! >upid
for i in \$(seq 100); do grep -q mapped mapper.out && break; sleep 0.05; done
EOF
"$PERF" record -k mono -e cpu-clock -o dump.data -- sh start.sh 2>dump.rec.err || fail "record: $(cat dump.rec.err)"
ct_wait_for "$(cat upid)" python3
pid=$CT_PID
grep -q mapped mapper.out || fail "the container did not map its dump"
# record took the container's own dump while it could
grep -q "saved 1 jitdump" dump.rec.err || fail "the container's own dump was not saved: $(cat dump.rec.err)"
grep -aq CT_OWN_FN dump.data.jit/* || fail "the saved copy is not the container's dump"
# from now on inject reads through the live root: no copy
mv dump.data.jit own.copy

dump_case() {  # dump_case NAME: inject while it runs, no secret, nothing written
	local name=$1
	"$PERF" inject --jit -i dump.data -o "$name.jit" 2>"$name.inj.err" || fail "$name: inject failed: $(cat "$name.inj.err")"
	no_secret "$name (inject)" "$name.jit" "$name.jit.jit"/*
	info "$name: $(head -1 "$name.inj.err")"
	[ "$(ls host/jd)" = jit-1.dump ] || fail "$name: written into the host's dump directory: $(ls host/jd)"
	[ -z "$(find R/tmp* -name 'jitted-*')" ] || fail "$name: written into the container"
}

# B0. the honest dump is read in the live root
"$PERF" inject --jit -i dump.data -o own.jit 2>own.err || fail "inject: $(cat own.err)"
grep -aq CT_OWN_FN own.jit.jit/* || fail "the container's own dump was not read live: $(cat own.err)"
[ -z "$(find R/tmp -name 'jitted-*')" ] || fail "inject wrote into the container"

# B1. the dump is now a symlink to the host's dump
mv R/tmp/jd/jit-1.dump R/tmp/jd/real.dump
ln -s "$PWD/host/jd/jit-1.dump" R/tmp/jd/jit-1.dump
dump_case dump-final
grep -q "pid $pid (pid 1 in its container) maps /tmp/jd/jit-1.dump, which cannot be read in its root: .*symlink" \
	dump-final.inj.err || fail "inject did not say the dump is a symlink: $(cat dump-final.inj.err)"
rm R/tmp/jd/jit-1.dump
mv R/tmp/jd/real.dump R/tmp/jd/jit-1.dump

# B2. its /tmp/jd climbs out of its root to the host's dump directory
mv R/tmp/jd R/tmp/jd.real
ln -s "../../../../../../../../../../../..$PWD/host/jd" R/tmp/jd
dump_case dump-escape
# the path leads nowhere inside its root: the object it maps is read instead (its own dump)
grep -aq CT_OWN_FN dump-escape.jit.jit/* || fail "dump-escape: the mapped dump was not read: $(cat dump-escape.inj.err)"
rm R/tmp/jd
mv R/tmp/jd.real R/tmp/jd
ct_cleanup
exit 0
