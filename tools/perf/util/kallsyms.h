/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_KALLSYMS_H
#define PERF_UTIL_KALLSYMS_H

#include "symbol.h"

/*
 * Adds the text and data symbols of a /proc/kallsyms-format file ("ADDR TYPE
 * NAME [\t[module]]") to t; addresses are absolute. Module symbols are
 * included under their plain name. Returns the number added, -1 if the file
 * cannot be read. All-zero addresses (kptr_restrict) add nothing.
 */
int kallsyms__load(const char *path, struct symtab *t);

#endif
