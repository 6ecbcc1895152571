#!/bin/bash
# perf buildid-list prints the BUILD_ID feature exactly as perf 6.1 does (files and our pipe copies)
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
use_private_home

"$PERF_REF" record -q -e cpu-clock -g -o rec.data -- bash -c 'dd if=/dev/zero of=/dev/null bs=4k count=40000; ls / >/dev/null' \
	>/dev/null 2>&1 || skip "perf 6.1 cannot record here"

same() {  # same <file>
	"$PERF_REF" buildid-list -i "$1" >ref.txt 2>ref.err || fail "perf 6.1 buildid-list -i $1 failed: $(cat ref.err)"
	"$PERF" buildid-list -i "$1" >ours.txt 2>ours.err || fail "perf buildid-list -i $1 failed: $(cat ours.err)"
	[ -s ref.txt ] || fail "$1: perf 6.1 lists no build-ids"
	cmp -s ref.txt ours.txt || { diff ref.txt ours.txt; fail "$1: output differs from perf 6.1"; }
	[ -s ours.err ] && fail "$1: unexpected messages: $(cat ours.err)"
	info "$1: $(wc -l <ours.txt) build-ids identical to perf 6.1"
}

same rec.data
grep -q '^[0-9a-f]\{40\} \[kernel.kallsyms\]$' ours.txt || fail "no kernel build-id line"
"$PERF" inject -i rec.data -o copy.data || fail "inject failed"
same copy.data
cp ours.txt file.txt
# file -> pipe: the build-ids travel as HEADER_BUILD_ID records. perf 6.1 lists only DSOs with
# samples for pipe input (so not [vdso]); we list every record, i.e. the file's list
"$PERF" inject -i rec.data -o - >copy.pipe || fail "inject to pipe failed"
"$PERF" buildid-list -i copy.pipe >pipe.txt || fail "buildid-list of a pipe stream failed"
cmp -s file.txt pipe.txt || { diff file.txt pipe.txt; fail "pipe copy lists other build-ids"; }
"$PERF_REF" buildid-list -i copy.pipe 2>/dev/null | grep -v '\[vdso\]' >pipe.ref
# perf 6.1 marks a pipe's DSOs hit by the sampled IPs only (a DSO only in call chains, or
# [vdso], is left out): expect those lines of the file's list
"$PERF_REF" script -i rec.data -F ip,dso -G 2>/dev/null | sed -n 's/.*(\(.*\))$/\1/p' | sort -u >sampled.txt
awk 'NR == FNR { hit[$0] = 1; next } $2 != "[vdso]" && ($2 in hit)' sampled.txt file.txt >pipe.want
[ -s pipe.want ] || fail "no sampled DSO in $(cat file.txt)"
cmp -s pipe.want pipe.ref || { diff pipe.want pipe.ref; fail "perf 6.1 sees other build-ids in our pipe copy"; }
# default input is ./perf.data
cp rec.data perf.data
"$PERF" buildid-list >default.txt 2>&1 && cmp -s default.txt ours.txt || fail "default input perf.data not used"
# the running kernel's build-id
"$PERF_REF" buildid-list -k >kref.txt 2>/dev/null
if [ -s kref.txt ]; then
	"$PERF" buildid-list -k >kours.txt || fail "buildid-list -k failed"
	cmp -s kref.txt kours.txt || fail "-k differs: $(cat kref.txt) vs $(cat kours.txt)"
fi
echo OK
