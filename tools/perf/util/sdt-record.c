// SPDX-License-Identifier: MIT
/*
 * Cached events turned into uprobes on demand (perf record -e sdt_P:N), as
 * proposed in the design thread: the user names the event as it will be
 * recorded, and record sets up and removes the probes itself.
 */
#include <dirent.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build-id-cache.h"
#include "debug.h"
#include "probe-event.h"
#include "sdt-cache.h"
#include "sdt-pid.h"
#include "sdt-record.h"
#include "strbuf.h"
#include "tracefs.h"
#include "util.h"

void sdt_strv__free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* the group of a "[%]GROUP:EVENT" spec as written (named cached probes have no sdt_ prefix) */
static char *named_group(const char *spec)
{
	const char *s = spec[0] == '%' ? spec + 1 : spec;
	size_t n = strcspn(s, ":@");

	return s[n] == ':' && n ? xasprintf("%.*s", (int)n, s) : NULL;
}

void sdt_sites__exit(struct sdt_sites *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		free(s->v[i].line);
		free(s->v[i].group);
		free(s->v[i].event);
		free(s->v[i].path);
	}
	free(s->v);
	s->v = NULL;
	s->nr = s->cap = 0;
}

static void add_site(struct sdt_sites *out, const struct cached_event *c, const char *tev,
		     const char *extra_args)
{
	struct sdt_site *s;

	s = ARRAY_PUSH(out->v, out->nr, out->cap);
	memset(s, 0, sizeof(*s));
	s->line = xasprintf("%s%s%s", tev, extra_args && *extra_args ? " " : "",
			    extra_args ? extra_args : "");
	if (probe_line__names(tev, &s->group, &s->event) < 0) {
		/* validated when the cache was loaded: cannot happen, but never NULL */
		s->group = xstrdup(c->e->group ? c->e->group : "");
		s->event = xstrdup(c->e->event);
	}
	s->path = xstrdup(c->path);
	snprintf(s->bid, sizeof(s->bid), "%s", c->bid);
}

/* the sites of @spec among the loaded cached events @ce */
static int resolve_in(const struct cached_events *ce, const char *spec, const char *extra_args,
		      struct sdt_sites *out)
{
	char *group, *event, *at, *raw;

	memset(out, 0, sizeof(*out));
	cached_event__split(spec, &group, &event, &at);
	raw = named_group(spec);
	for (size_t i = 0; i < ce->nr; i++) {
		const struct cached_event *c = &ce->v[i];

		/* "%NAME" without a provider matches any provider; a '#' probe's group is its own */
		if (!cached_event__matches(c, group, event, at) &&
		    !(raw && !c->e->sdt && cached_event__matches(c, raw, event, at)))
			continue;
		for (size_t k = 0; k < c->e->nr_tevs; k++)
			add_site(out, c, c->e->tevs[k], extra_args);
	}
	free(raw);
	free(group);
	free(event);
	free(at);
	return (int)out->nr;
}

/* the cached events of @binary (added to the cache first if needed), or of every binary */
static int load_cached(const char *binary, struct cached_events *ce)
{
	char *root = bidcache__root(NULL), abs[PATH_MAX], bid[41];
	int ret = 0;

	memset(ce, 0, sizeof(*ce));
	if ((binary && sdt_cache__add_binary(root, binary, abs, bid) < 0) ||
	    cached_events__load(root, binary, ce) < 0)
		ret = -1;
	free(root);
	return ret;
}

int sdt_spec__resolve(const char *spec, const char *binary, const char *extra_args,
		      struct sdt_sites *out)
{
	struct cached_events ce;
	const char *in_root;
	pid_t pid;
	int n;

	/* a file inside a process's root: read there, never by its host path (util/sdt-pid.h) */
	if (binary && sdt_pid__split_target(binary, &pid, &in_root) == 0)
		return sdt_pid__resolve_target(spec, binary, extra_args, out);
	memset(out, 0, sizeof(*out));
	if (load_cached(binary, &ce) < 0)
		return -1;
	n = resolve_in(&ce, spec, extra_args, out);
	cached_events__exit(&ce);
	return n;
}

