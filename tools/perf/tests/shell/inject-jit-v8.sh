#!/bin/bash
# perf inject --jit, V8: node --perf-prof dump; our inject + report vs perf 6.1 inject + report, same top-20 and resolved share
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
need_cmd node readelf
node --v8-options 2>/dev/null | grep -q -- '--perf-prof-unwinding-info' || skip "node without --perf-prof"
REC="$PERF"
"$PERF" record -h >/dev/null 2>&1 || { REC="$PERF_REF"; echo "-- our perf record missing: recording with perf 6.1" >&2; }

# perf 6.1 takes any file under /tmp/perf-* (where the runner puts us) for a perf-PID.map
work=$(mktemp -d /tmp/jitdump-v8.XXXXXX) || fail "mktemp"
trap 'rm -rf "$work"' EXIT
cd "$work" || fail "cd"
use_private_home() { export HOME="$work/home"; mkdir -p "$HOME"; }
use_private_home

# node writes jit-PID.dump into its cwd
"$REC" record -q -k mono -e cpu-clock -o perf.data -- \
	node --perf-prof --perf-prof-unwinding-info "$TOP/tools/perf/tests/workloads/v8/hot.js" 1500 >node.out 2>node.err ||
	fail "record node failed: $(tail -3 node.err)"
dump=$(ls jit-*.dump 2>/dev/null | head -1)
[ -n "$dump" ] || fail "node wrote no jitdump"
pid=${dump#jit-}; pid=${pid%.dump}

# share of the node process' user samples outside node's own binaries that got a symbol
share() {
	"$PERF_REF" script -i "$1" -F pid,ip,sym,dso 2>/dev/null | awk -v pid="$pid" '
		$1 != pid { next }
		{ dso = $NF; gsub(/^\(|\)$/, "", dso); ip = $2 }
		length(ip) >= 16 && substr(ip, 1, 1) == "f" { next }
		dso ~ /jitted-/ || dso == "//anon" || dso == "[unknown]" || dso ~ /perf-[0-9]+\.map/ || dso ~ /^\[anon/ {
			total++; if (dso ~ /jitted-/ && $3 != "[unknown]") ok++ }
		END { if (!total) total = 1; printf "%.2f %d\n", ok * 100 / total, total }'
}

# perf 6.1 first: it writes its own ELFs over ours
"$PERF_REF" inject --jit -i perf.data -o ref.data 2>ref.err || fail "perf 6.1 inject failed: $(tail -3 ref.err)"
"$PERF_REF" report -i ref.data --stdio --sort sym 2>/dev/null >ref.txt
read -r ref_share total < <(share ref.data)

"$PERF" inject --jit -i perf.data -o ours.data 2>ours.err || fail "our inject failed: $(cat ours.err)"
"$PERF" report -i ours.data --stdio --sort sym 2>/dev/null >ours.txt
read -r our_share _ < <(share ours.data)
info "JIT samples $total; resolved: perf 6.1 $ref_share%, ours $our_share%"
[ "$total" -ge 300 ] || fail "too few samples in JIT code ($total)"
awk -v a="$ref_share" -v b="$our_share" 'BEGIN { d = a - b; if (d < 0) d = -d; exit d > 1.0 }' ||
	fail "resolved share differs by more than 1 point"
grep -q 'JS:\*fib\|JS:\*mandel\|JS:\*sieve' ours.txt || fail "no optimized JS function named: $(grep -v '^#' ours.txt | head)"
python3 "$TOP/tools/perf/tests/shell/lib/report_compare.py" ref.txt ours.txt 20 1.0 ||
	fail "top-20 symbols differ from perf 6.1's inject + report"

# the unwinding info V8 gave became .eh_frame that readelf decodes without complaint
n=0
for f in $(ls -S jitted-"$pid"-*.so | head -200); do
	out=$(readelf --debug-dump=frames "$f" 2>&1)
	echo "$out" | grep -q FDE || continue
	echo "$out" | grep -qi 'warning\|error' && fail "readelf complains about $f: $out"
	n=$((n + 1)); [ $n -ge 3 ] && break
done
[ $n -ge 1 ] || fail "no generated ELF carries V8's .eh_frame FDEs"
exit 0
