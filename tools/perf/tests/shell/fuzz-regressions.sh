#!/bin/bash
# Fuzzing: every crash reproducer in tests/fuzz/regressions/<target>/ replays cleanly
. "$TOP/tools/perf/tests/shell/lib/common.sh"
# Each file is an input that once crashed a parser (or made ASan/UBSan
# report, or leaked); the target built with the sanitizers must now run it
# to the end. A file is one test case: its name says what it once broke.
fo="$TOP/build/fuzz"
reg="$TOP/tools/perf/tests/fuzz/regressions"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS=detect_leaks=1
n=0
for dir in "$reg"/*/; do
	[ -d "$dir" ] || continue
	t=$(basename "$dir")
	bin="$fo/fuzz-$t"
	[ -x "$bin" ] || skip "fuzz-$t not built (needs clang; make build-tests)"
	for f in "$dir"*; do
		[ -f "$f" ] || continue
		"$bin" -timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=1024 "$f" >"$t.log" 2>&1 ||
			fail "$t: $(basename "$f") fails again: $(grep -m1 -E 'ERROR|runtime error|SUMMARY' "$t.log")"
		n=$((n + 1))
	done
done
[ $n -gt 0 ] || skip "no reproducers"
info "$n reproducers replayed"
exit 0
