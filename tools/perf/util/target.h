/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_TARGET_H
#define PERF_UTIL_TARGET_H

/*
 * What perf record -p / -t attach to: the threads to open events on and
 * the processes whose state is synthesized, from /proc.
 */
#include <stdbool.h>
#include <sys/types.h>

struct target {
	pid_t *threads;            /* the tids events are opened on */
	int nr_threads;
	pid_t *pids;               /* their processes, each once */
	int nr_pids;
	size_t alloc_threads, alloc_pids;
};

/*
 * list is "1,2,3" (commas or spaces). by_tid: -t, the threads themselves;
 * else -p, every thread of each process. -1 after a message naming the
 * problem (bad list, a pid that does not exist).
 */
int target__resolve(struct target *t, const char *list, bool by_tid);

void target__exit(struct target *t);

#endif
