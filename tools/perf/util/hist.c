// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "debug.h"
#include "hist.h"
#include "strbuf.h"
#include "util.h"

static const char *const key_names[SORT_NR_KEYS] = {
	[SORT_COMM] = "comm", [SORT_PID] = "pid", [SORT_DSO] = "dso",
	[SORT_SYM] = "sym", [SORT_SRCLINE] = "srcline", [SORT_CPU] = "cpu",
};

/* ---- interned strings: comms change and threads die, entries keep their name ---- */

struct strset {
	char **slots;
	size_t cap, nr;
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static const char *intern(struct strset *set, const char *s)
{
	size_t i;

	if ((set->nr + 1) * 2 > set->cap) {
		size_t ncap = set->cap ? set->cap * 2 : 256;
		char **n = xzalloc(ncap * sizeof(*n));

		for (i = 0; i < set->cap; i++) {
			if (!set->slots[i])
				continue;
			size_t h = str_hash(set->slots[i]) & (ncap - 1);

			while (n[h])
				h = (h + 1) & (ncap - 1);
			n[h] = set->slots[i];
		}
		free(set->slots);
		set->slots = n;
		set->cap = ncap;
	}
	for (i = str_hash(s) & (set->cap - 1); set->slots[i]; i = (i + 1) & (set->cap - 1))
		if (!strcmp(set->slots[i], s))
			return set->slots[i];
	set->slots[i] = xstrdup(s);
	set->nr++;
	return set->slots[i];
}

int hist_field__parse(const char *name)
{
	static const char *const fields[HF_NR - HF_CHILDREN] = {
		"overhead_children", "overhead", "sample", "period",
	};

	for (int k = 0; k < SORT_NR_KEYS; k++)
		if (!strcmp(name, key_names[k]))
			return k;
	for (int f = 0; f < HF_NR - HF_CHILDREN; f++)
		if (!strcmp(name, fields[f]))
			return HF_CHILDREN + f;
	return -1;
}

static bool has_item(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* "a,b,c" -> items; -1 on an unknown name, with perf's message */
static int parse_items(const char *list, int *v, int max, const char *what)
{
	char *copy = xstrdup(list), *tok, *save = NULL;
	int n = 0, ret = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int x = hist_field__parse(tok);

		if (x < 0 || (x >= SORT_NR_KEYS && !strcmp(what, "--sort"))) {
			pr_err("Error:\nUnknown %s key: `%s'\n", what, tok);
			ret = -1;
			break;
		}
		if (n < max && !has_item(v, n, x))
			v[n++] = x;
	}
	free(copy);
	return ret < 0 ? ret : n;
}

int hist_fields__setup(struct hist_fields *hf, const char *fields, const char *sort, bool children,
		       bool nr_samples)
{
	int f[MAX_FIELDS + MAX_SORT_KEYS], s[MAX_SORT_KEYS];
	int nf, ns, nk = 0;
	bool plus = fields[0] == '+';
	char *p;

	memset(hf, 0, sizeof(*hf));
	nf = parse_items(fields + plus, f, MAX_FIELDS, "--fields");
	ns = parse_items(sort ? sort : "comm,dso,sym", s, MAX_SORT_KEYS, "--sort");
	if (nf < 0 || ns < 0)
		return -1;
	hf->plus = plus;
	if (plus) {
		/* the default columns, the ones added, then the keys */
		if (children)
			hf->cols[hf->nr_cols++] = HF_CHILDREN;
		hf->cols[hf->nr_cols++] = HF_SELF;
		if (nr_samples)
			hf->cols[hf->nr_cols++] = HF_SAMPLES;
	} else if (!sort) {
		/* only -F: its keys are the sort keys */
		ns = 0;
	}
	for (int i = 0; i < nf; i++)
		if (!has_item(hf->cols, hf->nr_cols, f[i]))
			hf->cols[hf->nr_cols++] = f[i];
	for (int i = 0; i < ns; i++)
		if (!has_item(hf->cols, hf->nr_cols, s[i]))
			hf->cols[hf->nr_cols++] = s[i];
	/* rows are ordered by the sort keys, then by the other columns in their order */
	if (!plus) {
		for (int i = 0; i < ns; i++)
			hf->sort_items[hf->nr_sort_items++] = s[i];
		for (int i = 0; i < nf; i++)
			if (!has_item(hf->sort_items, hf->nr_sort_items, f[i]))
				hf->sort_items[hf->nr_sort_items++] = f[i];
	}
	/* the keys in the order their ties are broken in: --sort's, then -F's */
	p = hf->keys;
	for (int i = 0; i < ns; i++)
		p += sprintf(p, "%s%s", nk++ ? "," : "", key_names[s[i]]);
	for (int i = 0; i < nf; i++)
		if (f[i] < SORT_NR_KEYS && !has_item(s, ns, f[i]))
			p += sprintf(p, "%s%s", nk++ ? "," : "", key_names[f[i]]);
	if (!nk) {
		pr_err("Error: -F needs at least one of comm, pid, dso, sym, srcline, cpu\n");
		return -1;
	}
	return 0;
}

int hists__init(struct hists *h, const char *keys, struct dsos *dsos)
{
	char *copy = xstrdup(keys), *tok, *save = NULL;

	memset(h, 0, sizeof(*h));
	h->dsos = dsos;
	h->strings = xzalloc(sizeof(struct strset));
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int k;

		while (*tok == ' ')
			tok++;
		for (k = 0; k < SORT_NR_KEYS; k++)
			if (!strcmp(tok, key_names[k]))
				break;
		if (k == SORT_NR_KEYS) {
			pr_err("Error: unknown --sort key: '%s' (known: comm, pid, dso, sym, srcline, cpu)\n", tok);
			free(copy);
			return -1;
		}
		if (h->nr_keys == MAX_SORT_KEYS) {
			pr_err("Error: too many --sort keys\n");
			free(copy);
			return -1;
		}
		h->keys[h->nr_keys++] = k;
	}
	free(copy);
	if (!h->nr_keys) {
		pr_err("Error: empty --sort\n");
		return -1;
	}
	h->nbuckets = 4096;
	h->buckets = xzalloc(h->nbuckets * sizeof(*h->buckets));
	return 0;
}

