#!/bin/bash
# SDT: perf list sdt and uprobe_events lines equal perf 6.1's for python3.11 and libjvm.so, both ways
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
need_root
T=$(tracefs_dir) || skip "no tracefs"
PY=/usr/bin/python3.11
JVM=/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
[ -x $PY ] || skip "$PY not installed"
[ -f $JVM ] || skip "$JVM not installed"
use_private_home
ours="$PERF_TEST_TMP/ours"; ref="$PERF_TEST_TMP/ref"
cleanup() { "$PERF" probe -q -d 'sdt_python:*' >/dev/null 2>&1; "$PERF" probe -q -d 'sdt_hotspot*:*' >/dev/null 2>&1; }
trap cleanup EXIT

# we write, perf 6.1 reads
"$PERF" buildid-cache --debug-dir "$ours" -a $PY -a $JVM || fail "our --add failed"
HOME=/nonexistent PERF_BUILDID_DIR= "$PERF_REF" --buildid-dir "$ours" list sdt > a.txt 2>/dev/null
# perf 6.1 writes, perf 6.1 reads
"$PERF_REF" --buildid-dir "$ref" buildid-cache -a $PY >/dev/null 2>&1
"$PERF_REF" --buildid-dir "$ref" buildid-cache -a $JVM >/dev/null 2>&1
"$PERF_REF" --buildid-dir "$ref" list sdt > b.txt 2>/dev/null
[ "$(wc -l < b.txt)" -gt 500 ] || fail "perf 6.1 lists only $(wc -l < b.txt) SDT events"
cmp -s a.txt b.txt || { diff a.txt b.txt | head >&2; fail "perf 6.1's list of our cache differs from its own"; }
info "perf 6.1 reads our cache: $(wc -l < a.txt) SDT events, identical"
# perf 6.1 writes, we read
PERF_BUILDID_DIR="$ref" "$PERF" list sdt > c.txt
cmp -s c.txt b.txt || { diff c.txt b.txt | head >&2; fail "our list of perf 6.1's cache differs"; }
PERF_BUILDID_DIR="$ref" "$PERF" list 'sdt_python:*' > d.txt
"$PERF_REF" --buildid-dir "$ref" list 'sdt_python:*' 2>/dev/null | cmp -s - d.txt || fail "glob listing differs"
info "we read perf 6.1's cache: identical, glob too"

# uprobe_events lines: ours vs perf 6.1, every python probe, a libjvm sample
line_of() { grep "^p:$1/$2 " $T/uprobe_events; }
compare() {   # bin group event
	local g=$2 e=$3 a b
	PERF_BUILDID_DIR="$ours" "$PERF" probe -q -x "$1" "%$g:$e" || fail "our perf probe %$g:$e failed"
	a=$(line_of $g $e); "$PERF" probe -q -d "$g:$e" >/dev/null
	"$PERF_REF" --buildid-dir "$ref" probe -q -x "$1" "%$g:$e" 2>/dev/null || fail "perf 6.1 probe %$g:$e failed"
	b=$(line_of $g $e); "$PERF" probe -q -d "$g:$e" >/dev/null
	[ -n "$a" ] || fail "no uprobe_events line of ours for $g:$e"
	if [ "$a" != "$b" ]; then
		# the one known difference: perf 6.1 drops immediates ($N); we fetch them as \N
		stripped=$(echo "$a" | sed -E 's/ arg[0-9]+=\\-?[0-9]+:[su][0-9]+//g')
		[ "$stripped" = "$b" ] || fail "$g:$e differs: ours '$a' perf 6.1 '$b'"
		info "$g:$e differs only by immediates perf 6.1 drops: $a"
	fi
}
n=0
for e in $(sed -n 's/^%sdt_python:\([^=]*\)=.*/\1/p' "$ref"/usr/bin/python3.11/*/probes); do
	compare $PY sdt_python $e; n=$((n + 1))
done
[ $n = 8 ] || fail "expected 8 python probes, got $n"
for e in class__loaded class__unloaded class__initialization__required gc__begin gc__end \
	 thread__start method__compile__begin vm__init__end monitor__wait object__alloc; do
	compare $JVM sdt_hotspot $e; n=$((n + 1))
done
info "$n probes compared with perf 6.1"
exit 0
