/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_DEBUGINFOD_H
#define PERF_UTIL_DEBUGINFOD_H

/*
 * Fetching what a build-id needs from debuginfod servers (libdebuginfod)
 * when it is missing locally: the executable, then its debuginfo. What is
 * fetched is stored in the build-id cache (as <bid>/elf or <bid>/debug), so
 * the next run finds it there without asking.
 *
 * Servers come from $DEBUGINFOD_URLS or from --debuginfod=URLS (which sets
 * that variable for this process). Because distributions set
 * DEBUGINFOD_URLS globally and a dead server must not hang a report:
 *  - DEBUGINFOD_TIMEOUT (connect / no-progress) defaults to 3 seconds and
 *    DEBUGINFOD_RETRY_LIMIT to 0 when they are not set;
 *  - each (build-id, kind) is asked at most once per handle;
 *  - after a server failure (refused, unreachable, timed out) nothing more
 *    is asked in this run: one warning, not one per DSO;
 *  - a "not found" answer is normal (the server indexes other files) and
 *    only said with -v.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct option;

/* What the --debuginfod[=URLS] / --no-debuginfod switches said. */
struct debuginfod_opt {
	int mode;            /* -1 not given, 0 --no-debuginfod, 1 --debuginfod */
	const char *urls;    /* --debuginfod=URLS, else NULL ($DEBUGINFOD_URLS) */
};
#define DEBUGINFOD_OPT_INIT { .mode = -1, .urls = NULL }

/* parse-options callback storing into a struct debuginfod_opt */
int debuginfod__opt_cb(const struct option *opt, const char *arg, int unset);
#define OPT_DEBUGINFOD(v) \
	OPT_CALLBACK_OPTARG(0, "debuginfod", (v), "urls", \
			    "fetch missing binaries and debuginfo from debuginfod (URLS, default $DEBUGINFOD_URLS)", \
			    debuginfod__opt_cb, NULL)

enum debuginfod_kind {
	DEBUGINFOD_EXECUTABLE,
	DEBUGINFOD_DEBUGINFO,
};

struct debuginfod;

/*
 * A client as the options say; when they said nothing, @default_on decides
 * whether $DEBUGINFOD_URLS is followed. NULL when disabled or no server is
 * configured (then every lookup is local only).
 */
struct debuginfod *debuginfod__new(const struct debuginfod_opt *opt, bool default_on);
void debuginfod__delete(struct debuginfod *d);

/*
 * Fetches @kind of build-id @id and stores it in the build-id cache @root as
 * the elf/debug file of @path (the binary's original absolute path). Returns
 * the malloc'ed path of the cached file, or NULL (not found, server failed,
 * disabled, or asked before in this run without success).
 */
char *debuginfod__fetch(struct debuginfod *d, const char *root, const char *path,
			const uint8_t *id, size_t size, enum debuginfod_kind kind);

/*
 * For symbol loading: what a DSO lacks locally, fetched into the cache.
 * @have_elf: a file with this build-id is at hand; @have_syms: one with a
 * .symtab is. The executable is fetched when there is none (neither on
 * disk nor cached), the debuginfo when still no .symtab is at hand.
 */
void debuginfod__fill_cache(struct debuginfod *d, const char *root, const char *path,
			    const uint8_t *id, size_t size, bool have_elf, bool have_syms);

/*
 * For DWARF users (perf probe): makes debuginfo__find(@binary) succeed by
 * fetching the debuginfo of its build-id into the cache if none is found
 * locally. 0 when DWARF is (now) available, -1 otherwise.
 */
int debuginfod__ensure_debuginfo(struct debuginfod *d, const char *binary);

/*
 * perf probe -x @binary: fetches the debuginfo (debuginfod__ensure_debuginfo)
 * unless @only_defs and every definition in @defs names a cached event
 * ("[NAME=]%EVENT", no DWARF needed). Creates and ends its own client.
 */
void debuginfod__prepare_probe(const struct debuginfod_opt *opt, const char *binary,
			       bool only_defs, char **defs, size_t nr_defs);

#endif
