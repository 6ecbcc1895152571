#!/bin/bash
# Overhead of libperf-jvmti.so on JVM wall time, for a workload that compiles
# thousands of methods (JvmtiManyMethods: in-process javac + library code).
# Runs "no agent", "agent", "agent,rawnames" in alternation (order rotated), RUNS times each
# (default 5), and prints each run, the medians and minimums of wall time,
# the median CPU time (user+sys, less sensitive to other load on the
# machine) and the overheads in percent.
#   bench/jvmti-overhead.sh [RUNS] [ROUNDS]     (ROUNDS: workload size, default 6)
# Not a test: it reports numbers, the goal is an overhead <= 3%.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${1:-5}
ROUNDS=${2:-6}
JAVA=${JAVA:-java}
AGENT="$TOP/tools/perf/jvmti/libperf-jvmti.so"
CLASSES="$TOP/build/java"
CHECK="$TOP/build/jitdump-check"
. "$TOP/bench/lib.sh"
[ -f "$AGENT" ] || { echo "build the agent first (make)" >&2; exit 1; }
[ -f "$CLASSES/JvmtiManyMethods.class" ] || { echo "build the Java workloads first (make build-tests)" >&2; exit 1; }
tmp=$(mktemp -d /tmp/jvmti-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

one() {  # one MODE -> "wall cpu" seconds
	local opts=$1
	rm -rf "$tmp/jd"
	case "$opts" in
	none) /usr/bin/time -f '%e %U %S' -o "$tmp/t" $JAVA -cp "$CLASSES" JvmtiManyMethods "$ROUNDS" >/dev/null ;;
	*) /usr/bin/time -f '%e %U %S' -o "$tmp/t" $JAVA -agentpath:"$AGENT"="dir=$tmp/jd${opts:+,$opts}" \
		-cp "$CLASSES" JvmtiManyMethods "$ROUNDS" >/dev/null ;;
	esac || { echo "workload failed" >&2; exit 1; }
	awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$tmp/t"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
minimum() { sort -n | head -n 1; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f%%", (a - b) * 100 / b }'; }

# how much the workload compiles, and the agent's own CPU time (one run, not timed)
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (package time)" >&2; exit 1; }
rm -rf "$tmp/jd"
$JAVA -agentpath:"$AGENT"="dir=$tmp/jd,stats" -cp "$CLASSES" JvmtiManyMethods "$ROUNDS" 2>&1 >/dev/null | grep 'perf-jvmti: stats'
dump=$(find "$tmp/jd" -name 'jit-*.dump')
loads=$("$CHECK" --list "$dump" | grep -c ' debug=[01] inline=[01] [^ ]*(') 
echo "workload: JvmtiManyMethods $ROUNDS; compiled-method LOADs in one agent run: $loads"
echo "machine: $(nproc) cpus, $($JAVA -version 2>&1 | head -n 1)"

: >"$tmp/none"; : >"$tmp/agent"; : >"$tmp/raw"
one none >/dev/null   # warm the page cache
for i in $(seq "$RUNS"); do
	# rotate the order so no mode always runs right after another one
	case $((i % 3)) in
	1) a=$(one none); b=$(one ""); c=$(one rawnames) ;;
	2) b=$(one ""); c=$(one rawnames); a=$(one none) ;;
	0) c=$(one rawnames); a=$(one none); b=$(one "") ;;
	esac
	echo "$a" >>"$tmp/none"; echo "$b" >>"$tmp/agent"; echo "$c" >>"$tmp/raw"
	echo "run $i: none ${a% *}s (cpu ${a#* }s)  agent ${b% *}s (cpu ${b#* }s)  agent,rawnames ${c% *}s (cpu ${c#* }s)"
done
for m in none agent raw; do
	eval "w_$m=\$(cut -d' ' -f1 <\"\$tmp/\$m\" | median)"
	eval "l_$m=\$(cut -d' ' -f1 <\"\$tmp/\$m\" | minimum)"
	eval "c_$m=\$(cut -d' ' -f2 <\"\$tmp/\$m\" | median)"
done
echo "wall median: none ${w_none}s  agent ${w_agent}s ($(pct "$w_agent" "$w_none"))  rawnames ${w_raw}s ($(pct "$w_raw" "$w_none"))"
echo "wall min:    none ${l_none}s  agent ${l_agent}s ($(pct "$l_agent" "$l_none"))  rawnames ${l_raw}s ($(pct "$l_raw" "$l_none"))"
echo "cpu median:  none ${c_none}s  agent ${c_agent}s ($(pct "$c_agent" "$c_none"))  rawnames ${c_raw}s ($(pct "$c_raw" "$c_none"))"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
# no perf 6.1 agent on Debian: the reference column is the JVM without any agent
bench_row "JVM wall with our agent; ref = no agent (s)" "$w_none" "$w_agent" ratio-max 1.03
