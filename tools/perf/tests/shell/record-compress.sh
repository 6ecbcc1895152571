#!/bin/bash
# record -z: perf 6.1's -z files (file, pipe, -g) read like perf 6.1; perf 6.1 reads ours; inject opens them; damage is an error
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
use_private_home
W="$WORKLOADS/report_mix"
[ -x "$W" ] || fail "workload $W not built"
cmp="python3 $TOP/tools/perf/tests/shell/lib/report_compare.py"
err=0

# same_script NAME DATA: perf 6.1's script and ours, identical
same_script() {
	"$PERF_REF" script -i "$2" > "ref-$1.txt" 2>/dev/null || fail "perf 6.1 script on $1"
	"$PERF" script -i "$2" > "our-$1.txt" 2> "our-$1.err" || { cat "our-$1.err"; fail "our script on $1"; }
	[ "$(wc -l < "ref-$1.txt")" -ge 100 ] || fail "$1: perf 6.1 shows only $(wc -l < "ref-$1.txt") samples"
	if diff -u "ref-$1.txt" "our-$1.txt" > "diff-$1.txt"; then
		info "$1: script, $(wc -l < "our-$1.txt") lines identical"
	else
		echo "== $1: script differs from perf 6.1"; head -20 "diff-$1.txt"; err=1
	fi
}

# same_report NAME DATA [args]: the top rows agree
same_report() {
	local name=$1 data=$2; shift 2
	"$PERF_REF" report --stdio -i "$data" "$@" > "ref-$name.rep" 2>/dev/null || fail "perf 6.1 report on $name"
	"$PERF" report --stdio -i "$data" "$@" > "our-$name.rep" 2> "our-$name.rep.err" ||
		{ cat "our-$name.rep.err"; fail "our report on $name"; }
	grep -q '^# Samples: [1-9]' "our-$name.rep" || { head -8 "our-$name.rep"; fail "$name: our report has no samples"; }
	$cmp "ref-$name.rep" "our-$name.rep" 20 0.5 || { echo "== $name: report differs"; err=1; }
}

# COMPRESSED records in a file or pipe stream (perf 6.1's --stats cannot decompress a pipe)
compressed_count() {
	python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
if struct.unpack_from('<Q', d, 8)[0] == 16:
    p, end = 16, len(d)
else:
    p, size = struct.unpack_from('<QQ', d, 40)
    end = p + size
n = 0
while p + 8 <= end:
    t, m, s = struct.unpack_from('<IHH', d, p)
    if s < 8:
        break
    n += t == 81
    p += s + (struct.unpack_from('<I', d, p + 8)[0] if t == 66 else 0)
print(n)
PY
}

# 1. perf 6.1 writes, we read
"$PERF_REF" record -q -z -e cpu-clock -o ref.data -- "$W" 0.3 2>/dev/null || fail "perf 6.1 record -z"
"$PERF_REF" record -q -z -g -e cpu-clock -o ref-g.data -- "$W" 0.3 2>/dev/null || fail "perf 6.1 record -z -g"
[ "$(compressed_count ref.data)" -ge 1 ] || fail "perf 6.1's -z file has no COMPRESSED record"
same_script ref ref.data
same_script ref-g ref-g.data
same_report ref ref.data
same_report ref-g ref-g.data --no-children
if "$PERF_REF" record -q -z -e cpu-clock -o - -- "$W" 0.3 > ref-pipe.data 2>/dev/null; then
	same_script ref-pipe ref-pipe.data
	same_report ref-pipe ref-pipe.data
else
	info "perf 6.1 record -z -o - fails here; pipe mode from perf 6.1 not checked"
fi

# 2. we write, perf 6.1 reads
"$PERF" record -q -z -e cpu-clock -o ours.data -- "$W" 0.3 || fail "our record -z"
"$PERF" record -q --compression-level=9 -g -e cpu-clock -o ours-g.data -- "$W" 0.3 || fail "our record --compression-level=9"
"$PERF" record -q -z -e cpu-clock -o - -- "$W" 0.3 > ours-pipe.data || fail "our record -z -o -"
for f in ours ours-g ours-pipe; do
	n=$(compressed_count $f.data)
	[ "${n:-0}" -ge 1 ] || fail "$f.data: perf 6.1 counts no COMPRESSED record"
done
"$PERF_REF" report --header-only -i ours-g.data 2>/dev/null | grep -q '^# compressed : Zstd, level = 9, ratio = [1-9]' ||
	fail "perf 6.1 does not see level 9 in our header: $("$PERF_REF" report --header-only -i ours-g.data 2>&1 | grep compress)"
same_script ours ours.data
same_script ours-g ours-g.data
same_script ours-pipe ours-pipe.data
same_report ours ours.data
same_report ours-g ours-g.data --no-children

# 3. inject: the records come out opened up, the same samples, no COMPRESSED feature left
"$PERF" inject -i ref-g.data -o inj.data || fail "our inject of a -z file"
[ "$(compressed_count inj.data)" = 0 ] || fail "inject left COMPRESSED records in its output"
"$PERF_REF" script -i inj.data > ref-inj.txt 2>/dev/null || fail "perf 6.1 script on inject output"
cmp -s ref-inj.txt ref-ref-g.txt || { diff ref-ref-g.txt ref-inj.txt | head; fail "inject changed the samples"; }
"$PERF" inject -i ref-g.data -o - > inj-pipe.data || fail "our inject of a -z file to a pipe"
"$PERF_REF" report --stdio -i inj-pipe.data > ref-inj-pipe.rep 2> ref-inj-pipe.err || fail "perf 6.1 report on our piped inject"
grep -q '^# Samples: [1-9]' ref-inj-pipe.rep || fail "perf 6.1 finds no samples in our piped inject: $(cat ref-inj-pipe.err)"

# 4. damage: a clear message, no crash or hang
first=$(python3 - ours-g.data <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
off, size = struct.unpack_from('<QQ', d, 40)
p = off
while p < off + size:
    t, m, s = struct.unpack_from('<IHH', d, p)
    if t == 81:
        print(p); break
    p += s
PY
)
[ -n "$first" ] || fail "no COMPRESSED record found in ours-g.data"
cp ours-g.data corrupt.data
printf '\xff\xff\xff\xff\xff\xff\xff\xff' | dd of=corrupt.data bs=1 seek=$((first + 8)) conv=notrunc 2>/dev/null
timeout 60 "$PERF" report --stdio -i corrupt.data > /dev/null 2> corrupt.err
rc=$?
[ $rc -ge 1 ] && [ $rc -le 2 ] || fail "report on a corrupt COMPRESSED record: exit $rc, $(cat corrupt.err)"
grep -q "corrupt compressed data in the COMPRESSED record at offset $(printf '%#x' "$first")" corrupt.err ||
	fail "no clear message for the corrupt record: $(cat corrupt.err)"
# cut inside the compressed stream of the pipe file: what came before, a warning
size=$(stat -c %s ours-pipe.data)
head -c $((size - 100)) ours-pipe.data > cut.data
timeout 60 "$PERF" script -i cut.data > cut.txt 2> cut.err || fail "script on a cut -z stream failed: $(cat cut.err)"
grep -q 'truncated' cut.err || fail "no warning for the cut stream: $(cat cut.err)"
[ -s cut.txt ] || fail "nothing read before the cut"
exit $err
