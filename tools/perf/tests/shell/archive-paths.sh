#!/bin/bash
# perf archive: a binary under a path longer than tar's 255-byte ustar limit round-trips (pax header, read by GNU tar); symlinks planted in the cache are not followed; bad input is a clear error
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/debuginfod.sh"
need_cmd gcc objcopy bzip2 tar
build_prog "$PERF_TEST_TMP/src"
DEEP="$PERF_TEST_TMP/$(printf "a-rather-long-directory-name-%02d/" $(seq 1 8))a-rather-long-directory-name-09"
mkdir -p "$DEEP"
APP="$DEEP/prog-with-a-long-name"
cp src/prog.full "$APP"
[ ${#APP} -gt 300 ] || fail "path not long enough (${#APP})"
rows() { grep -E '^ +[0-9.]+%.* work_(alpha|beta)' "$1" | sed 's/  */ /g'; }

host A
"$PERF" record -q -o perf.data -- "$APP" 1 > /dev/null 2> rec.err || { cat rec.err; fail "record"; }
"$PERF" buildid-cache -a "$APP" || fail "buildid-cache -a"
BID=$(readelf -n "$APP" | awk '/Build ID/ { print $3 }')
ENTRY="$HOME/.debug$APP/$BID"
[ -d "$ENTRY" ] || fail "no cache entry $ENTRY"
# planted: a file symlink inside the entry, and a directory symlink for another object
echo "secret-$$" > secret.txt
ln -s "$PERF_TEST_TMP/secret.txt" "$ENTRY/debug"
"$PERF" report --stdio -i perf.data --sort dso,sym > a.txt 2> /dev/null || fail "report on A"
"$PERF" archive -o out.tar.bz2 perf.data > /dev/null 2> archive.err || { cat archive.err; fail "perf archive"; }
grep -q "$ENTRY/debug is not a regular file, left out" archive.err || { cat archive.err; fail "planted symlink not named"; }
tar xjf out.tar.bz2 -O 2> /dev/null | grep -q "secret-$$" && fail "the archive holds what a planted symlink points to"
tar tjf out.tar.bz2 | grep -qx "${APP#/}/$BID/elf" || { tar tjf out.tar.bz2; fail "long name not in the archive"; }
info "a ${#APP}-byte path archived, planted symlink left out"
rm -f "$APP"

host B
mkdir -p "$HOME/.debug" && tar xjf out.tar.bz2 -C "$HOME/.debug" || fail "unpack"
[ -L "$HOME/.debug/.build-id/${BID:0:2}/${BID:2}" ] || fail "no .build-id link after unpacking"
"$PERF" report --stdio -i perf.data --sort dso,sym > b.txt 2> /dev/null || fail "report on B"
diff <(rows a.txt) <(rows b.txt) || fail "B differs from A"
[ "$(rows b.txt | wc -l)" -ge 2 ] || { cat b.txt; fail "B: functions not named"; }

# bad input: a clear error and no archive
printf 'not a perf.data' > junk.data
if "$PERF" archive junk.data > /dev/null 2> junk.err; then fail "archive of junk succeeded"; fi
[ -s junk.err ] || fail "archive of junk: no message"
[ -e junk.data.tar.bz2 ] && fail "archive of junk left a file"
if "$PERF" archive missing.data > /dev/null 2> missing.err; then fail "archive of a missing file succeeded"; fi
grep -q missing.data missing.err || { cat missing.err; fail "missing file not named"; }
info "junk: $(head -1 junk.err)"
exit 0
