# Inputs of the compat matrix (perf script, annotate and buildid-list side),
# sourced by lib/compat-matrix.sh. Each input_NAME writes $CM_DIR/NAME.data with
# perf 6.1 ($PERF_REF), small and quick; cwd is $CM_DIR.

CM_SCR_MIX="$WORKLOADS/report_mix"

cm_scr_record() {  # output, record args... -- workload
	local out=$1
	shift
	[ -x "$CM_SCR_MIX" ] || { echo "workload $CM_SCR_MIX not built"; return 1; }
	"$PERF_REF" record -q -o "$out" "$@"
}

# cpu-clock samples of our workload, no chains
input_scr_flat() { cm_scr_record scr_flat.data -e cpu-clock -- "$CM_SCR_MIX" 0.2; }

# frame-pointer call chains
input_scr_g() { cm_scr_record scr_g.data -g -e cpu-clock -- "$CM_SCR_MIX" 0.2; }

# two events (perf aligns their names)
input_scr_two() { cm_scr_record scr_two.data -e cpu-clock -e task-clock -- "$CM_SCR_MIX" 0.2; }

# pipe format
input_scr_pipe() { cm_scr_record - -e cpu-clock -- "$CM_SCR_MIX" 0.2 > scr_pipe.data; }

# a fixed period (-c): the samples carry no PERIOD, perf prints the attr's
input_scr_fixed() { cm_scr_record scr_fixed.data -e cpu-clock -c 500000 -- "$CM_SCR_MIX" 0.2; }

# page faults with their data addresses (-d): the addr field
input_scr_fault() { cm_scr_record scr_fault.data -d -e page-faults -c 1 -- "$CM_SCR_MIX" 0.05; }

# tracepoints of a shell running the workload: exec, exit, switches and
# syscall entries (an array field) next to cpu-clock
input_scr_tp() {
	tracefs_dir > /dev/null || { cm_skip "no tracefs"; return 2; }
	cm_scr_record scr_tp.data -e sched:sched_switch -e sched:sched_process_exec \
		-e sched:sched_process_exit -e raw_syscalls:sys_enter -e cpu-clock \
		-- sh -c "'$CM_SCR_MIX' 0.05; true"
}

# side-band records: a fork, exec COMMs, exits, context switches, namespaces
input_scr_task() {
	cm_scr_record scr_task.data --switch-events --namespaces -e cpu-clock \
		-- sh -c "'$CM_SCR_MIX' 0.05; true"
}

# system-wide switches of every CPU (SWITCH_CPU_WIDE), cgroups, a dummy event
input_scr_cpuwide() {
	cm_scr_record scr_cpuwide.data -a --switch-events --all-cgroups -e cpu-clock -- sleep 0.05
}

# a jitted program after perf 6.1's inject --jit: the MMAP2s of the jitted
# ELFs (what a JIT user checks with --show-mmap-events), their symbols and
# build-ids. jit_synth writes its jitdump into jitdir/ (under $CM_DIR, not
# /tmp/perf-*, which perf takes for perf-PID.map files)
input_scr_jit() {
	[ "$(uname -m)" = x86_64 ] || { cm_skip "jit_synth emits x86-64 code"; return 2; }
	[ -x "$WORKLOADS/jit_synth" ] || { echo "workload jit_synth not built"; return 1; }
	mkdir -p "$CM_DIR/jitdir" || return 1
	"$PERF_REF" record -q -k mono -e cpu-clock -o scr_jit.raw -- "$WORKLOADS/jit_synth" --ms 100 \
		"$CM_DIR/jitdir" > /dev/null || return 1
	"$PERF_REF" inject --jit -i scr_jit.raw -o scr_jit.data
}
