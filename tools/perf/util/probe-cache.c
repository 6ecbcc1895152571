// SPDX-License-Identifier: MIT
/*
 * The probes file of a build-id cache entry (perf 6.1 text format). Every
 * line is validated before anything is written, so a definition the kernel
 * would refuse never reaches the cache (perf 6.1 caches them and later
 * half-installs globs).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug.h"
#include "probe-cache.h"
#include "probe-event.h"
#include "sdt.h"
#include "strbuf.h"
#include "util.h"
#include "x86-regs.h"

/* "[GROUP:]EVENT=" before the point: an '=' in the first word (later ones are arguments') */
static const char *spec_eq(const char *spec)
{
	return memchr(spec, '=', strcspn(spec, " "));
}

static void entry_set_names(struct probe_cache_entry *e)
{
	const char *eq = spec_eq(e->spec);
	size_t n = eq ? (size_t)(eq - e->spec) : strcspn(e->spec, " ");
	const char *colon = memchr(e->spec, ':', n);

	if (colon) {
		e->group = xasprintf("%.*s", (int)(colon - e->spec), e->spec);
		e->event = xasprintf("%.*s", (int)(n - (size_t)(colon - e->spec) - 1), colon + 1);
	} else {
		e->group = NULL;
		e->event = xasprintf("%.*s", (int)n, e->spec);
	}
}

static void entry_free(struct probe_cache_entry *e)
{
	free(e->spec);
	free(e->group);
	free(e->event);
	for (size_t i = 0; i < e->nr_tevs; i++)
		free(e->tevs[i]);
	free(e->tevs);
}

void probe_cache__exit(struct probe_cache *pc)
{
	for (size_t i = 0; i < pc->nr; i++)
		entry_free(&pc->v[i]);
	free(pc->v);
	pc->v = NULL;
	pc->nr = pc->cap = 0;
}

static struct probe_cache_entry *new_entry(struct probe_cache *pc, bool sdt, const char *spec)
{
	struct probe_cache_entry *e;

	e = ARRAY_PUSH(pc->v, pc->nr, pc->cap);
	memset(e, 0, sizeof(*e));
	e->sdt = sdt;
	e->spec = xstrdup(spec);
	entry_set_names(e);
	return e;
}

static void entry_add_tev(struct probe_cache_entry *e, const char *line)
{
	*ARRAY_PUSH(e->tevs, e->nr_tevs, e->cap_tevs) = xstrdup(line);
	/*
	 * perf 6.1 writes an unnamed probe's header as "POINT ARGS" (no
	 * "G:E="): its names are those of its uprobe line then.
	 */
	if (e->nr_tevs == 1 && !e->sdt && !spec_eq(e->spec)) {
		char *g, *ev;

		if (probe_line__names(line, &g, &ev) == 0) {
			free(e->group);
			free(e->event);
			e->group = g;
			e->event = ev;
		}
	}
}

int probe_cache__parse(const char *text, const char *what, struct probe_cache *pc)
{
	struct probe_cache_entry *cur = NULL;
	const char *p = text;
	int lineno = 0;

	memset(pc, 0, sizeof(*pc));
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xasprintf("%.*s", (int)len, p);

		lineno++;
		p += len + (nl ? 1 : 0);
		if (!len) {
			free(line);
			continue;
		}
		if (line[0] == '#' || line[0] == '%') {
			cur = new_entry(pc, line[0] == '%', line + 1);
		} else if (!cur) {
			pr_err("%s:%d: probe definition before any cache entry header\n", what, lineno);
			free(line);
			probe_cache__exit(pc);
			return -1;
		} else {
			entry_add_tev(cur, line);
		}
		free(line);
	}
	return 0;
}

int probe_cache__load(const char *file, struct probe_cache *pc)
{
	char *text = read_file(file, NULL);
	int ret;

	memset(pc, 0, sizeof(*pc));
	if (!text)
		return errno == ENOENT ? 0 : (pr_err("%s: %s\n", file, strerror(errno)), -1);
	ret = probe_cache__parse(text, file, pc);
	free(text);
	return ret;
}