/* the children of nodes with many of them, by (parent, frame) (see chain_add) */
struct kid_slot {
	struct callchain_node *parent, *node;
};

struct kid_index {
	size_t cap, nr;           /* cap: a power of two, at most half full */
	struct kid_slot *slots;
};

/*
 * Call-graph nodes come from big blocks: millions of them, never freed one by
 * one. A block is one transparent huge page where the kernel allows it: a
 * report with unique deep chains spends most of its time faulting in fresh
 * 4 KiB pages otherwise.
 */
#define NODE_BLOCK_SIZE (2u << 20)

struct node_block {
	struct node_block *prev;
	size_t used;
	struct callchain_node nodes[];
};

#define NODES_PER_BLOCK ((NODE_BLOCK_SIZE - sizeof(struct node_block)) / sizeof(struct callchain_node))

static struct callchain_node *node_new(struct hists *h)
{
	struct node_block *b = h->node_arena;

	if (!b || b->used == NODES_PER_BLOCK) {
		void *mem;

		if (posix_memalign(&mem, NODE_BLOCK_SIZE, NODE_BLOCK_SIZE))
			mem = xmalloc(NODE_BLOCK_SIZE);   /* says out of memory */
		/* only a hint: without it the block is ordinary pages */
		madvise(mem, NODE_BLOCK_SIZE, MADV_HUGEPAGE);
		struct node_block *nb = mem;

		nb->prev = b;
		nb->used = 0;
		h->node_arena = b = nb;
	}
	memset(&b->nodes[b->used], 0, sizeof(b->nodes[0]));
	return &b->nodes[b->used++];
}

