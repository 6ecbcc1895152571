#!/usr/bin/env bash
# Runs every benchmark in bench/ against perf 6.1 (each alternates its runs and
# prints its own figures), then one table: figure, perf 6.1, ours, ratio,
# goal, met/not met. Not a test: figures are medians of one run on this machine.
cd "$(dirname "$0")/.." || exit 1
BENCH_TABLE=$(mktemp /tmp/bench-table.XXXXXX)
export BENCH_TABLE
trap 'rm -f "$BENCH_TABLE"' EXIT
rc=0
for b in bench/*.sh; do
	case $(basename "$b") in run-all.sh|lib.sh) continue ;; esac
	echo "=== $b"
	bash "$b" || { rc=1; printf 'ROW\t%s\t-\t-\t-\t-\tfailed\n' "$b" >>"$BENCH_TABLE"; }
done
echo
echo "=== summary (medians; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
{ printf 'figure\tperf 6.1\tours\tratio\tgoal\tmet\n'; cut -f2- "$BENCH_TABLE"; } |
	awk -F'\t' '{ for (i = 1; i <= NF; i++) { c[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } n = NR; nf = NF }
		END { for (r = 1; r <= n; r++) { l = ""; for (i = 1; i <= nf; i++) l = l sprintf("%-*s  ", w[i], c[r, i]); sub(/ +$/, "", l); print l } }'
exit $rc
