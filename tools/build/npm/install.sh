#!/usr/bin/env bash
# Installs the browser libraries that `perf script report flamegraph` copies
# into its page (d3 7, d3-flame-graph 5.0.0) from the npm registry, exactly as
# package-lock.json pins them, into tools/build/npm/node_modules, where perf
# finds them. Run by install-deps.sh; does nothing when they are installed.
set -u
cd "$(dirname "$0")" || exit 1
stamp=node_modules/.perf-lock-sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
have_all() {
	for f in d3/dist/d3.min.js d3/LICENSE d3-flame-graph/dist/d3-flamegraph.umd.min.js \
		d3-flame-graph/LICENSE; do
		[ -s "node_modules/$f" ] || return 1
	done
}
[ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && have_all && exit 0

if ! command -v npm >/dev/null 2>&1; then
	# Debian's nodejs comes without npm (NodeSource's has it)
	if [ "$(id -u)" != 0 ]; then
		echo "npm missing: run sudo apt-get install -y npm, then make deps" >&2
		exit 1
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q npm >&2 || exit 1
fi
echo "installing the flame graph page's libraries (npm ci in $PWD)" >&2
# no install scripts: these packages need none, and none should run as root
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2 || {
	echo "npm ci failed: perf script report flamegraph cannot make its HTML page" \
		"(--format json still works)" >&2
	exit 1
}
have_all || { echo "npm ci left d3 or d3-flame-graph (or a LICENSE) missing" >&2; exit 1; }
echo "$want" > "$stamp"
