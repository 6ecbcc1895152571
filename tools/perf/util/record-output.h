/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_RECORD_OUTPUT_H
#define PERF_UTIL_RECORD_OUTPUT_H

/*
 * The writing side of perf record: the perf.data writer with the evlist's
 * attrs, the ring buffers drained into it (through zstd with -z), what
 * was written counted for the closing lines, and the features known only
 * at the end (SAMPLE_TIME, BUILD_ID of the DSOs hit, COMPRESSED).
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "data.h"
#include "event.h"
#include "evlist.h"
#include "header.h"
#include "machine.h"

struct perf_compressor;

struct record_output {
	struct perf_data_writer writer;
	bool open;
	bool failed;                   /* a write failed: stop recording */
	const char *path;
	bool pipe;
	struct evlist *evlist;
	struct machine machine;        /* side-band model, to find the DSOs hit */
	bool track_hits;
	int time_pos;                  /* offset of SAMPLE time from the header end */
	int comp_level;
	size_t mmap_pages;
	struct perf_compressor *zc;
	struct feat_buf zstage;        /* one ring's records, compressed together */

	uint64_t samples, lost_events, lost_chunks, lost_samples;
	uint64_t bytes_written;
	uint64_t first_time, last_time;
};

/*
 * Opens path ("-" for pipe format on stdout; an existing file is kept as
 * path.old, like perf) and adds the evlist's attrs with the ids that were
 * opened. track_hits: follow the side-band to write BUILD_ID at the end.
 * comp_level 0: no compression. -1 after a message.
 */
int record_output__open(struct record_output *o, const char *path, struct evlist *el,
			bool track_hits, int comp_level, size_t mmap_pages);

/* Writes the header (pipe: attrs and features so far). */
int record_output__start(struct record_output *o);

/* Appends bytes; a synth_target's process callback (arg is the output). */
int record_output__write(struct record_output *o, const void *buf, size_t size);
int record_output__synth(void *arg, const union perf_event *ev);

/*
 * Records for what existed before the start: ID_INDEX, the kernel map,
 * THREAD_MAP, CPU_MAP, the workload's COMM (child > 0), every process
 * (system_wide) or the pids', then FINISHED_INIT. -1 on a write error.
 */
int record_output__synthesize(struct record_output *o, pid_t child, const pid_t *pids, int nr_pids,
			      bool system_wide);

/* Copies what the rings hold, then a FINISHED_ROUND; bytes copied, -1 on a write error. */
int64_t record_output__drain(struct record_output *o);

/* PERF_FORMAT_LOST read from the events, stored as LOST_SAMPLES like perf 6.1. */
void record_output__read_lost_samples(struct record_output *o);

/* The end-of-recording features (file mode), then closes. -1 after a message. */
int record_output__close(struct record_output *o);

/* bytes given to zstd and bytes it produced; 0, 0 without -z */
void record_output__comp_totals(const struct record_output *o, uint64_t *in, uint64_t *out);

/* Frees everything (also after a failed open or start). */
void record_output__exit(struct record_output *o);

#endif
