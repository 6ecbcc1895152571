// SPDX-License-Identifier: MIT
/*
 * addr -> "file.c:42" from DWARF line tables (libdw). libdw reads a CU's
 * line table only when an address in that CU is asked for and keeps it, so
 * the cost is proportional to the code that got samples. Answers (also
 * misses) are cached per DSO in an open-addressing table.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debug.h"
#include "dso.h"
#include "strbuf.h"
#include "symbol.h"
#include "util.h"

struct srcline_entry {
	uint64_t addr;
	char *line;        /* NULL = no line info */
	bool used;
};

struct srcline_state {
	int fd;
	Dwarf *dw;
	struct srcline_entry *tab;
	size_t cap, nr;
	char **strings;    /* inline-chain names, freed with the state */
	size_t nstrings, strings_cap;
};

static void srcline_state__free(void *data)
{
	struct srcline_state *st = data;

	for (size_t i = 0; i < st->cap; i++)
		free(st->tab[i].line);
	for (size_t i = 0; i < st->nstrings; i++)
		free(st->strings[i]);
	free(st->strings);
	free(st->tab);
	if (st->dw)
		dwarf_end(st->dw);
	if (st->fd >= 0)
		close(st->fd);
	free(st);
}

/* srcline's state lives on the DSO and is freed with it */
static const struct dso_priv_key srcline_key = { "srcline", srcline_state__free };

static struct srcline_state *srcline__state(struct dso *dso)
{
	struct srcline_state *st = dso__priv(dso, &srcline_key);

	if (st)
		return st->dw ? st : NULL;
	st = xzalloc(sizeof(*st));
	st->fd = -1;
	dso__set_priv(dso, &srcline_key, st);
	if (!dso->loaded && dso->owner)
		dso__load(dso->owner, dso);
	if (!dso->symsrc || dso->kind != DSO_KIND_ELF)
		return NULL;
	st->fd = open(dso->symsrc, O_RDONLY | O_CLOEXEC);
	if (st->fd < 0)
		return NULL;
	st->dw = dwarf_begin(st->fd, DWARF_C_READ);
	if (!st->dw) {
		pr_debug("%s: no DWARF: %s\n", dso->symsrc, dwarf_errmsg(-1));
		close(st->fd);
		st->fd = -1;
		return NULL;
	}
	st->cap = 64;
	st->tab = xzalloc(st->cap * sizeof(*st->tab));
	return st;
}

static size_t addr_slot(const struct srcline_state *st, uint64_t addr)
{
	uint64_t h = addr * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 17) & (st->cap - 1);
}

static struct srcline_entry *srcline__slot(struct srcline_state *st, uint64_t addr)
{
	size_t i = addr_slot(st, addr);

	while (st->tab[i].used && st->tab[i].addr != addr)
		i = (i + 1) & (st->cap - 1);
	return &st->tab[i];
}

static void srcline__grow(struct srcline_state *st)
{
	struct srcline_entry *old = st->tab;
	size_t oldcap = st->cap;

	st->cap *= 2;
	st->tab = xzalloc(st->cap * sizeof(*st->tab));
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].used)
			*srcline__slot(st, old[i].addr) = old[i];
	free(old);
}

static bool cu_of(Dwarf *dw, uint64_t addr, Dwarf_Die *cu)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (dwarf_addrdie(dw, addr, cu))
		return true;
	/* no usable .debug_aranges: ask each CU */
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		if (dwarf_offdie(dw, off + hsize, cu) && dwarf_haspc(cu, addr) > 0)
			return true;
		off = next;
	}
	return false;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static char *lookup_line(Dwarf *dw, uint64_t addr)
{
	Dwarf_Die cu;
	Dwarf_Line *line;
	const char *file;
	int lineno;

	if (!cu_of(dw, addr, &cu))
		return NULL;
	line = dwarf_getsrc_die(&cu, addr);
	if (!line || dwarf_lineno(line, &lineno) != 0 || lineno <= 0)
		return NULL;
	file = dwarf_linesrc(line, NULL, NULL);
	if (!file)
		return NULL;
	return xasprintf("%s:%d", base_name(file), lineno);
}

