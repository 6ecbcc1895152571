// SPDX-License-Identifier: MIT
/*
 * zstd streams of PERF_RECORD_COMPRESSED records, both directions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "compress.h"
#include "debug.h"
#include "event.h"
#include "util.h"

int perf_comp_feature__decode(struct perf_comp_feature *f, const void *data, size_t size)
{
	uint32_t v[5];

	memset(f, 0, sizeof(*f));
	if (!data || size != sizeof(v))
		return -1;
	memcpy(v, data, sizeof(v));
	f->version = v[0];
	f->type = v[1];
	f->level = v[2];
	f->ratio = v[3];
	f->mmap_len = v[4];
	return 0;
}

void perf_comp_feature__encode(const struct perf_comp_feature *f, unsigned char out[20])
{
	uint32_t v[5] = { f->version, f->type, f->level, f->ratio, f->mmap_len };

	memcpy(out, v, sizeof(v));
}

/* ------------------------------------------------------------ compression */

struct perf_compressor {
	ZSTD_CCtx *cctx;
	uint64_t total_in, total_out;
	/* one COMPRESSED record being filled: header then payload */
	unsigned char rec[8 + PERF_COMP_MAX_PAYLOAD];
};

struct perf_compressor *perf_compressor__new(int level)
{
	struct perf_compressor *c;
	size_t r;

	if (level < 1 || level > PERF_COMP_LEVEL_MAX) {
		pr_err("compression level %d out of range (1-%d)\n", level, PERF_COMP_LEVEL_MAX);
		return NULL;
	}
	c = xzalloc(sizeof(*c));
	c->cctx = ZSTD_createCCtx();
	if (!c->cctx) {
		pr_err("cannot create a zstd compression context\n");
		free(c);
		return NULL;
	}
	r = ZSTD_CCtx_setParameter(c->cctx, ZSTD_c_compressionLevel, level);
	if (ZSTD_isError(r)) {
		pr_err("zstd refuses compression level %d: %s\n", level, ZSTD_getErrorName(r));
		perf_compressor__delete(c);
		return NULL;
	}
	return c;
}

void perf_compressor__delete(struct perf_compressor *c)
{
	if (!c)
		return;
	ZSTD_freeCCtx(c->cctx);
	free(c);
}

static int emit_record(struct perf_compressor *c, size_t payload,
		       int (*emit)(void *arg, const void *rec, size_t size), void *arg)
{
	struct perf_event_header h = { .type = PERF_RECORD_COMPRESSED, .size = (uint16_t)(8 + payload) };

	memcpy(c->rec, &h, sizeof(h));
	c->total_out += 8 + payload;
	return emit(arg, c->rec, 8 + payload);
}

int perf_compressor__records(struct perf_compressor *c, const void *in, size_t size,
			     int (*emit)(void *arg, const void *rec, size_t size), void *arg)
{
	ZSTD_inBuffer src = { in, size, 0 };
	ZSTD_outBuffer dst = { c->rec + 8, PERF_COMP_MAX_PAYLOAD, 0 };

	if (!size)
		return 0;
	c->total_in += size;
	for (;;) {
		/* flush: every record given here is readable without later input */
		size_t left = ZSTD_compressStream2(c->cctx, &dst, &src, ZSTD_e_flush);

		if (ZSTD_isError(left)) {
			pr_err("zstd compression failed: %s\n", ZSTD_getErrorName(left));
			return -1;
		}
		if (dst.pos == dst.size || (left == 0 && dst.pos)) {
			if (emit_record(c, dst.pos, emit, arg))
				return -1;
			dst.pos = 0;
		}
		if (left == 0 && src.pos == src.size)
			return 0;
	}
}

void perf_compressor__totals(const struct perf_compressor *c, uint64_t *in, uint64_t *out)
{
	*in = c->total_in;
	*out = c->total_out;
}

/* ---------------------------------------------------------- decompression */

struct perf_decompressor {
	ZSTD_DCtx *dctx;
};

struct perf_decompressor *perf_decompressor__new(void)
{
	struct perf_decompressor *d = xzalloc(sizeof(*d));

	d->dctx = ZSTD_createDCtx();
	if (!d->dctx) {
		pr_err("cannot create a zstd decompression context\n");
		free(d);
		return NULL;
	}
	return d;
}

void perf_decompressor__delete(struct perf_decompressor *d)
{
	if (!d)
		return;
	ZSTD_freeDCtx(d->dctx);
	free(d);
}

long perf_decompressor__feed(struct perf_decompressor *d, const void *payload, size_t size,
			     unsigned char **buf, size_t *len, size_t *cap, size_t limit,
			     char *err, size_t errlen)
{
	ZSTD_inBuffer src = { payload, size, 0 };
	size_t start = *len, step = ZSTD_DStreamOutSize();

	for (;;) {
		ZSTD_outBuffer dst;
		size_t r, produced = *len - start;

		if (produced >= limit) {
			/* output full: more is only an error if zstd really has more */
			if (src.pos == src.size) {
				unsigned char probe;
				ZSTD_outBuffer one = { &probe, 1, 0 };

				r = ZSTD_decompressStream(d->dctx, &one, &src);
				if (!ZSTD_isError(r) && !one.pos)
					break;
			}
			snprintf(err, errlen, "expands to more than %zu bytes", limit);
			return -1;
		}
		if (*cap - *len < step) {
			*cap = MAX(*cap * 2, *len + step);
			*buf = xrealloc(*buf, *cap);
		}
		dst.dst = *buf + *len;
		dst.size = MIN(*cap - *len, limit - produced);
		dst.pos = 0;
		r = ZSTD_decompressStream(d->dctx, &dst, &src);
		if (ZSTD_isError(r)) {
			snprintf(err, errlen, "zstd: %s", ZSTD_getErrorName(r));
			return -1;
		}
		*len += dst.pos;
		/* all input taken and zstd had room to spare: nothing is held back */
		if (src.pos == src.size && dst.pos < dst.size)
			break;
	}
	return (long)(*len - start);
}
