// SPDX-License-Identifier: MIT
#include <string.h>
#include "callchain.h"
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