void hists__exit(struct hists *h)
{
	struct strset *set = h->strings;

	for (size_t b = 0; b < h->nbuckets; b++) {
		struct hist_entry *e = h->buckets[b], *n;

		for (; e; e = n) {
			n = e->hash_next;
			free(e);
		}
	}
	free(h->buckets);
	if (h->kids)
		free(h->kids->slots);
	free(h->kids);
	for (struct node_block *b = h->node_arena, *p; b; b = p) {
		p = b->prev;
		free(b);
	}
	if (set) {
		for (size_t i = 0; i < set->cap; i++)
			free(set->slots[i]);
		free(set->slots);
		free(set);
	}
}

bool hists__has_key(const struct hists *h, enum sort_key k)
{
	for (int i = 0; i < h->nr_keys; i++)
		if (h->keys[i] == k)
			return true;
	return false;
}

static uint64_t mix64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdull;
	v ^= v >> 33;
	v *= 0xc4ceb9fe1a85ec53ull;
	v ^= v >> 33;
	return v;
}

/* a DSO's name hash, remembered by pointer: its name is hashed once, not per frame */
static uint64_t dso_name_hash(struct hists *h, const struct dso *dso)
{
	size_t i = mix64((uintptr_t)dso) % ARRAY_SIZE(h->dso_seen);

	if (h->dso_seen[i] != dso) {
		h->dso_seen[i] = dso;
		h->dso_hash[i] = str_hash(dso->short_name);
	}
	return h->dso_hash[i];
}

/* identity of a would-be entry under the selected keys */
struct entry_key {
	const char *comm;
	int32_t pid, cpu;
	const struct hist_frame *frame;
	const char *srcline;
};

static uint64_t key_hash(struct hists *h, const struct entry_key *k)
{
	uint64_t v = 0;

	for (int i = 0; i < h->nr_keys; i++) {
		switch (h->keys[i]) {
		case SORT_COMM:
			v = v * 31 + (uintptr_t)k->comm;
			break;
		case SORT_PID:
			v = v * 31 + (uint32_t)k->pid;
			break;
		case SORT_DSO:
			v = v * 31 + (k->frame->dso ? dso_name_hash(h, k->frame->dso) : 0);
			break;
		case SORT_SYM:
			v = v * 31 + (k->frame->sym ? (uintptr_t)k->frame->sym : k->frame->addr);
			break;
		case SORT_SRCLINE:
			v = v * 31 + (uintptr_t)k->srcline;
			break;
		case SORT_CPU:
			v = v * 31 + (uint32_t)k->cpu;
			break;
		default:
			break;
		}
	}
	/* mixed: pointers' low bits are all alike, and buckets are picked by them */
	return mix64(v);
}

static bool key_match(const struct hists *h, const struct hist_entry *e, const struct entry_key *k)
{
	for (int i = 0; i < h->nr_keys; i++) {
		switch (h->keys[i]) {
		case SORT_COMM:
			if (e->comm != k->comm)
				return false;
			break;
		case SORT_PID:
			if (e->pid != k->pid)
				return false;
			break;
		/* like perf, the [k]/[.] level is not part of an entry's identity:
		 * the first sample's level is shown */
		/* DSOs by name: perf 6.1 makes one row of all the binaries called "perf" */
		case SORT_DSO:
			if (e->frame.dso != k->frame->dso &&
			    (!e->frame.dso || !k->frame->dso ||
			     strcmp(e->frame.dso->short_name, k->frame->dso->short_name)))
				return false;
			break;
		case SORT_SYM:
			if (e->frame.sym != k->frame->sym ||
			    (!e->frame.sym && e->frame.addr != k->frame->addr))
				return false;
			break;
		case SORT_SRCLINE:
			if (e->srcline != k->srcline)
				return false;
			break;
		case SORT_CPU:
			if (e->cpu != k->cpu)
				return false;
			break;
		default:
			break;
		}
	}
	return true;
}

static const char *frame_srcline(struct hists *h, const struct hist_frame *f)
{
	char buf[512];
	const char *s = NULL;

	if (f->dso)
		s = dso__srcline(h->dsos, f->dso, f->addr);
	if (!s && f->sym && f->addr >= f->sym->start) {
		/* like perf: a known function without line info is function+offset */
		snprintf(buf, sizeof(buf), "%s+%llu", f->sym->name,
			 (unsigned long long)(f->addr - f->sym->start));
		s = buf;
	}
	if (!s) {
		/* like perf: the DSO and the address when no line is known */
		snprintf(buf, sizeof(buf), "%s[%llx]", f->dso ? f->dso->short_name : "[unknown]",
			 (unsigned long long)f->addr);
		s = buf;
	}
	return intern(h->strings, s);
}

