#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, once, when they
# are missing. A fresh machine needs one `apt-get update` first; we do it only
# when a package is missing, so a warm machine pays nothing.
set -u
pkgs="libelf-dev libdw-dev zlib1g-dev elfutils binutils systemtap-sdt-dev
      openjdk-17-jdk-headless libtraceevent-dev clang libclang-rt-14-dev llvm python3 procps bc strace
      libzstd-dev libdebuginfod-dev debuginfod chromium bpftrace nodejs bzip2 zstd time"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' \
		|| missing="$missing $p"
done
# the flame graph page's npm libraries (after nodejs) come last, in npm/install.sh
[ -z "$missing" ] && exec bash "$(dirname "$0")/npm/install.sh"
if [ "$(id -u)" != 0 ]; then
	echo "missing packages:$missing" >&2
	echo "run: sudo apt-get update && sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "installing:$missing" >&2
stamp=/var/lib/apt/periodic/.perf-deps-updated
if [ ! -e "$stamp" ] || [ -z "$(ls -A /var/lib/apt/lists 2>/dev/null | grep -v lock)" ]; then
	DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 || exit 1
	mkdir -p "$(dirname $stamp)" && touch "$stamp"
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >&2 || {
	# a stale package list is the usual cause: refresh once and retry
	DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 &&
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >&2
}
[ $? = 0 ] || exit 1
exec bash "$(dirname "$0")/npm/install.sh"
