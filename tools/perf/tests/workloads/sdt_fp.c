// SPDX-License-Identifier: MIT
/*
 * SDT floating-point arguments (8f@, 4f@) in frame slots (mem), %rip
 * globals (glob) and registers (reg, i times mem's values for i = 0..2):
 * with no argument, mem passes 1.5 and -2.25. Built at -O0 and -O2
 * (sdt_fp.mk), where gcc picks the operand forms differently.
 */
#include <sys/sdt.h>

volatile double gd = 2.5;
volatile float gf = 1.25f;

int main(int argc, char **argv)
{
	volatile double d = 1.5 * argc;
	volatile float f = -2.25f * argc;

	(void)argv;
	for (int i = 0; i < 3; i++) {
		double x = d * i;
		float y = f * i;

		DTRACE_PROBE2(fp, mem, d, f);
		DTRACE_PROBE2(fp, glob, gd, gf);
		DTRACE_PROBE2(fp, reg, x, y);
	}
	return 0;
}
