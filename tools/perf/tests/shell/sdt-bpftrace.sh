#!/bin/bash
# SDT argument values: ours equal bpftrace's (a second oracle reading the notes itself) for every integer width and sign, immediates, and python3.11's function__entry line numbers
#
# bpftrace's usdt: probes read the arguments of .note.stapsdt without perf's
# translation. The same program is run under bpftrace (arg0..N) and under
# our perf record (arg1..N+1 in perf script); the sequences of values must
# be equal, hit for hit.
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_root
need_cmd bpftrace timeout
T=$(tracefs_dir) || skip "no tracefs"
use_private_home
cleanup() { "$PERF" probe -q -d 'sdt_test:*' >/dev/null 2>&1; "$PERF" probe -q -d 'sdt_python:*' >/dev/null 2>&1; }
trap cleanup EXIT
ulimit -l unlimited 2>/dev/null

# bt OUT PROGRAM CMD...: bpftrace output (its own lines only) in OUT
bt() {
	local out=$1 prog=$2
	shift 2
	timeout -k 5 120 bpftrace -q -o "$out.raw" -e "$prog" -c "$*" > /dev/null 2> bt.err ||
		{ cat bt.err; skip "bpftrace cannot attach here"; }
	grep -v '^$' "$out.raw" > "$out"
}

# ours EVENTS CMD...: "event v1 v2 ..." per hit from perf script, argN=V fields in order
ours() {
	local ev=$1
	shift
	"$PERF" record -q -o o.data -e "$ev" -- "$@" > /dev/null 2> rec.err || { cat rec.err; fail "perf record $ev"; }
	"$PERF" script -i o.data 2> /dev/null |
		sed -n 's/.* \(sdt_[a-z]*:[a-z0-9_]*\): ([0-9a-f]*) *\(.*\)$/\1 \2/p' |
		sed -E 's/ arg[0-9]+=/ /g'
}

for B in O0 O2; do
	BIN="$WORKLOADS/sdt_test_$B"
	[ -x "$BIN" ] || skip "$BIN not built"
	bt bt.txt "usdt:$BIN:test:unsigned4 { printf(\"sdt_test:unsigned4 %lu %lu %lu %lu\n\", arg0, arg1, arg2, arg3); }
		usdt:$BIN:test:signed4 { printf(\"sdt_test:signed4 %ld %ld %ld %ld\n\", arg0, arg1, arg2, arg3); }
		usdt:$BIN:test:twelve { printf(\"sdt_test:twelve %ld %ld %ld %ld %ld %ld\n\",
			arg0, arg1, arg2, arg3, arg4, arg5); }
		usdt:$BIN:test:one { printf(\"sdt_test:one %d\n\", arg0); }" "$BIN" 4
	ours 'sdt_test:unsigned4,sdt_test:signed4,sdt_test:twelve,sdt_test:one' "$BIN" 4 > our.txt
	[ -s bt.txt ] || fail "$B: bpftrace saw nothing"
	# per event, in order (the two tools interleave events alike, but compare each stream)
	for e in unsigned4 signed4 twelve one; do
		grep "^sdt_test:$e " bt.txt > a.txt
		# bpftrace 0.17 reads arg0..arg5 only: twelve's first six (immediates)
		grep "^sdt_test:$e " our.txt | cut -d' ' -f1-7 > b.txt
		[ -s a.txt ] || fail "$B $e: no bpftrace hit"
		diff -u --label bpftrace --label ours a.txt b.txt || fail "$B sdt_test:$e values differ from bpftrace's"
	done
	info "$B: $(wc -l < our.txt) hits of unsigned4/signed4/twelve/one, values equal to bpftrace's ($(head -1 b.txt))"
done

PY=/usr/bin/python3.11
[ -x $PY ] || { info "no python3.11: its function__entry check skipped"; exit 0; }
cat > s.py <<'PY'
import sys
def f(i):
    return g(i) + 1
def g(i):
    return i
sys.setprofile(lambda *a: None)
for i in range(50):
    f(i)
sys.setprofile(None)
PY
# python:function__entry(filename, funcname, lineno): every hit's line number
bt bt.txt "usdt:$PY:python:function__entry { printf(\"%d\n\", arg2); }" $PY s.py
"$PERF" record -q -o py.data -e sdt_python:function__entry -- $PY s.py > /dev/null 2>&1 || fail "python record"
"$PERF" script -i py.data 2> /dev/null | grep function__entry | sed -n 's/.* arg3=\([-0-9]*\).*/\1/p' |
	sort -n | uniq -c > b.txt
sort -n bt.txt | uniq -c > a.txt
grep -q ' 50 2$' a.txt && grep -q ' 50 4$' a.txt || { cat a.txt; fail "python: bpftrace did not see f and g 50 times each"; }
diff -u --label bpftrace --label ours a.txt b.txt || fail "python function__entry line numbers differ from bpftrace's"
info "python3.11 function__entry: $(awk '{n += $1} END {print n}' b.txt) hits, line numbers as bpftrace counts them (f: 2, g: 4, 50 each)"
exit 0
