// SPDX-License-Identifier: MIT
/*
 * Functions with known names for symbol tests: global, static, one with an
 * inlined callee. Usage: sym_funcs [MILLISECONDS] (default: return at once).
 */
#include <stdlib.h>
#include <time.h>

volatile long sym_sink;

__attribute__((noinline)) long sym_global_one(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += i ^ (s >> 3);
	return s;
}

__attribute__((noinline)) static long sym_static_two(long n)
{
	long s = 1;

	for (long i = 0; i < n; i++)
		s = s * 3 + i;
	return s;
}

static inline __attribute__((always_inline)) long sym_inlined(long x)
{
	sym_sink += x * 7;
	return sym_sink;
}

__attribute__((noinline)) long sym_caller(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += sym_inlined(i);
	return s;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double end = now_ms() + (argc > 1 ? atof(argv[1]) : 0);

	do {
		sym_sink += sym_global_one(100000);
		sym_sink += sym_static_two(100000);
		sym_sink += sym_caller(100000);
	} while (now_ms() < end);
	return 0;
}
