// SPDX-License-Identifier: MIT
/*
 * perf probe for user space: SDT markers and cached probes ("%[sdt_]P:N"),
 * SYMBOL[+OFF] / SYMBOL%return probes from the symbol table, delete by
 * glob, list, and the probe cache (--cache).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/build-id-cache.h"
#include "util/debug.h"
#include "util/debuginfod.h"
#include "util/parse-options.h"
#include "util/probe-cache.h"
#include "util/probe-event.h"
#include "util/probe-finder.h"
#include "util/sdt-cache.h"
#include "util/strbuf.h"
#include "util/sdt-record.h"
#include "util/util.h"

struct probe_opts {
	const char *target, *target_ns;   /* -x, --target-ns */
	const char *line_range, *vars_at, *filter;
	bool cache, dry_run, force, list, externs, funcs;
	char **adds, **dels;
	size_t nr_adds, nr_dels, cap_adds, cap_dels;
};

static int push_arg(const struct option *opt, const char *arg, int unset)
{
	struct probe_opts *o = opt->value;
	bool del = opt->short_name == 'd';

	if (unset || !arg)
		return 0;
	if (del)
		*ARRAY_PUSH(o->dels, o->nr_dels, o->cap_dels) = xstrdup(arg);
	else
		*ARRAY_PUSH(o->adds, o->nr_adds, o->cap_adds) = xstrdup(arg);
	return 0;
}

static void print_added(const struct probe_plan *p)
{
	const struct probe_added *a = p->added;
	size_t n = p->nr_added;

	if (!n)
		return;
	/* on stderr, as perf 6.1 prints it */
	fprintf(stderr, "Added new event%s:\n", n > 1 ? "s" : "");
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "  %-20s (on %s in %s%s%s)\n", a[i].name, a[i].on, a[i].path,
			a[i].with ? " with " : "", a[i].with ? a[i].with : "");
	fprintf(stderr, "\nYou can now use it in all perf tools, such as:\n\n\tperf record -e %s -aR sleep 1\n\n",
		a[n - 1].name);
}

static int do_add(struct probe_opts *o)
{
	struct probe_def_opts dopts = { .target = o->target, .dry_run = o->dry_run, .force = o->force };
	struct probe_plan plan = { 0 };
	char *root = bidcache__root(NULL);
	int ret = 0;

	for (size_t i = 0; i < o->nr_adds; i++)
		if (probe_def__check(&dopts, o->adds[i]) < 0) {
			free(root);
			return -EINVAL;
		}
	/* perf 6.1 caches the target (and its SDT notes) on every add, dry runs too */
	if (o->target && strncmp(o->target, "/proc/", 6)) {   /* /proc/PID/root/..: read in the root (sdt-pid.c) */
		char abs[PATH_MAX], bid[41];

		if (sdt_cache__add_binary(root, o->target, abs, bid) < 0)
			pr_debug("%s: not added to the build-id cache\n", o->target);
	}

	for (size_t i = 0; i < o->nr_adds && !ret; i++) {
		char *spec = NULL;
		size_t before = plan.nr_lines;

		ret = probe_plan__add_def(&plan, &dopts, o->adds[i], &spec);
		if (!ret && o->cache && spec &&
		    sdt_cache__add_named(root, o->target, spec, plan.lines + before, plan.nr_lines - before) < 0)
			ret = -1;
		free(spec);
	}
	if (!ret && o->dry_run) {
		for (size_t i = 0; i < plan.nr_lines; i++) {
			const char *why;

			if (probe_cache__validate_tev(plan.lines[i], &why) < 0) {
				pr_err("Invalid probe definition '%s': %s\n", plan.lines[i], why);
				ret = -1;
			} else if (verbose) {
				printf("%s\n", plan.lines[i]);
			}
		}
	} else if (!ret && probe_events__add(plan.lines, plan.nr_lines, NULL) < 0) {
		ret = -1;
	}
	if (!ret && !quiet)
		print_added(&plan);
	if (ret < 0)
		pr_err("  Error: Failed to add events.\n");
	probe_plan__exit(&plan);
	free(root);
	return ret;
}

static void del_report(const char *group, const char *event, int r, void *arg)
{
	if (r == 0)
		fprintf(stderr, "Removed event: %s:%s\n", group, event);   /* perf 6.1: stderr */
}

static void split_glob(const char *s, char **g, char **e)
{
	const char *c = strchr(s, ':');

	if (c) {
		*g = xasprintf("%.*s", (int)(c - s), s);
		*e = xstrdup(c + 1);
	} else {
		*g = xstrdup("*");
		*e = xstrdup(s);
	}
}

