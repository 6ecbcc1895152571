// SPDX-License-Identifier: MIT
/*
 * Executes code from an anonymous executable mapping, the way a JIT does, and
 * describes it in /tmp/perf-PID.map so profilers can name it.
 * Usage: sym_jit_map MILLISECONDS NAME1 NAME2 [EXTRA-MAP-LINE...]
 * NAME1 runs at offset 0 of the mapping, NAME2 at offset 0x100; each is 0x40
 * bytes long. EXTRA-MAP-LINEs are written verbatim (to test bad lines).
 * Prints "PID ADDRESS" (hex) of the mapping on stdout.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* mov $0x100000,%ecx; 1: dec %ecx; jnz 1b; ret */
static const unsigned char spin[] = {
	0xb9, 0x00, 0x00, 0x10, 0x00, 0xff, 0xc9, 0x75, 0xfc, 0xc3,
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
#if defined(__x86_64__)
	char path[64];
	unsigned char *code;
	double end;
	FILE *f;

	if (argc < 4) {
		fprintf(stderr, "usage: %s MS NAME1 NAME2 [LINE...]\n", argv[0]);
		return 2;
	}
	code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED)
		return 1;
	memset(code, 0xcc, 4096);
	memcpy(code, spin, sizeof(spin));
	memcpy(code + 0x100, spin, sizeof(spin));

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	f = fopen(path, "w");
	if (!f)
		return 1;
	fprintf(f, "%lx 40 %s\n", (unsigned long)(uintptr_t)code, argv[2]);
	for (int i = 4; i < argc; i++)
		fprintf(f, "%s\n", argv[i]);
	fprintf(f, "%lx 40 %s\n", (unsigned long)(uintptr_t)(code + 0x100), argv[3]);
	fclose(f);
	printf("%d %lx\n", getpid(), (unsigned long)(uintptr_t)code);
	fflush(stdout);

	end = now_ms() + atof(argv[1]);
	while (now_ms() < end) {
		((void (*)(void))code)();
		((void (*)(void))(code + 0x100))();
		((void (*)(void))(code + 0x100))();
	}
	return 0;
#else
	fprintf(stderr, "x86-64 only\n");
	return 2;
#endif
}
