/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_PARSE_EVENTS_H
#define PERF_UTIL_PARSE_EVENTS_H

/*
 * Event names as perf spells them ("cpu-clock", "cycles:u",
 * "sched:sched_switch") turned into perf_event_attr type/config and the
 * exclude_* / precise_ip modifier bits. Sampling defaults are evlist's job.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct parsed_event {
	struct perf_event_attr attr;   /* type, config, exclude_*, precise_ip only */
	char *name;                    /* as given, e.g. "cycles:u" */
	char *tp_system, *tp_event;    /* tracepoints only */
	bool has_modifier;             /* any :ukhpPHG given */
};

/*
 * Parses one event or a comma-separated list, appending to *evs / *nr.
 * Returns 0, or -1 after a one-line error naming the bad event.
 */
int parse_events(const char *str, struct parsed_event **evs, size_t *nr);

/* A hardware or software event perf knows by name. */
struct event_symbol {
	uint32_t type;
	uint64_t config;
	const char *name;        /* what perf calls such an event ("cycles") */
	const char *list_name;   /* perf list's first spelling ("cpu-cycles") */
	const char *alias;       /* the other spelling -e takes ("cycles"), or NULL */
};
/* All of them, hardware first, each type sorted by list_name as perf list shows them. */
const struct event_symbol *event_symbols__table(size_t *nr);

/* "cpu-clock", "cycles", ... for a HARDWARE/SOFTWARE type/config, or NULL */
const char *event_symbol__name(uint32_t type, uint64_t config);

/*
 * perf's display name of an event: the symbolic name plus the modifiers its
 * exclude_* / precise_ip bits imply ("cpu-clock:uH", "cpu-clock:ppp").
 */
char *event_name__with_modifiers(const char *base, const struct perf_event_attr *attr);

void parsed_event__exit(struct parsed_event *ev);

#endif
