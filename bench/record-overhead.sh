#!/bin/bash
# Wall time of a CPU-bound workload under our `perf record -F 4000` and
# perf 6.1's, alternating, plus samples and lost samples of each run.
# usage: bench/record-overhead.sh [runs] [workload-ms]
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
PERF="$TOP/tools/perf/perf"
REF=/usr/bin/perf
W="$TOP/build/workloads/rec_cpu"
. "$TOP/bench/lib.sh"
RUNS=${1:-5}
MS=${2:-2000}
[ -x "$W" ] || { echo "build the workloads first (make build-tests)"; exit 1; }
[ -x "$REF" ] || { echo "SKIP: perf 6.1 not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp"

now() { date +%s.%N; }
run() { # perf label
	local t0 t1 err
	t0=$(now)
	"$1" record -F 4000 -e cpu-clock -o "$tmp/$2.data" -- "$W" "$MS" 2>"$tmp/$2.err" >/dev/null
	t1=$(now)
	err=$(cat "$tmp/$2.err")
	samples=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' <<<"$err")
	lost=$("$REF" report -i "$tmp/$2.data" --stdio 2>/dev/null | sed -n 's/^# Total Lost Samples: //p')
	printf '%s %.3f %s %s\n' "$2" "$(echo "$t1 - $t0" | bc)" "${samples:-?}" "${lost:-?}"
}

echo "workload: rec_cpu ${MS} ms, -F 4000, $RUNS alternating runs"
for i in $(seq "$RUNS"); do
	run "$PERF" ours
	run "$REF" perf61
done | tee "$tmp/all"
awk '{ t[$1] += $2; s[$1] += $3; l[$1] += $4; n[$1]++ }
     END { for (k in t) printf "%-7s mean wall %.3f s  mean samples %.0f  lost total %d\n", k, t[k] / n[k], s[k] / n[k], l[k] }' "$tmp/all"
med() { awk -v k="$1" '$1 == k { print $2 }' "$tmp/all" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
bench_row "record -F 4000 of a ${MS} ms workload, wall (s)" "$(med perf61)" "$(med ours)" ratio-max 1.05
