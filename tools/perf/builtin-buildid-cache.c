// SPDX-License-Identifier: MIT
/*
 * perf buildid-cache: add, remove, list and purge entries of the build-id
 * cache (util/build-id-cache.c). Unlike perf 6.1 a failed operation makes
 * the command exit non-zero.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/build-id-cache.h"
#include "util/debug.h"
#include "util/debuginfod.h"
#include "util/parse-options.h"
#include "util/sdt-pid.h"
#include "util/strbuf.h"
#include "util/util.h"

struct name_list {
	char **v;
	size_t nr, cap;
};

/* each use adds its comma-separated files */
static int add_names(const struct option *opt, const char *arg, int unset)
{
	struct name_list *l = opt->value;
	char *copy, *save = NULL;

	if (unset || !arg)
		return 0;
	copy = xstrdup(arg);
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		*ARRAY_PUSH(l->v, l->nr, l->cap) = xstrdup(t);
	}
	free(copy);
	return 0;
}

static void purge_report(const char *bid, const char *path, int ok, void *arg)
{
	const char *fmt = arg;

	if (verbose)
		printf(fmt, path, bid, ok ? "Ok" : "FAIL");
}

static void purge_report_bid_first(const char *bid, const char *path, int ok, void *arg)
{
	if (verbose)
		printf("Removing %s %s: %s\n", bid, path, ok ? "Ok" : "FAIL");
}

int cmd_buildid_cache(int argc, const char **argv)
{
	static const char *const usage[] = {
		"perf buildid-cache [<options>]",
		NULL,
	};
	struct name_list add = { 0 }, rem = { 0 }, purge = { 0 };
	bool list = false, purge_all = false;
	const char *debug_dir = NULL, *target_ns = NULL;
	struct debuginfod_opt dbgd_opt = DEBUGINFOD_OPT_INIT;
	struct debuginfod *dbgd;
	const struct option options[] = {
		OPT_CALLBACK('a', "add", &add, "file list", "file(s) to add", add_names),
		OPT_CALLBACK('r', "remove", &rem, "file list", "file(s) to remove", add_names),
		OPT_CALLBACK('p', "purge", &purge, "file list", "file(s) to remove (remove old caches too)", add_names),
		OPT_BOOLEAN('P', "purge-all", &purge_all, "purge all cached files"),
		OPT_BOOLEAN('l', "list", &list, "list all cached files"),
		OPT_STRING(0, "debug-dir", &debug_dir, "dir", "directory of the build-id cache (default ~/.debug)"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_DEBUGINFOD(&dbgd_opt),
		OPT_STRING(0, "target-ns", &target_ns, "n", "target pid for namespace context"),
		OPT_END(),
	};
	char *root;
	int err = 0;

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc)
		usage_with_options_msg(usage, options, "unexpected argument '%s'", argv[0]);
	root = bidcache__root(debug_dir);
	/* children (and our own helpers) see the same cache */
	setenv("PERF_BUILDID_DIR", root, 1);
	/* off unless asked, as in upstream perf: adding must not wait on a network */
	dbgd = debuginfod__new(&dbgd_opt, false);

	for (size_t i = 0; i < add.nr; i++) {
		char bid[41], *in_ns = target_ns ? xasprintf("/proc/%s/root%s", target_ns, add.v[i]) : NULL;
		/* --target-ns: read inside that process's root, cached under its name there */
		int r = in_ns ? sdt_pid__cache_target(root, in_ns, bid) : bidcache__add(root, add.v[i], bid);

		free(in_ns);
		if (r < 0) {
			err = 1;
			continue;
		}
		if (verbose)
			printf("Adding %s %s: Ok\n", bid, add.v[i]);
		if (!target_ns)
			debuginfod__ensure_debuginfo(dbgd, add.v[i]);
	}
	for (size_t i = 0; i < rem.nr; i++) {
		char bid[41] = "";
		int r = bidcache__remove(root, rem.v[i], bid);

		if (r < 0 && !bid[0]) {
			err = 1;
			continue;
		}
		if (verbose || r)
			printf("Removing %s %s: %s\n", bid, rem.v[i], r ? "FAIL" : "Ok");
		if (r == 1)
			fprintf(stderr, "%s wasn't in the cache\n", rem.v[i]);
		if (r)
			err = 1;
	}
	for (size_t i = 0; i < purge.nr; i++) {
		int r = bidcache__purge(root, purge.v[i], purge_report_bid_first, NULL);

		if (r < 0)
			err = 1;
		if (verbose)
			printf("Purging %s: %s\n", purge.v[i], r < 0 ? "FAIL" : "Ok");
	}
	if (purge_all) {
		int r = bidcache__purge_all(root, purge_report, "Removing %s (%s): %s\n");

		if (r < 0)
			err = 1;
		if (verbose)
			printf("Purged all: %s\n", r < 0 ? "FAIL" : "Ok");
	}
	if (list) {
		struct bidcache_item *items;
		int nr = bidcache__list(root, true, &items);

		for (int i = 0; i < nr; i++)
			printf("%s %s\n", items[i].bid, items[i].path);
		bidcache__items_free(items, nr);
	}
	for (size_t i = 0; i < add.nr; i++)
		free(add.v[i]);
	for (size_t i = 0; i < rem.nr; i++)
		free(rem.v[i]);
	for (size_t i = 0; i < purge.nr; i++)
		free(purge.v[i]);
	free(add.v);
	free(rem.v);
	free(purge.v);
	free(root);
	debuginfod__delete(dbgd);
	return err;
}
