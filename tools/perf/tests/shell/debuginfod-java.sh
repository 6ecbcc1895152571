#!/bin/bash
# debuginfod: Java recorded and injected on host A; host B has only the injected perf.data and a debuginfod -F over A's dump directory: the same top Java rows (and none without the server); two injects of one dump give identical build-ids
. "$TOP/tools/perf/tests/shell/lib/jvmti.sh"
. "$TOP/tools/perf/tests/shell/lib/debuginfod.sh"
need_jvmti
need_cmd debuginfod python3
trap 'dbgd_stop; jvmti_cleanup' EXIT

# java rows of a report, summed by method (a method compiled twice is two rows)
java_rows() {
	grep 'jitted-' "$1" | sed 's/^ *\([0-9.]*\)% *[^ ]*jitted-[^ ]* *\[\.\] *\(.*\)$/\1\t\2/' |
		awk -F '\t' '{ s[$2] += $1 } END { for (k in s) printf "%6.2f%% %s\n", s[k], k }' | sort -rn | head -10
}

host A
"$PERF" record -q -k mono -e cpu-clock -o java.data -- \
	$JAVA -agentpath:"$AGENT"=dir="$PWD/dumpA" -cp "$JAVA_CLASSES" JvmtiHot 2 > java.out 2> java.err ||
	fail "record java: $(tail -3 java.err)"
find_dump dumpA > /dev/null
"$PERF" inject --jit -i java.data -o java.jit 2> inject.err || fail "inject: $(cat inject.err)"
"$PERF" inject --jit -i java.data -o java2.jit 2> inject2.err || fail "second inject: $(cat inject2.err)"
"$PERF" buildid-list -i java.jit | grep jitted- | sort > bids1.txt
"$PERF" buildid-list -i java2.jit | grep jitted- | sort > bids2.txt
[ -s bids1.txt ] || fail "no jitted ELF build-ids in the injected file"
diff bids1.txt bids2.txt > /dev/null || { diff bids1.txt bids2.txt | head; fail "two injects of one dump: different build-ids"; }
info "two injects: the same $(wc -l < bids1.txt) jitted build-id(s)"
"$PERF" report -i java.jit --stdio --sort dso,sym > a.txt 2> /dev/null || fail "report on A"
java_rows a.txt > a.rows
grep -q 'JvmtiHot.spin' a.rows || fail "A: JvmtiHot.spin not named: $(head -3 a.rows)"
"$PERF" report -i java.jit --stdio --sort sym,srcline 2> /dev/null | grep 'JvmtiHot\.java:' > a.lines
[ -s a.lines ] || fail "A: no JvmtiHot.java:N lines"
# perf 6.1's layout too: one ELF per function, many build-ids to fetch
"$PERF" inject --jit --jit-elf-per-function -i java.data -o pf.jit 2> inject.err || fail "inject per function: $(cat inject.err)"
"$PERF" buildid-list -i pf.jit | grep jitted- > pf.bids
"$PERF" report -i pf.jit --stdio --sort dso,sym > a-pf.txt 2> /dev/null || fail "report on A (per function)"
java_rows a-pf.txt > a-pf.rows

# the dump directory moves to the server; nothing of it stays where A had it
mkdir served && mv dumpA served/
host B
"$PERF" report -i java.jit --stdio --sort dso,sym > b-none.txt 2> /dev/null || fail "report on B without a server"
java_rows b-none.txt | grep -q 'JvmtiHot' && fail "B names Java methods without a server?"
dbgd_start dbgd served
for bid in $(awk '{ print $1 }' bids1.txt); do dbgd_wait "$bid" executable; done
DEBUGINFOD_URLS="$DBGD_URL" "$PERF" report -i java.jit --stdio --sort dso,sym > b.txt 2> b.err ||
	{ cat b.err; fail "report on B"; }
grep -q Warning b.err && { cat b.err; fail "B: warnings"; }
java_rows b.txt > b.rows
diff a.rows b.rows || fail "top Java rows on B differ from A"
info "B through debuginfod: same top Java rows ($(head -1 b.rows))"
"$PERF" report -i java.jit --stdio --sort sym,srcline 2> /dev/null | grep 'JvmtiHot\.java:' > b.lines
diff a.lines b.lines > /dev/null || fail "B: Java source lines differ from A"
for bid in $(awk '{ print $1 }' pf.bids); do dbgd_wait "$bid" executable; done
host B2
DEBUGINFOD_URLS="$DBGD_URL" "$PERF" report -i pf.jit --stdio --sort dso,sym > b-pf.txt 2> b-pf.err ||
	{ tail b-pf.err; fail "report on B (per function)"; }
grep -q Warning b-pf.err && { grep Warning b-pf.err | head -3; fail "B (per function): warnings"; }
java_rows b-pf.txt > b-pf.rows
diff a-pf.rows b-pf.rows || fail "per function: top Java rows on B differ from A"
[ "$(grep -c '^debuginfod: fetching the executable' b-pf.err)" -le "$(wc -l < pf.bids)" ] || fail "asked more than once per build-id"
info "B, one ELF per function: same top Java rows, $(grep -c '^debuginfod: fetching the executable' b-pf.err) of $(wc -l < pf.bids) jitted ELFs fetched"
exit 0
