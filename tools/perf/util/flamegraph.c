// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>
#include "dso.h"
#include "flamegraph.h"
#include "strbuf.h"
#include "util.h"

/* one frame of a sample on its way into the tree */
struct fg_frame {
	const char *name;
	const struct dso *dso;
	const char *srcline;
	uint8_t kind;
	bool kernel_lib;
};

static const char unknown_name[] = "[unknown]";

static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

static size_t slot_of(uint32_t parent, uint64_t h, size_t cap)
{
	return (size_t)((h ^ ((uint64_t)parent * 0x9e3779b97f4a7c15ull)) & (cap - 1));
}

void flamegraph__init(struct flamegraph *fg, const struct flamegraph_opts *opts, struct dsos *dsos)
{
	memset(fg, 0, sizeof(*fg));
	fg->opts = *opts;
	fg->dsos = dsos;
	fg->cap_nodes = 1024;
	fg->nodes = xzalloc(fg->cap_nodes * sizeof(*fg->nodes));
	fg->nr_nodes = 1;
	fg->nodes[0] = (struct fg_node){ .name = "all", .parent = FG_NONE, .first_child = FG_NONE,
					 .last_child = FG_NONE, .next_sibling = FG_NONE,
					 .kind = FG_KIND_ROOT };
	fg->table_cap = 2048;
	fg->table = xmalloc(fg->table_cap * sizeof(*fg->table));
	memset(fg->table, 0xff, fg->table_cap * sizeof(*fg->table));
}

/* ---- inline chains of JIT code, cached per address ---- */

struct inl_entry {
	const struct dso *dso;
	uint64_t addr;
	uint8_t n;                     /* frames, innermost first; the last is the method itself */
	struct inline_frame frames[8];
	struct inl_entry *next;
};

#define INL_BUCKETS 16384

static const struct inl_entry *inline_chain(struct flamegraph *fg, struct dso *dso, uint64_t addr)
{
	struct inl_entry **tab = fg->inline_cache, *e;
	size_t h = (((uintptr_t)dso >> 4) ^ (addr * 0x9e3779b97f4a7c15ull >> 20)) % INL_BUCKETS;

	if (!tab)
		tab = fg->inline_cache = xzalloc(INL_BUCKETS * sizeof(*tab));
	for (e = tab[h]; e; e = e->next)
		if (e->dso == dso && e->addr == addr)
			return e;
	e = xzalloc(sizeof(*e));
	e->dso = dso;
	e->addr = addr;
	e->n = (uint8_t)dso__inline_chain(fg->dsos, dso, addr, e->frames, (int)ARRAY_SIZE(e->frames));
	e->next = tab[h];
	tab[h] = e;
	return e;
}

static void inline_cache_free(struct flamegraph *fg)
{
	struct inl_entry **tab = fg->inline_cache;

	for (size_t i = 0; tab && i < INL_BUCKETS; i++)
		for (struct inl_entry *e = tab[i], *n; e; e = n) {
			n = e->next;
			free(e);
		}
	free(tab);
	fg->inline_cache = NULL;
}

void flamegraph__exit(struct flamegraph *fg)
{
	for (size_t i = 0; i < fg->nr_owned; i++)
		free(fg->owned[i]);
	free(fg->owned);
	free(fg->nodes);
	free(fg->table);
	free(fg->path);
	inline_cache_free(fg);
	memset(fg, 0, sizeof(*fg));
}

/* ---- classifying frames ---- */

static bool is_jit_dso(const struct dso *dso)
{
	const char *base;

	if (!dso)
		return false;
	if (dso->kind == DSO_KIND_PERF_MAP)
		return true;
	base = strrchr(dso->long_name, '/');
	base = base ? base + 1 : dso->long_name;
	/* what perf inject --jit writes: jitted-PID-N.so */
	return str_starts_with(base, "jitted-") && str_ends_with(base, ".so");
}

/* "pkg.Class.method(args)": a Java method; "Interpreter", "call_stub" are not */
static bool is_java_method(const char *name)
{
	const char *paren = strchr(name, '(');
	const char *dot = strchr(name, '.');

	return paren && dot && dot < paren && !memchr(name, ' ', (size_t)(paren - name));
}

static bool is_kernel_lib(const struct dso *dso)
{
	/* perf's libtype rule: the kernel image, by name, modules not included */
	return dso && (!strcmp(dso->long_name, "[kernel.kallsyms]") ||
		       str_ends_with(dso->long_name, "/vmlinux"));
}

