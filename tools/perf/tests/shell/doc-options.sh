#!/bin/bash
# man pages: Documentation/perf-CMD.txt lists every option `perf CMD -h` accepts
. "$TOP/tools/perf/tests/shell/lib/common.sh"

DOC="$TOP/Documentation"
[ -d "$DOC" ] || fail "no $DOC"

# every builtin is a command; builtin-script-report.c is `perf script report flamegraph`
cmds=()
for f in "$TOP"/tools/perf/builtin-*.c; do
	c=$(basename "$f" .c)
	c=${c#builtin-}
	[ "$c" = script-report ] && c="script report flamegraph"
	cmds+=("$c")
done
[ ${#cmds[@]} -gt 5 ] || fail "found only ${#cmds[@]} builtins"

missing=0 checked=0
for c in "${cmds[@]}"; do
	page="$DOC/perf-${c// /-}.txt"
	if [ ! -e "$page" ]; then
		echo "perf $c: no man page $page"
		missing=$((missing + 1))
		continue
	fi
	# shellcheck disable=SC2086
	help=$("$PERF" $c -h 2>&1)
	[ -n "$help" ] || fail "perf $c -h printed nothing"
	# option lines of the usage: "    -x, --long ...", "    --long ...", "    -x  ..."
	while IFS= read -r line; do
		long=$(sed -nE 's/^ {4}(-[^-], )?--([A-Za-z0-9][A-Za-z0-9-]*).*/\2/p' <<< "$line")
		short=$(sed -nE 's/^ {4}-([^-])([ ,].*)?$/\1/p' <<< "$line")
		[ -n "$long$short" ] || continue
		checked=$((checked + 1))
		# a man page names an option on a line of its own ending in "::":
		# "--input=<file>::", "-i::", "--[no-]children::", "-g, --call-graph::"
		if [ -n "$long" ]; then
			base=${long#no-}
			grep -qE -- "^(.*[ ,])?--(\[no-\])?($long|$base)([=[ <,].*)?::$" "$page" ||
				{ echo "perf $c: --$long not in $(basename "$page")"; missing=$((missing + 1)); }
		fi
		if [ -n "$short" ]; then
			# a letter as itself ("\\s" would be a class), a sign escaped
			re=$short
			[[ $short == [A-Za-z0-9] ]] || re="\\$short"
			grep -qE -- "^(.*[ ,])?-$re([=[ <,].*)?::$" "$page" ||
				{ echo "perf $c: -$short not in $(basename "$page")"; missing=$((missing + 1)); }
		fi
	done <<< "$help"
done

[ $checked -gt 50 ] || fail "only $checked options found in the usage texts: is the -h format parsed right?"
echo "$checked options of ${#cmds[@]} commands checked, $missing missing"
[ $missing = 0 ] || fail "$missing options missing from the man pages"
