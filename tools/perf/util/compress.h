/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_COMPRESS_H
#define PERF_UTIL_COMPRESS_H

/*
 * zstd for perf.data: PERF_RECORD_COMPRESSED records and the
 * HEADER_COMPRESSED feature (../shared/specs/perf-data-records-2.md).
 *
 * One compression (decompression) stream runs over a whole file, as perf
 * 6.1 writes and reads it: a COMPRESSED record's payload continues the
 * zstd stream of the one before, and a decompressed perf record may start
 * in one COMPRESSED record and end in the next. Both handles are opaque and
 * owned by the caller; nothing here is process-wide.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PERF_COMP_ZSTD          1
/* the spec says 1; perf 6.1 writes 0 and no reader checks it: we write what perf writes */
#define PERF_COMP_VERSION       0
#define PERF_COMP_LEVEL_DEFAULT 1
#define PERF_COMP_LEVEL_MAX     22
/* header.size is a u16: a COMPRESSED record carries at most this many zstd bytes */
#define PERF_COMP_MAX_PAYLOAD   (0xffff - 8)

/* HEADER_COMPRESSED: five u32; mmap_len bounds what one COMPRESSED record expands to */
struct perf_comp_feature {
	uint32_t version, type, level, ratio, mmap_len;
};

/* 0, or -1 when size is not 20 bytes */
int perf_comp_feature__decode(struct perf_comp_feature *f, const void *data, size_t size);
void perf_comp_feature__encode(const struct perf_comp_feature *f, unsigned char out[20]);

struct perf_compressor;

/* NULL (message printed) when zstd refuses the level */
struct perf_compressor *perf_compressor__new(int level);
void perf_compressor__delete(struct perf_compressor *c);

/*
 * Compresses `size` bytes of whole perf records and flushes the stream, so
 * a reader has all of them once it has read the records emitted here. The
 * output goes to emit() as COMPRESSED records (header included) of at most
 * PERF_COMP_MAX_PAYLOAD payload bytes. Returns 0, or -1 (message printed)
 * on a zstd error or when emit() fails.
 */
int perf_compressor__records(struct perf_compressor *c, const void *in, size_t size,
			     int (*emit)(void *arg, const void *rec, size_t size), void *arg);

/* bytes given / bytes emitted so far (for the feature's ratio) */
void perf_compressor__totals(const struct perf_compressor *c, uint64_t *in, uint64_t *out);

struct perf_decompressor;

struct perf_decompressor *perf_decompressor__new(void);
void perf_decompressor__delete(struct perf_decompressor *d);

/*
 * Decompresses one COMPRESSED record's payload, appending the output to
 * *buf (len *len, capacity *cap, grown with realloc). The output of one
 * payload is bounded by `limit` bytes: a payload that expands further is
 * refused rather than allowed to exhaust memory. Returns the bytes
 * appended, or -1 with a description of the problem in err.
 */
long perf_decompressor__feed(struct perf_decompressor *d, const void *payload, size_t size,
			     unsigned char **buf, size_t *len, size_t *cap, size_t limit,
			     char *err, size_t errlen);

#endif
