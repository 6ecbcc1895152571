#!/usr/bin/env bash
# perf report --stdio: ours vs perf 6.1 on the same perf.data files made by
# perf 6.1 with -g -a: one of >= 30 MB (-F 10000, 20 s, kept in $BENCH_DIR
# for the next run) and one of ~500 MB (-F 40000, made here in /tmp and
# removed after; BIG=0 skips it). Runs alternate (ref, ours, ref, ours, ...);
# prints each run's wall time and peak RSS (/usr/bin/time) and the medians,
# and a time and a peak-memory row per file for run-all's table.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
ours=${PERF_OURS:-$top/tools/perf/perf}
ref=${PERF_REF:-/usr/bin/perf}
runs=${RUNS:-5}
work=${BENCH_DIR:-/tmp/perf-bench-report}
mix=$top/build/workloads/report_mix
[ -x "$mix" ] || make -C "$top" --no-print-directory "build/workloads/report_mix" >/dev/null
mkdir -p "$work"
export HOME=$work/home; mkdir -p "$HOME"

# record FILE FREQ SECONDS: two CPU-bound workloads, the whole system sampled
record() {
	"$ref" record -q -F "$2" -g -a -o "$1" -- sh -c "$mix $3 & $mix $3 & wait" >/dev/null 2>&1
}

med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# compare FILE RUNS: alternating runs, then the time and the peak-memory rows
compare() {
	local data=$1 n=$2 size tf t m rt=() ot=() rm=() om=() i
	size=$(($(stat -c %s "$data") / 1000000))
	echo "input: $data ($size MB)"
	tf=$(mktemp /tmp/bench-report-time.XXXXXX)
	for i in $(seq "$n"); do
		/usr/bin/time -f '%e %M' -o "$tf" "$ref" report --stdio -i "$data" >/dev/null 2>&1 || true
		read -r t m < <(tail -1 "$tf"); rt+=("$t"); rm+=("$m")
		/usr/bin/time -f '%e %M' -o "$tf" "$ours" report --stdio -i "$data" >/dev/null 2>&1 || true
		read -r t m < <(tail -1 "$tf"); ot+=("$t"); om+=("$m")
		echo "run $i: perf 6.1 ${rt[-1]} s ${rm[-1]} KB, ours ${ot[-1]} s ${om[-1]} KB"
	done
	rm -f "$tf"
	local mr mo mrm mom
	mr=$(med "${rt[@]}"); mo=$(med "${ot[@]}")
	mrm=$(med "${rm[@]}"); mom=$(med "${om[@]}")
	echo "median: perf 6.1 $mr s $mrm KB, ours $mo s $mom KB, speed-up $(echo "scale=2; $mr / $mo" | bc)x"
	bench_row "report --stdio, $size MB -g -a (s)" "$mr" "$mo" speedup 8
	bench_row "report --stdio, $size MB -g -a, peak RSS (MB)" "$((mrm / 1024))" "$((mom / 1024))" ratio-max 1
}

data=$work/big.data
if [ ! -s "$data" ] || [ "$(stat -c %s "$data")" -lt ${MIN_SIZE:-30000000} ]; then
	echo "recording $data with perf 6.1 (-F 10000 -g -a, 20 s) ..."
	record "$data" 10000 20
fi
compare "$data" "$runs"

[ "${BIG:-1}" = 0 ] && exit 0
big=$(mktemp -d /tmp/bench-report-big.XXXXXX)
trap 'rm -rf "$big"' EXIT
# ~500 MB: about 7 MB a second at -F 40000 on two CPUs (perf throttles above)
echo "recording $big/big.data with perf 6.1 (-F 40000 -g -a, ${BIG_SECS:-75} s) ..."
record "$big/big.data" 40000 "${BIG_SECS:-75}"
compare "$big/big.data" "${BIG_RUNS:-3}"
