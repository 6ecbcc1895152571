// SPDX-License-Identifier: MIT
/*
 * TRACING_DATA payload (perf-data.md §5.2) and tracefs format files
 * (uprobes-tracefs.md §5).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug.h"
#include "kallsyms.h"
#include "strbuf.h"
#include "trace-event.h"
#include "trace-event-print.h"
#include "tracefs.h"
#include "util.h"

#define TRACING_MAGIC "\027\010Dtracing"   /* 10 bytes incl. the three binary ones */
#define TRACING_MAGIC_LEN 10
#define TRACING_VERSION "0.6"

/* ---------------- output: a strbuf ---------------- */

/* size8 + file contents; a missing file counts as empty (a debug note, not an error) */
static int ob_file8(struct strbuf *b, const char *rel)
{
	size_t sz = 0;
	char *txt = tracefs__read(rel, &sz);

	if (!txt) {
		pr_err("cannot read tracefs %s: %s\n", rel, strerror(errno));
		return -1;
	}
	strbuf_add_u64(b, sz);
	strbuf_add(b, txt, sz);
	free(txt);
	return 0;
}

/* ---------------- building ---------------- */

struct tp_name {
	char *sys, *event;
};

static bool tp_in_list(const struct tp_name *tps, size_t n, const char *sys, const char *event)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(tps[i].sys, sys) && (!event || !strcmp(tps[i].event, event)))
			return true;
	return false;
}

/*
 * perf 6.1 walks tracefs in directory order (not the order of the events
 * on the command line), keeping what was asked for; we do the same so the
 * payloads are byte-identical.
 */
static char **dir_entries(const char *dir, size_t *nr)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, cap = 0;

	*nr = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		*ARRAY_PUSH(v, n, cap) = xstrdup(de->d_name);
	}
	closedir(d);
	*nr = n;
	return v ? v : xzalloc(sizeof(*v));
}

static void free_entries(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* count (u32) + {size8, format} for the listed events of @sys, in directory order */
static int put_system_events(struct strbuf *b, const char *sys, const struct tp_name *tps, size_t n)
{
	char *rel = xasprintf("events/%s", sys), *dir = tracefs__path(rel);
	size_t nev = 0, count = 0, count_pos;
	char **evs = dir ? dir_entries(dir, &nev) : NULL;
	int ret = 0;

	free(rel);
	free(dir);
	if (!evs) {
		pr_err("cannot list tracefs events/%s\n", sys);
		return -1;
	}
	count_pos = b->len;
	strbuf_add_u32(b, 0);
	for (size_t i = 0; i < nev && !ret; i++) {
		size_t sz;
		char *fmt;

		if (!tp_in_list(tps, n, sys, evs[i]))
			continue;
		fmt = tracefs__event_format(sys, evs[i], &sz);
		if (!fmt) {
			pr_err("cannot read the format of %s:%s\n", sys, evs[i]);
			ret = -1;
			break;
		}
		strbuf_add_u64(b, sz);
		strbuf_add(b, fmt, sz);
		free(fmt);
		count++;
	}
	strbuf_set(b, count_pos, &(uint32_t){ (uint32_t)count }, 4);
	free_entries(evs, nev);
	return ret;
}

static int build_from_names(const struct tp_name *tps, size_t n, void **buf, size_t *size)
{
	struct strbuf b = STRBUF_INIT;
	char *events = tracefs__path("events");
	char **systems = NULL;
	size_t nsys = 0, nr_sys = 0, nr_pos;
	int ret = -1;

	if (!events) {
		pr_err("tracefs is not available: cannot write tracepoint formats\n");
		return -1;
	}
	systems = dir_entries(events, &nsys);
	free(events);
	if (!systems) {
		pr_err("cannot list tracefs events directory\n");
		return -1;
	}

	strbuf_add(&b, TRACING_MAGIC, TRACING_MAGIC_LEN);
	strbuf_addstr0(&b, TRACING_VERSION);
	strbuf_add(&b, &(unsigned char){ __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ }, 1);
	strbuf_add(&b, &(unsigned char){ sizeof(long) }, 1);
	strbuf_add_u32(&b, (uint32_t)sysconf(_SC_PAGESIZE));

	strbuf_addstr0(&b, "header_page");
	if (ob_file8(&b, "events/header_page"))
		goto out;
	strbuf_addstr0(&b, "header_event");
	if (ob_file8(&b, "events/header_event"))
		goto out;

	/* ftrace's own events have their own section */
	if (tp_in_list(tps, n, "ftrace", NULL)) {
		if (put_system_events(&b, "ftrace", tps, n))
			goto out;
	} else {
		strbuf_add_u32(&b, 0);
	}

	nr_pos = b.len;
	strbuf_add_u32(&b, 0);
	for (size_t i = 0; i < nsys; i++) {
		if (!strcmp(systems[i], "ftrace") || !tp_in_list(tps, n, systems[i], NULL))
			continue;
		strbuf_addstr0(&b, systems[i]);
		if (put_system_events(&b, systems[i], tps, n))
			goto out;
		nr_sys++;
	}
	strbuf_set(&b, nr_pos, &(uint32_t){ (uint32_t)nr_sys }, 4);

	strbuf_add_u32(&b, 0);     /* kallsyms: perf 6.1 writes none */
	{
		size_t sz = 0;
		char *pk = tracefs__read("printk_formats", &sz);

		strbuf_add_u32(&b, pk ? (uint32_t)sz : 0);
		if (pk)
			strbuf_add(&b, pk, sz);
		free(pk);
	}
	{
		size_t sz = 0;
		char *cl = tracefs__read("saved_cmdlines", &sz);

		strbuf_add_u64(&b, cl ? sz : 0);
		if (cl)
			strbuf_add(&b, cl, sz);
		free(cl);
	}
	*buf = strbuf_detach(&b, size);
	ret = 0;
out:
	strbuf_release(&b);
	free_entries(systems, nsys);
	return ret;
}

static void free_tps(struct tp_name *tps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(tps[i].sys);
		free(tps[i].event);
	}
	free(tps);
}

