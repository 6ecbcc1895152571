#!/bin/bash
# perf-PID.map hygiene: a map older than its process (left by an earlier process with the same pid) is ignored with a warning; a fresh one is used
. "$TOP/tools/perf/tests/shell/lib/common.sh"
# A reused pid finds the previous owner's /tmp/perf-PID.map, and perf 6.1 names the new
# process's code after it. We compare the map's mtime with the start of the process (while it
# lives, and only if it started before the recording ended). Simulated with touch -d: the map
# of a running sym_jit_map made an hour older than the process.
# Verified to fail without the check: with the mtime test of machine__check_host_perf_map
# (util/machine.c) disabled, step 2 failed ("stale map used: reuse_fresh_one reuse_fresh_two").
W="$WORKLOADS/sym_jit_map"
[ -x "$W" ] || skip "$W not built"
"$W" 30000 reuse_fresh_one reuse_fresh_two >wl.out &
wl=$!
trap 'kill $wl 2>/dev/null; wait $wl 2>/dev/null; rm -f "/tmp/perf-$wl.map"' EXIT
for i in $(seq 100); do [ -s wl.out ] && break; sleep 0.05; done
read -r pid addr <wl.out
[ "$pid" = "$wl" ] || fail "workload did not start: $(cat wl.out)"
"$PERF" record -q -e cpu-clock -p "$pid" -o jit.data -- sleep 1 2>rec.err || fail "record: $(cat rec.err)"

names() { "$PERF" report -i jit.data --stdio --sort sym 2>"$1.err" | grep -o 'reuse_fresh_[a-z]*' | sort -u | tr '\n' ' '; }

# 1. the process's own map: used, no warning
got=$(names fresh)
[ -n "$got" ] || fail "fresh map not used: $(cat fresh.err)"
grep -q "older than" fresh.err && fail "a fresh map was called stale: $(cat fresh.err)"
info "fresh map: $got"

# 2. the same map an hour older than the process: ignored, with a warning
touch -d "@$(($(date +%s) - 3600))" "/tmp/perf-$pid.map"
got=$(names stale)
[ -z "$got" ] || fail "stale map used: $got"
grep -q "/tmp/perf-$pid.map is older than process $pid .*ignored" stale.err ||
	fail "no warning about the stale map: $(cat stale.err)"
info "$(head -1 stale.err)"
if [ -x "${PERF_REF:-}" ]; then
	ref=$("$PERF_REF" report -i jit.data --stdio --sort sym 2>/dev/null | grep -o 'reuse_fresh_[a-z]*' | sort -u | tr '\n' ' ')
	info "perf 6.1 with the stale map shows: ${ref:-nothing}"
fi
exit 0
