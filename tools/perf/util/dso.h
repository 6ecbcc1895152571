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

struct debuginfod;

struct dso_segment {
	uint64_t offset, vaddr, filesz;   /* a PT_LOAD of the ELF */
};

/*
 * State a unit above dso.c keeps per DSO (srcline's libdw handle and line
 * cache, unwind's CFI): it lives exactly as long as the DSO, so a cache
 * keyed by DSO cannot outlive it or be mistaken for a later DSO at the same
 * address. Each unit has one static const key with the destructor, and
 * dso.c frees through it without knowing the unit.
 */
struct dso_priv_key {
	const char *name;             /* the owning unit, for debugging */
	void (*free)(void *data);
};

struct dso_priv {
	const struct dso_priv_key *key;
	void *data;
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
	struct dso_priv *privs;       /* dso__priv / dso__set_priv */
	size_t nr_privs, privs_cap;
	struct dso *hash_next;
	struct dsos *owner;           /* for lazy loading from dso__find_symbol */
	size_t seq;                   /* creation order: report breaks ties of call-graph branches by it, as perf 6.1 */
};

/* All DSOs of a session, by long_name. */
struct dsos {
	struct dso **buckets;
	size_t nbuckets, nr;
	const char *debug_dir;        /* build-id cache root, default ~/.debug ($PERF_BUILDID_DIR) */
	const char *symfs;            /* --symfs prefix or NULL */
	const char *debuginfo_dir;    /* separate debuginfo root: $PERF_DEBUGINFO_DIR, default /usr/lib/debug */
	const char *kallsyms_path;    /* running kernel's symbols, default /proc/kallsyms */
	char *owned_debug_dir;        /* what dsos__init allocated for debug_dir */
	struct debuginfod *debuginfod; /* fetches missing files by build-id; NULL: local only. Owned. */
};

void dsos__init(struct dsos *d);
void dsos__exit(struct dsos *d);
struct dso *dsos__find(struct dsos *d, const char *name);
struct dso *dsos__findnew(struct dsos *d, const char *name);
/* visit every DSO (e.g. to write the BUILD_ID feature of hit DSOs) */
void dsos__for_each(struct dsos *d, void (*fn)(struct dso *dso, void *arg), void *arg);

void dso__set_build_id(struct dso *dso, const uint8_t *id, size_t size);

/* the data attached under key, or NULL */
void *dso__priv(const struct dso *dso, const struct dso_priv_key *key);
/* attaches data under key (replacing and freeing what was there); key->free runs when the DSO goes */
void dso__set_priv(struct dso *dso, const struct dso_priv_key *key, void *data);

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

/* Loads symbols on first use (dso__load). */
struct symbol *dso__find_symbol(struct dso *dso, uint64_t addr);

/* What a name in an MMAP record is: [kernel.kallsyms]..., [vdso], /tmp/perf-N.map, //anon... */
enum dso_kind dso__kind_of(const char *name);


/*
 * "file.c:42" for addr (same space as symbols), from DWARF .debug_line,
 * cached per DSO; NULL when unknown. The string is owned by the DSO.
 */
const char *dso__srcline(struct dsos *d, struct dso *dso, uint64_t addr);

/*
 * The inline chain at addr, innermost first: frame[0] is the function whose
 * code is at addr (possibly inlined) with addr's own file:line; each next
 * frame is the function it was inlined into, with the line of the call.
 * The last frame is the real (out-of-line) function. Returns the number of
 * frames written (<= max); 0 when there is no DWARF. Strings are owned by the
 * DSO. A function that is not inlined at addr gives 1 frame.
 */
struct inline_frame {
	const char *func;      /* as in DWARF (DW_AT_name; linkage name demangled when needed) */
	const char *srcline;   /* "file.c:42" */
};
int dso__inline_chain(struct dsos *d, struct dso *dso, uint64_t addr,
		      struct inline_frame *frames, int max);

#endif
