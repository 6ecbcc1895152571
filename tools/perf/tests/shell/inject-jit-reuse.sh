#!/bin/bash
# perf inject --jit: reused code addresses and MOVE resolve by time (synthetic JIT), compared with perf 6.1
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
use_private_home
[ "$(uname -m)" = x86_64 ] || skip "jit_synth emits x86-64 code"
[ -x "$WORKLOADS/jit_synth" ] || skip "jit_synth workload not built"

# our record when it exists, else perf 6.1's (the inject is what is tested here)
REC="$PERF"
"$PERF" record -h >/dev/null 2>&1 || { REC="$PERF_REF"; echo "-- our perf record missing: recording with perf 6.1" >&2; }

# perf 6.1 takes any file under /tmp/perf-* (where the runner puts us) for a perf-PID.map
dump=$(mktemp -d /tmp/jitdump-test.XXXXXX) || fail "mktemp"
trap 'rm -rf "$dump"' EXIT
"$REC" record -q -k mono -e cpu-clock -o perf.data -- "$WORKLOADS/jit_synth" --ms 300 "$dump" >out.txt ||
	fail "record failed"
pid=$(sed -n 's|^dump .*/jit-\([0-9]*\)\.dump$|\1|p' out.txt)
[ -n "$pid" ] || fail "workload printed no dump: $(cat out.txt)"

# 1. perf 6.1 reads our output: each sample is named after the code resident at its time
# (perf 6.1's layout, one ELF per function, first; then our default, one ELF per dump)
for mode in --jit-elf-per-function ""; do
"$PERF" inject --jit $mode -i perf.data -o jit.data 2>inject.err || fail "inject --jit $mode failed: $(cat inject.err)"
"$PERF_REF" script -i jit.data -F time,ip,sym --ns 2>/dev/null | grep Reuse >script.txt
awk -v phases="$(grep '^phase' out.txt | tr '\n' ';')" '
	BEGIN {
		n = split(phases, p, ";")
		for (i = 1; i <= n; i++) if (split(p[i], f, " ") == 5) { np++; nm[np] = f[2]; sy[np] = f[3]; t0[np] = f[4]; t1[np] = f[5] }
	}
	{ t = $1; sub(":", "", t); split(t, a, "."); ns = a[1] * 1000000000 + a[2]
	  for (i = 1; i <= np; i++) if (ns >= t0[i] && ns <= t1[i]) {
		if (index($0, "Reuse." sy[i] "(")) good[i]++; else { bad[i]++; print "wrong symbol in phase " nm[i] ": " $0 }
	  } }
	END {
		for (i = 1; i <= np; i++) {
			printf "phase %s: %d samples on %s, %d on something else\n", nm[i], good[i], sy[i], bad[i]
			if (good[i] < 100 || bad[i] > 0) fail = 1
		}
		if (np != 3) { print "expected 3 phases"; fail = 1 }
		exit fail
	}' script.txt || fail "samples not resolved to the function resident at their time ($mode)"
done

# 2. the marker and the process' anonymous code map are gone, our MMAP2s are there
"$PERF_REF" script -i jit.data --show-mmap-events 2>/dev/null | grep 'MMAP' >mmaps.txt
grep -q "jit-$pid.dump" mmaps.txt && fail "marker mmap still in the output"
grep "^ *jit_synth *$pid" mmaps.txt | grep -q '//anon' && fail "//anon map of the JIT process still in the output"
[ "$(grep -c 'jitted-' mmaps.txt)" -ge 3 ] || fail "expected >= 3 jitted MMAP2 (2 LOADs + 1 MOVE): $(cat mmaps.txt)"

# the output's BUILD_ID feature lists the ELF the samples hit, with the id in its note
"$PERF_REF" buildid-list -i jit.data 2>/dev/null | grep "$dump/jitted-" >bids.txt
[ -s bids.txt ] || fail "no jitted ELF in the BUILD_ID feature"
while read -r bid path; do
	readelf -n "$path" | grep -q "Build ID: $bid" || fail "BUILD_ID $bid does not match the note of $path"
done <bids.txt

# 3. perf 6.1 report on our file == our report on our file == perf 6.1 inject + report
"$PERF_REF" report -i jit.data --stdio --sort sym 2>/dev/null >ref-on-ours.txt || fail "perf 6.1 report failed"
"$PERF" report -i jit.data --stdio --sort sym 2>/dev/null >ours.txt || fail "our report failed"
python3 "$TOP/tools/perf/tests/shell/lib/report_compare.py" ref-on-ours.txt ours.txt 10 1.0 ||
	fail "our report differs from perf 6.1's on the same injected file"
# perf 6.1's inject overwrites the ELFs with its own; run it last
"$PERF_REF" inject --jit -i perf.data -o ref.data 2>/dev/null || fail "perf 6.1 inject failed"
"$PERF_REF" report -i ref.data --stdio --sort sym 2>/dev/null >ref.txt
python3 "$TOP/tools/perf/tests/shell/lib/report_compare.py" ref.txt ref-on-ours.txt 10 1.0 ||
	fail "our inject resolves differently from perf 6.1's inject"

# 4. the Java file:line from the dump's DEBUG_INFO (ours is reinjected: perf 6.1 replaced the files)
"$PERF" inject --jit -i perf.data -o jit.data 2>/dev/null || fail "re-inject failed"
"$PERF" report -i jit.data --stdio --sort sym,srcline 2>/dev/null >srcline.txt
grep -q 'Reuse.alpha(int) *Reuse.java:1[0-3]' srcline.txt || fail "no Reuse.java line for alpha: $(head -20 srcline.txt)"
grep -q 'Reuse.beta(int) *Reuse.java:2[0-4]' srcline.txt || fail "no Reuse.java line for beta"
exit 0
