#!/bin/bash
# SDT clash: every name perf list prints for one provider cached from two binaries (NAME@PATH(BUILDID), @PATH, a glob, the bare name) is taken by record -e and probe, and probes the copy it names
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_root
need_cmd gcc
T=$(tracefs_dir) || skip "no tracefs"
use_private_home
cleanup() { "$PERF" probe -q -d 'sdt_clash:*' >/dev/null 2>&1; }
trap cleanup EXIT
# binA fires ev with 1 + argc, binB with 2 + argc
for v in A:1 B:2; do
	n=${v%:*}
	printf '#include <sys/sdt.h>\nint main(int argc, char **argv) { int v = %s + argc; DTRACE_PROBE1(clash, ev, v); return 0; }\n' \
		"${v#*:}" > $n.c
	gcc -O1 -o bin$n $n.c || skip "cannot build an SDT program"
done
"$PERF" buildid-cache -a binA && "$PERF" buildid-cache -a binB || fail "buildid-cache -a"
mapfile -t names < <("$PERF" list sdt | awk '/sdt_clash:/ {print $1}')
[ ${#names[@]} = 2 ] || fail "perf list: ${names[*]}"

# rec EVENT WORKLOAD: the arg1 values recorded
rec() {
	"$PERF" record -q -o r.data -e "$1" -- "$2" > /dev/null 2> err.txt || { cat err.txt; fail "record -e '$1' -- $2"; }
	grep -q '^p:sdt_clash/' "$T/uprobe_events" && fail "record -e '$1': uprobes left behind"
	"$PERF" script -i r.data 2>/dev/null | sed -n 's/.*sdt_clash:ev: .* arg1=//p' | sort -u | tr '\n' ' '
}
for L in "${names[@]}"; do
	case "$L" in
	*/binA\(*) bin=./binA want="2 " ;;
	*/binB\(*) bin=./binB want="3 " ;;
	*) fail "unexpected name $L" ;;
	esac
	[ "$(rec "$L" $bin)" = "$want" ] || fail "record -e '$L' -- $bin: not the copy it names"
	"$PERF" probe -q "$L" 2> err.txt || { cat err.txt; fail "probe '$L' refused"; }
	[ "$(grep -c '^p:sdt_clash/ev ' "$T/uprobe_events")" = 1 ] || fail "probe '$L': $(grep clash "$T/uprobe_events")"
	grep -q "^p:sdt_clash/ev $PWD/${bin#./}:" "$T/uprobe_events" || fail "probe '$L' probed another copy"
	cleanup
	info "'$L': record -e and probe take it, the copy in ${bin#./}"
done
[ "$(rec "sdt_clash:ev@$PWD/binB" ./binB)" = "3 " ] || fail "@PATH"
[ "$(rec "sdt_clash:e*@$PWD/bin*" ./binA)" = "2 " ] || fail "globs in event and @PATH"
# a bare name with a workload: the workload's own copy
[ "$(rec sdt_clash:ev ./binA)" = "2 " ] || fail "bare name, workload binA"
[ "$(rec sdt_clash:ev ./binB)" = "3 " ] || fail "bare name, workload binB"
info "@PATH, globs, and a bare name probe the workload's copy"

# two builds of one path: the old build-id is refused, both build-ids named
cp binA bin && "$PERF" buildid-cache -a bin || fail "cache bin (A)"
old=$("$PERF" buildid-cache -l | awk -v p="$PWD/bin" '$2 == p {print $1}')
cp binB bin && "$PERF" buildid-cache -a bin || fail "cache bin (B)"
new=$("$PERF" buildid-cache -l | awk -v p="$PWD/bin" '$2 == p {print $1}')
[ -n "$old" ] && [ -n "$new" ] && [ "$old" != "$new" ] || fail "two builds: '$old' '$new'"
for L in "sdt_clash:ev@$PWD/bin(${old:0:12})" "sdt_clash:ev@${old:0:12}"; do
	"$PERF" record -q -o o.data -e "$L" -- ./bin > /dev/null 2> err.txt && fail "record -e '$L' of a rebuilt binary succeeded"
	grep -q "$old" err.txt && grep -q "$new" err.txt || { cat err.txt; fail "'$L': both build-ids not named"; }
	grep -q '^p:sdt_clash/' "$T/uprobe_events" && fail "'$L': uprobes left"
done
[ "$(rec "sdt_clash:ev@$PWD/bin(${new:0:12})" ./bin)" = "3 " ] || fail "the current build by its build-id"
info "a rebuilt binary: the old build-id refused naming both, the current one probed"
exit 0