static struct hist_entry *findnew_entry(struct hists *h, const struct entry_key *k, int32_t tid)
{
	uint64_t hv = key_hash(h, k);
	size_t b = hv & (h->nbuckets - 1);   /* a power of two */
	struct hist_entry *e;

	for (e = h->buckets[b]; e; e = e->hash_next)
		if (e->hash == hv && key_match(h, e, k))
			return e;
	if (h->nr_entries * 2 > h->nbuckets) {   /* at most half full: a miss walks few entries */
		size_t nb = h->nbuckets * 4;
		struct hist_entry **nbk = xzalloc(nb * sizeof(*nbk));

		for (size_t i = 0; i < h->nbuckets; i++) {
			struct hist_entry *x = h->buckets[i], *n;

			for (; x; x = n) {
				n = x->hash_next;
				x->hash_next = nbk[x->hash & (nb - 1)];
				nbk[x->hash & (nb - 1)] = x;
			}
		}
		free(h->buckets);
		h->buckets = nbk;
		h->nbuckets = nb;
		b = hv & (nb - 1);
	}
	e = xzalloc(sizeof(*e));
	e->seq = h->nr_entries;
	e->tid = tid;
	e->hash = hv;
	e->comm = k->comm;
	e->pid = k->pid;
	e->cpu = k->cpu;
	e->frame = *k->frame;
	e->srcline = k->srcline;
	e->filtered = h->adding_filtered;
	e->hash_next = h->buckets[b];
	h->buckets[b] = e;
	h->nr_entries++;
	return e;
}

/*
 * perf keys and shows a frame without a symbol by its runtime address when it
 * is a caller (a call-graph node or a --children entry); only the sampled
 * address of a self entry is shown relative to its DSO.
 */
static struct hist_frame caller_view(const struct hist_frame *f)
{
	struct hist_frame c = *f;

	if (!c.sym)
		c.addr = c.ip;
	return c;
}

/*
 * A node's children are a list, most recently used first (the order equal
 * branches are shown in). Hot paths hit the first child. A node with more
 * than KID_SCAN_MAX children (a root, or a caller of many unsymbolized
 * addresses) has all of them in the hists' kid index too, so a cold child is
 * found without walking a long list; the nodes themselves stay small.
 */
#define KID_SCAN_MAX 4

static bool chain_frame_same(const struct chain_frame *a, const struct chain_frame *b)
{
	if (a->dso != b->dso || a->kernel != b->kernel)
		return false;
	if (a->sym || b->sym)
		return a->sym == b->sym;
	return a->addr == b->addr;
}

/* consistent with chain_frame_same: a symbol, or an address when neither has one */
static uint64_t kid_hash(const struct callchain_node *parent, const struct chain_frame *f)
{
	return mix64((uintptr_t)parent * 31 + (uintptr_t)f->dso * 7 +
		     (f->sym ? (uintptr_t)f->sym : f->addr) * 2 + f->kernel);
}

static void kid_index__put(struct kid_index *x, struct callchain_node *parent, struct callchain_node *c)
{
	size_t i = kid_hash(parent, &c->frame) & (x->cap - 1);

	while (x->slots[i].node)
		i = (i + 1) & (x->cap - 1);
	x->slots[i].parent = parent;
	x->slots[i].node = c;
	x->nr++;
}

static void kid_index__add(struct hists *h, struct callchain_node *parent, struct callchain_node *c)
{
	struct kid_index *x = h->kids;

	if (!x)
		x = h->kids = xzalloc(sizeof(*x));
	if ((x->nr + 1) * 2 > x->cap) {
		struct kid_slot *old = x->slots;
		size_t ocap = x->cap;

		x->cap = ocap ? ocap * 2 : 1024;
		x->slots = xzalloc(x->cap * sizeof(*x->slots));
		x->nr = 0;
		for (size_t i = 0; i < ocap; i++)
			if (old[i].node)
				kid_index__put(x, old[i].parent, old[i].node);
		free(old);
	}
	kid_index__put(x, parent, c);
}

