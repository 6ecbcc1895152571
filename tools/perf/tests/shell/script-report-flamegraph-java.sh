#!/bin/bash
# script report flamegraph: a Java -g page opens offline in headless Chromium with Java, JVM and libc/kernel frames, widths as perf 6.1's report --children
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
. "$TOP/tools/perf/tests/shell/lib/callgraph-java.sh"
. "$TOP/tools/perf/tests/shell/lib/flamegraph.sh"
need_cgjava
need_chromium
need_flamegraph_libs
use_private_home
err=0

record_cgjava -g
"$PERF" script report flamegraph -i jit.data -o fg.html > report.out 2> report.err ||
	fail "flamegraph failed: $(head -3 report.err)"
grep -qx 'dumping data to fg.html' report.out || { echo "no 'dumping data to fg.html': $(cat report.out)"; err=1; }
[ -s fg.html ] || fail "no fg.html"
grep -q '<title>Flame graph: java .*CgJava 2, recorded 20[0-9-]* [0-9:]* UTC</title>' fg.html ||
	{ echo "title lacks the command or the recording time: $(grep -o '<title>.*</title>' fg.html)"; err=1; }
python3 "$FG_CHECK" no-network fg.html > net.txt || { cat net.txt; echo "the page could reach the network"; err=1; }

# what Chromium drew, from the DOM after the scripts ran (the <g> frames, not the embedded data)
chromium_dom "$PWD/fg.html" > dom.html || fail "chromium --dump-dom failed: $(tail -3 chromium.err)"
python3 "$FG_CHECK" dom-names dom.html > names.txt
info "Chromium drew $(wc -l < names.txt) distinct frames"
for want in 'CgJava.hot(long, int)' 'CgJava.middle(long)' 'CgJava.outer(long)'; do
	grep -qxF "$want" names.txt || { echo "no frame '$want' drawn"; err=1; }
done
grep -qxE 'JavaCalls::call_helper|jni_CallStaticVoidMethod|jni_invoke_static' names.txt ||
	{ echo "no JVM native frame (libjvm) drawn"; err=1; }
# libc's start_thread, or any kernel function perf's own JSON marks as kernel
"$PERF" script report flamegraph -i jit.data --format json -o fg.json > /dev/null 2>&1 || fail "json failed"
python3 -c '
import json, sys
seen = set()
stack = [json.load(open("fg.json"))]
while stack:
    n = stack.pop()
    if n["l"] == "kernel":
        seen.add(n["n"])
    stack += n["c"]
print("\n".join(sorted(seen)))' > kernel-names.txt
grep -qxF -f <(echo start_thread; cat kernel-names.txt) names.txt ||
	{ echo "no libc or kernel frame drawn"; err=1; }

# frames coloured by kind: JIT-compiled Java, interpreter/stub, native (libjvm), kernel
kframe=$(grep -xF -f kernel-names.txt names.txt | head -n 1)
python3 "$FG_CHECK" dom-hues dom.html 'CgJava.hot(long, int)' Interpreter JavaCalls::call_helper "$kframe" > hues.txt
info "hues drawn: $(tr '\t\n' '=,' < hues.txt)"
awk -F'\t' '$1 == "none" { bad = 1 } { h[NR] = $1 }
	END { for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) { d = h[i] - h[j]; if (d < 0) d = -d; if (d < 15) bad = 1 }
	      exit bad }' hues.txt || { echo "kinds of frames not told apart by colour: $(cat hues.txt)"; err=1; }

# not a blank page: the screenshot, kept for a person to look at
chromium_screenshot "$PWD/fg.html" "$PWD/fg.png" || fail "chromium --screenshot failed: $(tail -3 chromium.err)"
ink=$(python3 "$FG_CHECK" png-ink fg.png) || fail "cannot read fg.png"
mkdir -p "$FG_ARTEFACTS" && cp fg.png "$FG_ARTEFACTS/script-report-flamegraph-java.png" &&
	cp fg.html "$FG_ARTEFACTS/script-report-flamegraph-java.html"
