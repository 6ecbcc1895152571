/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_SDT_CACHE_H
#define PERF_UTIL_SDT_CACHE_H

/*
 * The cached events of every valid build-id cache entry: SDT markers ('%')
 * and named cached probes ('#'), with the binary and build-id they belong
 * to. Used by perf list, perf probe and perf record.
 */
#include <stdbool.h>
#include <stddef.h>
#include "probe-cache.h"

struct cached_event {
	const struct probe_cache_entry *e;  /* owned by the set */
	const char *path;                   /* binary the entry was cached for */
	const char *bid;
};

struct cached_binary {
	char *path;
	char bid[41];
	struct probe_cache pc;
};

struct cached_events {
	struct cached_binary *bins;
	size_t nr_bins, cap_bins;
	struct cached_event *v;
	size_t nr, cap;
};

/*
 * Loads the probes files of all valid entries under root, or only of
 * @only_path (its current build-id) when not NULL. 0 or -1.
 */
int cached_events__load(const char *root, const char *only_path, struct cached_events *ce);
void cached_events__exit(struct cached_events *ce);

/*
 * Splits "[%][sdt_]PROV:NAME[@PATH|@BUILDID]" style specs. The returned
 * group is "sdt_PROV" when with_sdt_prefix and the group does not start
 * with "sdt_" already. *at gets what followed '@' (or NULL). malloc'ed.
 */
void cached_event__split(const char *spec, char **group, char **event, char **at);

/* Does cached event @ce match group/event globs and the @PATH / @BUILDID narrowing? */
bool cached_event__matches(const struct cached_event *ce, const char *group, const char *event,
			   const char *at);

/*
 * One call per cached SDT event (perf list). A name cached for several
 * binaries or builds comes as "NAME@PATH(BUILDID12)" for each of them, as
 * perf 6.1 lists them. Returns what the last call of @cb returned.
 */
int sdt_cache__for_each_event(int (*cb)(const char *provider, const char *name, void *arg), void *arg);

/*
 * Adds @binary to the build-id cache under @root unless it is there with
 * its current build-id; @abs (PATH_MAX) and @bid (41) get its real path and
 * build-id. 0 or -1.
 */
int sdt_cache__add_binary(const char *root, const char *binary, char *abs, char *bid);

/* perf probe --cache --add: the '#' entry @spec with @lines in @binary's probes file. 0 or -1. */
int sdt_cache__add_named(const char *root, const char *binary, const char *spec, char **lines,
			 size_t nr);

/*
 * Removes the entries matching the globs from every cached binary (or only
 * @only_path's); the count removed, -1 when a probes file cannot be written.
 */
int sdt_cache__remove(const char *root, const char *only_path, const char *group, const char *event);

#endif
