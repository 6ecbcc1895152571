#!/bin/bash
# perf probe DWARF --cache -n: the cache carries exactly the place and fetchargs perf probe places directly (a function's entry, FUNC:0, its declaration line, a body line), perf 6.1's lines where it is right; on the stripped host %NAME's first hit fetches what the program prints
#
# At -O0 a function's arguments live in frame slots its prologue fills: a
# probe on the function or its declaration line that fetches them must sit
# after the prologue, or the first hit reads them before they are set.
# Without arguments perf 6.1 probes the entry itself; so do we.
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/probe-dwarf.sh"
need_root
need_cmd objcopy strip
T=$(tracefs_dir) || skip "no tracefs"
use_private_home
trap dv_cleanup EXIT
G=$DV_GROUP
cp "$WORKLOADS/dwarf_vars_O0" dv || fail "no workload"
DECL=$(grep -n '^NOIPA int compute(' "$DV_SRC" | cut -d: -f1)
[ -n "$DECL" ] || fail "no compute() in $DV_SRC"
# NAME|SPEC (e* fetch a and b; en fetches nothing)
DEFS="e0|compute:0 a b
ed|dwarf_vars.c:$DECL a b
ef|compute a b
el|compute:2 a b
en|compute"

# 1. direct placement, and the cache written with -n, on the debug build
: > direct.txt
adds=()
while IFS='|' read -r n spec; do
	"$PERF" probe -n -v -x ./dv "$G:$n=$spec" 2> /dev/null | grep '^p:' >> direct.txt ||
		fail "'$spec': not placed"
	adds+=(-a "$G:$n=$spec")
done <<< "$DEFS"
"$PERF" probe -q --cache -n -x ./dv "${adds[@]}" 2> err.txt || { cat err.txt; fail "--cache -n"; }
PROBES=$(find "$HOME/.debug" -path "*/dv/*/probes")
[ -f "$PROBES" ] || fail "no probes file"
grep '^p:' "$PROBES" > cached.txt
diff direct.txt cached.txt || fail "the cache carries other lines than perf probe places directly"
# (a PIE: compute's address is its file offset)
entry=$(nm dv | awk '$3 == "compute" {print $1}')
grep -q "^p:$G/en .*:0x$(printf %x $((16#$entry)))\$" cached.txt ||
	{ cat cached.txt; fail "compute without arguments: not at its entry"; }
info "cached lines = direct placement ($(wc -l < cached.txt) probes)"

# perf 6.1's cache for the same definitions: the same lines, but the declaration
# line with arguments, which perf 6.1 probes at the entry (before the prologue)
if [ -x "${PERF_REF:-}" ]; then
	mkdir -p ref-home
	HOME=$PWD/ref-home "$PERF_REF" probe -q --cache -n -x ./dv "${adds[@]}" > /dev/null 2>&1
	grep -h '^p:' $(find ref-home/.debug -name probes) 2>/dev/null | sed 's/:0x0*/:0x/' > ref.txt
	grep -v "^p:$G/ed " cached.txt > a.txt
	grep -v "^p:$G/ed " ref.txt > b.txt
	diff a.txt b.txt || fail "perf 6.1 caches other lines"
	grep -q "^p:$G/ed .*(%sp)" ref.txt || info "perf 6.1 no longer probes the declaration line at the entry: $(grep "/ed " ref.txt)"
	info "perf 6.1 caches the same $(wc -l < a.txt) lines; the declaration line it places at the entry: $(grep "/ed " ref.txt | cut -d' ' -f2-)"
fi

# 2. the stripped host: %NAME from the cache, values on every hit (the first too) as printed
objcopy --only-keep-debug dv dv.dbg && strip -g dv && rm dv.dbg || fail strip
ev=()
while IFS='|' read -r n _; do
	"$PERF" probe -q -x ./dv "%$n" || fail "%$n on the stripped binary"
	ev+=(-e "$G:$n")
done <<< "$DEFS"
grep "^p:$G/" "$T/uprobe_events" | sed 's/:0x0*/:0x/' > placed.txt
diff cached.txt placed.txt || fail "the stripped host places other lines than the cache carries"
"$PERF" record -q -o r.data "${ev[@]}" -- ./dv 3 > out.txt 2> err.txt || { cat err.txt; fail record; }
"$PERF" script -i r.data > s.txt 2> /dev/null || fail script
want=$(dv_expect out.txt compute a b)
calls=$(echo "$want" | grep -c .)
[ "$calls" -gt 0 ] || fail "the program printed no compute line"
for n in e0 ed ef el; do
	got=$(dv_got s.txt "$G:$n")
	[ "$got" = "$want" ] || { echo "want:"; echo "$want"; echo "got:"; echo "$got"; fail "$G:$n fetched other values"; }
done
[ "$(grep -c " $G:en: " s.txt)" = "$calls" ] || fail "$G:en: not one hit per call"
info "stripped host: %NAME placed as cached; $calls calls, every hit's a and b as printed"
exit 0
