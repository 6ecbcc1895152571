// SPDX-License-Identifier: MIT
/*
 * DSOs of a session and where their symbols come from. A DSO that the
 * perf.data says had build-id X is only ever symbolized from a file with
 * build-id X: a rebuilt binary at the same path would give wrong names.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "build-id.h"
#include "debug.h"
#include "debuginfod.h"
#include "dso.h"
#include "strbuf.h"
#include "kallsyms.h"
#include "perf-map.h"
#include "symbol-elf.h"
#include "util.h"
#include "vdso.h"

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

void dsos__init(struct dsos *d)
{
	const char *env = getenv("PERF_DEBUGINFO_DIR");

	memset(d, 0, sizeof(*d));
	d->nbuckets = 256;
	d->buckets = xzalloc(d->nbuckets * sizeof(*d->buckets));
	d->owned_debug_dir = bidcache__default_root();
	d->debug_dir = d->owned_debug_dir;
	d->debuginfo_dir = env && env[0] ? env : "/usr/lib/debug";
	d->kallsyms_path = "/proc/kallsyms";
}

void *dso__priv(const struct dso *dso, const struct dso_priv_key *key)
{
	for (size_t i = 0; i < dso->nr_privs; i++)
		if (dso->privs[i].key == key)
			return dso->privs[i].data;
	return NULL;
}

void dso__set_priv(struct dso *dso, const struct dso_priv_key *key, void *data)
{
	for (size_t i = 0; i < dso->nr_privs; i++) {
		struct dso_priv *p = &dso->privs[i];

		if (p->key == key) {
			if (p->data && p->data != data)
				key->free(p->data);
			p->data = data;
			return;
		}
	}
	*ARRAY_PUSH(dso->privs, dso->nr_privs, dso->privs_cap) = (struct dso_priv){ key, data };
}

static void dso__delete(struct dso *dso)
{
	for (size_t i = 0; i < dso->nr_privs; i++)
		if (dso->privs[i].data)
			dso->privs[i].key->free(dso->privs[i].data);
	free(dso->privs);
	symtab__exit(&dso->symtab);
	free(dso->long_name);
	free(dso->short_name);
	free(dso->symsrc);
	free(dso->segs);
	free(dso);
}

void dsos__exit(struct dsos *d)
{
	for (size_t i = 0; i < d->nbuckets; i++) {
		struct dso *dso = d->buckets[i], *next;

		for (; dso; dso = next) {
			next = dso->hash_next;
			dso__delete(dso);
		}
	}
	free(d->buckets);
	free(d->owned_debug_dir);
	debuginfod__delete(d->debuginfod);
	memset(d, 0, sizeof(*d));
}

struct dso *dsos__find(struct dsos *d, const char *name)
{
	struct dso *dso;

	if (!d->nbuckets)
		return NULL;
	for (dso = d->buckets[name_hash(name) & (d->nbuckets - 1)]; dso; dso = dso->hash_next)
		if (!strcmp(dso->long_name, name))
			return dso;
	return NULL;
}

enum dso_kind dso__kind_of(const char *name)
{
	if (str_starts_with(name, "[kernel.kallsyms]") || str_starts_with(name, "[guest.kernel"))
		return DSO_KIND_KERNEL;
	if (!strcmp(name, "[vdso]"))
		return DSO_KIND_VDSO;
	if (perf_map__pid(name) >= 0)
		return DSO_KIND_PERF_MAP;
	if (name[0] == '[' || str_starts_with(name, "//") || str_starts_with(name, "/dev/") ||
	    str_starts_with(name, "/memfd:") || str_starts_with(name, "/anon_hugepage") ||
	    str_starts_with(name, "/SYSV") || !name[0])
		return DSO_KIND_ANON;
	return DSO_KIND_ELF;
}

static void dsos__grow(struct dsos *d)
{
	size_t n = d->nbuckets * 2;
	struct dso **b = xzalloc(n * sizeof(*b));

	for (size_t i = 0; i < d->nbuckets; i++) {
		struct dso *dso = d->buckets[i], *next;

		for (; dso; dso = next) {
			size_t k = name_hash(dso->long_name) & (n - 1);

			next = dso->hash_next;
			dso->hash_next = b[k];
			b[k] = dso;
		}
	}
	free(d->buckets);
	d->buckets = b;
	d->nbuckets = n;
}

struct dso *dsos__findnew(struct dsos *d, const char *name)
{
	struct dso *dso = dsos__find(d, name);
	const char *base;
	size_t k;

	if (dso)
		return dso;
	if (d->nr >= d->nbuckets)
		dsos__grow(d);
	dso = xzalloc(sizeof(*dso));
	dso->long_name = xstrdup(name);
	dso->kind = dso__kind_of(name);
	dso->owner = d;
	switch (dso->kind) {
	case DSO_KIND_KERNEL:
		dso->short_name = xstrdup("[kernel.kallsyms]");
		dso->absolute = true;
		break;
	case DSO_KIND_PERF_MAP:
		/* what perf 6.1 shows in the dso column */
		dso->short_name = xasprintf("[JIT] tid %d", perf_map__pid(name));
		dso->absolute = true;
		break;
	default:
		base = strrchr(name, '/');
		dso->short_name = xstrdup(base && base[1] && name[0] != '[' ? base + 1 : name);
		break;
	}
	k = name_hash(name) & (d->nbuckets - 1);
	dso->hash_next = d->buckets[k];
	d->buckets[k] = dso;
	dso->seq = d->nr++;
	return dso;
}

