// SPDX-License-Identifier: MIT
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hist-output.h"
#include "util.h"

#define GRAPH_PAD "            "   /* a graph starts under the first column */

/* what 100% is: with --percentage absolute (the default) filtered samples count too */
static uint64_t hists_base(const struct hists *h)
{
	return h->total_period + h->nr_filtered_period;
}

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * v / total : 0;
}

/* perf's column titles; Pid:Command's leading blanks are perf's own */
static const char *key_header(enum sort_key k)
{
	switch (k) {
	case SORT_COMM: return "Command";
	case SORT_PID: return "    Pid:Command";
	case SORT_DSO: return "Shared Object";
	case SORT_SYM: return "Symbol";
	case SORT_SRCLINE: return "Source:Line";
	case SORT_CPU: return "CPU";
	default: return "?";
	}
}

/* perf pads every column to its width, but for a symbol or source line at the end */
static bool key_pads_last(enum sort_key k)
{
	return k != SORT_SYM && k != SORT_SRCLINE;
}

static const char *entry_field(const struct hist_entry *e, enum sort_key k, char *buf, size_t size)
{
	switch (k) {
	case SORT_COMM:
		return e->comm;
	case SORT_PID:
		snprintf(buf, size, "%7d:%s", e->pid, e->thread_comm ? e->thread_comm : e->comm);
		return buf;
	case SORT_DSO:
		return hist_frame__dso_name(&e->frame);
	case SORT_SYM:
		return hist_frame__sym_name(&e->frame, buf, size);
	case SORT_SRCLINE:
		return e->srcline ? e->srcline : "";
	case SORT_CPU:
		/* perf's three digits: -001 for a file without CPUs */
		snprintf(buf, size, "%3.3d", e->cpu);
		return buf;
	default:
		return "";
	}
}

/*
 * How wide an entry makes its column. The comm column is as wide as the
 * longest comm the entries' threads ended with (perf 6.1 measures the
 * thread, not the entry), and a longer comm of the entry is cut to it.
 */
static size_t entry_width(const struct hist_entry *e, enum sort_key k, char *buf, size_t size)
{
	if (k == SORT_COMM && e->thread_comm)
		return strlen(e->thread_comm);
	return strlen(entry_field(e, k, buf, size));
}

/* printf precision of a padded column: only comm is cut to its width */
static int key_prec(enum sort_key k, size_t width)
{
	return k == SORT_COMM ? (int)width : INT_MAX;
}

static const char *node_name(const struct callchain_node *n, bool address, char *buf, size_t size)
{
	if (n->frame.sym && address)
		snprintf(buf, size, "%s +0x%llx", n->frame.sym->name,
			 (unsigned long long)(n->frame.addr - n->frame.sym->start));
	else if (n->frame.sym && n->frame.inlined)
		snprintf(buf, size, "%s (inlined)", n->frame.sym->name);
	else if (n->frame.sym)
		return n->frame.sym->name;
	else
		snprintf(buf, size, "%#llx", (unsigned long long)n->frame.addr);
	return buf;
}

/* ---- call graphs ---- */

struct graph_ctx {
	FILE *f;
	const struct callchain_param *cc;
	double min_percent;    /* the graph threshold, or --percent-limit when higher */
	uint64_t total;        /* of the histogram: graph percentages are of it */
	bool hide_first_sym;
	const struct callchain_node *first_node;   /* fractal: the end of the first line */
	uint64_t first_base;
	char path[256][256];   /* flat / folded: the names from the root */
};

/* where perf 6.1 keeps a frame among its siblings: by DSO (the kernel's, made
 * first, lowest), then by function start or address; the highest first */
static uint64_t tree_dso(const struct callchain_node *n)
{
	return !n->frame.dso ? 0 : n->frame.dso->kind == DSO_KIND_KERNEL ? 1 : n->frame.dso->seq + 2;
}

