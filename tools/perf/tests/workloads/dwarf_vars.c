// SPDX-License-Identifier: MIT
/*
 * Workload for the DWARF probe tests: every function prints the values its
 * parameters and locals take, so a probe's fetched values can be checked
 * against the program's own output. Built at -O0 and -O2 (dwarf_vars.mk).
 * The "LINE:" comments name lines the tests probe; tests find them by grep.
 */
#include <stdio.h>
#include <stdlib.h>

struct point {
	int x;
	int y;
};

struct rec {
	int id;
	long weight;
	const char *name;
};

int g_counter = 5;
long g_total;
signed char g_s8 = -5;
short g_s16 = -300;

#define NOIPA __attribute__((noipa))

static inline __attribute__((always_inline)) int scale(int v, int factor)
{
	int scaled = v * factor; /* LINE:scale */
	printf("scale v=%d factor=%d scaled=%d\n", v, factor, scaled);
	return scaled;
}

NOIPA int compute(int a, int b)
{
	int sum = a + b;
	int prod = a * b;
	int res = sum + prod; /* LINE:compute_res */
	printf("compute a=%d b=%d sum=%d prod=%d res=%d\n", a, b, sum, prod, res);
	return res;
}

NOIPA long plen(struct point p)
{
	long r = (long)p.x * p.x + (long)p.y * p.y; /* LINE:plen */
	printf("plen x=%d y=%d r=%ld\n", p.x, p.y, r);
	return r;
}

NOIPA int negs(signed char c, short s)
{
	int t = c + s; /* LINE:negs */
	printf("negs c=%d s=%d t=%d\n", c, s, t);
	return t;
}

NOIPA long weigh(struct rec *r)
{
	long w = r->weight * 2; /* LINE:weigh */
	printf("weigh id=%d weight=%ld name=%s w=%ld\n", r->id, r->weight, r->name, w);
	return w;
}

NOIPA int bump(int by)
{
	g_counter += by; /* LINE:bump */
	g_total += g_counter; /* LINE:bump_total */
	printf("bump by=%d g_counter=%d g_total=%ld g_s8=%d g_s16=%d\n", by, g_counter, g_total,
	       g_s8, g_s16);
	return g_counter;
}

NOIPA int diffs(int a, int b)
{
	int d = a - b;
	int e = a + 7;
	/* d and e are dead after this call: -O2 describes them by expressions */
	printf("diffs a=%d b=%d\n", a, b); /* LINE:diffs */
	return a * b + d * 0 + e * 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	long acc = 0;

	for (int i = 1; i <= n; i++) {
		struct point p = { i, -2 * i };
		struct rec r = { 100 + i, 1000L * i, "rec" };

		acc += compute(i, 10 * i);
		acc += scale(i, 3); /* LINE:main_scale */
		acc += plen(p);
		acc += negs((signed char)-i, (short)(-300 * i));
		acc += weigh(&r);
		acc += bump(i);
		acc += diffs(20 * i, i);
	}
	printf("acc=%ld\n", acc);
	return 0;
}
