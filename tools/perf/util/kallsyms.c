// SPDX-License-Identifier: MIT
/*
 * Kernel symbols from /proc/kallsyms (or a saved copy from the build-id
 * cache). The file has ~200k lines, so it is read in one go and parsed in
 * place. kallsyms has no sizes: each symbol ends where the next one starts
 * (symtab__finish).
 */
#include <ctype.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include "debug.h"
#include "kallsyms.h"
#include "util.h"

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int kallsyms__load(const char *path, struct symtab *t)
{
	size_t size;
	char *buf = read_file(path, &size), *p, *end;
	int added = 0, nonzero = 0;

	if (!buf) {
		pr_debug("cannot read %s\n", path);
		return -1;
	}
	t->last_alias_wins = true;
	end = buf + size;
	for (p = buf; p < end;) {
		char *eol = memchr(p, '\n', (size_t)(end - p)), *name, *q;
		uint64_t addr = 0;
		int type, v, bind;

		if (!eol)
			eol = end;
		*eol = '\0';
		for (q = p; (v = hexval((unsigned char)*q)) >= 0; q++)
			addr = addr << 4 | (unsigned)v;
		if (q == p || q[0] != ' ' || !q[1] || q[2] != ' ')
			goto next;
		type = toupper((unsigned char)q[1]);
		bind = type == 'W' ? STB_WEAK : islower((unsigned char)q[1]) ? STB_LOCAL : STB_GLOBAL;
		if (type != 'T' && type != 'W' && type != 'D' && type != 'B')
			goto next;
		name = q + 3;
		q = strchr(name, '\t');   /* "\t[module]" */
		if (q)
			*q = '\0';
		if (!*name)
			goto next;
		if (addr)
			nonzero++;
		symtab__add(t, addr, 0, bind, (type == 'T' || type == 'W') ? STT_FUNC : STT_OBJECT, name);
		added++;
next:
		p = eol + 1;
	}
	free(buf);
	if (added && !nonzero) {
		pr_warning("%s: all addresses are 0 (kptr_restrict?), no kernel symbols\n", path);
		symtab__exit(t);
		return 0;
	}
	return added;
}

struct kallsyms {
	char *path;
	bool loaded;
	struct symtab syms;
};

struct kallsyms *kallsyms__new(const char *path)
{
	struct kallsyms *k = xzalloc(sizeof(*k));

	k->path = xstrdup(path);
	return k;
}

void kallsyms__delete(struct kallsyms *k)
{
	if (!k)
		return;
	symtab__exit(&k->syms);
	free(k->path);
	free(k);
}

const char *kallsyms__resolve(uint64_t addr, uint64_t *offset, void *kallsyms)
{
	struct kallsyms *k = kallsyms;
	const struct symbol *s;

	if (!k->loaded) {
		/* one attempt: an unreadable file stays unreadable for this run */
		k->loaded = true;
		if (kallsyms__load(k->path, &k->syms) > 0)
			symtab__finish(&k->syms);
	}
	s = symtab__find(&k->syms, addr);
	if (!s)
		return NULL;
	*offset = addr - s->start;
	return s->name;
}
