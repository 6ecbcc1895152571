/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_MMAP_H
#define PERF_UTIL_MMAP_H

/*
 * A perf_event ring buffer read from user space. The kernel advances
 * data_head; we read records between our tail and that head, then publish
 * the new tail so the kernel can reuse the space.
 */
#include <stddef.h>
#include <stdint.h>
#include "event.h"

struct perf_mmap {
	void *base;                /* control page followed by the data pages */
	size_t map_len;
	unsigned char *data;
	uint64_t mask;             /* data size - 1 (a power of two) */
	uint64_t start, end;       /* bytes [start, end) are readable this round */
	int fd;
	int cpu;                   /* -1 for a per-thread buffer */
	unsigned char *copy;       /* a record that wraps the ring, copied out whole */
	size_t copy_cap;
};

/* Maps 1 + data_pages pages of fd (data_pages a power of two). -1 on error. */
int perf_mmap__open(struct perf_mmap *m, int fd, int cpu, size_t data_pages);
void perf_mmap__close(struct perf_mmap *m);

/* Snapshots the head. Returns the number of readable bytes. */
uint64_t perf_mmap__read_init(struct perf_mmap *m);

/*
 * Next record of this round, or NULL when the round is consumed. The
 * pointer is into the ring (or the copy buffer) and valid until
 * perf_mmap__read_done.
 */
union perf_event *perf_mmap__read_event(struct perf_mmap *m);

/* Hands the consumed space back to the kernel. */
void perf_mmap__read_done(struct perf_mmap *m);

#endif
