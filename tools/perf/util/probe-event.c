// SPDX-License-Identifier: MIT
/*
 * Adding and removing uprobe events. A multi-probe add is all-or-nothing:
 * perf 6.1 leaves the events it managed to add when a later one fails.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug.h"
#include "debuginfo.h"
#include "probe-cache.h"
#include "probe-event.h"
#include "probe-finder.h"
#include "sdt.h"
#include "sdt-record.h"
#include "strbuf.h"
#include "symbol-elf.h"
#include "tracefs.h"
#include "util.h"

int probe_line__names(const char *line, char **group, char **event)
{
	const char *p = line + 2, *slash, *sp;

	if (strlen(line) < 4 || line[1] != ':')
		return -1;
	slash = strchr(p, '/');
	sp = strchr(p, ' ');
	if (!slash || (sp && slash > sp))
		return -1;
	if (!sp)
		sp = p + strlen(p);
	*group = xasprintf("%.*s", (int)(slash - p), p);
	*event = xasprintf("%.*s", (int)(sp - slash - 1), slash + 1);
	return 0;
}

char *probe_line__rename(const char *line, const char *group, const char *event)
{
	const char *sp = strchr(line, ' ');

	return xasprintf("%c:%s/%s%s", line[0], group, event, sp ? sp : "");
}

static void parse_place(struct probe_event *ev, const char *place, size_t len)
{
	char *s = xasprintf("%.*s", (int)len, place), *colon = strrchr(s, ':'), *lp;

	if (colon) {
		*colon = '\0';
		ev->path = xstrdup(s);
		ev->offset = strtoull(colon + 1, NULL, 0);
		lp = strchr(colon + 1, '(');
		if (lp)
			ev->ref_ctr = strtoull(lp + 1, NULL, 0);
	} else {
		ev->path = xstrdup(s);
	}
	free(s);
}

int probe_events__list(struct probe_event **evs)
{
	char *text = tracefs__read("uprobe_events", NULL), *line, *save = NULL;
	int nr = 0;
	size_t cap = 0;

	*evs = NULL;
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct probe_event ev = { .type = line[0] };
		const char *place, *end;

		if (probe_line__names(line, &ev.group, &ev.event) < 0)
			continue;
		place = strchr(line, ' ');
		place = place ? place + 1 : line + strlen(line);
		end = strchr(place, ' ');
		if (!end)
			end = place + strlen(place);
		parse_place(&ev, place, (size_t)(end - place));
		ev.args = xstrdup(*end ? end + 1 : "");
		*ARRAY_PUSH(*evs, nr, cap) = ev;
	}
	free(text);
	return nr;
}

void probe_events__free(struct probe_event *evs, int nr)
{
	for (int i = 0; i < nr; i++) {
		free(evs[i].group);
		free(evs[i].event);
		free(evs[i].path);
		free(evs[i].args);
	}
	free(evs);
}

static bool listed(const struct probe_event *evs, int nr, const char *group, const char *event)
{
	for (int i = 0; i < nr; i++)
		if (!strcmp(evs[i].group, group) && !strcmp(evs[i].event, event))
			return true;
	return false;
}

bool probe_event__exists(const char *group, const char *event)
{
	struct probe_event *evs;
	int nr = probe_events__list(&evs);
	bool found = listed(evs, nr, group, event);

	probe_events__free(evs, nr);
	return found;
}

char *probe_event__free_name(const char *group, const char *event)
{
	char *name = xstrdup(event);

	for (int i = 1; probe_event__exists(group, name) && i < 1000; i++) {
		free(name);
		name = xasprintf("%s_%d", event, i);
	}
	return name;
}

void probe_names__exit(struct probe_names *n)
{
	for (size_t i = 0; i < n->nr; i++)
		free(n->v[i]);
	free(n->v);
	n->v = NULL;
	n->nr = n->cap = 0;
}

static int open_uprobe_events(void)
{
	char *path = tracefs__path("uprobe_events");
	int fd;

	if (!path) {
		pr_err("tracefs is not available (mount -t tracefs nodev /sys/kernel/tracing)\n");
		return -1;
	}
	/* never O_TRUNC: that would delete every uprobe of every user */
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		pr_err("%s: %s\n", path, strerror(errno));
	free(path);
	return fd;
}

