// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "strbuf.h"
#include "util.h"

static void overflow(void)
{
	fputs("perf: buffer size overflow\n", stderr);
	abort();
}

void strbuf_grow_slow(struct strbuf *sb, size_t extra)
{
	size_t need, cap;

	if (extra > SIZE_MAX - 2 - sb->len)
		overflow();
	need = sb->len + extra + 1;
	if (need <= sb->alloc)
		return;
	/* start small (most strings are short), then double */
	cap = sb->alloc ? sb->alloc : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	sb->buf = xrealloc(sb->buf, cap);
	sb->alloc = cap;
	sb->buf[sb->len] = 0;
}

void strbuf_addzeros(struct strbuf *sb, size_t n)
{
	strbuf_grow(sb, n);
	memset(sb->buf + sb->len, 0, n);
	sb->len += n;
	sb->buf[sb->len] = 0;
}

void strbuf_align(struct strbuf *sb, size_t a)
{
	strbuf_addzeros(sb, ALIGN_UP(sb->len, a) - sb->len);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	strbuf_grow(sb, 64);
	va_copy(again, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	if (n < 0) {
		/* only an invalid format gets here; keep what was there */
		sb->buf[sb->len] = 0;
		va_end(again);
		return;
	}
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, again);
	}
	va_end(again);
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_set(struct strbuf *sb, size_t off, const void *data, size_t n)
{
	if (off > sb->len || n > sb->len - off)
		overflow();
	memcpy(sb->buf + off, data, n);
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (len > sb->len)
		overflow();
	sb->len = len;
	if (sb->buf)
		sb->buf[len] = 0;
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *p;

	strbuf_grow(sb, 0);     /* an empty buffer still gives a string */
	p = sb->buf;
	if (len)
		*len = sb->len;
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return p;
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

ssize_t strbuf_read_fd(struct strbuf *sb, int fd)
{
	size_t start = sb->len;

	for (;;) {
		ssize_t r;

		strbuf_grow(sb, 8192);
		r = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (r < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			strbuf_setlen(sb, start);
			errno = e;
			return -1;
		}
		if (r == 0)
			break;
		sb->len += (size_t)r;
	}
	sb->buf[sb->len] = 0;
	return (ssize_t)(sb->len - start);
}

void *grow_array(void *p, size_t *alloc, size_t need, size_t size)
{
	size_t cap;

	if (need <= *alloc)
		return p;
	cap = *alloc < SIZE_MAX / 3 ? *alloc + *alloc / 2 + 16 : need;
	if (cap < need)
		cap = need;
	if (size && cap > SIZE_MAX / size)
		overflow();
	p = xrealloc(p, cap * size);
	*alloc = cap;
	return p;
}
