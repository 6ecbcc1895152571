// SPDX-License-Identifier: MIT
/*
 * A tiny JIT that writes its own jitdump, for perf inject --jit tests.
 *
 *   jit_synth [options] DIR
 *
 * Default scenario ("reuse"): code A is loaded at address X and runs, then
 * code B is loaded at the same X and runs, then B is moved to Y (MOVE) and
 * runs there. Each phase spins for --ms milliseconds. The phase boundaries
 * (CLOCK_MONOTONIC ns, the dump's clock) are printed on stdout as
 *   phase <name> <symbol> <start_ns> <end_ns>
 * so a test can check that every sample is named after the code resident at
 * its time.
 *
 * Options:
 *   --ms N         phase length (default 300)
 *   --swap         write the dump in the opposite byte order
 *   --truncate     end the dump with half a record
 *   --empty        write only the header
 *   --perf-names   perf's agent style names (Lpkg/Cls;m()V), no inline record
 *   --loads N      additionally LOAD N small functions at distinct addresses
 *                  (with line tables; for the benchmark); they are not run
 * x86-64 only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

static int opt_swap, opt_truncate, opt_empty, opt_perf_names;
static long opt_ms = 300, opt_loads;
static int dump_fd;
static uint64_t code_index;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* record builder: fields appended in host order, swapped on request */
struct rec {
	unsigned char *p;
	size_t len, cap;
};

static void put(struct rec *r, const void *v, size_t n)
{
	if (r->len + n > r->cap) {
		r->cap = (r->len + n) * 2 + 256;
		r->p = realloc(r->p, r->cap);
		if (!r->p)
			exit(1);
	}
	memcpy(r->p + r->len, v, n);
	r->len += n;
}

static void put32(struct rec *r, uint32_t v)
{
	if (opt_swap)
		v = __builtin_bswap32(v);
	put(r, &v, 4);
}

static void put64(struct rec *r, uint64_t v)
{
	if (opt_swap)
		v = __builtin_bswap64(v);
	put(r, &v, 8);
}

static void begin(struct rec *r, uint32_t id)
{
	r->len = 0;
	put32(r, id);
	put32(r, 0);
	put64(r, now_ns());
}

static void finish(struct rec *r)
{
	uint32_t size = (uint32_t)r->len;

	if (opt_swap)
		size = __builtin_bswap32(size);
	memcpy(r->p + 4, &size, 4);
	if (write(dump_fd, r->p, r->len) != (ssize_t)r->len) {
		perror("write dump");
		exit(1);
	}
}

static struct rec R;

static void debug_info(uint64_t addr, size_t n, const uint64_t *offs, const int *lines, const char *file)
{
	begin(&R, 2);
	put64(&R, addr);
	put64(&R, n);
	for (size_t i = 0; i < n; i++) {
		put64(&R, addr + offs[i]);
		put32(&R, (uint32_t)lines[i]);
		put32(&R, 0);
		put(&R, file, strlen(file) + 1);
	}
	finish(&R);
}

static uint64_t load(const char *name, uint64_t addr, const void *code, size_t size)
{
	uint32_t pid = (uint32_t)getpid(), tid = (uint32_t)syscall(SYS_gettid);

	begin(&R, 0);
	put32(&R, pid);
	put32(&R, tid);
	put64(&R, addr);
	put64(&R, addr);
	put64(&R, size);
	put64(&R, ++code_index);
	put(&R, name, strlen(name) + 1);
	put(&R, code, size);
	finish(&R);
	return code_index;
}

static void move(uint64_t idx, uint64_t from, uint64_t to, size_t size)
{
	uint32_t pid = (uint32_t)getpid(), tid = (uint32_t)syscall(SYS_gettid);

	begin(&R, 1);
	put32(&R, pid);
	put32(&R, tid);
	put64(&R, to);
	put64(&R, from);
	put64(&R, to);
	put64(&R, size);
	put64(&R, idx);
	finish(&R);
}

/* mov rax,rdi; 1: sub rax,1; jnz 1b; ret */
static const unsigned char code_a[] = { 0x48, 0x89, 0xf8, 0x48, 0x83, 0xe8, 0x01, 0x75, 0xfa, 0xc3 };
/* mov rax,rdi; 1: nop; nop; sub rax,1; jnz 1b; ret */
static const unsigned char code_b[] = { 0x48, 0x89, 0xf8, 0x90, 0x90, 0x48, 0x83, 0xe8, 0x01, 0x75, 0xf8, 0xc3 };

typedef long (*spin_fn)(long);

static void spin(void *at, const char *phase, const char *sym)
{
	uint64_t t0 = now_ns(), t;
	spin_fn fn = (spin_fn)at;

	do {
		fn(100000);
		t = now_ns();
	} while (t - t0 < (uint64_t)opt_ms * 1000000ull);
	printf("phase %s %s %llu %llu\n", phase, sym, (unsigned long long)t0, (unsigned long long)t);
}

