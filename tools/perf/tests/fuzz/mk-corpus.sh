#!/bin/bash
# Seed corpora for the fuzz targets, made from real files:
#   mk-corpus.sh DIR   -> DIR/<target>/ (committed seeds of corpus/<target>/ too)
# Recordings are made with perf 6.1 (/usr/bin/perf) when it is installed and
# with our perf; each seed is kept small (the fuzzers mutate it thousands of
# times a second). Missing tools just mean fewer seeds, never a failure.
set -u
out=${1:?usage: mk-corpus.sh DIR}
top=$(cd "$(dirname "$0")/../../../.." && pwd)
wl="$top/build/workloads"
perf_ours="$top/tools/perf/perf"
perf_ref=/usr/bin/perf
here="$top/tools/perf/tests/fuzz"
stamp="$out/.stamp"

# remade when a workload or this script is newer than the seeds (not on
# every relink of perf: the seeds would churn under a running make fuzz)
if [ -f "$stamp" ] && [ -z "$(find "$0" "$wl" -newer "$stamp" 2>/dev/null | head -1)" ]; then
	exit 0
fi
rm -rf "$out"
mkdir -p "$out"/{perf-data,jitdump,jit-inject,trace-event,perf-map,elf-symbols,sdt,probe-cache}
tmp=$(mktemp -d /tmp/fuzz-seeds.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home"
mkdir -p "$HOME"

keep() {  # keep FILE TARGET NAME: copy when small enough
	[ -f "$1" ] && [ "$(stat -c %s "$1")" -le $((512 * 1024)) ] && cp "$1" "$out/$2/$3"
}

for t in "$here"/corpus/*/; do
	[ -d "$t" ] && mkdir -p "$out/$(basename "$t")" && cp "$t"/* "$out/$(basename "$t")/" 2>/dev/null
done

# ---- perf.data: file and pipe mode, samples, tracepoints, call chains
rec() {  # rec NAME PERF ARGS... -- records into $tmp/NAME.data
	local name=$1 perf=$2
	shift 2
	[ -x "$perf" ] || return 0
	if [ "$1" = pipe ]; then
		shift
		timeout 20 "$perf" record -q -o - "$@" >"$tmp/$name.data" 2>/dev/null
	else
		timeout 20 "$perf" record -q -o "$tmp/$name.data" "$@" >/dev/null 2>&1
	fi
	keep "$tmp/$name.data" perf-data "$name"
}
for p in ref:$perf_ref ours:$perf_ours; do
	tag=${p%%:*} perf=${p#*:}
	rec "$tag-true" "$perf" -e cpu-clock -- true
	rec "$tag-pipe" "$perf" pipe -e cpu-clock -- "$wl/rec_cpu" 50
	rec "$tag-g" "$perf" -g -e cpu-clock -c 100000 -- "$wl/rec_cpu" 50
	rec "$tag-tp" "$perf" -e sched:sched_process_exec -e sched:sched_process_exit -- true
	rec "$tag-tp-pipe" "$perf" pipe -e sched:sched_process_exec -- true
	rec "$tag-two" "$perf" -e cpu-clock,task-clock -- "$wl/rec_cpu" 30
	# COMPRESSED records (zstd) in file and pipe mode
	rec "$tag-z" "$perf" -z -e cpu-clock -- "$wl/rec_cpu" 30
	rec "$tag-z-pipe" "$perf" pipe -z -e cpu-clock -- "$wl/rec_cpu" 30
	# user regs and stack (PERF_SAMPLE_REGS_USER/STACK_USER), and the optional
	# sample fields and side-band records
	rec "$tag-dwarf" "$perf" --call-graph dwarf,1024 -e cpu-clock -c 500000 -- "$wl/rec_cpu" 30
	rec "$tag-extras" "$perf" -d --sample-cpu --switch-events --namespaces -T -e cpu-clock -c 500000 -- "$wl/rec_cpu" 30
done

# ---- trace-event: TRACING_DATA payloads (feature 1) and tracefs formats
python3 - "$out/perf-data" "$out/trace-event" <<'PY' 2>/dev/null
import os, struct, sys
src, dst = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(src)):
    d = open(os.path.join(src, name), 'rb').read()
    if d[:8] != b'PERFILE2' or len(d) < 104 or struct.unpack('<Q', d[8:16])[0] != 104:
        continue
    data_off, data_size = struct.unpack('<QQ', d[40:56])
    feats = int.from_bytes(d[72:104], 'little')
    if not feats & 2:
        continue
    off, size = struct.unpack('<QQ', d[data_off + data_size:data_off + data_size + 16])
    open(os.path.join(dst, name + '.tracing'), 'wb').write(b'\0' + d[off:off + size])
PY
tfs=/sys/kernel/tracing
[ -d "$tfs/events" ] || tfs=/sys/kernel/debug/tracing
i=0
for f in "$tfs"/events/{sched/sched_switch,sched/sched_wakeup,irq/irq_handler_entry,syscalls/sys_enter_openat,block/block_rq_issue,kmem/kmalloc,signal/signal_generate,net/net_dev_xmit,writeback/writeback_dirty_inode,timer/hrtimer_start,workqueue/workqueue_queue_work,filemap/mm_filemap_add_to_page_cache}/format; do
	[ -r "$f" ] || continue
	# odd first byte: one format file, NUL, a raw record for it
	{ printf '\001'; cat "$f"; printf '\0'; head -c 96 /dev/urandom; } >"$out/trace-event/fmt-$i"
	i=$((i + 1))
done

# ---- jitdump: our synthetic JIT in both byte orders, truncated, empty
if [ -x "$wl/jit_synth" ]; then
	for opt in "" --swap --truncate --empty --perf-names "--loads 20"; do
		d="$tmp/jd$RANDOM"
		mkdir -p "$d"
		timeout 20 "$wl/jit_synth" --ms 1 $opt "$d" >/dev/null 2>&1
		for f in "$d"/jit-*.dump; do keep "$f" jitdump "synth${opt// /_}"; done
	done
fi
# jit-inject: the same dumps behind a layout byte (0: one ELF per dump, 1: per function)
for f in "$out"/jitdump/*; do
	[ -f "$f" ] || continue
	{ printf '\0'; cat "$f"; } >"$out/jit-inject/$(basename "$f")"
	{ printf '\001'; cat "$f"; } >"$out/jit-inject/$(basename "$f").per-function"
done

# ---- ELF: workloads (as built and stripped), a small system library
for b in sym_funcs sdt_test sdt_test_O0 rec_remap_a.so sym_jit_map; do
	[ -f "$wl/$b" ] || continue
	keep "$wl/$b" elf-symbols "$b"
	strip -o "$tmp/$b.stripped" "$wl/$b" 2>/dev/null && keep "$tmp/$b.stripped" elf-symbols "$b.stripped"
done
for lib in /lib/x86_64-linux-gnu/libdl.so.2 /lib/x86_64-linux-gnu/libpthread.so.0; do
	keep "$lib" elf-symbols "$(basename "$lib")"
done

# ---- SDT: binaries with markers (first byte 0: ELF), their argument strings (0x80/0x81)
for b in sdt_test sdt_test_O0 sdt_test_O2 sdt_quirks; do
	[ -f "$wl/$b" ] || continue
	{ printf '\0'; cat "$wl/$b"; } >"$out/sdt/$b"
	readelf -n "$wl/$b" 2>/dev/null | sed -n 's/^ *Arguments: //p' | sort -u | head -40 |
	while read -r args; do
		printf '\200%s' "$args" >"$out/sdt/$b-args-$(echo "$args" | md5sum | cut -c1-8)"
	done
done
printf '\201%s' "-4@[sp, 12] 8@[x19, -8] 4@x0 -8@[sp] 1@w1" >"$out/sdt/aarch64-args"

# ---- probe cache: what perf 6.1 (and we) write for an SDT binary
for p in ref:$perf_ref ours:$perf_ours; do
	tag=${p%%:*} perf=${p#*:}
	[ -x "$perf" ] && [ -f "$wl/sdt_test" ] || continue
	rm -rf "$HOME/.debug"
	timeout 20 "$perf" buildid-cache -a "$wl/sdt_test" >/dev/null 2>&1
	f=$(find "$HOME/.debug" -name probes 2>/dev/null | head -1)
	[ -n "$f" ] && keep "$f" probe-cache "$tag-sdt_test"
done

# ---- perf-PID.map (first byte even) and /proc/kallsyms (odd)
# (a JIT's map: committed seeds in corpus/perf-map/)
{ printf '\001'; head -n 200 /proc/kallsyms; } >"$out/perf-map/kallsyms-head"

touch "$stamp"
for t in "$out"/*/; do
	echo "  SEEDS   $(basename "$t"): $(ls "$t" | wc -l) files"
done
