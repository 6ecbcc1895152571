// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>
#include "debug.h"
#include "callchain.h"
#include "dso.h"
#include "unwind.h"
#include "util.h"

static void frame_from(struct machine *m, const struct perf_sample *s, uint8_t cpumode, uint64_t ip,
		       struct hist_frame *f, struct thread **thread)
{
	struct addr_location al;

	machine__resolve(m, s->pid, s->tid, cpumode, ip, &al, false);
	if (thread && !*thread)
		*thread = al.thread;
	f->dso = al.dso;
	f->sym = al.sym;
	f->addr = al.dso ? al.addr : ip;
	f->ip = ip;
	f->kernel = al.kernel;
	f->inlined = false;
}

/* The functions inlined at one address of a DSO, as interned symbols. */
struct inline_entry {
	struct dso *dso;
	uint64_t addr;
	uint8_t n;
	struct symbol *syms[7];
	struct inline_entry *next;
};

/* one symbol per (real symbol, inlined name): the graph groups frames by pointer */
struct inline_sym {
	const struct symbol *real;
	struct symbol *sym;
	struct inline_sym *next;
};

#define INLINE_BUCKETS 4096

struct inline_cache {
	struct inline_entry *entries[INLINE_BUCKETS];
	struct inline_sym *syms[INLINE_BUCKETS];
};

void callchain_resolver__init(struct callchain_resolver *r, struct machine *m, bool inline_frames)
{
	r->machine = m;
	r->inline_frames = inline_frames;
	r->cache = NULL;
}

void callchain_resolver__exit(struct callchain_resolver *r)
{
	struct inline_cache *c = r->cache;

	if (!c)
		return;
	for (size_t b = 0; b < INLINE_BUCKETS; b++) {
		for (struct inline_entry *e = c->entries[b], *n; e; e = n) {
			n = e->next;
			free(e);
		}
		for (struct inline_sym *i = c->syms[b], *n; i; i = n) {
			n = i->next;
			free(i->sym);
			free(i);
		}
	}
	free(c);
	r->cache = NULL;
}

/* the offset shown is from the start of the function the code is in */
static struct symbol *inline_symbol(struct inline_cache *c, const struct symbol *real, const char *name)
{
	size_t h = (uintptr_t)real >> 4;
	struct inline_sym *i;

	for (const char *p = name; *p; p++)
		h = h * 31 + (unsigned char)*p;
	h %= INLINE_BUCKETS;
	for (i = c->syms[h]; i; i = i->next)
		if (i->real == real && !strcmp(i->sym->name, name))
			return i->sym;
	i = xmalloc(sizeof(*i));
	i->sym = xzalloc(sizeof(*i->sym) + strlen(name) + 1);
	i->sym->start = real->start;
	i->sym->end = real->end;
	i->sym->binding = real->binding;
	i->sym->type = real->type;
	strcpy(i->sym->name, name);
	i->real = real;
	i->next = c->syms[h];
	c->syms[h] = i;
	return i->sym;
}

static const struct inline_entry *inline_lookup(struct callchain_resolver *r, const struct hist_frame *f)
{
	size_t h = (((uintptr_t)f->dso >> 4) ^ (f->addr * 0x9e3779b97f4a7c15ull >> 16)) % INLINE_BUCKETS;
	struct inline_entry *e;
	struct inline_frame chain[8];
	int n;

	if (!r->cache)
		r->cache = xzalloc(sizeof(*r->cache));
	for (e = r->cache->entries[h]; e; e = e->next)
		if (e->dso == f->dso && e->addr == f->addr)
			return e;
	e = xzalloc(sizeof(*e));
	e->dso = f->dso;
	e->addr = f->addr;
	n = dso__inline_chain(&r->machine->dsos, f->dso, f->addr, chain, (int)ARRAY_SIZE(chain));
	/* the last of the chain is the out-of-line function itself */
	for (int i = 0; i < n - 1 && e->n < ARRAY_SIZE(e->syms); i++)
		if (chain[i].func)
			e->syms[e->n++] = inline_symbol(r->cache, f->sym, chain[i].func);
	e->next = r->cache->entries[h];
	r->cache->entries[h] = e;
	return e;
}

/* callers only: the sampled frame is the histogram entry and stays the real symbol */
static size_t expand_inline(struct callchain_resolver *r, struct hist_frame *frames, size_t n, size_t max)
{
	struct hist_frame out[512];
	size_t o = 0;

	if (n > ARRAY_SIZE(out))
		n = ARRAY_SIZE(out);
	if (max > ARRAY_SIZE(out))
		max = ARRAY_SIZE(out);
	for (size_t i = 0; i < n && o < max; i++) {
		const struct hist_frame *f = &frames[i];

		if (i > 0 && f->sym && f->dso && !f->kernel && f->dso->kind == DSO_KIND_ELF) {
			const struct inline_entry *e = inline_lookup(r, f);

			for (size_t k = 0; k < e->n && o < max - 1; k++) {
				out[o] = *f;
				out[o].sym = e->syms[k];
				out[o].inlined = true;
				o++;
			}
		}
		out[o++] = *f;
	}
	memcpy(frames, out, o * sizeof(*frames));
	return o;
}

/*
 * --call-graph dwarf: the kernel gave only its own part of the chain
 * (exclude_callchain_user); the user part comes from unwinding the stack copy.
 */
static size_t resolve_unwound(struct machine *m, const struct perf_sample *s,
			      struct hist_frame *frames, size_t max, struct thread **thread)
{
	const struct ip_callchain *cc = s->callchain;
	uint64_t ips[512];
	size_t n = 0, nu;
	struct thread *t;

