// SPDX-License-Identifier: MIT
/*
 * libdebuginfod behind perf's build-id cache (see debuginfod.h for the
 * no-stall rules). libdebuginfod reads its servers and timeouts from the
 * environment at each query, so defaults are put there, for this process
 * only, before the first query.
 */
#include <elfutils/debuginfod.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "build-id.h"
#include "build-id-cache.h"
#include "debug.h"
#include "debuginfo.h"
#include "debuginfod.h"
#include "dso.h"
#include "parse-options.h"
#include "strbuf.h"
#include "symbol-elf.h"
#include "util.h"

struct asked {
	uint8_t id[BUILD_ID_MAX];
	size_t size;
	enum debuginfod_kind kind;
	char *path;          /* cached file, NULL when the answer was no */
};

struct debuginfod {
	debuginfod_client *client;
	bool server_failed;  /* after one failure nothing more is asked */
	struct asked *asked;
	size_t nr_asked, cap_asked;
	const char *what;    /* for the progress line */
	double started;
	bool progress_shown;
};

int debuginfod__opt_cb(const struct option *opt, const char *arg, int unset)
{
	struct debuginfod_opt *o = opt->value;

	o->mode = unset ? 0 : 1;
	o->urls = unset || !arg || !*arg ? NULL : arg;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* one progress line on a terminal, updated in place; nothing on a pipe */
static int progress(debuginfod_client *c, long done, long total)
{
	struct debuginfod *d = debuginfod_get_user_data(c);

	if (!d || quiet || !isatty(STDERR_FILENO) || now() - d->started < 0.5)
		return 0;
	if (total > 0)
		fprintf(stderr, "\rdebuginfod: %s %ld/%ld KiB ", d->what, done >> 10, total >> 10);
	else
		fprintf(stderr, "\rdebuginfod: %s %ld KiB ", d->what, done >> 10);
	d->progress_shown = true;
	return 0;
}

struct debuginfod *debuginfod__new(const struct debuginfod_opt *opt, bool default_on)
{
	struct debuginfod *d;
	const char *urls;

	if (opt && opt->mode == 0)
		return NULL;
	if ((!opt || opt->mode < 0) && !default_on)
		return NULL;
	if (opt && opt->urls)
		setenv(DEBUGINFOD_URLS_ENV_VAR, opt->urls, 1);
	urls = getenv(DEBUGINFOD_URLS_ENV_VAR);
	if (!urls || !urls[strspn(urls, " \t")]) {
		if (opt && opt->mode == 1)
			pr_warning("Warning: --debuginfod: no server (set DEBUGINFOD_URLS or give --debuginfod=URLS)\n");
		return NULL;
	}
	/* libdebuginfod's own defaults (90 s, 2 retries) stall a report for minutes;
	 * a server slower than this to start answering can be given more time
	 * with DEBUGINFOD_TIMEOUT */
	setenv(DEBUGINFOD_TIMEOUT_ENV_VAR, "3", 0);
	setenv(DEBUGINFOD_RETRY_LIMIT_ENV_VAR, "0", 0);
	/* libdebuginfod creates only the last component of its cache path */
	{
		const char *cp = getenv(DEBUGINFOD_CACHE_PATH_ENV_VAR);

		if (cp && *cp && mkdir_p(cp, 0700) < 0 && errno != EEXIST)
			pr_warning("Warning: debuginfod: cannot create %s: %s\n", cp, strerror(errno));
	}
	d = xzalloc(sizeof(*d));
	d->client = debuginfod_begin();
	if (!d->client) {
		pr_warning("Warning: debuginfod: cannot start the client\n");
		free(d);
		return NULL;
	}
	debuginfod_set_user_data(d->client, d);
	debuginfod_set_progressfn(d->client, progress);
	pr_debug("debuginfod: servers %s\n", urls);
	return d;
}

void debuginfod__delete(struct debuginfod *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nr_asked; i++)
		free(d->asked[i].path);
	free(d->asked);
	debuginfod_end(d->client);
	free(d);
}

static struct asked *asked__find(struct debuginfod *d, const uint8_t *id, size_t size,
				 enum debuginfod_kind kind)
{
	for (size_t i = 0; i < d->nr_asked; i++)
		if (d->asked[i].kind == kind && build_id__equal(d->asked[i].id, d->asked[i].size, id, size))
			return &d->asked[i];
	return NULL;
}

/* errors that say the server (not the file) is the problem */
static bool server_error(int err)
{
	return err != ENOENT && err != ENOSYS;
}

