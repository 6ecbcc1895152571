#!/usr/bin/env bash
# `make demo`: profile a bundled Java workload end to end with this perf:
# our perf record -k mono with our JVMTI agent, our perf inject --jit, and
# our perf report's top 15 symbols, Java methods named.
set -u
cd "$(dirname "$0")/../../.." || exit 1
TOP=$PWD
PERF=$TOP/tools/perf/perf
AGENT=$TOP/tools/perf/jvmti/libperf-jvmti.so
CLASSES=$TOP/build/java
JAVA=${JAVA:-java}
SECONDS_TO_RUN=${DEMO_SECONDS:-4}

die() { echo "demo: $*" >&2; exit 1; }
[ -x "$PERF" ] || die "$PERF not built (run make)"
[ -f "$AGENT" ] || die "agent $AGENT not built (run make)"
[ -f "$CLASSES/JvmtiHot.class" ] || die "Java workloads not built (run make build-tests)"
command -v "$JAVA" >/dev/null || die "no java"

REC=$PERF
if ! "$PERF" record -h >/dev/null 2>&1; then
	REC=/usr/bin/perf
	echo "demo: our perf record is not available yet; recording with $REC" >&2
	[ -x "$REC" ] || die "no perf record at all"
fi

# not under /tmp/perf-*: perf 6.1 would take files there for perf-PID.map files
W=${DEMO_DIR:-$(mktemp -d /tmp/perf-jit-demo.XXXXXX)}
mkdir -p "$W"
echo "demo: working in $W" >&2

echo "demo: recording java JvmtiHot $SECONDS_TO_RUN (agent $AGENT)" >&2
"$REC" record -q -k mono -e cpu-clock -o "$W/perf.data" -- \
	"$JAVA" -agentpath:"$AGENT"=dir="$W/jitdump" -cp "$CLASSES" JvmtiHot "$SECONDS_TO_RUN" >"$W/java.out" 2>"$W/java.err" ||
	die "record failed: $(tail -3 "$W/java.err")"

echo "demo: perf inject --jit" >&2
start=$(date +%s.%N)
"$PERF" inject --jit -i "$W/perf.data" -o "$W/perf.jit.data" || die "inject failed"
end=$(date +%s.%N)
echo "demo: inject took $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }') s" >&2

echo
echo "Top 15 symbols (perf report -i $W/perf.jit.data --sort sym):"
"$PERF" report -i "$W/perf.jit.data" --stdio --sort sym 2>/dev/null | grep -v '^#' | grep -v '^$' | head -15
echo
echo "Java lines of the hottest methods (--sort sym,srcline):"
"$PERF" report -i "$W/perf.jit.data" --stdio --sort sym,srcline 2>/dev/null | grep '\.java:' | head -5

# the flame graph: callers need frame pointers through JIT code and -g
echo >&2
echo "demo: recording java JvmtiHot 2 again with call graphs (-g, -XX:+PreserveFramePointer)" >&2
"$REC" record -q -k mono -e cpu-clock -g -o "$W/perf.g.data" -- \
	"$JAVA" -XX:+PreserveFramePointer -agentpath:"$AGENT"=dir="$W/jitdump-g" -cp "$CLASSES" JvmtiHot 2 \
	>"$W/java-g.out" 2>"$W/java-g.err" || die "record -g failed: $(tail -3 "$W/java-g.err")"
"$PERF" inject --jit -i "$W/perf.g.data" -o "$W/perf.g.jit.data" || die "inject of the -g recording failed"
"$PERF" script report flamegraph -i "$W/perf.g.jit.data" -o "$W/flamegraph.html" >/dev/null ||
	die "flame graph failed"
echo
echo "Flame graph of the Java run (one file, opens offline in a browser): $W/flamegraph.html"
