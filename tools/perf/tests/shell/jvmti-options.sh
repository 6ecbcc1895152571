#!/bin/bash
# JVMTI agent options: help, dir=/JITDUMPDIR/~/.debug/jit, modes, rawnames, noinline, clocks
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
need_jvmti
need_cmd python3
use_private_home
unset JITDUMPDIR JITDUMP_USE_ARCH_TIMESTAMP
mono() { python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC))'; }
hot() { $JAVA -agentpath:"$AGENT"${1:+="$1"} -cp "$JAVA_CLASSES" JvmtiHot 0.3 >hot.out 2>hot.err || fail "java failed: $(cat hot.err)"; }

# help: the options on stderr, no dump, the program runs as usual
export JITDUMPDIR="$PWD/envdir"
hot help
grep -q 'dir=DIR' hot.err && grep -q rawnames hot.err || fail "help printed: $(cat hot.err)"
grep -q '^done$' hot.out || fail "program did not run with help"
[ -z "$(find "$HOME" "$PWD" -name 'jit-*.dump')" ] || fail "help wrote a dump"

# $JITDUMPDIR, then dir= over it
hot
d=$(find_dump envdir)
hot "dir=$PWD/optdir"
find_dump optdir >/dev/null
[ "$(find envdir -name 'jit-*.dump' | wc -l)" = 1 ] || fail "dir= did not override JITDUMPDIR"
unset JITDUMPDIR

# default: ~/.debug/jit/java-jit-YYYYMMDD.XXXXXXXX/jit-PID.dump, 0700 dir, 0600 file
before=$(mono)
hot
after=$(mono)
d=$(find_dump "$HOME/.debug/jit")
dir=$(basename "$(dirname "$d")")
echo "$dir" | grep -Eq "^java-jit-$(date +%Y%m%d)\.[A-Za-z0-9]{8}$" || fail "directory name $dir"
[ "$(stat -c %a "$(dirname "$d")")" = 700 ] || fail "directory mode $(stat -c %a "$(dirname "$d")")"
[ "$(stat -c %a "$d")" = 600 ] || fail "file mode $(stat -c %a "$d")"
sum=$("$JITDUMP_CHECK" --list "$d" 2>check.err | tee list.txt | grep '^summary:') || fail "checker: $(cat check.err)"
# timestamps are CLOCK_MONOTONIC: the header's falls inside the run
ts=$(checker_field header_ts "$sum")
[ "$ts" -ge "$before" ] && [ "$ts" -le "$after" ] || fail "header timestamp $ts not in [$before, $after] (CLOCK_MONOTONIC)"
[ "$(checker_field flags "$sum")" = 0 ] || fail "flags set without JITDUMP_USE_ARCH_TIMESTAMP"
[ "$(checker_field pid "$sum")" = "$(basename "$d" | tr -dc 0-9)" ] || fail "header pid does not match the file name"
grep -q 'JvmtiHot.spin(long, int)$' list.txt || fail "readable name missing"

# rawnames: the JVM form perf's own agent writes
rm -rf "$HOME/.debug"
hot rawnames
"$JITDUMP_CHECK" --list "$(find_dump "$HOME/.debug/jit")" >raw.txt 2>&1 || fail "checker: $(cat raw.txt)"
grep -q ' LJvmtiHot;spin(JI)J$' raw.txt || fail "rawnames: no LJvmtiHot;spin(JI)J"
grep -q 'JvmtiHot.spin(long, int)$' raw.txt && fail "rawnames still wrote readable names"

# noinline, an unknown option (one warning, still records), JITDUMP_USE_ARCH_TIMESTAMP
hot "dir=$PWD/ni,noinline,bogus"
[ "$(grep -c "unknown option 'bogus'" hot.err)" = 1 ] || fail "no warning for an unknown option: $(cat hot.err)"
sum=$("$JITDUMP_CHECK" "$(find_dump ni)") || fail "noinline dump rejected"
[ "$(checker_field inline_info "$sum")" = 0 ] || fail "noinline wrote inline records"
hot "dir=$PWD/inl"
sum=$("$JITDUMP_CHECK" "$(find_dump inl)") || fail "dump rejected"
info "default: $sum"
case "$(uname -m)" in
x86_64|i?86)
	JITDUMP_USE_ARCH_TIMESTAMP=1 hot "dir=$PWD/tsc"
	sum=$("$JITDUMP_CHECK" "$(find_dump tsc)") || fail "arch timestamp dump rejected"
	[ "$(checker_field flags "$sum")" = 0x1 ] || fail "JITDUMP_USE_ARCH_TIMESTAMP: flags $(checker_field flags "$sum")"
	;;
esac
exit 0
