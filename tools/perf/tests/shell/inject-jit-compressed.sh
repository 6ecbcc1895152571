#!/bin/bash
# perf inject --jit on a -z recording: the JIT mmaps inside COMPRESSED records are seen, Java methods named (perf 6.1 reads the result)
. "$TOP/tools/perf/tests/shell/jvmti-lib.sh"
need_ref_perf
need_jvmti
use_private_home

"$PERF" record -q -z -k mono -e cpu-clock -o z.data -- \
	$JAVA -agentpath:"$AGENT"=dir="$PWD/dumps" -cp "$JAVA_CLASSES" JvmtiHot 2 >java.out 2>java.err ||
	fail "record -z / java failed: $(tail -3 java.err)"
python3 - z.data <<'PY' || fail "our -z recording has no COMPRESSED record"
import struct, sys
d = open(sys.argv[1], 'rb').read()
p, size = struct.unpack_from('<QQ', d, 40)
end, n = p + size, 0
while p + 8 <= end:
    t, m, s = struct.unpack_from('<IHH', d, p)
    n += t == 81
    p += s
sys.exit(0 if n else 1)
PY
dump=$(find_dump dumps)
pid=$(basename "$dump" | sed 's/jit-\([0-9]*\)\.dump/\1/')
"$PERF" inject --jit -i z.data -o z.jit 2>inject.err || fail "inject --jit failed: $(cat inject.err)"
"$PERF_REF" script -i z.jit -F pid,ip,sym,dso >z.script 2>/dev/null || fail "perf 6.1 script on the injected file failed"
sed -E 's|/jitted-([0-9]+)\.so\)$|/jitted-\1-0.so)|' z.script >z.script2
read -r total resolved < <(jit_sample_counts z.script2 "$pid")
info "JIT samples $total, resolved $resolved"
[ "$total" -ge 200 ] || fail "too few JIT samples ($total)"
[ $((resolved * 100)) -ge $((total * 90)) ] || fail "only $resolved of $total JIT samples resolved"
"$PERF" report -i z.jit --stdio --sort sym 2>/dev/null | grep -q 'JvmtiHot.spin(long, int)' ||
	fail "JvmtiHot.spin not named in our report"
exit 0
