#!/bin/bash
# debuginfod: a stripped binary recorded on host B gets names and file:line through a real debuginfod (and not without it); the fetched debuginfo is cached
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/debuginfod.sh"
need_debuginfod
trap dbgd_stop EXIT
build_prog "$PERF_TEST_TMP/bin"
mkdir srv && cp bin/split/prog.dwarf srv/
BIN="$PERF_TEST_TMP/bin/prog"

host B
"$PERF" record -q -o perf.data -- "$BIN" 2 > /dev/null 2> rec.err || { cat rec.err; fail "record"; }
rows() { grep -E '^ +[0-9.]+%.* work_(alpha|beta) ' "$1" | awk '{ print $1, $3, $4 }'; }

# without a server: raw addresses, no source lines
"$PERF" report --stdio -i perf.data --sort sym,srcline > none.txt 2> none.err || fail "report without server"
grep -q 'work_alpha\|prog\.c:' none.txt && fail "names or lines without debuginfo?"
grep -q 'prog\[' none.txt || { cat none.txt; fail "no raw prog addresses without the server"; }
info "without a server: $(grep -m1 'prog\[' none.txt | sed 's/  */ /g')"

# with it: names and prog.c:LINE, fetched once into the build-id cache
dbgd_start dbgd srv
dbgd_wait "$PROG_BID" debuginfo
DEBUGINFOD_URLS="$DBGD_URL" "$PERF" report --stdio -i perf.data --sort sym,srcline > srv.txt 2> srv.err ||
	{ cat srv.err; fail "report with server"; }
grep -q 'work_alpha  *prog\.c:[0-9]' srv.txt && grep -q 'work_beta  *prog\.c:[0-9]' srv.txt ||
	{ cat srv.txt srv.err; fail "no names/lines through debuginfod"; }
grep -q "fetching the debuginfo of $BIN ($PROG_BID)" srv.err || { cat srv.err; fail "no progress line"; }
[ "$(grep -c "($PROG_BID)" srv.err)" = 1 ] || { cat srv.err; fail "build-id asked more than once"; }
grep -q Warning srv.err && { cat srv.err; fail "warning with a working server"; }
[ -s "$HOME/.debug$BIN/$PROG_BID/debug" ] || fail "debuginfo not stored in the build-id cache"
info "through debuginfod: $(rows srv.txt | head -2 | tr '\n' ' ')"

# script resolves through the server the same way
host S
DEBUGINFOD_URLS="$DBGD_URL" "$PERF" script -F ip,sym -i perf.data 2> script.err | grep -q ' work_alpha$' ||
	{ cat script.err; fail "perf script: work_alpha not named through debuginfod"; }
# buildid-cache asks only when told (--debuginfod), as upstream perf
host Z
DEBUGINFOD_URLS="$DBGD_URL" "$PERF" buildid-cache -a "$BIN" 2> add.err || { cat add.err; fail "buildid-cache -a"; }
[ -e "$HOME/.debug$BIN/$PROG_BID/debug" ] && fail "buildid-cache -a fetched without --debuginfod"
"$PERF" buildid-cache --debuginfod="$DBGD_URL" -a "$BIN" 2> add.err || { cat add.err; fail "buildid-cache --debuginfod -a"; }
[ -s "$HOME/.debug$BIN/$PROG_BID/debug" ] || { cat add.err; fail "buildid-cache --debuginfod did not store the debuginfo"; }

# the same rows as on a host that has the unstripped binary (ours, and perf 6.1)
host A
cp bin/prog.full "$PERF_TEST_TMP/full-prog"
mv "$BIN" "$BIN.stripped" && cp bin/prog.full "$BIN"
"$PERF" report --stdio -i perf.data --sort sym,srcline > full.txt 2>/dev/null || fail "report on A"
diff <(rows full.txt) <(rows srv.txt) || fail "rows differ from the unstripped binary's"
if [ -n "${PERF_REF:-}" ] && [ -x "$PERF_REF" ]; then
	"$PERF_REF" report --stdio -i perf.data --sort sym,srcline > ref.txt 2>/dev/null || fail "perf 6.1 report"
	diff <(rows ref.txt) <(rows srv.txt) || fail "rows differ from perf 6.1 on the unstripped binary"
	info "same prog rows as perf 6.1 with the unstripped binary"
fi
mv "$BIN.stripped" "$BIN"

# host B again, server gone: the build-id cache answers, nothing is asked
host B
dbgd_stop
DEBUGINFOD_URLS="http://127.0.0.1:$(free_port)" "$PERF" report --stdio -i perf.data --sort sym,srcline > again.txt 2> again.err ||
	fail "report from the cache"
diff <(rows srv.txt) <(rows again.txt) || fail "cached run differs"
grep -q debuginfod again.err && { cat again.err; fail "asked a server although the cache has it"; }
# --no-debuginfod wins over DEBUGINFOD_URLS
host C
DEBUGINFOD_URLS="http://127.0.0.1:$(free_port)" "$PERF" report --no-debuginfod --stdio -i perf.data > /dev/null 2> no.err ||
	fail "report --no-debuginfod"
grep -q debuginfod no.err && { cat no.err; fail "--no-debuginfod asked a server"; }
exit 0
