# Helpers for the debuginfod-*.sh and archive-*.sh tests (source after common.sh).
# A real `debuginfod -F` on 127.0.0.1 at a free port, its sqlite db in the
# scratch dir, stopped by dbgd_stop (call it from the EXIT trap).

need_debuginfod() { need_cmd debuginfod python3 gcc objcopy; }

# a port nothing listens on (bound, then closed)
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# dbgd_start NAME DIR...: serves the ELF files under DIRs; sets DBGD_URL, DBGD_PID
dbgd_start() {
	local name=$1 tries=0
	shift
	DBGD_PORT=$(free_port)
	debuginfod -F -p "$DBGD_PORT" -d "$PERF_TEST_TMP/$name.sqlite" -t 0 -g 0 -c 1 "$@" \
		> "$PERF_TEST_TMP/$name.log" 2>&1 &
	DBGD_PID=$!
	DBGD_URL="http://127.0.0.1:$DBGD_PORT"
	# up when it answers and its first scan is done
	until python3 - "$DBGD_URL" <<'PY' 2>/dev/null
import sys, urllib.request
m = urllib.request.urlopen(sys.argv[1] + "/metrics", timeout=2).read().decode()
busy = [l for l in m.splitlines() if (l.startswith("thread_busy{role=\"scan\"}") or
        l.startswith("thread_work_pending{role=\"scan\"}")) and not l.endswith(" 0")]
done = any(l.startswith("thread_work_total{role=\"traverse\"}") and not l.endswith(" 0") for l in m.splitlines())
sys.exit(0 if done and not busy else 1)
PY
	do
		tries=$((tries + 1))
		[ $tries -lt 100 ] || { cat "$PERF_TEST_TMP/$name.log"; fail "debuginfod did not come up"; }
		kill -0 "$DBGD_PID" 2>/dev/null || { cat "$PERF_TEST_TMP/$name.log"; fail "debuginfod exited"; }
		sleep 0.2
	done
}

# dbgd_has BID KIND: the server answers 200 for buildid/BID/KIND
dbgd_has() {
	python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=5)' \
		"$DBGD_URL/buildid/$1/$2" 2>/dev/null
}

# dbgd_wait BID KIND: until the server has indexed it (its scan is asynchronous)
dbgd_wait() {
	local tries=0

	until dbgd_has "$1" "$2"; do
		tries=$((tries + 1))
		[ $tries -lt 100 ] || fail "debuginfod never served $2 of $1"
		sleep 0.2
	done
}

dbgd_stop() {
	[ -n "${DBGD_PID:-}" ] || return 0
	kill "$DBGD_PID" 2>/dev/null
	wait "$DBGD_PID" 2>/dev/null
	DBGD_PID=
}

# host NAME: switch to "host" NAME (its own HOME, build-id cache and
# debuginfod client cache); the environment never names a server by itself.
host() {
	export HOME="$PERF_TEST_TMP/host-$1"
	export DEBUGINFOD_CACHE_PATH="$HOME/.cache/debuginfod_client"
	mkdir -p "$HOME"
	unset DEBUGINFOD_URLS PERF_BUILDID_DIR
}

# build_prog DIR: DIR/prog (stripped, build-id) + DIR/split/prog.dwarf (its
# DWARF, named so that no local lookup finds it) + DIR/prog.full, from a small
# C program with two hot functions.
build_prog() {
	mkdir -p "$1"
	cat > "$1/prog.c" <<'C'
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long work_alpha(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += i ^ (s >> 3);
	return s;
}

__attribute__((noinline)) long work_beta(long n, int tag)
{
	long s = 1;

	for (long i = 0; i < n; i++)
		s = s * 3 + i + tag;
	return s;
}

int main(int argc, char **argv)
{
	long loops = argc > 1 ? atol(argv[1]) : 3, r = 0;

	for (long k = 0; k < loops; k++) {
		r += work_alpha(20000000);
		r += work_beta(20000000, (int)k + 40);
		printf("beta tag=%d\n", (int)k + 40);
	}
	printf("%ld\n", r);
	return 0;
}
C
	gcc -O1 -g -fno-omit-frame-pointer -Wl,--build-id=sha1 -o "$1/prog.full" "$1/prog.c" || fail "gcc"
	mkdir -p "$1/split"
	objcopy --only-keep-debug "$1/prog.full" "$1/split/prog.dwarf" || fail "objcopy --only-keep-debug"
	objcopy --strip-all "$1/prog.full" "$1/prog" || fail "objcopy --strip-all"
	PROG_BID=$(readelf -n "$1/prog" | awk '/Build ID/ { print $3 }')
	[ -n "$PROG_BID" ] || fail "no build-id in prog"
}