/*
 * The cache as loaded once for all the comma-separated specs of one -e:
 * loading it validates every entry's build-id (an ELF read each), which
 * repeated for each of 500 specs took seconds.
 */
struct sdt_loaded {
	struct cached_events bin, all;
	int bin_state, all_state;   /* 0 not loaded yet, 1 loaded, -1 failed */
};

static int loaded_resolve(struct sdt_loaded *l, const char *spec, const char *binary,
			  struct sdt_sites *out)
{
	struct cached_events *ce = binary ? &l->bin : &l->all;
	int *state = binary ? &l->bin_state : &l->all_state;
	const char *in_root;
	pid_t pid;

	if (binary && sdt_pid__split_target(binary, &pid, &in_root) == 0)
		return sdt_pid__resolve_target(spec, binary, NULL, out);
	memset(out, 0, sizeof(*out));
	if (!*state)
		*state = load_cached(binary, ce) < 0 ? -1 : 1;
	return *state < 0 ? -1 : resolve_in(ce, spec, NULL, out);
}

static void sdt_loaded__exit(struct sdt_loaded *l)
{
	cached_events__exit(&l->bin);
	cached_events__exit(&l->all);
}

/* an existing tracefs event matching group/event globs? */
struct tp_match {
	const char *g, *e;
	bool found;
};

static int tp_match_cb(const char *sys, const char *event, void *arg)
{
	struct tp_match *m = arg;
	char *g = xstrdup(m->g), *e = xstrdup(m->e);
	int fnm;

	fnm = fnmatch(g, sys, 0) || fnmatch(e, event, 0);
	free(g);
	free(e);
	if (!fnm) {
		m->found = true;
		return 1;
	}
	return 0;
}

static int any_match(const struct probe_cache_entry *e, void *arg)
{
	return 1;
}

int sdt_spec__explain_other_build(const char *spec, const char *binary)
{
	char *root, *group, *event, *at, *dir, abs[PATH_MAX], bid[41], *raw;
	DIR *d;
	struct dirent *de;
	int found = 0;

	if (!binary || !realpath(binary, abs) || bidcache__file_build_id(abs, bid) < 0)
		return 0;
	root = bidcache__root(NULL);
	dir = xasprintf("%s%s", root, abs);
	cached_event__split(spec, &group, &event, &at);
	raw = named_group(spec);
	d = opendir(dir);
	while (d && !found && (de = readdir(d))) {
		struct probe_cache pc;
		char *file;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, bid) || strlen(de->d_name) < 32)
			continue;
		file = xasprintf("%s/%s/probes", dir, de->d_name);
		if (probe_cache__load(file, &pc) == 0) {
			if (probe_cache__for_each_match(&pc, group, event, any_match, NULL) > 0 ||
			    (raw && probe_cache__for_each_match(&pc, raw, event, any_match, NULL) > 0)) {
				pr_err("Error: the cached probe %s was made for %s with build-id %s, but %s now "
				       "has build-id %s: not used (cache it again where this build's debuginfo "
				       "exists)\n", spec, abs, de->d_name, abs, bid);
				found = 1;
			}
			probe_cache__exit(&pc);
		}
		free(file);
	}
	if (d)
		closedir(d);
	free(raw);
	free(group);
	free(event);
	free(at);
	free(dir);
	free(root);
	return found;
}

/* "...@PATH" or "...@BUILDID": the user chose the copies */
static bool at_narrowed(const char *spec)
{
	return strchr(spec, '@') != NULL;
}

