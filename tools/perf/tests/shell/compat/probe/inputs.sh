# Inputs of the probe matrix, sourced by probe-matrix.sh. Each input_NAME
# writes $CM_DIR/NAME (cwd $CM_DIR): copies of the test workloads, so the
# uprobes and cache entries of a row name a path only this run uses.

cm_copy() {  # workload name
	[ -x "$WORKLOADS/$1" ] || { echo "workload $1 not built"; return 1; }
	cp "$WORKLOADS/$1" "$2"
}

# SDT markers of every integer width and sign, semaphores, a string
input_sdt() { cm_copy sdt_test sdt; }
# SDT operand forms perf 6.1 gets wrong or skips (constants, %rip globals, %ah, wide)
input_quirks() { cm_copy sdt_quirks quirks; }
# DWARF at -O0 and -O2, and the -O0 build stripped of everything
input_dwarf0() { cm_copy dwarf_vars_O0 dwarf0; }
input_dwarf2() { cm_copy dwarf_vars_O2 dwarf2; }
input_stripped() { cm_copy dwarf_vars_O0 stripped && strip --strip-all stripped; }

# a small SDT program: clash.c VALUE OUT
cm_sdt_prog() {
	cat > "$1.c" <<C
#include <sys/sdt.h>
int main(int argc, char **argv) { int v = $2 + argc; DTRACE_PROBE1(clash, ev, v); return 0; }
C
	gcc -O1 -g -o "$3" "$1.c"
}

# two binaries with one provider (A), and two builds of one binary (B)
input_clash() {
	mkdir -p clash && cm_sdt_prog clash/a 1 clash/binA && cm_sdt_prog clash/b 2 clash/binB &&
		cm_sdt_prog clash/v1 3 clash/bin.v1 && cm_sdt_prog clash/v2 4 clash/bin.v2
}

# a truncated ELF and one whose section table points past its end
input_trunc() { cm_copy sdt_test full && head -c 3000 full > trunc && rm full; }
input_shoff() {
	cm_copy sdt_test shoff && python3 - <<'PY'
import struct
d = bytearray(open('shoff', 'rb').read())
struct.pack_into('<Q', d, 0x28, len(d) + 4096)
open('shoff', 'wb').write(d)
PY
}

# SDT floating-point arguments (8f@, 4f@) in registers, frame slots and %rip globals
input_fp0() { cm_copy sdt_fp_O0 fp0; }
input_fp2() { cm_copy sdt_fp_O2 fp2; }

# SDT notes whose .stapsdt.base moved (sdt-shifted-base.sh): notes made for
# an image 1 MiB higher, and the base section moved alone by objcopy
input_rebased() {
	cm_copy sdt_test rebased.in && python3 "$TOP/tools/perf/tests/shell/lib/sdt-rebase.py" rebased.in rebased -0x100000 &&
		chmod +x rebased && rm rebased.in
}
input_shifted() {
	cm_copy sdt_test shifted.in && objcopy --change-section-address .stapsdt.base+0x1000 shifted.in shifted 2>/dev/null &&
		rm shifted.in
}