int trace_event__build_tracing_data(const uint64_t *tp_ids, size_t n, void **buf, size_t *size)
{
	struct tp_name *tps = xzalloc((n + 1) * sizeof(*tps));
	size_t nr = 0;
	int ret;

	for (size_t i = 0; i < n; i++) {
		bool dup = false;

		for (size_t j = 0; j < i; j++)
			dup |= tp_ids[j] == tp_ids[i];
		if (dup)
			continue;
		if (tracefs__event_by_id(tp_ids[i], &tps[nr].sys, &tps[nr].event)) {
			pr_err("no tracepoint with id %llu in tracefs\n", (unsigned long long)tp_ids[i]);
			free_tps(tps, nr);
			return -1;
		}
		nr++;
	}
	ret = build_from_names(tps, nr, buf, size);
	free_tps(tps, nr);
	return ret;
}

int trace_event__build_tracing_data_names(const char *const *sys_event, size_t n,
					  void **buf, size_t *size)
{
	struct tp_name *tps = xzalloc((n + 1) * sizeof(*tps));
	int ret;

	for (size_t i = 0; i < n; i++) {
		const char *colon = strchr(sys_event[i], ':');

		if (!colon || colon == sys_event[i] || !colon[1]) {
			pr_err("bad tracepoint name '%s' (want sys:event)\n", sys_event[i]);
			free_tps(tps, i);
			return -1;
		}
		tps[i].sys = xasprintf("%.*s", (int)(colon - sys_event[i]), sys_event[i]);
		tps[i].event = xstrdup(colon + 1);
	}
	ret = build_from_names(tps, n, buf, size);
	free_tps(tps, n);
	return ret;
}

/* ---------------- format files ---------------- */

void trace_format__delete(struct trace_format *fmt)
{
	if (!fmt)
		return;
	for (size_t i = 0; i < fmt->nr_fields; i++) {
		free(fmt->fields[i].type);
		free(fmt->fields[i].name);
	}
	free(fmt->fields);
	print_fmt__delete(fmt->pf);
	free(fmt->print_fmt);
	free(fmt->system);
	free(fmt->name);
	free(fmt->text);
	free(fmt);
}

