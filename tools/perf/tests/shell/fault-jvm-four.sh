#!/bin/bash
# Fault: four JVMs with the agent under one perf record -a -k mono: after inject, each JVM's methods resolve to its own pid
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
# One system-wide recording sees four jitdumps being written at once, on
# two cores, by JVMs that share code addresses (same JDK, same workload:
# their code caches are laid out alike, so the same address in two pids is
# two different methods). inject must keep them apart: every JIT sample of
# pid P is named from jitted ELFs of P, never from another JVM's, and
# every JVM gets its hot method named. Checked in our perf script and in
# perf 6.1's reading of the injected file.
need_root
need_jvmti
use_private_home
"$PERF" record -h >/dev/null 2>&1 || skip "our perf record is not built"
READERS=$PERF
[ -x "${PERF_REF:-}" ] && READERS="$PERF $PERF_REF"

"$PERF" record -q -a -k mono -e cpu-clock -F 999 -o all.data -- sleep 9 2>rec.err &
rec=$!
sleep 1
pids=
for i in 1 2 3 4; do
	$JAVA -agentpath:"$AGENT"=dir="$PWD/jv$i" -cp "$JAVA_CLASSES" JvmtiHot 5 >"jv$i.out" 2>"jv$i.err" &
	pids="$pids $!"
done
for p in $pids; do
	wait "$p" || fail "a JVM failed under the agent: $(tail -3 jv*.err)"
done
wait "$rec" || fail "perf record -a failed: $(cat rec.err)"
for i in 1 2 3 4; do
	d=$(find_dump "jv$i")
	"$JITDUMP_CHECK" "$d" >/dev/null 2>&1 || fail "jv$i: the dump is not valid"
done
"$PERF" inject --jit -i all.data -o all.jit 2>inject.err || fail "inject failed: $(cat inject.err)"

for reader in $READERS; do
	tag=$(basename "$(dirname "$reader")")_$(basename "$reader")
	"$reader" script -i all.jit -F pid,ip,sym,dso >"$tag.script" 2>/dev/null || fail "$reader script failed"
	for p in $pids; do
		# JIT samples of p: a dso from inject (jitted-PID[-N].so)
		read -r total own foreign spin < <(awk -v pid="$p" '
			$1 != pid { next }
			{ dso = $NF; gsub(/^\(|\)$/, "", dso) }
			dso !~ /\/jitted-[0-9]+(-[0-9]+)?\.so$/ { next }
			{
				total++
				n = dso; sub(/.*\/jitted-/, "", n); sub(/[-.].*/, "", n)
				if (n == pid) own++; else foreign++
				if ($0 ~ /JvmtiHot\.spin/) spin++
			}
			END { printf "%d %d %d %d\n", total, own, foreign, spin }' "$tag.script")
		info "$tag: pid $p: $total JIT samples, $own from its own ELFs, $foreign from another pid's, $spin in JvmtiHot.spin"
		[ "$foreign" = 0 ] || fail "$tag: pid $p has $foreign samples named from another JVM's code"
		[ "$total" -ge 100 ] || fail "$tag: pid $p: too few JIT samples ($total)"
		[ "$spin" -ge 50 ] || fail "$tag: pid $p: its hot method is not named ($spin samples)"
	done
done
exit 0
