#!/bin/bash
# SDT floating-point arguments (8f@, 4f@): fetched as raw bits like perf 6.1, shown by perf script as the floats the program passed; perf 6.1 reads the same bits from our file
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_root
need_cmd python3
T=$(tracefs_dir) || skip "no tracefs"
use_private_home
trap '"$PERF" probe -q -d "sdt_fp:*" >/dev/null 2>&1' EXIT
# sdt_fp (workloads/sdt_fp.c): mem passes 1.5 and -2.25 from frame slots, glob
# %rip globals, reg registers (i times mem's values, i = 0..2)
cat > want.txt <<'W'
sdt_fp:mem: arg1=1.5 arg2=-2.25
sdt_fp:glob: arg1=2.5 arg2=1.25
sdt_fp:reg: arg1=0 arg2=-0
sdt_fp:mem: arg1=1.5 arg2=-2.25
sdt_fp:glob: arg1=2.5 arg2=1.25
sdt_fp:reg: arg1=1.5 arg2=-2.25
sdt_fp:mem: arg1=1.5 arg2=-2.25
sdt_fp:glob: arg1=2.5 arg2=1.25
sdt_fp:reg: arg1=3 arg2=-4.5
W
# the event name and its arguments, without the probe's address
fields() { sed -n 's/^ *\(sdt_fp:[a-z]*:\) ([0-9a-f]*)/\1/p'; }
for o in O0 O2; do
	cp "$WORKLOADS/sdt_fp_$o" fp$o || skip "sdt_fp_$o not built"
	readelf -n fp$o | grep -q '8f@' || skip "gcc wrote no 8f@ operand"
	"$PERF" buildid-cache -a ./fp$o 2> err.txt || { cat err.txt; fail "buildid-cache -a"; }
	"$PERF" record -q -o fp$o.data -e 'sdt_fp:*' -- ./fp$o 2> err.txt || { cat err.txt; fail "record"; }
	"$PERF" script -i fp$o.data -F event,trace 2> /dev/null | fields > got$o.txt
	diff want.txt got$o.txt || fail "-$o: perf script shows other values than the program passed"
	if [ -x "${PERF_REF:-}" ]; then
		# perf 6.1 prints the bits as integers: they must be those of the same floats
		"$PERF_REF" script -i fp$o.data -F event,trace 2> /dev/null | fields | python3 -c '
import struct, sys
for line in sys.stdin:
    out = []
    for w in line.split():
        if w.startswith("arg1="):
            w = "arg1=%r" % struct.unpack("<d", struct.pack("<Q", int(w[5:])))[0]
        elif w.startswith("arg2="):
            w = "arg2=%r" % struct.unpack("<f", struct.pack("<I", int(w[5:])))[0]
        out.append(w.replace(".0 ", " ").removesuffix(".0") if w.startswith("arg") else w)
    print(" ".join(out))' > ref$o.txt
		diff want.txt ref$o.txt || fail "-$o: perf 6.1 reads other bits from our file"
	fi
	"$PERF" buildid-cache -r ./fp$o > /dev/null 2>&1
done
grep -q "^p:sdt_fp/" "$T/uprobe_events" && fail "uprobes left behind"
info "floats shown as passed at -O0 and -O2 (frame slots, %rip globals, registers)${PERF_REF:+; perf 6.1 reads the same bits}"
exit 0
