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

/*
 * A kallsyms file loaded on the first lookup, for callers that may never
 * need it (a print format with %pS): the owner creates it, passes it where
 * lookups happen and deletes it; nothing is cached process-wide.
 */
struct kallsyms;

struct kallsyms *kallsyms__new(const char *path);
void kallsyms__delete(struct kallsyms *k);

/*
 * Name of the symbol containing addr and *offset into it, or NULL. The
 * signature fits trace_ksym_resolver_t: pass the handle as the void *.
 */
const char *kallsyms__resolve(uint64_t addr, uint64_t *offset, void *kallsyms);

#endif
