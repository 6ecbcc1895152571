#!/bin/bash
# jitted ELFs for the fleet: one dump injected twice gives identical build-ids (per function and per dump); identical code bytes under different names get distinct ids, and a report on host B through debuginfod names each as on host A
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/debuginfod.sh"
need_cmd debuginfod python3 objcopy readelf
[ "$(uname -m)" = x86_64 ] || skip "jit_synth emits x86-64 code"
[ -x "$WORKLOADS/jit_synth" ] || skip "jit_synth workload not built"
trap dbgd_stop EXIT
ids() { for f in "$1"/jitted-*.so; do echo "$(basename "$f") $(readelf -n "$f" | awk '/Build ID/ { print $3 }')"; done; }
rows() { grep -E 'Reuse|Gen0' "$1" | sed 's/  */ /g'; }

host A
mkdir dump
# code A runs as Reuse.alpha; --loads adds bench.Gen0.f0..f3 with the very same bytes
"$PERF" record -q -k mono -e cpu-clock -o js.data -- "$WORKLOADS/jit_synth" --ms 200 --loads 4 "$PWD/dump" > out.txt ||
	fail "record jit_synth"
for mode in --jit-elf-per-function ""; do
	"$PERF" inject --jit $mode -i js.data -o one.jit 2> inject.err || fail "inject $mode: $(cat inject.err)"
	ids dump > one.ids
	"$PERF" inject --jit $mode -i js.data -o two.jit 2> inject.err || fail "second inject $mode: $(cat inject.err)"
	ids dump > two.ids
	diff one.ids two.ids > /dev/null || { diff one.ids two.ids; fail "inject $mode twice: different build-ids"; }
	"$PERF" buildid-list -i one.jit | grep jitted- > one.list
	"$PERF" buildid-list -i two.jit | grep jitted- > two.list
	[ -s one.list ] && diff one.list two.list > /dev/null || fail "inject $mode twice: perf.data build-ids differ"
	info "inject ${mode:-(one ELF per dump)} twice: same build-ids ($(wc -l < one.ids) ELFs)"
done

# per function, as perf 6.1 lays it out: the same .text, one id per function
rm -f dump/jitted-*.so
"$PERF" inject --jit --jit-elf-per-function -i js.data -o jit.data 2> inject.err || fail "inject: $(cat inject.err)"
ids dump > per-fn.ids
for f in dump/jitted-*.so; do
	echo "$(objcopy -O binary --only-section=.text "$f" /dev/stdout | md5sum | cut -c1-32) $(readelf -sW "$f" | awk '$4 == "FUNC" { print $8 }' | tr '\n' ' ')"
done > text.txt
same=$(grep -c "^$(grep "Reuse.alpha" text.txt | cut -c1-32) " text.txt)
[ "$same" -ge 5 ] || { cat text.txt; fail "expected Reuse.alpha and bench.Gen0.f0-3 to share code bytes"; }
[ "$(awk '{ print $2 }' per-fn.ids | sort -u | wc -l)" = "$(wc -l < per-fn.ids)" ] ||
	{ cat per-fn.ids; fail "identical code bytes collide on one build-id"; }
info "$same functions share Reuse.alpha's code bytes; every ELF has its own build-id"
# one build-id cache holding them all: each id gives back its own function
for f in dump/jitted-*.so; do "$PERF" buildid-cache -a "$f" || fail "buildid-cache -a $f"; done
while read -r so bid; do
	want=$(readelf -sW "dump/$so" | awk '$4 == "FUNC" { print $8 }')
	got=$(readelf -sW "$HOME/.debug/.build-id/${bid:0:2}/${bid:2}/elf" | awk '$4 == "FUNC" { print $8 }')
	[ "$want" = "$got" ] || fail "$bid: cache gives $got for $want"
done < per-fn.ids
"$PERF" report -i jit.data --stdio --sort sym > a.txt 2> /dev/null || fail "report on A"
rows a.txt | grep -q 'Reuse.alpha' || { cat a.txt; fail "A: Reuse.alpha not named"; }

# host B: the injected file and a debuginfod over A's dump directory, nothing else
mkdir served && mv dump served/
host B
dbgd_start dbgd served
# debuginfod indexes in the background: every ELF, not just the first, before asking
for bid in $(awk '{ print $2 }' per-fn.ids); do dbgd_wait "$bid" executable; done
DEBUGINFOD_URLS="$DBGD_URL" "$PERF" report -i jit.data --stdio --sort sym > b.txt 2> b.err || { cat b.err; fail "report on B"; }
diff <(rows a.txt) <(rows b.txt) || fail "B names jitted code differently from A"
info "B through debuginfod: $(rows b.txt | tr '\n' ' ' | cut -c1-120)"
exit 0
