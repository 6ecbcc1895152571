// SPDX-License-Identifier: MIT
/*
 * The unwinder on a real stack: this process captures its own registers and
 * a copy of its stack three calls deep, describes its executable mappings
 * with MMAP2 records as perf record would, and unwinds the copy with the
 * CFI of the perf binary itself (built -O2, so no frame-pointer luck).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "util/debug.h"
#include "util/machine.h"
#include "util/unwind.h"
#include "util/util.h"

#define STACK_COPY 8192

struct capture {
	uint64_t ip, sp, bp, bx, r12, r13, r14, r15;
	unsigned char stack[STACK_COPY];
	size_t stack_len;
};

static uint64_t stack_end(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	uint64_t end = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e;

		if (strstr(line, "[stack]") && sscanf(line, "%llx-%llx", &s, &e) == 2)
			end = e;
	}
	fclose(f);
	return end;
}

/* reads our own live stack, redzones of a sanitized build included */
__attribute__((no_sanitize_address, noinline)) static void copy_stack(struct capture *c)
{
	uint64_t end = stack_end();
	size_t n = STACK_COPY;
	const volatile unsigned char *src = (const volatile unsigned char *)(uintptr_t)c->sp;

	if (end > c->sp && end - c->sp < n)
		n = end - c->sp;
	for (size_t i = 0; i < n; i++)
		c->stack[i] = src[i];
	c->stack_len = n;
}

__attribute__((noinline)) static void unwind_t_leaf(struct capture *c)
{
	/* one asm block: ip and the registers belong to the same instruction */
	__asm__ volatile("lea 0(%%rip), %%rax\n\t"
			 "mov %%rax, 0(%0)\n\t"
			 "mov %%rsp, 8(%0)\n\t"
			 "mov %%rbp, 16(%0)\n\t"
			 "mov %%rbx, 24(%0)\n\t"
			 "mov %%r12, 32(%0)\n\t"
			 "mov %%r13, 40(%0)\n\t"
			 "mov %%r14, 48(%0)\n\t"
			 "mov %%r15, 56(%0)\n\t"
			 : : "r"(c) : "rax", "memory");
	copy_stack(c);
}

__attribute__((noinline)) static void unwind_t_mid(struct capture *c)
{
	unwind_t_leaf(c);
	__asm__ volatile("" ::: "memory");   /* not a tail call */
}

__attribute__((noinline)) static void unwind_t_top(struct capture *c)
{
	unwind_t_mid(c);
	__asm__ volatile("" ::: "memory");
}

static int add_maps(struct machine *m, pid_t pid)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off, ino;
		unsigned maj, min;
		char perms[8], path[PATH_MAX] = "";
		union {
			union perf_event ev;
			char buf[sizeof(struct perf_record_mmap2) + PATH_MAX + 8];
		} u;
		size_t len;

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %4095s", &s, &e, perms, &off, &maj, &min, &ino,
			   path) < 7 || perms[2] != 'x' || path[0] != '/')
			continue;
		memset(&u, 0, sizeof(u));
		len = ALIGN_UP(strlen(path) + 1, 8);
		u.ev.mmap2.header.type = PERF_RECORD_MMAP2;
		u.ev.mmap2.header.misc = PERF_RECORD_MISC_USER;
		u.ev.mmap2.header.size = sizeof(struct perf_record_mmap2) + len;
		u.ev.mmap2.pid = u.ev.mmap2.tid = pid;
		u.ev.mmap2.start = s;
		u.ev.mmap2.len = e - s;
		u.ev.mmap2.pgoff = off;
		u.ev.mmap2.maj = maj;
		u.ev.mmap2.min = min;
		u.ev.mmap2.ino = ino;
		u.ev.mmap2.prot = 5;
		u.ev.mmap2.flags = 2;
		strcpy(u.ev.mmap2.filename, path);
		machine__process_event(m, &u.ev, NULL);
		n++;
	}
	fclose(f);
	return n;
}

static int test__unwind_self(void)
{
	struct capture *c = xzalloc(sizeof(*c));
	struct machine m;
	struct perf_sample s;
	uint64_t regs[8], ips[64];
	const char *want[] = { "unwind_t_leaf", "unwind_t_mid", "unwind_t_top", "test__unwind_self" };
	size_t n, w = 0;
	pid_t pid = getpid();
	int ret = TEST_OK;

	unwind_t_top(c);
	machine__init(&m);
	TEST_ASSERT_VAL("executable mappings", add_maps(&m, pid) > 0);
	/* PERF_REG_X86 bits: BX 1, BP 6, SP 7, IP 8, R12..R15 20..23 (values in bit order) */
	regs[0] = c->bx; regs[1] = c->bp; regs[2] = c->sp; regs[3] = c->ip;
	regs[4] = c->r12; regs[5] = c->r13; regs[6] = c->r14; regs[7] = c->r15;
	memset(&s, 0, sizeof(s));
	s.pid = s.tid = pid;
	s.ip = c->ip;
	s.cpumode = PERF_RECORD_MISC_USER;
	s.user_regs_abi = 2;
	s.user_regs_mask = (1ull << 1) | (1ull << 6) | (1ull << 7) | (1ull << 8) | (0xfull << 20);
	s.user_regs = regs;
	s.user_stack = c->stack;
	s.user_stack_size = s.user_stack_dyn_size = c->stack_len;

	n = unwind__user_frames(&m, machine__findnew_thread(&m, pid, pid), &s, ips, ARRAY_SIZE(ips));
	for (size_t i = 0; i < n && w < ARRAY_SIZE(want); i++) {
		struct addr_location al;

		machine__resolve(&m, pid, pid, PERF_RECORD_MISC_USER, ips[i], &al, false);
		if (verbose)
			fprintf(stderr, "frame %zu: %#llx %s\n", i, (unsigned long long)ips[i],
				al.sym ? al.sym->name : "?");
		if (al.sym && !strcmp(al.sym->name, want[w]))
			w++;
	}
	if (w != ARRAY_SIZE(want)) {
		fprintf(stderr, "FAILED: %zu frames, found only the first %zu of leaf, mid, top, test\n", n, w);
		ret = TEST_FAIL;
	}
	/* a damaged copy must end the chain, not crash: a stack of garbage */
	memset(c->stack, 0xa5, c->stack_len);
	n = unwind__user_frames(&m, machine__findnew_thread(&m, pid, pid), &s, ips, ARRAY_SIZE(ips));
	if (n < 1 || ips[0] != c->ip) {
		fprintf(stderr, "FAILED: garbage stack gave %zu frames\n", n);
		ret = TEST_FAIL;
	}
	s.user_stack_size = s.user_stack_dyn_size = 0;
	if (unwind__user_frames(&m, machine__findnew_thread(&m, pid, pid), &s, ips, ARRAY_SIZE(ips)) != 0)
		ret = TEST_FAIL;
	machine__exit(&m);
	free(c);
	return ret;
}

DEFINE_SUITE("unwind: DWARF CFI unwinding of this process's own stack copy, three calls deep", test__unwind_self);
