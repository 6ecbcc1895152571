/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_SCRIPT_FILTER_H
#define PERF_UTIL_SCRIPT_FILTER_H

/*
 * Which samples perf script prints: --comms, --pid, --tid, -C/--cpu,
 * -S/--symbols, --dsos and --time, as perf 6.1 applies them (side-band
 * records are filtered by CPU only).
 */
#include <stdbool.h>
#include <stdint.h>
#include "hist.h"
#include "machine.h"
#include "sample.h"

struct name_list {
	char **names;
	size_t nr, cap;
};

struct script_filter {
	struct name_list comms, syms, dsos;
	int32_t *pids, *tids;
	size_t nr_pids, nr_tids;
	uint8_t *cpus;                /* bitmap, NULL = all */
	size_t cpus_bytes;
	uint64_t time_start, time_end; /* 0 = open */
};

void script_filter__exit(struct script_filter *sf);

/* each returns 0, or -1 after a message naming the bad part */
int script_filter__add_names(struct name_list *l, const char *csv);
int script_filter__add_ids(int32_t **ids, size_t *nr, const char *csv, const char *what);
int script_filter__set_cpus(struct script_filter *sf, const char *list);
int script_filter__set_time(struct script_filter *sf, const char *span);

bool script_filter__cpu_ok(const struct script_filter *sf, uint32_t cpu);
/* a sample, given what its address resolved to (frame) and its thread */
bool script_filter__sample_ok(const struct script_filter *sf, const struct perf_sample *sample,
			      const struct thread *thread, const struct hist_frame *frame);

#endif
