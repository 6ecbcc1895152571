#!/bin/bash
# debuginfod: a dead server (closed port) and a black hole (accepts, never answers) do not hang report: it ends, one warning, each build-id asked once
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/debuginfod.sh"
need_debuginfod
BH_PID=
trap '[ -n "$BH_PID" ] && kill "$BH_PID" 2>/dev/null; wait 2>/dev/null' EXIT
build_prog "$PERF_TEST_TMP/bin"
BIN="$PERF_TEST_TMP/bin/prog"
host B
"$PERF" record -q -o perf.data -- "$BIN" 1 > /dev/null 2> rec.err || { cat rec.err; fail "record"; }
# reported elsewhere: executable and debuginfo both missing, yet one question only
rm -f "$BIN" bin/prog.full

# report_against NAME URL: report ends (a hang is killed after 60 s: libdebuginfod's
# own defaults would take minutes), prints its rows, warns exactly once
report_against() {
	local name=$1 url=$2 start end
	host "B-$name"
	start=$(date +%s)
	DEBUGINFOD_URLS="$url" timeout 60 "$PERF" report --stdio -i perf.data --sort sym > "$name.txt" 2> "$name.err"
	[ $? = 0 ] || { cat "$name.err"; fail "$name: report failed or hung"; }
	end=$(date +%s)
	grep -q '\[\.\] 0x' "$name.txt" || fail "$name: no report rows"
	[ "$(grep -c '^Warning: debuginfod' "$name.err")" = 1 ] || { cat "$name.err"; fail "$name: not exactly one warning"; }
	[ "$(grep -c '^debuginfod: fetching the' "$name.err")" = 1 ] || { cat "$name.err"; fail "$name: the server was asked more than once"; }
	info "$name: $((end - start)) s, $(grep '^Warning' "$name.err" | cut -c1-160)"
}

report_against dead "http://127.0.0.1:$(free_port)"

# the black hole: a listener that accepts and never says a word
python3 - bh.port <<'PY' &
import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(64)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
__import__("os").rename(sys.argv[1] + ".tmp", sys.argv[1])
held = []
while True:
    held.append(s.accept()[0])
PY
BH_PID=$!
for _ in $(seq 100); do [ -s bh.port ] && break; sleep 0.1; done
[ -s bh.port ] || fail "black hole did not start"
report_against blackhole "http://127.0.0.1:$(cat bh.port)"
grep -q 'DEBUGINFOD_TIMEOUT=3' blackhole.err || { cat blackhole.err; fail "timeout default not applied/said"; }
exit 0
