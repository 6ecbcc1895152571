// SPDX-License-Identifier: MIT
/* x86-64 register names: see x86-regs.h. */
#include <string.h>

#include "util.h"
#include "x86-regs.h"

struct x86_reg {
	const char *kname;        /* pt_regs name */
	int dwarf;                /* DWARF register number, -1 none */
	/* assembler names by width: 8, 4, 2, 1 bytes, high byte (NULL = none) */
	const char *q, *d, *w, *b, *h;
};

/*
 * DWARF numbers follow the x86-64 psABI (0 rax, 1 rdx, 2 rcx, 3 rbx, ...);
 * r8l..r15l are accepted as Intel spells the low bytes. The rows without
 * assembler names are pt_regs fields uprobes can read but no operand names.
 */
static const struct x86_reg x86_regs[] = {
	{ "ax", 0, "rax", "eax", "ax", "al", "ah" },
	{ "dx", 1, "rdx", "edx", "dx", "dl", "dh" },
	{ "cx", 2, "rcx", "ecx", "cx", "cl", "ch" },
	{ "bx", 3, "rbx", "ebx", "bx", "bl", "bh" },
	{ "si", 4, "rsi", "esi", "si", "sil", NULL },
	{ "di", 5, "rdi", "edi", "di", "dil", NULL },
	{ "bp", 6, "rbp", "ebp", "bp", "bpl", NULL },
	{ "sp", 7, "rsp", "esp", "sp", "spl", NULL },
	{ "r8", 8, "r8", "r8d", "r8w", "r8b", "r8l" },
	{ "r9", 9, "r9", "r9d", "r9w", "r9b", "r9l" },
	{ "r10", 10, "r10", "r10d", "r10w", "r10b", "r10l" },
	{ "r11", 11, "r11", "r11d", "r11w", "r11b", "r11l" },
	{ "r12", 12, "r12", "r12d", "r12w", "r12b", "r12l" },
	{ "r13", 13, "r13", "r13d", "r13w", "r13b", "r13l" },
	{ "r14", 14, "r14", "r14d", "r14w", "r14b", "r14l" },
	{ "r15", 15, "r15", "r15d", "r15w", "r15b", "r15l" },
	{ "ip", -1, "rip", "eip", NULL, NULL, NULL },
	{ "flags", -1, NULL, NULL, NULL, NULL, NULL },
	{ "cs", -1, NULL, NULL, NULL, NULL, NULL },
	{ "ss", -1, NULL, NULL, NULL, NULL, NULL },
	{ "orig_ax", -1, NULL, NULL, NULL, NULL, NULL },
};

static bool is(const char *name, const char *s, size_t len)
{
	return name && strlen(name) == len && !memcmp(name, s, len);
}

int x86_reg__from_asm(const char *s, size_t len, char *kname, unsigned *width, unsigned *shift)
{
	for (size_t i = 0; i < ARRAY_SIZE(x86_regs); i++) {
		const struct x86_reg *r = &x86_regs[i];
		const char *names[5] = { r->q, r->d, r->w, r->b, r->h };
		static const unsigned char widths[5] = { 8, 4, 2, 1, 1 };

		for (int k = 0; k < 5; k++) {
			if (!is(names[k], s, len))
				continue;
			strcpy(kname, r->kname);
			*width = widths[k];
			/* the 5th column is the high byte only for the legacy four */
			*shift = k == 4 && r->dwarf < 4 ? 8 : 0;
			return 0;
		}
	}
	return -1;
}

const char *x86_reg__from_dwarf(unsigned int n)
{
	for (size_t i = 0; i < ARRAY_SIZE(x86_regs); i++)
		if (x86_regs[i].dwarf >= 0 && (unsigned int)x86_regs[i].dwarf == n)
			return x86_regs[i].kname;
	return NULL;
}

bool x86_reg__is_kernel_name(const char *s, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(x86_regs); i++)
		if (is(x86_regs[i].kname, s, len))
			return true;
	return false;
}
