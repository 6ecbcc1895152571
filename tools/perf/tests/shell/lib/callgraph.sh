# Helpers for the call-graph tests (sourced after common.sh).

# chain_share FILE LEAF CALLER...: reads `perf script` output (a header line
# per sample, then one frame per line: addr sym+off (dso)) and prints
# "<matching> <total>": total = samples whose first frame is LEAF, matching =
# those whose next frames are exactly the CALLERs in order. "(inlined)"
# frames of perf 6.1 are skipped so both tools are counted the same way.
# Symbols may contain spaces (Java signatures): one argument per symbol.
chain_share() {
	local file=$1 IFS='|'; shift
	awk -v want="$*" '
	function flush() {
		if (n > 0 && f[1] == w[1]) {
			total++
			ok = 1
			for (i = 2; i <= nw; i++) if (f[i] != w[i]) ok = 0
			if (ok) match_++
		}
		n = 0
	}
	BEGIN { nw = split(want, w, "|") }
	/^[^ \t]/ { flush(); next }
	/^$/ { flush(); next }
	/^\t/ {
		if ($0 ~ /\(inlined\)/) next
		s = $0; sub(/^[ \t]*[0-9a-f]+ /, "", s); sub(/ \([^()]*\)$/, "", s)
		sub(/\+0x[0-9a-f]+$/, "", s)
		f[++n] = s
	}
	END { flush(); printf "%d %d\n", match_ + 0, total + 0 }' "$file"
}

# share_ok MATCH TOTAL PERCENT: MATCH/TOTAL >= PERCENT% and TOTAL > 0
share_ok() {
	[ "$2" -gt 0 ] && [ $(( $1 * 100 )) -ge $(( $2 * $3 )) ]
}

# first_callers FILE PREFIX NATIVE: for the samples of `perf script` output
# FILE whose leaf frame starts with PREFIX, prints "count<TAB>leaf <- caller"
# lines (most first), then "TOTAL<TAB>samples<TAB>reaching NATIVE" where the
# latter counts chains that contain the frame NATIVE somewhere above the leaf.
first_callers() {
	awk -v prefix="$2" -v native="$3" '
	function flush() {
		if (n > 0 && index(f[1], prefix) == 1) {
			total++
			callers[f[1] " <- " (n > 1 ? f[2] : "(none)")]++
			for (i = 2; i <= n; i++) if (f[i] == native) { reach++; break }
		}
		n = 0
	}
	/^[^ \t]/ || /^$/ { flush(); next }
	/^\t/ {
		if ($0 ~ /\(inlined\)/) next
		s = $0; sub(/^[ \t]*[0-9a-f]+ /, "", s); sub(/ \([^()]*\)$/, "", s)
		sub(/\+0x[0-9a-f]+$/, "", s)
		f[++n] = s
	}
	END { flush(); for (k in callers) printf "%d\t%s\n", callers[k], k
		printf "TOTAL\t%d\t%d\n", total, reach }' "$1" | sort -t'	' -k1,1nr
}
