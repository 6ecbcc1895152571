/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_DATA_H
#define PERF_UTIL_DATA_H

/*
 * perf.data I/O, file mode and pipe mode (Documentation/formats/perf-data.md).
 * The reader hands out records in file order; ordering by time is the
 * session's job. The writer lays files out as perf 6.1 does.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "event.h"
#include "header.h"

struct perf_feature_blob {
	void *data;                    /* payload exactly as in the file (file byte order) */
	uint64_t size;
};

struct perf_data_reader {
	const char *path;              /* "-" for stdin */
	int fd;
	bool is_pipe;                  /* pipe format (16-byte header), from a pipe or a file */
	bool needs_swap;               /* other-endian file (refused today, see open) */
	uint64_t file_size;
	uint64_t data_offset, data_size;   /* file mode */
	uint64_t adds_features[4];     /* header bitmap (file mode); pipe mode: bits of HEADER_FEATUREs seen */

	struct perf_file_attr *attrs;
	size_t nr_attrs, cap_attrs;
	struct perf_feature_blob feat[HEADER_FEAT_BITS];

	/* tracing data: feature 1 (file) or the payload of a HEADER_TRACING_DATA record (pipe) */
	const void *tracing_data;
	uint64_t tracing_data_size;

	/* private iteration state */
	unsigned char *map;            /* mmap of a regular file */
	uint64_t pos;                  /* offset of the next record */
	unsigned char *buf;            /* record buffer for pipe reads */
	size_t buf_cap;
	unsigned char *tail_buf;       /* payload after a pipe TRACING_DATA record */
	uint64_t tail_size;

	/* added by the data.c implementation (private) */
	size_t map_size;
	uint64_t data_end;             /* end of the record stream (file offset) */
	bool tail_owned;               /* tail_buf malloc'ed (fd input) rather than in the map */
	bool at_eof;
	unsigned char *inbuf;          /* read-ahead buffer of fd input */
	size_t inbuf_pos, inbuf_len, inbuf_cap;
	uint64_t nr_unknown_skipped;   /* records of type >= PERF_RECORD_HEADER_MAX dropped */

	/*
	 * PERF_RECORD_COMPRESSED: next() decompresses them and hands out the
	 * records inside in their place; the COMPRESSED records themselves are
	 * only counted.
	 */
	struct perf_decompressor *zd;
	unsigned char *zbuf;           /* decompressed bytes not yet handed out */
	size_t zpos, zlen, zcap;
	uint64_t zoffset;              /* file offset of the COMPRESSED record being read */
	uint64_t nr_compressed;
	/* the record next() returned is in a buffer that the next call reuses (not in the map) */
	bool ev_transient;
};

/*
 * Opens and parses header, attrs and feature sections. On error prints one
 * line naming the file and the problem and returns -1.
 */
int perf_data_reader__open(struct perf_data_reader *r, const char *path);

/*
 * Next record in file order. Returns 1 with *ev set (valid until the next
 * call; size checked to be >= 8 and to fit in the data), 0 at the end of the
 * data, -1 on an unrecoverable error (message printed). A truncated last
 * record is a warning and the end. *offset gets the record's file offset
 * (for a record from inside a COMPRESSED record: that record's offset).
 * Records must be copied to outlive the next call when r->ev_transient.
 *
 * Pipe mode: HEADER_ATTR, HEADER_FEATURE and HEADER_TRACING_DATA records are
 * absorbed into attrs / feat / tracing_data *and* returned, so that a copier
 * (inject) can pass them on. For HEADER_TRACING_DATA the payload that follows
 * it is in r->tail_buf / r->tail_size until the next call.
 */
int perf_data_reader__next(struct perf_data_reader *r, union perf_event **ev, uint64_t *offset);

void perf_data_reader__close(struct perf_data_reader *r);

bool perf_data_reader__has_feat(const struct perf_data_reader *r, int feat);

struct perf_data_writer {
	int fd;
	bool is_pipe;
	bool started;
	char *path;
	uint64_t data_offset, data_size;
	struct perf_file_attr *attrs;
	size_t nr_attrs, cap_attrs;
	struct perf_feature_blob feat[HEADER_FEAT_BITS];
	bool attrs_written;
	unsigned char *buf;
	size_t buf_len, buf_cap;
	uint64_t file_pos;

	/* added by the data.c implementation (private) */
	bool own_fd;
	bool failed;                   /* a write failed; close returns -1 */
	bool attrs_late;               /* file mode: attrs added after start go after the features */
	bool end_marker_written;       /* pipe mode: HEADER_FEATURE 32 sent */
	uint64_t attrs_offset;         /* file mode: where the attrs section went */
};

/* path "-" writes pipe format to stdout; pipe=true writes pipe format to a file */
int perf_data_writer__open(struct perf_data_writer *w, const char *path, bool pipe);

/* Before or after start (pipe: emitted as HEADER_ATTR right away once started). */
int perf_data_writer__add_attr(struct perf_data_writer *w, const struct perf_event_attr *attr,
			       const uint64_t *ids, size_t nr_ids, const char *name);

/* Copies the payload. File mode: written at close. Pipe mode: at start, or as a
 * HEADER_FEATURE record right away once started. EVENT_DESC is generated from
 * the attrs' names at close/start unless set here. */
int perf_data_writer__set_feature(struct perf_data_writer *w, int feat, const void *data, size_t size);

/* Writes the header (and in pipe mode the attrs and features). */
int perf_data_writer__start(struct perf_data_writer *w);

/* Appends bytes to the data section: whole records, or the payload after a
 * HEADER_TRACING_DATA record. Buffered. */
int perf_data_writer__write(struct perf_data_writer *w, const void *buf, size_t size);

/* Flushes; file mode: writes features and attrs, rewrites the header. */
int perf_data_writer__close(struct perf_data_writer *w);

#endif