info "screenshot: $(awk -v i="$ink" 'BEGIN { printf "%.1f", 100 * i }')% of pixels drawn; kept as $FG_ARTEFACTS/script-report-flamegraph-java.png"
awk -v i="$ink" 'BEGIN { exit !(i > 0.10) }' || { echo "screenshot nearly blank ($ink drawn)"; err=1; }

# drawn widths against perf 6.1's report --children of the same file, for its top frames
if [ -n "${PERF_REF:-}" ] && [ -x "$PERF_REF" ]; then
	"$PERF_REF" report --children --sort sym --stdio -g none -i jit.data > ref-report.txt 2>/dev/null ||
		fail "perf 6.1 report failed"
	python3 "$FG_CHECK" report-children ref-report.txt > ref-children.txt
	python3 "$FG_CHECK" dom-widths dom.html > widths.txt
	n=0
	while IFS=$'\t' read -r pct name; do
		case $name in 0x*|'[unknown]') continue ;; esac
		[ "$n" -ge 10 ] && break
		n=$((n + 1))
		ours=$(awk -F'\t' -v n="$name" '$2 == n { print $1; exit }' widths.txt)
		if [ -z "$ours" ] || ! awk -v a="$pct" -v b="$ours" 'BEGIN { d = a - b; exit !(d <= 1 && d >= -1) }'; then
			echo "width of '$name': perf 6.1 --children $pct%, flame graph ${ours:-none}%"
			err=1
		fi
	done < ref-children.txt
	info "top $n frames of perf 6.1's report --children checked against the drawn widths"
	[ "$n" -ge 5 ] || { echo "only $n frames compared"; err=1; }

	# --format json and stackcollapse as perf 6.1's scripts write them. perf 6.1 hands the
	# flamegraph script's -i to the script only and reads ./perf.data: give it the file there.
	mkdir -p ref && ln -sf ../jit.data ref/perf.data
	if (cd ref && "$PERF_REF" script report flamegraph --format json -o ../ref.json > /dev/null 2>&1); then
		python3 "$FG_CHECK" json-canonical fg.json || { echo "our JSON is not written as json.dumps writes it"; err=1; }
		# identical, or (see the folded check below) off only where perf 6.1 leaves a vdso
		# frame [unknown] that we name: FG_VDSO_AS_UNKNOWN forgives that and nothing else
		read -r total differing < <(FG_VDSO_AS_UNKNOWN=1 python3 "$FG_CHECK" json-diff ref.json fg.json)
		info "--format json: $differing of $total samples in stacks that differ from perf 6.1's (vdso frames aside)"
		json_ok() { cmp -s ref.json fg.json || [ "$differing" = 0 ]; }
		[ "$total" -gt 0 ] && json_ok || { echo "JSON differs from perf 6.1's"; err=1; }
		# perf 6.1 takes the script's options after "--"; we take them there too
		for opts in "" "-- --include-pid --kernel" "-- --no-comm --tidy-java"; do
			# shellcheck disable=SC2086
			"$PERF_REF" script report stackcollapse -i jit.data $opts > ref.folded 2>/dev/null
			# shellcheck disable=SC2086
			"$PERF" script report stackcollapse -i jit.data $opts > our.folded 2> collapse.err ||
				{ echo "our stackcollapse $opts failed: $(head -3 collapse.err)"; err=1; }
			# perf 6.1 names no symbol for a vdso frame now and then (a page fault on the
			# vdso's first use: [unknown]; we name it): only that may differ
			read -r total differing < <(FG_VDSO_AS_UNKNOWN=1 python3 "$FG_CHECK" folded-diff ref.folded our.folded)
			info "stackcollapse $opts: $differing of $total samples in lines that differ from perf 6.1's (vdso frames aside)"
			[ "$total" -gt 0 ] && { cmp -s ref.folded our.folded || [ "$differing" = 0 ]; } ||
				{ diff ref.folded our.folded | head -5; echo "stackcollapse $opts differs"; err=1; }
		done
	else
		info "perf 6.1 cannot run its flamegraph script (no Python scripting?): JSON not compared"
	fi
else
	info "perf 6.1 not installed: widths, JSON and folded stacks not compared"
fi
exit $err