static int cmp_tree(const struct callchain_node *x, const struct callchain_node *y)
{
	uint64_t dx = tree_dso(x), dy = tree_dso(y);
	uint64_t ax = x->frame.sym && y->frame.sym ? x->frame.sym->start : x->frame.addr;
	uint64_t ay = x->frame.sym && y->frame.sym ? y->frame.sym->start : y->frame.addr;

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return ax > ay ? -1 : ax < ay;
}

static int cmp_tree_q(const void *a, const void *b)
{
	return cmp_tree(*(const struct callchain_node *const *)a, *(const struct callchain_node *const *)b);
}

static int cmp_nodes(const void *a, const void *b)
{
	const struct callchain_node *x = *(const struct callchain_node *const *)a;
	const struct callchain_node *y = *(const struct callchain_node *const *)b;

	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	return cmp_tree(x, y);
}

/* fractal: a branch's share is of what went on below its parent (not what ended there) */
static uint64_t rel_base(const struct graph_ctx *g, const struct callchain_node *node)
{
	/* but under the straight line a graph starts with, of the row's total */
	if (node == g->first_node)
		return g->first_base;
	return node->period - node->self;
}

/* the children shown (above the threshold), biggest first; caller frees */
static struct callchain_node **visible_kids(const struct graph_ctx *g, const struct callchain_node *node,
					    size_t *nr)
{
	size_t n = 0, cap = 0;
	struct callchain_node **v = NULL;
	uint64_t base = g->cc->mode == CHAIN_GRAPH_REL ? rel_base(g, node) : g->total;

	for (struct callchain_node *c = node->children; c; c = c->next) {
		if (pct(c->period, base) < g->min_percent)
			continue;
		if (n == cap)
			v = xrealloc(v, (cap = cap ? cap * 2 : 8) * sizeof(*v));
		v[n++] = c;
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_nodes);
	*nr = n;
	return v;
}

static void fprintf_value(const struct graph_ctx *g, const struct callchain_node *n,
			  const struct callchain_node *parent, uint64_t v, uint64_t count)
{
	switch (g->cc->value) {
	case CCVAL_PERIOD:
		fprintf(g->f, "%llu", (unsigned long long)v);
		break;
	case CCVAL_COUNT:
		fprintf(g->f, "%llu", (unsigned long long)count);
		break;
	default:
		fprintf(g->f, "%.2f%%", pct(v, g->cc->mode == CHAIN_GRAPH_REL && parent ? rel_base(g, parent) : g->total));
		break;
	}
	(void)n;
}

/* a node perf keeps merged with its only child: one path, nothing ends here */
static const struct callchain_node *straight_next(const struct callchain_node *n)
{
	return n->children && !n->children->next && !n->self ? n->children : NULL;
}

/* returns how many branches it drew */
static size_t graph_branches(struct graph_ctx *g, const struct callchain_node *node, const char *indent,
			     int depth)
{
	size_t n;
	struct callchain_node **kids;
	char name[512];
	uint64_t rest = 0, rest_count = 0;

	if (depth > 200)
		return 0;
	kids = visible_kids(g, node, &n);
	/*
	 * fractal: perf 6.1 ends a level whose shown branches leave some of
	 * the parent's share out with a "[...]" branch of the rest (to which
	 * it sometimes adds " (inlined)", from memory it never set)
	 */
	if (g->cc->mode == CHAIN_GRAPH_REL && n) {
		for (size_t i = 0; i < n; i++) {
			rest += kids[i]->period;
			rest_count -= kids[i]->count;
		}
		rest = rel_base(g, node) - rest;
		/* the samples of the branches not shown */
		for (const struct callchain_node *c = node->children; c; c = c->next)
			rest_count += c->count;
	}
	for (size_t i = 0; i < n; i++) {
		bool last = i == n - 1 && !rest;
		char *cont = xasprintf("%s%s", indent, last ? "           " : "|          ");
		const struct callchain_node *c = kids[i], *s;

		fprintf(g->f, "%s|          \n%s%s--", indent, indent, last ? " " : "|");
		fprintf_value(g, c, node, c->period, c->count);
		fprintf(g->f, "--%s\n", node_name(c, g->cc->address, name, sizeof(name)));
		while ((s = straight_next(c))) {
			c = s;
			fprintf(g->f, "%s%s\n", cont, node_name(c, g->cc->address, name, sizeof(name)));
		}
		graph_branches(g, c, cont, depth + 1);
		free(cont);
	}
	/* perf 6.1 counts the rest in samples from the branches: none, no line
	 * (the last branch still drawn as if one followed) */
	if (rest && (g->cc->value != CCVAL_COUNT || rest_count)) {
		struct callchain_node r = { .period = rest, .count = rest_count };

		fprintf(g->f, "%s --", indent);
		fprintf_value(g, &r, node, rest, rest_count);
		fprintf(g->f, "--[...]\n");
	}
	free(kids);
	return n;
}

