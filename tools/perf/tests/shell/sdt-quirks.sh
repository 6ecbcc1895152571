#!/bin/bash
# SDT: %ah high byte, immediates, %rip globals, wide and bad operands fetched right where perf 6.1 is wrong
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_root
T=$(tracefs_dir) || skip "no tracefs"
BIN="$WORKLOADS/sdt_quirks"
[ -x "$BIN" ] || skip "$BIN not built"
use_private_home
cleanup() { echo 0 > $T/events/sdt_quirk/enable 2>/dev/null; "$PERF" probe -q -d 'sdt_quirk:*' >/dev/null 2>&1; }
trap cleanup EXIT

"$PERF" buildid-cache -a "$BIN" 2> warn.txt || fail "--add failed"
# each inexpressible argument is named in a warning; the rest of its note and the other notes stay
grep -q "quirk:wide argument 1 '16@%xmm0' skipped: argument wider than 8 bytes" warn.txt || fail "no warning for the wide argument"
grep -q "quirk:badregs argument 1 '8@%zzz' skipped: unknown register" warn.txt || fail "no warning for %zzz"
grep -q "quirk:badregs argument 2 .* skipped: base+index" warn.txt || fail "no warning for the scaled index"
[ "$("$PERF" list 'sdt_quirk:*' | wc -l)" = 5 ] || fail "not all 5 quirk notes listed"
# perf 6.1 drops every note of this binary because of the 16-byte argument
if [ -x "${PERF_REF:-}" ]; then
	n=$("$PERF_REF" --buildid-dir "$PERF_TEST_TMP/ref" buildid-cache -a "$BIN" >/dev/null 2>&1;
	    "$PERF_REF" --buildid-dir "$PERF_TEST_TMP/ref" list sdt 2>/dev/null | grep -c sdt_quirk)
	info "perf 6.1 lists $n of the 5 quirk notes"
fi
"$PERF" probe -q -x "$BIN" '%sdt_quirk:*' || fail "perf probe failed"
grep -q '^p:sdt_quirk/highbyte .* arg1=%ax:b8@8/64 arg2=%ax:u8 arg3=%bx:b8@8/64 arg4=%bx:u64$' $T/uprobe_events ||
	fail "high-byte registers not fetched as bits 8..15: $(grep highbyte $T/uprobe_events)"
echo 1 > $T/events/sdt_quirk/enable
echo > $T/trace
"$BIN" > expect.txt
echo 0 > $T/events/sdt_quirk/enable
sed -n 's/.* \([a-z]*\): (0x[0-9a-f]*) \(.*\)$/\1 \2/p' $T/trace > got.txt
check() {  # name expected-values...
	local name=$1; shift
	local want="$name $*"
	local got
	got=$(grep "^$name " got.txt | sed 's/arg[0-9]*=//g' | sort -u)
	[ "$got" = "$want" ] || fail "$name: got '$got', expected '$want'"
	[ "$(grep -c "^$name " got.txt)" = "$(awk -v n=$name '$2 == n {print $3}' expect.txt)" ] || fail "$name: wrong hit count"
}
read -r _ _ n a1 a2 a3 a4 < <(grep '^fire highbyte' expect.txt); check highbyte $a1 $a2 $a3 $a4
read -r _ _ n a1 a2 a3 < <(grep '^fire consts' expect.txt); check consts $a1 $a2 $a3
read -r _ _ n a1 a2 < <(grep '^fire ripglobal' expect.txt); check ripglobal $a1 $a2
read -r _ _ n a1 a2 < <(grep '^fire wide' expect.txt); check wide $a1 $a2
read -r _ _ n a1 < <(grep '^fire badregs' expect.txt); check badregs $a1
info "%ah=18 (perf 6.1 reads 52), \$-42, %rip global and the kept arguments of wide/badregs decoded right"
exit 0
