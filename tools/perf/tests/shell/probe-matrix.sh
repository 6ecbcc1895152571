#!/bin/bash
# probe matrix: probe, list and buildid-cache rows give perf 6.1's stdout, exit status, uprobe_events lines and cache files
#
# Differential, like lib/compat-matrix.sh, but for the commands that change
# state: each row of compat/probe/probe.tbl runs once with perf 6.1
# ($PERF_REF) and once with ours ($PERF), each from a fresh private HOME
# (so a fresh ~/.debug build-id cache). Compared: every step's exit status
# and stdout, the uprobe_events lines the row left that name an input
# (they are then deleted), and the build-id cache tree (paths, link targets
# and the text of every `probes` file). The HOME path is written as $HOME
# in all of them. A cell allowed to differ is listed with its reason in
# compat/probe/improvements.txt; a listed cell that is identical fails too.
#
# Table rows:   INPUT<TAB>STEPS   ('#' lines and blank lines ignored)
#   STEPS are separated by ' ; '. A step is a perf command line (after
#   `perf`, split like a shell command line) or, after '! ', a shell
#   command (the same for both perfs: copying a rebuilt binary in place).
#   {in} is the input's path, {dir} the directory inputs live in.
# Inputs: compat/probe/inputs.sh defines input_NAME functions that write
#   $CM_DIR/NAME (a binary or a directory); made once per run when a row
#   names them; return 2 after `cm_skip "why"` when impossible here.
# Improvements: probe:INPUT<TAB>STEPS<TAB>reason
#
# Env: CM_MATCH=REGEX runs only the rows whose "probe:INPUT<TAB>STEPS" matches.
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
need_root
need_cmd timeout diff gcc strip
T=$(tracefs_dir) || skip "no tracefs"

CM_SRC="$TOP/tools/perf/tests/shell/compat/probe"
CM_DIR="$PERF_TEST_TMP/pm"
mkdir -p "$CM_DIR/run"
export CM_DIR WORKLOADS

cm_skip() { echo "SKIP: $*"; return 2; }

# uprobe events whose place is one of our inputs: deleted after each run
cm_events() { grep -F " $CM_DIR/" "$T/uprobe_events" 2>/dev/null; }
cm_clean_events() {
	cm_events | while read -r def _; do echo "-:${def#*:}" 2>/dev/null >> "$T/uprobe_events"; done
}
trap cm_clean_events EXIT

# shellcheck disable=SC1091
. "$CM_SRC/inputs.sh" || fail "sourcing inputs.sh"

declare -A input_state
cm_input() {  # NAME: makes $CM_DIR/NAME once; 0 ok, 2 skipped
	local name=$1 rc
	case "${input_state[$name]:-}" in
	ok) return 0 ;;
	skip:*) return 2 ;;
	esac
	declare -F "input_$name" >/dev/null || fail "no input_$name in compat/probe/inputs.sh"
	(cd "$CM_DIR" && "input_$name") > "$CM_DIR/$name.log" 2>&1
	rc=$?
	if [ $rc = 2 ]; then
		input_state[$name]="skip:$(sed -n 's/^SKIP: //p' "$CM_DIR/$name.log" | tail -1)"
		info "input $name skipped: ${input_state[$name]#skip:}"
		return 2
	fi
	[ $rc = 0 ] && [ -e "$CM_DIR/$name" ] || { cat "$CM_DIR/$name.log"; fail "input $name: not made"; }
	input_state[$name]=ok
}

declare -A allowed allowed_seen
while IFS=$'\t' read -r key steps reason; do
	case "$key" in ''|'#'*) continue ;; esac
	[ -n "$reason" ] || fail "improvements.txt: '$key	$steps' has no reason"
	allowed["$key	$steps"]=$reason
done < "$CM_SRC/improvements.txt"

