#!/bin/bash
# perf probe: invalid definitions refused before writing, failed multi-add rolled back, one name in two groups, user args on SDT events
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_root
T=$(tracefs_dir) || skip "no tracefs"
BIN="$WORKLOADS/sdt_test"
[ -x "$BIN" ] || skip "$BIN not built"
use_private_home
cleanup() { for g in rbtest sdt_test grpa grpb; do "$PERF" probe -q -d "$g:*" >/dev/null 2>&1; done; }
trap cleanup EXIT
count() { grep -c "$1" $T/uprobe_events; }

# unknown register: refused before anything is written
"$PERF" probe -x "$BIN" -a 'rbtest:ok1=main' -a 'rbtest:bad=main %zzz' 2> err.txt && fail "%zzz accepted"
grep -q "unknown register" err.txt || fail "no reason given: $(cat err.txt)"
[ "$(count '^p:rbtest/')" = 0 ] || fail "a definition was written before validation failed"
# a name tracefs would misparse
"$PERF" probe -x "$BIN" 'rbtest:a-b=main' 2> err.txt && fail "bad event name accepted"
grep -q "Invalid event name" err.txt || fail "no message for a bad name"
# kernel refusal in the middle: a probe at the guarded site with another ref_ctr makes the SDT add fail
off=$("$PERF" probe -n -v -x "$BIN" '%sdt_test:guarded' | sed -n 's/.*:0x\([0-9a-f]*\)(.*/\1/p' | head -1)
[ -n "$off" ] || fail "could not resolve sdt_test:guarded"
echo "p:rbtest/blocker $(realpath "$BIN"):0x$off(0x10)" >> $T/uprobe_events || fail "cannot create the blocker"
"$PERF" probe -x "$BIN" -a 'rbtest:first=main' -a '%sdt_test:guarded' -a 'rbtest:third=main' 2> err.txt &&
	fail "conflicting add succeeded"
grep -q "Rolling back the 1 event" err.txt || fail "no rollback message (of 1 event): $(cat err.txt)"
# rbtest:third was never written: the rollback must not try to delete it
grep -q "Failed to delete" err.txt && fail "rollback deleted what was never added: $(cat err.txt)"
[ "$(count '^p:rbtest/third ')" = 0 ] || fail "rbtest:third written after the failing line"
[ "$(count '^p:rbtest/first ')" = 0 ] || fail "rbtest:first left behind after the failed add"
[ "$(count '^p:sdt_test/guarded ')" = 0 ] || fail "half-installed sdt_test:guarded"
"$PERF" probe -q -d 'rbtest:blocker' || fail "cannot delete the blocker"
info "validation before writing, rollback of a failed multi-add"
# one event name in two groups
"$PERF" probe -q -x "$BIN" 'grpa:same=main' && "$PERF" probe -q -x "$BIN" 'grpb:same=main' || fail "one name in two groups refused"
[ "$(count '^p:grp[ab]/same ')" = 2 ] || fail "expected grpa:same and grpb:same"
# user-added arguments on an SDT event are kept
"$PERF" probe -q -x "$BIN" '%sdt_test:ptrstr s=+0(%bx):string' || fail "SDT event with extra args failed"
grep '^p:sdt_test/ptrstr ' $T/uprobe_events | grep -q 's=+0(%bx):string' || fail "user argument dropped: $(grep ptrstr $T/uprobe_events)"
info "one name in two groups, user args on SDT events"
# EBUSY on delete is not an error and keeps the event
"$PERF" probe -d 'grp*:*' >/dev/null || fail "glob delete failed"
[ "$(count '^p:grp')" = 0 ] || fail "glob delete left events"
exit 0
