/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_SDT_RECORD_H
#define PERF_UTIL_SDT_RECORD_H

/*
 * Events from the probe cache (SDT markers and named cached probes) that
 * perf record / perf probe turn into uprobes on demand, and the cleanup
 * that removes exactly what was created.
 *
 * perf record usage (before parsing/opening the events):
 *
 *	struct sdt_record sr = SDT_RECORD_INIT;
 *	for each -e string E:
 *		if (sdt_record__prepare(&sr, E, workload_path_or_NULL) < 0) fail;
 *	... open, record ...  (on SIGINT too:)
 *	close every perf fd, then sdt_record__cleanup(&sr);
 */
#include <stdbool.h>
#include <stddef.h>
#include "probe-event.h"

struct sdt_record {
	struct probe_names created;   /* "group/event" we added */
	char **where;                 /* "group:event in PATH (BUILDID)" per created probe */
	size_t nr_where, cap_where;
	const char *pids;             /* -p PIDS: their mapped copies first (util/sdt-pid.h) */
	bool system_wide;             /* -a: every process's copies when the cache has none */
};
#define SDT_RECORD_INIT { { 0 } }

/*
 * For each comma-separated event in @events that is a "GROUP:EVENT" (globs
 * allowed, optional "@PATH" or "@BUILDID" narrowing) without a tracefs event
 * yet: finds it in the probe cache (after adding @binary to the cache when
 * it is given and not cached) and creates its uprobes in every cached
 * binary that has it. Returns the number of events created (0 = nothing to
 * do), -1 on error (nothing left behind). Says which binaries were probed
 * (pr_info unless quiet).
 */
int sdt_record__prepare(struct sdt_record *sr, const char *events, const char *binary);

/* Removes exactly what prepare created; EBUSY is not an error. Idempotent. */
void sdt_record__cleanup(struct sdt_record *sr);

/* One uprobe a cached-event spec resolved to. */
struct sdt_site {
	char *line;             /* its uprobe_events line (user arguments appended) */
	char *group, *event;    /* the line's GROUP/EVENT */
	char *path;             /* the binary the entry was cached for */
	char bid[41];           /* its build-id */
};

struct sdt_sites {
	struct sdt_site *v;
	size_t nr, cap;
};

/*
 * Resolves a cached-event spec "[%][sdt_]PROV:NAME[@PATH|@BUILDID]" (globs)
 * to uprobes, for perf probe and record. @binary (may be NULL) restricts to
 * that file and is scanned into the cache first when needed. @extra_args
 * are appended to every line (user-added arguments). Returns the count
 * (0 = no match), -1 on error; @out is filled either way (free it with
 * sdt_sites__exit).
 */
int sdt_spec__resolve(const char *spec, const char *binary, const char *extra_args,
		      struct sdt_sites *out);
void sdt_sites__exit(struct sdt_sites *s);
void sdt_strv__free(char **v, size_t n);

/*
 * When @spec is cached for another build-id of @binary's path (not for its
 * current one), says so naming both build-ids and returns 1; else 0.
 */
int sdt_spec__explain_other_build(const char *spec, const char *binary);

#endif
