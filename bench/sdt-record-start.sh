#!/usr/bin/env bash
# Cost of SDT events at record start: `record -e EVENTS -- python3.11 -c pass`
# and the same record without events, ours vs perf 6.1, alternating runs
# (perf 6.1: `perf probe EVENTS`, record, `perf probe -d EVENTS`, as it needs).
# Cases: 1 event, every sdt_python event, and with HOTSPOT=1 every libjvm
# probe (sdt_hotspot:*, ~530 events: perf 6.1 takes minutes for those).
# Goal (issue 16): record start <= 0.2 s + 10 ms per event, i.e. the events add
# at most 10 ms each to a record without them.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/bench/lib.sh"
OURS=$TOP/tools/perf/perf
REF=${PERF_REF:-/usr/bin/perf}
RUNS=${RUNS:-3}
PY=/usr/bin/python3.11
JVM=/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
[ -x "$REF" ] || { echo "perf 6.1 not installed" >&2; exit 2; }
[ -x "$PY" ] || { echo "python3.11 missing" >&2; exit 2; }
W=$(mktemp -d /tmp/sdt-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT
export HOME=$W/home; mkdir -p "$HOME"
# both read ~/.debug: one cache, added by each tool (same layout)
"$OURS" buildid-cache -a "$PY" >/dev/null 2>&1
"$REF" buildid-cache -a "$PY" >/dev/null 2>&1
[ -n "${HOTSPOT:-}" ] && "$REF" buildid-cache -a "$JVM" >/dev/null 2>&1
ms() { local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
one_case() {    # NAME EVENT-SPEC NEVENTS WORKLOAD...
	local name=$1 spec=$2 n=$3; shift 3
	: >"$W/o"; : >"$W/r"; : >"$W/o0"; : >"$W/r0"
	for i in $(seq "$RUNS"); do
		# perf 6.1 records an SDT event only after `perf probe` made it: count all three steps
		ms bash -c '"$0" probe -q "$1" && "$0" record -q -o "$2" -e "$1" -- "${@:3}"; "$0" probe -q -d "$1"' \
			"$REF" "$spec" "$W/r.data" "$@" >>"$W/r"
		ms "$OURS" record -q -o "$W/o.data" -e "$spec" -- "$@" >>"$W/o"
		ms "$REF" record -q -o "$W/r0.data" -e cpu-clock -- "$@" >>"$W/r0"
		ms "$OURS" record -q -o "$W/o0.data" -e cpu-clock -- "$@" >>"$W/o0"
	done
	local r o r0 o0
	r=$(median <"$W/r"); o=$(median <"$W/o"); r0=$(median <"$W/r0"); o0=$(median <"$W/o0")
	echo "$name ($n events): perf 6.1 $r ms (without events $r0 ms), ours $o ms (without $o0 ms)"
	# the figure: what the events add to a record of the same workload
	bench_row "record -e $name: time the $n events add (ms)" "$((r - r0))" "$((o - o0))" max $((10 * n))
}
one_case "sdt_python:function__entry" sdt_python:function__entry 1 "$PY" -c pass
np=$("$OURS" list sdt 2>/dev/null | grep -c 'sdt_python:')
one_case "sdt_python:*" 'sdt_python:*' "$np" "$PY" -c pass
if [ -n "${HOTSPOT:-}" ]; then
	"$OURS" buildid-cache -a "$JVM" >/dev/null 2>&1
	nh=$("$OURS" list sdt 2>/dev/null | grep -c 'sdt_hotspot:')
	one_case "sdt_hotspot:*" 'sdt_hotspot:*' "$nh" "$PY" -c pass
fi
# no probe may stay behind
t=/sys/kernel/tracing; [ -e $t/uprobe_events ] || t=/sys/kernel/debug/tracing
grep -q 'sdt_' $t/uprobe_events 2>/dev/null && echo "WARNING: sdt uprobes left in $t/uprobe_events" >&2
exit 0
