// SPDX-License-Identifier: MIT
/*
 * perf probe for user space: SDT markers and cached probes ("%[sdt_]P:N"),
 * SYMBOL[+OFF] / SYMBOL%return probes from the symbol table, delete by
 * glob, list, and the probe cache (--cache).
 */
#include <ctype.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "util/build-id-cache.h"
#include "util/debuginfo.h"
#include "util/debug.h"
#include "util/debuginfod.h"
#include "util/parse-options.h"
#include "util/probe-cache.h"
#include "util/probe-event.h"
#include "util/probe-finder.h"
#include "util/sdt.h"
#include "util/sdt-cache.h"
#include "util/sdt-record.h"
#include "util/symbol-elf.h"
#include "util/util.h"

struct probe_opts {
	const char *target;
	const char *line_range, *vars_at;
	bool cache, dry_run, force, list, externs;
	char **adds, **dels;
	size_t nr_adds, nr_dels;
};

static int push_arg(const struct option *opt, const char *arg, int unset)
{
	struct probe_opts *o = opt->value;
	bool del = opt->short_name == 'd';

	if (unset || !arg)
		return 0;
	if (del) {
		o->dels = xrealloc(o->dels, (o->nr_dels + 1) * sizeof(char *));
		o->dels[o->nr_dels++] = xstrdup(arg);
	} else {
		o->adds = xrealloc(o->adds, (o->nr_adds + 1) * sizeof(char *));
		o->adds[o->nr_adds++] = xstrdup(arg);
	}
	return 0;
}

/* group default for symbol probes: probe_<basename cut at the first non-[A-Za-z0-9_]> */
static char *default_group(const char *path)
{
	const char *b = strrchr(path, '/');
	size_t n = 0;

	b = b ? b + 1 : path;
	while (b[n] && (isalnum((unsigned char)b[n]) || b[n] == '_'))
		n++;
	return xasprintf("probe_%.*s", (int)n, b);
}

struct added {
	char *name;      /* group:event */
	char *on;        /* "%gc__start" / "PyObject_GetAttr" */
	char *path;
	char *with;      /* user args or NULL */
};

static void print_added(struct added *a, size_t n)
{
	if (!n)
		return;
	printf("Added new event%s:\n", n > 1 ? "s" : "");
	for (size_t i = 0; i < n; i++)
		printf("  %-20s (on %s in %s%s%s)\n", a[i].name, a[i].on, a[i].path,
		       a[i].with ? " with " : "", a[i].with ? a[i].with : "");
	printf("\nYou can now use it in all perf tools, such as:\n\n\tperf record -e %s -aR sleep 1\n\n",
	       a[n - 1].name);
}

/* symbol's file offset in path; 0 or -1 */
static int symbol_offset(const char *path, const char *sym, uint64_t add, uint64_t *off)
{
	struct symsrc ss;
	struct symtab t = { 0 };
	struct dso_segment *segs = NULL;
	size_t nsegs;
	uint64_t addr = 0;
	bool found = false;
	int ret = -1;

	if (symsrc__open(&ss, path) < 0) {
		pr_err("%s: cannot open as ELF\n", path);
		return -1;
	}
	symsrc__load_symbols(&ss, &t, !ss.has_symtab);
	symtab__finish(&t);
	for (size_t i = 0; i < t.nr; i++)
		if (!strcmp(t.syms[i]->name, sym)) {
			addr = t.syms[i]->start;
			found = true;
			break;
		}
	if (!found && ss.has_symtab && ss.has_dynsym) {
		symtab__exit(&t);
		memset(&t, 0, sizeof(t));
		symsrc__load_symbols(&ss, &t, true);
		symtab__finish(&t);
		for (size_t i = 0; i < t.nr && !found; i++)
			if (!strcmp(t.syms[i]->name, sym)) {
				addr = t.syms[i]->start;
				found = true;
			}
	}
	if (!found) {
		pr_err("Failed to find symbol %s in %s\n", sym, path);
		goto out;
	}
	addr += add;
	nsegs = symsrc__read_segments(&ss, &segs);
	for (size_t i = 0; i < nsegs; i++)
		if (addr >= segs[i].vaddr && addr - segs[i].vaddr < segs[i].filesz) {
			*off = addr - segs[i].vaddr + segs[i].offset;
			ret = 0;
			break;
		}
	if (ret < 0)
		pr_err("%s+0x%" PRIx64 " is not in a loaded segment of %s\n", sym, add, path);
out:
	free(segs);
	symtab__exit(&t);
	symsrc__close(&ss);
	return ret;
}

