// SPDX-License-Identifier: MIT
#include <fnmatch.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debug.h"
#include "parse-events.h"
#include "tracefs.h"
#include "strbuf.h"
#include "util.h"

/*
 * Every hardware and software event name perf knows, in perf list's order
 * (by list name within a type). The one table behind perf list, -e parsing
 * and the names of events read back from a file.
 */
static const struct event_symbol event_symbols[] = {
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "branches", "branch-instructions", "branches" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "branch-misses", "branch-misses", NULL },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, "bus-cycles", "bus-cycles", NULL },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, "cache-misses", "cache-misses", NULL },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, "cache-references", "cache-references", NULL },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", "cpu-cycles", "cycles" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions", "instructions", NULL },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, "ref-cycles", "ref-cycles", NULL },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, "stalled-cycles-backend",
	  "stalled-cycles-backend", "idle-cycles-backend" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, "stalled-cycles-frontend",
	  "stalled-cycles-frontend", "idle-cycles-frontend" },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS, "alignment-faults", "alignment-faults", NULL },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT, "bpf-output", "bpf-output", NULL },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES, "cgroup-switches", "cgroup-switches", NULL },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches", "context-switches", "cs" },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock", "cpu-clock", NULL },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "cpu-migrations", "cpu-migrations", "migrations" },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, "dummy", "dummy", NULL },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS, "emulation-faults", "emulation-faults", NULL },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, "major-faults", "major-faults", NULL },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, "minor-faults", "minor-faults", NULL },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", "page-faults", "faults" },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", "task-clock", NULL },
};

const struct event_symbol *event_symbols__table(size_t *nr)
{
	*nr = ARRAY_SIZE(event_symbols);
	return event_symbols;
}

const char *event_symbol__name(uint32_t type, uint64_t config)
{
	for (size_t i = 0; i < ARRAY_SIZE(event_symbols); i++)
		if (event_symbols[i].type == type && event_symbols[i].config == config)
			return event_symbols[i].name;
	return NULL;
}

static const struct event_symbol *event_symbol_by_name(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(event_symbols); i++) {
		const struct event_symbol *e = &event_symbols[i];

		if (!strcmp(name, e->list_name) || (e->alias && !strcmp(name, e->alias)))
			return e;
	}
	return NULL;
}

/* applies "u", "k", "ppp", "H", ... ; -1 on an unknown letter */
static int apply_modifiers(struct perf_event_attr *attr, const char *mod)
{
	bool u = false, k = false, h = false, host = false, guest = false;
	int precise = 0;

	for (const char *c = mod; *c; c++) {
		switch (*c) {
		case 'u': u = true; break;
		case 'k': k = true; break;
		case 'h': h = true; break;
		case 'p': precise++; break;
		case 'P': precise = 3; break;
		case 'H': host = true; break;
		case 'G': guest = true; break;
		default: return -1;
		}
	}
	if (precise > 3)
		return -1;
	if (u || k || h) {
		attr->exclude_user = !u;
		attr->exclude_kernel = !k;
		attr->exclude_hv = !h;
	}
	attr->precise_ip = precise;
	if (host || guest) {
		attr->exclude_guest = !guest;
		attr->exclude_host = !host;
	}
	return 0;
}

char *event_name__with_modifiers(const char *base, const struct perf_event_attr *attr)
{
	char mod[16];
	size_t n = 0;
	bool any_excl = attr->exclude_user || attr->exclude_kernel || attr->exclude_hv;

	if (any_excl) {
		if (!attr->exclude_user)
			mod[n++] = 'u';
		if (!attr->exclude_kernel)
			mod[n++] = 'k';
		if (!attr->exclude_hv)
			mod[n++] = 'h';
	}
	for (unsigned i = 0; i < attr->precise_ip && n < 8; i++)
		mod[n++] = 'p';
	if (n && attr->exclude_guest && !attr->exclude_host)
		mod[n++] = 'H';
	else if (attr->exclude_host && !attr->exclude_guest)
		mod[n++] = 'G';
	mod[n] = 0;
	return n ? xasprintf("%s:%s", base, mod) : xstrdup(base);
}

static int tracepoint_id(const char *sys, const char *ev, uint64_t *id)
{
	int v;

	if (!tracefs__mountpoint()) {
		pr_err("tracefs is not mounted: cannot resolve tracepoint %s:%s\n", sys, ev);
		return -1;
	}
	if (strchr(sys, '/') || strchr(ev, '/') || !strcmp(sys, "..") || !strcmp(ev, "..") ||
	    (v = tracefs__event_id(sys, ev)) < 0) {
		pr_err("event syntax error: unknown tracepoint '%s:%s'\n", sys, ev);
		return -1;
	}
	*id = (uint64_t)v;
	return 0;
}

/*
 * "sys:ev@/path/bin(BUILDID)", "sys:ev@BUILDID": a cached SDT event as perf
 * list names one copy of it; the copy was chosen when its uprobe was set up
 * (sdt-record), the tracepoint is "sys:ev". Returns the name without "@...".
 */
