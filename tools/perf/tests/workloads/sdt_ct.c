// SPDX-License-Identifier: MIT
/*
 * A static SDT program for the container tests (it needs nothing in its
 * root but itself). It waits until its probe is registered (the kernel
 * sets the semaphore when a uprobe on ct:hit is opened), then for SIGUSR1
 * (sent by a workload the recorder starts once its events are enabled) or
 * DELAY_MS, fires ct:hit N times and prints "hits N". Without a recorder
 * it fires after TIMEOUT_MS anyway ("hits N unarmed"). It exits 3 s after
 * printing.
 * Usage: sdt_ct N DELAY_MS TIMEOUT_MS
 */
#define _SDT_HAS_SEMAPHORES 1
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

unsigned short ct_hit_semaphore __attribute__((section(".probes")));

#include <sys/sdt.h>

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	(void)sig;
	go = 1;
}

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

	signal(SIGUSR1, on_usr1);
	while (!*sem && waited < timeout) {
		sleep_ms(10);
		waited += 10;
	}
	for (waited = 0; *sem && !go && waited < delay; waited += 10)
		sleep_ms(10);
	for (int i = 0; i < n; i++)
		DTRACE_PROBE1(ct, hit, i);
	printf("hits %d%s\n", n, *sem ? "" : " unarmed");
	fflush(stdout);
	/* alive a little longer: the recorder's workload ends first, on this line */
	sleep_ms(3000);
	return 0;
}
