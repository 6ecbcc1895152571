/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_PROBE_EVENT_H
#define PERF_UTIL_PROBE_EVENT_H

/*
 * Uprobe events through tracefs uprobe_events (Documentation/formats/uprobes-tracefs.md):
 * add a set of definitions all-or-nothing, delete by glob, list.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
	size_t nr, cap;
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

/*
 * A probe point: FUNC, FUNC+OFF, FUNC:RELLINE, FUNC@FILE (with any of the
 * former), FILE:LINE, FUNC%return, FUNC;PATTERN (lazy: lines whose source
 * contains PATTERN, a glob).
 */
struct probe_point {
	char *function;          /* NULL for FILE:LINE */
	char *file;              /* FUNC@FILE or FILE:LINE */
	int line;                /* FILE:LINE, else 0 */
	int rel_line;            /* FUNC:RELLINE (-1 = none) */
	uint64_t offset;         /* FUNC+OFF */
	bool has_offset;
	bool retprobe;
	char *lazy;              /* FUNC;PATTERN */
};

/* Parses a point; -1 with a message. */
int probe_point__parse(const char *spec, struct probe_point *pp);
void probe_point__exit(struct probe_point *pp);

/* "p:GROUP/EVENT PATH:0xOFF [ARGS]" ('r:' for a return probe), malloc'ed. */
char *probe_line__format(bool retprobe, const char *group, const char *event, const char *path,
			 uint64_t offset, const char *args);

/*
 * Probe definitions "[[GROUP:]NAME=]POINT [ARGS...]" turned into uprobe
 * lines. POINT is "%[sdt_]PROVIDER:NAME" (the probe cache), or with a
 * target a DWARF point (see struct probe_point) or SYMBOL[+OFF][%return]
 * from the symbol table when the binary has no DWARF for it.
 */
struct probe_def_opts {
	const char *target;      /* -x BINARY, or NULL */
	bool dry_run;            /* do not look at existing events */
	bool force;              /* an existing name becomes NAME_1, ... */
};

/* One event a definition adds, for perf probe's report. */
struct probe_added {
	char *name;              /* GROUP:EVENT */
	char *on;                /* the point as the user wrote it ("%gc__start", "compute:3") */
	char *path;              /* the binary */
	char *with;              /* the user's arguments, or NULL */
};

struct probe_plan {
	char **lines;            /* uprobe_events lines, in order */
	size_t nr_lines, cap_lines;
	struct probe_added *added;
	size_t nr_added, cap_added;
};

/*
 * Appends the lines and report entries of @def to @p. *spec gets the
 * header of its '#' probe-cache entry as perf 6.1 writes it ("G:E=POINT
 * ARGS" when named, else "POINT ARGS"; NULL for cached events, which are
 * in the cache already). 0, or after a message a
 * negative errno as perf 6.1 exits with it: -ENOENT (no such function,
 * variable, symbol or cached event), -EINVAL (bad syntax or type), -EEXIST.
 */
int probe_plan__add_def(struct probe_plan *p, const struct probe_def_opts *o, const char *def,
			char **spec);
void probe_plan__exit(struct probe_plan *p);

/* The syntax of @def only (names, point): 0 or -EINVAL after a message. */
int probe_def__check(const struct probe_def_opts *o, const char *def);

/* -F: perf's default filter of function names (no _names, no PLT stubs) */
#define PROBE_FUNCS_FILTER "!_* & !*@plt"

/*
 * Does @name pass @filter: globs joined by '&' and '|' ('|' looser), each
 * optionally negated by '!', as perf's --filter takes them?
 */
bool probe_filter__match(const char *filter, const char *name);

/*
 * The function names of the ELF file @path that pass @filter (NULL = the
 * default), sorted, one each. Returns the count (malloc'ed *names), or
 * -ENOENT after a message.
 */
int probe_funcs__list(const char *path, const char *filter, char ***names);

#endif
