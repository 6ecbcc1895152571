#!/bin/bash
# Fault: a recorded JVM killed with -9 at 10 random moments under CPU load: record, inject and report still work, names resolve
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
# jvmti-kill9.sh checks the dump a killed JVM leaves. This is the rest of
# the chain on a loaded machine (two CPU hogs besides the JVM): the JVM
# runs under our perf record -k mono, is killed with -9 at a random moment,
# and then perf inject --jit must turn the recording plus the killed dump
# (partial last record and all) into a file perf 6.1 and we read, with
# its JIT samples named from the dump's complete records. Each run checks:
# record ends by itself, inject exits 0, both readers read the result, and
# from the moment the dump has loads on, some JIT samples have names.
need_jvmti
[ -f "$JAVA_CLASSES/JvmtiManyMethods.class" ] || skip "JvmtiManyMethods not built"
"$PERF" record -h >/dev/null 2>&1 || skip "our perf record is not built"
use_private_home
READER=${PERF_REF:-}
[ -x "$READER" ] || READER=$PERF

hogs=
for i in 1 2; do
	( while :; do :; done ) &
	hogs="$hogs $!"
done
trap 'kill $hogs 2>/dev/null; jvmti_cleanup' EXIT

RANDOM=$$
named_runs=0
# the SAN run (make test SAN=1) looks for memory errors: half the moments do
runs=10 need=3
[ "${PERF_TEST_SAN:-}" = 1 ] && runs=5 need=1
for run in $(seq $runs); do
	rm -rf jd r.data r.jit
	delay=$(awk -v r=$((RANDOM % 170)) 'BEGIN { printf "%.2f", 0.3 + r / 100 }')
	# (a subshell: record ends the way its workload did, and bash would
	# print a "Killed" job notice for it)
	( "$PERF" record -q -k mono -e cpu-clock -o r.data -- \
		$JAVA -agentpath:"$AGENT"=dir="$PWD/jd" -cp "$JAVA_CLASSES" JvmtiManyMethods 50 >/dev/null 2>java.err
	  exit $? ) 2>/dev/null &
	rec=$!
	sleep "$delay"
	jpid=$(pgrep -n -f "dir=$PWD/jd")
	[ -n "$jpid" ] || fail "run $run: no JVM under record"
	kill -9 "$jpid"
	timeout 30 tail --pid="$rec" -f /dev/null || { kill -9 "$rec"; fail "run $run: record did not end after the JVM was killed"; }
	wait "$rec" 2>/dev/null
	"$READER" script -i r.data >/dev/null 2>r.err || fail "run $run: the recording is not readable: $(head -2 r.err)"
	dump=$(find jd -name 'jit-*.dump' 2>/dev/null | head -1)
	if [ -z "$dump" ]; then
		info "run $run: killed after ${delay}s, before the dump existed"
		continue
	fi
	loads=$(checker_field loads "$("$JITDUMP_CHECK" --killed "$dump" 2>/dev/null)")
	"$PERF" inject --jit -i r.data -o r.jit 2>inject.err || fail "run $run (${delay}s): inject failed: $(cat inject.err)"
	"$READER" script -i r.jit -F pid,ip,sym,dso >r.script 2>r.err || fail "run $run: injected file not readable: $(head -2 r.err)"
	"$PERF" report -i r.jit --stdio >/dev/null 2>r.err || fail "run $run: our report fails on the injected file: $(head -2 r.err)"
	sed -E 's|/jitted-([0-9]+)\.so\)$|/jitted-\1-0.so)|' r.script >r.script2
	read -r total resolved < <(jit_sample_counts r.script2 "$jpid")
	info "run $run: killed after ${delay}s: ${loads:-0} loads in the dump, $total JIT samples, $resolved named"
	[ "$resolved" -gt 0 ] && named_runs=$((named_runs + 1))
done
[ "$named_runs" -ge $need ] || fail "only $named_runs of $runs runs had named JIT samples"
exit 0
