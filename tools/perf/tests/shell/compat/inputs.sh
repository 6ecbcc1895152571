# Inputs of the compat matrix (report side), sourced by lib/compat-matrix.sh.
# Each input_NAME writes $CM_DIR/NAME.data with perf 6.1 ($PERF_REF), small
# and quick; cwd is $CM_DIR. Return 2 after `cm_skip "why"` when this machine
# cannot record it.

CM_MIX="$WORKLOADS/report_mix"

cm_ref_record() {  # output, record args... -- workload
	local out=$1
	shift
	[ -x "$CM_MIX" ] || { echo "workload $CM_MIX not built"; return 1; }
	"$PERF_REF" record -q -o "$out" "$@"
}

# no call chains: cpu-clock samples of a 4:2:1 profile
input_flat() { cm_ref_record flat.data -e cpu-clock -- "$CM_MIX" 0.3; }

# frame-pointer call chains
input_g() { cm_ref_record g.data -g -e cpu-clock -- "$CM_MIX" 0.3; }

# DWARF unwinding: small stack copies keep it quick
input_dwarf() { cm_ref_record dwarf.data --call-graph dwarf,4096 -e cpu-clock -- "$CM_MIX" 0.2; }

# pipe format (written to stdout), with and without chains
input_pipe() { cm_ref_record - -e cpu-clock -- "$CM_MIX" 0.3 > pipe.data; }
input_gpipe() { cm_ref_record - -g -e cpu-clock -- "$CM_MIX" 0.3 > gpipe.data; }

# two events in one file
input_two() { cm_ref_record two.data -e cpu-clock -e task-clock -- "$CM_MIX" 0.3; }
input_gtwo() { cm_ref_record gtwo.data -g -e cpu-clock -e task-clock -- "$CM_MIX" 0.3; }

# a tracepoint (sched_switch of a sleeping workload) next to cpu-clock
input_tp() {
	tracefs_dir > /dev/null || { cm_skip "no tracefs"; return 2; }
	cm_ref_record tp.data -e sched:sched_switch -e cpu-clock -- "$CM_MIX" 0.2
}

# a program under a long name that execs a short one: comm and pid columns
# are sized by the comm a thread ended with ("true"), not the one sampled
input_exec() {
	cp /bin/bash ./a_long_program_name || return 1
	"$PERF_REF" record -q -o exec.data -e cpu-clock -- ./a_long_program_name -c \
		'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; exec /bin/true'
}

# a stripped program run three times (three load addresses; unequal runs, so
# that no two processes tie), with chains: callers
# without a symbol are rows keyed by their runtime address, one per process
input_strip() {
	# no build-id either: perf 6.1 would take the cached unstripped report_mix
	# (same build-id, cached by the other inputs' records) and name its symbols
	strip --remove-section=.note.gnu.build-id -o ./mix_stripped "$CM_MIX" || return 1
	cm_ref_record strip.data -g -e cpu-clock -- sh -c \
		'for s in 0.06 0.1 0.14; do ./mix_stripped $s; done'
}

# system-wide, with chains: kernel symbols, many comms and DSOs
input_sys() { cm_ref_record sys.data -a -g -e cpu-clock -F 499 -- "$CM_MIX" 0.3; }

# zstd-compressed (perf record -z: PERF_RECORD_COMPRESSED), with chains
input_gz() { cm_ref_record gz.data -z -g -e cpu-clock -- "$CM_MIX" 0.3; }
