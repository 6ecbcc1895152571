/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_SESSION_H
#define PERF_UTIL_SESSION_H

/*
 * Reads a perf.data (file or pipe), decodes samples against their evsel,
 * feeds the machine model in timestamp order (an ordered queue flushed at
 * FINISHED_ROUND, like perf) and calls the tool's callbacks.
 */
#include <stdbool.h>
#include <stdint.h>
#include "data.h"
#include "event.h"
#include "evsel.h"
#include "machine.h"
#include "sample.h"

struct perf_session;

struct perf_tool {
	/* a SAMPLE, after the machine saw everything before it in time */
	int (*sample)(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
		      struct perf_sample *sample, struct evsel *evsel);
	/* every other record, after machine__process_event (inject copies them) */
	int (*other)(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
		     struct perf_sample *sample);
	/* LOST / LOST_SAMPLES are counted into the session as well */
	bool no_ordering;              /* process in file order */
};

struct perf_session {
	struct perf_data_reader reader;
	struct evsel *evsels;
	size_t nr_evsels;
	struct machine machine;
	uint64_t nr_events[PERF_RECORD_HEADER_MAX];
	uint64_t nr_lost_samples;      /* from LOST_SAMPLES: perf's "Total Lost Samples" */
	uint64_t nr_lost_events;       /* from LOST: ring-buffer overflows */
	uint64_t nr_unknown;
	bool one_evsel;                /* single attr: no id needed */
	void *ids;                     /* id -> evsel hash */
	struct trace_formats *tformats; /* from the tracing data, parsed on first need */
	bool tformats_tried;
};

/* the tracepoint formats of the session (NULL if it has none) */
struct trace_formats *perf_session__trace_formats(struct perf_session *s);

/* NULL after a one-line error */
struct perf_session *perf_session__open(const char *path);
int perf_session__process_events(struct perf_session *s, struct perf_tool *tool);
void perf_session__delete(struct perf_session *s);

struct evsel *perf_session__evsel_of(struct perf_session *s, const union perf_event *ev);

#endif