/* the words of an argument list */
static size_t split_args(const char *args, char ***argv)
{
	char *copy = xstrdup(args ? args : ""), *save = NULL, *w;
	size_t n = 0;

	*argv = NULL;
	for (w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		*argv = xrealloc(*argv, (n + 1) * sizeof(char *));
		(*argv)[n++] = xstrdup(w);
	}
	free(copy);
	return n;
}

/* an argument the kernel takes as it is (no DWARF needed) */
static bool raw_arg(const char *a)
{
	const char *eq = strchr(a, '=');

	if (eq)
		a = eq + 1;
	return a[0] == '%' || a[0] == '@' || a[0] == '+' || a[0] == '-' || a[0] == '\\' ||
	       !strncmp(a, "$stack", 6) || !strncmp(a, "$comm", 5) || !strncmp(a, "$retval", 7);
}

/*
 * A probe resolved from DWARF (probe-finder.c). Returns 0 done, -1 error,
 * 1 when the point is a plain symbol probe and the binary has no DWARF
 * (the symbol table path handles it then).
 */
static int expand_dwarf(const struct probe_opts *o, const char *point, const char *args,
			const char *group, const char *name, char ***lines, size_t *nl,
			struct added **adds, size_t *na, char **spec)
{
	struct probe_point pp;
	struct probe_sites sites;
	char abs[PATH_MAX], **argv, *g, *e, *dbg;
	size_t argc;
	bool need_dwarf;
	int ret = -1;

	if (!realpath(o->target, abs)) {
		pr_err("%s: %m\n", o->target);
		return -1;
	}
	for (const char *c = args; c && *c; c++)
		if ((unsigned char)*c < ' ' && *c != '\t') {
			pr_err("Invalid probe definition '%s': control characters in the arguments\n", args);
			return -1;
		}
	if (probe_point__parse(point, &pp) < 0)
		return -1;
	argc = split_args(args, &argv);
	need_dwarf = pp.file || pp.rel_line >= 0 || pp.lazy;
	for (size_t i = 0; i < argc; i++)
		if (!raw_arg(argv[i]))
			need_dwarf = true;
	dbg = need_dwarf ? NULL : debuginfo__find(abs);
	if (!need_dwarf && !dbg) {
		ret = 1;
		goto out;
	}
	free(dbg);
	if (probe_finder__find(abs, &pp, argv, argc, &sites) < 0) {
		if (!need_dwarf) {
			/* not in the DWARF (assembler, no CU): the symbol table may know it */
			pr_debug("%s: trying the symbol table\n", point);
			ret = 1;
		}
		goto out;
	}
	g = group ? xstrdup(group) : default_group(abs);
	if (name) {
		e = xstrdup(name);
	} else {
		e = xstrdup(sites.event);
	}
	if (!o->dry_run && probe_event__exists(g, e)) {
		char *fe;

		if (!o->force) {
			pr_err("Error: event \"%s:%s\" already exists (use -f to add it as %s_1)\n", g, e, e);
			free(g);
			free(e);
			probe_sites__exit(&sites);
			goto out;
		}
		fe = probe_event__free_name(g, e);
		free(e);
		e = fe;
	}
	for (size_t i = 0; i < sites.nr; i++) {
		char *line = xasprintf("%c:%s/%s %s:0x%" PRIx64 "%s%s", pp.retprobe ? 'r' : 'p', g, e, abs,
				       sites.v[i].offset, *sites.v[i].args ? " " : "", sites.v[i].args);

		*lines = xrealloc(*lines, (*nl + 1) * sizeof(char *));
		(*lines)[(*nl)++] = line;
	}
	{
		struct added a = {
			.name = xasprintf("%s:%s", g, e),
			.on = xstrdup(point),
			.path = xstrdup(abs),
			.with = args ? xstrdup(args) : NULL,
		};

		*adds = xrealloc(*adds, (*na + 1) * sizeof(**adds));
		(*adds)[(*na)++] = a;
	}
	if (sites.nr > 1 && !quiet)
		pr_info("%s: %zu probe points (inlined copies or several blocks of the line)\n", point,
			sites.nr);
	*spec = xasprintf("%s:%s=%s%s%s", g, name ? name : sites.event, point, args ? " " : "",
			  args ? args : "");
	free(g);
	free(e);
	probe_sites__exit(&sites);
	ret = 0;
out:
	sdt_strv__free(argv, argc);
	probe_point__exit(&pp);
	return ret;
}

