// SPDX-License-Identifier: MIT
/*
 * A CPU-bound workload with a known profile: three leaf functions taking
 * roughly 4:2:1 of the time, called through a two-level chain, so report
 * tests have stable rows and call chains to compare. Argument: seconds (default 1).
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;

__attribute__((always_inline)) static inline uint64_t spin(uint64_t n, uint64_t seed)
{
	for (uint64_t i = 0; i < n; i++)
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
	return seed;
}

__attribute__((noinline)) void leaf_heavy(void)  { sink += spin(4000, sink); }
__attribute__((noinline)) void leaf_medium(void) { sink += spin(2000, sink + 1); }
__attribute__((noinline)) void leaf_light(void)  { sink += spin(1000, sink + 2); }

__attribute__((noinline)) void middle(void)
{
	leaf_heavy();
	leaf_medium();
	leaf_light();
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
		for (int i = 0; i < 100; i++)
			middle();
	return 0;
}
