#!/bin/bash
# perf probe DWARF: -L numbers the lines that have code like perf 6.1 (FUNC, FUNC@FILE, FUNC:START, FILE:START), -V lists the program's real variables (inlined constant parameter included, computed ones marked, optimised-out ones left out as perf 6.1)
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/probe-dwarf.sh"
use_private_home

# -O0, from the source: the body lines of compute that are statements, numbered from its declaration
BIN="$WORKLOADS/dwarf_vars_O0"
decl=$(grep -n '^NOIPA int compute(' "$DV_SRC" | cut -d: -f1)
"$PERF" probe -x "$BIN" -L compute > L.txt 2> err.txt || { cat err.txt; fail "-L compute"; }
head -1 L.txt | grep -qx "<compute@$DV_SRC:0>" || { head -1 L.txt; fail "-L header"; }
got=$(awk 'NR > 1 && $1 ~ /^[0-9]+$/ {print $1}' L.txt | tr '\n' ' ')
want=$(awk -v d="$decl" 'NR == d {print 0} NR > d + 1 && /^}/ {print NR - d; exit} NR > d + 1 && NF {print NR - d}' "$DV_SRC" | tr '\n' ' ')
[ "$got" = "$want" ] || fail "-L compute numbers '$got', the source's statements '$want'"
# every numbered line is the source's line at decl + number
awk 'NR > 1 && $1 ~ /^[0-9]+$/ {n = $1; sub(/^ *[0-9]+  /, ""); print n "\001" $0}' L.txt | while IFS=$'\001' read -r n text; do
	[ "$(sed -n "$((decl + n))p" "$DV_SRC")" = "$text" ] || fail "-L line $n is not source line $((decl + n))"
done || exit 1
info "-L compute: lines $got, as in the source"

if [ -x "${PERF_REF:-}" ]; then
	for B in O0 O2; do
		for f in compute main plen weigh negs bump diffs; do
			"$PERF" probe -x "$WORKLOADS/dwarf_vars_$B" -L $f > ours.txt 2>&1
			"$PERF_REF" probe -x "$WORKLOADS/dwarf_vars_$B" -L $f > ref.txt 2>&1
			diff ref.txt ours.txt > /dev/null || { diff ref.txt ours.txt; fail "$B -L $f differs from perf 6.1"; }
		done
	done
	info "-L output equals perf 6.1's for 7 functions in both builds"
	# FUNC@FILE (the file by its base name and by a path suffix)
	for f in compute@dwarf_vars.c weigh@workloads/dwarf_vars.c compute@dwarf_vars.c:2 compute:2 dwarf_vars.c:40 dwarf_vars.c:40-45; do
		"$PERF" probe -x "$WORKLOADS/dwarf_vars_O0" -L $f > ours.txt 2>&1
		"$PERF_REF" probe -x "$WORKLOADS/dwarf_vars_O0" -L $f > ref.txt 2>&1
		diff ref.txt ours.txt > /dev/null || { diff ref.txt ours.txt; fail "-L $f differs from perf 6.1"; }
	done
	info "-L FUNC@FILE, FUNC:START and FILE:START[-END] equal perf 6.1's"
	# -V at -O2: variables optimised out there are left out, as perf 6.1 does
	for f in compute negs; do
		"$PERF" probe -x "$WORKLOADS/dwarf_vars_O2" -V $f > ours.txt 2>&1
		"$PERF_REF" probe -x "$WORKLOADS/dwarf_vars_O2" -V $f > ref.txt 2>&1
		diff ref.txt ours.txt > /dev/null || { diff ref.txt ours.txt; fail "-V $f at -O2 differs from perf 6.1"; }
	done
	info "-V at -O2 leaves out what is optimised out, as perf 6.1"
fi

# -V: the variables the source declares there, with their types
vars() { "$PERF" probe -x "$1" -V "$2" 2> err.txt | awk -F'\t' 'NF == 4 && $3 !~ /^\(/ {print $3 " " $4}' | sort | tr '\n' ','; }
v=$(vars "$BIN" compute:4)
[ "$v" = "int a,int b,int prod,int res,int sum," ] || fail "-V compute:4 at -O0: $v"
v=$(vars "$BIN" main:7)
[ "$v" = "char** argv,int argc,int i,int n,long int acc,struct point p,struct rec r," ] || fail "-V main:7 at -O0: $v"
"$PERF" probe -x "$BIN" -V compute > V.txt 2>&1
head -2 V.txt | tr '\n' '|' | grep -qx 'Available variables at compute|	@<compute+0>|' || { cat V.txt; fail "-V shape"; }

BIN="$WORKLOADS/dwarf_vars_O2"
# the constant parameter of the inlined copy (perf 6.1 leaves it out)
v=$(vars "$BIN" scale)
echo "$v" | grep -q "int factor," || fail "-V scale at -O2 misses the constant factor: $v"
"$PERF" probe -x "$BIN" -V scale | grep -q '@<main+[0-9]*>' || fail "-V scale: the inline site is not named by its caller"
# computed variables are marked with why, not listed as fetchable
"$PERF" probe -x "$BIN" -V "dwarf_vars.c:$(dv_line diffs)" > V.txt 2>&1
grep -q "not fetchable: computed as .*int	d$" V.txt || { cat V.txt; fail "-V: d not marked computed"; }
grep -q "^		int	a$" V.txt || fail "-V: a missing"
# --externs adds the globals
"$PERF" probe -x "$BIN" -V bump --externs | grep -q "signed char	g_s8" || fail "--externs: no g_s8"
info "-V lists the source's variables; inlined constant and computed variables handled"
exit 0
