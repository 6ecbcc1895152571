/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_X86_REGS_H
#define PERF_UTIL_X86_REGS_H

/*
 * The x86-64 general-purpose registers in their three spellings: the
 * assembler's (%rax, %eax, %al, %ah, %r8d ...) used by SDT notes, the DWARF
 * register numbers used by location expressions, and the kernel's pt_regs
 * names (ax, r8, ip ...) that uprobe fetchargs take. One table serves the
 * SDT converter, the DWARF finder and the uprobe line validator.
 */
#include <stdbool.h>
#include <stddef.h>

/*
 * Assembler name s[0..len) without '%': 0 and the kernel name (kname, at
 * least 8 bytes), width in bytes and bit shift (8 for %ah..%dh); -1 when
 * it is not a general-purpose register (or %rip/%eip: kname "ip").
 */
int x86_reg__from_asm(const char *s, size_t len, char *kname, unsigned *width, unsigned *shift);

/* Kernel name of DWARF register @n (0..16 range of x86-64), or NULL. */
const char *x86_reg__from_dwarf(unsigned int n);

/* Is s[0..len) a pt_regs name uprobes accept ("ax", "r15", "ip", "flags" ...)? */
bool x86_reg__is_kernel_name(const char *s, size_t len);

#endif
