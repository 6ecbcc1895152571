#!/bin/bash
# Security: perf inject --jit creates, renames or removes files only next to the jitdump or under the -o directory
. "$TOP/tools/perf/tests/shell/lib/common.sh"
# inject --jit reads a jitdump named by an MMAP record and writes one ELF
# per jitted function (or per dump) beside it, plus the output file. Every
# path-changing syscall of the real run (strace -f -y: opens for writing,
# mkdir, rename, link, symlink, unlink, chmod, chown, truncate) is checked
# to land in one of those two directories - not in $HOME/.debug, not in
# the cwd, not in /tmp at large. A planted symlink where an ELF goes must
# not be written through.
#
# Verified to fail without the protection: in a scratch copy, with
# jit-inject.c opening the cwd instead of the dump's directory as the
# directory the ELFs are written through, step 1 failed ("write outside the
# dump and output directories: ... renameat(5</.../cwd>, ...").
need_cmd strace python3
[ "$(uname -m)" = x86_64 ] || skip "jit_synth emits x86-64 code"
[ -x "$WORKLOADS/jit_synth" ] || skip "jit_synth workload not built"
use_private_home
# not under /tmp/perf-*: perf takes such paths for perf-PID.map files
base=$(mktemp -d /tmp/inject-sec.XXXXXX) || fail mktemp
trap 'rm -rf "$base"' EXIT
mkdir -p "$base/dumps" "$base/out" "$base/cwd"
cd "$base/cwd" || fail "cd"

"$PERF" record -q -k mono -e cpu-clock -o "$base/in.data" "$WORKLOADS/jit_synth" --ms 150 "$base/dumps" >wl.out 2>rec.err ||
	fail "record: $(cat rec.err)"
dump=$(find "$base/dumps" -name 'jit-*.dump' | head -1)
[ -n "$dump" ] || fail "no jitdump written"
dumpdir=$(dirname "$dump")

cat >check.py <<'PY'
import os, re, sys
trace, allowed = sys.argv[1], [os.path.realpath(a) for a in sys.argv[2:]]
WRITE = ('O_WRONLY', 'O_RDWR', 'O_CREAT', 'O_TRUNC')
ARG = re.compile(r'(AT_FDCWD|-?\d+)<([^>]*)>, "([^"]*)"|"([^"]*)"')
bad, n = [], 0
for line in open(trace):
    m = re.match(r'^\d+\s+(\w+)\((.*)\)\s+=\s+(-?\d+)', line)
    if not m:
        continue
    call, args, ret = m.groups()
    if call in ('open', 'openat', 'creat'):
        if call != 'creat' and not any(f in args for f in WRITE):
            continue
    paths = []
    for dfd, dpath, rel, plain in ARG.findall(args):
        p = rel if dpath else plain
        base = dpath if dpath else os.getcwd()
        paths.append(os.path.normpath(os.path.join(base, p)))
    if call in ('open', 'openat', 'creat'):
        paths = paths[:1]
    for p in paths:
        n += 1
        rp = os.path.join(os.path.realpath(os.path.dirname(p)), os.path.basename(p))
        if p.startswith('/dev/') or p.startswith('/proc/self/'):
            continue
        if not any(rp == a or rp.startswith(a + '/') for a in allowed):
            bad.append(line.strip())
print(n)
if bad:
    print('\n'.join(bad[:5]), file=sys.stderr)
    sys.exit(1)
PY

STRACE_CALLS=open,openat,creat,mkdir,mkdirat,rename,renameat,renameat2,link,linkat,symlink,symlinkat,unlink,unlinkat,truncate,chmod,fchmodat,chown,fchownat
run_inject() {  # run_inject NAME: traced inject of in.data into $base/out/NAME.jit
	strace -f -y -qq -e trace=$STRACE_CALLS -o "$1.trace" \
		"$PERF" inject --jit -i "$base/in.data" -o "$base/out/$1.jit" 2>"$1.err"
}

# 1. a normal run
run_inject plain || fail "inject failed: $(cat plain.err)"
n=$(python3 check.py plain.trace "$dumpdir" "$base/out" 2>bad.txt) ||
	fail "write outside the dump and output directories: $(cat bad.txt)"
[ "$n" -gt 1 ] || fail "strace saw only $n writes: the check checked nothing"
ls "$dumpdir"/jitted-*.so >/dev/null 2>&1 || fail "no jitted ELF next to the dump"
info "plain run: $n path writes, all under the dump dir or the output dir"

# 2. the ELF names are planted as symlinks to a victim: the victim stays,
#    and still nothing is written elsewhere
echo keep >"$base/victim"
for f in "$dumpdir"/jitted-*.so; do
	rm -f "$f"
	ln -s "$base/victim" "$f"
done
run_inject planted
n=$(python3 check.py planted.trace "$dumpdir" "$base/out" 2>bad.txt) ||
	fail "with planted symlinks: write outside the dump and output directories: $(cat bad.txt)"
[ "$(cat "$base/victim")" = keep ] || fail "a planted symlink was written through"
info "planted symlinks: victim untouched; $(grep -c . planted.err) line(s) of warning"

# 3. an -o in a directory of its own (not the cwd): the cwd stays empty
[ -z "$(ls -A "$base/cwd" | grep -v -e '\.trace$' -e '\.err$' -e '^check.py$' -e '^bad.txt$' -e '^wl.out$' -e '^rec.err$')" ] ||
	fail "inject left files in the cwd: $(ls -A "$base/cwd")"
[ -z "$(ls -A "$HOME")" ] || fail "inject wrote under \$HOME: $(find "$HOME" | head -5)"
exit 0
