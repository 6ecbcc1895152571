#!/bin/bash
# perf probe DWARF: FUNC, FUNC:RELLINE, FILE:LINE, FUNC%return, inlined, struct, global, s8/s16 values equal what the program prints (-O0 and -O2)
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/probe-dwarf.sh"
need_root
T=$(tracefs_dir) || skip "no tracefs"
use_private_home
trap dv_cleanup EXIT
N=3

# probe NAME SPEC...: adds $DV_GROUP$B:NAME, remembers it for the recording
probe() {
	local name=$1
	shift
	"$PERF" probe -q -x "$BIN" "$DV_GROUP$B:$name=$*" 2> err.txt || { cat err.txt; fail "$B: perf probe '$*'"; }
	EVENTS="$EVENTS -e $DV_GROUP$B:$name"
}
# check NAME WORD keys...: the probe's values, hit by hit, equal the program's
check() {
	local name=$1 word=$2
	shift 2
	dv_expect out.txt "$word" "$@" > exp.txt
	dv_got script.txt "$DV_GROUP$B:$name" > got.txt
	[ "$(wc -l < exp.txt)" = "$N" ] || fail "$B $name: the program printed $(wc -l < exp.txt) '$word' lines"
	diff exp.txt got.txt > /dev/null || { echo "expected:"; cat exp.txt; echo "got:"; cat got.txt; fail "$B $name: values differ"; }
	info "$B $name: $N hits, values as printed ($(head -1 got.txt))"
}
refused() {  # refused WHAT-GREP SPEC...: our perf refuses naming the variable and the reason
	local want=$1
	shift
	if "$PERF" probe -n -x "$BIN" "$@" > /dev/null 2> err.txt; then fail "$B: '$*' accepted"; fi
	grep -q -- "$want" err.txt || { cat err.txt; fail "$B: '$*' refused without '$want'"; }
	info "$B: '$*' refused: $(head -1 err.txt)"
}

for B in O0 O2; do
	BIN="$WORKLOADS/dwarf_vars_$B"
	[ -x "$BIN" ] || fail "$BIN not built"
	EVENTS=
	probe func compute a b
	probe rel 'compute:4' sum prod
	probe file "dwarf_vars.c:$(dv_line weigh)" weight=r-\>weight id=r-\>id name=r-\>name:string
	probe ret 'compute%return' 'res=$retval'
	probe neg negs c s
	probe glob "dwarf_vars.c:$(dv_line bump_total)" g_counter g_s8 g_s16
	probe inl scale v factor
	probe pt plen x=p.x
	probe dif "dwarf_vars.c:$(dv_line diffs)" a b
	# shellcheck disable=SC2086
	"$PERF" record -q -o perf.data $EVENTS -- "$BIN" $N > out.txt 2> rec.err || { cat rec.err; fail "$B: record"; }
	"$PERF" script -i perf.data > script.txt 2> script.err || { cat script.err; fail "$B: script"; }
	check func compute a b
	check rel compute sum prod
	check file weigh weight id name
	check ret compute res
	check neg negs c s
	check glob bump g_counter g_s8 g_s16
	check inl scale v factor
	check pt plen x
	check dif diffs a b
	# a line probe fires once per execution of the statement
	[ "$(grep -c " $DV_GROUP$B:rel: " script.txt)" = "$N" ] || fail "$B: line probe hit count"
	"$PERF" probe -q -d "$DV_GROUP$B:*" > /dev/null || fail "$B: delete"
done

# -O2 only: what uprobes cannot fetch exactly is refused by name, never guessed
BIN="$WORKLOADS/dwarf_vars_O2" B=O2
refused "'d'.*computed as" "dwarf_vars.c:$(dv_line diffs) d"
refused "'e'.*computed as" "dwarf_vars.c:$(dv_line diffs) e"
refused "'argc'.*DW_OP_entry_value" "main:7 argc"
refused "p.y.*signed" "plen p.y"
refused "optimised out" "compute sum"
# the unsigned view of a register's upper half, when asked for explicitly
"$PERF" probe -n -v -x "$BIN" 'plen p.y:u32' 2>&1 | grep -q 'y=%[a-z0-9]*:b32@32/64' || fail "p.y:u32 not a bitfield fetch"
# the -O0 build has them all in memory: fetched
BIN="$WORKLOADS/dwarf_vars_O0" B=O0
"$PERF" probe -n -x "$BIN" "dwarf_vars.c:$(dv_line diffs) d e argc=a" > /dev/null 2>&1 || fail "O0: d/e not fetchable"
exit 0
