#!/usr/bin/env bash
# perf report --stdio: ours vs perf 6.1 on the same >= 50 MB perf.data made by
# perf 6.1 with -F 10000 -g. Runs alternate (ref, ours, ref, ours, ...);
# prints each run's wall time and the ratio of the medians.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
ours=$top/tools/perf/perf
ref=${PERF_REF:-/usr/bin/perf}
runs=${RUNS:-5}
work=${BENCH_DIR:-/tmp/perf-bench-report}
mkdir -p "$work"
data=$work/big.data
if [ ! -s "$data" ] || [ "$(stat -c %s "$data")" -lt 50000000 ]; then
	echo "recording $data with perf 6.1 (-F 10000 -g -a) ..."
	secs=20
	"$ref" record -q -F 10000 -g -a -o "$data" -- sh -c \
		"$top/build/workloads/report_mix $secs & $top/build/workloads/report_mix $secs & wait" 2>/dev/null
fi
size=$(stat -c %s "$data")
echo "input: $data ($((size / 1000000)) MB)"
export HOME=$work/home; mkdir -p "$HOME"
t() { local s e; s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }
rt=(); ot=()
for i in $(seq "$runs"); do
	rt+=("$(t "$ref" report --stdio -i "$data")")
	ot+=("$(t "$ours" report --stdio -i "$data")")
	echo "run $i: perf 6.1 ${rt[-1]} s, ours ${ot[-1]} s"
done
med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mr=$(med "${rt[@]}"); mo=$(med "${ot[@]}")
echo "median: perf 6.1 $mr s, ours $mo s, speed-up $(echo "scale=2; $mr / $mo" | bc)x"
bench_row "report --stdio, $((size / 1000000)) MB -g -a (s)" "$mr" "$mo" speedup 8
