#!/bin/bash
# Security: the build-id cache never writes or deletes through a symlink planted anywhere inside it
. "$TOP/tools/perf/tests/shell/lib/common.sh"
# ~/.debug is often shared (a team cache, a root-run perf on a user's
# HOME). Whoever can write into it can plant symlinks; a cache that follows
# them lets that person make perf overwrite or delete any file the perf
# user can. Symlinks are planted at every level - .build-id, its xx
# subdirectory, the per-path directory, the per-build-id directory, the
# elf and probes files - and add, remove, purge and purge-all must leave
# every victim as it was. (buildid-cache-bad-input.sh covers the top-level
# path component.)
#
# Verified to fail without the protection: in a scratch copy of
# util/build-id-cache.c with O_NOFOLLOW dropped from the directory walk
# (the openat of each path component), case 1 wrote into the victim
# directory and this test failed ("victim dir v_bid not empty after add
# with D/.build-id planted: 44").
need_cmd python3
use_private_home
mkdir -p bin
cp "$WORKLOADS/sdt_test" bin/sdt_test 2>/dev/null || skip "sdt_test workload not built"
BIN=$PWD/bin/sdt_test
bid=$("$PERF" buildid-list -i "$BIN" 2>/dev/null | awk '{print $1; exit}')
[ -n "$bid" ] || bid=$(readelf -n "$BIN" | sed -n 's/.*Build ID: *//p')
[ ${#bid} -ge 8 ] || fail "no build-id for $BIN"
xx=${bid:0:2}
rel=${BIN#/}

fresh() { rm -rf D; mkdir -p D; }
bc() { "$PERF" buildid-cache --debug-dir "$PWD/D" "$@" >bc.out 2>bc.err; }
victim_dir() { rm -rf "$1"; mkdir -p "$1"; }
empty_or_fail() { [ -z "$(ls -A "$1")" ] || fail "victim dir $1 not empty after $2: $(ls -A "$1")"; }
same_or_fail() { [ "$(cat "$1")" = keep ] || fail "victim file $1 changed by $2"; }

# 0. the cache works at all (so the cases below test something)
fresh
bc -a "$BIN" || fail "plain add failed: $(cat bc.err)"
[ -f "D/$rel/$bid/elf" ] || fail "no D/$rel/$bid/elf after add: $(find D | head)"
[ -L "D/.build-id/$xx/${bid:2}" ] || fail "no .build-id link after add"

# 1. .build-id itself is a symlink
fresh; victim_dir v_bid
ln -s "$PWD/v_bid" D/.build-id
bc -a "$BIN"
empty_or_fail v_bid "add with D/.build-id planted"
info "planted .build-id: $(head -1 bc.err)"

# 2. .build-id/xx is a symlink
fresh; victim_dir v_xx
mkdir -p D/.build-id
ln -s "$PWD/v_xx" "D/.build-id/$xx"
bc -a "$BIN"
empty_or_fail v_xx "add with D/.build-id/$xx planted"
info "planted .build-id/$xx: $(head -1 bc.err)"

# 3. the per-build-id directory is a symlink
fresh; victim_dir v_dir
mkdir -p "D/$rel"
ln -s "$PWD/v_dir" "D/$rel/$bid"
bc -a "$BIN"
empty_or_fail v_dir "add with the build-id directory planted"

# 4. elf and probes of a real entry replaced by symlinks, then add again
for f in elf probes; do
	fresh
	bc -a "$BIN" || fail "add failed: $(cat bc.err)"
	echo keep >"victim_$f"
	rm -f "D/$rel/$bid/$f"
	ln -s "$PWD/victim_$f" "D/$rel/$bid/$f"
	bc -a "$BIN"
	same_or_fail "victim_$f" "add with $f planted"
done

# 5. remove / purge / purge-all through a planted per-path or per-id directory
for op in "-r $BIN" "-p $BIN" "-P"; do
	fresh; victim_dir v_rm
	echo keep >v_rm/precious
	mkdir -p "v_rm/$bid" && echo keep >"v_rm/$bid/elf"
	mkdir -p "$(dirname "D/$rel")"
	ln -s "$PWD/v_rm" "D/$rel"
	mkdir -p "D/.build-id/$xx"
	ln -s "../../$rel/$bid" "D/.build-id/$xx/${bid:2}"
	bc $op
	same_or_fail v_rm/precious "buildid-cache $op"
	same_or_fail "v_rm/$bid/elf" "buildid-cache $op"
	info "buildid-cache $op with a planted directory: victim intact"
done
exit 0