/* the frame(s) of one resolved address, innermost first, into out; returns how many */
static size_t expand_frame(struct flamegraph *fg, const struct hist_frame *hf, bool leaf,
			   struct fg_frame *out, size_t max)
{
	struct fg_frame f = {
		.name = hf->sym ? hf->sym->name : unknown_name,
		.dso = hf->dso,
		.kernel_lib = is_kernel_lib(hf->dso),
	};
	const struct inl_entry *e = NULL;
	/* a caller's address is a return address: its line is the call's */
	uint64_t addr = leaf || !hf->addr ? hf->addr : hf->addr - 1;
	size_t n = 0;

	if (hf->kernel)
		f.kind = FG_KIND_KERNEL;
	else if (is_jit_dso(hf->dso))
		f.kind = is_java_method(f.name) ? FG_KIND_JAVA_JIT : FG_KIND_JVM_STUB;
	else
		f.kind = FG_KIND_NATIVE;
	out[0] = f;
	if (f.kind != FG_KIND_JAVA_JIT || !hf->sym || hf->dso->kind != DSO_KIND_ELF ||
	    !(fg->opts.inline_frames || fg->opts.srclines))
		return 1;
	e = inline_chain(fg, hf->dso, addr);
	if (e->n == 0) {
		out[0].srcline = fg->opts.srclines ? dso__srcline(fg->dsos, hf->dso, addr) : NULL;
		return 1;
	}
	/* the chain's last frame is the compiled method itself: keep the symbol's name */
	if (fg->opts.inline_frames)
		for (; n + 1 < e->n && n + 1 < max; n++) {
			out[n] = f;
			out[n].name = e->frames[n].func ? e->frames[n].func : unknown_name;
			out[n].kind = FG_KIND_JAVA_INLINED;
			out[n].srcline = fg->opts.srclines ? e->frames[n].srcline : NULL;
		}
	out[n] = f;
	out[n].srcline = fg->opts.srclines ? e->frames[fg->opts.inline_frames ? e->n - 1 : 0].srcline : NULL;
	return n + 1;
}

/* ---- the tree ---- */

static void grow_table(struct flamegraph *fg)
{
	size_t cap = fg->table_cap * 2;
	uint32_t *t = xmalloc(cap * sizeof(*t));

	memset(t, 0xff, cap * sizeof(*t));
	for (size_t i = 1; i < fg->nr_nodes; i++) {
		const struct fg_node *n = &fg->nodes[i];
		size_t s = slot_of(n->parent, name_hash(n->name), cap);

		while (t[s] != FG_NONE)
			s = (s + 1) & (cap - 1);
		t[s] = (uint32_t)i;
	}
	free(fg->table);
	fg->table = t;
	fg->table_cap = cap;
}

static uint32_t child_of(struct flamegraph *fg, uint32_t parent, const struct fg_frame *f, bool copy)
{
	uint64_t h = name_hash(f->name);
	size_t s = slot_of(parent, h, fg->table_cap);
	struct fg_node *n;
	uint32_t idx;

	for (; fg->table[s] != FG_NONE; s = (s + 1) & (fg->table_cap - 1)) {
		n = &fg->nodes[fg->table[s]];
		if (n->parent == parent && !strcmp(n->name, f->name))
			return fg->table[s];
	}
	if (fg->nr_nodes >= FG_NONE - 1)
		return parent;  /* 4G nodes: merge further frames into the last one */
	idx = (uint32_t)fg->nr_nodes;
	n = ARRAY_PUSH(fg->nodes, fg->nr_nodes, fg->cap_nodes);
	*n = (struct fg_node){ .name = f->name, .parent = parent, .first_child = FG_NONE,
			       .last_child = FG_NONE, .next_sibling = FG_NONE, .kind = f->kind,
			       .kernel_lib = f->kernel_lib, .dso = f->dso };
	if (copy) {
		n->name = *ARRAY_PUSH(fg->owned, fg->nr_owned, fg->cap_owned) = xstrdup(f->name);
	}
	/* children stay in the order first seen, as in perf's JSON */
	if (fg->nodes[parent].last_child == FG_NONE)
		fg->nodes[parent].first_child = idx;
	else
		fg->nodes[fg->nodes[parent].last_child].next_sibling = idx;
	fg->nodes[parent].last_child = idx;
	fg->table[s] = idx;
	if ((fg->nr_nodes + 1) * 4 > fg->table_cap * 3)
		grow_table(fg);
	return idx;
}

