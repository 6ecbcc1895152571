# Helpers of the script-report-*.sh tests: headless Chromium with no network,
# and flamegraph_check.py. Sourced after common.sh.
FG_CHECK="$TOP/tools/perf/tests/shell/lib/flamegraph_check.py"
# screenshots and pages a person may want to look at after the run
FG_ARTEFACTS="$TOP/build/test-artefacts"

need_chromium() {
	CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
	[ -x "$CHROMIUM" ] || skip "chromium not installed (make deps)"
	need_cmd python3
}

need_flamegraph_libs() {
	[ -s "$TOP/tools/build/npm/node_modules/d3-flame-graph/dist/d3-flamegraph.umd.min.js" ] ||
		skip "d3-flame-graph not installed: run make deps"
}

# chromium_headless ARGS...: a real headless Chromium with a fresh profile,
# in a network namespace of its own when we may make one (root), and with a
# proxy that goes nowhere in any case: nothing can be fetched.
chromium_headless() {
	local ud rc net=()

	ud=$(mktemp -d "$PWD/chromium-profile.XXXXXX") || return 1
	unshare -n true 2>/dev/null && net=(unshare -n)
	timeout -k 5 120 "${net[@]}" "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$ud" --proxy-server=127.0.0.1:9 --window-size=1400,1000 \
		"$@" 2>>chromium.err
	rc=$?
	rm -rf "$ud"
	return $rc
}

# the DOM after the page's scripts ran (transitions given time to finish)
chromium_dom() {
	chromium_headless --virtual-time-budget=3000 --dump-dom "file://$1"
}

chromium_screenshot() {
	chromium_headless --virtual-time-budget=3000 --screenshot="$2" "file://$1" >/dev/null
}
