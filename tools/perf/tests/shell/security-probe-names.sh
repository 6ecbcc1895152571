#!/bin/bash
# Security: probe, group and SDT names tracefs would misparse are rejected with a message; uprobe_events untouched
. "$TOP/tools/perf/tests/shell/lib/common.sh"
# uprobe_events is a line-oriented command channel: a name with '-', '.',
# a leading digit, or a newline smuggled in a definition would make the
# kernel parse something else than what the user (or an SDT note of some
# binary) asked for, e.g. a second probe. perf probe must refuse such a
# definition itself, with a message, before writing anything.
#
# Verified to fail without the protection: in a scratch copy with the name
# check of builtin-probe.c (sdt__valid_event_name) and the line check of
# probe-event.c (probe_cache__validate_tev) patched out, the "evil" probe
# of the newline case landed in uprobe_events and this test failed; with
# sdt.c's note-name check patched out, the SDT part failed (bad names in
# the cache).
need_root
need_cmd gcc
T=$(tracefs_dir) || skip "no tracefs"
[ -w "$T/uprobe_events" ] || skip "uprobe_events not writable"
echo '#include <sys/sdt.h>' | gcc -E -x c - >/dev/null 2>&1 || skip "no <sys/sdt.h>"
use_private_home

cat >bad.c <<'C'
#include <sys/sdt.h>
int main(int argc, char **argv)
{
	STAP_PROBE1(bad-prov, okname, argc);
	STAP_PROBE1(secprov, x.y, argc);
	STAP_PROBE1(secprov, good_one, argc);
	return 0;
}
C
gcc -O1 -o bad bad.c || fail "cannot build the test binary"
B=$PWD/bad

cleanup() {
	"$PERF" probe -q -d 'probe_bad:*' >/dev/null 2>&1
	"$PERF" probe -q -d 'sdt_secprov:*' >/dev/null 2>&1
	"$PERF" probe -q -d 'evil:*' >/dev/null 2>&1
}
trap cleanup EXIT
cleanup
before=$(cat "$T/uprobe_events")

refuse() {  # refuse MESSAGE-REGEX DEFINITION: perf probe fails, says why, writes nothing
	local re=$1 def=$2
	"$PERF" probe -x "$B" -a "$def" >out.txt 2>err.txt && fail "accepted $(printf %q "$def")"
	grep -Eq "$re" err.txt || fail "$(printf %q "$def"): no message matching '$re': $(head -3 err.txt)"
	[ "$(cat "$T/uprobe_events")" = "$before" ] ||
		fail "$(printf %q "$def") changed uprobe_events: $(cat "$T/uprobe_events")"
	grep -q evil "$T/uprobe_events" && fail "an injected probe exists"
	info "refused $(printf %q "$def"): $(head -1 err.txt)"
}

refuse 'Invalid event name' 'bad-name=main'
refuse 'Invalid event name' '1abc=main'
refuse 'Invalid event name' 'my.grp:ev=main'
refuse 'Invalid event name' 'grp/ev=main'
refuse 'Invalid event name' $'two\nlines=main'
refuse 'Invalid|Failed to find symbol' $'ev=main\np:evil/x /bin/true:0x0'
refuse 'Invalid probe definition' $'ok_ev=main %di\np:evil/x /bin/true:0x0'
refuse 'Invalid probe definition' $'ok_ev=main %di\rp:evil/x /bin/true:0x0'
refuse 'Invalid probe definition' 'ok_ev=main a;b=%di'
refuse 'Invalid probe definition' 'ok_ev=main x=+0(%sp:u8'
# too long for the kernel (64): refused by tracefs, still nothing left behind
refuse 'too long|Invalid' "$(printf 'e%.0s' {1..70})=main"

# SDT notes: a binary's note names are as untrusted as the command line
"$PERF" buildid-cache -a "$B" 2>sdt.err || fail "buildid-cache -a: $(cat sdt.err)"
grep -q "bad-prov:okname" sdt.err || fail "no warning for the note 'bad-prov:okname': $(cat sdt.err)"
grep -q "secprov:x.y" sdt.err || fail "no warning for the note 'secprov:x.y': $(cat sdt.err)"
probes=$(find "$HOME/.debug" -name probes | head -1)
[ -n "$probes" ] || fail "no probe cache written"
grep -q 'good_one' "$probes" || fail "the valid note is missing from the cache: $(cat "$probes")"
grep -Eq 'bad-prov|x\.y' "$probes" && fail "a bad note name made it into the cache: $(cat "$probes")"
refuse 'not|no|Invalid|match' '%bad-prov:okname'
# the valid note does work: the refusals above are not a broken perf probe
"$PERF" probe -x "$B" -a '%secprov:good_one' >out.txt 2>err.txt || fail "valid SDT probe refused: $(cat err.txt)"
grep -q 'sdt_secprov/good_one' "$T/uprobe_events" || fail "valid SDT probe not in uprobe_events"
"$PERF" probe -q -d 'sdt_secprov:good_one' >/dev/null 2>&1 || fail "cannot delete the probe"
[ "$(cat "$T/uprobe_events")" = "$before" ] || fail "probe left behind: $(cat "$T/uprobe_events")"
exit 0
