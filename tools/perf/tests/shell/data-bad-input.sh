#!/bin/bash
# perf inject / buildid-list / report / script on bad perf.data input: one-line error naming the file, non-zero exit, no crash
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
use_private_home

"$PERF_REF" record -q -e cpu-clock -o good.data -- dd if=/dev/zero of=/dev/null bs=4k count=20000 2>/dev/null ||
	skip "perf 6.1 cannot record here"

u64() {  # u64 <file> <offset>: little-endian u64 at offset
	od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '
}
put_u64() {  # put_u64 <file> <offset> <value>
	python3 -c 'import struct,sys; f=open(sys.argv[1],"r+b"); f.seek(int(sys.argv[2])); f.write(struct.pack("<Q", int(sys.argv[3])))' "$@"
}
put_u32() {
	python3 -c 'import struct,sys; f=open(sys.argv[1],"r+b"); f.seek(int(sys.argv[2])); f.write(struct.pack("<I", int(sys.argv[3])))' "$@"
}
need_cmd python3 od

data_off=$(u64 good.data 40)
data_size=$(u64 good.data 48)

: >empty.data
echo "this is a text file, not a perf.data" >text.data
head -c $((data_off + data_size / 2)) good.data >truncated.data
cp good.data attrsize0.data; put_u64 attrsize0.data 16 0
cp good.data attrsout.data; put_u64 attrsout.data 24 $((1 << 40))
cp good.data dataout.data; put_u64 dataout.data 40 $((1 << 40))
cp good.data bigattr.data; put_u32 bigattr.data $(( $(u64 good.data 24) + 4 )) 200
head -c 12 good.data >short.data

check_bad() {  # check_bad <file> <expected text>
	local rc=0
	"$PERF" inject -i "$1" -o out.data 2>err.txt || rc=$?
	[ $rc -ne 0 ] || fail "perf inject -i $1 exited 0"
	[ $rc -lt 128 ] || fail "perf inject -i $1 died (exit $rc): $(cat err.txt)"
	[ "$(wc -l <err.txt)" = 1 ] || fail "perf inject -i $1: expected one error line, got: $(cat err.txt)"
	grep -q -- "$1" err.txt || fail "perf inject -i $1: error does not name the file: $(cat err.txt)"
	grep -qi -- "$2" err.txt || fail "perf inject -i $1: error does not say '$2': $(cat err.txt)"
	info "$1: $(cat err.txt)"
	for cmd in buildid-list report script; do
		rc=0
		"$PERF" $cmd -i "$1" >/dev/null 2>err.txt || rc=$?
		[ $rc -ne 0 ] && [ $rc -lt 128 ] && [ "$(wc -l <err.txt)" = 1 ] ||
			fail "perf $cmd -i $1: rc $rc, $(cat err.txt)"
		grep -qi -- "$2" err.txt || fail "perf $cmd -i $1: error does not say '$2': $(cat err.txt)"
	done
}

check_bad missing.data "no such file"
check_bad empty.data "empty"
check_bad text.data "not a perf.data"
check_bad short.data "too short"
check_bad truncated.data "truncated data section"
check_bad attrsize0.data "attr_size is 0"
check_bad attrsout.data "outside the file"
check_bad dataout.data "data offset"
check_bad bigattr.data "larger than 128"
# the same, coming through a pipe
rc=0; cat text.data | "$PERF" inject -o out.data 2>err.txt || rc=$?
[ $rc -ne 0 ] && [ $rc -lt 128 ] && [ "$(wc -l <err.txt)" = 1 ] || fail "text on stdin: rc $rc, $(cat err.txt)"
rc=0; "$PERF" inject -i - -o out.data </dev/null 2>err.txt || rc=$?
[ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q empty err.txt || fail "empty stdin: rc $rc, $(cat err.txt)"

# an unknown record type (>= 83): a warning, the rest is copied, perf 6.1 reads the copy
cp good.data unknown.data
put_u32 unknown.data "$data_off" 200
"$PERF" inject -i unknown.data -o out.data 2>err.txt || fail "unknown record type aborted the copy: $(cat err.txt)"
grep -q "unknown type 200" err.txt || fail "no warning for the unknown record type: $(cat err.txt)"
"$PERF_REF" script -i out.data >copy.txt 2>copy.err || fail "perf 6.1 cannot read the copy: $(cat copy.err)"
"$PERF_REF" script -i good.data >orig.txt 2>/dev/null
[ -s copy.txt ] && cmp -s orig.txt copy.txt || fail "samples differ after dropping the unknown record"

# a record running past the data end: warning, the records before it are kept
cp good.data cut.data
last=$(python3 -c '
import struct,sys
d=open("good.data","rb").read(); off=int(sys.argv[1]); end=off+int(sys.argv[2]); last=off
while off+8<=end:
    t,m,s=struct.unpack_from("<IHH",d,off)
    if s<8: break
    last=off; off+=s
print(last)' "$data_off" "$data_size")
python3 -c 'import struct,sys; f=open("cut.data","r+b"); f.seek(int(sys.argv[1])+6); f.write(struct.pack("<H", 0xfff8))' "$last"
"$PERF" inject -i cut.data -o out.data 2>err.txt || fail "an overlong last record aborted the copy: $(cat err.txt)"
grep -q "past the end" err.txt || fail "no warning for the overlong record: $(cat err.txt)"
"$PERF_REF" script -i out.data >/dev/null 2>copy.err || fail "perf 6.1 cannot read the copy: $(cat copy.err)"

# refuse to overwrite the input, and to write through a symlink
rc=0; "$PERF" inject -i good.data -o good.data 2>err.txt || rc=$?
[ $rc -ne 0 ] && cmp -s good.data good.data && grep -q "same file" err.txt || fail "inject overwrote its input"
"$PERF_REF" script -i good.data >/dev/null 2>&1 || fail "input damaged"
echo keep >target.txt
ln -s target.txt link.data
rc=0; "$PERF" inject -i good.data -o link.data 2>err.txt || rc=$?
[ $rc -ne 0 ] && [ "$(cat target.txt)" = keep ] || fail "inject wrote through a symlink"
echo OK
