/* SPDX-License-Identifier: MIT */
/* Small helpers shared by the symbol/dso/build-id tests. */
#ifndef PERF_TESTS_SYMBOL_HELPERS_H
#define PERF_TESTS_SYMBOL_HELPERS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/dso.h"
#include "util/strbuf.h"
#include "util/util.h"

/* Runs a shell command; returns its stdout (malloc'ed) or NULL if it failed. */
static inline char *sym_test__run(const char *cmd)
{
	FILE *f = popen(cmd, "r");
	struct strbuf out = STRBUF_INIT;
	ssize_t r;

	if (!f)
		return NULL;
	r = strbuf_read_fd(&out, fileno(f));
	if (pclose(f) != 0 || r < 0) {
		fprintf(stderr, "command failed: %s\n%s\n", cmd, strbuf_str(&out));
		strbuf_release(&out);
		return NULL;
	}
	return strbuf_detach(&out, NULL);
}

static inline bool sym_test__have(const char *tool)
{
	char *cmd = xasprintf("command -v %s >/dev/null 2>&1", tool);
	int rc = system(cmd);

	free(cmd);
	return rc == 0;
}

/* The repository root: $TOP, else derived from our perf at <top>/tools/perf/perf. */
static inline const char *sym_test__top(void)
{
	static char top[4096];
	const char *env = getenv("TOP");
	ssize_t n;
	char *p;

	if (env && env[0])
		return env;
	if (!top[0]) {
		n = readlink("/proc/self/exe", top, sizeof(top) - 1);
		if (n <= 0)
			return ".";
		top[n] = '\0';
		p = strstr(top, "/tools/perf/perf");
		if (p)
			*p = '\0';
	}
	return top;
}

/* $TOP/build/workloads/<name>, or NULL if not built */
static inline char *sym_test__workload(const char *name)
{
	char *p = xasprintf("%s/build/workloads/%s", sym_test__top(), name);

	if (access(p, X_OK)) {
		fprintf(stderr, "workload %s not built (make build-tests)\n", p);
		free(p);
		return NULL;
	}
	return p;
}

/*
 * Symbols of `name` ([kernel.kallsyms], [vdso]) when the recording says it
 * had another build-id and nothing is cached for it: what dso__load gives.
 */
static inline int sym_test__load_other_build(const char *name)
{
	struct dsos d;
	struct dso *dso;
	int n;

	dsos__init(&d);
	d.debug_dir = "/nonexistent";
	dso = dsos__findnew(&d, name);
	dso__set_build_id(dso, (const uint8_t *)"01234567890123456789", 20);
	n = dso__load(&d, dso);
	dsos__exit(&d);
	return n;
}

#endif
