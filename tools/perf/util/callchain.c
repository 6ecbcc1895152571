// SPDX-License-Identifier: MIT
#include <string.h>
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

bool callchain_inline;

/* The functions inlined at one address of a DSO, as interned symbols. */
struct inline_entry {
	struct dso *dso;
	uint64_t addr;
	uint8_t n;
	struct symbol *syms[7];
	struct inline_entry *next;
};

#define INLINE_BUCKETS 65536
static struct inline_entry **inline_cache;

/* one symbol per (real symbol, inlined name): the graph groups frames by pointer,
 * and the offset shown is from the start of the function the code is in */
static struct symbol *inline_symbol(const struct symbol *real, const char *name)
{
	static struct isym { const struct symbol *real; struct symbol *sym; struct isym *next; } **tab;
	size_t h = (uintptr_t)real >> 4;

	for (const char *p = name; *p; p++)
		h = h * 31 + (unsigned char)*p;
	h %= INLINE_BUCKETS;
	if (!tab)
		tab = xzalloc(INLINE_BUCKETS * sizeof(*tab));
	for (struct isym *i = tab[h]; i; i = i->next)
		if (i->real == real && !strcmp(i->sym->name, name))
			return i->sym;
	struct isym *i = xmalloc(sizeof(*i));

	i->sym = xzalloc(sizeof(*i->sym) + strlen(name) + 1);
	i->sym->start = real->start;
	i->sym->end = real->end;
	i->sym->binding = real->binding;
	i->sym->type = real->type;
	strcpy(i->sym->name, name);
	i->real = real;
	i->next = tab[h];
	tab[h] = i;
	return i->sym;
}

static const struct inline_entry *inline_lookup(struct machine *m, const struct hist_frame *f)
{
	size_t h = (((uintptr_t)f->dso >> 4) ^ (f->addr * 0x9e3779b97f4a7c15ull >> 16)) % INLINE_BUCKETS;
	struct inline_entry *e;
	struct inline_frame chain[8];
	int n;

	if (!inline_cache)
		inline_cache = xzalloc(INLINE_BUCKETS * sizeof(*inline_cache));
	for (e = inline_cache[h]; e; e = e->next)
		if (e->dso == f->dso && e->addr == f->addr)
			return e;
	e = xzalloc(sizeof(*e));
	e->dso = f->dso;
	e->addr = f->addr;
	n = dso__inline_chain(&m->dsos, f->dso, f->addr, chain, (int)ARRAY_SIZE(chain));
	/* the last of the chain is the out-of-line function itself */
	for (int i = 0; i < n - 1 && e->n < ARRAY_SIZE(e->syms); i++)
		if (chain[i].func)
			e->syms[e->n++] = inline_symbol(f->sym, chain[i].func);
	e->next = inline_cache[h];
	inline_cache[h] = e;
	return e;
}

/* callers only: the sampled frame is the histogram entry and stays the real symbol */
static size_t expand_inline(struct machine *m, struct hist_frame *frames, size_t n, size_t max)
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
			const struct inline_entry *e = inline_lookup(m, f);

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
	if (max > 1 && unwind__can_unwind(s)) {
		n = resolve_unwound(m, s, frames, max, thread);
		return callchain_inline ? expand_inline(m, frames, n, max) : n;
	}
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
	if (callchain_inline && n > 1)
		n = expand_inline(m, frames, n, max);
	return n;
}
