/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_DWARF_LINES_H
#define PERF_UTIL_DWARF_LINES_H

/* Which addresses a source line has, for probe points (probe-finder.c). */
#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A source path names WANT: equal, or WANT is a tail of it after a '/'. NULL WANT matches all. */
bool dwarf_src__matches(const char *path, const char *want);

/* addr lies in one of @die's address ranges */
bool dwarf_die__has_addr(Dwarf_Die *die, uint64_t addr);

/*
 * The addresses where a statement of FILE:LINE starts in @cu, within @die's
 * ranges (any function when NULL); *addrs malloc'ed. Returns the count.
 */
size_t dwarf_lines__stmt_addrs(Dwarf_Die *cu, Dwarf_Die *die, const char *file, int line,
			       uint64_t **addrs);

#endif
