// SPDX-License-Identifier: MIT
/*
 * Two busy phases (rec_phase_one, then rec_phase_two) of argv[1] ms each
 * (default 300); between them prints "MARK <CLOCK_MONOTONIC ns>" so a test
 * can check that sample times are on that clock.
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

__attribute__((noinline)) static void rec_phase_one(uint64_t end)
{
	while (now_ns() < end)
		for (int i = 0; i < 1000; i++)
			sink = sink * 3 + 1;
}

__attribute__((noinline)) static void rec_phase_two(uint64_t end)
{
	while (now_ns() < end)
		for (int i = 0; i < 1000; i++)
			sink = sink * 5 + 7;
}

int main(int argc, char **argv)
{
	uint64_t ms = argc > 1 ? strtoull(argv[1], NULL, 10) : 300, mark;

	rec_phase_one(now_ns() + ms * 1000000ull);
	mark = now_ns();
	rec_phase_two(mark + ms * 1000000ull);
	printf("MARK %llu\n", (unsigned long long)mark);
	return 0;
}
