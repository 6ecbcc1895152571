#!/bin/bash
# KSYMBOL/BPF_EVENT: samples in a BPF program loaded by bpftrace during a perf 6.1 -a recording are named like perf 6.1 names them; --show-bpf-events lines identical
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
need_root
need_cmd bpftrace dd timeout
use_private_home

# A tracepoint program on every syscall, loaded while perf 6.1 records the
# whole system; dd's one-byte reads make it run hot enough to be sampled.
prog='tracepoint:raw_syscalls:sys_enter { @[comm, tid, args->id] = count(); @h = hist(args->args[0]); } interval:ms:2000 { exit(); }'
"$PERF_REF" record -q -a -e cpu-clock -o bpf.data -- sh -c "
	timeout 10 bpftrace -e '$prog' > bt.out 2>&1 &
	for i in \$(seq 50); do grep -q 'Attaching' bt.out 2>/dev/null && break; sleep 0.1; done
	timeout 1.5 dd if=/dev/zero of=/dev/null bs=1 2>/dev/null
	wait" 2>/dev/null || fail "perf 6.1 record -a"
grep -q 'Attaching' bt.out || skip "bpftrace could not load a program here: $(head -3 bt.out)"

"$PERF_REF" script -i bpf.data --show-bpf-events > ref.txt 2>/dev/null || fail "perf 6.1 script --show-bpf-events"
"$PERF" script -i bpf.data --show-bpf-events > our.txt 2> our.err || { cat our.err; fail "our script --show-bpf-events"; }
nk=$(grep -c 'PERF_RECORD_KSYMBOL' ref.txt)
nb=$(grep -c 'PERF_RECORD_BPF_EVENT' ref.txt)
[ "$nk" -ge 2 ] && [ "$nb" -ge 2 ] || fail "perf 6.1 shows $nk KSYMBOL and $nb BPF_EVENT lines"
# the side-band lines, in place among the samples: same line numbers, same text
diff <(grep -n 'PERF_RECORD_' ref.txt) <(grep -n 'PERF_RECORD_' our.txt) > diff-events.txt ||
	{ head -20 diff-events.txt; fail "--show-bpf-events lines differ from perf 6.1"; }
info "$nk KSYMBOL and $nb BPF_EVENT lines identical"
# samples in BPF code: named by the program, like perf 6.1
grep ' bpf_prog_[0-9a-f]*_' ref.txt | grep -v PERF_RECORD > ref-bpf.txt
grep ' bpf_prog_[0-9a-f]*_' our.txt | grep -v PERF_RECORD > our-bpf.txt
nbpf=$(grep -c '(bpf_prog_' ref-bpf.txt)
[ "$nbpf" -ge 1 ] || skip "no sample landed in the BPF program (perf 6.1 names none)"
diff ref-bpf.txt our-bpf.txt > diff-bpf.txt || { head -20 diff-bpf.txt; fail "samples in BPF code differ"; }
info "$nbpf samples in BPF programs named as perf 6.1 names them"
# without the option no side-band line is printed
"$PERF" script -i bpf.data | grep -q PERF_RECORD_ && fail "side-band lines printed without --show-bpf-events"
# report: the program is its own DSO and symbol
"$PERF_REF" report -i bpf.data --stdio --sort dso,sym 2>/dev/null | grep '\[k\] bpf_prog_' > ref-rep.txt
"$PERF" report -i bpf.data --stdio --sort dso,sym 2>/dev/null | grep '\[k\] bpf_prog_' > our-rep.txt
[ -s ref-rep.txt ] || fail "perf 6.1 report shows no BPF program"
diff ref-rep.txt our-rep.txt || fail "report rows of BPF programs differ"
exit 0
