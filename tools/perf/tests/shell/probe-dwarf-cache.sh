#!/bin/bash
# perf probe DWARF: --cache on a debug build, then the stripped binary without debuginfo gets the same hits and values; another build-id is refused naming both; debuginfo found via build-id dir, .gnu_debuglink, .debug and the build-id cache
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/probe-dwarf.sh"
need_root
need_cmd objcopy strip gcc
T=$(tracefs_dir) || skip "no tracefs"
use_private_home
trap dv_cleanup EXIT
G=$DV_GROUP
cp "$WORKLOADS/dwarf_vars_O2" dv || fail "no workload"
BID=$(readelf -n dv | awk '/Build ID/ {print $3}')
[ -n "$BID" ] || fail "workload without build-id"

# 1. the debug build: cache three resolved probes (-n: cache only)
"$PERF" probe -q --cache -n -x ./dv -a "$G:comp=compute a b" -a "$G:ret=compute%return res=\$retval" \
	-a "$G:inl=scale v factor" 2> err.txt || { cat err.txt; fail "--cache"; }
PROBES=$(find "$HOME/.debug" -path "*/$BID/probes")
[ -f "$PROBES" ] || fail "no probes file for $BID"
grep -qx "#$G:comp=compute a b" "$PROBES" || { cat "$PROBES"; fail "no #-entry for comp"; }
grep -q "^p:$G/comp $PWD/dv:0x[0-9a-f]* a=%[a-z0-9]*:s32 b=%[a-z0-9]*:s32$" "$PROBES" || { cat "$PROBES"; fail "comp tev"; }
grep -q "^r:$G/ret $PWD/dv:0x" "$PROBES" || fail "ret tev"
if [ -x "${PERF_REF:-}" ]; then
	# perf 6.1 reads what we cached
	"$PERF_REF" probe --cache --list 2>/dev/null | grep -qx "$G:comp=compute a b" || fail "perf 6.1 does not list our cached probe"
	info "perf 6.1 lists the cached probes"
fi
"$PERF" record -q -o with.data -e "$G:comp" -e "$G:ret" -e "$G:inl" -- ./dv 3 > out.txt 2> rec.err || { cat rec.err; fail "record (debug build)"; }
"$PERF" script -i with.data | sed 's/^.*: *\([a-z0-9_]*:[a-z]*\): ([0-9a-f <-]*) /\1 /' > with.txt
[ "$(wc -l < with.txt)" = 9 ] || { cat with.txt; fail "debug build: $(wc -l < with.txt) hits, want 9"; }

# 2. a host without debuginfo: stripped (build-id kept), debuginfo moved away
objcopy --only-keep-debug dv dv.dbg || fail objcopy
strip -g dv || fail strip
mkdir -p away && mv dv.dbg away/
[ "$(readelf -n dv | awk '/Build ID/ {print $3}')" = "$BID" ] || fail "strip changed the build-id"
if "$PERF" probe -n -x ./dv 'compute a' > /dev/null 2> err.txt; then fail "a DWARF probe without debuginfo"; fi
grep -q "no debuginfo" err.txt || { cat err.txt; fail "no clear message without debuginfo"; }
"$PERF" record -q -o without.data -e "$G:comp" -e "$G:ret" -e "$G:inl" -- ./dv 3 > out2.txt 2> rec.err || { cat rec.err; fail "record (stripped)"; }
"$PERF" script -i without.data | sed 's/^.*: *\([a-z0-9_]*:[a-z]*\): ([0-9a-f <-]*) /\1 /' > without.txt
diff with.txt without.txt || fail "stripped binary: other hits or values"
grep -q "^$G:inl v=1 factor=3$" without.txt || { cat without.txt; fail "inlined constant not fetched"; }
grep -q "^$G:ret res=21$" without.txt || fail "retval"
info "stripped binary: the cached probes give the same $(wc -l < without.txt) hits and values"
[ -z "$(grep "^[pr]:$G/" "$T/uprobe_events")" ] || fail "record left uprobes behind"
"$PERF" probe -q -x ./dv "%comp" || fail "perf probe %comp on the stripped binary"
"$PERF" probe -q -d "$G:comp" > /dev/null || fail "delete"