static void graph_entry(struct graph_ctx *g, const struct callchain_node *root)
{
	const struct callchain_node *c = root->children, *s;
	char name[512];

	if (c && !c->next) {
		/* perf 6.1 leaves out the frame the row already names (--sort sym...) */
		bool printed = !g->hide_first_sym;

		if (printed)
			fprintf(g->f, GRAPH_PAD "|\n" GRAPH_PAD "---%s\n",
				node_name(c, g->cc->address, name, sizeof(name)));
		while ((s = straight_next(c))) {
			c = s;
			fprintf(g->f, printed ? GRAPH_PAD "   %s\n" : GRAPH_PAD "|\n" GRAPH_PAD "---%s\n",
				node_name(c, g->cc->address, name, sizeof(name)));
			printed = true;
		}
		g->first_node = c;
		g->first_base = root->period;
		if (!printed && !graph_branches(g, c, GRAPH_PAD, 0))
			return;
		if (printed)
			graph_branches(g, c, GRAPH_PAD "   ", 0);
	} else if (!graph_branches(g, root, GRAPH_PAD, 0))
		return;
	fputc('\n', g->f);
}

/* flat and folded: every path that ends somewhere, from the root */
struct path_rec {
	uint64_t value;        /* what the paths are chosen and ordered by */
	uint64_t shown;
	uint64_t count;
	size_t order;
	char *names;           /* the frames, '\n'-separated */
};

struct path_list {
	struct path_rec *v;
	size_t nr, cap;
};

static void collect_paths(struct graph_ctx *g, const struct callchain_node *node, int depth,
			  struct path_list *l)
{
	size_t n;
	struct callchain_node **kids;

	/* perf 6.1 lists the paths of equal share as it walks the tree: the
	 * branches in tree order first, then the path ending at the node */
	if (depth < (int)ARRAY_SIZE(g->path)) {
		kids = visible_kids(g, node, &n);
		if (n)
			qsort(kids, n, sizeof(*kids), cmp_tree_q);
		for (size_t i = 0; i < n; i++) {
			char name[512];

			snprintf(g->path[depth], sizeof(g->path[depth]), "%s",
				 node_name(kids[i], g->cc->address, name, sizeof(name)));
			collect_paths(g, kids[i], depth + 1, l);
		}
		free(kids);
	}
	if (depth > 0 && node->self && pct(node->self, g->total) >= g->min_percent) {
		size_t len = 0;
		char *p;

		for (int i = 0; i < depth; i++)
			len += strlen(g->path[i]) + 1;
		if (l->nr == l->cap)
			l->v = xrealloc(l->v, (l->cap = l->cap ? l->cap * 2 : 16) * sizeof(*l->v));
		p = l->v[l->nr].names = xmalloc(len + 1);
		for (int i = 0; i < depth; i++)
			p += sprintf(p, "%s%s", i ? "\n" : "", g->path[i]);
		l->v[l->nr].value = node->self;
		/* flat shows what went through the path's end, folded what ended there */
		l->v[l->nr].shown = g->cc->mode == CHAIN_FLAT ? node->period : node->self;
		l->v[l->nr].count = node->count;
		l->v[l->nr].order = l->nr;
		l->nr++;
	}
}

