/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_STRBUF_H
#define PERF_UTIL_STRBUF_H

/*
 * strbuf: one growable byte buffer for text and for binary images (ELF
 * files, tracing data), so that no file keeps its own p/len/cap triple and
 * its own doubling loop.
 *
 * buf is NULL until something is added; after that it always has one spare
 * byte holding a NUL after len, so text built here can be used as a C string
 * (strbuf_str) and binary content costs one byte. Allocation cannot fail
 * (xrealloc aborts on out of memory), like the rest of util/.
 *
 * grow_array / GROW_ARRAY / ARRAY_PUSH: the same growth policy for arrays
 * of any element type, in place of "realloc to n + 1" on every append.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

struct strbuf {
	char *buf;
	size_t len;     /* bytes used */
	size_t alloc;   /* bytes allocated, including the spare NUL byte */
};

#define STRBUF_INIT { NULL, 0, 0 }

/* room for `extra` more bytes (and the NUL) without another allocation */
void strbuf_grow_slow(struct strbuf *sb, size_t extra);

static inline void strbuf_grow(struct strbuf *sb, size_t extra)
{
	/* the common case stays inline: the ELF writer appends single bytes */
	if (sb->alloc - sb->len <= extra)
		strbuf_grow_slow(sb, extra);
}

static inline void strbuf_add(struct strbuf *sb, const void *data, size_t n)
{
	strbuf_grow(sb, n);
	if (n)          /* data may be NULL when n is 0 */
		memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = 0;
}

static inline void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = 0;
}

static inline void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

/* s with its terminating NUL, as ELF and tracing string tables store it */
static inline void strbuf_addstr0(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s) + 1);
}

/* fixed-size values in host byte order (the files written here are host-endian) */
static inline void strbuf_add_u8(struct strbuf *sb, uint8_t v) { strbuf_addch(sb, (char)v); }
static inline void strbuf_add_u16(struct strbuf *sb, uint16_t v) { strbuf_add(sb, &v, 2); }
static inline void strbuf_add_u32(struct strbuf *sb, uint32_t v) { strbuf_add(sb, &v, 4); }
static inline void strbuf_add_u64(struct strbuf *sb, uint64_t v) { strbuf_add(sb, &v, 8); }

void strbuf_addzeros(struct strbuf *sb, size_t n);
/* zero bytes up to the next multiple of a (a power of two) */
void strbuf_align(struct strbuf *sb, size_t a);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);

/* overwrite bytes already in the buffer (a length field filled in later) */
void strbuf_set(struct strbuf *sb, size_t off, const void *data, size_t n);

/* truncate (len <= sb->len); keeps the allocation for reuse */
void strbuf_setlen(struct strbuf *sb, size_t len);
static inline void strbuf_reset(struct strbuf *sb) { strbuf_setlen(sb, 0); }

/* the contents as a C string: "" for an empty, never-allocated buffer */
static inline const char *strbuf_str(const struct strbuf *sb) { return sb->buf ? sb->buf : ""; }

/* hands the malloc'ed, NUL-terminated contents to the caller; sb is empty after */
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_release(struct strbuf *sb);

/* appends everything up to EOF from fd (retrying EINTR); bytes read, or -1 with errno */
ssize_t strbuf_read_fd(struct strbuf *sb, int fd);

/*
 * Arrays: grow_array returns p with room for at least `need` elements of
 * `size` bytes, updating *alloc; growth is geometric so appending one at a
 * time stays linear.
 */
void *grow_array(void *p, size_t *alloc, size_t need, size_t size);

#define GROW_ARRAY(arr, need, alloc) \
	((arr) = grow_array((arr), &(alloc), (need), sizeof(*(arr))))

/* pointer to a new last element (not initialised): *ARRAY_PUSH(v, nr, alloc) = x; */
#define ARRAY_PUSH(arr, nr, alloc) \
	(GROW_ARRAY(arr, (size_t)(nr) + 1, alloc), &(arr)[(nr)++])

#endif
