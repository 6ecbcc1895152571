# The compat matrix, sourced by the compat-*.sh tests with CM_TABLES set to
# their tables (one test a table keeps each under the runner's time limit).
#
# Differential: each row of tools/perf/tests/shell/compat/*.tbl is a command
# line (after `perf`) run once with perf 6.1 ($PERF_REF) and once with ours
# ($PERF), same cwd, same environment, stdin the input file. Exit status and
# stdout must be identical after cm_normalize: the `#` header lines where
# perf prints the host and the date are dropped, and the text of report's
# closing `# (Tip: ...)` line, which perf 6.1 picks at random from its
# tips.txt on every run, is replaced by `# (Tip)`; and the fractal graph's
# "--[...]" branch (the rest of a level), to which perf 6.1 appends
# " (inlined)" or not depending on memory it never initialized, is compared
# without that suffix (ours never prints it). A cell allowed to
# differ (perf 6.1 is wrong there) is listed with its reason in
# compat/improvements.txt; a listed cell that is in fact identical fails the
# test too, so the list stays honest.
#
# Table rows:   INPUT<TAB>ARGS      ('#' lines and blank lines ignored)
#   ARGS is split like a shell command line (quotes work); {in} is the input's
#   data file, {dir} the scratch directory the inputs live in.
# Inputs: compat/inputs*.sh define input_NAME functions that write
#   $CM_DIR/NAME.data with perf 6.1; made once per run, only when a row names
#   them. An input function returns 2 after `cm_skip "why"` when this machine
#   cannot make it (its cells are counted as skipped, with the reason).
# Improvements: TABLE:INPUT<TAB>ARGS<TAB>reason (TABLE: the .tbl name without .tbl)
#
# Env: CM_TABLES="report script" runs only those tables; CM_MATCH=REGEX only
# rows whose "TABLE:INPUT<TAB>ARGS" matches.
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
use_private_home
need_cmd timeout diff

CM_SRC="$TOP/tools/perf/tests/shell/compat"
CM_DIR="$PERF_TEST_TMP/cm"
mkdir -p "$CM_DIR/run"
export CM_DIR WORKLOADS

cm_skip() { echo "SKIP: $*"; return 2; }

# The normalization: perf prints when and where a file was recorded in
# `# captured on` / `# hostname` header lines (--header, script --header),
# and report ends with a random tip (or, without tips.txt, a plea to install
# perf); only the tip's text is left out of the comparison.
cm_normalize() {
	sed -E -e '/^# (captured on|hostname) *:/d' \
		-e 's/^# \((Tip: .*|Cannot load tips\.txt file, please install perf!)\)$/# (Tip)/' \
		-e 's/--\[\.\.\.\] \(inlined\)$/--[...]/'
}

for f in "$CM_SRC"/inputs*.sh; do
	[ -e "$f" ] || continue
	# shellcheck disable=SC1090
	. "$f" || fail "sourcing $f"
done

declare -A input_state   # NAME -> ok | skip:REASON
cm_input() {  # NAME: makes $CM_DIR/NAME.data once; 0 ok, 2 skipped
	local name=$1 rc
	case "${input_state[$name]:-}" in
	ok) return 0 ;;
	skip:*) return 2 ;;
	esac
	declare -F "input_$name" >/dev/null || fail "no input_$name in compat/inputs*.sh"
	(cd "$CM_DIR" && "input_$name") > "$CM_DIR/$name.log" 2>&1
	rc=$?
	# a subshell: read the skip reason back from the log's last SKIP line
	if [ $rc = 2 ]; then
		input_state[$name]="skip:$(sed -n 's/^SKIP: //p' "$CM_DIR/$name.log" | tail -1)"
		info "input $name skipped: ${input_state[$name]#skip:}"
		return 2
	fi
	if [ $rc != 0 ] || [ ! -s "$CM_DIR/$name.data" ]; then
		cat "$CM_DIR/$name.log"
		fail "input $name: could not record $CM_DIR/$name.data"
	fi
	input_state[$name]=ok
	return 0
}

# improvements.txt: "TABLE:INPUT<TAB>ARGS" -> reason
declare -A allowed allowed_seen
if [ -e "$CM_SRC/improvements.txt" ]; then
	while IFS=$'\t' read -r key args reason; do
		case "$key" in ''|'#'*) continue ;; esac
		[ -n "$reason" ] || fail "improvements.txt: '$key	$args' has no reason"
		allowed["$key	$args"]=$reason
	done < "$CM_SRC/improvements.txt"
