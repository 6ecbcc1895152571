#!/usr/bin/env bash
# perf report --stdio of a >= 50 MB --call-graph dwarf perf.data: ours vs
# perf 6.1, alternating runs; wall times and the ratio of the medians.
# The input (made once, by perf 6.1): node --perf-prof with unwinding info,
# --call-graph dwarf -k mono, then perf 6.1 inject --jit -- the issue's case:
# chains through jitted ELFs into the 98 MB node binary. Without node, two
# cg_nofp processes (no frame pointers). perf 6.1 runs with its defaults
# (inline expansion on, as ours) and also with --no-inline.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
ours=$top/tools/perf/perf
ref=${PERF_REF:-/usr/bin/perf}
runs=${RUNS:-3}
work=${BENCH_DIR:-/tmp/cgbench-dwarf}   # not /tmp/perf-*: perf 6.1 takes those for perf maps
mkdir -p "$work"
export HOME=$work/home; mkdir -p "$HOME"
W=$top/build/workloads/cg_nofp
JS=$top/tools/perf/tests/workloads/cg_node.js
data=$work/dwarf.data
if [ ! -s "$data" ] || [ "$(stat -c %s "$data")" -lt 50000000 ]; then
	if command -v node > /dev/null; then
		echo "recording node with perf 6.1 (--call-graph dwarf -k mono) + perf 6.1 inject --jit ..."
		(cd "$work" && rm -f jit-*.dump jitted-*.so &&
		 "$ref" record -q -k mono -e cpu-clock --call-graph dwarf -o raw.data -- \
			node --perf-prof --perf-prof-unwinding-info --interpreted-frames-native-stack "$JS" 3 > /dev/null 2>&1 &&
		 "$ref" inject --jit -i raw.data -o "$data" 2>/dev/null)
	else
		[ -x "$W" ] || { echo "build the workloads first: make build-tests" >&2; exit 1; }
		echo "recording $data with perf 6.1 (--call-graph dwarf, 2 x cg_nofp) ..."
		"$ref" record -q -e cpu-clock --call-graph dwarf -o "$data" -- sh -c "$W 4 & $W 4 & wait" 2>/dev/null
	fi
fi
size=$(stat -c %s "$data")
echo "input: $data ($((size / 1000000)) MB)"
t() { local s e; s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }
rt=(); rn=(); ot=()
for i in $(seq "$runs"); do
	rt+=("$(t "$ref" report --stdio -i "$data")")
	ot+=("$(t "$ours" report --stdio -i "$data")")
	rn+=("$(t "$ref" report --stdio --no-inline -i "$data")")
	echo "run $i: perf 6.1 ${rt[-1]} s, ours ${ot[-1]} s, perf 6.1 --no-inline ${rn[-1]} s"
done
med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mr=$(med "${rt[@]}"); mo=$(med "${ot[@]}"); mn=$(med "${rn[@]}")
echo "median: perf 6.1 $mr s, perf 6.1 --no-inline $mn s, ours $mo s"
echo "speed-up: $(echo "scale=2; $mr / $mo" | bc)x vs perf 6.1 defaults, $(echo "scale=2; $mn / $mo" | bc)x vs --no-inline"
bench_row "report --stdio, dwarf call graphs (s)" "$mr" "$mo" speedup 1
bench_row "report --stdio, dwarf, vs perf --no-inline (s)" "$mn" "$mo" speedup 1
