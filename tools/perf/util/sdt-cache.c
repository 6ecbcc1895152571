// SPDX-License-Identifier: MIT
/*
 * Cached events across the build-id cache, and perf list's SDT part.
 */
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build-id-cache.h"
#include "debug.h"
#include "sdt-cache.h"
#include "strbuf.h"
#include "util.h"

static void add_binary(struct cached_events *ce, const char *root, const char *path, const char *bid)
{
	char *file = bidcache__probes_path(root, path, bid);
	struct cached_binary *b;

	GROW_ARRAY(ce->bins, ce->nr_bins + 1, ce->cap_bins);
	b = &ce->bins[ce->nr_bins];
	memset(b, 0, sizeof(*b));
	if (probe_cache__load(file, &b->pc) < 0) {
		free(file);
		return;
	}
	free(file);
	b->path = xstrdup(path);
	snprintf(b->bid, sizeof(b->bid), "%s", bid);
	ce->nr_bins++;
}

int cached_events__load(const char *root, const char *only_path, struct cached_events *ce)
{
	memset(ce, 0, sizeof(*ce));
	if (only_path) {
		char bid[41], abs[PATH_MAX];

		if (!realpath(only_path, abs) || bidcache__file_build_id(abs, bid) < 0)
			return -1;
		if (bidcache__has(root, abs, bid))
			add_binary(ce, root, abs, bid);
	} else {
		struct bidcache_item *items;
		int nr = bidcache__list(root, true, &items);

		for (int i = 0; i < nr; i++)
			if (items[i].path[0] == '/')
				add_binary(ce, root, items[i].path, items[i].bid);
		bidcache__items_free(items, nr);
	}
	for (size_t b = 0; b < ce->nr_bins; b++)
		for (size_t i = 0; i < ce->bins[b].pc.nr; i++) {
			struct cached_event *c = ARRAY_PUSH(ce->v, ce->nr, ce->cap);

			c->e = &ce->bins[b].pc.v[i];
			c->path = ce->bins[b].path;
			c->bid = ce->bins[b].bid;
		}
	return 0;
}

void cached_events__exit(struct cached_events *ce)
{
	for (size_t b = 0; b < ce->nr_bins; b++) {
		free(ce->bins[b].path);
		probe_cache__exit(&ce->bins[b].pc);
	}
	free(ce->bins);
	free(ce->v);
	memset(ce, 0, sizeof(*ce));
}

void cached_event__split(const char *spec, char **group, char **event, char **at)
{
	const char *s = spec[0] == '%' ? spec + 1 : spec;
	const char *atp = strchr(s, '@'), *end = atp ? atp : s + strlen(s);
	const char *colon = memchr(s, ':', (size_t)(end - s));

	*at = atp ? xstrdup(atp + 1) : NULL;
	if (colon) {
		size_t gl = (size_t)(colon - s);

		if (gl >= 4 && !memcmp(s, "sdt_", 4))
			*group = xasprintf("%.*s", (int)gl, s);
		else
			*group = xasprintf("sdt_%.*s", (int)gl, s);
		*event = xasprintf("%.*s", (int)(end - colon - 1), colon + 1);
	} else {
		*group = NULL;
		*event = xasprintf("%.*s", (int)(end - s), s);
	}
}

bool cached_event__matches(const struct cached_event *ce, const char *group, const char *event,
			   const char *at)
{
	const struct probe_cache_entry *e = ce->e;

	if (group && fnmatch(group, e->group ? e->group : "", 0))
		return false;
	if (event && fnmatch(event, e->event, 0))
		return false;
	if (at && *at) {
		/* "PATH(BUILDID)" as perf list prints a name cached for several binaries */
		const char *lp = at[0] == '/' ? strrchr(at, '(') : NULL;
		size_t n = strlen(at);
		bool ok;

		if (lp && at[n - 1] == ')') {
			char *path = xasprintf("%.*s", (int)(lp - at), at);

			ok = !fnmatch(path, ce->path, 0) && n - (size_t)(lp - at) > 2 &&
			     !strncmp(ce->bid, lp + 1, n - (size_t)(lp - at) - 2);
			free(path);
			return ok;
		}
		if (at[0] == '/')
			return !fnmatch(at, ce->path, 0);
		return !strncmp(ce->bid, at, strlen(at));
	}
	return true;
}

/* perf list's SDT section (see sdt-cache.h) */
int sdt_cache__for_each_event(int (*cb)(const char *provider, const char *name, void *arg), void *arg)
{
	char *root = bidcache__root(NULL);
	struct cached_events ce;
	int ret = 0;

	if (cached_events__load(root, NULL, &ce) < 0) {
		free(root);
		return 0;
	}
	for (size_t i = 0; i < ce.nr && !ret; i++) {
		const struct probe_cache_entry *e = ce.v[i].e;
		bool dup = false;

		if (!e->sdt || !e->group || strncmp(e->group, "sdt_", 4))
			continue;
		for (size_t k = 0; k < ce.nr && !dup; k++)
			dup = k != i && ce.v[k].e->sdt && ce.v[k].e->group &&
			      !strcmp(ce.v[k].e->group, e->group) && !strcmp(ce.v[k].e->event, e->event) &&
			      (strcmp(ce.v[k].path, ce.v[i].path) || strcmp(ce.v[k].bid, ce.v[i].bid));
		if (dup) {
			char *n = xasprintf("%s@%s(%.12s)", e->event, ce.v[i].path, ce.v[i].bid);

			ret = cb(e->group + 4, n, arg);
			free(n);
		} else {
			ret = cb(e->group + 4, e->event, arg);
		}
	}
	cached_events__exit(&ce);
	free(root);
	return ret;
}

int sdt_cache__add_binary(const char *root, const char *binary, char *abs, char *bid)
{
	if (!realpath(binary, abs) || bidcache__file_build_id(abs, bid) < 0)
		return -1;
	if (!bidcache__has(root, abs, bid) && bidcache__add(root, abs, bid) < 0)
		return -1;
	return 0;
}

int sdt_cache__add_named(const char *root, const char *binary, const char *spec, char **lines,
			 size_t nr)
{
	char abs[PATH_MAX], bid[41], *file;
	struct probe_cache pc;
	int ret = -1;

	if (sdt_cache__add_binary(root, binary, abs, bid) < 0)
		return -1;
	file = bidcache__probes_path(root, abs, bid);
	if (probe_cache__load(file, &pc) == 0) {
		probe_cache__add_named(&pc, spec, lines, nr);
		ret = probe_cache__write(&pc, file);
		probe_cache__exit(&pc);
	}
	free(file);
	return ret;
}

int sdt_cache__remove(const char *root, const char *only_path, const char *group, const char *event)
{
	struct cached_events ce;
	int n = 0;

	if (cached_events__load(root, only_path, &ce) < 0)
		return 0;
	for (size_t b = 0; b < ce.nr_bins && n >= 0; b++) {
		size_t k = probe_cache__remove(&ce.bins[b].pc, group, event);
		char *file;

		if (!k)
			continue;
		file = bidcache__probes_path(root, ce.bins[b].path, ce.bins[b].bid);
		n = probe_cache__write(&ce.bins[b].pc, file) < 0 ? -1 : n + (int)k;
		free(file);
	}
	cached_events__exit(&ce);
	return n;
}
