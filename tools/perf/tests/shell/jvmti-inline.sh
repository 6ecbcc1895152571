#!/bin/bash
# JVMTI agent: the inline record holds the whole inline stack (leaf first, file, line, bci) of each pc
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
need_jvmti

src="$TOP/tools/perf/tests/workloads/java/JvmtiHot.java"
ob=$(grep -n '// OUTER-BEGIN$' "$src" | cut -d: -f1)
oe=$(grep -n '// OUTER-END$' "$src" | cut -d: -f1)
il=$(grep -n '// INNER-LINE$' "$src" | cut -d: -f1)
[ -n "$ob" ] && [ -n "$oe" ] && [ -n "$il" ] || fail "markers missing in $src"

$JAVA -agentpath:"$AGENT"=dir="$PWD/jd" -cp "$JAVA_CLASSES" JvmtiHot 2 >java.out 2>java.err || fail "java failed"
dump=$(find_dump jd)
"$JITDUMP_CHECK" --inline "$dump" >inline.txt 2>check.err || fail "checker: $(head -3 check.err)"

# pcs of compiled outer() that are inside an inlined inner(): frames [inner, outer]
awk -F'\t' -v ob="$ob" -v oe="$oe" -v il="$il" '
$1 == "inline" && $3 >= 2 && $4 == "JvmtiHot.inner(int)" && $7 == "JvmtiHot.outer(int)" {
	n++
	if ($5 != "JvmtiHot.java:" il) { print "leaf line " $5 " (want JvmtiHot.java:" il ")"; bad++ }
	split($8, c, ":"); if (c[1] != "JvmtiHot.java" || c[2] <= ob || c[2] >= oe) { print "caller line " $8; bad++ }
	if ($9 < 0) { print "no call-site bci at " $2; bad++ }
	bcis[$9] = 1
}
END {
	nb = 0; for (b in bcis) nb++
	printf "inlined pcs: %d, distinct call-site bcis: %d, bad: %d\n", n, nb, bad
	exit (n > 0 && !bad && nb >= 2) ? 0 : 1
}' inline.txt >result.txt || fail "inline stacks of JvmtiHot.outer wrong or missing: $(tail -5 result.txt)"
info "$(tail -n 1 result.txt)"
exit 0
