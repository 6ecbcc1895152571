// SPDX-License-Identifier: MIT
#include <string.h>
#include "callchain.h"

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

size_t sample__resolve_frames(struct machine *m, const struct perf_sample *s,
			      struct hist_frame *frames, size_t max, struct thread **thread)
{
	const struct ip_callchain *cc = s->callchain;
	uint8_t cpumode = s->cpumode;
	size_t n = 0;
	bool first = true;

	if (thread)
		*thread = NULL;
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
