/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_PROBE_FINDER_H
#define PERF_UTIL_PROBE_FINDER_H

/*
 * Probe points and arguments resolved from DWARF (libdw) into uprobe
 * places and fetchargs (Documentation/formats/uprobes-tracefs.md).
 *
 * Points (struct probe_point, probe-event.h): an inlined FUNC is probed at
 * every inline site.
 *
 * A line probe gets one address per execution of the statement: the first
 * is_stmt row of each run of rows of that line, per function instance.
 *
 * Arguments: [NAME=]EXPR[:TYPE] where EXPR is VAR, VAR->FIELD, VAR.FIELD,
 * VAR[N] (chained), $params, $vars, $retval, or a raw fetcharg (%REG, @ADDR,
 * +OFF(...), $stackN, $comm). Values the uprobe cannot fetch exactly are
 * refused naming the variable and the reason; nothing is guessed.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe-event.h"

/* One probe address with its fetchargs. */
struct probe_site {
	uint64_t addr;           /* ELF virtual address */
	uint64_t offset;         /* file offset (uprobe place) */
	char *func;              /* function whose code is there (the inline one when inlined) */
	uint64_t func_off;       /* addr - entry of that instance */
	bool inlined;
	char *args;              /* fetchargs joined by ' ', "" when none */
};

struct probe_sites {
	struct probe_site *v;
	size_t nr, cap;
	char *event;             /* default event name: compute, compute_L3, compute__return */
	char *debugfile;         /* where the DWARF came from */
};

/*
 * Resolves @pp with @args in @binary. 0, or -1 with a message (no DWARF,
 * no such function/line, a variable that cannot be fetched ...).
 */
int probe_finder__find(const char *binary, const struct probe_point *pp,
		       char *const *args, size_t nargs, struct probe_sites *out);
void probe_sites__exit(struct probe_sites *s);

/* -L: the probe-able lines of a function (or FILE:START[-END] range). */
struct probe_lines {
	char *file;              /* source path as in DWARF (comp_dir joined) */
	char *func;              /* NULL for a file range */
	int start, end;          /* absolute lines: decl line .. last line */
	int show_end;            /* the listing goes on to here (the next line with code) */
	int base;                /* line numbered 0 (decl line), 0 for file ranges */
	bool *ok;                /* ok[l - start]: a probe can be put on line l */
};
/* spec: FUNC[:START[-END]] or FILE:START[-END] (numbers relative to FUNC's decl line). */
int probe_finder__lines(const char *binary, const char *spec, struct probe_lines *out);
void probe_lines__exit(struct probe_lines *l);

/* -V: the variables available at each site of a point. */
struct probe_var {
	char *type;              /* "int", "struct point", "char*" */
	char *name;
	char *why;               /* NULL = fetchable; else why not (optimised out ...) */
};
struct probe_vars_site {
	char *where;             /* "compute+0" */
	struct probe_var *v;     /* sorted by "type\tname" */
	size_t nr, cap;
};
struct probe_vars {
	char *point;
	struct probe_vars_site *sites;
	size_t nr, cap;
};
int probe_finder__vars(const char *binary, const struct probe_point *pp, bool externs,
		       struct probe_vars *out);
void probe_vars__exit(struct probe_vars *v);

#endif