/*
 * Turns one definition into lines + report entries. def is
 * "[[GROUP:]NAME=]POINT [ARGS...]"; POINT "%[sdt_]P:N" (cache) or
 * SYMBOL[+OFF][%return] (needs -x). *spec gets the cache header text.
 */
static int expand_def(const struct probe_opts *o, const char *def, char ***lines, size_t *nl,
		      struct added **adds, size_t *na, char **spec)
{
	char *copy = xstrdup(def), *point, *args, *eq, *name = NULL, *group = NULL;
	int ret = -1;

	*spec = NULL;
	args = strchr(copy, ' ');
	if (args) {
		*args++ = '\0';
		while (*args == ' ')
			args++;
		if (!*args)
			args = NULL;
	}
	point = copy;
	eq = strchr(copy, '=');
	if (eq) {
		char *c;

		*eq = '\0';
		point = eq + 1;
		c = strchr(copy, ':');
		if (c) {
			*c = '\0';
			group = copy;
			name = c + 1;
		} else {
			name = copy;
		}
		if ((group && !sdt__valid_event_name(group)) || !sdt__valid_event_name(name)) {
			pr_err("Invalid event name '%s%s%s': tracefs accepts only [A-Za-z_][A-Za-z0-9_]*\n",
			       group ? group : "", group ? ":" : "", name);
			goto out;
		}
	}
	if (point[0] == '%' || (strchr(point, ':') && !o->target) ||
	    (!eq && !strncmp(point, "sdt_", 4) && strchr(point, ':'))) {
		char **l = NULL, **w = NULL;
		int n = sdt_spec__resolve(point, o->target, args, &l, &w);

		if (n < 0)
			goto out;
		if (n == 0 && sdt_spec__explain_other_build(point, o->target))
			goto out;
		if (n == 0) {
			pr_err("Error: %s does not match any cached event%s%s\n", point,
			       o->target ? " of " : "", o->target ? o->target : "");
			goto out;
		}
		for (int i = 0; i < n; i++) {
			char *g, *e, *newe, *line;
			struct added a;
			const char *in = strstr(w[i], " in ");
			char *path = xstrdup(in ? in + 4 : "");
			char *par = strrchr(path, '(');
			const char *pe = strchr(point, ':');

			if (par && par > path)
				par[-1] = '\0';
			probe_line__names(l[i], &g, &e);
			if (name) {
				free(e);
				e = xstrdup(name);
			}
			if (group) {
				free(g);
				g = xstrdup(group);
			}
			/* several sites of one marker share one event */
			newe = NULL;
			if (i > 0) {
				char *pg, *pe2;

				probe_line__names((*lines)[*nl - 1], &pg, &pe2);
				char *orig_g, *orig_e;
				probe_line__names(l[i - 1], &orig_g, &orig_e);
				char *cur_g, *cur_e;
				probe_line__names(l[i], &cur_g, &cur_e);
				if (!strcmp(orig_g, cur_g) && !strcmp(orig_e, cur_e) && !name)
					newe = xstrdup(pe2);
				free(pg); free(pe2); free(orig_g); free(orig_e); free(cur_g); free(cur_e);
			}
			if (!newe)
				newe = probe_event__free_name(g, e);
			line = probe_line__rename(l[i], g, newe);
			*lines = xrealloc(*lines, (*nl + 1) * sizeof(char *));
			(*lines)[(*nl)++] = line;
			if (!*na || strcmp((*adds)[*na - 1].name + strlen(g) + 1, newe) ||
			    strncmp((*adds)[*na - 1].name, g, strlen(g))) {
				a.name = xasprintf("%s:%s", g, newe);
				a.on = xasprintf("%%%s", pe ? pe + 1 : point + (point[0] == '%'));
				a.path = path;
				a.with = args ? xstrdup(args) : NULL;
				*adds = xrealloc(*adds, (*na + 1) * sizeof(**adds));
				(*adds)[(*na)++] = a;
			} else {
				free(path);
			}
			free(g);
			free(e);
			free(newe);
		}
		sdt_strv__free(l, (size_t)n);
		sdt_strv__free(w, (size_t)n);
		ret = 0;
		goto out;
	}
	if (!o->target) {
		pr_err("Error: %s: a symbol probe needs -x BINARY (kernel probes are not supported)\n", point);
		goto out;
	}
	{
		int r = expand_dwarf(o, point, args, group, name, lines, nl, adds, na, spec);

		if (r <= 0) {
			ret = r;
			goto out;
		}
	}
	{
		char abs[PATH_MAX], *plus, *ret_s, *sym = xstrdup(point), *g, *e, *line, *evname;
		bool is_ret = false;
		uint64_t add = 0, off;
		struct added a;

		if (!realpath(o->target, abs)) {
			pr_err("%s: %m\n", o->target);
			free(sym);
			goto out;
		}
		ret_s = strstr(sym, "%return");
		if (ret_s) {
			if (ret_s[7]) {
				pr_err("Error: junk after %%return in '%s'\n", point);
				free(sym);
				goto out;
			}
			*ret_s = '\0';
			is_ret = true;
		}
		plus = strchr(sym, '+');
		if (plus) {
			char *end;

			*plus = '\0';
			add = strtoull(plus + 1, &end, 0);
			if (*end || end == plus + 1) {
				pr_err("Error: bad offset in '%s'\n", point);
				free(sym);
				goto out;
			}
		}
		if (symbol_offset(abs, sym, add, &off) < 0) {
			free(sym);
			goto out;
		}
		g = group ? xstrdup(group) : default_group(abs);
		if (name) {
			evname = xstrdup(name);
		} else {
			size_t n = strcspn(sym, ".@");

			evname = xasprintf("%.*s%s", (int)n, sym, is_ret ? "__return" : "");
		}
		if (!o->dry_run && probe_event__exists(g, evname)) {
			if (!o->force) {
				pr_err("Error: event \"%s:%s\" already exists (use -f to add it as %s_1)\n",
				       g, evname, evname);
				free(g); free(evname); free(sym);
				goto out;
			}
			e = probe_event__free_name(g, evname);
		} else {
			e = xstrdup(evname);
		}
		line = xasprintf("%c:%s/%s %s:0x%" PRIx64 "%s%s", is_ret ? 'r' : 'p', g, e, abs, off,
				 args ? " " : "", args ? args : "");
		*lines = xrealloc(*lines, (*nl + 1) * sizeof(char *));
		(*lines)[(*nl)++] = line;
		a.name = xasprintf("%s:%s", g, e);
		a.on = xstrdup(point);
		a.path = xstrdup(abs);
		a.with = args ? xstrdup(args) : NULL;
		*adds = xrealloc(*adds, (*na + 1) * sizeof(**adds));
		(*adds)[(*na)++] = a;
		*spec = xasprintf("%s:%s=%s%s%s", g, evname, point, args ? " " : "", args ? args : "");
		free(g); free(e); free(evname); free(sym);
		ret = 0;
	}
out:
	free(copy);
	return ret;
}

