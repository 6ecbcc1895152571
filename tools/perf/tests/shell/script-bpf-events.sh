#!/bin/bash
# KSYMBOL/BPF_EVENT: samples in a BPF program loaded by bpftrace during a perf 6.1 -a recording are named like perf 6.1 names them; --show-bpf-events lines identical; programs loaded before our record are synthesized like perf 6.1 does
. "$TOP/tools/perf/tests/shell/lib/common.sh"
need_ref_perf
need_root
need_cmd bpftrace dd timeout
use_private_home

# A tracepoint program on every syscall, loaded while perf 6.1 records the
# whole system; dd's one-byte reads make it run hot enough to be sampled.
prog='tracepoint:raw_syscalls:sys_enter { @[comm, tid, args->id] = count(); @h = hist(args->args[0]); } interval:ms:2000 { exit(); }'
"$PERF_REF" record -q -B -a -e cpu-clock -o bpf.data -- sh -c "
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

# Programs already loaded when recording starts: KSYMBOL and BPF_EVENT are
# synthesized at the start (perf 6.1 does it from bpf(2)); both perfs
# record while the same program is loaded and must list it the same way.
timeout 30 bpftrace -e "${prog/interval:ms:2000/interval:ms:25000}" > bt2.out 2>&1 &
bt=$!
for i in $(seq 100); do grep -q 'Attaching' bt2.out 2>/dev/null && break; sleep 0.1; done
grep -q 'Attaching' bt2.out || { kill $bt; fail "bpftrace did not load a second time: $(head -3 bt2.out)"; }
"$PERF_REF" record -q -B -a -e cpu-clock -o pre-ref.data -- timeout 1 dd if=/dev/zero of=/dev/null bs=1 2>/dev/null
"$PERF" record -q -a -e cpu-clock -o pre-our.data -- timeout 1 dd if=/dev/zero of=/dev/null bs=1 2>/dev/null
kill $bt 2>/dev/null
wait $bt 2>/dev/null
synth() { "$PERF_REF" script -i "$1" --show-bpf-events 2>/dev/null | grep ' 0\.000000: PERF_RECORD_' | sort; }
synth pre-ref.data > pre-ref.txt
synth pre-our.data > pre-our.txt
grep -q 'KSYMBOL.*name bpf_prog_[0-9a-f]*_sys_enter' pre-ref.txt || fail "perf 6.1 synthesized no KSYMBOL for the loaded program"
diff pre-ref.txt pre-our.txt || fail "the synthesized KSYMBOL/BPF_EVENT records differ from perf 6.1's"
info "$(grep -c KSYMBOL pre-our.txt) loaded programs synthesized as perf 6.1 does"
"$PERF_REF" script -i pre-our.data 2>/dev/null | grep -q '(bpf_prog_[0-9a-f]*_sys_enter)' ||
	info "no sample of our recording landed in the program (naming checked above)"
exit 0
