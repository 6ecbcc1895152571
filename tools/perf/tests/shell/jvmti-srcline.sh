#!/bin/bash
# JVMTI agent: addr2line on perf 6.1's jitted ELF gives the hot method's .java file and lines
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
need_ref_perf
need_jvmti
need_cmd addr2line
use_private_home

src="$TOP/tools/perf/tests/workloads/java/JvmtiHot.java"
first=$(grep -n '// HOT-BEGIN$' "$src" | cut -d: -f1)
last=$(grep -n '// HOT-END$' "$src" | cut -d: -f1)
[ -n "$first" ] && [ -n "$last" ] || fail "no HOT-BEGIN/HOT-END markers in $src"

$PERF_REF record -q -k mono -e cpu-clock -o perf.data -- \
	$JAVA -agentpath:"$AGENT"=dir="$PWD/jd" -cp "$JAVA_CLASSES" JvmtiHot 2 >java.out 2>java.err ||
	fail "perf record / java failed"
$PERF_REF inject --jit -i perf.data -o jit.data 2>inject.err || fail "perf inject failed"

# samples in the hot method: the ELF address is the symbol's (0x80, .text start) + symoff
$PERF_REF script -i jit.data -F ip,sym,symoff,dso 2>/dev/null |
	sed -n 's/^ *[0-9a-f]* *JvmtiHot\.spin(long, int)+\(0x[0-9a-f]*\) (\(.*jitted-[0-9-]*\.so\))$/\2 \1/p' |
	sort | uniq -c | sort -rn | head -n 5 >top.txt
[ -s top.txt ] || fail "no samples in JvmtiHot.spin"
checked=0
while read -r count so off; do
	addr=$(printf '0x%x' $((0x80 + off)))
	where=$(addr2line -e "$so" "$addr")
	info "$count samples at $so $addr -> $where"
	case "$where" in
	JvmtiHot.java:*) ;;
	*) fail "addr2line $so $addr gave '$where', expected JvmtiHot.java:LINE" ;;
	esac
	line=${where#JvmtiHot.java:}
	line=${line%% *}
	[ "$line" -gt "$first" ] && [ "$line" -lt "$last" ] ||
		fail "line $line of $addr is outside JvmtiHot.spin (lines $first..$last)"
	checked=$((checked + 1))
done <top.txt
info "$checked sampled addresses map into JvmtiHot.spin, lines $first..$last"

# and perf 6.1 itself reads the same lines
$PERF_REF report -i jit.data --stdio --sort sym,srcline 2>/dev/null | grep 'JvmtiHot.spin' | head -n 3 >srcline.txt
grep -q 'JvmtiHot.java:[0-9]' srcline.txt || fail "perf report --sort srcline shows no JvmtiHot.java line: $(cat srcline.txt)"
exit 0
