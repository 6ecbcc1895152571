#!/bin/bash
# JVMTI agent: late attach with jcmd replays compiled methods; a profile started after names them
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
need_ref_perf
need_jvmti
use_private_home
JCMD=${JCMD:-$(dirname "$(readlink -f "$(command -v "$JAVA")")")/jcmd}
[ -x "$JCMD" ] || skip "no jcmd next to $JAVA"

$JAVA -cp "$JAVA_CLASSES" JvmtiHot --wait-file "$PWD/go" 3 >java.out 2>java.err &
jpid=$!
trap 'kill -9 $jpid 2>/dev/null; jvmti_cleanup' EXIT
for i in $(seq 100); do grep -q warm java.out && break; sleep 0.1; done
grep -q warm java.out || fail "workload did not warm up"
[ -z "$(find . -name 'jit-*.dump')" ] || fail "a dump exists before the attach"

# jcmd splits key=value arguments itself: the option string must be quoted for it
"$JCMD" $jpid JVMTI.agent_load "$AGENT" "\"dir=$PWD/jd\"" >jcmd.out 2>&1 || fail "jcmd failed: $(cat jcmd.out)"
grep -q 'return code: 0' jcmd.out || fail "agent attach: $(cat jcmd.out)"
dump=$(find_dump jd)
# the hot method was compiled before we came: it is in the dump only if GenerateEvents replayed it
"$JITDUMP_CHECK" --killed --list "$dump" >list1.txt 2>check.err || fail "checker: $(head -3 check.err)"
grep -q 'JvmtiHot.spin(long, int)$' list1.txt || fail "replay did not write JvmtiHot.spin"
grep -q ' Interpreter$' list1.txt || fail "replay did not write the interpreter stub"

# a second attach must not start another dump nor disturb the first
"$JCMD" $jpid JVMTI.agent_load "$AGENT" "\"dir=$PWD/jd2\"" >jcmd2.out 2>&1 || fail "second jcmd failed"
[ ! -e jd2 ] || [ -z "$(find jd2 -name 'jit-*.dump')" ] || fail "second attach wrote another dump"

$PERF_REF record -q -k mono -e cpu-clock -o perf.data -p $jpid -- sleep 1.5 2>rec.err ||
	fail "perf record -p failed: $(tail -3 rec.err)"
touch go
wait $jpid || fail "workload failed after the attach"
trap jvmti_cleanup EXIT
grep -q 'perf-jvmti: warning: already writing' java.err || fail "no warning for the second attach: $(cat java.err)"
"$JITDUMP_CHECK" "$dump" >final.txt 2>check.err || fail "final dump rejected: $(head -3 check.err)"
info "$(cat final.txt)"

$PERF_REF inject --jit -i perf.data -o jit.data 2>inject.err || fail "perf inject failed"
$PERF_REF script -i jit.data -F pid,ip,sym,dso >script.txt 2>/dev/null
read -r total resolved < <(jit_sample_counts script.txt "$jpid")
info "JIT samples after the attach: $total, resolved: $resolved"
[ "$total" -ge 500 ] || fail "too few JIT samples ($total)"
[ $((resolved * 100)) -ge $((total * 90)) ] || fail "only $resolved of $total JIT samples resolved"
$PERF_REF report -i jit.data --stdio --sort sym 2>/dev/null | grep '%' | head -n 3 | grep -q 'JvmtiHot.spin(long, int)' ||
	fail "JvmtiHot.spin not in the top 3 after a late attach"
exit 0