static struct callchain_node *kid_index__find(const struct kid_index *x, const struct callchain_node *parent,
					      const struct chain_frame *f)
{
	for (size_t i = kid_hash(parent, f) & (x->cap - 1); x->slots[i].node; i = (i + 1) & (x->cap - 1))
		if (x->slots[i].parent == parent && chain_frame_same(&x->slots[i].node->frame, f))
			return x->slots[i].node;
	return NULL;
}

/*
 * The child of parent for frame f, or NULL; *nr: how many children parent
 * has, KID_SCAN_MAX + 1 meaning more (and then they are in the kid index).
 */
static struct callchain_node *find_kid(struct hists *h, struct callchain_node *parent,
				       const struct chain_frame *f, size_t *nr)
{
	struct callchain_node *c = parent->children;
	size_t n = 0;

	for (; c && n <= KID_SCAN_MAX; c = c->next, n++)
		if (chain_frame_same(&c->frame, f))
			return c;
	*nr = n;
	return c ? kid_index__find(h->kids, parent, f) : NULL;
}

/*
 * perf keys and shows a frame without a symbol by its runtime address when it
 * is a caller (a call-graph node or a --children entry); only the sampled
 * address of a self entry is shown relative to its DSO.
 */
static struct chain_frame chain_view(const struct hist_frame *f)
{
	struct chain_frame c = { f->dso, f->sym, f->sym ? f->addr : f->ip, f->kernel, f->inlined };

	return c;
}

static void chain_add(struct hists *h, struct hist_entry *e, const struct hist_frame *frames,
		      size_t n, bool reverse, uint64_t period)
{
	struct callchain_node *parent = &e->chain_root;

	if (n > e->max_depth)
		e->max_depth = n;
	parent->period += period;
	parent->count++;
	for (size_t i = 0; i < n; i++) {
		const struct chain_frame cf = chain_view(&frames[reverse ? n - 1 - i : i]);
		struct callchain_node *c = parent->children;
		size_t nr = 0;

		if (!c || !chain_frame_same(&c->frame, &cf))
			c = find_kid(h, parent, &cf, &nr);
		if (!c) {
			c = node_new(h);
			c->frame = cf;
			if (nr > KID_SCAN_MAX) {
				kid_index__add(h, parent, c);
			} else if (nr == KID_SCAN_MAX) {
				/* c makes one too many to walk: index them all */
				kid_index__add(h, parent, c);
				for (struct callchain_node *k = parent->children; k; k = k->next)
					kid_index__add(h, parent, k);
			}
		} else if (c != parent->children) {
			/* hot paths repeat: keep the last one used in front */
			c->prev->next = c->next;
			if (c->next)
				c->next->prev = c->prev;
		}
		if (c != parent->children) {
			c->prev = NULL;
			c->next = parent->children;
			if (c->next)
				c->next->prev = c;
			parent->children = c;
		}
		c->period += period;
		c->count++;
		parent = c;
	}
	parent->self += period;
}

/* the entry frames[i] counts in as a caller of the sample keyed k */
static struct hist_entry *caller_entry(struct hists *h, const struct entry_key *k, int32_t tid,
				       const struct hist_frame *frames, size_t i, bool *level)
{
	struct entry_key ck = *k;
	struct hist_frame cf = caller_view(&frames[i]);

	/* perf's quirk, kept for identical rows: a caller outside every map
	 * takes the [k]/[.] level of the frame perf looked at before it (the
	 * sampled address first, then the chain in the graph's order) */
	if (!cf.dso)
		cf.kernel = *level;
	*level = cf.kernel;
	ck.frame = &cf;
	if (hists__has_key(h, SORT_SRCLINE))
		ck.srcline = frame_srcline(h, &frames[i]);
	return findnew_entry(h, &ck, tid);
}

