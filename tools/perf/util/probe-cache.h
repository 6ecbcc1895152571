/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_PROBE_CACHE_H
#define PERF_UTIL_PROBE_CACHE_H

/*
 * The `probes` file of a build-id cache entry, in perf 6.1's text format
 * (Documentation/formats/buildid-cache.md §5):
 *   %sdt_python:audit=audit               SDT marker
 *   p:sdt_python/audit /usr/bin/...       its uprobe_events line(s)
 *   #probe_python3:ga=PyObject_GetAttr %di  named cached probe
 *   p:probe_python3/ga /usr/bin/...:0x11e4e0 %di
 */
#include <stdbool.h>
#include <stddef.h>

struct sdt_notes;

struct probe_cache_entry {
	bool sdt;            /* '%' entry */
	char *spec;          /* the header line without its '%'/'#' */
	char *group, *event; /* from spec's "[GROUP:]EVENT=" (group may be NULL) */
	char **tevs;         /* uprobe_events lines */
	size_t nr_tevs, cap_tevs;
};

struct probe_cache {
	struct probe_cache_entry *v;
	size_t nr, cap;
};

/*
 * Reads @file; a missing file is an empty cache. -1 with a message when a
 * line is malformed (nothing is returned then, as with perf).
 */
int probe_cache__load(const char *file, struct probe_cache *pc);
/* Parses text already in memory (same rules). */
int probe_cache__parse(const char *text, const char *what, struct probe_cache *pc);

/*
 * Validates every line, then writes @pc to @file through a temporary file
 * and rename(); nothing is written when any line is invalid. 0 or -1.
 */
int probe_cache__write(const struct probe_cache *pc, const char *file);
/* Same, as @name inside the directory @dirfd. */
int probe_cache__write_at(const struct probe_cache *pc, int dirfd, const char *name);

/* Replaces all '%' entries by the notes of @path (in scan order, first). */
void probe_cache__set_sdt(struct probe_cache *pc, const struct sdt_notes *notes, const char *path);

/* Adds a '#' entry (replacing one with the same group:event). */
void probe_cache__add_named(struct probe_cache *pc, const char *spec, char **tevs, size_t nr);

/* Entries whose group and event match the globs (NULL = any); calls cb, stops on non-zero. */
int probe_cache__for_each_match(const struct probe_cache *pc, const char *group_glob,
				const char *event_glob,
				int (*cb)(const struct probe_cache_entry *e, void *arg), void *arg);

/* Removes entries matching the globs; returns how many. */
size_t probe_cache__remove(struct probe_cache *pc, const char *group_glob, const char *event_glob);

void probe_cache__exit(struct probe_cache *pc);

/*
 * Checks one uprobe_events definition the way the kernel will parse it:
 * [pr]:GROUP/EVENT PATH:OFFSET[%return][(REF)] [NAME=]ARG[:TYPE]...
 * with known register names of this machine and valid names. 0, or -1 with
 * *why.
 */
int probe_cache__validate_tev(const char *line, const char **why);

#endif
