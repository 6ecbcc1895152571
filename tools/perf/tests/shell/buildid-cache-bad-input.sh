#!/bin/bash
# buildid-cache: non-ELF, directory, missing, no build-id, truncated ELF, damaged notes, planted symlinks: clear message, non-zero exit, no crash
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_cmd python3 gcc
BIN="$WORKLOADS/sdt_quirks"
[ -x "$BIN" ] || skip "$BIN not built"
use_private_home
D="$PERF_TEST_TMP/cache"

expect_fail() {  # message-regex args...
	local re=$1; shift
	"$PERF" buildid-cache --debug-dir "$D" "$@" > out.txt 2> err.txt; rc=$?
	[ $rc -ne 0 ] || fail "'$*' exited 0"
	[ $rc -lt 128 ] || fail "'$*' crashed (rc $rc)"
	grep -Eq "$re" err.txt || fail "'$*': no clear message: $(cat err.txt)"
}
echo "not an elf" > text.txt
expect_fail 'text.txt: not an ELF file' -a text.txt
expect_fail 'Is a directory' -a "$PERF_TEST_TMP"
expect_fail 'No such file' -a /nonexistent/file
echo 'int main(void){return 0;}' > nb.c && gcc -Wl,--build-id=none -o nb nb.c
expect_fail 'no build-id' -a ./nb
# truncated ELF files and a section table past the end: perf 6.1 says
# "Couldn't add" but exits 0; ours exits non-zero (compat/improvements)
head -c 3000 "$BIN" > trunc3k
head -c $(( $(stat -c %s "$BIN") / 2 )) "$BIN" > trunchalf
python3 - "$BIN" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
struct.pack_into('<Q', d, 0x28, len(d) + 4096)
open('shoff', 'wb').write(d)
PY
expect_fail 'trunc3k: truncated or damaged ELF' -a trunc3k
expect_fail 'trunchalf: truncated or damaged ELF' -a trunchalf
expect_fail 'shoff: truncated or damaged ELF' -a shoff
[ ! -e "$D/.build-id" ] || [ -z "$(ls -A "$D/.build-id")" ] || fail "something was cached for a bad input"
info "non-ELF, directory, missing file, no build-id, truncated ELF, section table past the end: non-zero exit with a message"

# damaged .note.stapsdt: patch copies of the binary
python3 - "$BIN" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<Q', data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
def sh(i): return shoff + i * shentsize
stroff, = struct.unpack_from('<Q', data, sh(shstrndx) + 0x18)
for i in range(shnum):
    name, = struct.unpack_from('<I', data, sh(i))
    n = data[stroff + name:data.index(0, stroff + name)]
    if n == b'.note.stapsdt':
        off, size = struct.unpack_from('<QQ', data, sh(i) + 0x18)
        break
# 1: second note's namesz runs past the section
d = bytearray(data); first = 20 + ((struct.unpack_from('<I', d, off + 4)[0] + 3) & ~3)
struct.pack_into('<I', d, off + first, 0x7fffffff); open('namesz', 'wb').write(d)
# 2: section truncated in the middle of the third note
d = bytearray(data); struct.pack_into('<Q', d, sh(i) + 0x20, size - 30); open('trunc', 'wb').write(d)
# 3: first note's strings not terminated inside its descriptor
d = bytearray(data); dsz, = struct.unpack_from('<I', d, off + 4)
for k in range(off + 20 + 24, off + 20 + dsz):
    if d[k] == 0: d[k] = 0x41
open('unterm', 'wb').write(d)
# 4: garbage argument strings in the second note
d = bytearray(data); a = off + first + 20 + 24
p = d.index(0, a); p = d.index(0, p + 1) + 1; e = d.index(0, p)
d[p:e] = b'@@ -x@%%% 99999999999@%rax'[:e - p].ljust(e - p, b' '); open('garbage', 'wb').write(d)
PY
for f in namesz trunc unterm garbage; do chmod +x $f; done
check_scan() {  # file warning-regex min-events
	"$PERF" buildid-cache --debug-dir "$D" -a ./$1 2> err.txt; rc=$?
	[ $rc -lt 128 ] || fail "$1: crashed"
	grep -Eq "$2" err.txt || fail "$1: no warning naming the problem: $(cat err.txt)"
	n=$(PERF_BUILDID_DIR="$D" "$PERF" list sdt | grep -c sdt_quirk)
	[ "$n" -ge "$3" ] || fail "$1: only $n notes kept (expected >= $3)"
	"$PERF" buildid-cache --debug-dir "$D" -P >/dev/null
	info "$1: '$(head -1 err.txt)', $n notes still scanned"
}
check_scan namesz 'name size .* runs past the section' 1
check_scan trunc 'truncated|runs past' 2
check_scan unterm 'not terminated' 4
check_scan garbage 'skipped' 4

# a symlink planted inside the cache is never written through (a fresh
# cache: the scans above left directories, under /tmp when the tree is there)
rm -rf "$D"
mkdir -p "$D" elsewhere
ln -s "$PWD/elsewhere" "$D/$(dirname "$(realpath "$BIN")" | cut -d/ -f2)"
"$PERF" buildid-cache --debug-dir "$D" -a "$BIN" 2> err.txt && fail "--add through a planted symlink succeeded"
[ -z "$(ls -A elsewhere)" ] || fail "wrote through the planted symlink: $(ls -A elsewhere)"
info "planted symlink refused: $(head -1 err.txt)"
exit 0