static char *drop_sdt_copy(const char *str)
{
	const char *colon = strchr(str, ':'), *at = colon ? strchr(colon, '@') : NULL;
	const char *mod;

	if (!at)
		return xstrdup(str);
	/* modifiers after the copy: "@/path(bid):u" */
	mod = strrchr(at, ':');
	return xasprintf("%.*s%s", (int)(at - str), str, mod ? mod : "");
}

static int parse_one(const char *str, struct parsed_event *pe)
{
	char *copy = drop_sdt_copy(str), *colon = strchr(copy, ':');
	const char *mod = NULL;
	struct perf_event_attr *attr = &pe->attr;
	const struct event_symbol *sym;

	memset(pe, 0, sizeof(*pe));
	attr->size = sizeof(*attr);
	if (colon) {
		*colon = 0;
		mod = colon + 1;
	}
	sym = event_symbol_by_name(copy);
	if (sym) {
		attr->type = sym->type;
		attr->config = sym->config;
		attr->exclude_guest = 1;   /* perf's default for a plain event */
		if (mod && (!*mod || apply_modifiers(attr, mod))) {
			pr_err("event syntax error: bad modifier '%s' in '%s'\n", mod, str);
			goto err;
		}
		pe->has_modifier = mod != NULL;
	} else if (mod) {
		/* group:event[:modifiers] is a tracepoint */
		char *tmod = strchr(mod, ':');
		uint64_t id;

		if (tmod)
			*tmod++ = 0;
		if (!*copy || !*mod) {
			pr_err("event syntax error: '%s'\n", str);
			goto err;
		}
		if (tracepoint_id(copy, mod, &id))
			goto err;
		attr->type = PERF_TYPE_TRACEPOINT;
		attr->config = id;
		attr->exclude_guest = 1;
		if (tmod && apply_modifiers(attr, tmod)) {
			pr_err("event syntax error: bad modifier '%s' in '%s'\n", tmod, str);
			goto err;
		}
		pe->tp_system = xstrdup(copy);
		pe->tp_event = xstrdup(mod);
	} else {
		pr_err("event syntax error: unknown event '%s' (try cpu-clock, task-clock or group:tracepoint)\n", str);
		goto err;
	}
	pe->name = drop_sdt_copy(str);
	free(copy);
	return 0;
err:
	free(copy);
	parsed_event__exit(pe);
	return -1;
}

struct tp_glob {
	const char *sys, *ev, *mods;
	char **names;
	size_t nr, alloc;
};

static int tp_glob_match(const char *sys, const char *event, void *arg)
{
	struct tp_glob *g = arg;

	if (!fnmatch(g->sys, sys, 0) && !fnmatch(g->ev, event, 0)) {
		*ARRAY_PUSH(g->names, g->nr, g->alloc) = g->mods ? xasprintf("%s:%s:%s", sys, event, g->mods)
					    : xasprintf("%s:%s", sys, event);
	}
	return 0;
}

/* "sys:ev*" and "sdt_*:*": every tracefs event that matches, like perf */
static int parse_tracepoint_glob(const char *tok, struct parsed_event **evs, size_t *nr,
				 size_t *alloc)
{
	char *copy = xstrdup(tok), *ev = strchr(copy, ':'), *mods;
	struct tp_glob g = { 0 };
	int ret = 0;

	*ev++ = 0;
	mods = strchr(ev, ':');
	if (mods)
		*mods++ = 0;
	g.sys = copy;
	g.ev = ev;
	g.mods = mods;
	if (!tracefs__mountpoint() || tracefs__for_each_event_in(g.sys, tp_glob_match, &g) < 0) {
		pr_err("tracefs is not mounted: cannot expand '%s'\n", tok);
		ret = -1;
	} else if (!g.nr) {
		pr_err("event syntax error: no tracepoint matches '%s'\n", tok);
		ret = -1;
	}
	for (size_t i = 0; i < g.nr; i++) {
		struct parsed_event pe;

		if (!ret && parse_one(g.names[i], &pe) == 0)
			*ARRAY_PUSH(*evs, *nr, *alloc) = pe;
		else
			ret = -1;
		free(g.names[i]);
	}
	free(g.names);
	free(copy);
	return ret;
}

int parse_events(const char *str, struct parsed_event **evs, size_t *nr)
{
	char *copy = xstrdup(str), *save = NULL, *tok;
	/* *evs holds at least *nr (a caller may add to an earlier list) */
	size_t alloc = *nr;
	int ret = 0;

	if (!*str) {
		pr_err("event syntax error: empty event list\n");
		free(copy);
		return -1;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct parsed_event pe;
		char *name = drop_sdt_copy(tok);

		if (strchr(name, ':') && strpbrk(name, "*?[")) {
			int r = parse_tracepoint_glob(name, evs, nr, &alloc);

			free(name);
			if (r) {
				ret = -1;
				break;
			}
			continue;
		}
		free(name);
		if (parse_one(tok, &pe)) {
			ret = -1;
			break;
		}
		*ARRAY_PUSH(*evs, *nr, alloc) = pe;
	}
	free(copy);
	return ret;
}

void parsed_event__exit(struct parsed_event *ev)
{
	free(ev->name);
	free(ev->tp_system);
	free(ev->tp_event);
	ev->name = ev->tp_system = ev->tp_event = NULL;
}
