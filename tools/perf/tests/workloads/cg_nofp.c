// SPDX-License-Identifier: MIT
/*
 * A known call tree for call-graph tests: main -> cg_a -> cg_b -> cg_leaf,
 * built without frame pointers (cg_nofp.mk) so only DWARF unwinding can
 * recover the callers of the leaf. noinline + a volatile sink keep every
 * level a real frame at -O2. Runs for argv[1] seconds (default 1).
 */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) void cg_leaf(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7 + (sink >> 3);
}

__attribute__((noinline)) void cg_b(unsigned long n)
{
	cg_leaf(n);
	sink++;
}

__attribute__((noinline)) void cg_a(unsigned long n)
{
	cg_b(n);
	sink++;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	double end = now() + secs;

	while (now() < end)
		cg_a(200000);
	return 0;
}