int main(int argc, char **argv)
{
	const char *dir = NULL;
	char path[4096];
	unsigned char *mem;
	void *marker;
	long page = sysconf(_SC_PAGESIZE);
	const char *name_a, *name_b;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--swap"))
			opt_swap = 1;
		else if (!strcmp(argv[i], "--truncate"))
			opt_truncate = 1;
		else if (!strcmp(argv[i], "--empty"))
			opt_empty = 1;
		else if (!strcmp(argv[i], "--perf-names"))
			opt_perf_names = 1;
		else if (!strcmp(argv[i], "--ms") && i + 1 < argc)
			opt_ms = atol(argv[++i]);
		else if (!strcmp(argv[i], "--loads") && i + 1 < argc)
			opt_loads = atol(argv[++i]);
		else if (argv[i][0] != '-')
			dir = argv[i];
		else {
			fprintf(stderr, "jit_synth: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (!dir) {
		fprintf(stderr, "usage: jit_synth [--ms N] [--swap] [--truncate] [--empty] [--perf-names] [--loads N] DIR\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/jit-%d.dump", dir, getpid());
	dump_fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
	if (dump_fd < 0) {
		perror(path);
		return 1;
	}
	/* header */
	R.len = 0;
	put32(&R, 0x4A695444);
	put32(&R, 1);
	put32(&R, 40);
	put32(&R, 62);
	put32(&R, 0);
	put32(&R, (uint32_t)getpid());
	put64(&R, now_ns());
	put64(&R, 0);
	if (write(dump_fd, R.p, R.len) != (ssize_t)R.len)
		return 1;
	marker = mmap(NULL, page, PROT_READ | PROT_EXEC, MAP_PRIVATE, dump_fd, 0);
	if (marker == MAP_FAILED) {
		perror("mmap marker");
		return 1;
	}
	mem = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("mmap code");
		return 1;
	}
	name_a = opt_perf_names ? "Lcom/example/Reuse;alpha(I)J" : "com.example.Reuse.alpha(int)";
	name_b = opt_perf_names ? "Lcom/example/Reuse;beta(I)J" : "com.example.Reuse.beta(int)";

	{
		unsigned char *x = mem + 0x1000, *y = mem + 0x8000;
		static const uint64_t offs_a[] = { 0, 3, 7, 9 }, offs_b[] = { 0, 3, 5, 9, 11 };
		static const int lines_a[] = { 10, 11, 12, 13 }, lines_b[] = { 20, 21, 22, 23, 24 };
		uint64_t idx_b;

		memcpy(x, code_a, sizeof(code_a));
		if (!opt_empty) {
			debug_info((uint64_t)(uintptr_t)x, 4, offs_a, lines_a, "com/example/Reuse.java");
			load(name_a, (uint64_t)(uintptr_t)x, code_a, sizeof(code_a));
		}
		spin(x, "a", "alpha");

		memcpy(x, code_b, sizeof(code_b));
		__builtin___clear_cache((char *)x, (char *)x + sizeof(code_b));
		idx_b = 0;
		if (!opt_empty) {
			debug_info((uint64_t)(uintptr_t)x, 5, offs_b, lines_b, "com/example/Reuse.java");
			idx_b = load(name_b, (uint64_t)(uintptr_t)x, code_b, sizeof(code_b));
		}
		spin(x, "b", "beta");

		memcpy(y, code_b, sizeof(code_b));
		memset(x, 0xcc, sizeof(code_b));
		if (!opt_empty)
			move(idx_b, (uint64_t)(uintptr_t)x, (uint64_t)(uintptr_t)y, sizeof(code_b));
		spin(y, "moved", "beta");
	}

	/* many small functions for the benchmark, in the upper half of the region */
	for (long i = 0; i < opt_loads && !opt_empty; i++) {
		static const uint64_t offs[] = { 0, 3, 7 };
		static const int lines[] = { 1, 2, 3 };
		char name[96];
		uint64_t addr = (uint64_t)(uintptr_t)mem + 0x80000 + (uint64_t)(i % 8192) * 64;

		snprintf(name, sizeof(name), opt_perf_names ? "Lbench/Gen%ld;f%ld()V" : "bench.Gen%ld.f%ld()",
			 i / 100, i);
		debug_info(addr, 3, offs, lines, "bench/Gen.java");
		load(name, addr, code_a, sizeof(code_a));
	}

	if (opt_truncate) {
		/* half a LOAD: what a JIT killed mid-write leaves */
		begin(&R, 0);
		put32(&R, (uint32_t)getpid());
		put32(&R, 0);
		put64(&R, 0);
		put64(&R, 0);
		put64(&R, 100);
		put64(&R, 999);
		put(&R, "cut", 4);
		R.len = 40;
		{
			uint32_t size = 200;

			if (opt_swap)
				size = __builtin_bswap32(size);
			memcpy(R.p + 4, &size, 4);
		}
		if (write(dump_fd, R.p, R.len) != (ssize_t)R.len)
			return 1;
	} else if (!opt_empty) {
		begin(&R, 3);
		finish(&R);
	}
	munmap(marker, page);
	close(dump_fd);
	printf("dump %s\n", path);
	return 0;
}