	if (s->cpumode != PERF_RECORD_MISC_USER) {
		bool kernel = false;

		for (uint64_t i = 0; cc && i < cc->nr && n < max; i++) {
			uint64_t ip = cc->ips[i];

			if (callchain_is_context(ip)) {
				kernel = ip == PERF_CONTEXT_KERNEL;
				if (ip == PERF_CONTEXT_USER)
					break;
				continue;
			}
			if (kernel)
				frame_from(m, s, PERF_RECORD_MISC_KERNEL, ip, &frames[n++], thread);
		}
		if (n == 0)
			frame_from(m, s, s->cpumode, s->ip, &frames[n++], thread);
	}
	t = machine__findnew_thread(m, s->pid, s->tid == (uint32_t)-1 ? s->pid : s->tid);
	nu = unwind__user_frames(m, t, s, ips, max - n < ARRAY_SIZE(ips) ? max - n : ARRAY_SIZE(ips));
	for (size_t i = 0; i < nu; i++)
		frame_from(m, s, PERF_RECORD_MISC_USER, ips[i], &frames[n++], thread);
	if (n == 0)
		frame_from(m, s, s->cpumode, s->ip, &frames[n++], thread);
	return n;
}

size_t sample__resolve_frames(struct machine *m, const struct perf_sample *s,
			      struct hist_frame *frames, size_t max, struct thread **thread)
{
	const struct ip_callchain *cc = s->callchain;
	uint8_t cpumode = s->cpumode;
	size_t n = 0;
	bool first = true;

	if (thread)
		*thread = NULL;
	if (max > 1 && unwind__can_unwind(s))
		return resolve_unwound(m, s, frames, max, thread);
	if (!cc || cc->nr == 0) {
		frame_from(m, s, s->cpumode, s->ip, &frames[0], thread);
		return 1;
	}
	for (uint64_t i = 0; i < cc->nr && n < max; i++) {
		uint64_t ip = cc->ips[i];

		if (callchain_is_context(ip)) {
			if (ip == PERF_CONTEXT_KERNEL)
				cpumode = PERF_RECORD_MISC_KERNEL;
			else if (ip == PERF_CONTEXT_USER)
				cpumode = PERF_RECORD_MISC_USER;
			else if (ip == PERF_CONTEXT_HV)
				cpumode = PERF_RECORD_MISC_HYPERVISOR;
			else if (ip == PERF_CONTEXT_GUEST_KERNEL)
				cpumode = PERF_RECORD_MISC_GUEST_KERNEL;
			else if (ip == PERF_CONTEXT_GUEST_USER)
				cpumode = PERF_RECORD_MISC_GUEST_USER;
			continue;
		}
		/* the chain normally starts with the sampled ip itself */
		if (first && ip != s->ip) {
			frame_from(m, s, s->cpumode, s->ip, &frames[n++], thread);
			if (n == max)
				break;
		}
		first = false;
		frame_from(m, s, cpumode, ip, &frames[n++], thread);
	}
	if (n == 0)
		frame_from(m, s, s->cpumode, s->ip, &frames[n++], thread);
	return n;
}

size_t callchain_resolver__frames(struct callchain_resolver *r, const struct perf_sample *s,
				  struct hist_frame *frames, size_t max, struct thread **thread)
{
	size_t n = sample__resolve_frames(r->machine, s, frames, max, thread);

	return r->inline_frames && n > 1 ? expand_inline(r, frames, n, max) : n;
}

void callchain_param__init(struct callchain_param *p)
{
	memset(p, 0, sizeof(*p));
	p->mode = CHAIN_GRAPH_ABS;
	p->min_percent = 0.5;
}

int callchain_param__parse(struct callchain_param *p, const char *spec)
{
	/* perf 6.1 matches an abbreviation against the words in this order */
	static const char *const words[] = {
		"graph", "flat", "fractal", "folded", "none",
		"caller", "callee", "function", "address", "percent", "period", "count", "branch",
	};
	char *copy = xstrdup(spec), *tok, *save = NULL;
	int nums = 0, ret = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		size_t len = strlen(tok), w;
		char *end;
		double v;

		for (w = 0; w < ARRAY_SIZE(words); w++)
			if (!strncmp(words[w], tok, len))
				break;
		switch (w) {
		case 0: p->mode = CHAIN_GRAPH_ABS; continue;
		case 1: p->mode = CHAIN_FLAT; continue;
		case 2: p->mode = CHAIN_GRAPH_REL; continue;
		case 3: p->mode = CHAIN_FOLDED; continue;
		case 4: p->mode = CHAIN_NONE; continue;
		case 5: case 6: p->caller_order = w == 5; p->order_set = true; continue;
		case 7: case 8: p->address = w == 8; continue;
		case 9: p->value = CCVAL_PERCENT; continue;
		case 10: p->value = CCVAL_PERIOD; continue;
		case 11: p->value = CCVAL_COUNT; continue;
		case 12: continue;   /* branch: no branch stacks here, nothing to add */
		default: break;
		}
		v = strtod(tok, &end);
		if (end == tok || (*end && strcmp(end, "%")) || nums > 1) {
			pr_err("Error: invalid -g/--call-graph option '%s'\n", tok);
			ret = -1;
		} else if (nums++ == 0)
			p->min_percent = v;
		else
			p->print_limit = (unsigned)v;
	}
	free(copy);
	return ret;
}
