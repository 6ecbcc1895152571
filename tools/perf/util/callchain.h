/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_CALLCHAIN_H
#define PERF_UTIL_CALLCHAIN_H

#include <stddef.h>
#include "hist.h"
#include "machine.h"
#include "sample.h"

/*
 * Resolves a sample into frames: [0] the sampled ip, then its callers from
 * PERF_SAMPLE_CALLCHAIN (context markers switch between kernel and user).
 * Returns the number of frames written (at most max, at least 1).
 */
size_t sample__resolve_frames(struct machine *m, const struct perf_sample *s,
			      struct hist_frame *frames, size_t max, struct thread **thread);

/*
 * When set, every caller frame whose address is in inlined code is preceded
 * by the functions inlined there (innermost first, hist_frame.inlined), from
 * the DSO's DWARF in-process (dso__inline_chain), cached per address.
 * perf report / script --inline (their default, like perf 6.1).
 */
extern bool callchain_inline;

/* true for PERF_CONTEXT_* markers inside a callchain */
static inline int callchain_is_context(uint64_t ip)
{
	return ip >= (uint64_t)-4095;
}

#endif
