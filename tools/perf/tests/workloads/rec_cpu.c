// SPDX-License-Identifier: MIT
/*
 * CPU-bound workload for perf record tests: spends about two thirds of its
 * time in rec_hot_a and one third in rec_hot_b, for argv[1] milliseconds
 * (default 1000).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t sink;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

__attribute__((noinline)) static void rec_hot_a(unsigned n)
{
	uint64_t x = sink;

	for (unsigned i = 0; i < n; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	sink = x;
}

__attribute__((noinline)) static void rec_hot_b(unsigned n)
{
	uint64_t x = sink;

	for (unsigned i = 0; i < n; i++)
		x = (x ^ (x >> 7)) * 2654435761ull;
	sink = x;
}

int main(int argc, char **argv)
{
	uint64_t ms = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000;
	uint64_t end = now_ns() + ms * 1000000ull;

	while (now_ns() < end) {
		rec_hot_a(200000);
		rec_hot_b(100000);
	}
	return 0;
}
