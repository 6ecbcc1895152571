#!/usr/bin/env bash
# Runs every benchmark in bench/ (each prints its own figures). Not a test:
# the figures are ratios against perf 6.1 measured in the same run.
cd "$(dirname "$0")/.."
rc=0
for b in bench/*.sh; do
	[ "$(basename "$b")" = run-all.sh ] && continue
	echo "=== $b"
	bash "$b" || rc=1
done
exit $rc
