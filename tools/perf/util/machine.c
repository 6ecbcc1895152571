// SPDX-License-Identifier: MIT
#include <elf.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include "debug.h"
#include "jit-save.h"
#include "machine.h"
#include "namespaces.h"
#include "perf-map.h"
#include "util.h"

static struct maps *maps__new(void)
{
	struct maps *m = xzalloc(sizeof(*m));

	m->refcnt = 1;
	return m;
}

static void map__put(struct map *map)
{
	if (map && --map->refcnt == 0)
		free(map);
}

static struct map *map__clone_part(const struct map *src, uint64_t start, uint64_t end)
{
	struct map *m = xmalloc(sizeof(*m));

	*m = *src;
	m->refcnt = 1;
	/* a piece cut off the front keeps its file position */
	m->pgoff = src->pgoff + (start - src->start);
	m->start = start;
	m->end = end;
	return m;
}

static void maps__put(struct maps *maps)
{
	if (!maps || --maps->refcnt)
		return;
	for (size_t i = 0; i < maps->nr; i++)
		map__put(maps->entries[i]);
	free(maps->entries);
	free(maps);
}

static struct maps *maps__clone(const struct maps *src)
{
	struct maps *m = maps__new();

	m->cap = src->nr;
	m->nr = src->nr;
	m->entries = xmalloc((m->cap ? m->cap : 1) * sizeof(*m->entries));
	for (size_t i = 0; i < src->nr; i++) {
		m->entries[i] = src->entries[i];
		m->entries[i]->refcnt++;
	}
	return m;
}