static int cmp_paths(const void *a, const void *b)
{
	const struct path_rec *x = a, *y = b;

	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* perf lists the paths by their own share, biggest first */
static void paths(struct graph_ctx *g, const struct callchain_node *root)
{
	struct path_list l = { NULL, 0, 0 };
	struct callchain_node fake = { .period = 0 };

	collect_paths(g, root, 0, &l);
	if (l.nr)
		qsort(l.v, l.nr, sizeof(*l.v), cmp_paths);
	for (size_t i = 0; i < l.nr; i++) {
		fake.count = l.v[i].count;
		if (g->cc->mode == CHAIN_FOLDED) {
			fprintf_value(g, &fake, NULL, l.v[i].shown, l.v[i].count);
			fputc(' ', g->f);
			for (char *p = l.v[i].names; *p; p++)
				fputc(*p == '\n' ? ';' : *p, g->f);
			fputc('\n', g->f);
		} else {
			fprintf(g->f, "           ");
			fprintf_value(g, &fake, NULL, l.v[i].shown, l.v[i].count);
			fprintf(g->f, "\n" GRAPH_PAD "    ");
			for (char *p = l.v[i].names; *p; p++)
				fputs(*p == '\n' ? "\n" GRAPH_PAD "    " : (char[]){ *p, 0 }, g->f);
			fputs("\n\n", g->f);
		}
		free(l.v[i].names);
	}
	free(l.v);
}

/* --percent-limit, when given, is the graph threshold too (even a lower one) */
static double graph_threshold(const struct hist_output *o)
{
	return o->percent_limit > 0 ? o->percent_limit : o->cc->min_percent;
}

static void fprintf_chain(FILE *f, const struct hists *h, const struct hist_output *o,
			  const struct hist_entry *e)
{
	struct graph_ctx *g;

	/* perf draws no graph under an entry below the graph threshold */
	if (!e->chain_root.children ||
	    (o->cc->mode != CHAIN_GRAPH_REL &&
	     pct(h->children ? e->period_children : e->period, hists_base(h)) < graph_threshold(o)))
		return;
	g = xzalloc(sizeof(*g));
	g->f = f;
	g->cc = o->cc;
	g->total = hists_base(h);
	g->min_percent = graph_threshold(o);
	g->hide_first_sym = o->hide_first_sym;
	if (o->cc->mode == CHAIN_FLAT || o->cc->mode == CHAIN_FOLDED)
		paths(g, &e->chain_root);
	else
		graph_entry(g, &e->chain_root);
	free(g);
}

/* ---- rows ---- */

static const char *col_header(const struct hists *h, const struct hist_output *o, int c)
{
	switch (c) {
	case HF_CHILDREN: return "Children";
	/* perf 6.1 names it "Self" in its default columns only: -F overhead,... says Overhead */
	case HF_SELF: return h->children && (!o->nr_cols || o->cols_plus) ? "Self" : "Overhead";
	case HF_SAMPLES: return "Samples";
	case HF_PERIOD: return "Period";
	default: return key_header(c);
	}
}

static size_t col_min_width(int c)
{
	return c == HF_SAMPLES || c == HF_PERIOD ? 12 : 8;
}

/* a row or the header of -F's columns: "# " or "  " first, then two blanks between */
static void fprintf_cols(FILE *f, const struct hists *h, const struct hist_output *o,
			 const struct hist_entry *e, const size_t *width, int last)
{
	char buf[1024];
	uint64_t base = hists_base(h);
	bool first = true;

	for (int i = 0; i < o->nr_cols; i++) {
		int c = o->cols[i];

		if (c < SORT_NR_KEYS && (o->hide_key >> c & 1))
			continue;
		fputs(first ? (e ? "  " : "# ") : "  ", f);
		first = false;
		if (!e) {
			fprintf(f, c < SORT_NR_KEYS ? "%-*s" : "%*s", (int)width[i], col_header(h, o, c));
			continue;
		}
		switch (c) {
		case HF_CHILDREN:
			if (h->children)
				fprintf(f, "%*.2f%%", (int)width[i] - 1, pct(e->period_children, base));
			else
				fprintf(f, "%*s", (int)width[i], "N/A");
			break;
		case HF_SELF:
			fprintf(f, "%*.2f%%", (int)width[i] - 1, pct(e->period, base));
			break;
		case HF_SAMPLES:
			fprintf(f, "%*llu", (int)width[i], (unsigned long long)e->nr_samples);
			break;
		case HF_PERIOD:
			fprintf(f, "%*llu", (int)width[i], (unsigned long long)e->period);
			break;
		default:
			if (i == last && !key_pads_last(c))
				fputs(entry_field(e, c, buf, sizeof(buf)), f);
			else
				fprintf(f, "%-*.*s", (int)width[i], key_prec(c, width[i]),
					entry_field(e, c, buf, sizeof(buf)));
			break;
		}
	}
	fputc('\n', f);
}

/* ---- --hierarchy: a level per sort key, each group with its total ---- */

struct hier_ctx {
	FILE *f;
	const struct hists *h;
	const struct hist_output *o;
	size_t width[MAX_SORT_KEYS];
	int level;                      /* the key being grouped by (qsort has no context) */
};

static const struct hier_ctx *hier_sort_ctx;

static int hier_cmp_key(const void *a, const void *b)
{
	const struct hier_ctx *c = hier_sort_ctx;

	return hist_entry__cmp_key(c->h->keys[c->level], *(struct hist_entry *const *)a,
				   *(struct hist_entry *const *)b);
}

struct hier_group {
	struct hist_entry **v;          /* its entries */
	size_t nr;
	uint64_t period, samples;
};

static int hier_cmp_group(const void *a, const void *b)
{
	const struct hier_group *x = a, *y = b;

	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	return hier_cmp_key(&x->v[0], &y->v[0]);
}

static void hier_level(struct hier_ctx *c, struct hist_entry **v, size_t nr, int level)
{
	const struct hists *h = c->h;
	int nl = h->nr_keys, more = 3 * (nl - 1 - level);
	struct hier_group *g = xmalloc((nr ? nr : 1) * sizeof(*g));
	size_t ng = 0, shown = 0;
	char buf[1024];

	c->level = level;
	hier_sort_ctx = c;
	qsort(v, nr, sizeof(*v), hier_cmp_key);
	for (size_t i = 0; i < nr; i++) {
		if (!i || hist_entry__cmp_key(h->keys[level], v[i - 1], v[i]))
			g[ng++] = (struct hier_group){ &v[i], 0, 0, 0 };
		g[ng - 1].nr++;
		g[ng - 1].period += v[i]->period;
		g[ng - 1].samples += v[i]->nr_samples;
	}
	qsort(g, ng, sizeof(*g), hier_cmp_group);
	for (size_t i = 0; i < ng; i++) {
		const char *name = entry_field(g[i].v[0], h->keys[level], buf, sizeof(buf));

		if (pct(g[i].period, hists_base(h)) < c->o->percent_limit)
			continue;
		shown++;
		fprintf(c->f, "  %*s%7.2f%%", 3 * level, "", pct(g[i].period, hists_base(h)));
		if (c->o->show_nr_samples)
			fprintf(c->f, "  %12llu", (unsigned long long)g[i].samples);
		fprintf(c->f, "%*s  %*s", more, "", 3 * level, "");
		if (level == nl - 1 && !key_pads_last(h->keys[level]))
			fprintf(c->f, "%s\n", name);
		else
			fprintf(c->f, "%-*s\n", (int)c->width[level], name);
		if (level + 1 < nl)
			hier_level(c, g[i].v, g[i].nr, level + 1);
	}
	/* perf says so where a shown group's members are all under --percent-limit */
	if (!shown && nr && level > 0)
		fprintf(c->f, "  %*s%8s%s%*s  %*sno entry >= %.2f%%\n", 3 * level, "", "",
			c->o->show_nr_samples ? "              " : "", more, "", 3 * level, "",
			c->o->percent_limit);
	free(g);
}

static void fprintf_hierarchy(FILE *f, struct hists *h, const struct hist_output *o,
			      struct hist_entry **v, size_t nr)
{
	struct hier_ctx c = { .f = f, .h = h, .o = o };
	int nl = h->nr_keys;
	size_t names = 0, numw = 8 + 3 * (nl - 1);
	char buf[1024];

	for (int k = 0; k < nl; k++) {
		c.width[k] = strlen(key_header(h->keys[k]));
		for (size_t i = 0; i < nr; i++) {
			size_t l = strlen(entry_field(v[i], h->keys[k], buf, sizeof(buf)));

			if (l > c.width[k])
				c.width[k] = l;
		}
		if (3 * k + c.width[k] > names)
			names = 3 * k + c.width[k];
	}
	if (!o->quiet) {
		size_t title = 0;

		fprintf(f, "# %*s", (int)numw, "Overhead");
		if (o->show_nr_samples)
			fprintf(f, "  %12s", "Samples");
		fputs("  ", f);
		for (int k = 0; k < nl; k++) {
			fprintf(f, "%s%s", k ? " / " : "", key_header(h->keys[k]));
			title += strlen(key_header(h->keys[k])) + (k ? 3 : 0);
		}
		if (title > names)
			names = title;
		fprintf(f, "\n# ");
		for (size_t i = 0; i < numw + (o->show_nr_samples ? 14 : 0); i++)
			fputc('.', f);
		fputs("  ", f);
		for (size_t i = 0; i < names; i++)
			fputc('.', f);
		fputs("\n#\n", f);
	}
	hier_level(&c, v, nr, 0);
}

/* report -F: the columns as asked, in their order */
static void fprintf_fields(FILE *f, struct hists *h, const struct hist_output *o,
			   struct hist_entry **v, size_t nr)
{
	size_t width[MAX_FIELDS + MAX_SORT_KEYS];
	char buf[1024];
	int last = o->nr_cols - 1;
	bool graph = h->callchains && o->cc->mode != CHAIN_NONE;

	while (last > 0 && o->cols[last] < SORT_NR_KEYS && (o->hide_key >> o->cols[last] & 1))
		last--;
	for (int i = 0; i < o->nr_cols; i++) {
		int c = o->cols[i];

		width[i] = strlen(col_header(h, o, c));
		if (width[i] < col_min_width(c) && c >= SORT_NR_KEYS)
			width[i] = col_min_width(c);
		for (size_t k = 0; c < SORT_NR_KEYS && c != SORT_CPU && k < nr; k++) {
			size_t l = entry_width(v[k], c, buf, sizeof(buf));

			if (l > width[i])
				width[i] = l;
		}
	}
	if (!o->quiet) {
		fprintf_cols(f, h, o, NULL, width, last);
		fputc('#', f);
		for (int i = 0; i < o->nr_cols; i++) {
			if (o->cols[i] < SORT_NR_KEYS && (o->hide_key >> o->cols[i] & 1))
				continue;
			fputs(i ? "  " : " ", f);
			for (size_t d = 0; d < width[i]; d++)
				fputc('.', f);
		}
		fputs("\n#\n", f);
	}
	for (size_t i = 0; i < nr; i++) {
		uint64_t val = h->children ? v[i]->period_children : v[i]->period;

		if (pct(val, hists_base(h)) < o->percent_limit)
			continue;
		fprintf_cols(f, h, o, v[i], width, last);
		if (graph)
			fprintf_chain(f, h, o, v[i]);
	}
}

void hists__fprintf(FILE *f, struct hists *h, const struct hist_output *o,
		    const char *event_name, uint64_t nr_samples, uint64_t total_period)
{
	size_t nr;
	struct hist_entry **v = hists__sorted(h, &nr);
	size_t width[MAX_SORT_KEYS];
	char buf[1024];
	double nshow = nr_samples;
	char unit = ' ';
	bool graph = h->callchains && o->cc->mode != CHAIN_NONE;
	int last_key = h->nr_keys - 1;

	while (last_key > 0 && (o->hide_key >> h->keys[last_key] & 1))
		last_key--;

	for (int k = 0; k < h->nr_keys; k++)
		width[k] = strlen(key_header(h->keys[k]));
	/* every entry counts for the widths, shown or not (as in perf) */
	for (size_t i = 0; i < nr; i++) {
		for (int k = 0; k < h->nr_keys; k++) {
			size_t l;

			if (h->keys[k] == SORT_CPU || (o->hide_key >> h->keys[k] & 1))
				continue;
			l = entry_width(v[i], h->keys[k], buf, sizeof(buf));

			if (l > width[k])
				width[k] = l;
		}
	}
	/* perf's sample count: 1234 -> 1K */
	while (nshow >= 1000 && unit != 'G') {
		nshow /= 1000;
		unit = unit == ' ' ? 'K' : unit == 'K' ? 'M' : 'G';
	}
	if (!o->quiet) {
		fprintf(f, "# Samples: %.0f%c of event '%s'\n", unit == ' ' ? nshow : (double)(uint64_t)nshow,
			unit, event_name);
		fprintf(f, "# Event count (approx.): %llu\n#\n", (unsigned long long)total_period);
	}
	if (o->nr_cols || o->hierarchy) {
		if (o->hierarchy)
			fprintf_hierarchy(f, h, o, v, nr);
		else
			fprintf_fields(f, h, o, v, nr);
		free(v);
		fprintf(f, "\n\n");
		return;
	}
	if (!o->quiet) {
		fprintf(f, "#");
		fprintf(f, h->children ? " Children      Self" : " Overhead");
		if (o->show_nr_samples)
			fprintf(f, "  %12s", "Samples");
		for (int k = 0; k < h->nr_keys; k++)
			if (!(o->hide_key >> h->keys[k] & 1))
				fprintf(f, "  %-*s", (int)width[k], key_header(h->keys[k]));
		fprintf(f, "\n#");
		fprintf(f, h->children ? " ........  ........" : " ........");
		if (o->show_nr_samples)
			fprintf(f, "  ............");
		for (int k = 0; k < h->nr_keys; k++) {
			if (o->hide_key >> h->keys[k] & 1)
				continue;
			fprintf(f, "  ");
			for (size_t i = 0; i < width[k]; i++)
				fputc('.', f);
		}
		fprintf(f, "\n#\n");
	}
	for (size_t i = 0; i < nr; i++) {
		const struct hist_entry *e = v[i];
		uint64_t val = h->children ? e->period_children : e->period;

		if (pct(val, hists_base(h)) < o->percent_limit)
			continue;
		if (h->children)
			fprintf(f, "  %7.2f%%  %7.2f%%", pct(e->period_children, hists_base(h)),
				pct(e->period, hists_base(h)));
		else
			fprintf(f, "  %7.2f%%", pct(e->period, hists_base(h)));
		if (o->show_nr_samples)
			fprintf(f, "  %12llu", (unsigned long long)e->nr_samples);
		for (int k = 0; k < h->nr_keys; k++) {
			const char *s = entry_field(e, h->keys[k], buf, sizeof(buf));

			if (o->hide_key >> h->keys[k] & 1)
				continue;
			if (k == last_key && !key_pads_last(h->keys[k]))
				fprintf(f, "  %s", s);
			else
				fprintf(f, "  %-*.*s", (int)width[k], key_prec(h->keys[k], width[k]), s);
		}
		fputc('\n', f);
		if (graph)
			fprintf_chain(f, h, o, e);
	}
	free(v);
	fprintf(f, "\n\n");
}

/*
 * perf 6.1 closes the report with a random hint about its options; ours are
 * about the options this perf has (the compat test compares the frame only).
 */
void hist_output__fprintf_tip(FILE *f)
{
	static const char *const tips[] = {
		"Group samples by source line with: perf report --sort sym,srcline",
		"Hide the small stuff: perf report --percent-limit 2",
		"Self overhead only, without callers' totals: perf report --no-children",
		"Start call graphs at the root: perf report -g caller",
		"Read a recording from a pipe: perf record -o - ... | perf report -i -",
		"Call chains for flame graphs: perf report --no-children -g folded",
	};
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	fprintf(f, "#\n# (Tip: %s)\n#\n", tips[ts.tv_nsec / 1000 % ARRAY_SIZE(tips)]);
}
