# Helpers sourced by the Java tests (jvmti-*.sh and others): the agent, dump checks, JIT sample counts.

. "$TOP/tools/perf/tests/shell/lib/common.sh"
JITDUMP_CHECK="$TOP/build/jitdump-check"

# perf 6.1 takes every mapped file whose path starts with /tmp/perf- for a
# perf-PID.map symbol file, and the runner's scratch dir is /tmp/perf-test-*:
# jitted ELFs there would never be read. So these tests work (and keep their
# private HOME) in a directory of their own, removed on exit.
JVMTI_WORK=$(mktemp -d /tmp/jvmti-test.XXXXXX) || fail "mktemp failed"
jvmti_cleanup() { rm -rf "$JVMTI_WORK"; }
trap jvmti_cleanup EXIT
cd "$JVMTI_WORK" || fail "cd $JVMTI_WORK"
use_private_home() {
	export HOME="$JVMTI_WORK/home"
	mkdir -p "$HOME"
}

need_jvmti() {
	need_cmd "$JAVA"
	[ -f "$AGENT" ] || skip "agent not built ($AGENT); run make"
	[ -x "$JITDUMP_CHECK" ] || skip "checker not built ($JITDUMP_CHECK); run make"
	[ -f "$JAVA_CLASSES/JvmtiHot.class" ] || skip "Java workloads not built; run make build-tests"
}

# the one dump under a directory
find_dump() {
	local d
	d=$(find "$1" -name 'jit-*.dump' | head -n 2)
	[ -n "$d" ] || fail "no jit-*.dump under $1"
	[ "$(echo "$d" | wc -l)" = 1 ] || fail "more than one dump under $1: $d"
	echo "$d"
}

# summary field of the checker: checker_field NAME <summary line>
checker_field() {
	echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

# JIT samples of perf script -F pid,ip,sym,dso output ($1) for pid $2:
# prints "total resolved". A sample is in JIT code when its dso is a jitted
# ELF from inject, or the anonymous memory perf names /tmp/perf-PID.map,
# //anon or [unknown] (user space only).
jit_sample_counts() {
	awk -v pid="$2" '
	$1 != pid { next }
	{
		dso = $NF; gsub(/^\(|\)$/, "", dso)
		sym = $3; for (i = 4; i < NF; i++) sym = sym " " $i
		ip = $2
		if (length(ip) >= 16 && substr(ip, 1, 1) == "f") next   # kernel
		jitted = dso ~ /\/jitted-[0-9]+-[0-9]+\.so$/
		anon = dso ~ /perf-[0-9]+\.map$/ || dso == "//anon" || dso == "[unknown]" || dso ~ /^\[anon/
		if (!jitted && !anon) next
		total++
		if (jitted && sym != "[unknown]" && sym != "") resolved++
	}
	END { printf "%d %d\n", total, resolved }' "$1"
}