/* "key:<value>;" somewhere in @line; false when missing or not a number */
static bool field_attr(const char *line, const char *key, unsigned long *v)
{
	const char *p = strstr(line, key);
	char *end;

	if (!p)
		return false;
	p += strlen(key);
	errno = 0;
	*v = strtoul(p, &end, 10);
	return !errno && end != p && *end == ';';
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

/* "field:TYPE NAME[N];\toffset:..;\tsize:..;\tsigned:..;" */
static int parse_field_line(char *line, struct trace_field *f)
{
	char *decl = strstr(line, "field:"), *semi, *name, *br;
	unsigned long off, size, sign = 0;

	if (!decl)
		return -1;
	decl += 6;
	if (str_starts_with(decl, "special:"))   /* very old kernels */
		decl += 8;
	semi = strchr(decl, ';');
	if (!semi)
		return -1;
	*semi = 0;
	if (!field_attr(semi + 1, "offset:", &off) || !field_attr(semi + 1, "size:", &size))
		return -1;
	field_attr(semi + 1, "signed:", &sign);   /* absent on very old kernels */
	decl = trim(decl);

	/* the name is the last word; an array suffix may follow it */
	br = strchr(decl, '[');
	if (br && !str_starts_with(decl, "__data_loc") && !str_starts_with(decl, "__rel_loc")) {
		*br = 0;
		name = strrchr(trim(decl), ' ');
		*br = '[';
	} else {
		name = strrchr(decl, ' ');
	}
	if (!name)
		return -1;
	*name++ = 0;
	while (*name == '*')      /* "char *p" style */
		name++;

	memset(f, 0, sizeof(*f));
	f->offset = off;
	f->size = size;
	f->is_signed = sign != 0;
	f->elem_size = size;
	br = strchr(name, '[');
	if (br) {
		f->is_array = true;
		f->array_len = strtoul(br + 1, NULL, 0);
		f->type = xasprintf("%s%s", trim(decl), br);
		*br = 0;
		if (f->array_len)
			f->elem_size = size / f->array_len;
	} else {
		f->type = xstrdup(trim(decl));
	}
	f->name = xstrdup(name);
	f->is_common = str_starts_with(f->name, "common_");
	f->is_data_loc = str_starts_with(f->type, "__data_loc");
	f->is_rel_loc = str_starts_with(f->type, "__rel_loc");
	f->is_pointer = strchr(f->type, '*') != NULL;
	if (f->is_data_loc || f->is_rel_loc) {
		const char *t = f->type + (f->is_data_loc ? 10 : 9);
		char *b = strchr(t, '[');

		f->is_array = true;
		while (*t == ' ')
			t++;
		f->is_string = str_starts_with(t, "char[") || str_starts_with(t, "char [");
		f->elem_size = 1;
		if (b && (str_starts_with(t, "u16") || strstr(t, "short")))
			f->elem_size = 2;
		else if (b && (str_starts_with(t, "u32") || str_starts_with(t, "int") ||
			       str_starts_with(t, "unsigned int") || str_starts_with(t, "s32")))
			f->elem_size = 4;
		else if (b && (str_starts_with(t, "u64") || str_starts_with(t, "s64") ||
			       strstr(t, "long")))
			f->elem_size = 8;
	} else if (f->is_array) {
		f->is_string = str_starts_with(f->type, "char[") || str_starts_with(f->type, "char [") ||
			       (str_starts_with(f->type, "const char") && !f->is_pointer);
	}
	return 0;
}

struct trace_format *trace_format__parse(const char *text, size_t size, const char *system)
{
	struct trace_format *fmt = xzalloc(sizeof(*fmt));
	char *copy = xmalloc(size + 1), *line, *save = NULL;
	bool in_fields = false, have_id = false;

	memcpy(copy, text, size);
	copy[size] = 0;
	fmt->text = xmalloc(size + 1);
	memcpy(fmt->text, text, size);
	fmt->text[size] = 0;
	fmt->text_size = size;
	fmt->system = xstrdup(system ? system : "");

	/* "print fmt:" is the last part and may contain anything: cut it off first */
	{
		char *pf = strstr(copy, "\nprint fmt: ");

		if (pf) {
			*pf = 0;
			fmt->print_fmt = xstrdup(trim(pf + 12));
		}
	}
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (str_starts_with(line, "name: ")) {
			free(fmt->name);
			fmt->name = xstrdup(trim(line + 6));
		} else if (str_starts_with(line, "ID: ")) {
			char *end;

			errno = 0;
			fmt->id = strtoull(line + 4, &end, 10);
			have_id = !errno && end != line + 4;
		} else if (str_starts_with(line, "format:")) {
			in_fields = true;
		} else if (in_fields && strstr(line, "field:")) {
			struct trace_field f;

			if (parse_field_line(line, &f)) {
				pr_err("malformed field line in the format of %s:%s\n",
				       fmt->system, fmt->name ? fmt->name : "?");
				goto err;
			}
			*ARRAY_PUSH(fmt->fields, fmt->nr_fields, fmt->fields_cap) = f;
		}
	}
	if (!fmt->name || !have_id) {
		pr_err("tracepoint format without %s\n", fmt->name ? "an ID" : "a name");
		goto err;
	}
	if (fmt->print_fmt)
		fmt->pf = print_fmt__parse(fmt, fmt->print_fmt);
	free(copy);
	return fmt;
err:
	free(copy);
	trace_format__delete(fmt);
	return NULL;
}

