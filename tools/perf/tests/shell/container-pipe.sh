#!/bin/bash
# Containers, pipe mode: record -o - of a containerised JIT process saves no JIT file (no place beside a pipe) and says so in one line; report of the pipe's data names the JIT code from the live container
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/container.sh"
# sym_jit_map in the container writes its /tmp/perf-1.map; record takes hold of it as in file
# mode but has nowhere to put it: the summary line says what was not saved and how to keep it.
# Verified to fail with the pipe case removed from jit_save__finish (util/jit-save.c, the
# summary then empty as before): "pipe mode: record did not say what it did not save".
need_containers
W="$WORKLOADS/sym_jit_map"
[ -x "$W" ] || skip "$W not built"
trap 'ct_cleanup' EXIT

mkdir ct
ct_start "$PWD/ct" "$W" 60000 ct_fn_one ct_fn_two >/dev/null
pid=$CT_PID
for _ in $(seq 100); do [ -s ct/perf-1.map ] && break; sleep 0.05; done
[ -s ct/perf-1.map ] || fail "the workload wrote no /tmp/perf-1.map in its container"
timeout -s INT 2 "$PERF" record -e cpu-clock -o - -p "$pid" >pipe.data 2>rec.err
grep -q 'pipe mode: 1 JIT file of processes in other namespaces not saved (record to a file with -o' rec.err ||
	fail "pipe mode: record did not say what it did not save: $(cat rec.err)"
ls -d ./*.jit >/dev/null 2>&1 && fail "pipe mode: a .jit directory was written: $(ls -d ./*.jit)"
"$PERF" report -i pipe.data --stdio --sort sym 2>/dev/null | grep '%' | head -3 >top3
grep -q 'ct_fn_' top3 || fail "pipe mode: the container's JIT code is not named while it runs: $(cat top3)"
info "pipe mode: nothing saved, said so; the live container's map names its code: $(head -1 top3 | tr -s ' ')"
exit 0
