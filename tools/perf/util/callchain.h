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
 * A resolver that also shows inlined callers (report / script --inline):
 * every caller frame whose address is in inlined code is preceded by the
 * functions inlined there (innermost first, hist_frame.inlined), from the
 * DSO's DWARF (dso__inline_chain). What it learns per address lives in the
 * resolver, for as long as the session that owns it.
 */
struct inline_cache;
struct callchain_resolver {
	struct machine *machine;
	bool inline_frames;
	struct inline_cache *cache;
};

void callchain_resolver__init(struct callchain_resolver *r, struct machine *m, bool inline_frames);
void callchain_resolver__exit(struct callchain_resolver *r);
size_t callchain_resolver__frames(struct callchain_resolver *r, const struct perf_sample *s,
				  struct hist_frame *frames, size_t max, struct thread **thread);

/* How a call graph is shown: -g/--call-graph print_type,threshold,limit,order,key,value */
enum callchain_mode { CHAIN_NONE, CHAIN_GRAPH_ABS, CHAIN_GRAPH_REL, CHAIN_FLAT, CHAIN_FOLDED };
enum callchain_value { CCVAL_PERCENT, CCVAL_PERIOD, CCVAL_COUNT };

struct callchain_param {
	enum callchain_mode mode;
	bool caller_order;      /* root first */
	bool order_set;         /* given explicitly (else it follows --children) */
	double min_percent;     /* threshold: branches below are not shown */
	unsigned print_limit;   /* 0: all */
	bool address;           /* sort key address: frames by address, not function */
	enum callchain_value value;
};

/* perf's defaults: graph, 0.5%, function, percent */
void callchain_param__init(struct callchain_param *p);

/*
 * Applies a comma-separated spec. Every word may be abbreviated (the first
 * keyword in perf's order that it starts wins: "f" is flat, "c" caller);
 * the first number is the threshold, the second the print limit.
 * -1 with a message on a word that is none of these.
 */
int callchain_param__parse(struct callchain_param *p, const char *spec);

/* true for PERF_CONTEXT_* markers inside a callchain */
static inline int callchain_is_context(uint64_t ip)
{
	return ip >= (uint64_t)-4095;
}

#endif
