/* SPDX-License-Identifier: MIT */
/* Small helpers shared by the symbol/dso/build-id tests. */
#ifndef PERF_TESTS_SYMBOL_HELPERS_H
#define PERF_TESTS_SYMBOL_HELPERS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/util.h"

/* Runs a shell command; returns its stdout (malloc'ed) or NULL if it failed. */
static inline char *sym_test__run(const char *cmd)
{
	FILE *f = popen(cmd, "r");
	size_t len = 0, cap = 4096;
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = xmalloc(cap);
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len - 1 == 0)
			buf = xrealloc(buf, cap *= 2);
	}
	buf[len] = '\0';
	if (pclose(f) != 0) {
		fprintf(stderr, "command failed: %s\n", cmd);
		free(buf);
		return NULL;
	}
	return buf;
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

#endif
