#!/bin/bash
# perf inject --jit: truncated, byte-swapped, empty, vanished dumps, perf-agent names, symlinks, pipes, no -k mono
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
use_private_home
[ "$(uname -m)" = x86_64 ] || skip "jit_synth emits x86-64 code"
[ -x "$WORKLOADS/jit_synth" ] || skip "jit_synth workload not built"
REC="$PERF"
"$PERF" record -h >/dev/null 2>&1 || { REC="$PERF_REF"; echo "-- our perf record missing: recording with perf 6.1" >&2; }

# perf 6.1 takes any file under /tmp/perf-* (where the runner puts us) for a perf-PID.map
base=$(mktemp -d /tmp/jitdump-test.XXXXXX) || fail "mktemp"
trap 'rm -rf "$base"' EXIT

# rec NAME [perf record options --] [jit_synth options]: NAME.data, dump dir $base/NAME
rec() {
	local name=$1; shift
	mkdir -p "$base/$name"
	"$REC" record -q -e cpu-clock -o "$name.data" "$@" "$base/$name" >"$name.out" || fail "$name: record failed"
	sed -n 's|^dump .*/jit-\([0-9]*\)\.dump$|\1|p' "$name.out"
}

# resolved NAME.data: both alpha and beta named, by our report and perf 6.1's
resolved() {
	"$PERF_REF" report -i "$1" --stdio --sort sym 2>/dev/null >"$1.ref.txt" || fail "$1: perf 6.1 report failed"
	"$PERF" report -i "$1" --stdio --sort sym 2>/dev/null >"$1.ours.txt" || fail "$1: our report failed"
	for f in "$1.ref.txt" "$1.ours.txt"; do
		grep -q 'com\.example\.Reuse\.alpha(int)' "$f" && grep -q 'com\.example\.Reuse\.beta(int)' "$f" ||
			fail "$1: alpha/beta not resolved in $f: $(grep -v '^#' "$f" | head -5)"
	done
	python3 "$TOP/tools/perf/tests/shell/lib/report_compare.py" "$1.ref.txt" "$1.ours.txt" 10 1.0 >/dev/null ||
		fail "$1: our report differs from perf 6.1's"
}

# 1. no -k mono: one line telling how to record, non-zero exit (perf 6.1 refuses too)
rec nomono -- "$WORKLOADS/jit_synth" --ms 100 >/dev/null
"$PERF" inject --jit -i nomono.data -o nomono.jit 2>nomono.err && fail "inject accepted a perf.data without -k mono"
[ "$(wc -l <nomono.err)" = 1 ] && grep -q 'perf record -k mono' nomono.err ||
	fail "expected one line naming 'perf record -k mono', got: $(cat nomono.err)"
"$PERF_REF" inject --jit -i nomono.data -o nomono.ref 2>/dev/null && fail "perf 6.1 accepted it (spec says it refuses)"
# without --jit the same file is fine
"$PERF" inject -i nomono.data -o nomono.copy || fail "plain inject of a non-mono file failed"

# 2. truncated: every complete record used, a warning with the offset
pid=$(rec trunc -k mono -- "$WORKLOADS/jit_synth" --ms 100 --truncate)
"$PERF" inject --jit -i trunc.data -o trunc.jit 2>trunc.err || fail "inject of a truncated dump failed: $(cat trunc.err)"
size=$(stat -c %s "$base/trunc/jit-$pid.dump")
grep -q "truncated at offset $((size - 40))" trunc.err || fail "no truncation warning with the offset: $(cat trunc.err)"
resolved trunc.jit

# 3. byte-swapped dump
rec swap -k mono -- "$WORKLOADS/jit_synth" --ms 100 --swap >/dev/null
"$PERF" inject --jit -i swap.data -o swap.jit 2>swap.err || fail "inject of a swapped dump failed: $(cat swap.err)"
resolved swap.jit

# 4. perf's agent naming (raw JVM signatures), no inline record
rec names -k mono -- "$WORKLOADS/jit_synth" --ms 100 --perf-names >/dev/null
"$PERF" inject --jit -i names.data -o names.jit 2>/dev/null || fail "inject of perf-style names failed"
resolved names.jit

# 5. empty dump (header only): nothing generated, the marker dropped, the file still good
pid=$(rec empty -k mono -- "$WORKLOADS/jit_synth" --ms 100 --empty)
"$PERF" inject --jit -i empty.data -o empty.jit 2>empty.err || fail "inject of an empty dump failed: $(cat empty.err)"
ls "$base/empty" | grep -q jitted && fail "ELF files generated for an empty dump"
"$PERF_REF" script -i empty.jit --show-mmap-events 2>/dev/null | grep -q "jit-$pid.dump" && fail "marker kept"
"$PERF_REF" report -i empty.jit --stdio >/dev/null 2>&1 || fail "perf 6.1 cannot read the output"

# 6. vanished dump: a warning, the rest of the file unchanged
pid=$(rec gone -k mono -- "$WORKLOADS/jit_synth" --ms 100)
rm "$base/gone/jit-$pid.dump"
"$PERF" inject --jit -i gone.data -o gone.jit 2>gone.err || fail "inject failed on a vanished dump: $(cat gone.err)"
grep -q "jit-$pid.dump" gone.err || fail "no warning about the vanished dump"
"$PERF_REF" report -i gone.jit --stdio >/dev/null 2>&1 || fail "perf 6.1 cannot read the output"

# 7. a symlink where an ELF goes is refused; its target stays untouched (both layouts)
pid=$(rec link -k mono -- "$WORKLOADS/jit_synth" --ms 100)
echo keep >victim
ln -s "$PWD/victim" "$base/link/jitted-$pid.so"
ln -s "$PWD/victim" "$base/link/jitted-$pid-1.so"
for mode in "" --jit-elf-per-function; do
	"$PERF" inject --jit $mode -i link.data -o link.jit 2>link.err || fail "inject $mode failed: $(cat link.err)"
	[ "$(cat victim)" = keep ] || fail "symlink target was overwritten ($mode)"
	grep -q symlink link.err || fail "no warning about the refused symlink ($mode): $(cat link.err)"
	[ -L "$base/link/jitted-$pid.so" ] && [ -L "$base/link/jitted-$pid-1.so" ] || fail "symlink replaced ($mode)"
done

# 8. pipes: record -o - | inject --jit, and -i - -o -
mkdir -p "$base/pipe"
"$REC" record -q -k mono -e cpu-clock -o - -- "$WORKLOADS/jit_synth" --ms 100 "$base/pipe" 2>/dev/null |
	"$PERF" inject --jit -o pipe.jit 2>pipe.err || fail "record | inject --jit failed: $(cat pipe.err)"
resolved pipe.jit
"$PERF" inject --jit -i - -o - <swap.data >pipe2.jit 2>pipe2.err || fail "inject -i - -o - failed: $(cat pipe2.err)"
resolved pipe2.jit

# 9. the build-id cache is left alone by default and filled (perf 6.1's layout) on request
rm -rf "$HOME/.debug"
"$PERF" inject --jit -i swap.data -o cache.jit 2>/dev/null || fail "inject failed"
[ -e "$HOME/.debug" ] && fail "inject --jit touched the build-id cache without --jit-buildid-cache"
"$PERF" inject --jit --jit-buildid-cache -i swap.data -o cache.jit 2>/dev/null || fail "inject --jit-buildid-cache failed"
"$PERF_REF" buildid-cache -l 2>/dev/null | grep -q "$base/swap/jitted-" ||
	fail "perf 6.1 does not list the jitted ELF in the cache: $("$PERF_REF" buildid-cache -l 2>&1 | head -3)"
exit 0
