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

# The container's /tmp is a host directory ($0 of CT_MOUNT) bound over /tmp. A source
# tree under /tmp (a CI clone) would be hidden by it, and with it the agent, the
# workloads and the Java classes: it is bound back at its own path inside that /tmp
# (the mount lives only in the container's mount namespace).
CT_MOUNT='mount --bind "$0" /tmp'
ct_keep_tree() {
	case "$TOP" in
	/tmp/*)
		mkdir -p "$1/${TOP#/tmp/}" || fail "cannot make $1/${TOP#/tmp/}"
		CT_MOUNT='mount --bind "'"$TOP"'" "$0/'"${TOP#/tmp/}"'" && mount --rbind "$0" /tmp' ;;
	esac
}

# ct_run TMPDIR CMD ARGS...: runs CMD in a new container whose /tmp is TMPDIR, in the foreground
ct_run() {
	local tmpdir=$1
	shift
	ct_keep_tree "$tmpdir"
	unshare --pid --fork --mount --mount-proc --kill-child -- \
		sh -c "$CT_MOUNT"' && cd /tmp && exec "$@"' "$tmpdir" "$@"
}

# ct_start TMPDIR CMD ARGS...: the same in the background; sets CT_PID to the host pid of CMD
ct_start() {
	local tmpdir=$1
	shift
	# not through ct_run: $! must be unshare itself, not a subshell
	ct_keep_tree "$tmpdir"
	unshare --pid --fork --mount --mount-proc --kill-child -- \
		sh -c "$CT_MOUNT"' && cd /tmp && exec "$@"' "$tmpdir" "$@" &
	ct_wait_for $! "$1"
}

# ct_start_root ROOT CMD ARGS...: CMD (a path inside ROOT) in a container with a root of its own:
# ROOT gets /usr (ROOT/lib, lib64, bin should be symlinks into usr) and $WORKLOADS at /w
ct_start_root() {
	local root=$1
	shift
	unshare --pid --fork --mount --mount-proc --kill-child -- \
		sh -c 'mount --bind /usr "$0/usr" && mount --bind "$1" "$0/w" && shift && exec chroot "$0" "$@"' \
		"$root" "$WORKLOADS" "$@" &
	ct_wait_for $! "$1"
}

# ct_start_chroot ROOT CMD ARGS...: CMD (a path inside ROOT) in a container whose root is ROOT
# and nothing else (a static program)
ct_start_chroot() {
	local root=$1
	shift
	unshare --pid --fork --mount --mount-proc --kill-child -- chroot "$root" "$@" &
	ct_wait_for $! "$1"
}

# ct_wait_for UNSHARE_PID CMD: CT_PID = the host pid of CMD (unshare's child: unshare, sh, then CMD)
ct_wait_for() {
	local i comm
	comm=$(basename "$2" | cut -c1-15)
	CT_PIDS="$CT_PIDS $1"
	CT_PID=""
	for i in $(seq 200); do
		CT_PID=$(pgrep -P "$1" | head -1)
		[ -n "$CT_PID" ] && [ "$(cat "/proc/$CT_PID/comm" 2>/dev/null)" = "$comm" ] && return 0
		sleep 0.05
	done
	fail "container command $2 did not start"
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

# jit_check NAME DATA PID: inject --jit DATA into NAME.jit; >= 90% of PID's JIT samples named
# (at least 300 of them) and JvmtiHot's hot method in the top 3 of our report. After some
# seconds C2 compiles main's loop (OSR) with spin inlined: then main is the hot method.
jit_check() {
	local name=$1 data=$2 pid=$3 total named
	"$PERF" inject --jit -i "$data" -o "$name.jit" 2>"$name.inject.err" ||
		fail "$name: inject failed: $(cat "$name.inject.err")"
	"$PERF" script -i "$name.jit" -F pid,ip,sym,dso >"$name.script" 2>/dev/null || fail "$name: script failed"
	read -r total named < <(jit_named "$name.script" "$pid")
	info "$name: JIT samples of pid $pid: $total, named $named"
	[ "$total" -ge 300 ] || fail "$name: too few JIT samples ($total)"
	[ $((named * 100)) -ge $((total * 90)) ] || fail "$name: only $named of $total JIT samples named"
	"$PERF" report -i "$name.jit" --stdio --sort sym 2>/dev/null | grep '%' | head -n 3 >"$name.top3"
	grep -Eq 'JvmtiHot.(spin\(long, int\)|main\(String\[\]\))' "$name.top3" ||
		fail "$name: JvmtiHot.spin (or main inlining it) not in the top 3: $(cat "$name.top3")"
}