static void free_added(struct added *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(a[i].name);
		free(a[i].on);
		free(a[i].path);
		free(a[i].with);
	}
	free(a);
}

/* perf probe --cache --add: the '#' entry in the target's probes file */
static int cache_named(const char *target, const char *spec, char **lines, size_t nl)
{
	char *root = bidcache__root(NULL), abs[PATH_MAX], bid[41], *file;
	struct probe_cache pc;
	int ret = -1;

	if (!realpath(target, abs) || bidcache__file_build_id(abs, bid) < 0)
		goto out_root;
	if (!bidcache__has(root, abs, bid) && bidcache__add(root, abs, bid) < 0)
		goto out_root;
	file = bidcache__probes_path(root, abs, bid);
	if (probe_cache__load(file, &pc) == 0) {
		probe_cache__add_named(&pc, spec, lines, nl);
		ret = probe_cache__write(&pc, file);
		probe_cache__exit(&pc);
	}
	free(file);
out_root:
	free(root);
	return ret;
}

static int do_add(struct probe_opts *o)
{
	char **lines = NULL;
	size_t nl = 0, na = 0;
	struct added *adds = NULL;
	int ret = 0;

	for (size_t i = 0; i < o->nr_adds && !ret; i++) {
		char *spec = NULL;
		size_t before = nl;

		if (expand_def(o, o->adds[i], &lines, &nl, &adds, &na, &spec) < 0)
			ret = -1;
		else if (o->cache && spec && cache_named(o->target, spec, lines + before, nl - before) < 0)
			ret = -1;
		free(spec);
	}
	if (!ret && o->dry_run) {
		for (size_t i = 0; i < nl; i++) {
			const char *why;

			if (probe_cache__validate_tev(lines[i], &why) < 0) {
				pr_err("Invalid probe definition '%s': %s\n", lines[i], why);
				ret = -1;
			} else if (verbose) {
				printf("%s\n", lines[i]);
			}
		}
	} else if (!ret && probe_events__add(lines, nl, NULL) < 0) {
		ret = -1;
	}
	if (!ret && !quiet)
		print_added(adds, na);
	if (ret < 0)
		pr_err("  Error: Failed to add events.\n");
	sdt_strv__free(lines, nl);
	free_added(adds, na);
	return ret;
}

