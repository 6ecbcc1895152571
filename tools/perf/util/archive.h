/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_ARCHIVE_H
#define PERF_UTIL_ARCHIVE_H

/*
 * perf archive: the objects a perf.data needs, packed as a tar of build-id
 * cache entries so that `tar xf ARCHIVE -C ~/.debug` on another machine
 * makes them the cache there. Per hit build-id, in the order perf 6.1's
 * archive script writes them:
 *   .build-id/xx/rest             symlink ../..<path>/<bid>
 *   <path>/<bid>/                 directory
 *   <path>/<bid>/{elf,debug,probes,kallsyms,vdso}   what the cache holds
 * Names are relative to the cache root. An object that is not in the cache
 * but still on disk with the recorded build-id is archived from there (elf,
 * debuginfo from /usr/lib/debug/.build-id, kallsyms of the running kernel,
 * our own vDSO): perf 6.1 leaves such objects out without saying so.
 */
#include <stdbool.h>
#include <stddef.h>

struct archive_object {
	char bid[41];        /* lower-case hex */
	char *name;          /* the DSO as recorded: path, [kernel.kallsyms], [vdso] */
};

/*
 * The build-ids of the DSOs that samples (and their call chains) hit, in
 * first-hit order. Returns the count, -1 after a message.
 */
int archive__hit_objects(const char *data_path, struct archive_object **objs);
void archive__objects_free(struct archive_object *objs, int nr);

enum archive_compress {
	ARCHIVE_BZIP2,       /* .tar.bz2, through bzip2(1) like perf 6.1 */
	ARCHIVE_ZSTD,        /* .tar.zst, libzstd */
};

struct archive_stats {
	size_t objects, files, missing;
	unsigned long long bytes;
};

/*
 * Writes the archive of @objs from the build-id cache @root to @out
 * (replaced atomically; a symlink at @out is replaced, not written through).
 * Objects found nowhere are warned about one by one and counted in
 * stats->missing. 0, or -1 after a message.
 */
int archive__write(const char *root, const struct archive_object *objs, int nr,
		   const char *out, enum archive_compress how, struct archive_stats *stats);

#endif