char *debuginfod__fetch(struct debuginfod *d, const char *root, const char *path,
			const uint8_t *id, size_t size, enum debuginfod_kind kind)
{
	const char *which = kind == DEBUGINFOD_EXECUTABLE ? "elf" : "debug";
	const char *what = kind == DEBUGINFOD_EXECUTABLE ? "executable" : "debuginfo";
	char hex[BUILD_ID_HEX_MAX], *got = NULL, *what_line;
	struct asked *a;
	int fd;

	if (!d || !size || size > BUILD_ID_MAX || !path || path[0] != '/')
		return NULL;
	a = asked__find(d, id, size, kind);
	if (a)
		return a->path ? xstrdup(a->path) : NULL;
	if (d->server_failed)
		return NULL;
	a = ARRAY_PUSH(d->asked, d->nr_asked, d->cap_asked);
	memset(a, 0, sizeof(*a));
	memcpy(a->id, id, size);
	a->size = size;
	a->kind = kind;

	build_id__sprintf(id, size, hex);
	what_line = xasprintf("fetching the %s of %s (%s)", what, path, hex);
	/* the progress line: a fetch can take a while and must not look like a hang */
	pr_info("debuginfod: %s ...\n", what_line);
	d->what = what_line;
	d->started = now();
	d->progress_shown = false;
	if (kind == DEBUGINFOD_EXECUTABLE)
		fd = debuginfod_find_executable(d->client, id, (int)size, &got);
	else
		fd = debuginfod_find_debuginfo(d->client, id, (int)size, &got);
	if (d->progress_shown)
		fputc('\n', stderr);
	d->what = NULL;
	if (fd < 0) {
		if (server_error(-fd)) {
			d->server_failed = true;
			const char *t = getenv(DEBUGINFOD_TIMEOUT_ENV_VAR);

			pr_warning("Warning: debuginfod: %s failed: %s%s%s%s; not asking the server again in this run\n",
				   what_line, strerror(-fd), -fd == ETIME ? " (DEBUGINFOD_TIMEOUT=" : "",
				   -fd == ETIME ? t : "", -fd == ETIME ? " s)" : "");
		} else {
			pr_debug("debuginfod: %s: %s\n", what_line, strerror(-fd));
		}
		free(what_line);
		return NULL;
	}
	close(fd);
	free(what_line);
	if (bidcache__add_file(root, path, hex, which, got) == 0)
		a->path = bidcache__file(root, id, size, which);
	free(got);
	if (!a->path)
		pr_warning("Warning: debuginfod: the %s of %s could not be stored in the build-id cache %s\n",
			   what, path, root);
	return a->path ? xstrdup(a->path) : NULL;
}

/* does the cache already hold @which of this id, with a .symtab if @need_syms */
static bool cached(const char *root, const uint8_t *id, size_t size, const char *which,
		   bool need_syms, bool *has_syms)
{
	char *p = bidcache__file(root, id, size, which);
	struct symsrc ss;
	bool ok = false;

	if (p && symsrc__open(&ss, p) == 0) {
		ok = true;
		*has_syms = ss.has_symtab;
		symsrc__close(&ss);
	}
	free(p);
	return ok && (!need_syms || *has_syms);
}

static bool fetched_has_syms(char *p)
{
	struct symsrc ss;
	bool syms = false;

	if (p && symsrc__open(&ss, p) == 0) {
		syms = ss.has_symtab;
		symsrc__close(&ss);
	}
	free(p);
	return syms;
}

void debuginfod__fill_cache(struct debuginfod *d, const char *root, const char *path,
			    const uint8_t *id, size_t size, bool have_elf, bool have_syms)
{
	bool syms = false;
	char *p;

	if (!d || !root || have_syms)
		return;
	if (cached(root, id, size, "debug", true, &syms))
		return;
	if (!have_elf) {
		if (cached(root, id, size, "elf", false, &syms)) {
			if (syms)
				return;
		} else if (fetched_has_syms(debuginfod__fetch(d, root, path, id, size,
							     DEBUGINFOD_EXECUTABLE))) {
			return;
		}
	}
	/* /usr/lib/debug (or $PERF_DEBUGINFO_DIR) may hold it already */
	{
		const char *droot = getenv("PERF_DEBUGINFO_DIR");

		p = build_id__debuginfo_path(droot && *droot ? droot : "/usr/lib/debug", id, size);
		if (p && access(p, R_OK) == 0) {
			free(p);
			return;
		}
		free(p);
	}
	free(debuginfod__fetch(d, root, path, id, size, DEBUGINFOD_DEBUGINFO));
}

int debuginfod__ensure_debuginfo(struct debuginfod *d, const char *binary)
{
	uint8_t id[BUILD_ID_MAX];
	char *found = debuginfo__find(binary), *abs, *root, *p;
	int n;

	if (found) {
		free(found);
		return 0;
	}
	if (!d)
		return -1;
	n = filename__read_build_id(binary, id, sizeof(id));
	abs = realpath(binary, NULL);
	if (n <= 0 || !abs) {
		free(abs);
		return -1;
	}
	root = bidcache__default_root();
	p = debuginfod__fetch(d, root, abs, id, (size_t)n, DEBUGINFOD_DEBUGINFO);
	free(root);
	free(abs);
	if (!p)
		return -1;
	free(p);
	found = debuginfo__find(binary);
	free(found);
	return found ? 0 : -1;
}

void debuginfod__prepare_probe(const struct debuginfod_opt *opt, const char *binary,
			       bool only_defs, char **defs, size_t nr_defs)
{
	struct debuginfod *d;
	bool need = !only_defs;

	for (size_t i = 0; i < nr_defs && !need; i++) {
		const char *def = defs[i], *sp = strchr(def, ' '), *eq = strchr(def, '=');
		const char *point = eq && (!sp || eq < sp) ? eq + 1 : def;

		need = point[0] != '%';
	}
	if (!need)
		return;
	d = debuginfod__new(opt, true);
	if (d)
		debuginfod__ensure_debuginfo(d, binary);
	debuginfod__delete(d);
}