const struct trace_field *trace_format__field(const struct trace_format *fmt, const char *name)
{
	for (size_t i = 0; i < fmt->nr_fields; i++)
		if (!strcmp(fmt->fields[i].name, name))
			return &fmt->fields[i];
	return NULL;
}

static uint64_t read_uint(const unsigned char *p, unsigned int n, bool big_endian)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < n; i++) {
		unsigned int k = big_endian ? i : n - 1 - i;

		v = (v << 8) | p[k];
	}
	return v;
}

bool trace_field__value(const struct trace_field *f, const void *raw, size_t size,
			unsigned int idx, bool big_endian, uint64_t *val)
{
	unsigned int es = f->elem_size ? f->elem_size : f->size;
	uint64_t off = (uint64_t)f->offset + (uint64_t)idx * es;
	uint64_t v;

	if (es == 0 || es > 8 || off + es > size || (!f->is_array && idx))
		return false;
	v = read_uint((const unsigned char *)raw + off, es, big_endian);
	if (f->is_signed && es < 8 && (v >> (es * 8 - 1)) & 1)
		v |= ~0ull << (es * 8);
	*val = v;
	return true;
}

/* ---------------- TRACING_DATA parsing ---------------- */

struct rd {
	const unsigned char *p;
	size_t len, pos;
	bool swap;
	bool bad;
};

static const void *rd_take(struct rd *r, uint64_t n)
{
	const void *p;

	if (r->bad || n > r->len - r->pos) {
		r->bad = true;
		return NULL;
	}
	p = r->p + r->pos;
	r->pos += n;
	return p;
}

