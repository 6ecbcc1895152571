/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_EVSEL_H
#define PERF_UTIL_EVSEL_H

/*
 * One event: its attr and display name, whether it was read from a
 * perf.data (session) or is being opened by perf record (evlist). Each side
 * fills its own fields and leaves the other's zero.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct evsel {
	struct perf_event_attr attr;
	char *name;                    /* "cpu-clock", "sched:sched_switch", ... */

	/* read from a file (session.c) */
	int idx;
	unsigned id_hdr_size;
	uint64_t nr_samples;
	uint64_t total_period;
	void *priv;                    /* tracepoint format etc. */

	/* opened by perf record (evlist.c) */
	char *tp_system, *tp_event;
	bool user_requested;           /* from -e (fallbacks are announced) */
	int *fds;                      /* [cpu][thread] */
	uint64_t *ids;                 /* same layout; 0 where not opened */
	size_t nr_ids;
};

#endif
