#!/bin/bash
# Overhead of libperf-jvmti.so on JVM wall time, for a workload that compiles
# thousands of methods (JvmtiManyMethods: in-process javac + library code).
# Modes, run in alternation (the order rotated every run), RUNS times each:
#   none    no agent
#   floor   the null agent (build/bench/jvmti-null-agent.so): the same capabilities and
#           events as ours, empty callbacks; what the JVM itself costs with them on
#   ours    our agent loaded at start (writing)
#   idle    our agent loaded with ondemand and never switched on
#   perf61  perf 6.1's agent, when one is found ($PERF61_JVMTI_AGENT, else the usual
#           places of distribution packages; Debian ships none)
# Prints each run, medians and minimums of wall time, the median CPU time
# (user+sys, less sensitive to other load) and the overheads in percent.
#   bench/jvmti-overhead.sh [RUNS] [ROUNDS]     (ROUNDS: workload size, default 6)
#   BENCH_JVMTI_MODES="none floor ..." picks modes (also nocaps, noevents: null agent variants)
# Not a test: it reports numbers. Goals: ours at start <= floor + 1%, idle <= none + 1%.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${1:-5}
ROUNDS=${2:-6}
JAVA=${JAVA:-java}
AGENT="$TOP/tools/perf/jvmti/libperf-jvmti.so"
NULL_AGENT="$TOP/build/bench/jvmti-null-agent.so"
CLASSES="$TOP/build/java"
CHECK="$TOP/build/jitdump-check"
. "$TOP/bench/lib.sh"
[ -f "$AGENT" ] && [ -f "$NULL_AGENT" ] || { echo "build the agents first (make)" >&2; exit 1; }
[ -f "$CLASSES/JvmtiManyMethods.class" ] || { echo "build the Java workloads first (make build-tests)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (package time)" >&2; exit 1; }
tmp=$(mktemp -d /tmp/jvmti-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

PERF61_AGENT=${PERF61_JVMTI_AGENT:-}
if [ -z "$PERF61_AGENT" ]; then
	for f in /usr/lib/linux-tools*/libperf-jvmti.so /usr/lib/linux-tools/*/libperf-jvmti.so \
		 /usr/lib/perf-core/libperf-jvmti.so /usr/lib/*-linux-gnu/libperf-jvmti.so /usr/lib64/libperf-jvmti.so; do
		[ -f "$f" ] && { PERF61_AGENT=$f; break; }
	done
fi
MODES=${BENCH_JVMTI_MODES:-none floor ours idle${PERF61_AGENT:+ perf61}}
[ -n "$PERF61_AGENT" ] || echo "perf 6.1's agent: not found (set PERF61_JVMTI_AGENT); no perf61 mode"

one() {  # one MODE -> "wall cpu" seconds
	local agent=()
	rm -rf "$tmp/jd"
	case $1 in
	none) ;;
	floor) agent=(-agentpath:"$NULL_AGENT") ;;
	nocaps|noevents) agent=(-agentpath:"$NULL_AGENT=$1") ;;
	ours) agent=(-agentpath:"$AGENT=dir=$tmp/jd") ;;
	idle) agent=(-agentpath:"$AGENT=dir=$tmp/jd,ondemand") ;;
	perf61) agent=(-agentpath:"$PERF61_AGENT") ;;
	*) echo "unknown mode $1" >&2; exit 1 ;;
	esac
	JITDUMPDIR="$tmp/jd" /usr/bin/time -f '%e %U %S' -o "$tmp/t" $JAVA "${agent[@]}" \
		-cp "$CLASSES" JvmtiManyMethods "$ROUNDS" >/dev/null || { echo "workload failed ($1)" >&2; exit 1; }
	[ "$1" != idle ] || [ -z "$(find "$tmp/jd" -name 'jit-*.dump' 2>/dev/null)" ] ||
		{ echo "the idle agent wrote a dump" >&2; exit 1; }
	awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$tmp/t"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
minimum() { sort -n | head -n 1; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f%%", (a - b) * 100 / b }'; }

# how much the workload compiles, and the agent's own CPU time (one run, not timed)
rm -rf "$tmp/jd"
$JAVA -agentpath:"$AGENT"="dir=$tmp/jd,stats" -cp "$CLASSES" JvmtiManyMethods "$ROUNDS" 2>&1 >/dev/null | grep 'perf-jvmti: stats'
dump=$(find "$tmp/jd" -name 'jit-*.dump')
loads=$("$CHECK" --list "$dump" | grep -c ' debug=[01] inline=[01] [^ ]*(')
echo "workload: JvmtiManyMethods $ROUNDS; compiled-method LOADs in one agent run: $loads"
echo "machine: $(nproc) cpus, $($JAVA -version 2>&1 | head -n 1); load average $(cut -d' ' -f1-3 /proc/loadavg)"

read -r -a modes <<<"$MODES"
for m in "${modes[@]}"; do : >"$tmp/r.$m"; done
one none >/dev/null   # warm the page cache
for i in $(seq "$RUNS"); do
	# rotate the order so no mode always runs right after another one
	line="run $i:"
	n=${#modes[@]}
	for k in $(seq 0 $((n - 1))); do
		m=${modes[$(((i + k) % n))]}
		r=$(one "$m") || exit 1
		echo "$r" >>"$tmp/r.$m"
		line="$line  $m ${r% *}s (cpu ${r#* }s)"
	done
	echo "$line"
done
declare -A wall low cpu
for m in "${modes[@]}"; do
	wall[$m]=$(cut -d' ' -f1 <"$tmp/r.$m" | median)
	low[$m]=$(cut -d' ' -f1 <"$tmp/r.$m" | minimum)
	cpu[$m]=$(cut -d' ' -f2 <"$tmp/r.$m" | median)
done
for kind in "wall median:wall" "wall min:low" "cpu median:cpu"; do
	declare -n fig=${kind#*:}
	line=$(printf '%-13s' "${kind%:*}")
	for m in "${modes[@]}"; do
		line="$line $m ${fig[$m]}s"
		[ "$m" = none ] || [ -z "${fig[none]:-}" ] || line="$line ($(pct "${fig[$m]}" "${fig[none]}"))"
	done
	echo "$line"
	unset -n fig
done
[ -n "${wall[floor]:-}" ] && [ -n "${wall[ours]:-}" ] &&
	echo "ours vs floor: wall $(pct "${wall[ours]}" "${wall[floor]}"), cpu $(pct "${cpu[ours]}" "${cpu[floor]}")"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
[ -n "${wall[floor]:-}" ] && [ -n "${wall[ours]:-}" ] &&
	bench_row "JVM wall, our agent at start; ref = null agent, the floor (s)" "${wall[floor]}" "${wall[ours]}" ratio-max 1.01
[ -n "${wall[none]:-}" ] && [ -n "${wall[idle]:-}" ] &&
	bench_row "JVM wall, our agent idle (ondemand); ref = no agent (s)" "${wall[none]}" "${wall[idle]}" ratio-max 1.01
# CPU (user+sys) medians too: on a loaded machine wall time mostly measures the other load
[ -n "${cpu[floor]:-}" ] && [ -n "${cpu[ours]:-}" ] &&
	bench_row "JVM CPU, our agent at start; ref = null agent, the floor (s)" "${cpu[floor]}" "${cpu[ours]}" ratio-max 1.01
[ -n "${cpu[none]:-}" ] && [ -n "${cpu[idle]:-}" ] &&
	bench_row "JVM CPU, our agent idle (ondemand); ref = no agent (s)" "${cpu[none]}" "${cpu[idle]}" ratio-max 1.01
[ -n "${wall[perf61]:-}" ] && [ -n "${wall[ours]:-}" ] &&
	bench_row "JVM wall, our agent at start; ref = perf 6.1's agent (s)" "${wall[perf61]}" "${wall[ours]}" ratio-max 1.00
exit 0