# 3. another build at the same path: refused, naming both build-ids
gcc -O1 -g -o dv "$DV_SRC" || fail gcc
BID2=$(readelf -n dv | awk '/Build ID/ {print $3}')
[ "$BID2" != "$BID" ] || fail "same build-id"
if "$PERF" probe -q -x ./dv "%comp" 2> err.txt; then fail "cached probe used on another build"; fi
grep -q "$BID" err.txt && grep -q "$BID2" err.txt || { cat err.txt; fail "refusal does not name both build-ids"; }
if "$PERF" record -q -o other.data -e "$G:comp" -- ./dv 1 > /dev/null 2> err.txt; then fail "record used the cached probe on another build"; fi
grep -q "$BID" err.txt && grep -q "$BID2" err.txt || { cat err.txt; fail "record: refusal does not name both build-ids"; }
info "another build: $(head -1 err.txt)"

# 4. where debuginfo is found: each place alone
cp "$WORKLOADS/dwarf_vars_O2" full
"$PERF" probe -n -v -x ./full 'compute a b' 2>/dev/null | grep "^p:" | sed 's/ [^ ]*:0x/ BIN:0x/' > want.txt
[ -s want.txt ] || fail "no line for the full binary"
found_as() {  # found_as WHAT: the stripped copy ./s resolves like the full binary
	"$PERF" probe -n -v -x ./s 'compute a b' 2> err.txt | grep "^p:" | sed 's/ [^ ]*:0x/ BIN:0x/' | sed 's/probe_s\//probe_full\//' > got.txt
	diff want.txt got.txt > /dev/null || { cat err.txt got.txt; fail "debuginfo not found via $1"; }
	info "debuginfo found via $1"
}
mk_stripped() { cp full s; objcopy --only-keep-debug s s.dbg; strip -g s; }
SBID=$BID
# build-id directory ($PERF_DEBUGINFO_DIR stands for /usr/lib/debug)
mk_stripped; mkdir -p "dbgroot/.build-id/${SBID:0:2}"; mv s.dbg "dbgroot/.build-id/${SBID:0:2}/${SBID:2}.debug"
PERF_DEBUGINFO_DIR=$PWD/dbgroot found_as "<debuginfo dir>/.build-id"
# the build-id cache's debug file (copied there by buildid-cache --add from the debuginfo dir)
PERF_DEBUGINFO_DIR=$PWD/dbgroot "$PERF" buildid-cache --add ./s || fail "buildid-cache --add"
find "$HOME/.debug" -path "*/$SBID/debug" | grep -q . || fail "no debug file in the build-id cache"
rm -rf dbgroot
PERF_DEBUGINFO_DIR=$PWD/nonexistent found_as "the build-id cache debug file"
"$PERF" buildid-cache --remove ./s > /dev/null 2>&1
rm -rf "$HOME/.debug"
# .gnu_debuglink, in .debug/ beside the binary
mk_stripped; objcopy --add-gnu-debuglink=s.dbg s || fail "add-gnu-debuglink"; mkdir -p .debug; mv s.dbg .debug/
PERF_DEBUGINFO_DIR=$PWD/nonexistent found_as ".gnu_debuglink (.debug/ subdirectory)"
mv .debug/s.dbg s.dbg
PERF_DEBUGINFO_DIR=$PWD/nonexistent found_as ".gnu_debuglink (same directory)"
# .gnu_debuglink whose CRC does not match: not used
echo x >> s.dbg
if PERF_DEBUGINFO_DIR=$PWD/nonexistent "$PERF" probe -n -x ./s 'compute a' > /dev/null 2>&1; then fail "debuglink with a wrong CRC used"; fi
rm -f s.dbg
# BINARY.debug beside it
mk_stripped; mv s.dbg s.debug
PERF_DEBUGINFO_DIR=$PWD/nonexistent found_as "BINARY.debug"
exit 0
