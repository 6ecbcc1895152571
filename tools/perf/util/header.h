/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_HEADER_H
#define PERF_UTIL_HEADER_H

/*
 * Payloads of the perf.data feature sections (Documentation/formats/perf-data.md
 * section 5): the common encodings (perf strings, string lists), the
 * features perf record fills from the running system, EVENT_DESC and
 * BUILD_ID. Everything is in host byte order.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "event.h"

/* an event of a perf.data file: its attr, ids and name */
struct perf_file_attr {
	struct perf_event_attr attr;   /* zero-extended when the file's attr is shorter */
	uint64_t *ids;
	uint32_t nr_ids;
	char *name;                    /* from EVENT_DESC, or NULL */
};

/* perf pads feature strings (length includes the NUL) to this */
#define PERF_STRING_ALIGN 64

/* growable byte buffer that feature payloads are encoded into */
struct feat_buf {
	unsigned char *data;
	size_t len, cap;
};

void feat_buf__put(struct feat_buf *b, const void *p, size_t n);
void feat_buf__put_zeros(struct feat_buf *b, size_t n);
void feat_buf__put_u32(struct feat_buf *b, uint32_t v);
void feat_buf__put_u64(struct feat_buf *b, uint64_t v);
/* u32 len; s; NULs up to len; len = strlen(s)+1 rounded up to 64 */
void feat_buf__put_string(struct feat_buf *b, const char *s);
/* u32 nr; nr strings */
void feat_buf__put_string_list(struct feat_buf *b, const char *const *s, size_t nr);
void feat_buf__release(struct feat_buf *b);

/* bytes feat_buf__put_string() emits for s */
size_t perf_string__size(const char *s);

/*
 * Bounds-checked reader of a payload. Any read past the end sets `error`
 * and returns 0/NULL, so a decoder can check once at the end.
 */
struct feat_cursor {
	const unsigned char *p;
	size_t size, pos;
	bool error;
};

void feat_cursor__init(struct feat_cursor *c, const void *p, size_t size);
uint32_t feat_cursor__u32(struct feat_cursor *c);
uint64_t feat_cursor__u64(struct feat_cursor *c);
const void *feat_cursor__bytes(struct feat_cursor *c, size_t n);
/* pointer into the payload; NULL if the length runs past the end or no NUL inside */
const char *feat_cursor__string(struct feat_cursor *c);
/* malloc'ed array of pointers into the payload; NULL on error (nr 0 gives a non-NULL array) */
const char **feat_cursor__string_list(struct feat_cursor *c, uint32_t *nr);

/* ---- BUILD_ID (feature 2; records of type 67 share the layout) ---- */

struct build_id_entry {
	uint16_t cpumode;          /* PERF_RECORD_MISC_KERNEL / _USER / _GUEST_* */
	int32_t pid;               /* -1 for the host */
	uint8_t build_id[BUILD_ID_MAX];
	uint8_t size;              /* bytes used in build_id (20 SHA1, 16 MD5) */
	char *filename;            /* "/usr/lib/x.so", "[kernel.kallsyms]", "[vdso]" */
};

/*
 * Appends one build_id record: header {type, misc = 0x8000 | cpumode,
 * size = 36 + name padded to 64}, pid, id, size, name. type is 0 inside
 * the feature section and PERF_RECORD_HEADER_BUILD_ID as a record.
 */
void build_id__encode(struct feat_buf *b, const struct build_id_entry *e, uint32_t type);
/* Decodes a whole feature payload. -1 (pr_debug) on a malformed record. */
int build_id__decode(const void *data, size_t size, struct build_id_entry **entries, size_t *nr);
void build_id__free_entries(struct build_id_entry *entries, size_t nr);

/* ---- EVENT_DESC (feature 12) ---- */

struct event_desc {
	struct perf_event_attr attr;   /* first 128 bytes, zero-extended */
	char *name;
	uint64_t *ids;
	uint32_t nr_ids;
};

/* u32 nr, u32 attr size (128); per attr: attr, u32 nr_ids, string name, ids */
void event_desc__encode(struct feat_buf *b, const struct perf_file_attr *attrs, size_t nr);
int event_desc__decode(const void *data, size_t size, struct event_desc **descs, size_t *nr);
void event_desc__free(struct event_desc *descs, size_t nr);

/* ---- features perf record fills from the running system ---- */

/* Encoders of the features perf record fills (util/record-features.c writes them). */
void header__encode_string(struct feat_buf *b, const char *s);
/* u32 nr_cpus_available, u32 nr_cpus_online */
void header__encode_nrcpus(struct feat_buf *b, uint32_t avail, uint32_t online);
/* "AuthenticAMD,25,17,1"; NULL where not known. Caller frees. */
char *header__cpuid_string(void);
/* /proc/cpuinfo model name; caller frees; NULL if not found */
char *header__cpudesc_string(void);
/* MemTotal in kB, 0 if unknown */
uint64_t header__total_mem_kb(void);

#endif
