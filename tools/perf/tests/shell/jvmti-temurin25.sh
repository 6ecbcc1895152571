#!/bin/bash
# JVMTI agent: the same libperf-jvmti.so loads and works in Temurin 25 (record, attach)
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
need_ref_perf
need_jvmti
use_private_home
J25=${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
[ -x "$J25/bin/java" ] || skip "Temurin 25 not installed at $J25 (set JAVA25_HOME)"
"$J25/bin/java" -version 2>&1 | head -n 1

$PERF_REF record -q -k mono -e cpu-clock -o perf.data -- \
	"$J25/bin/java" -agentpath:"$AGENT"=dir="$PWD/jd" -cp "$JAVA_CLASSES" JvmtiHot 2 >java.out 2>java.err ||
	fail "java 25 with the agent failed: $(tail -3 java.err)"
grep -q '^done$' java.out || fail "workload did not finish on java 25"
if grep -v '^stderr line from the workload$' java.err | grep -q .; then fail "java 25 stderr: $(cat java.err)"; fi
dump=$(find_dump jd)
sum=$("$JITDUMP_CHECK" "$dump" 2>check.err) || fail "checker: $(head -3 check.err)"
info "$sum"
[ "$(checker_field debug_info "$sum")" -gt 0 ] || fail "no line tables on java 25"
$PERF_REF inject --jit -i perf.data -o jit.data 2>inject.err || fail "perf inject failed"
$PERF_REF script -i jit.data -F pid,ip,sym,dso >script.txt 2>/dev/null
pid=$(basename "$dump" | sed 's/jit-\([0-9]*\)\.dump/\1/')
read -r total resolved < <(jit_sample_counts script.txt "$pid")
info "java 25 JIT samples: $total, resolved: $resolved"
[ "$total" -ge 500 ] && [ $((resolved * 100)) -ge $((total * 90)) ] || fail "only $resolved of $total resolved"
$PERF_REF report -i jit.data --stdio --sort sym 2>/dev/null | grep '%' | head -n 3 | grep -q 'JvmtiHot.spin(long, int)' ||
	fail "JvmtiHot.spin not in the top 3 on java 25"

# late attach on 25 (dynamic loading allowed explicitly, else JDK 21+ warn)
"$J25/bin/java" -XX:+EnableDynamicAgentLoading -cp "$JAVA_CLASSES" JvmtiHot --wait-file "$PWD/go" 1 >a.out 2>a.err &
jpid=$!
trap 'kill -9 $jpid 2>/dev/null; jvmti_cleanup' EXIT
for i in $(seq 100); do grep -q warm a.out && break; sleep 0.1; done
"$J25/bin/jcmd" $jpid JVMTI.agent_load "$AGENT" "\"dir=$PWD/jda\"" >jcmd.out 2>&1
grep -q 'return code: 0' jcmd.out || fail "attach on java 25: $(cat jcmd.out)"
touch go
wait $jpid || fail "java 25 failed after the attach"
trap jvmti_cleanup EXIT
"$JITDUMP_CHECK" --list "$(find_dump jda)" >alist.txt 2>check.err || fail "attach dump: $(head -3 check.err)"
grep -q 'JvmtiHot.spin(long, int)$' alist.txt || fail "attach on java 25 did not replay JvmtiHot.spin"
exit 0
