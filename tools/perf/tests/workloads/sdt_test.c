// SPDX-License-Identifier: MIT
/*
 * SDT probes of 0..12 arguments of every integer width and sign, a pointer
 * and a string, some behind dtrace-style semaphores. Each probe fires a
 * known number of times; the program prints what it fired ("fire NAME
 * COUNT ARGS...") so tests compare perf script's decoding with it.
 * Built at -O0 (sdt_test_O0) and -O2 (sdt_test_O2) by sdt_test.mk.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* with _SDT_HAS_SEMAPHORES every probe names one (dtrace -h style) */
#define SEM(name) unsigned short test_##name##_semaphore __attribute__((section(".probes")))
SEM(zero); SEM(one); SEM(unsigned4); SEM(signed4); SEM(ptrstr); SEM(twelve);
SEM(guarded); SEM(sem_args);

#include <sys/sdt.h>

static volatile int sink;
long test_global = 4242;

static int expensive(int i)
{
	sink += i;
	return i * 3;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5;
	volatile uint8_t u8 = 200;
	volatile uint16_t u16 = 60000;
	volatile uint32_t u32 = 4000000000u;
	volatile uint64_t u64 = 18000000000000000000ull;
	volatile int8_t s8 = -100;
	volatile int16_t s16 = -30000;
	volatile int32_t s32 = -2000000000;
	volatile int64_t s64 = -9000000000000000000ll;
	static const char str[] = "hello-sdt";
	int guarded_runs = 0;

	for (int i = 0; i < n; i++) {
		DTRACE_PROBE(test, zero);
		DTRACE_PROBE1(test, one, (int)i);
		DTRACE_PROBE4(test, unsigned4, u8, u16, u32, u64);
		DTRACE_PROBE4(test, signed4, s8, s16, s32, s64);
		DTRACE_PROBE2(test, ptrstr, (void *)str, str);
		DTRACE_PROBE12(test, twelve, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, (long)i);
		if (test_guarded_semaphore) {
			/* is-enabled: only while someone records test:guarded */
			DTRACE_PROBE1(test, guarded, expensive(i));
			guarded_runs++;
		}
		DTRACE_PROBE2(test, sem_args, (int)i, test_global);
	}
	/* a second site of the same marker: both are probed under one event */
	DTRACE_PROBE1(test, one, 99);
	printf("fire zero %d\n", n);
	printf("fire one %d\n", n + 1);
	printf("fire unsigned4 %d %u %u %u %llu\n", n, u8, u16, u32, (unsigned long long)u64);
	printf("fire signed4 %d %d %d %d %lld\n", n, s8, s16, s32, (long long)s64);
	printf("fire ptrstr %d %p %s\n", n, (void *)str, str);
	printf("fire twelve %d\n", n);
	printf("fire sem_args %d\n", n);
	printf("guarded_runs %d\n", guarded_runs);
	return 0;
}