static void count_srcline(struct fg_node *n, const char *line)
{
	size_t i;

	for (i = 0; i < FG_SRCLINES && n->src[i].line; i++)
		if (n->src[i].line == line || !strcmp(n->src[i].line, line)) {
			n->src[i].count++;
			/* keep the most frequent first */
			for (; i > 0 && n->src[i].count > n->src[i - 1].count; i--) {
				struct fg_srcline t = n->src[i];

				n->src[i] = n->src[i - 1];
				n->src[i - 1] = t;
			}
			return;
		}
	if (i < FG_SRCLINES)
		n->src[i] = (struct fg_srcline){ line, 1 };
	else
		n->src_other++;
}

void flamegraph__add_sample(struct flamegraph *fg, const char *label, bool label_kernel,
			    const struct hist_frame *frames, size_t n)
{
	size_t need = n * 8 + 1, depth = 0;
	uint32_t cur = 0;

	GROW_ARRAY(fg->path, need, fg->path_cap);
	/* innermost first, then reversed into the path from the root */
	for (size_t i = 0; i < n; i++)
		depth += expand_frame(fg, &frames[i], i == 0, &fg->path[depth], need - depth);
	for (size_t i = 0; i < depth / 2; i++) {
		struct fg_frame t = fg->path[i];

		fg->path[i] = fg->path[depth - 1 - i];
		fg->path[depth - 1 - i] = t;
	}
	fg->nodes[0].total++;
	if (label) {
		struct fg_frame c = { .name = label, .kind = FG_KIND_COMM, .kernel_lib = label_kernel };

		cur = child_of(fg, cur, &c, true);
		fg->nodes[cur].total++;
	}
	for (size_t i = 0; i < depth; i++) {
		cur = child_of(fg, cur, &fg->path[i], false);
		fg->nodes[cur].total++;
		if (fg->path[i].srcline)
			count_srcline(&fg->nodes[cur], fg->path[i].srcline);
	}
	fg->nodes[cur].self++;
	fg->nr_samples++;
	if (depth > fg->max_depth)
		fg->max_depth = depth;
}

/* ---- writers ---- */

/* the next code point of UTF-8 s (advanced); U+FFFD for a malformed byte */
static uint32_t utf8_next(const unsigned char **s)
{
	const unsigned char *p = *s;
	uint32_t c = *p, min;
	int len;

	if (c < 0x80) {
		*s = p + 1;
		return c;
	}
	if ((c & 0xe0) == 0xc0)
		len = 2, c &= 0x1f, min = 0x80;
	else if ((c & 0xf0) == 0xe0)
		len = 3, c &= 0x0f, min = 0x800;
	else if ((c & 0xf8) == 0xf0)
		len = 4, c &= 0x07, min = 0x10000;
	else {
		*s = p + 1;
		return 0xfffd;
	}
	for (int i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80) {
			*s = p + 1;
			return 0xfffd;
		}
		c = c << 6 | (p[i] & 0x3f);
	}
	*s = p + len;
	return c < min || c > 0x10ffff || (c >= 0xd800 && c < 0xe000) ? 0xfffd : c;
}

void json__write_string(FILE *f, const char *str, bool html)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char prev = 0;

	fputc('"', f);
	while (*s) {
		uint32_t c = utf8_next(&s);

		switch (c) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		default:
			if (c >= 0x10000) {
				c -= 0x10000;
				fprintf(f, "\\u%04x\\u%04x", 0xd800 + (c >> 10), 0xdc00 + (c & 0x3ff));
			} else if (c < 0x20 || c >= 0x7f ||
				   (html && (c == '<' || c == '>' || c == '&' ||
					     /* "http:", "https:", "ftp:" ... never a link in the page */
					     (c == ':' && (prev == 'p' || prev == 'P' || prev == 's' || prev == 'S')))))
				fprintf(f, "\\u%04x", c);
			else
				fputc((int)c, f);
		}
		prev = c < 0x80 ? (unsigned char)c : 0;
	}
	fputc('"', f);
}

static const char *libtype(const struct fg_node *n)
{
	if (n->kind == FG_KIND_ROOT)
		return "root";
	return n->kernel_lib ? "kernel" : "";
}

/*
 * Depth-first without recursion: stacks can be thousands of frames deep.
 * open() writes a node up to its children, sep() goes between siblings,
 * close() ends it.
 */
struct tree_writer {
	const struct flamegraph *fg;
	FILE *f;
	void (*open)(struct tree_writer *w, const struct fg_node *n);
	const char *sep, *close;
	uint64_t min_total;           /* smaller nodes are left out (their caller keeps the width) */
	void *priv;
};

