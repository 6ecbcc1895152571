#!/bin/bash
# perf record -e 'sdt_test:*' sets up its own uprobes from the cache: exact counts, values, is-enabled, SIGINT cleanup
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_root
T=$(tracefs_dir) || skip "no tracefs"
use_private_home
cleanup() { "$PERF" probe -q -d 'sdt_test:*' >/dev/null 2>&1; "$PERF" probe -q -d 'sdt_python:*' >/dev/null 2>&1; }
trap cleanup EXIT
BIN="$WORKLOADS/sdt_test_O2"
[ -x "$BIN" ] || skip "$BIN not built"
"$PERF" record -q -o probe.data -e 'sdt_test:*' -- "$BIN" 7 > expect.txt 2> err.txt
if [ $? -ne 0 ] || grep -q "^guarded_runs 0" expect.txt; then
	skip "perf record does not set up cached SDT events yet (builtin-record.c must call sdt_record__prepare() from util/sdt-record.h before parse_events, and sdt_record__cleanup() after closing its fds): $(head -1 err.txt)"
fi
grep -q '^p:sdt_test/' $T/uprobe_events && fail "uprobes left behind after record"
"$PERF" script -i probe.data > script.txt || fail "perf script failed"
for p in zero unsigned4 signed4 ptrstr twelve sem_args guarded; do
	want=$(awk -v p=$p '$1 == "fire" && $2 == p {print $3}' expect.txt)
	[ $p = guarded ] && want=$(awk '$1 == "guarded_runs" {print $2}' expect.txt)
	got=$(grep -c "sdt_test:$p:" script.txt)
	[ "$got" = "$want" ] || fail "sdt_test:$p: $got hits, expected $want"
done
want=$(awk '$2 == "one" {print $3}' expect.txt)
[ "$(grep -c 'sdt_test:one:' script.txt)" = "$want" ] || fail "sdt_test:one: both sites must be probed"
[ "$(awk '$1 == "guarded_runs" {print $2}' expect.txt)" = 7 ] || fail "is-enabled block did not run while recorded"
read -r _ _ _ a b c d < <(grep '^fire signed4' expect.txt)
grep 'sdt_test:signed4:' script.txt | head -1 | grep -q "arg1=$a arg2=$b arg3=$c arg4=$d" ||
	fail "signed values wrong: $(grep -m1 signed4 script.txt)"
info "exact counts, signed values, is-enabled block ran only while recorded"
# a comma list: each spec resolved (the cache is loaded once for all of them), each counted
"$PERF" record -q -o list.data -e 'sdt_test:zero,sdt_test:signed4,sdt_test:one' -- "$BIN" 3 > expect2.txt ||
	fail "record of a comma list of SDT events failed"
grep -q '^p:sdt_test/' $T/uprobe_events && fail "uprobes left behind after the comma-list record"
"$PERF" script -i list.data > script2.txt || fail "perf script of the comma-list record failed"
for p in zero signed4 one; do
	want=$(awk -v p=$p '($1 == "fire" || $1 == "sem") && $2 == p {print $3}' expect2.txt | head -1)
	got=$(grep -c "sdt_test:$p:" script2.txt)
	[ -n "$want" ] && [ "$got" = "$want" ] || fail "comma list: sdt_test:$p: $got hits, expected $want"
done
[ "$(grep -c 'sdt_test:' script2.txt)" = "$(grep -c -E 'sdt_test:(zero|signed4|one):' script2.txt)" ] ||
	fail "comma list: events recorded that were not asked for"
info "a comma list of three SDT specs: each set up and counted"

# python function__entry counts
PY=/usr/bin/python3.11
if [ -x $PY ]; then
	# Python 3.11 fires function__entry only on its tracing path (perf 6.1
	# counts the same); a no-op profile function puts every call on it.
	# f is defined on line 3: arg3 is the line of the function entered.
	cat > s.py <<'PY'
import sys
n = 0
def f(i):
    global n
    n += 1
    return i
sys.setprofile(lambda *a: None)
for i in range(321):
    f(i)
sys.setprofile(None)
print(n)
PY
	"$PERF" record -q -o py.data -e sdt_python:function__entry -- $PY s.py > n.txt 2>/dev/null || fail "python record failed"
	c=$("$PERF" script -i py.data | grep 'function__entry' | grep -c 'arg3=3$')
	[ "$c" = "$(cat n.txt)" ] || fail "python: $c function__entry hits of f, the script made $(cat n.txt) calls"
	info "python: $c function__entry hits of f = $(cat n.txt) calls"
fi
# SIGINT: valid file, no probe of ours left
"$PERF" record -q -o int.data -e 'sdt_test:*' -- "$BIN" 100000000 > /dev/null 2>&1 &
pid=$!
# a background job starts with SIGINT ignored: wait until perf catches it
# (its uprobes are set up by then), however slow the build (SAN)
for _ in $(seq 300); do
	cgt=$(awk '/^SigCgt:/ {print $2}' /proc/$pid/status 2>/dev/null)
	[ -n "$cgt" ] && (( 0x$cgt & 2 )) && break
	sleep 0.1
done
sleep 0.5; kill -INT $pid; wait $pid
grep -q '^p:sdt_test/' $T/uprobe_events && fail "probes left after SIGINT"
"$PERF" script -i int.data > /dev/null || fail "file after SIGINT unreadable"
exit 0
