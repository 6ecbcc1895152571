#!/bin/bash
# perf probe DWARF: uprobe_events lines for 24 specs (typed arguments named as perf names them, a function's entry and its declaration line placed as perf places them) equal perf 6.1's (-n -v), or the difference is shown equivalent or perf 6.1 wrong
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/probe-dwarf.sh"
need_ref_perf
need_root
T=$(tracefs_dir) || skip "no tracefs"
use_private_home
trap dv_cleanup EXIT
N=3

ours() { "$PERF" probe -n -v -x "$BIN" "$@" 2>/dev/null | grep -E '^[pr]:'; }
theirs() { "$PERF_REF" probe -n -v -x "$BIN" "$@" 2>&1 >/dev/null | sed -n 's/^Writing event: //p'; }

# rn LINE EVENT: the definition LINE as $DV_GROUP/EVENT (so the cleanup trap removes it)
rn() { echo "$1" | sed "s|^\([pr]\):[^ ]*|\1:$DV_GROUP/$2|"; }

# record EVENT-DEFS...: writes the definitions, records the workload, prints "event args" per hit
record_defs() {
	local e=() n
	for d in "$@"; do echo "$d" >> "$T/uprobe_events" || return 1; n=${d%% *}; n=${n#?:}; e+=(-e "${n/\//:}"); done
	"$PERF" record -q -o r.data "${e[@]}" -- "$BIN" $N > /dev/null 2>&1 || return 1
	"$PERF" script -i r.data 2>/dev/null | sed 's/^.*: *\([a-z0-9_]*:[a-z0-9_]*\): ([0-9a-f <-]*) */\1 /'
	dv_cleanup
}

same=0 docd=0
for B in O0 O2; do
	BIN="$WORKLOADS/dwarf_vars_$B"
	# spec|relation (same, retval, perf-kernel-refused, perf-multi, perf-fails)
	while IFS='|' read -r spec rel; do
		[ -n "$spec" ] || continue
		read -r -a words <<< "$spec"
		o=$(ours "${words[@]}"); r=$(theirs "${words[@]}")
		case "$rel" in
		same)
			[ -n "$o" ] && [ "$o" = "$r" ] || { echo "ours: $o"; echo "perf: $r"; fail "$B '$spec': lines differ"; }
			same=$((same + 1));;
		retval)
			# ours types $retval from DWARF (s32), perf 6.1 leaves it x64 (rax's upper
			# half too): same hits, and perf's hex value is ours in two's complement
			[ "${o% *}" = "${r% *}" ] && [ "${o##* }" = '$retval:s32' ] && [ "${r##* }" = '$retval' ] || fail "$B '$spec': $o / $r"
			out=$(record_defs "$(rn "$o" ours)" "$(rn "$r" ref)") || fail "record"
			a=$(echo "$out" | awk '$1 ~ /:ours$/ {sub("arg1=", "", $2); print $2}' | tr '\n' ' ')
			b=$(echo "$out" | awk '$1 ~ /:ref$/ {sub("arg1=", "", $2); print $2}' | while read -r h; do
				v=$((h & 0xffffffff)); [ $v -ge 2147483648 ] && v=$((v - 4294967296)); printf "%d " $v; done)
			[ -n "$a" ] && [ "$a" = "$b" ] || fail "$B retval: ours '$a' perf '$b'"
			info "$B '$spec': equivalent (same $N hits, values $a)"; docd=$((docd + 1));;
		perf-kernel-refused)
			# perf 6.1 writes a kprobe-only @SYMBOL global; the kernel refuses it for uprobes
			[ "${o%=*}" = "${r%=*}" ] || fail "$B '$spec': $o / $r"
			echo "${r/$'\n'*/}" | grep -q '=@[a-z_]*+0' || fail "$B: perf 6.1 line changed: $r"
			! echo "$r" >> "$T/uprobe_events" 2>/dev/null || { dv_cleanup; fail "kernel took $r"; }
			out=$(record_defs "$(rn "$o" gl)") || fail "record $o"
			[ "$(echo "$out" | grep -c .)" = "$N" ] || fail "$B global: hits"
			info "$B '$spec': perf 6.1's line is refused by the kernel, ours hits $N times ($(echo "$out" | head -1))"; docd=$((docd + 1));;
		perf-multi)
			# perf 6.1 probes every line-table row of the statement
			no=$(echo "$o" | grep -c .); nr=$(echo "$r" | grep -c .)
			[ "$no" = 1 ] && [ "$nr" -gt 1 ] && echo "$r" | grep -qF "${o#* }" || fail "$B '$spec': ours $no, perf $nr"
			i=0; defs=()
			while read -r l; do i=$((i + 1)); defs+=("$(rn "$l" ref$i)"); done <<< "$r"
			out=$(record_defs "$(rn "$o" ours)" "${defs[@]}") || fail "record"
			hits_o=$(echo "$out" | grep -c ':ours ') hits_r=$(echo "$out" | grep -c ':ref')
			[ "$hits_o" = "$N" ] && [ "$hits_r" -gt "$N" ] || fail "$B '$spec': hits ours $hits_o perf $hits_r"
			info "$B '$spec': ours 1 address, $hits_o hits for $N executions; perf 6.1 $nr addresses, $hits_r hits"; docd=$((docd + 1));;
		perf-fails)
			[ -n "$o" ] && [ -z "$r" ] || fail "$B '$spec': ours '$o' perf '$r'"
			info "$B '$spec': perf 6.1 refuses, ours: $o"; docd=$((docd + 1));;
		both-refuse)
			# the row at the entry of a function with a prologue is its declaration
			# line's: no line probe there (at -O2, without a prologue, perf 6.1 still
			# refuses the line; ours probes the entry, where the arguments are)
			[ -z "$o" ] && [ -z "$r" ] || fail "$B '$spec': ours '$o' perf '$r', both must refuse"
			same=$((same + 1));;
		perf-early)
			# perf 6.1 probes the declaration line with arguments at the entry, where
			# the prologue has not stored them yet; ours after the prologue, as for FUNC:0
			[ -n "$o" ] && [ -n "$r" ] && [ "$o" != "$r" ] || fail "$B '$spec': ours '$o' perf '$r'"
			out=$(record_defs "$(rn "$o" ours)" "$(rn "$r" ref)") || fail "record"
			want=$("$BIN" $N | sed -n 's/^compute a=\([-0-9]*\) .*/arg1=\1/p' | tr '\n' ' ')
			a=$(echo "$out" | awk '$1 ~ /:ours$/ {sub("a=", "arg1=", $2); print $2}' | tr '\n' ' ')
			b=$(echo "$out" | awk '$1 ~ /:ref$/ {sub("a=", "arg1=", $2); print $2}' | tr '\n' ' ')
			[ -n "$want" ] && [ "$a" = "$want" ] || fail "$B '$spec': ours fetched '$a', the program passed '$want'"
			[ "$b" != "$want" ] || fail "$B '$spec': perf 6.1 now fetches the right values: make it 'same'"
			info "$B '$spec': ours fetches $a as passed; perf 6.1 (at the entry) $b"; docd=$((docd + 1));;
		esac
	done <<EOS