static void walk_tree(struct tree_writer *w)
{
	const struct fg_node *nodes = w->fg->nodes;
	uint32_t *stack = xmalloc((w->fg->max_depth + 3) * sizeof(*stack));
	uint32_t *next = xmalloc((w->fg->max_depth + 3) * sizeof(*next));
	bool *wrote = xzalloc((w->fg->max_depth + 3) * sizeof(*wrote));
	size_t sp = 0;

	w->open(w, &nodes[0]);
	stack[sp] = 0;
	next[sp++] = nodes[0].first_child;
	while (sp) {
		uint32_t c = next[sp - 1];

		if (c == FG_NONE) {
			fputs(w->close, w->f);
			sp--;
			continue;
		}
		next[sp - 1] = nodes[c].next_sibling;
		if (nodes[c].total < w->min_total)
			continue;
		if (wrote[sp - 1])
			fputs(w->sep, w->f);
		wrote[sp - 1] = true;
		w->open(w, &nodes[c]);
		stack[sp] = c;
		wrote[sp] = false;
		next[sp++] = nodes[c].first_child;
	}
	free(stack);
	free(next);
	free(wrote);
}

static void open_perf_json(struct tree_writer *w, const struct fg_node *n)
{
	fputs("{\"n\": ", w->f);
	json__write_string(w->f, n->name, false);
	fprintf(w->f, ", \"l\": \"%s\", \"v\": %llu, \"c\": [", libtype(n), (unsigned long long)n->self);
}

int flamegraph__write_json(const struct flamegraph *fg, FILE *f)
{
	struct tree_writer w = { .fg = fg, .f = f, .open = open_perf_json, .sep = ", ", .close = "]}" };

	walk_tree(&w);
	return ferror(f) ? -1 : 0;
}

/* DSO pointer -> index in the page's list of DSO names */
struct dso_index {
	const struct dso **keys;
	uint32_t *vals;
	size_t cap, nr;
	const struct dso **order;
};

static uint32_t dso_index__get(struct dso_index *d, const struct dso *dso)
{
	size_t s = ((uintptr_t)dso >> 4) * 0x9e3779b97f4a7c15ull >> 20 & (d->cap - 1);

	for (; d->keys[s]; s = (s + 1) & (d->cap - 1))
		if (d->keys[s] == dso)
			return d->vals[s];
	return FG_NONE;
}

static void dso_index__build(struct dso_index *d, const struct flamegraph *fg)
{
	d->cap = 64;
	while (d->cap < fg->nr_nodes * 2 && d->cap < (1u << 24))
		d->cap *= 2;
	d->keys = xzalloc(d->cap * sizeof(*d->keys));
	d->vals = xzalloc(d->cap * sizeof(*d->vals));
	d->order = xmalloc(d->cap * sizeof(*d->order));
	d->nr = 0;
	for (size_t i = 0; i < fg->nr_nodes; i++) {
		const struct dso *dso = fg->nodes[i].dso;
		size_t s;

		if (!dso || d->nr + 1 >= d->cap / 2)
			continue;
		s = ((uintptr_t)dso >> 4) * 0x9e3779b97f4a7c15ull >> 20 & (d->cap - 1);
		while (d->keys[s] && d->keys[s] != dso)
			s = (s + 1) & (d->cap - 1);
		if (d->keys[s])
			continue;
		d->keys[s] = dso;
		d->vals[s] = (uint32_t)d->nr;
		d->order[d->nr++] = dso;
	}
}

static void open_page_json(struct tree_writer *w, const struct fg_node *n)
{
	uint32_t d = n->dso ? dso_index__get(w->priv, n->dso) : FG_NONE;
	uint64_t small = 0;

	for (uint32_t c = n->first_child; c != FG_NONE; c = w->fg->nodes[c].next_sibling)
		if (w->fg->nodes[c].total < w->min_total)
			small += w->fg->nodes[c].total;
	fputs("{\"n\":", w->f);
	json__write_string(w->f, n->name, true);
	/* "v" keeps the node as wide as its samples; "x" says how many went to frames left out */
	fprintf(w->f, ",\"v\":%llu,\"k\":%u", (unsigned long long)(n->self + small), n->kind);
	if (small)
		fprintf(w->f, ",\"x\":%llu", (unsigned long long)small);
	if (n->kernel_lib)
		fputs(",\"l\":\"kernel\"", w->f);
	if (d != FG_NONE)
		fprintf(w->f, ",\"d\":%u", d);
	if (n->src[0].line) {
		fputs(",\"s\":[", w->f);
		for (size_t i = 0; i < FG_SRCLINES && n->src[i].line; i++) {
			fputs(i ? ",[" : "[", w->f);
			json__write_string(w->f, n->src[i].line, true);
			fprintf(w->f, ",%llu]", (unsigned long long)n->src[i].count);
		}
		if (n->src_other)
			fprintf(w->f, ",[\"other lines\",%llu]", (unsigned long long)n->src_other);
		fputc(']', w->f);
	}
	fputs(",\"c\":[", w->f);
}

