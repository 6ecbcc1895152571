#!/bin/bash
# debuginfod: perf probe -x STRIPPED 'func var' gets its DWARF from a real debuginfod and records the right values; cached with --cache it works again with the server gone
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/debuginfod.sh"
need_debuginfod
need_root
T=$(tracefs_dir) || skip "no tracefs"
G="dbgd$$"
cleanup() {
	grep -o "^[pr]:$G/[^ ]*" "$T/uprobe_events" 2>/dev/null | sed 's/^[pr]:/-:/' |
		while read -r d; do echo "$d" >> "$T/uprobe_events"; done
	dbgd_stop
}
trap cleanup EXIT
build_prog "$PERF_TEST_TMP/bin"
BIN="$PERF_TEST_TMP/bin/prog"
mkdir srv && cp bin/split/prog.dwarf srv/
host B

# values recorded by $G:beta equal the ones the program prints
check_values() {
	"$PERF" record -q -e "$G:beta" -o "$1.data" -- "$BIN" 3 > "$1.out" 2> "$1.rec.err" || { cat "$1.rec.err"; fail "$1: record"; }
	"$PERF" script -i "$1.data" > "$1.script" 2>&1 || fail "$1: script"
	grep -o 'tag=[0-9-]*' "$1.out" > "$1.exp"
	grep -o 'tag=[0-9-]*' "$1.script" > "$1.got"
	[ "$(wc -l < "$1.exp")" = 3 ] && diff "$1.exp" "$1.got" > /dev/null ||
		{ cat "$1.script"; fail "$1: recorded values differ from the printed ones"; }
	info "$1: $(tr '\n' ' ' < "$1.got")"
	"$PERF" probe -q -d "$G:beta" > /dev/null || fail "$1: delete"
}

# no debuginfo anywhere: refused
"$PERF" probe -n -x "$BIN" "$G:beta=work_beta tag" > /dev/null 2> none.err && fail "probe with a variable accepted without DWARF"
info "without a server: $(grep -m1 -i error none.err | cut -c1-100)"

dbgd_start dbgd srv
dbgd_wait "$PROG_BID" debuginfo
DEBUGINFOD_URLS="$DBGD_URL" "$PERF" probe --cache -x "$BIN" "$G:beta=work_beta tag" > add.out 2> add.err ||
	{ cat add.err; fail "perf probe through debuginfod"; }
grep -q "fetching the debuginfo of $BIN" add.err || { cat add.err; fail "no fetch line"; }
check_values served
grep -q "^#$G:beta=work_beta tag" "$HOME/.debug$BIN/$PROG_BID/probes" || fail "not in the probe cache"

# -V and -L of a fresh host go through the server as well
host V
DEBUGINFOD_URLS="$DBGD_URL" "$PERF" probe -x "$BIN" -V work_beta > vars.txt 2> vars.err || { cat vars.err; fail "-V through debuginfod"; }
grep -q '	int	tag$' vars.txt || { cat vars.txt; fail "-V: tag not listed"; }
host B

# server gone, its debuginfo gone from the build-id and client caches: the probe cache is enough
dbgd_stop
rm -f "$HOME/.debug$BIN/$PROG_BID/debug"
rm -rf "$DEBUGINFOD_CACHE_PATH"
DEBUGINFOD_URLS="http://127.0.0.1:$(free_port)" "$PERF" probe -x "$BIN" "%$G:beta" > cached.out 2> cached.err ||
	{ cat cached.err; fail "cached probe without the server"; }
check_values cached
exit 0
