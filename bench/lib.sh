# Shared by the benchmarks: one summary row per figure for bench/run-all.sh.
# bench_row FIGURE PERF61 OURS GOAL_KIND GOAL
#   PERF61/OURS: the two medians, same unit (seconds, ms, %)
#   GOAL_KIND: "speedup" (perf61/ours must be >= GOAL), "ratio-max" (ours/perf61 <= GOAL),
#              "max" (ours <= GOAL, in the figure's unit)
# Rows go to $BENCH_TABLE when run-all sets it, and are echoed either way.
bench_row() {
	local fig=$1 ref=$2 ours=$3 kind=$4 goal=$5 ratio met gtxt
	case $kind in
	speedup)   ratio=$(awk -v a="$ref" -v b="$ours" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }')
		   met=$(awk -v a="$ref" -v b="$ours" -v g="$goal" 'BEGIN { print (b > 0 && a / b >= g) ? "met" : "not met" }')
		   gtxt=">= ${goal}x faster" ;;
	ratio-max) ratio=$(awk -v a="$ref" -v b="$ours" 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }')
		   met=$(awk -v a="$ref" -v b="$ours" -v g="$goal" 'BEGIN { print (a > 0 && b / a <= g) ? "met" : "not met" }')
		   gtxt="ours/perf <= $goal" ;;
	max)       ratio=$(awk -v a="$ref" -v b="$ours" 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }')
		   met=$(awk -v b="$ours" -v g="$goal" 'BEGIN { print (b <= g) ? "met" : "not met" }')
		   gtxt="ours <= $goal" ;;
	*) echo "bench_row: unknown goal kind $kind" >&2; return 1 ;;
	esac
	printf 'ROW\t%s\t%s\t%s\t%s\t%s\t%s\n' "$fig" "$ref" "$ours" "$ratio" "$gtxt" "$met" |
		tee -a "${BENCH_TABLE:-/dev/null}" | cut -f2- | tr '\t' '|' | sed 's/^/summary: /'
}
