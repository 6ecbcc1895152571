// SPDX-License-Identifier: MIT
/*
 * Calls tp_signed_args() with negative values of every signed width, so a
 * uprobe with :s8/:s16/:s32/:s64 fetchargs on its argument registers sees
 * them. argv[1] = number of calls (default 3).
 */
#include <stdio.h>
#include <stdlib.h>

volatile long tp_signed_sink;

__attribute__((noinline, noipa)) void tp_signed_args(signed char a, short b, int c, long d)
{
	tp_signed_sink += a + b + c + d;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;

	for (int i = 0; i < n; i++)
		tp_signed_args((signed char)(-5 - i), (short)(-300 - i), -70000 - i, -5000000000L - i);
	/* and the extremes, which would show a one-off sign extension */
	tp_signed_args(-128, -32768, -2147483647 - 1, -9223372036854775807L - 1);
	tp_signed_args(127, 32767, 2147483647, 9223372036854775807L);
	printf("%ld\n", tp_signed_sink);
	return 0;
}
