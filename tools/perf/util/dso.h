/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_DSO_H
#define PERF_UTIL_DSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "event.h"
#include "symbol.h"

enum dso_kind {
	DSO_KIND_ELF,        /* a file on disk (executable, library, jitted-*.so) */
	DSO_KIND_KERNEL,     /* [kernel.kallsyms]: symbols from /proc/kallsyms */
	DSO_KIND_VDSO,       /* [vdso]: read from our own process image */
	DSO_KIND_PERF_MAP,   /* anonymous exec memory described by /tmp/perf-PID.map */
	DSO_KIND_ANON,       /* //anon, [heap], ... : no symbols */
};

struct dso_segment {
	uint64_t offset, vaddr, filesz;   /* a PT_LOAD of the ELF */
};

struct dso {
	char *long_name;              /* as in the MMAP record, or [kernel.kallsyms] / /tmp/perf-PID.map */
	char *short_name;             /* basename, shown in reports */
	enum dso_kind kind;
	uint8_t build_id[BUILD_ID_MAX];
	uint8_t build_id_size;        /* 0 = unknown */
	bool build_id_from_file;      /* the build-id was read from the perf.data (expected) */
	bool hit;                     /* got a sample: goes into the BUILD_ID feature */
	bool loaded;                  /* symbols attempted (successfully or not) */
	bool absolute;                /* symbol addresses are runtime addresses */
	char *symsrc;                 /* the file symbols came from, or NULL */
	struct symtab symtab;
	struct dso_segment *segs;
	size_t nr_segs;
	void *srcline_priv;           /* srcline.c's per-DSO state (libdw handle, cache) */
	struct dso *hash_next;
};

/* All DSOs of a session, by long_name. */
struct dsos {
	struct dso **buckets;
	size_t nbuckets, nr;
	const char *debug_dir;        /* build-id cache root, default ~/.debug ($PERF_BUILDID_DIR) */
	const char *symfs;            /* --symfs prefix or NULL */
};

void dsos__init(struct dsos *d);
void dsos__exit(struct dsos *d);
struct dso *dsos__find(struct dsos *d, const char *name);
struct dso *dsos__findnew(struct dsos *d, const char *name);
/* visit every DSO (e.g. to write the BUILD_ID feature of hit DSOs) */
void dsos__for_each(struct dsos *d, void (*fn)(struct dso *dso, void *arg), void *arg);

void dso__set_build_id(struct dso *dso, const uint8_t *id, size_t size);

/*
 * Loads symbols once (later calls return the cached result). Sources, in
 * order: separate debuginfo by build-id (/usr/lib/debug/.build-id/xx/rest.debug),
 * the build-id cache (<debug_dir>/.build-id/xx/rest -> .../elf), the file
 * itself if its build-id matches the expected one (or none is expected);
 * .symtab preferred, .dynsym otherwise. Kernel: /proc/kallsyms. Perf map:
 * /tmp/perf-PID.map, ignored if not owned by root or the process owner.
 * Returns the number of symbols (0 = none found), never fails hard.
 */
int dso__load(struct dsos *d, struct dso *dso);

/* File offset (ip - map.start + map.pgoff) to the DSO's symbol address space. */
uint64_t dso__offset_to_addr(const struct dso *dso, uint64_t offset);

struct symbol *dso__find_symbol(struct dso *dso, uint64_t addr);

/* Reads the NT_GNU_BUILD_ID of an ELF file; returns its size or -1. */
int filename__read_build_id(const char *path, uint8_t *id, size_t max);
/* lowercase hex, NUL-terminated; buf needs 2*size+1 */
char *build_id__sprintf(const uint8_t *id, size_t size, char *buf);

/*
 * "file.c:42" for addr (same space as symbols), from DWARF .debug_line,
 * cached per DSO; NULL when unknown. The string is owned by the DSO.
 */
const char *dso__srcline(struct dsos *d, struct dso *dso, uint64_t addr);

#endif
