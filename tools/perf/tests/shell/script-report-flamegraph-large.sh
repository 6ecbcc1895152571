#!/bin/bash
# script report flamegraph: a 50 MB system-wide -g recording merges into a page of bounded size that Chromium draws
. "$TOP/tools/perf/tests/shell/lib/common.sh"
. "$TOP/tools/perf/tests/shell/lib/flamegraph.sh"
need_root
need_chromium
need_flamegraph_libs
use_private_home
err=0

# 50 MB quickly: every CPU at a high rate; perf 6.1 can stop at a size, we stop at a time
if [ -n "${PERF_REF:-}" ] && [ -x "$PERF_REF" ]; then
	"$PERF_REF" record -q -a -g -F 20000 --max-size=50M -o big.data -- sleep 30 > record.out 2>&1
else
	"$PERF" record -q -a -g -F 20000 -o big.data -- sleep 12 > record.out 2>&1
fi
[ -s big.data ] || fail "recording failed: $(tail -3 record.out)"
mb=$(( $(stat -c %s big.data) / 1048576 ))
info "recording: $mb MB"
[ "$mb" -ge 40 ] || info "recording smaller than 50 MB (an idle machine gives shorter stacks)"

"$PERF" script report flamegraph -i big.data -o big.html > report.out 2> report.err ||
	fail "flamegraph failed: $(head -3 report.err)"
"$PERF" script report flamegraph -i big.data --format json -o big.json > /dev/null 2>&1 || fail "json failed"
page_kb=$(( $(stat -c %s big.html) / 1024 ))
json_kb=$(( $(stat -c %s big.json) / 1024 ))
info "page: $page_kb KB; perf's JSON of every frame: $json_kb KB"
# identical stacks merged, frames too small to see left out of the page
[ "$page_kb" -le 8192 ] || { echo "page of $page_kb KB from $mb MB: frames not merged or not pruned"; err=1; }
python3 "$FG_CHECK" no-network big.html > net.txt || { cat net.txt; err=1; }

chromium_headless --dump-dom "file://$PWD/big.html" > dom.html || fail "chromium failed: $(tail -3 chromium.err)"
body=$(grep -o '<body [^>]*>' dom.html)
frames=$(echo "$body" | sed -n 's/.*data-frames="\([0-9]*\)".*/\1/p')
ms=$(echo "$body" | sed -n 's/.*data-rendered-ms="\([0-9]*\)".*/\1/p')
[ -n "$frames" ] && [ -n "$ms" ] || fail "the page's script did not finish: $body"
info "Chromium drew $frames frames, $ms ms after the page began to load (load average $(cut -d' ' -f1 /proc/loadavg))"
[ "$frames" -ge 50 ] && [ "$frames" -le 20000 ] || { echo "$frames frames drawn"; err=1; }
python3 "$FG_CHECK" dom-names dom.html | grep -x all > /dev/null || { echo "no root frame drawn"; err=1; }
exit $err