static uint64_t rd_uint(struct rd *r, unsigned int n)
{
	const unsigned char *p = rd_take(r, n);

	if (!p)
		return 0;
	return read_uint(p, n, r->swap ? __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
				       : __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

static const char *rd_str(struct rd *r)
{
	const unsigned char *s = r->p + r->pos, *nul;

	if (r->bad)
		return NULL;
	nul = memchr(s, 0, r->len - r->pos);
	if (!nul) {
		r->bad = true;
		return NULL;
	}
	r->pos += nul - s + 1;
	return (const char *)s;
}

void trace_formats__delete(struct trace_formats *tf)
{
	if (!tf)
		return;
	for (size_t i = 0; i < tf->nr_formats; i++)
		trace_format__delete(tf->formats[i]);
	free(tf->formats);
	free(tf->version);
	free(tf->cmdlines);
	kallsyms__delete(tf->kallsyms);
	free(tf);
}

/* count x {size8, format text} of one system */
static int parse_events(struct rd *r, struct trace_formats *tf, const char *sys, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++) {
		uint64_t sz = rd_uint(r, 8);
		const char *txt = rd_take(r, sz);
		struct trace_format *fmt;

		if (!txt)
			return -1;
		fmt = trace_format__parse(txt, sz, sys);
		if (!fmt)
			return -1;
		*ARRAY_PUSH(tf->formats, tf->nr_formats, tf->formats_cap) = fmt;
	}
	return 0;
}

struct trace_formats *trace_formats__parse(const void *data, size_t size)
{
	struct trace_formats *tf = xzalloc(sizeof(*tf));
	struct rd r = { .p = data, .len = size };
	const unsigned char *magic = rd_take(&r, TRACING_MAGIC_LEN);
	const char *what = "truncated";
	const char *ver;
	uint32_t n;

	/* nothing is read until a %pS is printed */
	tf->kallsyms = kallsyms__new("/proc/kallsyms");
	trace_formats__set_ksym_resolver(tf, kallsyms__resolve, tf->kallsyms);

	if (!magic || memcmp(magic, TRACING_MAGIC, TRACING_MAGIC_LEN)) {
		what = "bad magic";
		goto bad;
	}
	ver = rd_str(&r);
	if (!ver)
		goto bad;
	tf->version = xstrdup(ver);
	{
		const unsigned char *h = rd_take(&r, 2);

		if (!h)
			goto bad;
		tf->big_endian = h[0] != 0;
		tf->long_size = h[1];
	}
	r.swap = tf->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	tf->page_size = rd_uint(&r, 4);

	for (int i = 0; i < 2; i++) {
		const char *name = rd_str(&r), *want = i ? "header_event" : "header_page";

		if (!name || strcmp(name, want)) {
			what = i ? "missing header_event" : "missing header_page";
			goto bad;
		}
		rd_take(&r, rd_uint(&r, 8));
	}
	n = rd_uint(&r, 4);
	if (r.bad || parse_events(&r, tf, "ftrace", n))
		goto bad_fmt;
	n = rd_uint(&r, 4);
	for (uint32_t i = 0; i < n && !r.bad; i++) {
		const char *sys = rd_str(&r);
		uint32_t count;

		if (!sys)
			goto bad;
		count = rd_uint(&r, 4);
		if (r.bad || parse_events(&r, tf, sys, count))
			goto bad_fmt;
	}
	/* kallsyms and printk formats: nothing we decode needs them */
	rd_take(&r, rd_uint(&r, 4));
	rd_take(&r, rd_uint(&r, 4));
	if (r.bad)
		goto bad;
	/* saved_cmdlines exist from version 0.6 on and may be missing in short payloads */
	if (strcmp(tf->version, "0.6") >= 0 && r.len - r.pos >= 8) {
		uint64_t sz = rd_uint(&r, 8);
		const char *cl = rd_take(&r, sz);

		if (cl) {
			tf->cmdlines = xmalloc(sz + 1);
			memcpy(tf->cmdlines, cl, sz);
			tf->cmdlines[sz] = 0;
			tf->cmdlines_size = sz;
		}
	}
	return tf;
bad_fmt:
	if (r.bad)
		goto bad;
	pr_err("tracing data: bad tracepoint format\n");
	trace_formats__delete(tf);
	return NULL;
bad:
	pr_err("tracing data: %s (at byte %zu of %zu)\n", what, r.pos, size);
	trace_formats__delete(tf);
	return NULL;
}

const struct trace_format *trace_formats__find(const struct trace_formats *tf, uint64_t id)
{
	for (size_t i = 0; tf && i < tf->nr_formats; i++)
		if (tf->formats[i]->id == id)
			return tf->formats[i];
	return NULL;
}

const char *trace_formats__comm(const struct trace_formats *tf, int pid, char *comm, size_t size)
{
	const char *p = tf && size ? tf->cmdlines : NULL;

	while (p && *p) {
		char *end;
		long v = strtol(p, &end, 10);
		const char *nl = strchr(end, '\n');
		size_t len = nl ? (size_t)(nl - end) : strlen(end);

		if (end != p && v == pid && *end == ' ') {
			len = MIN(len - 1, size - 1);
			memcpy(comm, end + 1, len);
			comm[len] = 0;
			return comm;
		}
		p = nl ? nl + 1 : NULL;
	}
	return NULL;
}

void trace_formats__set_ksym_resolver(struct trace_formats *tf, trace_ksym_resolver_t fn, void *arg)
{
	tf->ksym_resolver = fn;
	tf->ksym_arg = arg;
}

int trace_formats__print_raw(const struct trace_formats *tf, const struct trace_format *fmt,
			     const void *raw, size_t size, char *out, size_t outsz)
{
	struct print_env env = { __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__, sizeof(long), NULL, NULL };

	if (tf)
		env = (struct print_env){ tf->big_endian, tf->long_size, tf->ksym_resolver, tf->ksym_arg };
	return print_fmt__print(fmt, &env, raw, size, out, outsz);
}

int trace_format__print_raw(const struct trace_format *fmt, const void *raw, size_t size,
			    char *out, size_t outsz)
{
	return trace_formats__print_raw(NULL, fmt, raw, size, out, outsz);
}

int trace_format__fprint_raw(const struct trace_format *fmt, const void *raw, size_t size, FILE *fp)
{
	char small[1024], *big;
	int n = trace_format__print_raw(fmt, raw, size, small, sizeof(small));

	if (n < 0)
		return n;
	if ((size_t)n < sizeof(small))
		return fputs(small, fp) < 0 ? -1 : n;
	big = xmalloc(n + 1);
	trace_format__print_raw(fmt, raw, size, big, n + 1);
	n = fputs(big, fp) < 0 ? -1 : n;
	free(big);
	return n;
}
