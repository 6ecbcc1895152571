/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_PERF_MAP_H
#define PERF_UTIL_PERF_MAP_H

#include <sys/types.h>
#include "symbol.h"

/*
 * Symbols of /tmp/perf-PID.map: lines "START SIZE NAME" (hex, NAME to the
 * end of the line), absolute addresses. Malformed lines are skipped. Like
 * perf, the file is ignored unless owned by root or by the user running us.
 * Returns the number added, or -1 when the file is missing or ignored.
 */
int perf_map__load(const char *path, struct symtab *t);

/*
 * The same from an open descriptor (a container's map, opened inside its
 * root): also trusted when owned by owner, the uid of the process it
 * describes ((uid_t)-1: nobody else). path is only for messages. Where
 * entries overlap, the later line wins (writers append; see perf-map.c).
 */
int perf_map__load_fd(int fd, const char *path, uid_t owner, struct symtab *t);

/* The pid in "/tmp/perf-PID.map", or -1 if path has another form. */
int perf_map__pid(const char *path);

#endif
