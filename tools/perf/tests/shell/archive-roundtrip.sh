#!/bin/bash
# perf archive: the archive unpacked into ~/.debug of another "host" (the binary gone) gives the same report as on the recording host, ours and perf 6.1's; same members as perf 6.1's archive; .zst too; probe caches included
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/debuginfod.sh"
need_cmd gcc objcopy bzip2 tar
build_prog "$PERF_TEST_TMP/src"
APP="$PERF_TEST_TMP/app/prog"
mkdir -p app && cp src/prog.full "$APP"
rows() { grep -E '^ +[0-9.]+%.* work_(alpha|beta)' "$1" | sed 's/  */ /g'; }
# the whole report but the random tip line perf (and now ours) prints
whole() { grep -v '^# (Tip:' "$1"; }

host A
"$PERF" record -q -o perf.data -- "$APP" 2 > /dev/null 2> rec.err || { cat rec.err; fail "record"; }
"$PERF" report --stdio -i perf.data --sort dso,sym,srcline > a.txt 2> /dev/null || fail "report on A"
rows a.txt | grep -q 'work_beta prog\.c:' || { cat a.txt; fail "A: no work_beta row with a line"; }
# a probe cache entry for the binary travels with it (-n: cache only, no tracefs)
"$PERF" probe -q -n --cache -x "$APP" "arch$$:beta=work_beta tag" > /dev/null 2>&1 ||
	info "(no probe cache entry made: $("$PERF" probe -n --cache -x "$APP" "arch$$:beta=work_beta tag" 2>&1 | head -1))"
"$PERF" archive perf.data > archive.out 2> archive.err || { cat archive.err; fail "perf archive"; }
grep -q 'tar xvf perf.data.tar.bz2 -C ~/.debug' archive.out || { cat archive.out; fail "no unpack hint"; }
[ -s archive.err ] && { cat archive.err; fail "perf archive warned"; }
tar tjf perf.data.tar.bz2 > members.txt || fail "not a tar.bz2"
BID=$(readelf -n "$APP" | awk '/Build ID/ { print $3 }')
grep -qx ".build-id/${BID:0:2}/${BID:2}" members.txt || fail "no .build-id link for the binary"
grep -qx "${APP#/}/$BID/elf" members.txt || fail "binary not archived"
if [ -s "$HOME/.debug$APP/$BID/probes" ]; then
	grep -qx "${APP#/}/$BID/probes" members.txt || fail "probe cache not archived"
	info "probe cache archived: $(grep -c '^#' "$HOME/.debug$APP/$BID/probes") entry"
fi
"$PERF" archive --zstd perf.data > /dev/null 2>&1 || fail "perf archive --zstd"
rm -f "$APP"   # the other host does not have it

# host B without the archive: no names for the binary
host B
"$PERF" report --stdio -i perf.data --sort dso,sym,srcline > b-none.txt 2> /dev/null || fail "report on B"
rows b-none.txt | grep -q work_ && fail "B resolves the binary without the archive?"
mkdir -p "$HOME/.debug" && tar xjf perf.data.tar.bz2 -C "$HOME/.debug" || fail "unpack"
"$PERF" report --stdio -i perf.data --sort dso,sym,srcline > b.txt 2> /dev/null || fail "report on B"
diff <(whole a.txt) <(whole b.txt) > ab.diff || { cat ab.diff; fail "report on B differs from A"; }
info "B with the archive: same report as A ($(rows b.txt | wc -l) prog rows)"
if [ -n "${PERF_REF:-}" ] && [ -x "$PERF_REF" ]; then
	"$PERF_REF" report --stdio -i perf.data --sort dso,sym,srcline > b-ref.txt 2> /dev/null || fail "perf 6.1 report on B"
	diff <(rows a.txt) <(rows b-ref.txt) || fail "perf 6.1 on B differs"
	info "perf 6.1 on B: same prog rows"
fi
host C
mkdir -p "$HOME/.debug" && tar --zstd -xf perf.data.tar.zst -C "$HOME/.debug" || fail "unpack .zst"
"$PERF" report --stdio -i perf.data --sort dso,sym,srcline > c.txt 2> /dev/null || fail "report on C"
diff <(whole a.txt) <(whole c.txt) > /dev/null || fail "report from the .zst archive differs"

# the same members as perf 6.1's own archive of a perf 6.1 recording
if [ -n "${PERF_REF:-}" ] && [ -x "$PERF_REF" ]; then
	host D
	cp src/prog.full "$APP"
	"$PERF_REF" record -q -o ref.data -- "$APP" 1 > /dev/null 2>&1 || fail "perf 6.1 record"
	"$PERF_REF" archive ref.data > /dev/null 2>&1 || fail "perf 6.1 archive"
	mv ref.data.tar.bz2 ref-archive.tar.bz2
	"$PERF" archive ref.data > /dev/null 2> ours.err || { cat ours.err; fail "our archive of a perf 6.1 file"; }
	diff <(tar tjf ref-archive.tar.bz2 | sort) <(tar tjf ref.data.tar.bz2 | sort) ||
		fail "members differ from perf 6.1's archive"
	info "members as perf 6.1's archive: $(tar tjf ref.data.tar.bz2 | wc -l)"
fi
exit 0