int flamegraph__write_page_json(const struct flamegraph *fg, FILE *f)
{
	struct dso_index di;
	struct tree_writer w = { .fg = fg, .f = f, .open = open_page_json, .sep = ",", .close = "]}",
				 .priv = &di, .min_total = fg->nr_samples / FG_PAGE_MIN_FRACTION };

	dso_index__build(&di, fg);
	fprintf(f, "{\"samples\":%llu,\"dsos\":[", (unsigned long long)fg->nr_samples);
	for (size_t i = 0; i < di.nr; i++) {
		if (i)
			fputc(',', f);
		json__write_string(f, di.order[i]->long_name, true);
	}
	fputs("],\"tree\":", f);
	walk_tree(&w);
	fputs("}", f);
	free(di.keys);
	free(di.vals);
	free(di.order);
	return ferror(f) ? -1 : 0;
}

/* ---- folded stacks ---- */

struct folded_line {
	char *stack;
	uint64_t count;
};

static int cmp_folded(const void *a, const void *b)
{
	return strcmp(((const struct folded_line *)a)->stack, ((const struct folded_line *)b)->stack);
}

/* a frame name as stackcollapse.py prints it, appended to sb */
static void folded_name(struct strbuf *sb, const struct fg_node *n, const struct folded_opts *o)
{
	bool frame = n->kind != FG_KIND_COMM;   /* the command label is taken as it is */
	size_t start = sb->len;

	for (const char *s = n->name; *s; s++) {
		if (frame && o->tidy_java && (*s == '<' || *s == '>'))
			continue;
		strbuf_addch(sb, frame && *s == ';' ? ':' : *s);
	}
	if (frame && o->tidy_java && sb->len > start) {
		char *name = sb->buf + start, *paren;

		/* "Lcom/Foo;bar(I)V": the type letter and the signature go */
		if (name[0] == 'L') {
			memmove(name, name + 1, strlen(name));
			strbuf_setlen(sb, sb->len - 1);
		}
		paren = strchr(name, '(');
		if (paren)
			strbuf_setlen(sb, (size_t)(paren - sb->buf));
	}
	if (frame && o->annotate_kernel && n->kernel_lib)
		strbuf_addstr(sb, "_[k]");
}

int flamegraph__write_folded(const struct flamegraph *fg, FILE *f, const struct folded_opts *o)
{
	struct folded_line *lines = NULL;
	size_t nr = 0, cap = 0;
	uint32_t *path = xmalloc((fg->max_depth + 2) * sizeof(*path));

	/* a node ending stacks gives a line: its path from below the root */
	for (size_t i = 1; i < fg->nr_nodes; i++) {
		const struct fg_node *n = &fg->nodes[i];
		size_t depth = 0;
		struct strbuf buf = STRBUF_INIT;

		if (!n->self)
			continue;
		for (uint32_t c = (uint32_t)i; c != 0; c = fg->nodes[c].parent)
			path[depth++] = c;
		while (depth--) {
			if (buf.len)
				strbuf_addch(&buf, ';');
			folded_name(&buf, &fg->nodes[path[depth]], o);
		}
		*ARRAY_PUSH(lines, nr, cap) = (struct folded_line){ strbuf_detach(&buf, NULL), n->self };
	}
	free(path);
	qsort(lines, nr, sizeof(*lines), cmp_folded);
	/* tidied names can make two stacks one */
	for (size_t i = 0; i < nr; i++) {
		uint64_t count = lines[i].count;

		while (i + 1 < nr && !strcmp(lines[i].stack, lines[i + 1].stack)) {
			free(lines[i].stack);
			count += lines[++i].count;
		}
		fprintf(f, "%s %llu\n", lines[i].stack, (unsigned long long)count);
		free(lines[i].stack);
	}
	free(lines);
	return ferror(f) ? -1 : 0;
}
