#!/bin/bash
# script report flamegraph: Java methods the JIT inlined are frames of their own (--inline), with the File.java:LINE the page's tooltip shows
. "$TOP/tools/perf/tests/shell/jvmti-lib.sh"
. "$TOP/tools/perf/tests/shell/lib/callgraph-java.sh"
. "$TOP/tools/perf/tests/shell/lib/flamegraph.sh"
need_cgjava
need_flamegraph_libs
use_private_home
err=0

src="$TOP/tools/perf/tests/workloads/java/CgJava.java"
hb=$(grep -n 'HOT-BEGIN$' "$src" | cut -d: -f1)
he=$(grep -n 'HOT-END$' "$src" | cut -d: -f1)
call=$(grep -n 'return hot(seed' "$src" | cut -d: -f1)
[ -n "$hb" ] && [ -n "$he" ] && [ -n "$call" ] || fail "markers missing in $src"

# no dontinline this time: C2 inlines hot into middle into outer
"$PERF" record -q -k mono -e cpu-clock -g -o perf.data -- \
	"$JAVA" -XX:+PreserveFramePointer -agentpath:"$AGENT" -cp "$JAVA_CLASSES" CgJava 2 > java.out 2> java.err ||
	fail "record failed: $(tail -3 java.err)"
"$PERF" inject --jit -i perf.data -o jit.data 2> inject.err || fail "inject failed: $(tail -3 inject.err)"
"$PERF" script report flamegraph -i jit.data --format json --inline -o inline.json > /dev/null 2>&1 ||
	fail "--inline json failed"
"$PERF" script report flamegraph -i jit.data --format json -o plain.json > /dev/null 2>&1 || fail "json failed"
"$PERF" script report flamegraph -i jit.data -o fg.html > /dev/null 2> report.err ||
	fail "html failed: $(head -3 report.err)"

# samples whose stack has outer -> middle -> hot as consecutive frames
count_chain() {
	python3 -c '
import json, sys
want = ["CgJava.outer(long)", "CgJava.middle(long)", "CgJava.hot(long, int)"]
hits = total = 0
stack = [(json.load(open(sys.argv[1])), [])]
while stack:
    n, path = stack.pop()
    path = path + [n["n"]]
    total += n["v"]
    if n["v"] and any(path[i:i + 3] == want for i in range(len(path))):
        hits += n["v"]
    stack += [(c, path) for c in n["c"]]
print(hits, total)' "$1"
}
read -r with total < <(count_chain inline.json)
read -r without _ < <(count_chain plain.json)
info "outer -> middle -> hot in $with of $total samples with --inline, in $without without"
[ "$with" -ge 200 ] && [ "$with" -gt $((without * 2)) ] ||
	{ echo "the inlined middle and hot are not frames of their own"; err=1; }

# the page's data: where hot's samples fell, and the line middle calls hot from
python3 - "$hb" "$he" "$call" > lines.txt <<'EOF' || { cat lines.txt; err=1; }
import json, re, sys
hb, he, call = map(int, sys.argv[1:4])
page = open("fg.html", encoding="utf-8").read()
data = json.loads(re.search(r'<script id="fg-data" type="application/json">(.*?)</script>', page, re.S).group(1))
best = {}
stack = [data["tree"]]
while stack:
    n = stack.pop()
    for line, count in n.get("s", []):
        key = (n["n"], n["k"], line)
        best[key] = best.get(key, 0) + count
    stack += n.get("c", [])
def top(name, kinds):
    c = [(v, k[2]) for k, v in best.items() if k[0] == name and k[1] in kinds]
    return max(c)[1] if c else None
hot = top("CgJava.hot(long, int)", (2, 3))
mid = top("CgJava.middle(long)", (3,))
print("hot:", hot, "middle (inlined):", mid)
ok = hot and hot.startswith("CgJava.java:") and hb < int(hot.split(":")[1]) < he
ok = ok and mid == "CgJava.java:%d" % call
sys.exit(0 if ok else 1)
EOF
# --max-stack cuts the outermost callers, as perf's does; identical stacks merge
"$PERF" script report stackcollapse -i jit.data --max-stack 3 > cut.folded 2>&1 || fail "--max-stack 3 failed"
sed 's/ [0-9]*$//' cut.folded > cut.stacks
awk '{ n = split($0, f, ";"); if (n > 4) { print "deeper than the command + 3 frames: " $0; exit 1 } }' cut.stacks ||
	err=1
grep -q ';.*;.*;' cut.stacks || { echo "no stack of 3 frames left"; err=1; }
[ "$(sort cut.stacks | uniq -d | wc -l)" = 0 ] || { echo "stacks not merged"; err=1; }
info "most frequent source lines: $(cat lines.txt) (hot is lines $hb-$he, the call in middle line $call)"
exit $err