void dsos__for_each(struct dsos *d, void (*fn)(struct dso *dso, void *arg), void *arg)
{
	for (size_t i = 0; i < d->nbuckets; i++)
		for (struct dso *dso = d->buckets[i]; dso; dso = dso->hash_next)
			fn(dso, arg);
}

void dso__set_build_id(struct dso *dso, const uint8_t *id, size_t size)
{
	if (size > BUILD_ID_MAX)
		size = BUILD_ID_MAX;
	memcpy(dso->build_id, id, size);
	dso->build_id_size = (uint8_t)size;
	dso->build_id_from_file = true;
}

static bool dso__expects(const struct dso *dso)
{
	return dso->build_id_from_file && dso->build_id_size;
}

/* Opens path as a candidate; keeps it only if its build-id is the wanted one. */
static bool candidate__open(struct symsrc *ss, const char *path, const uint8_t *bid, size_t bsize)
{
	if (!path || symsrc__open(ss, path) < 0)
		return false;
	if (bsize && !build_id__equal(ss->build_id, ss->build_id_size > 0 ? (size_t)ss->build_id_size : 0,
				      bid, bsize)) {
		pr_debug("%s: build-id differs from the recorded one, not used\n", path);
		symsrc__close(ss);
		return false;
	}
	return true;
}

static int dso__load_elf(struct dsos *d, struct dso *dso)
{
	struct symsrc cand[4];
	int nc = 0, syms = -1, runtime = -1, n = 0;
	uint8_t bid[BUILD_ID_MAX];
	size_t bsize = 0;
	char *path, *p;
	bool file_ok;

	path = d->symfs ? xasprintf("%s%s", d->symfs, dso->long_name) : xstrdup(dso->long_name);
	file_ok = symsrc__open(&cand[3], path) == 0;
	if (dso__expects(dso)) {
		memcpy(bid, dso->build_id, dso->build_id_size);
		bsize = dso->build_id_size;
		if (file_ok && !build_id__equal(cand[3].build_id,
						cand[3].build_id_size > 0 ? (size_t)cand[3].build_id_size : 0,
						bid, bsize)) {
			pr_debug("%s: build-id differs from the recorded one, not used\n", path);
			symsrc__close(&cand[3]);
			file_ok = false;
		}
	} else if (file_ok && cand[3].build_id_size > 0) {
		bsize = (size_t)cand[3].build_id_size;
		memcpy(bid, cand[3].build_id, bsize);
		dso->build_id_size = (uint8_t)bsize;
		memcpy(dso->build_id, bid, bsize);
	}

	if (bsize && d->debuginfod)   /* missing here: fetched into the build-id cache */
		debuginfod__fill_cache(d->debuginfod, d->debug_dir, dso->long_name, bid, bsize,
				       file_ok, file_ok && cand[3].has_symtab);
	if (bsize) {
		char *dbg_root = d->symfs && !getenv("PERF_DEBUGINFO_DIR") ?
			xasprintf("%s%s", d->symfs, d->debuginfo_dir) : xstrdup(d->debuginfo_dir);

		p = build_id__debuginfo_path(dbg_root, bid, bsize);
		nc += candidate__open(&cand[nc], p, bid, bsize);
		free(p);
		free(dbg_root);
		if (d->debug_dir) {
			p = bidcache__file(d->debug_dir, bid, bsize, "debug");
			nc += candidate__open(&cand[nc], p, bid, bsize);
			free(p);
			if (!file_ok) {
				p = bidcache__file(d->debug_dir, bid, bsize, "elf");
				nc += candidate__open(&cand[nc], p, bid, bsize);
				free(p);
			}
		}
	}
	if (file_ok)
		cand[nc++] = cand[3];

	for (int i = 0; i < nc; i++) {
		if (syms < 0 && cand[i].has_symtab)
			syms = i;
		if (runtime < 0 && cand[i].has_text)
			runtime = i;
	}
	if (runtime < 0 && nc)
		runtime = nc - 1;
	if (syms >= 0) {
		n = symsrc__load_symbols(&cand[syms], &dso->symtab, false);
	} else {
		for (int i = 0; i < nc && syms < 0; i++)
			if (cand[i].has_dynsym)
				syms = i;
		if (syms >= 0)
			n = symsrc__load_symbols(&cand[syms], &dso->symtab, true);
	}
	if (runtime >= 0) {
		dso->nr_segs = symsrc__read_segments(&cand[runtime], &dso->segs);
		/* PLT stubs have no symbols; perf names them name@plt */
		n += symsrc__synthesize_plt(&cand[runtime], &dso->symtab);
	}
	if (syms >= 0 && n > 0)
		dso->symsrc = xstrdup(cand[syms].path);
	else if (!nc)
		pr_debug("%s: no usable file for symbols\n", dso->long_name);
	for (int i = 0; i < nc; i++)
		symsrc__close(&cand[i]);
	free(path);
	return n;
}