void hists__add_sample(struct hists *h, const char *comm, int32_t pid, int32_t tid, int32_t cpu,
		       const struct hist_frame *frames, size_t n, uint64_t period)
{
	hists__add_sample_cut(h, comm, pid, tid, cpu, frames, n, 0, period);
}

void hists__add_sample_filtered(struct hists *h, const char *comm, int32_t pid, int32_t tid,
				int32_t cpu, const struct hist_frame *frames, size_t n, size_t skip,
				uint64_t period, bool filtered)
{
	h->adding_filtered = filtered;
	hists__add_sample_cut(h, comm, pid, tid, cpu, frames, n, skip, period);
	h->adding_filtered = false;
}

void hists__add_sample_cut(struct hists *h, const char *comm, int32_t pid, int32_t tid, int32_t cpu,
			   const struct hist_frame *frames, size_t n, size_t skip, uint64_t period)
{
	/* perf's "pid" key is the thread: Pid:Command shows the tid */
	struct entry_key k = { intern(h->strings, comm ? comm : ""), tid > 0 ? tid : pid, cpu,
			       &frames[0], NULL };
	const struct hist_frame *chain = frames + skip;
	/*
	 * The callers start at the sampled frame itself: with a symbol it is
	 * the sample's own entry (given the period once), without one it is
	 * keyed by its runtime address, an entry of its own in each process,
	 * as perf 6.1 counts it
	 */
	size_t first = skip, cn = n - skip;
	struct hist_entry *e;
	bool level;

	if (hists__has_key(h, SORT_SRCLINE))
		k.srcline = frame_srcline(h, &frames[0]);
	e = findnew_entry(h, &k, tid);
	e->period += period;
	e->nr_samples++;
	if (e->filtered) {
		h->nr_filtered_period += period;
		h->nr_filtered_samples++;
	} else {
		h->total_period += period;
		h->nr_samples++;
	}
	e->last_sample = ++h->sample_seq;

	e->period_children += period;
	/* the entry's own chains: the whole of it, from the sampled function */
	if (h->callchains)
		chain_add(h, e, chain, cn, !h->callee_order, period);
	if (!h->children)
		return;
	/* the entries are made in the order perf 6.1 walks the chain */
	level = frames[0].kernel;
	for (size_t step = first; step < n; step++)
		caller_entry(h, &k, tid, frames, h->callee_order ? step : n - 1 - (step - first), &level);
	/*
	 * Every entry gets a sample's period once, however many of its frames
	 * fall into it; the chain it gets starts at the first of them in the
	 * order the graph is shown (the outermost in caller order), as in perf.
	 */
	for (size_t step = first; step < n; step++) {
		size_t i = h->callee_order ? step : n - 1 - (step - first);
		struct hist_entry *c = caller_entry(h, &k, tid, frames, i, &level);

		if (c->last_sample == h->sample_seq)
			continue;
		c->last_sample = h->sample_seq;
		c->period_children += period;
		if (!h->callchains)
			continue;
		/* a caller's chains start at the caller: down to the sample (or the
		 * cut), or up to the root */
		if (h->callee_order)
			chain_add(h, c, frames + i, n - i, false, period);
		else
			chain_add(h, c, chain, i - skip + 1, true, period);
	}
}

void hists__set_thread_comms(struct hists *h, const char *(*comm_of)(void *ctx, int32_t tid), void *ctx)
{
	if (!hists__has_key(h, SORT_PID) && !hists__has_key(h, SORT_COMM))
		return;
	for (size_t b = 0; b < h->nbuckets; b++)
		for (struct hist_entry *e = h->buckets[b]; e; e = e->hash_next) {
			const char *c = comm_of(ctx, e->pid);

			e->thread_comm = c ? intern(h->strings, c) : NULL;
		}
}

const char *hist_frame__dso_name(const struct hist_frame *f)
{
	return f->dso ? f->dso->short_name : "[unknown]";
}

