/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_MACHINE_H
#define PERF_UTIL_MACHINE_H

/*
 * The address-space model: threads with their maps, built from COMM, FORK,
 * EXIT, MMAP and MMAP2 records processed in time order. A mapping over an
 * existing range replaces the overlapped part from then on, so a sample
 * resolves to what was mapped at its time.
 */
#include <stdbool.h>
#include <stdint.h>
#include "dso.h"
#include "event.h"
#include "sample.h"

struct map {
	uint64_t start, end;          /* runtime addresses, end exclusive */
	uint64_t pgoff;
	uint32_t prot, flags;
	struct dso *dso;
	unsigned refcnt;
};

struct maps {
	struct map **entries;         /* sorted by start, non-overlapping */
	size_t nr, cap;
	unsigned refcnt;              /* shared by the threads of one process */
};

struct thread {
	int32_t pid, tid, ppid;
	char *comm;
	bool comm_set;
	bool exited;
	struct maps *maps;
	struct thread *hash_next;
	void *priv;                   /* per-tool data */
};

struct machine {
	struct thread **threads;      /* hash by tid */
	size_t nthreads_buckets, nr_threads;
	struct maps *kmaps;           /* kernel maps (pid -1) */
	struct maps *ksymbols;        /* KSYMBOL ranges (BPF programs, trampolines): before kmaps */
	struct dsos dsos;
	bool kernel_map_seen;
	/* perf maps of processes in containers (machine__set_data_path) */
	char *data_path;              /* the perf.data read, for what record saved beside it */
	struct jit_saved *saved;
	bool saved_loaded;
	struct sym_cache_slot *sym_cache; /* (dso, address) -> symbol, see machine__resolve */
};

/* What an address resolved to. Any of map/dso/sym may be NULL. */
struct addr_location {
	struct thread *thread;
	struct map *map;
	struct dso *dso;
	struct symbol *sym;
	uint64_t addr;                /* in the DSO's symbol space (for symoff/srcline) */
	uint8_t cpumode;
	bool kernel;                  /* printed with [k] */
};

struct jit_saved;

void machine__init(struct machine *m);

/*
 * The perf.data being read: a process that ran in another namespace gets
 * its /tmp/perf-<nspid>.map from what record saved beside it
 * (util/jit-save.h), or from inside its root while it lives, never from
 * our /tmp/perf-<pid>.map. Without it (record's own model) maps are
 * looked up as perf 6.1 does.
 */
void machine__set_data_path(struct machine *m, const char *path);
void machine__exit(struct machine *m);

/* COMM, FORK, EXIT, MMAP, MMAP2, KSYMBOL: update the model. Others are ignored.
 * s may be NULL (no sample_id). Returns 0. */
int machine__process_event(struct machine *m, const union perf_event *ev, const struct perf_sample *s);

struct thread *machine__findnew_thread(struct machine *m, int32_t pid, int32_t tid);
struct thread *machine__find_thread(struct machine *m, int32_t tid);

/* Map (not symbol) lookup of ip for a thread; kernel addresses use kmaps. */
struct map *machine__find_map(struct machine *m, struct thread *t, uint8_t cpumode, uint64_t ip);

/*
 * Full resolution of ip: thread, map, DSO (marked hit), symbol (loaded lazily
 * unless no_symbols). Returns 0, or -1 when no thread could be made.
 */
int machine__resolve(struct machine *m, int32_t pid, int32_t tid, uint8_t cpumode, uint64_t ip,
		     struct addr_location *al, bool no_symbols);

/* Adds `map` covering [start,end) to maps, trimming/splitting what it overlaps. */
void maps__insert(struct maps *maps, struct map *map);
struct map *maps__find(struct maps *maps, uint64_t addr);
uint64_t map__map_ip(const struct map *map, uint64_t ip);   /* runtime -> DSO symbol space */

/* anonymous memory (//anon, /dev/zero, /anon_hugepage) that a perf-PID.map may describe */
bool machine__is_anon_name(const char *name);

#endif
