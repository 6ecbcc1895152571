/* SPDX-License-Identifier: MIT */
/*
 * The jitdump file the agent writes: where it goes, the marker mapping perf
 * record notices, and whole-record writes that never interleave.
 */
#ifndef PERF_JVMTI_DUMP_FILE_H
#define PERF_JVMTI_DUMP_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A group of records assembled outside the lock, written with one write(2). */
struct rec_buf {
	unsigned char *p;
	size_t len, cap;
	bool oom;
	size_t rec_start[4];       /* prefixes whose timestamp is set at write time */
	int nr_rec;
	size_t code_index_at;      /* offset of a LOAD's code_index field, 0 = none */
};

void rec_buf_init(struct rec_buf *b);
void rec_buf_free(struct rec_buf *b);
void *rec_buf_put(struct rec_buf *b, const void *data, size_t n);  /* NULL once out of memory */
/* start/finish one record; finishing fills total_size */
size_t rec_buf_begin(struct rec_buf *b, uint32_t id);
void rec_buf_end(struct rec_buf *b, size_t start);

/*
 * Creates <base>/java-jit-YYYYMMDD.XXXXXXXX/jit-<pid>.dump (base: the dir=
 * option, else $JITDUMPDIR, else ~/.debug/jit), writes the header and maps
 * the marker page. Returns 0, or -1 after one warning on stderr.
 */
int dump_open(const char *dir_option);
const char *dump_path(void);
bool dump_active(void);
/* Stamps and writes a group; after a failed write the dump stays off for good. */
void dump_write(struct rec_buf *b);
/* CLOSE record, unmap the marker, close. Safe to call twice. */
void dump_close(void);

void agent_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
