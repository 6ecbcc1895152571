// SPDX-License-Identifier: MIT
/*
 * Per-DSO symbol tables: a sorted array of pointers into big chunks, so a
 * table of 100k symbols costs a few allocations and a lookup is one binary
 * search with no allocation.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include "strbuf.h"
#include "symbol.h"
#include "util.h"

#define CHUNK_SIZE (256 * 1024)

struct symtab_chunk {
	struct symtab_chunk *next;
	size_t used, size;
	char data[];
};

static struct symbol *symtab__alloc(struct symtab *t, size_t namelen)
{
	size_t need = ALIGN_UP(sizeof(struct symbol) + namelen + 1, (size_t)8);
	struct symtab_chunk *c = t->chunks;

	if (!c || c->size - c->used < need) {
		size_t size = need > CHUNK_SIZE ? need : CHUNK_SIZE;

		c = xmalloc(sizeof(*c) + size);
		c->size = size;
		c->used = 0;
		c->next = t->chunks;
		t->chunks = c;
	}
	c->used += need;
	return (struct symbol *)(c->data + c->used - need);
}

void symtab__add(struct symtab *t, uint64_t start, uint64_t size, uint8_t binding,
		 uint8_t type, const char *name)
{
	size_t len = strlen(name);
	struct symbol *s = symtab__alloc(t, len);

	s->start = start;
	s->end = start + size;
	s->binding = binding;
	s->type = type;
	s->seq = t->nr;
	memcpy(s->name, name, len + 1);
	*ARRAY_PUSH(t->syms, t->nr, t->cap) = s;
}

static int leading_underscores(const char *s)
{
	int n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/*
 * <0 when a is the better name for an address two symbols share. The order
 * is perf 6.1's, so reports name the same aliases: a function, then a
 * non-zero size, then not weak, then global, then fewer leading
 * underscores, then the longer name, then the one that came first.
 */
static int symbol__better(const struct symbol *a, const struct symbol *b)
{
	int fa = a->type == STT_FUNC || a->type == STT_GNU_IFUNC;
	int fb = b->type == STT_FUNC || b->type == STT_GNU_IFUNC;
	int d;
	size_t la, lb;

	if (fa != fb)
		return fb - fa;
	if ((a->end > a->start) != (b->end > b->start))
		return (b->end > b->start) - (a->end > a->start);
	if ((a->binding == STB_WEAK) != (b->binding == STB_WEAK))
		return a->binding == STB_WEAK ? 1 : -1;
	if ((a->binding == STB_GLOBAL) != (b->binding == STB_GLOBAL))
		return a->binding == STB_GLOBAL ? -1 : 1;
	d = leading_underscores(a->name) - leading_underscores(b->name);
	if (d)
		return d;
	la = strlen(a->name);
	lb = strlen(b->name);
	if (la != lb)
		return la > lb ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int symbol__cmp(const void *pa, const void *pb)
{
	const struct symbol *a = *(const struct symbol *const *)pa;
	const struct symbol *b = *(const struct symbol *const *)pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return symbol__better(a, b);
}

/* kallsyms: perf gives the earlier aliases of an address no size, so the last one is found */
static int symbol__cmp_last(const void *pa, const void *pb)
{
	const struct symbol *a = *(const struct symbol *const *)pa;
	const struct symbol *b = *(const struct symbol *const *)pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->seq > b->seq ? -1 : a->seq < b->seq;
}

void symtab__finish(struct symtab *t)
{
	size_t i, n = 0;

	if (!t->nr)
		return;
	qsort(t->syms, t->nr, sizeof(*t->syms), t->last_alias_wins ? symbol__cmp_last : symbol__cmp);
	/* the best of each run of equal starts sorts first */
	for (i = 0; i < t->nr; i++)
		if (n == 0 || t->syms[i]->start != t->syms[n - 1]->start)
			t->syms[n++] = t->syms[i];
	t->nr = n;
	for (i = 0; i < n; i++) {
		struct symbol *s = t->syms[i];

		if (s->end > s->start)
			continue;
		if (i + 1 < n)
			s->end = t->syms[i + 1]->start;
		else
			s->end = ALIGN_UP(s->start + 1, (uint64_t)4096);
	}
}

struct symbol *symtab__find(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;

	/* last symbol with start <= addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid]->start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* a few steps back: a big symbol may enclose a small one that ended */
	for (size_t k = 0; k < 4 && lo > 0; k++, lo--) {
		struct symbol *s = t->syms[lo - 1];

		if (addr < s->end)
			return s;
	}
	return NULL;
}

void symtab__exit(struct symtab *t)
{
	struct symtab_chunk *c = t->chunks, *next;

	for (; c; c = next) {
		next = c->next;
		free(c);
	}
	free(t->syms);
	t->syms = NULL;
	t->chunks = NULL;
	t->nr = t->cap = 0;
}

char *symbol__demangle(const char *name)
{
	if (name[0] == '_' && name[1] == 'Z')
		return cxx_name__demangle(name);
	if (name[0] == 'L')
		return java_name__demangle(name);
	return NULL;
}
