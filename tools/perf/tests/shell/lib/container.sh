# Containers for the container-*.sh tests, made with unshare (no Docker): a pid and a mount
# namespace of their own, /proc remounted, and a private /tmp (a host directory bound over it).
# Source after common.sh. The namespaces live as long as their processes: ct_cleanup kills the
# ones started in the background, and with them the bind mount goes.

need_containers() {
	need_root
	need_cmd unshare
	unshare --pid --fork --mount --mount-proc --kill-child -- true 2>/dev/null ||
		skip "unshare cannot make pid+mount namespaces here"
}

CT_PIDS=""

# ct_run TMPDIR CMD ARGS...: runs CMD in a new container whose /tmp is TMPDIR, in the foreground
ct_run() {
	local tmpdir=$1
	shift
	unshare --pid --fork --mount --mount-proc --kill-child -- \
		sh -c 'mount --bind "$0" /tmp && cd /tmp && exec "$@"' "$tmpdir" "$@"
}

# ct_start TMPDIR CMD ARGS...: the same in the background; sets CT_PID to the host pid of CMD
ct_start() {
	local i upid exe tmpdir=$1
	shift
	exe=$(readlink -f "$(command -v "$1")")
	# not through ct_run: $! must be unshare itself, not a subshell
	unshare --pid --fork --mount --mount-proc --kill-child -- \
		sh -c 'mount --bind "$0" /tmp && cd /tmp && exec "$@"' "$tmpdir" "$@" &
	upid=$!
	CT_PIDS="$CT_PIDS $upid"
	CT_PID=""
	for i in $(seq 100); do
		CT_PID=$(pgrep -P "$upid" | head -1)
		# unshare's child is unshare, then sh, then CMD
		[ -n "$CT_PID" ] && [ "$(readlink "/proc/$CT_PID/exe")" = "$exe" ] && break
		sleep 0.05
	done
	[ -n "$CT_PID" ] && [ "$(readlink "/proc/$CT_PID/exe")" = "$exe" ] || fail "container command $1 did not start"
}

# kills what ct_start started (unshare --kill-child takes the container's processes along)
ct_cleanup() {
	local p
	for p in $CT_PIDS; do kill -9 "$p" 2>/dev/null; done
	for p in $CT_PIDS; do wait "$p" 2>/dev/null; done
	CT_PIDS=""
}

# the pid of PID in its own pid namespace
ct_nspid() {
	awk '/^NSpid:/ { print $NF }' "/proc/$1/status"
}

# jit_named FILE PID: "total named" JIT samples of pid PID in `perf script -F pid,ip,sym,dso`
# output: user samples in jitted ELFs or in unnamed anonymous code ([JIT], perf-N.map, //anon,
# [unknown]); named = in a jitted ELF or a perf map, with a symbol.
jit_named() {
	awk -v pid="$2" '
	$1 != pid { next }
	{
		dso = $NF; gsub(/^\(|\)$/, "", dso)
		sym = $3; for (i = 4; i < NF; i++) sym = sym " " $i
		if (length($2) >= 16 && substr($2, 1, 1) == "f") next
		jitted = dso ~ /\/jitted-[0-9.-]+\.so$/
		anon = dso ~ /perf-[0-9]+\.map$/ || dso == "//anon" || dso == "[unknown]" || dso ~ /^\[anon/ || dso ~ /^\[JIT\]/
		if (!jitted && !anon) next
		total++
		if (sym != "[unknown]" && sym != "" && sym !~ /^0x/) named++
	}
	END { printf "%d %d\n", total, named }' "$1"
}