compute a b|same
compute:4 sum prod|same
dwarf_vars.c:40 sum|same
weigh r->weight r->name:string|same
negs c s|same
scale v|same
compute+4|same
weigh%return|same
compute%return \$retval|retval
compute a:x32 b:s8|same
negs c:u8 s:x16|same
weigh r->id:x32 r->name:string|same
bump g_counter|perf-kernel-refused
$( [ $B = O0 ] && echo 'main:7 i|perf-multi' || echo 'main:7 i|same')
$( [ $B = O0 ] && echo 'plen p.x|same' || echo 'plen p.x|perf-fails')
$( [ $B = O0 ] && echo 'bump:2 by|same' || echo 'bump:2 by|perf-fails')
compute|same
weigh r|same
compute:0|same
compute:0 a|same
$( [ $B = O0 ] && echo 'compute:1 a|both-refuse' || echo 'compute:1 a|perf-fails')
dwarf_vars.c:36|same
$( [ $B = O0 ] && echo 'dwarf_vars.c:37 a|both-refuse' || echo 'dwarf_vars.c:37 a|perf-fails')
$( [ $B = O0 ] && echo 'dwarf_vars.c:36 a|perf-early' || echo 'dwarf_vars.c:36 a|same')
EOS
done
info "$same lines identical to perf 6.1's, $docd differences shown equivalent or perf 6.1 wrong"
exit 0
