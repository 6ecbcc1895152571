#!/bin/bash
# Fuzzing: each libFuzzer target runs a few seconds on its seeds with no crash, leak or UB report
. "$TOP/tools/perf/tests/shell/lib/common.sh"
# The long runs are `make fuzz FUZZ_SECONDS=600`. Here every target gets
# FUZZ_SHORT_SECONDS (default 8; 9 targets = ~90 s of the suite's budget;
# 3 in the SAN run, whose fuzzers are the same binaries as the normal run's)
# on a private copy of the grown corpus, so the test does not depend on,
# nor change, what an earlier `make fuzz` found.
fo="$TOP/build/fuzz"
default_secs=8
[ "${PERF_TEST_SAN:-}" = 1 ] && default_secs=3
secs=${FUZZ_SHORT_SECONDS:-$default_secs}
# (remade only when perf, a workload or the script changed)
bash "$TOP/tools/perf/tests/fuzz/mk-corpus.sh" "$fo/seeds" >/dev/null
mkdir -p run
targets=
for src in "$TOP"/tools/perf/tests/fuzz/fuzz-*.c; do
	t=$(basename "$src" .c)
	t=${t#fuzz-}
	[ -x "$fo/fuzz-$t" ] || skip "fuzz-$t not built (needs clang; make build-tests)"
	ln -s "$fo/fuzz-$t" "run/fuzz-$t"
	mkdir -p run/corpus
	# (2>/dev/null: a running `make fuzz` may be reducing that corpus right now)
	[ -d "$fo/corpus/$t" ] && cp -r "$fo/corpus/$t" run/corpus/ 2>/dev/null
	targets="$targets $t"
done
ln -s "$fo/seeds" run/seeds
if ! FUZZ_SECONDS=$secs bash "$TOP/tools/perf/tests/fuzz/run-fuzz.sh" "$PWD/run" $targets; then
	# the scratch dir goes away: keep the inputs and logs for a reproducer
	keep="$fo/findings-short"
	mkdir -p "$keep"
	cp -r run/findings/. "$keep"/ 2>/dev/null
	cp run/*.log "$keep"/ 2>/dev/null
	fail "$(grep FAILED run/summary.txt | head -3) (inputs kept in $keep)"
fi
exit 0