static int prepare_one(struct sdt_record *sr, struct sdt_loaded *l, const char *ev,
		       const char *binary)
{
	char *spec = xstrdup(ev), *colon, *slash, **lines;
	struct sdt_sites sites = { 0 };
	int n, ret = 0;

	/* pmu/..../ and modifiers are not ours */
	slash = strchr(spec, '/');
	colon = strchr(spec, ':');
	if (!colon || (slash && slash < colon)) {
		free(spec);
		return 0;
	}
	{
		char *g = xasprintf("%.*s", (int)(colon - spec), spec);
		char *at = strchr(colon + 1, '@');
		char *e = at ? xasprintf("%.*s", (int)(at - colon - 1), colon + 1) : xstrdup(colon + 1);
		struct tp_match m = { g, e, false };

		/* a plain name: its id file says it all (no walk over the growing group) */
		if (strpbrk(g, "*?[") || strpbrk(e, "*?["))
			tracefs__for_each_event_in(g, tp_match_cb, &m);
		else
			m.found = tracefs__event_id(g, e) >= 0;
		free(g);
		free(e);
		if (m.found && !at) {
			free(spec);
			return 0;   /* already a tracefs event: record uses it as is */
		}
	}
	/*
	 * With a workload, the copies in it first: another binary (or another
	 * build) cached with the same provider is not what the workload runs.
	 * Without a match there, every cached copy, as system-wide.
	 */
	n = binary && !at_narrowed(spec) ? loaded_resolve(l, spec, binary, &sites) : 0;
	/* -p: the copies the processes map, through their roots (a container's are not cached) */
	if (n <= 0 && sr->pids && !at_narrowed(spec)) {
		sdt_sites__exit(&sites);
		n = sdt_pid__resolve(spec, sr->pids, &sites);
	}
	if (n < 0) {
		sdt_sites__exit(&sites);
		n = 0;   /* the workload is no ELF file we can cache (a script): not ours */
	}
	if (n == 0) {
		if (binary)
			sdt_sites__exit(&sites);
		n = loaded_resolve(l, spec, NULL, &sites);
		/* the workload need not have the event: then it is not ours to set up,
		 * unless it was cached for another build of that very file */
		if (n == 0 && binary && sdt_spec__explain_other_build(spec, binary))
			n = -1;
		/* -a: nothing cached has it; the copies running processes map */
		if (n == 0 && sr->system_wide && !at_narrowed(spec)) {
			sdt_sites__exit(&sites);
			n = sdt_pid__resolve(spec, NULL, &sites);
		}
	}
	if (n <= 0) {
		sdt_sites__exit(&sites);
		free(spec);
		return n < 0 ? -1 : 0;
	}
	lines = xmalloc(sites.nr * sizeof(*lines));
	for (size_t i = 0; i < sites.nr; i++)
		lines[i] = sites.v[i].line;
	if (probe_events__add(lines, sites.nr, &sr->created) < 0) {
		ret = -1;
	} else {
		for (size_t i = 0; i < sites.nr; i++) {
			const struct sdt_site *s = &sites.v[i];
			char *where = xasprintf("%s:%s in %s (%s)", s->group, s->event, s->path, s->bid);

			if (!quiet)
				pr_info("Probing %s\n", where);
			*ARRAY_PUSH(sr->where, sr->nr_where, sr->cap_where) = where;
		}
		ret = n;
	}
	free(lines);
	sdt_sites__exit(&sites);
	free(spec);
	return ret;
}

int sdt_record__prepare(struct sdt_record *sr, const char *events, const char *binary)
{
	char *copy = xstrdup(events), *save = NULL;
	struct sdt_loaded loaded = { 0 };
	int total = 0;

	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int r = prepare_one(sr, &loaded, t, binary);

		if (r < 0) {
			sdt_record__cleanup(sr);
			total = -1;
			break;
		}
		total += r;
	}
	sdt_loaded__exit(&loaded);
	free(copy);
	return total;
}

void sdt_record__cleanup(struct sdt_record *sr)
{
	probe_names__del_all(&sr->created);
	probe_names__exit(&sr->created);
	sdt_strv__free(sr->where, sr->nr_where);
	sr->where = NULL;
	sr->nr_where = sr->cap_where = 0;
}
