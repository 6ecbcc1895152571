/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_JIT_INJECT_H
#define PERF_UTIL_JIT_INJECT_H

/*
 * The --jit mode of perf inject: turns the jitdumps a profiled runtime wrote
 * into ELF files (util/genelf) next to each dump and into MMAP2 records that
 * map those files where the code lived, at the time it was there.
 *
 * The copier hands every record of the stream (file order) to
 * jit_inject__process() before copying it. A record whose filename marks a
 * jitdump (../shared/specs/jitdump.md section 1) makes the whole dump be
 * read at once: ELFs are written right away, their MMAP2 records wait in a
 * queue sorted by time and are written just before the first input record
 * that is later than them, so the output is in time order wherever the
 * input was. FINISHED_ROUND records are dropped (as perf does), because the
 * inserted records would break their promise; readers then sort globally.
 */
#include <stdbool.h>
#include <stdint.h>
#include "data.h"
#include "event.h"

struct jit_inject_opts {
	bool buildid_cache;       /* also add the sampled ELFs to the build-id cache */
	/*
	 * perf 6.1's layout: jitted-<pid>-<code_index>.so per function. The
	 * default is one jitted-<pid>.so per dump holding every function
	 * without unwinding info at its own offset (perf resolves it the same
	 * way and it costs one file instead of thousands).
	 */
	bool elf_per_function;
};

struct jit_inject;

/* in/out stay owned by the caller and must outlive the jit_inject */
struct jit_inject *jit_inject__new(const struct perf_data_reader *in, struct perf_data_writer *out,
				   const struct jit_inject_opts *opts);

/*
 * 0 = copy ev unchanged, 1 = ev was consumed (dropped or replaced),
 * -1 = fatal error (message printed; e.g. the clock check).
 */
int jit_inject__process(struct jit_inject *ji, union perf_event *ev);

/* Writes the queued records, the BUILD_ID feature of the sampled ELFs, fills the cache. */
int jit_inject__finish(struct jit_inject *ji);

void jit_inject__delete(struct jit_inject *ji);

/*
 * The marker rule: basename "jit-<digits>.dump" after a '/', digits == pid
 * unless pid is 0 (records of the idle/unknown context).
 */
bool jit_inject__is_marker(const char *filename, uint32_t pid);

/* N of a basename "jit-<N>.dump" after a '/', else -1 */
long jit_inject__dump_number(const char *filename);

struct jit_inject_stats {
	uint64_t dumps, loads, moves, elfs_written, elfs_reused, mmaps_emitted, maps_dropped;
	uint64_t samples_in_jit, samples_hit;
};

void jit_inject__stats(const struct jit_inject *ji, struct jit_inject_stats *st);

#endif