fi

# run CMDLINE-ARGS with one perf; leaves $2.out and $2.rc in $CM_DIR/run
cm_run() {  # perf-binary tag data args...
	local bin=$1 tag=$2 data=$3
	shift 3
	# a directory each: the two runs of a cell go at once
	mkdir -p "$CM_DIR/run/$tag"
	(cd "$CM_DIR/run/$tag" && timeout -k 5 60 "$bin" "$@" < "$data" 2> "$CM_DIR/run/$tag.err" |
		cm_normalize > "$CM_DIR/run/$tag.out"; exit "${PIPESTATUS[0]}")
	echo $? > "$CM_DIR/run/$tag.rc"
}

total=0 same=0 listed=0 skipped=0 bad=0
declare -a bad_cells stale_cells
for tbl in "$CM_SRC"/*.tbl; do
	[ -e "$tbl" ] || continue
	tname=$(basename "$tbl" .tbl)
	if [ -n "${CM_TABLES:-}" ] && [[ " $CM_TABLES " != *" $tname "* ]]; then
		continue
	fi
	lineno=0
	while IFS= read -r line || [ -n "$line" ]; do
		lineno=$((lineno + 1))
		case "$line" in ''|'#'*) continue ;; esac
		[[ "$line" == *$'\t'* ]] || fail "$tname.tbl:$lineno: no TAB between INPUT and ARGS"
		input=${line%%$'\t'*}
		args=${line#*$'\t'}
		key="$tname:$input	$args"
		if [ -n "${CM_MATCH:-}" ] && ! [[ "$key" =~ $CM_MATCH ]]; then
			continue
		fi
		total=$((total + 1))
		cm_input "$input"
		if [ $? = 2 ]; then
			skipped=$((skipped + 1))
			continue
		fi
		data="$CM_DIR/$input.data"
		expanded=${args//\{in\}/\'$data\'}
		expanded=${expanded//\{dir\}/\'$CM_DIR\'}
		eval "set -- $expanded" || fail "$tname.tbl:$lineno: cannot split '$args'"
		# the two runs of a cell at once: each writes only its own files
		cm_run "$PERF_REF" ref "$data" "$@" &
		cm_run "$PERF" our "$data" "$@"
		wait
		identical=1
		[ "$(cat "$CM_DIR/run/ref.rc")" = "$(cat "$CM_DIR/run/our.rc")" ] || identical=0
		cmp -s "$CM_DIR/run/ref.out" "$CM_DIR/run/our.out" || identical=0
		if [ -n "${allowed[$key]+x}" ]; then
			allowed_seen[$key]=1
			if [ $identical = 1 ]; then
				echo "== $key: listed in improvements.txt but identical to perf 6.1"
				stale_cells+=("$key")
			else
				listed=$((listed + 1))
			fi
			continue
		fi
		if [ $identical = 1 ]; then
			same=$((same + 1))
			continue
		fi
		bad=$((bad + 1))
		bad_cells+=("$key")
		echo "== $key differs from perf 6.1 (exit $(cat "$CM_DIR/run/ref.rc") vs ours $(cat "$CM_DIR/run/our.rc"))"
		diff -u --label perf-6.1 --label ours "$CM_DIR/run/ref.out" "$CM_DIR/run/our.out" | head -${CM_DIFF_LINES:-24}
		[ -s "$CM_DIR/run/our.err" ] && { echo "-- our stderr:"; head -5 "$CM_DIR/run/our.err"; }
	done < "$tbl"
done

# a listed cell no table has any more is stale too (unless a filter hid it)
if [ -z "${CM_MATCH:-}" ]; then
	for key in "${!allowed[@]}"; do
		[ -n "${allowed_seen[$key]+x}" ] && continue
		# with CM_TABLES, only the listed cells of those tables
		[ -n "${CM_TABLES:-}" ] && [[ " $CM_TABLES " != *" ${key%%:*} "* ]] && continue
		echo "== $key: in improvements.txt but in no table"; stale_cells+=("$key")
	done
fi

[ $total -gt 0 ] || fail "no table rows"
for c in "${bad_cells[@]}"; do echo "differs: $c"; done
for c in "${stale_cells[@]}"; do echo "stale improvement: $c"; done
echo "$same/$total identical, $listed listed improvements, $skipped skipped, $bad differ"
[ $bad = 0 ] && [ ${#stale_cells[@]} = 0 ] || exit 1
[ $same -gt 0 ] || skip "every cell skipped"
exit 0
