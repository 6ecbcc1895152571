#!/usr/bin/env bash
# perf inject --jit: ours vs perf 6.1 on the same perf.data.
#   1. a Java workload compiling thousands of methods (our agent, -k mono)
#   2. a synthetic dump with 100,000 LOADs (jit_synth --loads)
# Runs alternate (perf, ours, perf, ours, ...), each with a fresh $HOME and
# with the ELFs of the previous run removed, so both pay for creating every
# file. Prints wall time, peak RSS (/usr/bin/time -v) and the resolved share
# of JIT samples (perf 6.1 script on each output).
# Env: RUNS (default 3), LOADS (default 100000), JAVA_ROUNDS (default 6),
#      OURS_OPTS (e.g. --jit-elf-per-function: perf 6.1's one file per function),
#      KEEP=1 keeps the work directory.
set -u
cd "$(dirname "$0")/.." || exit 1
TOP=$PWD
. "$TOP/bench/lib.sh"
PERF=$TOP/tools/perf/perf
REF=/usr/bin/perf
RUNS=${RUNS:-3}
LOADS=${LOADS:-100000}
JAVA_ROUNDS=${JAVA_ROUNDS:-6}
[ -x "$REF" ] || { echo "perf 6.1 not installed" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time missing (package time)" >&2; exit 2; }
REC=$PERF
"$PERF" record -h >/dev/null 2>&1 || { REC=$REF; echo "our perf record missing: recording with perf 6.1" >&2; }

# not under /tmp/perf-*: perf 6.1 takes such files for perf-PID.map
W=$(mktemp -d /tmp/jit-bench.XXXXXX) || exit 1
[ -n "${KEEP:-}" ] || trap 'rm -rf "$W"' EXIT

share() {   # resolved share of JIT samples of $1
	"$REF" script -i "$1" -F ip,sym,dso 2>/dev/null | awk '
		{ dso = $NF; gsub(/^\(|\)$/, "", dso); ip = $1 }
		length(ip) >= 16 && substr(ip, 1, 1) == "f" { next }
		dso ~ /jitted-/ || dso == "//anon" || dso == "[unknown]" || dso ~ /^\[anon/ {
			t++; if (dso ~ /jitted-/ && $2 != "[unknown]") ok++ }
		END { printf "%.1f%% of %d", t ? ok * 100 / t : 0, t }'
}

# one_run WHICH DIR DATA: prints "wall rss_kb"
one_run() {
	local which=$1 dir=$2 data=$3 bin h
	find "$dir" -name 'jitted-*.so' -delete
	h=$(mktemp -d "$W/home.XXXXXX")
	bin=$PERF; [ "$which" = perf ] && bin=$REF
	sync
	local opts=""
	[ "$which" = ours ] && opts=${OURS_OPTS:-}
	HOME=$h /usr/bin/time -v "$bin" inject --jit $opts -i "$data" -o "$W/out-$which.data" 2>"$W/time.txt" >/dev/null
	awk -F': ' '/Elapsed \(wall/ { split($2, a, ":"); w = (length(a) == 3) ? a[1] * 3600 + a[2] * 60 + a[3] : a[1] * 60 + a[2] }
		/Maximum resident/ { r = $2 } END { printf "%.3f %d\n", w, r }' "$W/time.txt"
	rm -rf "$h"
}

bench_case() {
	local name=$1 dir=$2 data=$3 loads
	loads=$(find "$dir" -name 'jit-*.dump' -exec "$TOP/build/jitdump-check" --list {} \; 2>/dev/null |
		sed -n 's/.*loads=\([0-9]*\).*/\1/p' | head -1)
	echo "--- $name: ${loads:-?} loads"
	local pw=() ow=() pr=() or=()
	for i in $(seq "$RUNS"); do
		read -r w r < <(one_run perf "$dir" "$data"); pw+=("$w"); pr+=("$r")
		[ "$i" = 1 ] && psh=$(share "$W/out-perf.data")
		read -r w r < <(one_run ours "$dir" "$data"); ow+=("$w"); or+=("$r")
		[ "$i" = 1 ] && osh=$(share "$W/out-ours.data")
		echo "run $i: perf 6.1 ${pw[-1]} s ${pr[-1]} KB | ours ${ow[-1]} s ${or[-1]} KB"
	done
	med() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
	local mp mo
	mp=$(med "${pw[@]}"); mo=$(med "${ow[@]}")
	echo "median wall: perf 6.1 $mp s, ours $mo s, ratio $(awk -v a="$mp" -v b="$mo" 'BEGIN { printf "%.1fx", (b > 0 ? a / b : 0) }')"
	echo "peak RSS (max): perf 6.1 $(printf '%s\n' "${pr[@]}" | sort -n | tail -1) KB, ours $(printf '%s\n' "${or[@]}" | sort -n | tail -1) KB"
	echo "resolved JIT samples: perf 6.1 $psh, ours $osh"
	bench_row "inject --jit, $name (s)" "$mp" "$mo" speedup 10
}

# 1. Java
if command -v java >/dev/null && [ -f "$TOP/build/java/JvmtiManyMethods.class" ] && [ -f "$TOP/tools/perf/jvmti/libperf-jvmti.so" ]; then
	mkdir -p "$W/java"
	(cd "$W/java" && HOME=$W/java "$REC" record -q -k mono -e cpu-clock -o "$W/java.data" -- java \
		-agentpath:"$TOP/tools/perf/jvmti/libperf-jvmti.so"=dir="$W/java/d" -cp "$TOP/build/java" \
		JvmtiManyMethods "$JAVA_ROUNDS" >/dev/null 2>&1)
	bench_case "Java (JvmtiManyMethods $JAVA_ROUNDS)" "$W/java/d" "$W/java.data"
else
	echo "--- Java: skipped (java, build/java or the agent missing)"
fi

# 2. synthetic
mkdir -p "$W/synth"
"$REC" record -q -k mono -e cpu-clock -o "$W/synth.data" -- "$TOP/build/workloads/jit_synth" --ms 100 \
	--loads "$LOADS" "$W/synth" >/dev/null 2>&1
bench_case "synthetic ($LOADS loads)" "$W/synth" "$W/synth.data"
