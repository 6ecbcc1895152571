#!/bin/bash
# buildid-cache --add of libjvm.so and perf list sdt over a 20-binary cache:
# ours vs perf 6.1, alternating runs. Prints medians in ms and the ratio.
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
OURS=${PERF:-$TOP/tools/perf/perf}
REF=${PERF_REF:-/usr/bin/perf}
JVM=/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
RUNS=${RUNS:-11}
. "$TOP/bench/lib.sh"
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
ms() { local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000 )); }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
: > "$W/a.o"; : > "$W/a.r"
for i in $(seq $RUNS); do
	rm -rf "$W/co" "$W/cr"
	ms "$OURS" buildid-cache --debug-dir "$W/co" -a $JVM >> "$W/a.o"
	ms "$REF" --buildid-dir "$W/cr" buildid-cache -a $JVM >> "$W/a.r"
done
o=$(median < "$W/a.o"); r=$(median < "$W/a.r")
echo "buildid-cache --add libjvm.so: ours $((o / 1000)).$(( (o % 1000) / 100 )) ms, perf 6.1 $((r / 1000)).$(( (r % 1000) / 100 )) ms, ratio ours/perf = $(awk -v o=$o -v r=$r 'BEGIN{printf "%.2f", o/r}')"
bench_row "buildid-cache --add libjvm.so (ms)" "$((r / 1000))" "$((o / 1000))" ratio-max 1
# a cache of 20 binaries with SDT notes (copies of python3.11 and libjvm with distinct build-ids are not
# possible without rewriting them, so: both, plus 18 libraries of the system)
rm -rf "$W/co" "$W/cr"
bins="$JVM /usr/bin/python3.11 $(ls /usr/lib/x86_64-linux-gnu/lib*.so.* 2>/dev/null | head -18)"
for b in $bins; do
	"$OURS" buildid-cache --debug-dir "$W/co" -a "$b" 2>/dev/null || true
	"$REF" --buildid-dir "$W/cr" buildid-cache -a "$b" 2>/dev/null || true
done
: > "$W/l.o"; : > "$W/l.r"
for i in $(seq $RUNS); do
	PERF_BUILDID_DIR="$W/co" ms "$OURS" list sdt >> "$W/l.o"
	ms "$REF" --buildid-dir "$W/cr" list sdt >> "$W/l.r"
done
o=$(median < "$W/l.o"); r=$(median < "$W/l.r")
echo "perf list sdt (20 binaries): ours $((o / 1000)).$(( (o % 1000) / 100 )) ms, perf 6.1 $((r / 1000)).$(( (r % 1000) / 100 )) ms, ratio ours/perf = $(awk -v o=$o -v r=$r 'BEGIN{printf "%.2f", o/r}')"
bench_row "perf list sdt, 20 binaries (ms)" "$((r / 1000))" "$((o / 1000))" ratio-max 1