const char *hist_frame__sym_name(const struct hist_frame *f, char *buf, size_t size)
{
	const char *lvl = f->kernel ? "[k]" : "[.]";

	if (f->sym)
		snprintf(buf, size, "%s %s", lvl, f->sym->name);
	else
		/* perf's "%-#.16llx": 0x and 16 digits, but a bare 16 zeros for 0 */
		snprintf(buf, size, "%s %-#.16llx", lvl, (unsigned long long)f->addr);
	return buf;
}

static const struct hists *sort_ctx;

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* raw addresses after names, like a missing DSO after a named one */
static int cmp_null(const void *a, const void *b)
{
	return !a && !b ? 0 : !a ? 1 : -1;
}

/*
 * The keys as perf 6.1 orders its output by them: names ascending. With
 * `collapse`, the order perf keeps its entries in before (symbols by their
 * start address, unresolved ones by address): what is left of a tie comes
 * out in that order.
 */
static int cmp_key(enum sort_key k, const struct hist_entry *a, const struct hist_entry *b, bool collapse)
{
	const struct hist_frame *fa = &a->frame, *fb = &b->frame;

	switch (k) {
	case SORT_COMM:
		return cmp_str(a->comm, b->comm);
	case SORT_PID:
		return a->pid < b->pid ? -1 : a->pid > b->pid;
	case SORT_DSO:
		if (!fa->dso || !fb->dso)
			return cmp_null(fa->dso, fb->dso);
		return strcmp(fa->dso->short_name, fb->dso->short_name);
	case SORT_SYM:
		if (!fa->sym && !fb->sym)
			return fa->addr < fb->addr ? -1 : fa->addr > fb->addr;
		if (!fa->sym || !fb->sym)
			return cmp_null(fa->sym, fb->sym);
		if (!collapse)
			return strcmp(fa->sym->name, fb->sym->name);
		return fa->sym->start < fb->sym->start ? -1 : fa->sym->start > fb->sym->start;
	case SORT_SRCLINE:
		return cmp_str(a->srcline, b->srcline);
	case SORT_CPU:
		return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
	default:
		return 0;
	}
}

int hist_entry__cmp_key(enum sort_key k, const struct hist_entry *a, const struct hist_entry *b)
{
	int r = cmp_key(k, a, b, false);

	return r ? r : cmp_key(k, a, b, true);
}

static int cmp_desc(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

/* -F: the items in their order; the children share only in children mode */
static int cmp_items(const struct hists *h, const struct hist_entry *a, const struct hist_entry *b)
{
	int r = 0;

	for (int i = 0; i < h->nr_sort_items && !r; i++) {
		switch (h->sort_items[i]) {
		case HF_CHILDREN:
			r = h->children ? cmp_desc(a->period_children, b->period_children) : 0;
			break;
		case HF_SELF:
		case HF_PERIOD:
			r = cmp_desc(a->period, b->period);
			break;
		case HF_SAMPLES:
			r = cmp_desc(a->nr_samples, b->nr_samples);
			break;
		default:
			r = cmp_key(h->sort_items[i], a, b, false);
			break;
		}
	}
	return r;
}

static int cmp_entries(const void *pa, const void *pb)
{
	const struct hist_entry *a = *(const struct hist_entry *const *)pa;
	const struct hist_entry *b = *(const struct hist_entry *const *)pb;
	const struct hists *h = sort_ctx;
	uint64_t va = h->children ? a->period_children : a->period;
	uint64_t vb = h->children ? b->period_children : b->period;
	int r = 0;

	if (h->nr_sort_items)
		r = cmp_items(h, a, b);
	if (r || h->nr_sort_items)
		goto ties;
	if (va != vb)
		return va > vb ? -1 : 1;
	/*
	 * perf 6.1 in children mode: of a thread's entries with the same
	 * total, the caller first, i.e. the one with the longer chains in
	 * caller order, the shorter in callee order (chains only when shown)
	 */
	if (h->children && h->callchains && a->tid == b->tid && a->max_depth != b->max_depth) {
		bool a_first = h->callee_order ? a->max_depth < b->max_depth : a->max_depth > b->max_depth;

		return a_first ? -1 : 1;
	}
	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	for (int i = 0; i < h->nr_keys && !r; i++)
		r = cmp_key(h->keys[i], a, b, false);
ties:
	for (int i = 0; i < h->nr_keys && !r; i++)
		r = cmp_key(h->keys[i], a, b, true);
	if (!r)
		r = a->seq < b->seq ? -1 : a->seq > b->seq;
	return r;
}

struct hist_entry **hists__sorted(struct hists *h, size_t *nr)
{
	struct hist_entry **v = xmalloc((h->nr_entries ? h->nr_entries : 1) * sizeof(*v));
	size_t n = 0;

	for (size_t b = 0; b < h->nbuckets; b++)
		for (struct hist_entry *e = h->buckets[b]; e; e = e->hash_next)
			if (!e->filtered)
				v[n++] = e;
	sort_ctx = h;
	qsort(v, n, sizeof(*v), cmp_entries);
	*nr = n;
	return v;
}

/* ---- sample filters ---- */

static size_t split_list(const char *list, char ***out)
{
	char *copy = xstrdup(list), *tok, *save = NULL;
	size_t n = 0, cap = 0;

	*out = NULL;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		*ARRAY_PUSH(*out, n, cap) = xstrdup(tok);
	}
	free(copy);
	return n;
}