static int do_del(struct probe_opts *o)
{
	int ret = 0;

	for (size_t i = 0; i < o->nr_dels; i++) {
		char *g, *e;
		int n;

		split_glob(o->dels[i], &g, &e);
		if (o->cache) {
			char *root = bidcache__root(NULL);

			n = sdt_cache__remove(root, o->target, g, e);
			free(root);
		} else {
			n = probe_events__del_glob(g, e, del_report, NULL);
		}
		if (n == 0 && o->cache) {
			/* perf 6.1 exits 0 then, silently */
			pr_warning("\"%s\" does not hit any cached event.\n", o->dels[i]);
		} else if (n == 0) {
			pr_err("\"%s\" does not hit any event.\n", o->dels[i]);
			ret = -ENOENT;
		} else if (n < 0) {
			ret = -1;
		}
		free(g);
		free(e);
	}
	if (ret)
		pr_err("  Error: Failed to delete events.\n");
	return ret;
}

static int do_list_cache(struct probe_opts *o)
{
	char *root = bidcache__root(NULL);
	struct cached_events ce;

	if (cached_events__load(root, o->target, &ce) == 0) {
		for (size_t b = 0; b < ce.nr_bins; b++) {
			printf("%s (%s):\n", ce.bins[b].path, ce.bins[b].bid);
			for (size_t i = 0; i < ce.bins[b].pc.nr; i++)
				printf("%s\n", ce.bins[b].pc.v[i].spec);
		}
		cached_events__exit(&ce);
	}
	free(root);
	return 0;
}

static int do_list(void)
{
	struct probe_event *evs;
	int nr = probe_events__list(&evs);

	if (nr < 0) {
		pr_err("tracefs is not available\n");
		return -1;
	}
	for (int i = 0; i < nr; i++) {
		char *name = xasprintf("%s:%s", evs[i].group, evs[i].event);
		char with[512] = "";
		const char *a = evs[i].args;
		size_t w = 0;

		/* " with arg1 arg2": the argument names */
		while (*a && w < sizeof(with) - 64) {
			const char *end = strchr(a, ' '), *eq;
			size_t len = end ? (size_t)(end - a) : strlen(a);

			eq = memchr(a, '=', len);
			w += (size_t)snprintf(with + w, sizeof(with) - w, "%s%.*s", w ? " " : " with ",
					      (int)(eq ? (size_t)(eq - a) : len), a);
			a += len;
			while (*a == ' ')
				a++;
		}
		printf("  %-20s (on 0x%llx%s in %s%s)\n", name, evs[i].offset,
		       evs[i].type == 'r' ? "%return" : "", evs[i].path, with);
		free(name);
	}
	probe_events__free(evs, nr);
	return 0;
}

