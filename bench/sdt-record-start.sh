#!/usr/bin/env bash
# Cost of SDT events in `perf record -e EVENTS -- WORKLOAD`, ours vs perf 6.1,
# alternating runs (perf 6.1: `perf probe EVENTS`, record, `perf probe -d`,
# as it needs; all three steps counted).
#
# Two phases, each as what the events add to a record of the same workload
# without them (-e cpu-clock):
#  - start: from the command's start until the workload runs (the workload
#    is `date +%s%N`, which prints the moment it ran). Issue 16's goal: at
#    most 10 ms an event (record start <= 0.2 s + 10 ms per event).
#  - exit: from the workload until the command returned. Closing the last
#    perf fd of a uprobe event makes the kernel wait for two RCU-tasks-trace
#    grace periods under its event_mutex (perf_trace_destroy ->
#    uprobe_unregister_sync and perf_trace_event_unreg, seen in
#    /proc/PID/stack): ~41 ms an event here, one event after the other, for
#    any tool (closing from 128 threads at once took as long), so that row's
#    goal is that bound, 50 ms an event. perf 6.1's own exit work (~2 s here
#    without events) makes its delta noisy.
# Cases: libjvm's hotspot events (no hits: the workload does not load
# libjvm): 1, 18 and all 509 that the kernel accepts (HOTSPOT=0: not those;
# they take minutes)
# (8 of libjvm's 517 events have sites whose argument types differ, which
# the kernel refuses for perf 6.1 as for us); and python3.11's events fired
# by `python3.11 -c pass` (1 event ~2,200 hits, 8 events ~18,000 hits:
# those rows include the per-hit cost).
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
[ -e "$JVM" ] || { echo "libjvm.so missing" >&2; exit 2; }
W=$(mktemp -d /tmp/sdt-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT
export HOME=$W/home; mkdir -p "$HOME"
# both read ~/.debug: one cache, added by each tool (same layout)
for b in "$PY" "$JVM"; do
	"$OURS" buildid-cache -a "$b" >/dev/null 2>&1
	"$REF" buildid-cache -a "$b" >/dev/null 2>&1
done
now() { date +%s%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# ref_probes -a|-d EVENTS: perf 6.1's perf probe takes one event an -a / -d
# (a comma list is no list to it) and at most 128 of them a command
ref_probes() {
	local op=$1 args=() x
	for x in ${2//,/ }; do
		args+=("$op" "$x")
		if [ ${#args[@]} -ge 200 ]; then
			"$REF" probe -q "${args[@]}" >/dev/null 2>&1 || return 1
			args=()
		fi
	done
	[ ${#args[@]} = 0 ] || "$REF" probe -q "${args[@]}" >/dev/null 2>&1
}
# phases TOOL(ours|ref) EVENTS OUT: appends "start_ms exit_ms" to OUT
phases() {
	local tool=$1 ev=$2 out=$3 s w e
	s=$(now)
	if [ "$tool" = ref ] && [ "$ev" != cpu-clock ]; then
		w=$(ref_probes -a "$ev" &&
		    "$REF" record -q -o "$W/r.data" -e "$ev" -- date +%s%N 2>/dev/null | tail -1
		    ref_probes -d "$ev")
	elif [ "$tool" = ref ]; then
		w=$("$REF" record -q -o "$W/r.data" -e "$ev" -- date +%s%N 2>/dev/null | tail -1)
	else
		w=$("$OURS" record -q -o "$W/o.data" -e "$ev" -- date +%s%N 2>/dev/null | tail -1)
	fi
	e=$(now)
	case $w in ''|*[!0-9]*) echo "$tool record -e ${ev:0:60}... did not run its workload" >&2; w=$e ;; esac
	echo "$(( (w - s) / 1000000 )) $(( (e - w) / 1000000 ))" >>"$out"
}
col() { awk -v c="$1" '{ print $c }' "$2" | median; }
# libjvm's events, in the cache's order, without those the kernel refuses
jvm_events() {
	local f
	f=$(ls "$HOME"/.debug"$JVM"/*/probes | head -1)
	awk '/^p:/ { split($1, a, "[:/]"); n = a[2] ":" a[3]; sub(/^[^ ]* [^ ]*/, "")
		     if (n in first && first[n] != $0) bad[n] = 1
		     if (!(n in first)) { first[n] = $0; order[++k] = n } }
	     END { for (i = 1; i <= k; i++) if (!(order[i] in bad)) print order[i] }' "$f"
}
phase_case() {	# NAME NEVENTS EVENTS RUNS
	local name=$1 n=$2 ev=$3 runs=$4
	: >"$W/o"; : >"$W/r"; : >"$W/o0"; : >"$W/r0"
	for _ in $(seq "$runs"); do
		phases ref "$ev" "$W/r"; phases ours "$ev" "$W/o"
		phases ref cpu-clock "$W/r0"; phases ours cpu-clock "$W/o0"
	done
	local rs re os oe r0s r0e o0s o0e
	rs=$(col 1 "$W/r"); re=$(col 2 "$W/r"); os=$(col 1 "$W/o"); oe=$(col 2 "$W/o")
	r0s=$(col 1 "$W/r0"); r0e=$(col 2 "$W/r0"); o0s=$(col 1 "$W/o0"); o0e=$(col 2 "$W/o0")
	echo "$name ($n events): start perf 6.1 $rs ms (without events $r0s), ours $os ms (without $o0s);" \
	     "exit perf 6.1 $re ms (without $r0e), ours $oe ms (without $o0e)"
	bench_row "record -e $name: start, time the $n events add (ms)" "$((rs - r0s))" "$((os - o0s))" max $((10 * n))
	bench_row "record -e $name: exit, time the $n events add (ms; kernel: ~41 ms an event)" \
		"$((re - r0e))" "$((oe - o0e))" max $((50 * n))
}
mapfile -t JV < <(jvm_events)
# the small cases' goals are tens of ms: more runs against the machine's noise
phase_case "${JV[0]}" 1 "${JV[0]}" $((RUNS * 2 + 1))
phase_case "18 hotspot events" 18 "$(printf '%s\n' "${JV[@]:0:18}" | paste -sd,)" $((RUNS * 2 + 1))
if [ "${HOTSPOT:-1}" != 0 ]; then
	phase_case "all ${#JV[@]} libjvm events" "${#JV[@]}" "$(printf '%s\n' "${JV[@]}" | paste -sd,)" "$RUNS"
fi

# python's events, fired by the workload: the whole record, start to end
ms() { local s e; s=$(now); "$@" >/dev/null 2>&1; e=$(now); echo $(( (e - s) / 1000000 )); }
one_case() {    # NAME EVENT-SPEC NEVENTS WORKLOAD...
	local name=$1 spec=$2 n=$3; shift 3
	: >"$W/o"; : >"$W/r"; : >"$W/o0"; : >"$W/r0"
	for _ in $(seq "$RUNS"); do
		ms bash -c '"$0" probe -q "$1" && "$0" record -q -o "$2" -e "$1" -- "${@:3}"; "$0" probe -q -d "$1"' \
			"$REF" "$spec" "$W/r.data" "$@" >>"$W/r"
		ms "$OURS" record -q -o "$W/o.data" -e "$spec" -- "$@" >>"$W/o"
		ms "$REF" record -q -o "$W/r0.data" -e cpu-clock -- "$@" >>"$W/r0"
		ms "$OURS" record -q -o "$W/o0.data" -e cpu-clock -- "$@" >>"$W/o0"
	done
	local r o r0 o0
	r=$(median <"$W/r"); o=$(median <"$W/o"); r0=$(median <"$W/r0"); o0=$(median <"$W/o0")
	echo "$name ($n events, fired): perf 6.1 $r ms (without events $r0 ms), ours $o ms (without $o0 ms)"
	bench_row "record -e $name, fired: time the $n events add (ms)" "$((r - r0))" "$((o - o0))" \
		ratio-max 1.1
}
one_case "sdt_python:function__entry" sdt_python:function__entry 1 "$PY" -c pass
np=$("$OURS" list sdt 2>/dev/null | grep -c 'sdt_python:')
one_case "sdt_python:*" 'sdt_python:*' "$np" "$PY" -c pass
# the cost of one hit of a probe with arguments (sdt_python:line: 3 fetched
# registers), from ~213,000 hits of a loop, in µs of wall time
printf 'def f(): pass\nfor i in range(200000): f()\n' >"$W/loop.py"
: >"$W/o"; : >"$W/r"; : >"$W/o0"
for _ in $(seq "$RUNS"); do
	ms bash -c '"$0" probe -q "$1" && "$0" record -q -o "$2" -e "$1" -- "${@:3}"; "$0" probe -q -d "$1"' \
		"$REF" sdt_python:line "$W/r.data" "$PY" "$W/loop.py" >>"$W/r"
	ms "$OURS" record -q -o "$W/o.data" -e sdt_python:line -- "$PY" "$W/loop.py" >>"$W/o"
	ms "$OURS" record -q -o "$W/o0.data" -e cpu-clock -- "$PY" "$W/loop.py" >>"$W/o0"
done
hits=$("$OURS" script -i "$W/o.data" 2>/dev/null | grep -c 'sdt_python:line:')
r=$(median <"$W/r"); o=$(median <"$W/o"); o0=$(median <"$W/o0")
if [ "$hits" -gt 0 ]; then
	echo "sdt_python:line fired $hits times: perf 6.1 $r ms, ours $o ms, without the event $o0 ms"
	bench_row "one hit of sdt_python:line (3 args), wall (us)" \
		"$(( (r - o0) * 1000 / hits ))" "$(( (o - o0) * 1000 / hits ))" ratio-max 1.1
fi
# no probe may stay behind
t=/sys/kernel/tracing; [ -e $t/uprobe_events ] || t=/sys/kernel/debug/tracing
grep -q -E 'sdt_(python|hotspot)' $t/uprobe_events 2>/dev/null &&
	echo "WARNING: sdt uprobes left in $t/uprobe_events" >&2
exit 0