static int split_ids(const char *list, const char *what, int32_t **out, size_t *nr)
{
	char **words;
	size_t n = split_list(list, &words);
	int ret = 0;

	*out = xmalloc((n ? n : 1) * sizeof(**out));
	for (size_t i = 0; i < n; i++) {
		char *end;
		long v = strtol(words[i], &end, 10);

		if (*end || end == words[i] || v < 0) {
			pr_err("Error: invalid %s '%s'\n", what, words[i]);
			ret = -1;
		}
		(*out)[i] = (int32_t)v;
		free(words[i]);
	}
	free(words);
	*nr = n;
	return ret;
}

int hist_filter__init(struct hist_filter *f, const char *comms, const char *dsos, const char *syms,
		      const char *pids, const char *tids)
{
	memset(f, 0, sizeof(*f));
	if (comms)
		f->nr_comms = split_list(comms, &f->comms);
	if (dsos)
		f->nr_dsos = split_list(dsos, &f->dsos);
	if (syms)
		f->nr_syms = split_list(syms, &f->syms);
	if (pids && split_ids(pids, "--pid", &f->pids, &f->nr_pids) < 0)
		return -1;
	if (tids && split_ids(tids, "--tid", &f->tids, &f->nr_tids) < 0)
		return -1;
	return 0;
}

void hist_filter__exit(struct hist_filter *f)
{
	char **lists[] = { f->comms, f->dsos, f->syms };
	size_t nrs[] = { f->nr_comms, f->nr_dsos, f->nr_syms };

	for (size_t l = 0; l < ARRAY_SIZE(lists); l++) {
		for (size_t i = 0; i < nrs[l]; i++)
			free(lists[l][i]);
		free(lists[l]);
	}
	free(f->pids);
	free(f->tids);
	memset(f, 0, sizeof(*f));
}

static bool in_list(char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

static bool in_ids(const int32_t *ids, size_t n, int32_t v)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == v)
			return true;
	return false;
}

bool hist_filter__match(const struct hist_filter *f, const char *comm, int32_t pid, int32_t tid,
			const struct hist_frame *frame)
{
	if (f->comms && !in_list(f->comms, f->nr_comms, comm))
		return false;
	if (f->pids && !in_ids(f->pids, f->nr_pids, pid))
		return false;
	if (f->tids && !in_ids(f->tids, f->nr_tids, tid))
		return false;
	/* a DSO by its short name ([kernel.kallsyms], libc.so.6) or its path */
	if (f->dsos && (!frame->dso || (!in_list(f->dsos, f->nr_dsos, frame->dso->short_name) &&
					!in_list(f->dsos, f->nr_dsos, frame->dso->long_name))))
		return false;
	if (f->syms && (!frame->sym || !in_list(f->syms, f->nr_syms, frame->sym->name)))
		return false;
	return true;
}
