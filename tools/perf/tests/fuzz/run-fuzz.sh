#!/bin/bash
# Runs fuzz targets one after the other (the machine is shared: one process,
# one core), each FUZZ_SECONDS seconds, and prints one line of figures per
# target. Used by `make fuzz` and by tests/shell/fuzz-short.sh.
#   run-fuzz.sh FUZZ_OUT TARGET...
# The corpus a target grows is kept in FUZZ_OUT/corpus/<target> and grows
# from run to run; seeds come from FUZZ_OUT/seeds/<target>. A crash, leak,
# UB report or timeout leaves its input in FUZZ_OUT/findings/<target>/ and
# makes the exit status 1.
set -u
fo=${1:?usage: run-fuzz.sh FUZZ_OUT TARGET...}
shift
secs=${FUZZ_SECONDS:-60}
# UBSan reports must be fatal, as in the SAN=1 build
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
status=0
summary="$fo/summary.txt"
: >"$summary"
for t in "$@"; do
	bin="$fo/fuzz-$t"
	[ -x "$bin" ] || { echo "fuzz-$t: not built" >&2; status=1; continue; }
	corpus="$fo/corpus/$t"
	seeds="$fo/seeds/$t"
	findings="$fo/findings/$t"
	mkdir -p "$corpus" "$findings" "$seeds"
	log="$fo/fuzz-$t.log"
	t0=$(date +%s)
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
		-print_final_stats=1 -close_fd_mask=1 ${FUZZ_EXTRA:-} \
		-artifact_prefix="$findings/" "$corpus" "$seeds" >"$log" 2>&1
	rc=$?
	took=$(($(date +%s) - t0))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p')
	eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	line="fuzz-$t: ${took}s execs=${execs:-?} exec/s=${eps:-?} cov=${cov:-?} ft=${ft:-?} corpus=${corp:-?}"
	if [ $rc -ne 0 ]; then
		line="$line FAILED (rc=$rc): $(grep -m1 -E 'ERROR: |runtime error:|SUMMARY' "$log")"
		line="$line; input in $findings/, log $log"
		status=1
	fi
	echo "$line" | tee -a "$summary"
done
exit $status
