/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_HIST_OUTPUT_H
#define PERF_UTIL_HIST_OUTPUT_H

/*
 * perf report's stdio layout of a histogram: the column header, one row per
 * entry and its call graph (graph, fractal, flat or folded), onto a FILE the
 * caller owns. The layout is perf 6.1's, byte for byte.
 */
#include <stdio.h>
#include "callchain.h"
#include "hist.h"

struct hist_output {
	const struct callchain_param *cc;   /* how to show chains (hists.callchains: whether) */
	double percent_limit;               /* rows under it are left out */
	bool show_nr_samples;               /* -n: a Samples column */
	bool quiet;                         /* rows only, no `#` lines */
	bool hide_first_sym;                /* --sort sym...: a lone chain's first frame is the row's */
	int cols[MAX_FIELDS + MAX_SORT_KEYS]; /* report -F: the columns in order (keys and enum hist_field) */
	int nr_cols;                        /* 0: perf's default columns */
	bool cols_plus;                     /* -F +...: perf's default columns head them */
	bool hierarchy;                     /* --hierarchy: one level per key (no graphs) */
	unsigned hide_key;                  /* 1 << sort_key: columns a one-value filter made constant */
};

/* one event's histogram: "# Samples: ..." block, header and rows */
void hists__fprintf(FILE *f, struct hists *h, const struct hist_output *o,
		    const char *event_name, uint64_t nr_samples, uint64_t total_period);

/* the closing "# (Tip: ...)" block of a report */
void hist_output__fprintf_tip(FILE *f);

#endif