/* the last line of error_log, for the kernel's reason */
static char *kernel_reason(void)
{
	char *log = tracefs__read("error_log", NULL), *last = NULL, *p;

	if (!log)
		return NULL;
	for (p = strtok(log, "\n"); p; p = strtok(NULL, "\n"))
		if (strstr(p, "error:"))
			last = p;
	p = last ? xstrdup(strstr(last, "error:") + 7) : NULL;
	free(log);
	return p;
}

static int write_line(int fd, const char *line)
{
	size_t len = strlen(line);
	char *buf = xasprintf("%s\n", line);
	ssize_t n = write(fd, buf, len + 1);
	int e = errno;

	free(buf);
	errno = e;
	return n == (ssize_t)(len + 1) ? 0 : -1;
}

static bool names_has(const struct probe_names *n, const char *ge)
{
	for (size_t i = 0; i < n->nr; i++)
		if (!strcmp(n->v[i], ge))
			return true;
	return false;
}

/* "GROUP/EVENT" of @g/@e into @n unless there; false when it was there */
static bool names_add(struct probe_names *n, const char *g, const char *e)
{
	char *ge = xasprintf("%s/%s", g, e);

	if (names_has(n, ge)) {
		free(ge);
		return false;
	}
	*ARRAY_PUSH(n->v, n->nr, n->cap) = ge;
	return true;
}

static bool names_has_ge(const struct probe_names *n, const char *g, const char *e)
{
	char *ge = xasprintf("%s/%s", g, e);
	bool has = names_has(n, ge);

	free(ge);
	return has;
}


int probe_events__add(char **lines, size_t nr, struct probe_names *added)
{
	struct probe_names mine = { 0 };
	struct probe_event *evs;
	size_t written = 0;
	int fd, ret = 0, nr_evs;

	/* uprobe_events read once, not once a line: 500 lines made that quadratic */
	nr_evs = probe_events__list(&evs);
	for (size_t i = 0; i < nr && !ret; i++) {
		const char *why = NULL;
		char *g, *e;

		if (probe_cache__validate_tev(lines[i], &why) < 0) {
			pr_err("Invalid probe definition '%s': %s; nothing added\n", lines[i], why);
			ret = -1;
		} else if (probe_line__names(lines[i], &g, &e) == 0) {
			/* a second site of an event seen in @lines appends to it */
			if (!names_has_ge(&mine, g, e) && listed(evs, nr_evs, g, e)) {
				pr_err("Error: event \"%s:%s\" already exists; nothing added "
				       "(use -f to add it under a new name, or delete it first)\n", g, e);
				ret = -1;
			} else {
				names_add(&mine, g, e);
			}
			free(g);
			free(e);
		}
	}
	probe_events__free(evs, nr_evs);
	fd = ret < 0 ? -1 : open_uprobe_events();
	if (fd < 0) {
		probe_names__exit(&mine);
		return -1;
	}
	for (; written < nr; written++) {
		if (write_line(fd, lines[written]) < 0) {
			int e = errno;
			char *why = kernel_reason();

			pr_err("Failed to add '%s': %s%s%s\n", lines[written], strerror(e),
			       why ? ": " : "", why ? why : "");
			free(why);
			ret = -1;
			break;
		}
	}
	close(fd);
	if (ret < 0) {
		/* only the events of the lines written before the failing one exist */
		struct probe_names made = { 0 };

		for (size_t i = 0; i < written; i++) {
			char *g, *e;

			if (probe_line__names(lines[i], &g, &e) < 0)
				continue;
			names_add(&made, g, e);
			free(g);
			free(e);
		}
		if (made.nr)
			pr_err("Rolling back the %zu event(s) this command was adding\n", made.nr);
		probe_names__del_all(&made);
		probe_names__exit(&made);
	} else if (added) {
		for (size_t i = 0; i < mine.nr; i++) {
			*ARRAY_PUSH(added->v, added->nr, added->cap) = mine.v[i];
		}
		free(mine.v);
		mine.v = NULL;
		mine.nr = mine.cap = 0;
	}
	probe_names__exit(&mine);
	return ret;
}