static void del_report(const char *group, const char *event, int r, void *arg)
{
	if (r == 0)
		printf("Removed event: %s:%s\n", group, event);
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
			struct cached_events ce;

			n = 0;
			if (cached_events__load(root, o->target, &ce) == 0) {
				for (size_t b = 0; b < ce.nr_bins; b++) {
					size_t k = probe_cache__remove(&ce.bins[b].pc, g, e);

					if (k) {
						char *file = bidcache__probes_path(root, ce.bins[b].path, ce.bins[b].bid);

						if (probe_cache__write(&ce.bins[b].pc, file) < 0)
							ret = -1;
						free(file);
						n += (int)k;
					}
				}
				cached_events__exit(&ce);
			}
			free(root);
		} else {
			n = probe_events__del_glob(g, e, del_report, NULL);
		}
		if (n == 0) {
			pr_err("\"%s\" does not hit any event.\n", o->dels[i]);
			ret = -1;
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
		return -1;
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
		return -1;
	if (probe_finder__vars(o->target, &pp, o->externs, &pv) < 0) {
		probe_point__exit(&pp);
		pr_err("  Error: Failed to show vars.\n");
		return -1;
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
		OPT_STRING('x', "exec", &o.target, "executable|path", "target executable name or path"),
		OPT_BOOLEAN(0, "cache", &o.cache, "manipulate probe cache"),
		OPT_BOOLEAN('n', "dry-run", &o.dry_run, "dry run"),
		OPT_BOOLEAN('f', "force", &o.force, "forcibly add events with existing name"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_INCR('q', "quiet", &quiet, "be quiet"),
		OPT_DEBUGINFOD(&dbgd_opt),
		OPT_END(),
	};
	int ret = 0;

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc) {
		/* the remaining words form one definition, like perf */
		size_t len = 0;
		char *def;

		for (int i = 0; i < argc; i++)
			len += strlen(argv[i]) + 1;
		def = xzalloc(len + 1);
		for (int i = 0; i < argc; i++) {
			strcat(def, argv[i]);
			if (i + 1 < argc)
				strcat(def, " ");
		}
		o.adds = xrealloc(o.adds, (o.nr_adds + 1) * sizeof(char *));
		o.adds[o.nr_adds++] = def;
	}
	if (o.target && (o.line_range || o.vars_at || o.nr_adds))
		debuginfod__prepare_probe(&dbgd_opt, o.target, !o.line_range && !o.vars_at, o.adds, o.nr_adds);
	if (o.line_range)
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
	return ret ? 1 : 0;
}
