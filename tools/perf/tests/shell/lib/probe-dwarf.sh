# Helpers for the probe-dwarf-*.sh tests (source after common.sh).
# DV_SRC: the workload source; dv_line TAG: the line marked /* LINE:TAG */.
DV_SRC="$TOP/tools/perf/tests/workloads/dwarf_vars.c"
dv_line() { grep -n "LINE:$1 " "$DV_SRC" | cut -d: -f1; }

# Every uprobe of group $DV_GROUP is removed on exit, whatever happens.
DV_GROUP="pdw$$"
dv_cleanup() {
	local t
	t=$(tracefs_dir) || return 0
	grep -o "^[pr]:$DV_GROUP[A-Za-z0-9_]*/[^ ]*" "$t/uprobe_events" 2>/dev/null | sed 's/^[pr]:/-:/' |
		while read -r d; do echo "$d" >> "$t/uprobe_events"; done
}

# The "k=v" values of program lines "WORD k=v ..." for the keys given: dv_expect OUT WORD keys...
dv_expect() {
	local out=$1 word=$2
	shift 2
	awk -v w="$word" -v keys="$*" '
		$1 == w {
			n = split(keys, k, " "); s = ""
			for (i = 1; i <= n; i++)
				for (f = 2; f <= NF; f++) { split($f, kv, "="); if (kv[1] == k[i]) s = s (s ? " " : "") $f }
			print s
		}' "$out"
}

# The args of event G:E in perf script output, quotes of strings removed: dv_got SCRIPT G:E
dv_got() {
	grep " $2: " "$1" | sed -e 's/^.*) //' -e 's/"//g'
}