static int dso__load_kernel(struct dsos *d, struct dso *dso)
{
	uint8_t bid[BUILD_ID_MAX];
	int bsize = sysfs__read_build_id("/sys/kernel/notes", bid, sizeof(bid));
	const char *path = d->kallsyms_path;
	char *cached = NULL;
	int n;

	if (dso__expects(dso) && bsize > 0 &&
	    !build_id__equal(bid, (size_t)bsize, dso->build_id, dso->build_id_size)) {
		/* recorded on another kernel: only its saved kallsyms will do */
		cached = d->debug_dir ? bidcache__file(d->debug_dir, dso->build_id,
							      dso->build_id_size, "kallsyms") : NULL;
		if (!cached) {
			pr_debug("[kernel.kallsyms]: build-id differs and no cached kallsyms\n");
			return 0;
		}
		path = cached;
	} else if (!dso->build_id_size && bsize > 0) {
		memcpy(dso->build_id, bid, (size_t)bsize);
		dso->build_id_size = (uint8_t)bsize;
	}
	n = kallsyms__load(path, &dso->symtab);
	if (n > 0)
		dso->symsrc = xstrdup(path);
	free(cached);
	return n < 0 ? 0 : n;
}

static int dso__load_vdso(struct dsos *d, struct dso *dso)
{
	size_t size = 0;
	const void *img = vdso__image(&size);
	struct symsrc ss;
	char *cached = NULL;
	void *copy = NULL;
	int n = 0;

	if (img) {
		copy = xmalloc(size);
		memcpy(copy, img, size);
		if (symsrc__open_mem(&ss, copy, size, "[vdso]") < 0) {
			free(copy);
			copy = NULL;
		} else if (dso__expects(dso) &&
			   !build_id__equal(ss.build_id, ss.build_id_size > 0 ? (size_t)ss.build_id_size : 0,
					    dso->build_id, dso->build_id_size)) {
			symsrc__close(&ss);
			free(copy);
			copy = NULL;
		}
	}
	if (!copy) {
		/* not our vdso: the one saved in the build-id cache at record time */
		if (!dso__expects(dso) || !d->debug_dir)
			return 0;
		cached = bidcache__file(d->debug_dir, dso->build_id, dso->build_id_size, "vdso");
		if (!candidate__open(&ss, cached, dso->build_id, dso->build_id_size)) {
			free(cached);
			return 0;
		}
	}
	if (!dso->build_id_size && ss.build_id_size > 0) {
		memcpy(dso->build_id, ss.build_id, (size_t)ss.build_id_size);
		dso->build_id_size = (uint8_t)ss.build_id_size;
	}
	n = symsrc__load_symbols(&ss, &dso->symtab, !ss.has_symtab);
	dso->nr_segs = symsrc__read_segments(&ss, &dso->segs);
	dso->symsrc = xstrdup(cached ? cached : "[vdso]");
	symsrc__close(&ss);
	free(copy);
	free(cached);
	return n;
}

int dso__load(struct dsos *d, struct dso *dso)
{
	int n = 0;

	if (dso->loaded)
		return (int)dso->symtab.nr;
	dso->loaded = true;
	if (!d)
		d = dso->owner;
	switch (dso->kind) {
	case DSO_KIND_ELF:
		n = dso__load_elf(d, dso);
		break;
	case DSO_KIND_KERNEL:
		n = dso__load_kernel(d, dso);
		break;
	case DSO_KIND_VDSO:
		n = dso__load_vdso(d, dso);
		break;
	case DSO_KIND_PERF_MAP:
		n = perf_map__load(dso->long_name, &dso->symtab);
		if (n > 0)
			dso->symsrc = xstrdup(dso->long_name);
		break;
	case DSO_KIND_ANON:
		break;
	}
	if (n <= 0)
		symtab__exit(&dso->symtab);
	symtab__finish(&dso->symtab);
	return (int)dso->symtab.nr;
}

uint64_t dso__offset_to_addr(const struct dso *dso, uint64_t offset)
{
	const struct dso_segment *best = NULL;

	if (dso->absolute)
		return offset;
	if (!dso->loaded && dso->owner)
		dso__load(dso->owner, (struct dso *)dso);
	for (size_t i = 0; i < dso->nr_segs; i++) {
		const struct dso_segment *s = &dso->segs[i];

		if (offset >= s->offset && offset < s->offset + s->filesz)
			return offset - s->offset + s->vaddr;
		/* in the page of a segment but outside its file bytes */
		if (offset >= (s->offset & ~4095ull) && (!best || s->offset > best->offset))
			best = s;
	}
	return best ? offset - best->offset + best->vaddr : offset;
}

struct symbol *dso__find_symbol(struct dso *dso, uint64_t addr)
{
	if (!dso->loaded)
		dso__load(dso->owner, dso);
	return symtab__find(&dso->symtab, addr);
}