/* -L: the function's source, probe-able lines numbered from its declaration (0) */
static int do_lines(struct probe_opts *o)
{
	struct probe_lines pl;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	int ln = 0;

	if (!o->target) {
		pr_err("Error: -L needs -x BINARY (kernel sources are not supported)\n");
		return -1;
	}
	if (probe_finder__lines(o->target, o->line_range, &pl) < 0)
		return -ENOENT;
	if (pl.func)
		printf("<%s@%s:%d>\n", pl.func, pl.file, pl.start - pl.base);
	else
		printf("<%s:%d>\n", pl.file, pl.start);
	f = fopen(pl.file, "r");
	if (!f) {
		pr_err("Error: cannot read the source %s: %m\n", pl.file);
		probe_lines__exit(&pl);
		return -1;
	}
	while (getline(&line, &cap, f) >= 0 && ++ln <= pl.show_end) {
		size_t len = strlen(line);

		if (len && line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (ln < pl.start)
			continue;
		if (ln <= pl.end && pl.ok[ln - pl.start])
			printf("%7d  %s\n", ln - pl.base, line);
		else
			printf("         %s\n", line);
	}
	free(line);
	fclose(f);
	probe_lines__exit(&pl);
	return 0;
}

/* -F: the functions a probe can be put on */
static int do_funcs(struct probe_opts *o)
{
	char **names;
	int n;

	if (!o->target) {
		pr_err("Error: -F needs -x BINARY (kernel functions are not supported)\n");
		return -EINVAL;
	}
	n = probe_funcs__list(o->target, o->filter, &names);
	for (int i = 0; i < n; i++)
		printf("%s\n", names[i]);
	if (n > 0)
		sdt_strv__free(names, (size_t)n);
	return n < 0 ? n : 0;
}

/* -V: the variables at each site of a point, as "type\tname" like perf */
static int do_vars(struct probe_opts *o)
{
	struct probe_point pp;
	struct probe_vars pv;

	if (!o->target) {
		pr_err("Error: -V needs -x BINARY\n");
		return -1;
	}
	if (probe_point__parse(o->vars_at, &pp) < 0)
		return -EINVAL;
	if (probe_finder__vars(o->target, &pp, o->externs, &pv) < 0) {
		probe_point__exit(&pp);
		pr_err("  Error: Failed to show vars.\n");
		return -ENOENT;
	}
	printf("Available variables at %s\n", o->vars_at);
	for (size_t i = 0; i < pv.nr; i++) {
		printf("\t@<%s>\n", pv.sites[i].where);
		for (size_t k = 0; k < pv.sites[i].nr; k++) {
			struct probe_var *v = &pv.sites[i].v[k];

			if (!v->why)
				printf("\t\t%s\t%s\n", v->type, v->name);
		}
		/* what perf leaves out silently: said, with the reason */
		for (size_t k = 0; k < pv.sites[i].nr; k++) {
			struct probe_var *v = &pv.sites[i].v[k];

			if (v->why)
				printf("\t\t(not fetchable: %s) %s\t%s\n", v->why, v->type, v->name);
		}
	}
	probe_vars__exit(&pv);
	probe_point__exit(&pp);
	return 0;
}

int cmd_probe(int argc, const char **argv)
{
	static const char *const usage[] = {
		"perf probe [<options>] 'PROBEDEF' ['PROBEDEF' ...]",
		"perf probe [<options>] --add 'PROBEDEF' [--add 'PROBEDEF' ...]",
		"perf probe [<options>] --del '[GROUP:]EVENT' ...",
		"perf probe --list [GROUP:]EVENT ...",
		NULL,
	};
	struct probe_opts o = { 0 };
	struct debuginfod_opt dbgd_opt = DEBUGINFOD_OPT_INIT;
	const struct option options[] = {
		OPT_CALLBACK('a', "add", &o, "[EVENT=]FUNC[+OFF|%return] [ARG ...]",
			     "probe point definition (also %[sdt_]PROVIDER:NAME)", push_arg),
		OPT_CALLBACK('d', "del", &o, "[GROUP:]EVENT", "delete probe events (globs)", push_arg),
		OPT_BOOLEAN('l', "list", &o.list, "list up probe events"),
		OPT_STRING('L', "line", &o.line_range, "FUNC[:RLN[+NUM|-RLN2]]|SRC:ALN[+NUM|-ALN2]",
			   "show the source lines a probe can be put on (needs debuginfo)"),
		OPT_STRING('V', "vars", &o.vars_at, "FUNC[@SRC][+OFF|%return|:RL|;PT]|SRC:AL|SRC;PT",
			   "show the variables available at a probe point (needs debuginfo)"),
		OPT_BOOLEAN(0, "externs", &o.externs, "show external (global) variables too (with -V)"),
		OPT_BOOLEAN('F', "funcs", &o.funcs, "show the functions of -x BINARY a probe can be put on"),
		OPT_STRING(0, "filter", &o.filter, "[!]FILTER",
			   "only the names -F shows that match (globs, & | !; default \"" PROBE_FUNCS_FILTER "\")"),
		OPT_STRING('x', "exec", &o.target, "executable|path", "target executable name or path"),
		OPT_STRING(0, "target-ns", &o.target_ns, "pid", "target pid for namespace contexts"),
		OPT_BOOLEAN(0, "cache", &o.cache, "manipulate probe cache"),
		OPT_BOOLEAN('n', "dry-run", &o.dry_run, "dry run"),
		OPT_BOOLEAN('f', "force", &o.force, "forcibly add events with existing name"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_INCR('q', "quiet", &quiet, "be quiet"),
		OPT_DEBUGINFOD(&dbgd_opt),
		OPT_END(),
	};
	char ns_target[PATH_MAX];
	int ret = 0;

	argc = parse_options(argc, argv, options, usage, 0);
	if (o.target && o.target_ns && snprintf(ns_target, sizeof(ns_target), "/proc/%s/root%s", o.target_ns, o.target) > 0)
		o.target = ns_target;   /* -x names a file in that process's root */
	if (o.target && access(o.target, F_OK)) {   /* perf 6.1 checks -x while parsing: usage error */
		pr_err("Failed to get the absolute path of %s: %m\n", o.target);
		usage_with_options(usage, options);
	}
	if (argc) {
		/* the remaining words form one definition, like perf */
		struct strbuf def = STRBUF_INIT;

		for (int i = 0; i < argc; i++)
			strbuf_addf(&def, "%s%s", i ? " " : "", argv[i]);
		*ARRAY_PUSH(o.adds, o.nr_adds, o.cap_adds) = strbuf_detach(&def, NULL);
	}
	if (o.target && (o.line_range || o.vars_at || o.nr_adds))
		debuginfod__prepare_probe(&dbgd_opt, o.target, !o.line_range && !o.vars_at, o.adds, o.nr_adds);
	if (o.funcs)
		ret = do_funcs(&o);
	else if (o.line_range)
		ret = do_lines(&o);
	else if (o.vars_at)
		ret = do_vars(&o);
	else if (o.list)
		ret = o.cache ? do_list_cache(&o) : do_list();
	else if (o.nr_dels)
		ret = do_del(&o);
	else if (o.nr_adds)
		ret = do_add(&o);
	else
		usage_with_options(usage, options);
	sdt_strv__free(o.adds, o.nr_adds);
	sdt_strv__free(o.dels, o.nr_dels);
	/* a negative errno, as perf 6.1 exits (-ENOENT: 254, -EINVAL: 234) */
	return ret;
}
