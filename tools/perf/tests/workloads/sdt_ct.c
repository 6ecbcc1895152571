// SPDX-License-Identifier: MIT
/*
 * A static SDT program for the container tests (it needs nothing in its
 * root but itself). It waits until its probe is enabled (the kernel sets
 * the semaphore when a uprobe on ct:hit is registered), then DELAY_MS more
 * for the recorder to finish starting, fires ct:hit N times and prints
 * "hits N". Without a recorder it fires after TIMEOUT_MS anyway ("hits N
 * unarmed"). Usage: sdt_ct N DELAY_MS TIMEOUT_MS
 */
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

unsigned short ct_hit_semaphore __attribute__((section(".probes")));

#include <sys/sdt.h>

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	long delay = argc > 2 ? atol(argv[2]) : 300, timeout = argc > 3 ? atol(argv[3]) : 10000;
	volatile unsigned short *sem = &ct_hit_semaphore;
	long waited = 0;

	while (!*sem && waited < timeout) {
		sleep_ms(10);
		waited += 10;
	}
	if (*sem)
		sleep_ms(delay);
	for (int i = 0; i < n; i++)
		DTRACE_PROBE1(ct, hit, i);
	printf("hits %d%s\n", n, *sem ? "" : " unarmed");
	return 0;
}
