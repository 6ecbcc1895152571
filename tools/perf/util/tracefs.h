/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_TRACEFS_H
#define PERF_UTIL_TRACEFS_H

/*
 * Access to the kernel's tracefs (Documentation/formats/uprobes-tracefs.md §1):
 * where it is, event ids and format files, and the list of event systems.
 */
#include <stddef.h>
#include <stdint.h>

/*
 * The tracefs root: /sys/kernel/tracing, else /sys/kernel/debug/tracing;
 * when neither is mounted, tries to mount tracefs at /sys/kernel/tracing.
 * Looked up on each call (no state kept); the string returned is a constant.
 * NULL (with pr_debug) when unavailable.
 */
const char *tracefs__mountpoint(void);

/* "<root>/<rel>" malloc'ed, or NULL when tracefs is unavailable. */
char *tracefs__path(const char *rel);

/* Whole file "<root>/<rel>" NUL-terminated and malloc'ed; NULL + errno on error. */
char *tracefs__read(const char *rel, size_t *size);

/* Tracepoint id from events/<sys>/<event>/id; -1 when it does not exist. */
int tracefs__event_id(const char *sys, const char *event);

/* Text of events/<sys>/<event>/format (malloc'ed); NULL when absent. */
char *tracefs__event_format(const char *sys, const char *event, size_t *size);

/*
 * Finds the event whose id file says @id by scanning events/ ; *sys and
 * *event get malloc'ed names. 0 on success, -1 when no event has that id.
 */
int tracefs__event_by_id(uint64_t id, char **sys, char **event);

/*
 * Calls @cb for each tracepoint (every events/<sys>/<event> directory that
 * has an id file), systems and events in alphabetical order. A non-zero
 * return from @cb stops the walk and is returned. -1 when tracefs is absent.
 */
typedef int (*tracefs_event_cb)(const char *sys, const char *event, void *arg);
int tracefs__for_each_event(tracefs_event_cb cb, void *arg);

/*
 * The same, only in the systems whose name matches the fnmatch(3) pattern
 * @sys_glob: a spec names its system, and looking into the other ~100
 * systems costs an access(2) per event (some 3,000 here) each time.
 */
int tracefs__for_each_event_in(const char *sys_glob, tracefs_event_cb cb, void *arg);

#endif
