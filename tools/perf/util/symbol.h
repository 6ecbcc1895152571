/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_SYMBOL_H
#define PERF_UTIL_SYMBOL_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A function (or object) of a DSO. start/end are in the DSO's own address
 * space: ELF virtual addresses for files, runtime addresses for kallsyms and
 * perf-PID.map. end is exclusive.
 */
struct symbol {
	uint64_t start, end;
	uint8_t binding;         /* STB_* */
	uint8_t type;            /* STT_* */
	uint32_t seq;            /* order of addition: the last tie-breaker */
	char name[];             /* already demangled for display (Java, C++) */
};

/* A sorted, non-overlapping-by-start symbol table. */
struct symtab {
	struct symbol **syms;
	size_t nr, cap;
	struct symtab_chunk *chunks;  /* symbols are carved from these, freed together */
	bool last_alias_wins;         /* kallsyms: of symbols at one address perf finds the last */
};

void symtab__add(struct symtab *t, uint64_t start, uint64_t size, uint8_t binding,
		 uint8_t type, const char *name);
/* sorts, removes duplicates (prefers GLOBAL over WEAK over LOCAL), and fixes
 * zero sizes to reach the next symbol */
void symtab__finish(struct symtab *t);
struct symbol *symtab__find(const struct symtab *t, uint64_t addr);
void symtab__exit(struct symtab *t);

/*
 * Java method names as perf's agent writes them ("Lcom/example/Foo;hot(I)V")
 * become "com.example.Foo.hot(int)" like perf report shows them. Returns a
 * malloc'ed string or NULL when name is not in that form.
 */
char *java_name__demangle(const char *name);

/*
 * Itanium C++ names ("_ZN2ns3Foo3hotEiPKc") as perf 6.1 shows them:
 * "ns::Foo::hot" (no parameters, return type or clone suffix, like
 * `c++filt -p`). malloc'ed, or NULL when not mangled / no demangler.
 */
char *cxx_name__demangle(const char *name);

/* The display form of a symbol-table name: C++ then Java demangling;
 * malloc'ed, or NULL to use the name as is. */
char *symbol__demangle(const char *name);

#endif