static bool valid_name_n(const char *s, size_t n)
{
	char *t = xasprintf("%.*s", (int)n, s);
	bool ok = sdt__valid_event_name(t);

	free(t);
	return ok;
}

#if defined(__aarch64__)
static const char *const known_regs[] = {
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13",
	"x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23", "x24", "x25",
	"x26", "x27", "x28", "x29", "x30", "lr", "sp", "pc", "pstate",
};
#endif

static bool is_number(const char *s, size_t n, bool allow_sign)
{
	size_t i = 0;

	if (allow_sign && n && (s[0] == '-' || s[0] == '+'))
		i++;
	if (i >= n)
		return false;
	if (n - i > 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		for (i += 2; i < n; i++)
			if (!isxdigit((unsigned char)s[i]))
				return false;
		return true;
	}
	for (; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* one fetcharg without name and type */
static int check_fetcharg(const char *s, size_t n, const char **why)
{
	if (!n) {
		*why = "empty argument";
		return -1;
	}
	if (s[0] == '%') {
#if defined(__aarch64__)
		for (size_t i = 0; i < ARRAY_SIZE(known_regs); i++)
			if (strlen(known_regs[i]) == n - 1 && !memcmp(known_regs[i], s + 1, n - 1))
				return 0;
#else
		if (x86_reg__is_kernel_name(s + 1, n - 1))
			return 0;
#endif
		*why = "unknown register";
		return -1;
	}
	if (s[0] == '@') {
		if (n > 2 && s[1] == '+' && is_number(s + 2, n - 2, false))
			return 0;
		if (is_number(s + 1, n - 1, false))
			return 0;
		*why = "bad memory address";
		return -1;
	}
	if (s[0] == '\\') {
		if (n > 2 && s[1] == '"' && s[n - 1] == '"')
			return 0;
		if (is_number(s + 1, n - 1, true))
			return 0;
		*why = "bad immediate";
		return -1;
	}
	if (s[0] == '$') {
		static const char *const vars[] = { "$retval", "$comm", "$stack" };

		for (size_t i = 0; i < ARRAY_SIZE(vars); i++)
			if (strlen(vars[i]) == n && !memcmp(vars[i], s, n))
				return 0;
		if (n > 6 && !memcmp(s, "$stack", 6) && is_number(s + 6, n - 6, false))
			return 0;
		if (n > 4 && !memcmp(s, "$arg", 4) && is_number(s + 4, n - 4, false))
			return 0;
		*why = "unknown $variable";
		return -1;
	}
	if (s[0] == '+' || s[0] == '-') {
		size_t i = 1;
		const char *lp;

		if (i < n && s[i] == 'u')
			i++;
		lp = memchr(s, '(', n);
		if (!lp || s[n - 1] != ')' || !is_number(s + i, (size_t)(lp - s) - i, false)) {
			*why = "bad dereference";
			return -1;
		}
		return check_fetcharg(lp + 1, n - (size_t)(lp - s) - 2, why);
	}
	*why = "unknown argument form";
	return -1;
}

static int check_type(const char *t, size_t n, const char **why)
{
	static const char *const types[] = {
		"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "x8", "x16", "x32", "x64",
		"string", "ustring", "symbol", "char",
	};
	const char *lb = memchr(t, '[', n);

	if (lb) {       /* TYPE[N] */
		if (t[n - 1] != ']' || !is_number(lb + 1, n - (size_t)(lb - t) - 2, false))
			goto bad;
		n = (size_t)(lb - t);
	}
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (strlen(types[i]) == n && !memcmp(types[i], t, n))
			return 0;
	if (n > 1 && t[0] == 'b') {
		unsigned w, o, c;
		char tail;
		char *tmp = xasprintf("%.*s", (int)n, t);
		int k = sscanf(tmp, "b%u@%u/%u%c", &w, &o, &c, &tail);

		free(tmp);
		if (k == 3 && w && (c == 8 || c == 16 || c == 32 || c == 64) && w + o <= c)
			return 0;
	}
bad:
	*why = "unknown argument type";
	return -1;
}

int probe_cache__validate_tev(const char *line, const char **why)
{
	const char *p = line, *slash, *sp, *place_end, *colon;

	if ((p[0] != 'p' && p[0] != 'r') || p[1] != ':') {
		*why = "not a p:/r: definition";
		return -1;
	}
	p += 2;
	slash = strchr(p, '/');
	sp = strchr(p, ' ');
	if (!slash || !sp || slash > sp || !valid_name_n(p, (size_t)(slash - p)) ||
	    !valid_name_n(slash + 1, (size_t)(sp - slash - 1))) {
		*why = "bad GROUP/EVENT name";
		return -1;
	}
	p = sp + 1;
	place_end = strchr(p, ' ');
	if (!place_end)
		place_end = p + strlen(p);
	colon = NULL;
	for (const char *q = p; q < place_end; q++)
		if (*q == ':')
			colon = q;
	if (!colon || colon == p || p[0] != '/') {
		*why = "place is not /PATH:OFFSET";
		return -1;
	}
	{
		const char *o = colon + 1, *e = o;

		while (e < place_end && *e != '%' && *e != '(')
			e++;
		if (!is_number(o, (size_t)(e - o), false)) {
			*why = "bad offset";
			return -1;
		}
		if (e < place_end && *e == '%') {
			if ((size_t)(place_end - e) < 7 || memcmp(e, "%return", 7)) {
				*why = "bad %return";
				return -1;
			}
			e += 7;
		}
		if (e < place_end && *e == '(') {
			const char *rp = memchr(e, ')', (size_t)(place_end - e));

			if (!rp || rp + 1 != place_end || !is_number(e + 1, (size_t)(rp - e - 1), false)) {
				*why = "bad (ref_ctr_offset)";
				return -1;
			}
			e = place_end;
		}
		if (e != place_end) {
			*why = "junk after the offset";
			return -1;
		}
	}
	p = place_end;
	while (*p) {
		const char *a, *end, *eq, *tc;
		size_t depth = 0;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		a = p;
		end = strchr(a, ' ');
		if (!end)
			end = a + strlen(a);
		eq = memchr(a, '=', (size_t)(end - a));
		if (eq && (a[0] == '\\' && a[1] == '"'))
			eq = NULL;
		if (eq) {
			if (!valid_name_n(a, (size_t)(eq - a))) {
				*why = "bad argument name";
				return -1;
			}
			a = eq + 1;
		}
		/* the type colon is the last ':' outside parentheses */
		tc = NULL;
		for (const char *q = a; q < end; q++) {
			if (*q == '(')
				depth++;
			else if (*q == ')' && depth)
				depth--;
			else if (*q == ':' && !depth)
				tc = q;
		}
		if (check_fetcharg(a, (size_t)((tc ? tc : end) - a), why) < 0)
			return -1;
		if (tc && check_type(tc + 1, (size_t)(end - tc - 1), why) < 0)
			return -1;
		p = end;
	}
	return 0;
}

static int validate_all(const struct probe_cache *pc)
{
	for (size_t i = 0; i < pc->nr; i++) {
		const struct probe_cache_entry *e = &pc->v[i];

		if (strchr(e->spec, '\n') || !e->event || !valid_name_n(e->event, strlen(e->event)) ||
		    (e->group && !valid_name_n(e->group, strlen(e->group)))) {
			pr_err("probe cache: invalid entry '%s', nothing written\n", e->spec);
			return -1;
		}
		for (size_t k = 0; k < e->nr_tevs; k++) {
			const char *why = NULL;

			if (strchr(e->tevs[k], '\n') || strlen(e->tevs[k]) >= 4094 ||
			    probe_cache__validate_tev(e->tevs[k], &why) < 0) {
				pr_err("probe cache: invalid definition '%s': %s; nothing written\n",
				       e->tevs[k], why ? why : "too long or multi-line");
				return -1;
			}
		}
	}
	return 0;
}

int probe_cache__write_at(const struct probe_cache *pc, int dirfd, const char *name)
{
	char tmp[64];
	FILE *f;
	int fd, err = 0;

	if (validate_all(pc) < 0)
		return -1;
	snprintf(tmp, sizeof(tmp), ".probes.tmp.%d", (int)getpid());
	unlinkat(dirfd, tmp, 0);
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		pr_err("probe cache: cannot create a temporary file for %s: %s\n", name, strerror(errno));
		return -1;
	}
	f = fdopen(fd, "w");
	for (size_t i = 0; i < pc->nr; i++) {
		const struct probe_cache_entry *e = &pc->v[i];

		fprintf(f, "%c%s\n", e->sdt ? '%' : '#', e->spec);
		for (size_t k = 0; k < e->nr_tevs; k++)
			fprintf(f, "%s\n", e->tevs[k]);
	}
	if (fflush(f) || ferror(f))
		err = errno ? errno : EIO;
	if (fclose(f) && !err)
		err = errno;
	/* rename replaces a planted symlink instead of writing through it */
	if (!err && renameat(dirfd, tmp, dirfd, name) < 0)
		err = errno;
	if (err) {
		pr_err("probe cache: cannot write %s: %s\n", name, strerror(err));
		unlinkat(dirfd, tmp, 0);
	}
	return err ? -1 : 0;
}

int probe_cache__write(const struct probe_cache *pc, const char *file)
{
	char *dir = xstrdup(file), *slash = strrchr(dir, '/');
	int dfd, ret;

	if (slash)
		*slash = '\0';
	dfd = open(slash ? (dir[0] ? dir : "/") : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		pr_err("probe cache: %s: %s\n", dir, strerror(errno));
		free(dir);
		return -1;
	}
	ret = probe_cache__write_at(pc, dfd, slash ? slash + 1 : file);
	close(dfd);
	free(dir);
	return ret;
}

void probe_cache__set_sdt(struct probe_cache *pc, const struct sdt_notes *notes, const char *path)
{
	struct probe_cache old = *pc;

	memset(pc, 0, sizeof(*pc));
	for (size_t i = 0; i < notes->nr; i++) {
		const struct sdt_note *n = &notes->v[i];
		struct probe_cache_entry *e = NULL;
		char *line;

		/* the same marker repeated in the binary: more lines under one entry */
		for (size_t k = 0; k < pc->nr; k++)
			if (!strcmp(pc->v[k].group + 4, n->provider) && !strcmp(pc->v[k].event, n->name))
				e = &pc->v[k];
		if (!e) {
			char *spec = xasprintf("sdt_%s:%s=%s", n->provider, n->name, n->name);

			e = new_entry(pc, true, spec);
			free(spec);
		}
		line = sdt_note__uprobe_line(n, path);
		entry_add_tev(e, line);
		free(line);
	}
	for (size_t i = 0; i < old.nr; i++) {
		if (old.v[i].sdt) {
			entry_free(&old.v[i]);
			continue;
		}
		*ARRAY_PUSH(pc->v, pc->nr, pc->cap) = old.v[i];
	}
	free(old.v);
}

/*
 * An argument as perf 6.1 prints it back in a header: a member access
 * unnamed gets the member's name ("r->name:string" is
 * "name=r->name:string"); malloc'ed.
 */
static char *header_arg(const char *a, size_t len)
{
	size_t expr = strcspn(a, ":");
	const char *m = NULL;

	if (expr > len)
		expr = len;
	if (memchr(a, '=', len))
		return xasprintf("%.*s", (int)len, a);
	for (size_t i = 0; i < expr; i++) {
		if (a[i] == '.')
			m = a + i + 1;
		else if (a[i] == '-' && i + 1 < expr && a[i + 1] == '>')
			m = a + i + 2;
	}
	if (!m || m == a + expr)
		return xasprintf("%.*s", (int)len, a);
	return xasprintf("%.*s=%.*s", (int)(a + expr - m), m, (int)len, a);
}

/*
 * The header text perf 6.1 writes for a definition "[NAME=]POINT ARGS": its
 * point printed back from what it parsed (FUNC:0 is FUNC, FILE:LINE is
 * @FILE:LINE, FUNC@FILE:N is FUNC:N@FILE, an unnamed FUNC:N gets its
 * GROUP:EVENT= from the first line), its arguments as header_arg prints
 * them; malloc'ed.
 */
static char *header_spec(const char *spec, const char *tev)
{
	size_t head = strcspn(spec, " "), pre = 0;
	const char *eq = spec_eq(spec), *p;
	struct probe_point pp;
	char *point, *name = NULL, *out;
	struct strbuf sb = STRBUF_INIT;

	if (eq)
		pre = (size_t)(eq - spec) + 1;
	point = xasprintf("%.*s", (int)(head - pre), spec + pre);
	strbuf_addf(&sb, "%.*s", (int)pre, spec);
	if (point[0] != '%' && probe_point__parse(point, &pp) == 0) {
		char *g = NULL, *e = NULL;

		if (!pre && pp.function && pp.rel_line > 0 && tev && probe_line__names(tev, &g, &e) == 0)
			strbuf_addf(&sb, "%s:%s=", g, e);
		free(g);
		free(e);
		if (pp.function && pp.rel_line == 0 && !pp.lazy)
			name = xasprintf("%s%s%s", pp.function, pp.file ? "@" : "", pp.file ? pp.file : "");
		else if (pp.function && pp.rel_line > 0 && pp.file && !pp.lazy)
			name = xasprintf("%s:%d@%s", pp.function, pp.rel_line, pp.file);
		else if (!pp.function && pp.file && pp.line)
			name = xasprintf("@%s:%d", pp.file, pp.line);
		probe_point__exit(&pp);
	}
	strbuf_addf(&sb, "%s", name ? name : point);
	free(name);
	free(point);
	for (p = spec + head; *p == ' ';) {
		size_t len;
		char *a;

		p += strspn(p, " ");
		len = strcspn(p, " ");
		if (!len)
			break;
		a = header_arg(p, len);
		strbuf_addf(&sb, " %s", a);
		free(a);
		p += len;
	}
	out = strbuf_detach(&sb, NULL);
	return out ? out : xstrdup("");
}

void probe_cache__add_named(struct probe_cache *pc, const char *spec, char **tevs, size_t nr)
{
	struct probe_cache_entry tmp = { .spec = header_spec(spec, nr ? tevs[0] : NULL) }, *e;
	/* perf 6.1 replaces a named definition by its name, an unnamed one by its text */
	bool named = spec_eq(tmp.spec) != NULL;

	entry_set_names(&tmp);
	if (nr && !named) {
		free(tmp.group);
		free(tmp.event);
		tmp.group = tmp.event = NULL;
		if (probe_line__names(tevs[0], &tmp.group, &tmp.event) < 0)
			entry_set_names(&tmp);
	}
	for (size_t i = 0; i < pc->nr; i++) {
		e = &pc->v[i];
		if (!e->sdt && (named ? !strcmp(e->event, tmp.event) &&
				!strcmp(e->group ? e->group : "", tmp.group ? tmp.group : "") :
				!strcmp(e->spec, tmp.spec))) {
			entry_free(e);
			memmove(e, e + 1, (pc->nr - i - 1) * sizeof(*e));
			pc->nr--;
			break;
		}
	}
	e = ARRAY_PUSH(pc->v, pc->nr, pc->cap);
	*e = tmp;
	for (size_t i = 0; i < nr; i++)
		entry_add_tev(e, tevs[i]);
}

static bool entry_matches(const struct probe_cache_entry *e, const char *gg, const char *eg)
{
	return (!gg || !fnmatch(gg, e->group ? e->group : "", 0)) && (!eg || !fnmatch(eg, e->event, 0));
}

int probe_cache__for_each_match(const struct probe_cache *pc, const char *group_glob,
				const char *event_glob,
				int (*cb)(const struct probe_cache_entry *e, void *arg), void *arg)
{
	for (size_t i = 0; i < pc->nr; i++) {
		int r;

		if (!entry_matches(&pc->v[i], group_glob, event_glob))
			continue;
		r = cb(&pc->v[i], arg);
		if (r)
			return r;
	}
	return 0;
}

size_t probe_cache__remove(struct probe_cache *pc, const char *group_glob, const char *event_glob)
{
	size_t n = 0, w = 0;

	for (size_t i = 0; i < pc->nr; i++) {
		if (entry_matches(&pc->v[i], group_glob, event_glob)) {
			entry_free(&pc->v[i]);
			n++;
			continue;
		}
		pc->v[w++] = pc->v[i];
	}
	pc->nr = w;
	return n;
}
