#!/bin/bash
# SDT notes whose .stapsdt.base moved: a relocated image (notes written for another base) and a section moved alone (objcopy): every probe cached at its nop, and fired as often as the program says
#
# Two binaries made from sdt_test:
#  rebased  its notes rewritten as if made for an image 1 MiB higher (pc,
#           base, semaphore): .stapsdt.base's real address says how far to
#           move them (what prelink leaves). perf 6.1 places the same probe
#           addresses; its semaphore offsets it does not move (past the file).
#  shifted  objcopy --change-section-address moved .stapsdt.base alone (and
#           the file layout after it): the code did not move, so the notes'
#           own addresses are the probe sites. perf 6.1 moves every probe by
#           the section's shift, into .rodata.
# For each, the probe sites cached must be those of the untouched binary and
# a recording must count each event as often as the program reports.
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_root
need_cmd objcopy python3
T=$(tracefs_dir) || skip "no tracefs"
use_private_home
trap '"$PERF" probe -q -d "sdt_test:*" >/dev/null 2>&1' EXIT
cp "$WORKLOADS/sdt_test" plain || skip "sdt_test not built"
python3 "$TOP/tools/perf/tests/shell/lib/sdt-rebase.py" plain rebased -0x100000 || fail "rewriting the notes"
objcopy --change-section-address .stapsdt.base+0x1000 plain shifted 2> /dev/null || fail objcopy
chmod +x rebased shifted

# cache_sites HOME BIN [PERF]: the probe lines of BIN's cache as "EVENT PLACE", path and semaphore cut
cache_sites() {
	HOME=$PWD/$1 "${3:-$PERF}" buildid-cache -a "./$2" 2> "$1.err" || { cat "$1.err"; fail "buildid-cache -a $2"; }
	find "$1/.debug" -name probes -path "*/$2/*" -exec cat {} + | awk '/^p:/ {sub(/.*:/, "", $2); sub(/\(.*/, "", $2); print $1, $2}'
}
mkdir -p h-plain h-rebased h-shifted h61
cache_sites h-plain plain > plain.sites
[ "$(wc -l < plain.sites)" = "$(readelf -n plain | grep -c 'Provider: test')" ] || fail "plain: not every note cached"
for b in rebased shifted; do
	cache_sites h-$b $b > $b.sites
	diff plain.sites $b.sites || fail "$b: probe sites differ from the untouched binary's"
done
grep -q "code did not move" h-shifted.err || { cat h-shifted.err; fail "shifted: no warning that the notes' own addresses are used"; }
info "rebased and shifted: all $(wc -l < plain.sites) sites cached where the untouched binary has them"

if [ -x "${PERF_REF:-}" ]; then
	rm -rf h61; mkdir h61
	cache_sites h61 rebased "$PERF_REF" > ref-rebased.sites
	diff rebased.sites ref-rebased.sites || fail "rebased: perf 6.1 places other probe sites"
	rm -rf h61; mkdir h61
	cache_sites h61 shifted "$PERF_REF" > ref-shifted.sites
	if diff -q shifted.sites ref-shifted.sites > /dev/null; then
		info "shifted: perf 6.1 now places the same sites"
	else
		info "shifted: perf 6.1 moves the sites with the section ($(awk 'NR == 1 {print $2}' ref-shifted.sites) for $(awk 'NR == 1 {print $2}' shifted.sites))"
	fi
fi

# fire them: counts as the program reports, semaphore-guarded block entered
for b in plain rebased shifted; do
	HOME=$PWD/h-$b "$PERF" record -q -o $b.data -e 'sdt_test:*' -- ./$b 3 > $b.out 2> $b.rerr ||
		{ cat $b.rerr; fail "$b: record"; }
	HOME=$PWD/h-$b "$PERF" script -i $b.data > $b.script 2> /dev/null || fail "$b: script"
	for p in zero one unsigned4 signed4 ptrstr twelve sem_args guarded; do
		want=$(awk -v p=$p '$1 == "fire" && $2 == p {print $3}' $b.out)
		[ $p = guarded ] && want=$(awk '$1 == "guarded_runs" {print $2}' $b.out)
		got=$(grep -c "sdt_test:$p:" $b.script)
		[ "$got" = "$want" ] && [ "$got" -gt 0 ] || fail "$b: sdt_test:$p hit $got times, the program says $want"
	done
	grep -m1 'sdt_test:signed4:' $b.script | grep -q 'arg1=-100 arg2=-30000 arg3=-2000000000 arg4=-9000000000000000000' ||
		fail "$b: signed4 values: $(grep -m1 signed4 $b.script)"
done
grep -q "^p:sdt_test/" "$T/uprobe_events" && fail "uprobes left behind"
info "plain, rebased and shifted: every event hit as often as the program says, values right"
exit 0