/* first index whose end > addr */
static size_t maps__lower(const struct maps *maps, uint64_t addr)
{
	size_t lo = 0, hi = maps->nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (maps->entries[mid]->end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct map *maps__find(struct maps *maps, uint64_t addr)
{
	size_t i = maps__lower(maps, addr);

	if (i < maps->nr && maps->entries[i]->start <= addr)
		return maps->entries[i];
	return NULL;
}

void maps__insert(struct maps *maps, struct map *map)
{
	size_t i = maps__lower(maps, map->start), j = i;
	struct map *keep[2] = { NULL, NULL };
	size_t nkeep = 0, need;

	/* entries i..j-1 overlap the new map: keep their parts outside it */
	while (j < maps->nr && maps->entries[j]->start < map->end)
		j++;
	if (i < j) {
		struct map *first = maps->entries[i], *last = maps->entries[j - 1];

		if (first->start < map->start)
			keep[nkeep++] = map__clone_part(first, first->start, map->start);
		if (last->end > map->end)
			keep[nkeep++] = map__clone_part(last, map->end, last->end);
		for (size_t k = i; k < j; k++)
			map__put(maps->entries[k]);
	}
	need = maps->nr - (j - i) + 1 + nkeep;
	if (need > maps->cap) {
		maps->cap = need < 16 ? 16 : need * 2;
		maps->entries = xrealloc(maps->entries, maps->cap * sizeof(*maps->entries));
	}
	memmove(&maps->entries[i + 1 + nkeep], &maps->entries[j], (maps->nr - j) * sizeof(*maps->entries));
	if (nkeep && keep[0]->start < map->start) {
		maps->entries[i++] = keep[0];
		maps->entries[i++] = map;
		if (nkeep == 2)
			maps->entries[i++] = keep[1];
	} else {
		maps->entries[i++] = map;
		if (nkeep)
			maps->entries[i++] = keep[0];
	}
	maps->nr = need;
}

uint64_t map__map_ip(const struct map *map, uint64_t ip)
{
	if (!map->dso || map->dso->absolute)
		return ip;
	return dso__offset_to_addr(map->dso, ip - map->start + map->pgoff);
}

void machine__init(struct machine *m)
{
	memset(m, 0, sizeof(*m));
	m->nthreads_buckets = 1024;
	m->threads = xzalloc(m->nthreads_buckets * sizeof(*m->threads));
	m->kmaps = maps__new();
	m->ksymbols = maps__new();
	dsos__init(&m->dsos);
}

void machine__exit(struct machine *m)
{
	for (size_t b = 0; b < m->nthreads_buckets; b++) {
		struct thread *t = m->threads[b], *n;

		for (; t; t = n) {
			n = t->hash_next;
			maps__put(t->maps);
			free(t->comm);
			free(t);
		}
	}
	free(m->threads);
	maps__put(m->kmaps);
	maps__put(m->ksymbols);
	dsos__exit(&m->dsos);
	jit_saved__delete(m->saved);
	free(m->data_path);
	free(m->sym_cache);
}

void machine__set_data_path(struct machine *m, const char *path)
{
	free(m->data_path);
	m->data_path = path && strcmp(path, "-") ? xstrdup(path) : NULL;
}

/*
 * /tmp/perf-<pid>.map of a process of our namespaces, before dso.c reads it:
 * JIT samples that nothing will name say why; a map older than the process
 * (left by an earlier process with the same pid) is ignored, with a warning.
 * The process is only known while it lives: it is the recorded one when it
 * started before the recording ended (perf.data's mtime).
 */
static void machine__check_host_perf_map(struct machine *m, int pid, struct dso *dso)
{
	struct stat map_st, data_st;
	struct ns_proc ns;
	char host[64];
	double start;

	snprintf(host, sizeof(host), "/tmp/perf-%d.map", pid);
	if (lstat(host, &map_st)) {
		if (errno == ENOENT)
			pr_warning("pid %d has JIT samples but there is no %s; if it ran in a container "
				   "(another pid namespace), its map was in there: record it with this perf "
				   "record, which saves it, or report while it runs\n", pid, host);
		return;
	}
	if (ns_proc__read(pid, &ns) || ns_proc__start_time(&ns, &start) || stat(m->data_path, &data_st))
		return;
	/* a start after the recording: the pid was reused since, that process says nothing */
	if (start > (double)data_st.st_mtime + 1)
		return;
	/* boot time is known to the second, the start to a tick: two seconds of slack */
	if ((double)map_st.st_mtime + 2 < start) {
		pr_warning("%s is older than process %d (last written %.0f s before it started): "
			   "left by an earlier process with the same pid, ignored\n", host, pid,
			   start - (double)map_st.st_mtime);
		dso->loaded = true;
		symtab__finish(&dso->symtab);
	}
}

/*
 * The perf map of pid when pid ran in another namespace: loads dso from
 * record's copy, or through the live process's root, and marks it loaded
 * so that our own /tmp/perf-<pid>.map (another process's, or planted) is
 * never read for it. Leaves dso alone for a process of our namespaces.
 */
static void machine__load_ns_perf_map(struct machine *m, int pid, struct dso *dso)
{
	const struct jit_saved_file *copy;
	struct ns_proc ns;
	char inner[64];
	pid_t nspid;
	int n = -1, fd;

	if (!m->data_path || dso->loaded || pid <= 0)
		return;
	if (!m->saved_loaded) {
		m->saved_loaded = true;
		m->saved = jit_saved__load(m->data_path);
	}
	nspid = jit_saved__nspid(m->saved, pid);
	if (nspid < 0) {
		/* no copy at all (perf 6.1's recording): the live process, if it is one of a container */
		if (m->saved || ns_proc__read(pid, &ns) || !ns_proc__contained(&ns)) {
			machine__check_host_perf_map(m, pid, dso);
			return;
		}
		nspid = ns.nspid;
	}
	dso->loaded = true;
	snprintf(inner, sizeof(inner), "/tmp/perf-%d.map", (int)nspid);
	copy = jit_saved__find(m->saved, pid, true, NULL);
	if (copy) {
		n = perf_map__load(copy->path, &dso->symtab);
		if (n > 0)
			dso->symsrc = xstrdup(copy->path);
	} else if (!m->saved && (fd = ns_proc__open(&ns, inner)) >= 0) {
		n = perf_map__load_fd(fd, inner, ns.uid, &dso->symtab);
		close(fd);
		if (n > 0)
			dso->symsrc = xasprintf("/proc/%d/root%s", (int)pid, inner);
	} else if (!m->saved) {
		if (errno != ENOENT)
			pr_warning("pid %d (pid %d in its container) has JIT samples but its %s cannot be read: %s%s\n",
				   (int)pid, (int)nspid, inner, strerror(errno), errno == ELOOP ? " (a symlink: refused)" : "");
		else
			pr_warning("pid %d (pid %d in its container) has JIT samples but no %s in its root; "
				   "a runtime writes it with e.g. node --perf-basic-prof\n", (int)pid, (int)nspid, inner);
	} else if (jit_saved__find(m->saved, pid, false, NULL)) {
		pr_warning("pid %d (pid %d in its container) has JIT samples; its jitdump was saved in %s/: "
			   "name them with perf inject --jit -i %s -o OUT, then report on OUT\n",
			   (int)pid, (int)nspid, m->saved->dir, m->data_path);
	} else {
		pr_warning("pid %d (pid %d in its container) has JIT samples but %s/ holds no copy of its %s: "
			   "it had none while recorded (node writes it with --perf-basic-prof)\n",
			   (int)pid, (int)nspid, m->saved->dir, inner);
	}
	if (n <= 0)
		symtab__exit(&dso->symtab);
	symtab__finish(&dso->symtab);
}

static size_t tid_hash(const struct machine *m, int32_t tid)
{
	return ((uint32_t)tid * 2654435761u) % m->nthreads_buckets;
}

struct thread *machine__find_thread(struct machine *m, int32_t tid)
{
	for (struct thread *t = m->threads[tid_hash(m, tid)]; t; t = t->hash_next)
		if (t->tid == tid)
			return t;
	return NULL;
}

static void machine__grow(struct machine *m)
{
	size_t nb = m->nthreads_buckets * 4;
	struct thread **nt = xzalloc(nb * sizeof(*nt));

	for (size_t b = 0; b < m->nthreads_buckets; b++) {
		struct thread *t = m->threads[b], *n;

		for (; t; t = n) {
			size_t h = ((uint32_t)t->tid * 2654435761u) % nb;

			n = t->hash_next;
			t->hash_next = nt[h];
			nt[h] = t;
		}
	}
	free(m->threads);
	m->threads = nt;
	m->nthreads_buckets = nb;
}

static struct thread *thread__new(struct machine *m, int32_t pid, int32_t tid)
{
	struct thread *t = xzalloc(sizeof(*t));
	size_t h;

	t->pid = pid;
	t->tid = tid;
	t->ppid = -1;
	/* the idle task has no COMM record; perf calls it swapper */
	t->comm = tid == 0 ? xstrdup("swapper") : xasprintf(":%d", tid);
	if (m->nr_threads > m->nthreads_buckets * 2)
		machine__grow(m);
	h = tid_hash(m, tid);
	t->hash_next = m->threads[h];
	m->threads[h] = t;
	m->nr_threads++;
	return t;
}

struct thread *machine__findnew_thread(struct machine *m, int32_t pid, int32_t tid)
{
	struct thread *t = machine__find_thread(m, tid);

	if (t) {
		/* the pid may be learned later than the tid (synthesized records) */
		if (t->pid == -1 && pid != -1)
			t->pid = pid;
		return t;
	}
	t = thread__new(m, pid, tid);
	if (pid != -1 && pid != tid) {
		struct thread *leader = machine__findnew_thread(m, pid, pid);

		t->maps = leader->maps;
		t->maps->refcnt++;
		/* a thread starts with its process's name; tid -1 (the kernel's
		 * "no thread", e.g. a switch away from an exiting task) stays
		 * ":-1", as in perf 6.1 */
		if (tid != -1) {
			free(t->comm);
			t->comm = xstrdup(leader->comm);
		}
	} else
		t->maps = maps__new();
	return t;
}

static void thread__set_comm(struct thread *t, const char *comm)
{
	free(t->comm);
	t->comm = xstrdup(comm);
	t->comm_set = true;
}

static int process_fork(struct machine *m, const struct perf_record_fork *f)
{
	struct thread *parent, *child;

	if (f->pid == f->ppid && f->tid == f->ptid)
		return 0;
	parent = machine__findnew_thread(m, f->ppid, f->ptid);
	child = machine__find_thread(m, f->tid);
	/* a FORK naming its parent thread as the child (tid == ptid, a damaged
	 * file): nothing to inherit, and "resetting" it would free what we copy */
	if (child == parent)
		return 0;
	if (child) {
		/* tid reuse: the old thread is gone */
		maps__put(child->maps);
		child->maps = NULL;
		child->exited = false;
	} else
		child = thread__new(m, f->pid, f->tid);
	child->pid = f->pid;
	child->ppid = f->ppid;
	/* a parent known only by its tid has no name to hand down: the child
	 * keeps its own ":TID", as in perf 6.1 (the idle task is "swapper") */
	if (parent->comm_set || parent->tid == 0) {
		free(child->comm);
		child->comm = xstrdup(parent->comm);
		child->comm_set = true;
	}
	if (f->pid == f->ppid) {
		/* a new thread shares the address space */
		child->maps = parent->maps;
		child->maps->refcnt++;
	} else
		child->maps = maps__clone(parent->maps);
	return 0;
}

/* what perf 6.1 treats as anonymous memory that a perf-PID.map may describe */
bool machine__is_anon_name(const char *name)
{
	return !strcmp(name, "//anon") || str_starts_with(name, "/dev/zero") ||
	       str_starts_with(name, "/anon_hugepage");
}

static struct dso *dso_for_mapping(struct machine *m, int32_t pid, const char *name, bool kernel)
{
	char buf[64];
	struct dso *dso;
	enum dso_kind kind = DSO_KIND_ELF;

	if (kernel) {
		name = "[kernel.kallsyms]";
		kind = DSO_KIND_KERNEL;
	} else if (!strcmp(name, "[vdso]")) {
		kind = DSO_KIND_VDSO;
	} else if (machine__is_anon_name(name)) {
		/* anonymous executable memory: a JIT may describe it in perf-PID.map */
		snprintf(buf, sizeof(buf), "/tmp/perf-%d.map", pid);
		name = buf;
		kind = DSO_KIND_PERF_MAP;
	} else if (name[0] == '[') {
		kind = DSO_KIND_ANON;   /* [heap], [stack], [vsyscall], ... */
	}
	dso = dsos__findnew(&m->dsos, name);
	if (!dso->loaded) {
		dso->kind = kind;
		dso->absolute = kind == DSO_KIND_KERNEL || kind == DSO_KIND_PERF_MAP || kind == DSO_KIND_ANON;
	}
	return dso;
}

static int process_mmap(struct machine *m, uint32_t pid, uint32_t tid, uint64_t start, uint64_t len,
			uint64_t pgoff, uint32_t prot, uint32_t flags, const char *filename,
			uint16_t misc, const uint8_t *build_id, uint8_t build_id_size)
{
	uint8_t cpumode = misc & PERF_MISC_CPUMODE_MASK;
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	struct map *map;
	struct maps *maps;

	if (len == 0 || start + len < start)
		return 0;
	if (kernel) {
		/* only the kernel image itself; modules keep their own names */
		if (str_starts_with(filename, "[kernel.kallsyms]") || str_starts_with(filename, "[guest.kernel")) {
			m->kernel_map_seen = true;
			/* like perf: the kernel map reaches the end of the address space
			 * (modules, bpf), everything below _text is unknown */
			len = ~0ull - start;
		} else if (filename[0] == '/' || filename[0] == '[') {
			map = xzalloc(sizeof(*map));
			map->start = start;
			map->end = start + len;
			map->pgoff = pgoff;
			map->refcnt = 1;
			map->dso = dsos__findnew(&m->dsos, filename);
			map->dso->kind = DSO_KIND_KERNEL;
			map->dso->absolute = true;
			maps__insert(m->kmaps, map);
			return 0;
		}
		maps = m->kmaps;
	} else {
		struct thread *t = machine__findnew_thread(m, pid, tid);

		maps = t->maps;
	}
	map = xzalloc(sizeof(*map));
	map->start = start;
	map->end = start + len;
	map->pgoff = pgoff;
	map->prot = prot;
	map->flags = flags;
	map->refcnt = 1;
	map->dso = dso_for_mapping(m, pid, filename, kernel);
	if (build_id_size && !map->dso->build_id_size)
		dso__set_build_id(map->dso, build_id, build_id_size);
	maps__insert(maps, map);
	return 0;
}

/*
 * KSYMBOL: [addr, addr+len) is kernel code named `name` from now on (a DSO
 * of that name with one symbol, as perf 6.1 shows it), until an UNREGISTER
 * of the range; then the kernel map answers for it again. Kept apart from
 * kmaps because the kernel map spans these addresses and must come back.
 */
static int process_ksymbol(struct machine *m, const struct perf_record_ksymbol *k, size_t size)
{
	size_t max = size - offsetof(struct perf_record_ksymbol, name);
	uint64_t end = k->addr + k->len;
	char name[512];
	struct map *map;
	size_t i, j;

	if (size <= sizeof(*k) || !k->len || end < k->addr)
		return 0;
	/* drop what the range covered (a new registration or an unregistration) */
	i = maps__lower(m->ksymbols, k->addr);
	for (j = i; j < m->ksymbols->nr && m->ksymbols->entries[j]->start < end; j++)
		map__put(m->ksymbols->entries[j]);
	if (j > i) {
		memmove(&m->ksymbols->entries[i], &m->ksymbols->entries[j],
			(m->ksymbols->nr - j) * sizeof(*m->ksymbols->entries));
		m->ksymbols->nr -= j - i;
	}
	if (k->flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER)
		return 0;
	snprintf(name, sizeof(name), "%.*s", (int)strnlen(k->name, max), k->name);
	map = xzalloc(sizeof(*map));
	map->start = k->addr;
	map->end = end;
	map->refcnt = 1;
	map->dso = dsos__findnew(&m->dsos, name);
	if (!map->dso->loaded) {
		map->dso->kind = DSO_KIND_ANON;
		map->dso->absolute = true;
		map->dso->loaded = true;
		symtab__add(&map->dso->symtab, k->addr, k->len, STB_GLOBAL, STT_FUNC, name);
		symtab__finish(&map->dso->symtab);
	}
	maps__insert(m->ksymbols, map);
	return 0;
}

int machine__process_event(struct machine *m, const union perf_event *ev, const struct perf_sample *s)
{
	size_t size = ev->header.size;

	(void)s;
	switch (ev->header.type) {
	case PERF_RECORD_COMM: {
		struct thread *t;
		char comm[256];
		size_t max = size - offsetof(struct perf_record_comm, comm);

		if (size < sizeof(ev->comm))
			return 0;
		snprintf(comm, sizeof(comm), "%.*s", (int)strnlen(ev->comm.comm, max), ev->comm.comm);
		t = machine__findnew_thread(m, ev->comm.pid, ev->comm.tid);
		thread__set_comm(t, comm);
		return 0;
	}
	case PERF_RECORD_FORK:
		if (size < sizeof(ev->fork))
			return 0;
		return process_fork(m, &ev->fork);
	case PERF_RECORD_EXIT: {
		struct thread *t;

		if (size < sizeof(ev->fork))
			return 0;
		t = machine__find_thread(m, ev->fork.tid);
		if (t)
			t->exited = true;
		return 0;
	}
	case PERF_RECORD_MMAP: {
		char name[4096];
		size_t max = size - offsetof(struct perf_record_mmap, filename);

		if (size <= sizeof(ev->mmap))
			return 0;
		snprintf(name, sizeof(name), "%.*s", (int)strnlen(ev->mmap.filename, max), ev->mmap.filename);
		return process_mmap(m, ev->mmap.pid, ev->mmap.tid, ev->mmap.start, ev->mmap.len,
				    ev->mmap.pgoff, 5, 0, name, ev->header.misc, NULL, 0);
	}
	case PERF_RECORD_MMAP2: {
		char name[4096];
		size_t max = size - offsetof(struct perf_record_mmap2, filename);
		bool has_bid = ev->header.misc & PERF_MISC_MMAP_BUILD_ID;

		if (size <= sizeof(ev->mmap2))
			return 0;
		snprintf(name, sizeof(name), "%.*s", (int)strnlen(ev->mmap2.filename, max), ev->mmap2.filename);
		return process_mmap(m, ev->mmap2.pid, ev->mmap2.tid, ev->mmap2.start, ev->mmap2.len,
				    ev->mmap2.pgoff, ev->mmap2.prot, ev->mmap2.flags, name, ev->header.misc,
				    has_bid ? ev->mmap2.build_id : NULL,
				    has_bid ? MIN(ev->mmap2.build_id_size, BUILD_ID_MAX) : 0);
	}
	case PERF_RECORD_KSYMBOL:
		return process_ksymbol(m, &ev->ksymbol, size);
	default:
		return 0;
	}
}

struct map *machine__find_map(struct machine *m, struct thread *t, uint8_t cpumode, uint64_t ip)
{
	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL) {
		struct map *map = maps__find(m->ksymbols, ip);

		return map ? map : maps__find(m->kmaps, ip);
	}
	return t && t->maps ? maps__find(t->maps, ip) : NULL;
}

/*
 * Call chains repeat the same addresses over and over: remember what the last
 * lookup of an address found instead of a binary search of a big symbol table
 * (the kernel's) each time. Keyed by the table's size too: it is filled once,
 * when the DSO is loaded, so a different size means the entry is stale.
 */
#define SYM_CACHE_SLOTS 16384

struct sym_cache_slot {
	const struct dso *dso;
	uint64_t addr;
	size_t nr;
	struct symbol *sym;
};

static struct symbol *machine__find_symbol(struct machine *m, struct dso *dso, uint64_t addr)
{
	struct sym_cache_slot *c;
	uint64_t h = ((uintptr_t)dso ^ addr) * 0x9E3779B97F4A7C15ull;

	if (!m->sym_cache)
		m->sym_cache = xzalloc(SYM_CACHE_SLOTS * sizeof(*m->sym_cache));
	c = &m->sym_cache[h >> 50];   /* the top 14 bits: SYM_CACHE_SLOTS */
	if (c->dso != dso || c->addr != addr || c->nr != dso->symtab.nr || !dso->loaded) {
		c->sym = dso__find_symbol(dso, addr);
		c->dso = dso;
		c->addr = addr;
		c->nr = dso->symtab.nr;
	}
	return c->sym;
}

int machine__resolve(struct machine *m, int32_t pid, int32_t tid, uint8_t cpumode, uint64_t ip,
		     struct addr_location *al, bool no_symbols)
{
	memset(al, 0, sizeof(*al));
	al->cpumode = cpumode;
	al->kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	al->addr = ip;
	if (tid == -1 && pid == -1)
		return -1;
	al->thread = machine__findnew_thread(m, pid, tid == -1 ? pid : tid);
	al->map = machine__find_map(m, al->thread, cpumode, ip);
	if (!al->map)
		return 0;
	al->dso = al->map->dso;
	al->dso->hit = true;
	if (no_symbols)
		return 0;
	if (al->dso->kind == DSO_KIND_PERF_MAP && !al->dso->loaded)
		machine__load_ns_perf_map(m, perf_map__pid(al->dso->long_name), al->dso);
	dso__load(&m->dsos, al->dso);
	al->addr = map__map_ip(al->map, ip);
	al->sym = machine__find_symbol(m, al->dso, al->addr);
	return 0;
}
