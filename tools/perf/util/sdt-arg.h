/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_SDT_ARG_H
#define PERF_UTIL_SDT_ARG_H

/*
 * SDT argument strings ("-4@%r14d", "8@152(%rbx)", "4@$42", "8@[sp, 16]")
 * turned into uprobe fetchargs with a type ("%r14:s32", "+152(%bx):u64",
 * "\42:s32", "+16(%sp):u64"). See Documentation/formats/sdt.md §5 and
 * uprobes-tracefs.md §2.
 */
#include <stdbool.h>
#include <stdint.h>

enum sdt_arch {
	SDT_ARCH_X86_64,
	SDT_ARCH_AARCH64,
	SDT_ARCH_UNKNOWN,
};

/* What the conversion needs to know about the binary the note lives in. */
struct sdt_arg_ctx {
	enum sdt_arch arch;
	/*
	 * Link-time address of a symbol of the binary, for sym(%rip)
	 * operands; 0 when found, -1 otherwise. May be NULL.
	 */
	int (*symbol_addr)(void *priv, const char *name, uint64_t *addr);
	void *priv;
	/*
	 * The kernel turns "@+X" into (probe's runtime address - probe's file
	 * offset + X), so X must be measured with the probe's own
	 * address-to-offset delta: X = addr - text_delta.
	 */
	int64_t text_delta;
	bool no_immediates;     /* kernel without "\imm-value" fetchargs */
};

/*
 * Converts one argument. 0 and *out (malloc'ed, e.g. "%bx:u64") on success;
 * 1 and *out with *why = a static warning when a size perf 6.1 tolerates
 * ("3@", "0@", "x@") was replaced by the operand's own width; -1 with *why
 * = a static reason when the operand cannot be expressed exactly (the
 * caller skips this argument only). Floating-point operands ("8f@", "4f@")
 * are fetched as their raw bits (u64, u32), as perf 6.1 does.
 */
int sdt_arg__to_fetcharg(const char *arg, const struct sdt_arg_ctx *ctx,
			 char **out, const char **why);

/*
 * Splits a note's argument string on spaces; on aarch64 "[sp," and the
 * following item are one argument. Returns a NULL-terminated malloc'ed
 * vector (free with sdt_args__free); *nr gets the count.
 */
char **sdt_args__split(const char *s, enum sdt_arch arch, int *nr);
void sdt_args__free(char **v);

/*
 * 4 or 8 when the argument is a floating-point value of that size ("4f@...",
 * "8f@..."), else 0. Its fetcharg carries the raw bits; perf script shows
 * them as the float (sdt-float.h).
 */
unsigned int sdt_arg__float_size(const char *arg);

/* "u8".."u64" / "s8".."s64" for an SDT size (1,2,4,8, negative = signed), or NULL. */
const char *sdt_arg__type_of_size(int size);

#endif