# cm_run PERF TAG STEPS: the row's result in $CM_DIR/run/TAG.{out,events,cache}
cm_run() {
	local bin=$1 tag=$2 steps=$3 step home="$CM_DIR/home-$2" r="$CM_DIR/run/$2"
	rm -rf "$home"
	mkdir -p "$home"
	: > "$r.out"
	: > "$r.err"
	while [ -n "$steps" ]; do
		step=${steps%% ; *}
		[ "$step" = "$steps" ] && steps= || steps=${steps#* ; }
		if [ "${step:0:2}" = "! " ]; then
			(cd "$CM_DIR/run" && eval "${step:2}") >> "$r.err" 2>&1
			continue
		fi
		eval "set -- $step" || fail "cannot split '$step'"
		(cd "$CM_DIR/run" && HOME="$home" timeout -k 5 60 "$bin" "$@" < /dev/null >> "$r.out" 2>> "$r.err")
		echo "[exit $?]" >> "$r.out"
	done
	cm_events > "$r.events"
	cm_clean_events
	(cd "$home" && find .debug \( -type l -printf '%p -> %l\n' \) -o \( -type f -name probes -printf '%p\n' -exec cat {} \; \) \
		-o -printf '%p\n' 2>/dev/null | LC_ALL=C sort) > "$r.cache"
	sed -i "s|$home|\$HOME|g" "$r.out" "$r.events" "$r.cache"
}

total=0 same=0 listed=0 skipped=0 bad=0
declare -a bad_cells stale_cells
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
	lineno=$((lineno + 1))
	case "$line" in ''|'#'*) continue ;; esac
	[[ "$line" == *$'\t'* ]] || fail "probe.tbl:$lineno: no TAB between INPUT and STEPS"
	input=${line%%$'\t'*}
	steps=${line#*$'\t'}
	key="probe:$input	$steps"
	if [ -n "${CM_MATCH:-}" ] && ! [[ "$key" =~ $CM_MATCH ]]; then
		continue
	fi
	total=$((total + 1))
	cm_input "$input"
	if [ $? = 2 ]; then
		skipped=$((skipped + 1))
		continue
	fi
	expanded=${steps//\{in\}/$CM_DIR/$input}
	expanded=${expanded//\{dir\}/$CM_DIR}
	cm_run "$PERF_REF" ref "$expanded"
	cm_run "$PERF" our "$expanded"
	what=
	for k in out events cache; do
		cmp -s "$CM_DIR/run/ref.$k" "$CM_DIR/run/our.$k" || what="$what $k"
	done
	if [ -n "${allowed[$key]+x}" ]; then
		allowed_seen[$key]=1
		if [ -z "$what" ]; then
			echo "== $key: listed in improvements.txt but identical to perf 6.1"
			stale_cells+=("$key")
		else
			listed=$((listed + 1))
		fi
		continue
	fi
	if [ -z "$what" ]; then
		same=$((same + 1))
		continue
	fi
	bad=$((bad + 1))
	bad_cells+=("$key")
	echo "== $key differs from perf 6.1 in:$what"
	for k in $what; do
		diff -u --label "perf-6.1 $k" --label "ours $k" "$CM_DIR/run/ref.$k" "$CM_DIR/run/our.$k" |
			head -${CM_DIFF_LINES:-16}
	done
	[ -s "$CM_DIR/run/our.err" ] && { echo "-- our stderr:"; head -5 "$CM_DIR/run/our.err"; }
done < "$CM_SRC/probe.tbl"

if [ -z "${CM_MATCH:-}" ]; then
	for key in "${!allowed[@]}"; do
		[ -n "${allowed_seen[$key]+x}" ] || { echo "== $key: in improvements.txt but in no row"; stale_cells+=("$key"); }
	done
fi
[ $total -gt 0 ] || fail "no table rows"
for c in "${bad_cells[@]}"; do echo "differs: $c"; done
for c in "${stale_cells[@]}"; do echo "stale improvement: $c"; done
echo "$same/$total identical, $listed listed improvements, $skipped skipped, $bad differ"
[ $bad = 0 ] && [ ${#stale_cells[@]} = 0 ] || exit 1
[ $same -gt 0 ] || skip "every cell skipped"
exit 0
