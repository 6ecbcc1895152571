#!/bin/bash
# Security: the agent's dump directory is 0700 and the dump 0600, created with O_EXCL|O_NOFOLLOW, even under umask 000
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
# A jitdump holds the JVM's code bytes and method names; it goes under a
# directory others can often write to (/tmp, a shared JITDUMPDIR). So the
# agent makes its own directory with mkdtemp (0700), creates the dump with
# O_CREAT|O_EXCL|O_NOFOLLOW and mode 0600: nobody else can read it, and a
# file or symlink planted at its name is never opened. The modes are
# checked on the files the real agent made under umask 000 (so a weaker
# mode would show), the open flags on the agent's real openat() (strace).
#
# Verified to fail without the protection: in a scratch copy of
# jvmti/dump-file.c, with O_NOFOLLOW dropped from the dump's open() the test
# failed on the strace line ("dump created without O_NOFOLLOW"), and with
# mode 0644 instead of 0600 on the file mode ("has mode 644").
need_jvmti
need_cmd strace

umask 000
strace -f -qq -e trace=openat,open,mkdir,mkdirat -o trace.txt \
	$JAVA -agentpath:"$AGENT"=dir="$PWD/jd" -cp "$JAVA_CLASSES" JvmtiHot 1 >java.out 2>java.err ||
	fail "java with the agent under strace failed: $(tail -3 java.err)"
umask 022
dump=$(find_dump jd)
dir=$(dirname "$dump")
case $(basename "$dir") in
java-jit-[0-9]*.*) ;;
*) fail "unexpected dump directory name $dir" ;;
esac
[ "$(stat -c %a "$dir")" = 700 ] || fail "dump directory $dir has mode $(stat -c %a "$dir"), expected 700"
[ "$(stat -c %a "$dump")" = 600 ] || fail "dump $dump has mode $(stat -c %a "$dump"), expected 600"
[ "$(stat -c %u "$dump")" = "$(id -u)" ] || fail "dump not owned by the JVM's user"

line=$(grep -E "open(at)?\(.*$(basename "$dump")\"" trace.txt | grep O_CREAT | head -1)
[ -n "$line" ] || fail "no creating open() of $(basename "$dump") in the strace: $(grep -c . trace.txt) lines"
for flag in O_CREAT O_EXCL O_NOFOLLOW; do
	echo "$line" | grep -q "$flag" || fail "dump created without $flag: $line"
done
echo "$line" | grep -Eq ', 0600\)' || fail "dump created with a mode other than 0600: $line"
info "dump open: $(echo "$line" | sed 's/^[0-9]* *//')"
"$JITDUMP_CHECK" "$dump" >check.txt 2>&1 || fail "the dump is not valid: $(cat check.txt)"
exit 0
