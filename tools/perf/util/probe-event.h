/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_PROBE_EVENT_H
#define PERF_UTIL_PROBE_EVENT_H

/*
 * Uprobe events through tracefs uprobe_events (shared/specs/uprobes-tracefs.md):
 * add a set of definitions all-or-nothing, delete by glob, list.
 */
#include <stdbool.h>
#include <stddef.h>

struct probe_event {
	char type;            /* 'p' or 'r' */
	char *group, *event;
	char *path;
	unsigned long long offset, ref_ctr;   /* ref_ctr 0 = none */
	char *args;           /* everything after the place ("" if none) */
};

/* The events listed in uprobe_events. Returns the count, -1 without tracefs. */
int probe_events__list(struct probe_event **evs);
void probe_events__free(struct probe_event *evs, int nr);
bool probe_event__exists(const char *group, const char *event);

/* A set of GROUP/EVENT names we created (for cleanup). */
struct probe_names {
	char **v;             /* "group/event" */
	size_t nr;
};
void probe_names__exit(struct probe_names *n);

/*
 * Writes the definitions @lines. Every line is validated first (nothing is
 * written when one is bad). When the kernel refuses one, everything this
 * call added is removed again and -1 returned with the kernel's reason.
 * Events a line names that already exist are refused (-1, nothing written)
 * unless the caller renamed them. On success the new GROUP/EVENT names are
 * appended to @added (if non-NULL).
 */
int probe_events__add(char **lines, size_t nr, struct probe_names *added);

/*
 * Deletes GROUP/EVENT. 0 deleted, 1 in use (EBUSY: kept, not an error),
 * -1 error (message printed unless quiet_missing and it did not exist).
 */
int probe_event__del(const char *group, const char *event);

/* Deletes every uprobe event matching "GROUP:EVENT" globs; returns the count deleted, calls @cb per event. */
int probe_events__del_glob(const char *group_glob, const char *event_glob,
			   void (*cb)(const char *group, const char *event, int result, void *arg), void *arg);

/* Deletes what @names holds (reverse order), ignoring EBUSY. */
void probe_names__del_all(struct probe_names *names);

/*
 * Rewrites a definition's GROUP/EVENT ("p:G/E rest" -> "p:G/NEWE rest"),
 * malloc'ed.
 */
char *probe_line__rename(const char *line, const char *group, const char *event);
/* Extracts GROUP and EVENT of a "p:G/E ..." line (malloc'ed); 0 or -1. */
int probe_line__names(const char *line, char **group, char **event);

/* Free event name based on @event: event, event_1, event_2 ... not in uprobe_events. */
char *probe_event__free_name(const char *group, const char *event);

#endif