/* "-:GROUP/EVENT" on the open uprobe_events @fd: 0, 1 (in use, kept) or -1 */
static int del_on(int fd, const char *group, const char *event)
{
	char *line = xasprintf("-:%s/%s", group, event);
	int ret = 0;

	if (write_line(fd, line) < 0) {
		if (errno == EBUSY) {
			pr_warning("Warning: %s:%s is in use by someone else; kept\n", group, event);
			ret = 1;
		} else {
			pr_err("Failed to delete %s:%s: %s\n", group, event, strerror(errno));
			ret = -1;
		}
	}
	free(line);
	return ret;
}

int probe_event__del(const char *group, const char *event)
{
	int fd = open_uprobe_events(), ret;

	if (fd < 0)
		return -1;
	ret = del_on(fd, group, event);
	close(fd);
	return ret;
}

void probe_names__del_all(struct probe_names *names)
{
	int fd;

	if (!names->nr || (fd = open_uprobe_events()) < 0)
		return;
	/* one open for all: each delete is still its own write, so each gets its own answer */
	for (size_t i = names->nr; i-- > 0;) {
		char *slash = strchr(names->v[i], '/');

		if (!slash)
			continue;
		*slash = '\0';
		del_on(fd, names->v[i], slash + 1);
		*slash = '/';
	}
	close(fd);
}

int probe_events__del_glob(const char *group_glob, const char *event_glob,
			   void (*cb)(const char *group, const char *event, int result, void *arg), void *arg)
{
	struct probe_event *evs;
	int nr = probe_events__list(&evs), n = 0;

	if (nr < 0) {
		pr_err("tracefs is not available\n");
		return -1;
	}
	for (int i = 0; i < nr; i++) {
		int r;

		if (fnmatch(group_glob, evs[i].group, 0) || fnmatch(event_glob, evs[i].event, 0))
			continue;
		/* multi-probe events are listed once per probe: delete once */
		if (i && !strcmp(evs[i].group, evs[i - 1].group) && !strcmp(evs[i].event, evs[i - 1].event))
			continue;
		r = probe_event__del(evs[i].group, evs[i].event);
		if (cb)
			cb(evs[i].group, evs[i].event, r, arg);
		if (r >= 0)
			n++;
	}
	probe_events__free(evs, nr);
	return n;
}

/* ---- probe point syntax ---- */

