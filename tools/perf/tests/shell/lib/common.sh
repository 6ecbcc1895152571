# Shared helpers for shell tests. Source it: . "$TOP/tools/perf/tests/shell/lib/common.sh"
# The runner sets PERF (our perf), PERF_REF (/usr/bin/perf if present), TOP, PERF_TEST_TMP,
# and runs each test in a fresh scratch directory.

: "${TOP:?run through perf test}"
: "${PERF:=$TOP/tools/perf/perf}"
WORKLOADS="$TOP/build/workloads"
JAVA_CLASSES="$TOP/build/java"
AGENT="$TOP/tools/perf/jvmti/libperf-jvmti.so"

# A distribution's DEBUGINFOD_URLS would send every report to its servers:
# tests that use debuginfod name their own server, command by command.
unset DEBUGINFOD_URLS

skip() { echo "SKIP: $*"; exit 2; }
fail() { echo "FAIL: $*" >&2; exit 1; }
info() { echo "-- $*"; }

# The oracle. Tests that compare against perf 6.1 skip loudly without it.
need_ref_perf() {
	[ -n "${PERF_REF:-}" ] && [ -x "$PERF_REF" ] || skip "perf 6.1 (/usr/bin/perf) not installed"
}

need_cmd() {
	for c in "$@"; do command -v "$c" >/dev/null 2>&1 || skip "$c not installed"; done
}

need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }

# tracefs, mounted if absent
tracefs_dir() {
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -e "$d/uprobe_events" ] && { echo "$d"; return 0; }
	done
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null && [ -e /sys/kernel/tracing/uprobe_events ] &&
		{ echo /sys/kernel/tracing; return 0; }
	return 1
}

# A private build-id cache and HOME per test so tests never see each other's
# (or the user's) ~/.debug.
use_private_home() {
	export HOME="$PERF_TEST_TMP/home"
	mkdir -p "$HOME"
}

# java from the default JDK 17 (tests may override JAVA)
: "${JAVA:=java}"