const char *dso__srcline(struct dsos *d, struct dso *dso, uint64_t addr)
{
	struct srcline_state *st = srcline__state(dso);
	struct srcline_entry *e;

	if (!st)
		return NULL;
	e = srcline__slot(st, addr);
	if (e->used)
		return e->line;
	if (2 * (st->nr + 1) > st->cap) {
		srcline__grow(st);
		e = srcline__slot(st, addr);
	}
	e->used = true;
	e->addr = addr;
	e->line = lookup_line(st->dw, addr);
	st->nr++;
	return e->line;
}

static const char *keep(struct srcline_state *st, char *s)
{
	if (!s)
		return NULL;
	*ARRAY_PUSH(st->strings, st->nstrings, st->strings_cap) = s;
	return s;
}

static const char *die_function_name(struct srcline_state *st, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = dwarf_diename(die), *linkage;

	if (name)
		return name;
	/* C++ without DW_AT_name on this DIE: the linkage name */
	if ((dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
	     dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr)) &&
	    (linkage = dwarf_formstring(&attr)) != NULL) {
		char *dm = symbol__demangle(linkage);

		return dm ? keep(st, dm) : linkage;
	}
	return "??";
}

/* Appends the subprogram and inlined subroutines containing addr below die, outermost first. */
static int collect_scopes(Dwarf_Die *die, uint64_t addr, Dwarf_Die *chain, int n, int max)
{
	Dwarf_Die child;

	if (n >= max || dwarf_child(die, &child) != 0)
		return n;
	do {
		int tag = dwarf_tag(&child);

		switch (tag) {
		case DW_TAG_namespace:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
			/* C++ functions defined inside these have no pc range of their own scope */
			if (dwarf_haspc(&child, addr) <= 0) {
				int m = collect_scopes(&child, addr, chain, n, max);

				if (m > n)
					return m;
				break;
			}
			/* fallthrough */
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_lexical_block:
			if (dwarf_haspc(&child, addr) <= 0)
				break;
			if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
				chain[n++] = child;
			return collect_scopes(&child, addr, chain, n, max);
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return n;
}

int dso__inline_chain(struct dsos *d, struct dso *dso, uint64_t addr,
		      struct inline_frame *frames, int max)
{
	struct srcline_state *st = srcline__state(dso);
	Dwarf_Die cu, chain[32];
	Dwarf_Files *files = NULL;
	const char *srcline;
	int nchain, n = 0;

	if (!st || max <= 0 || !cu_of(st->dw, addr, &cu))
		return 0;
	srcline = dso__srcline(d, dso, addr);
	nchain = collect_scopes(&cu, addr, chain, 0, (int)ARRAY_SIZE(chain));
	dwarf_getsrcfiles(&cu, &files, NULL);
	/* innermost first */
	for (int i = nchain - 1; i >= 0 && n < max; i--) {
		Dwarf_Die *sc = &chain[i];
		Dwarf_Attribute attr;
		Dwarf_Word fileidx = 0, lineno = 0;

		frames[n].func = die_function_name(st, sc);
		frames[n].srcline = srcline;
		n++;
		if (dwarf_tag(sc) != DW_TAG_inlined_subroutine)
			break;
		/* the caller's frame is at this inlined call's call site */
		srcline = NULL;
		if (dwarf_formudata(dwarf_attr(sc, DW_AT_call_file, &attr), &fileidx) == 0 &&
		    dwarf_formudata(dwarf_attr(sc, DW_AT_call_line, &attr), &lineno) == 0 && files) {
			const char *f = dwarf_filesrc(files, fileidx, NULL, NULL);

			if (f)
				srcline = keep(st, xasprintf("%s:%u", base_name(f), (unsigned)lineno));
		}
	}
	return n;
}