void probe_point__exit(struct probe_point *pp)
{
	free(pp->function);
	free(pp->file);
	free(pp->lazy);
	memset(pp, 0, sizeof(*pp));
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

int probe_point__parse(const char *spec, struct probe_point *pp)
{
	char *s = xstrdup(spec), *p, *at, *colon, *semi, *plus;

	memset(pp, 0, sizeof(*pp));
	pp->rel_line = -1;
	for (p = s; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f) {
			pr_err("Invalid probe point '%s': control characters and spaces are not allowed\n", spec);
			goto bad;
		}
	semi = strchr(s, ';');
	if (semi) {
		*semi = '\0';
		if (!semi[1]) {
			pr_err("Error: empty lazy pattern in '%s'\n", spec);
			goto bad;
		}
		pp->lazy = xstrdup(semi + 1);
	}
	p = strstr(s, "%return");
	if (p) {
		if (p[7]) {
			pr_err("Error: junk after %%return in '%s'\n", spec);
			goto bad;
		}
		*p = '\0';
		pp->retprobe = true;
	}
	colon = strchr(s, ':');
	if (colon) {
		*colon = '\0';
		if (!all_digits(colon + 1)) {
			pr_err("Error: bad line number in '%s'\n", spec);
			goto bad;
		}
	}
	/* FILE:LINE when the part before ':' looks like a file */
	if (colon && (strchr(s, '.') || strchr(s, '/')) && !strchr(s, '@')) {
		pp->file = xstrdup(s);
		pp->line = atoi(colon + 1);
		if (pp->line <= 0) {
			pr_err("Error: bad line number in '%s'\n", spec);
			goto bad;
		}
		if (pp->retprobe || pp->lazy) {
			pr_err("Error: %%return and ;PATTERN need a function: '%s'\n", spec);
			goto bad;
		}
		free(s);
		return 0;
	}
	if (colon)
		pp->rel_line = atoi(colon + 1);
	at = strchr(s, '@');
	if (at) {
		*at = '\0';
		pp->file = xstrdup(at + 1);
	}
	plus = strchr(s, '+');
	if (plus) {
		char *end;

		*plus = '\0';
		errno = 0;
		pp->offset = strtoull(plus + 1, &end, 0);
		if (*end || end == plus + 1 || errno) {
			pr_err("Error: bad offset in '%s'\n", spec);
			goto bad;
		}
		pp->has_offset = true;
	}
	if (!*s) {
		pr_err("Error: no function in '%s'\n", spec);
		goto bad;
	}
	for (p = s; *p; p++)
		if (!(*p == '_' || *p == '.' || (*p >= '0' && *p <= '9') ||
		      ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z'))) {
			pr_err("Error: '%s' is not a function name\n", s);
			goto bad;
		}
	if ((pp->rel_line >= 0) + pp->has_offset + !!pp->lazy > 1 ||
	    (pp->retprobe && (pp->rel_line >= 0 || pp->lazy))) {
		pr_err("Error: '%s' combines :LINE, +OFF, ;PATTERN or %%return\n", spec);
		goto bad;
	}
	pp->function = xstrdup(s);
	free(s);
	return 0;
bad:
	free(s);
	probe_point__exit(pp);
	return -1;
}

/* ---- probe definitions: [[GROUP:]NAME=]POINT [ARGS...] ---- */

char *probe_line__format(bool retprobe, const char *group, const char *event, const char *path,
			 uint64_t offset, const char *args)
{
	return xasprintf("%c:%s/%s %s:0x%" PRIx64 "%s%s", retprobe ? 'r' : 'p', group, event, path,
			 offset, args && *args ? " " : "", args ? args : "");
}

void probe_plan__exit(struct probe_plan *p)
{
	for (size_t i = 0; i < p->nr_lines; i++)
		free(p->lines[i]);
	free(p->lines);
	for (size_t i = 0; i < p->nr_added; i++) {
		free(p->added[i].name);
		free(p->added[i].on);
		free(p->added[i].path);
		free(p->added[i].with);
	}
	free(p->added);
	memset(p, 0, sizeof(*p));
}

static void plan_line(struct probe_plan *p, char *line)
{
	*ARRAY_PUSH(p->lines, p->nr_lines, p->cap_lines) = line;
}

/* takes @name and @on */
static void plan_added(struct probe_plan *p, char *name, char *on, const char *path, const char *with)
{
	struct probe_added a = {
		.name = name, .on = on, .path = xstrdup(path), .with = with ? xstrdup(with) : NULL,
	};

	*ARRAY_PUSH(p->added, p->nr_added, p->cap_added) = a;
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

/* the words of an argument list */
static size_t split_args(const char *args, char ***argv)
{
	char *copy = xstrdup(args ? args : ""), *save = NULL, *w;
	size_t n = 0, cap = 0;

	*argv = NULL;
	for (w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		*ARRAY_PUSH(*argv, n, cap) = xstrdup(w);
	}
	free(copy);
	return n;
}

static void strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
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
 * The event name to write: @want itself, or (with force) the next free
 * want_N when @want exists already. NULL after a message when it exists and
 * force is off.
 */
static char *free_event_name(const struct probe_def_opts *o, const char *group, const char *want)
{
	if (o->dry_run || !probe_event__exists(group, want))
		return xstrdup(want);
	if (!o->force) {
		pr_err("Error: event \"%s:%s\" already exists (use -f to add it as %s_1)\n", group, want,
		       want);
		return NULL;
	}
	return probe_event__free_name(group, want);
}

/* the parts of a definition */
struct probe_def {
	char *group, *name;      /* NULL when not given */
	const char *point;
	const char *args;        /* NULL when none */
	char *abs;               /* the target's real path (symbol and DWARF probes) */
};

/* adds the events of one resolved point to @p; @event is the name perf would give */
static int plan_point(struct probe_plan *p, const struct probe_def_opts *o, const struct probe_def *d,
		      bool retprobe, const char *event, const uint64_t *offs, char *const *fetch,
		      size_t nr, char **spec)
{
	char *g = d->group ? xstrdup(d->group) : default_group(d->abs);
	char *e = free_event_name(o, g, d->name ? d->name : event);

	if (!e) {
		free(g);
		return -EEXIST;
	}
	for (size_t i = 0; i < nr; i++)
		plan_line(p, probe_line__format(retprobe, g, e, d->abs, offs[i], fetch ? fetch[i] : d->args));
	plan_added(p, xasprintf("%s:%s", g, e), xstrdup(d->point), d->abs, d->args);
	/* perf 6.1's header: "G:E=" only when the user named the event */
	*spec = xasprintf("%s%s%s%s%s%s%s", d->name ? g : "", d->name ? ":" : "", d->name ? d->name : "",
			  d->name ? "=" : "", d->point, d->args ? " " : "", d->args ? d->args : "");
	free(g);
	free(e);
	return 0;
}

/*
 * A probe resolved from DWARF (probe-finder.c). Returns 0 done, -1 error,
 * 1 when the point is a plain symbol probe and the binary has no DWARF
 * (the symbol table path handles it then).
 */
static int plan_dwarf(struct probe_plan *p, const struct probe_def_opts *o, const struct probe_def *d,
		      char **spec)
{
	struct probe_point pp;
	struct probe_sites sites;
	char **argv, *dbg;
	size_t argc;
	bool need_dwarf;
	int ret = -1;

	for (const char *c = d->args; c && *c; c++)
		if ((unsigned char)*c < ' ' && *c != '\t') {
			pr_err("Invalid probe definition '%s': control characters in the arguments\n", d->args);
			return -EINVAL;
		}
	if (probe_point__parse(d->point, &pp) < 0)
		return -EINVAL;
	argc = split_args(d->args, &argv);
	need_dwarf = pp.file || pp.rel_line >= 0 || pp.lazy;
	for (size_t i = 0; i < argc; i++)
		if (!raw_arg(argv[i]))
			need_dwarf = true;
	dbg = need_dwarf ? NULL : debuginfo__find(d->abs);
	if (!need_dwarf && !dbg) {
		ret = 1;
		goto out;
	}
	free(dbg);
	ret = probe_finder__find(d->abs, &pp, argv, argc, &sites);
	if (ret < 0) {
		if (!need_dwarf) {
			/* not in the DWARF (assembler, no CU): the symbol table may know it */
			pr_debug("%s: trying the symbol table\n", d->point);
			ret = 1;
		}
		goto out;
	}
	{
		uint64_t *offs = xmalloc((sites.nr + 1) * sizeof(*offs));
		char **fetch = xmalloc((sites.nr + 1) * sizeof(*fetch));

		for (size_t i = 0; i < sites.nr; i++) {
			offs[i] = sites.v[i].offset;
			fetch[i] = sites.v[i].args;
		}
		ret = plan_point(p, o, d, pp.retprobe, sites.event, offs, fetch, sites.nr, spec);
		free(offs);
		free(fetch);
	}
	if (!ret && sites.nr > 1 && !quiet)
		pr_info("%s: %zu probe points (inlined copies or several blocks of the line)\n", d->point,
			sites.nr);
	probe_sites__exit(&sites);
out:
	strv_free(argv, argc);
	probe_point__exit(&pp);
	return ret;
}

/* SYMBOL[+OFF][%return] from the symbol table */
static int plan_symbol(struct probe_plan *p, const struct probe_def_opts *o, const struct probe_def *d,
		       char **spec)
{
	char *sym = xstrdup(d->point), *plus, *ret_s, *evname;
	bool is_ret = false;
	uint64_t add = 0, off;
	int ret = -EINVAL;

	ret_s = strstr(sym, "%return");
	if (ret_s) {
		if (ret_s[7]) {
			pr_err("Error: junk after %%return in '%s'\n", d->point);
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
			pr_err("Error: bad offset in '%s'\n", d->point);
			goto out;
		}
	}
	ret = -ENOENT;
	if (symsrc__symbol_offset(d->abs, sym, add, &off) < 0)
		goto out;
	evname = xasprintf("%.*s%s", (int)strcspn(sym, ".@"), sym, is_ret ? "__return" : "");
	ret = plan_point(p, o, d, is_ret, evname, &off, NULL, 1, spec);
	free(evname);
out:
	free(sym);
	return ret;
}

/* "%[sdt_]P:N" and friends from the probe cache */
static int plan_cached(struct probe_plan *p, const struct probe_def_opts *o, const struct probe_def *d)
{
	struct sdt_sites sites;
	const char *pe = strchr(d->point, ':');
	int n = sdt_spec__resolve(d->point, o->target, d->args, &sites);

	if (n == 0 && sdt_spec__explain_other_build(d->point, o->target))
		n = -1;
	else if (n == 0)
		pr_err("Error: %s does not match any cached event%s%s\n", d->point,
		       o->target ? " of " : "", o->target ? o->target : "");
	for (int i = 0; i < n; i++) {
		const struct sdt_site *s = &sites.v[i], *prev = i ? &sites.v[i - 1] : NULL;
		const char *g = d->group ? d->group : s->group;
		char *e, *name;

		/* several sites of one marker share one event */
		if (prev && !d->name && !strcmp(prev->group, s->group) && !strcmp(prev->event, s->event)) {
			probe_line__names(p->lines[p->nr_lines - 1], &name, &e);
			free(name);
		} else {
			e = probe_event__free_name(g, d->name ? d->name : s->event);
		}
		plan_line(p, probe_line__rename(s->line, g, e));
		name = xasprintf("%s:%s", g, e);
		if (!p->nr_added || strcmp(p->added[p->nr_added - 1].name, name))
			plan_added(p, name, xasprintf("%%%s", pe ? pe + 1 : d->point + (d->point[0] == '%')),
				   s->path, d->args);
		else
			free(name);
		free(e);
	}
	sdt_sites__exit(&sites);
	return n > 0 ? 0 : -ENOENT;
}

/* splits "[[GROUP:]NAME=]POINT [ARGS...]" in place (@copy); 0 or -1 */
static int split_def(char *copy, struct probe_def *d)
{
	char *args = strchr(copy, ' '), *eq;

	memset(d, 0, sizeof(*d));
	if (args) {
		*args++ = '\0';
		while (*args == ' ')
			args++;
		d->args = *args ? args : NULL;
	}
	d->point = copy;
	eq = strchr(copy, '=');
	if (!eq)
		return 0;
	*eq = '\0';
	d->point = eq + 1;
	d->name = strchr(copy, ':');
	if (d->name) {
		*d->name++ = '\0';
		d->group = copy;
	} else {
		d->name = copy;
	}
	if ((d->group && !sdt__valid_event_name(d->group)) || !sdt__valid_event_name(d->name)) {
		pr_err("Invalid event name '%s%s%s': tracefs accepts only [A-Za-z_][A-Za-z0-9_]*\n",
		       d->group ? d->group : "", d->group ? ":" : "", d->name);
		return -EINVAL;
	}
	return 0;
}

/* a cached-event point ("%[sdt_]P:N", or P:N without a target) */
static bool cached_point(const struct probe_def *d, const char *copy, const struct probe_def_opts *o)
{
	return d->point[0] == '%' || (strchr(d->point, ':') && !o->target) ||
	       (d->point == copy && !strncmp(d->point, "sdt_", 4) && strchr(d->point, ':'));
}

int probe_def__check(const struct probe_def_opts *o, const char *def)
{
	char *copy = xstrdup(def);
	struct probe_def d;
	struct probe_point pp;
	int ret = split_def(copy, &d);

	if (!ret && !cached_point(&d, copy, o)) {
		if (probe_point__parse(d.point, &pp) < 0)
			ret = -EINVAL;
		probe_point__exit(&pp);
	}
	free(copy);
	return ret;
}

int probe_plan__add_def(struct probe_plan *p, const struct probe_def_opts *o, const char *def,
			char **spec)
{
	char *copy = xstrdup(def), abs[PATH_MAX];
	struct probe_def d;
	int ret;

	*spec = NULL;
	ret = split_def(copy, &d);
	if (ret < 0)
		goto out;
	if (cached_point(&d, copy, o)) {
		ret = plan_cached(p, o, &d);
		goto out;
	}
	if (!o->target) {
		pr_err("Error: %s: a symbol probe needs -x BINARY (kernel probes are not supported)\n",
		       d.point);
		ret = -EINVAL;
		goto out;
	}
	if (!realpath(o->target, abs)) {
		pr_err("%s: %m\n", o->target);
		ret = -ENOENT;
		goto out;
	}
	d.abs = abs;
	ret = plan_dwarf(p, o, &d, spec);
	if (ret > 0)
		ret = plan_symbol(p, o, &d, spec);
out:
	free(copy);
	return ret;
}

/* ---- -F: the functions of a binary ---- */

/* one '&'-term: "[!]GLOB" */
static bool filter_factor(const char *f, size_t n, const char *name)
{
	bool neg = false;
	char *glob;
	bool m;

	while (n && (*f == ' ' || f[n - 1] == ' ')) {
		if (*f == ' ')
			f++, n--;
		else
			n--;
	}
	if (n && *f == '!') {
		neg = true;
		f++, n--;
	}
	glob = xasprintf("%.*s", (int)n, f);
	m = !fnmatch(glob, name, 0);
	free(glob);
	return m != neg;
}

bool probe_filter__match(const char *filter, const char *name)
{
	const char *p = filter;

	/* '|' binds looser than '&', as in perf's strfilter */
	while (*p) {
		size_t alt = strcspn(p, "|");
		const char *q = p, *end = p + alt;
		bool all = true;

		while (q < end && all) {
			size_t n = strcspn(q, "&|");

			if (q + n > end)
				n = (size_t)(end - q);
			all = filter_factor(q, n, name);
			q += n + (q + n < end);
		}
		if (all)
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int probe_funcs__list(const char *path, const char *filter, char ***names)
{
	struct symsrc ss;
	struct symtab t = { 0 };
	size_t n = 0, cap = 0;

	*names = NULL;
	if (symsrc__open(&ss, path) < 0) {
		pr_err("%s: cannot open as ELF\n", path);
		return -ENOENT;
	}
	symsrc__load_symbols(&ss, &t, !ss.has_symtab);
	symsrc__synthesize_plt(&ss, &t);
	symtab__finish(&t);
	for (size_t i = 0; i < t.nr; i++) {
		const char *s = t.syms[i]->name;

		if (!probe_filter__match(filter ? filter : PROBE_FUNCS_FILTER, s))
			continue;
		*ARRAY_PUSH(*names, n, cap) = xstrdup(s);
	}
	symtab__exit(&t);
	symsrc__close(&ss);
	if (n)
		qsort(*names, n, sizeof(**names), cmp_name);
	/* one line per name (aliases at several addresses) */
	for (size_t i = 1; i < n;) {
		if (strcmp((*names)[i], (*names)[i - 1])) {
			i++;
			continue;
		}
		free((*names)[i]);
		memmove(&(*names)[i], &(*names)[i + 1], (n - i - 1) * sizeof(**names));
		n--;
	}
	return (int)n;
}
