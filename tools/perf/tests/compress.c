// SPDX-License-Identifier: MIT
/*
 * zstd COMPRESSED records (util/compress.c) and their reading by
 * util/data.c: round trips at several levels, records of at most 64 KiB
 * whose decompressed output splits perf records between them, the
 * HEADER_COMPRESSED payload, and bad input (corrupt zstd bytes, a payload
 * that expands past its limit, a stream that ends inside a record, a
 * nested COMPRESSED record): an error or a warning, never a crash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "util/compress.h"
#include "util/data.h"
#include "util/event.h"
#include "util/strbuf.h"
#include "util/util.h"

struct collected {
	unsigned char *buf;
	size_t len, cap;
	size_t nr_records, max_record;
};

static int collect(void *arg, const void *rec, size_t size)
{
	struct collected *c = arg;
	const struct perf_event_header *h = rec;

	if (h->type != PERF_RECORD_COMPRESSED || h->size != size)
		return -1;
	GROW_ARRAY(c->buf, c->len + size, c->cap);
	memcpy(c->buf + c->len, rec, size);
	c->len += size;
	c->nr_records++;
	c->max_record = MAX(c->max_record, size);
	return 0;
}

/* COMM-like records of varying sizes; `noisy` makes them incompressible */
static size_t make_stream(unsigned char *buf, size_t cap, bool noisy)
{
	uint32_t x = 12345;
	size_t n = 0;

	for (int i = 0; n + 256 <= cap; i++) {
		struct perf_event_header h = { PERF_RECORD_COMM, 0, (uint16_t)(16 + 8 * (i % 29)) };

		memcpy(buf + n, &h, sizeof(h));
		for (size_t k = 8; k < h.size; k++) {
			x = x * 1103515245 + 12345;
			buf[n + k] = noisy ? (unsigned char)(x >> 16) : (unsigned char)('a' + i % 7);
		}
		n += h.size;
	}
	return n;
}

/* decompresses the records one by one; counts feeds that ended inside a perf record */
static int expand(struct collected *c, unsigned char **out, size_t *out_len, int *splits)
{
	struct perf_decompressor *d = perf_decompressor__new();
	size_t pos = 0, cap = 0, boundary = 0;
	char err[128];

	*out = NULL;
	*out_len = 0;
	*splits = 0;
	if (!d)
		return -1;
	while (pos < c->len) {
		struct perf_event_header h;

		memcpy(&h, c->buf + pos, sizeof(h));
		if (perf_decompressor__feed(d, c->buf + pos + 8, h.size - 8, out, out_len, &cap, 1 << 20,
					    err, sizeof(err)) < 0) {
			fprintf(stderr, "feed: %s\n", err);
			perf_decompressor__delete(d);
			return -1;
		}
		while (boundary + 8 <= *out_len) {
			struct perf_event_header r;

			memcpy(&r, *out + boundary, sizeof(r));
			if (boundary + r.size > *out_len)
				break;
			boundary += r.size;
		}
		if (boundary != *out_len)
			(*splits)++;
		pos += h.size;
	}
	perf_decompressor__delete(d);
	return 0;
}

static int test__compress_roundtrip(void)
{
	static unsigned char stream[400 * 1024];
	const int levels[] = { 1, 3, 22 };

	for (int noisy = 0; noisy < 2; noisy++) {
		size_t n = make_stream(stream, sizeof(stream), noisy);

		/* level 22 on incompressible bytes takes seconds: only on text */
		for (size_t l = 0; l < ARRAY_SIZE(levels) - noisy; l++) {
			struct perf_compressor *zc = perf_compressor__new(levels[l]);
			struct collected c = { 0 };
			unsigned char *out;
			size_t out_len;
			uint64_t in, emitted;
			int splits;

			TEST_ASSERT_VAL("compressor", zc);
			/* two chunks, as from two ring drains, through one stream */
			TEST_ASSERT_EQUAL("chunk 1", perf_compressor__records(zc, stream, n / 2 & ~7ul, collect, &c), 0);
			TEST_ASSERT_EQUAL("chunk 2", perf_compressor__records(zc, stream + (n / 2 & ~7ul),
									      n - (n / 2 & ~7ul), collect, &c), 0);
			perf_compressor__totals(zc, &in, &emitted);
			TEST_ASSERT_EQUAL("bytes in", in, n);
			TEST_ASSERT_EQUAL("bytes out", emitted, c.len);
			TEST_ASSERT_VAL("a record fits a u16 size", c.max_record <= 0xffff);
			if (noisy) {
				/* incompressible: several records per chunk, perf records split between them */
				TEST_ASSERT_VAL("several records", c.nr_records > 4);
				TEST_ASSERT_VAL("full records", c.max_record == 0xffff);
			} else {
				TEST_ASSERT_VAL("it compresses", c.len * 4 < n);
			}
			TEST_ASSERT_EQUAL("expand", expand(&c, &out, &out_len, &splits), 0);
			TEST_ASSERT_EQUAL("length", out_len, n);
			TEST_ASSERT_VAL("same bytes", !memcmp(out, stream, n));
			if (noisy)
				TEST_ASSERT_VAL("a perf record spans two COMPRESSED records", splits > 0);
			free(out);
			free(c.buf);
			perf_compressor__delete(zc);
		}
	}
	TEST_ASSERT_VAL("level 0 refused", !perf_compressor__new(0));
	TEST_ASSERT_VAL("level 23 refused", !perf_compressor__new(23));
	return TEST_OK;
}

static int test__compress_feature(void)
{
	struct perf_comp_feature f = { 0, PERF_COMP_ZSTD, 3, 5, 528384 }, g;
	unsigned char p[20];

	perf_comp_feature__encode(&f, p);
	TEST_ASSERT_EQUAL("decode", perf_comp_feature__decode(&g, p, sizeof(p)), 0);
	TEST_ASSERT_VAL("same", !memcmp(&f, &g, sizeof(f)));
	TEST_ASSERT_EQUAL("type at offset 4", p[4], 1);
	TEST_ASSERT_EQUAL("mmap_len at offset 16", p[16] | p[17] << 8 | p[18] << 16, 528384);
	TEST_ASSERT_EQUAL("short", perf_comp_feature__decode(&g, p, 16), -1);
	TEST_ASSERT_EQUAL("NULL", perf_comp_feature__decode(&g, NULL, 20), -1);
	return TEST_OK;
}

static int test__decompress_bad(void)
{
	static unsigned char stream[64 * 1024];
	size_t n = make_stream(stream, sizeof(stream), false);
	struct perf_compressor *zc = perf_compressor__new(1);
	struct perf_decompressor *d;
	struct collected c = { 0 };
	unsigned char *out = NULL, junk[64];
	size_t len = 0, cap = 0;
	char err[128] = "";

	TEST_ASSERT_EQUAL("compress", perf_compressor__records(zc, stream, n, collect, &c), 0);
	TEST_ASSERT_EQUAL("one record", c.nr_records, 1);
	perf_compressor__delete(zc);

	/* expanding past the limit is refused */
	d = perf_decompressor__new();
	TEST_ASSERT_EQUAL("bomb", perf_decompressor__feed(d, c.buf + 8, c.len - 8, &out, &len, &cap, 4096,
							  err, sizeof(err)), -1);
	TEST_ASSERT_VAL("says why", strstr(err, "expands"));
	perf_decompressor__delete(d);

	/* exactly the limit is fine */
	d = perf_decompressor__new();
	len = 0;
	TEST_ASSERT_EQUAL("at the limit", perf_decompressor__feed(d, c.buf + 8, c.len - 8, &out, &len, &cap, n,
								  err, sizeof(err)), (long)n);
	perf_decompressor__delete(d);

	/* not zstd */
	memset(junk, 0x5a, sizeof(junk));
	d = perf_decompressor__new();
	len = 0;
	err[0] = 0;
	TEST_ASSERT_EQUAL("garbage", perf_decompressor__feed(d, junk, sizeof(junk), &out, &len, &cap, 1 << 20,
							     err, sizeof(err)), -1);
	TEST_ASSERT_VAL("zstd error named", strstr(err, "zstd"));
	perf_decompressor__delete(d);
	free(out);
	free(c.buf);
	return TEST_OK;
}

/* a file: attr, COMM, then COMPRESSED records built by the test */
static int write_file(const char *path, const void *recs, size_t size, bool with_feature)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = 128, .sample_type = 0x107 };
	struct perf_comp_feature f = { 0, PERF_COMP_ZSTD, 1, 1, 1 << 20 };
	struct perf_data_writer w;
	unsigned char feat[20];
	uint64_t id = 7;

	if (perf_data_writer__open(&w, path, false))
		return -1;
	perf_data_writer__add_attr(&w, &a, &id, 1, "cpu-clock");
	perf_comp_feature__encode(&f, feat);
	if (with_feature)
		perf_data_writer__set_feature(&w, HEADER_COMPRESSED, feat, sizeof(feat));
	perf_data_writer__write(&w, recs, size);
	return perf_data_writer__close(&w);
}

/* reads all records; returns next()'s last result, the bytes of the records in *got */
static int read_all(const char *path, unsigned char *got, size_t cap, size_t *len, uint64_t *nr_comp)
{
	struct perf_data_reader r;
	union perf_event *ev;
	uint64_t off;
	int ret;

	*len = 0;
	if (perf_data_reader__open(&r, path))
		return -2;
	while ((ret = perf_data_reader__next(&r, &ev, &off)) > 0) {
		if (*len + ev->header.size <= cap)
			memcpy(got + *len, ev, ev->header.size);
		*len += ev->header.size;
	}
	*nr_comp = r.nr_compressed;
	perf_data_reader__close(&r);
	return ret;
}

static int test__compressed_file(void)
{
	static unsigned char stream[300 * 1024], got[400 * 1024];
	size_t n = make_stream(stream, sizeof(stream), true), len;
	struct perf_compressor *zc = perf_compressor__new(1);
	struct collected c = { 0 };
	char *path = xasprintf("%s/z.data", test_tmpdir());
	uint64_t nr_comp;
	unsigned char nested[16];

	TEST_ASSERT_EQUAL("compress", perf_compressor__records(zc, stream, n, collect, &c), 0);
	perf_compressor__delete(zc);

	/* the records inside come out in place of the COMPRESSED ones */
	TEST_ASSERT_EQUAL("write", write_file(path, c.buf, c.len, true), 0);
	TEST_ASSERT_EQUAL("read", read_all(path, got, sizeof(got), &len, &nr_comp), 0);
	TEST_ASSERT_EQUAL("all bytes", len, n);
	TEST_ASSERT_VAL("same records", !memcmp(got, stream, n));
	TEST_ASSERT_EQUAL("counted", nr_comp, c.nr_records);

	/* without the feature (a pipe's feature may come late): still read */
	TEST_ASSERT_EQUAL("write, no feature", write_file(path, c.buf, c.len, false), 0);
	TEST_ASSERT_EQUAL("read, no feature", read_all(path, got, sizeof(got), &len, &nr_comp), 0);
	TEST_ASSERT_EQUAL("all bytes, no feature", len, n);

	/* the last COMPRESSED record missing: the records before it, a warning, the end */
	{
		size_t cut = 0, pos = 0;

		while (pos < c.len) {
			struct perf_event_header h;

			memcpy(&h, c.buf + pos, sizeof(h));
			if (pos + h.size >= c.len)
				break;
			pos += h.size;
			cut = pos;
		}
		TEST_ASSERT_VAL("several records", cut > 0);
		TEST_ASSERT_EQUAL("write, truncated", write_file(path, c.buf, cut, true), 0);
		TEST_ASSERT_EQUAL("read, truncated", read_all(path, got, sizeof(got), &len, &nr_comp), 0);
		TEST_ASSERT_VAL("fewer bytes", len < n && len > 0);
		TEST_ASSERT_VAL("a prefix", !memcmp(got, stream, len));
	}

	/* corrupt zstd bytes in the middle of the stream: an error, not a crash */
	c.buf[8 + 70000] ^= 0xff;
	c.buf[8 + 70001] ^= 0xff;
	c.buf[8 + 3] ^= 0xff;
	TEST_ASSERT_EQUAL("write, corrupt", write_file(path, c.buf, c.len, true), 0);
	TEST_ASSERT_EQUAL("read, corrupt", read_all(path, got, sizeof(got), &len, &nr_comp), -1);

	/* a COMPRESSED record inside a COMPRESSED record */
	{
		struct perf_event_header h = { PERF_RECORD_COMPRESSED, 0, 16 };
		struct collected c2 = { 0 };

		memcpy(nested, &h, sizeof(h));
		memset(nested + 8, 0, 8);
		zc = perf_compressor__new(1);
		TEST_ASSERT_EQUAL("compress nested", perf_compressor__records(zc, nested, sizeof(nested), collect, &c2), 0);
		perf_compressor__delete(zc);
		TEST_ASSERT_EQUAL("write, nested", write_file(path, c2.buf, c2.len, true), 0);
		TEST_ASSERT_EQUAL("read, nested", read_all(path, got, sizeof(got), &len, &nr_comp), -1);
		free(c2.buf);
	}
	free(c.buf);
	free(path);
	return TEST_OK;
}

DEFINE_SUITE("compress: zstd COMPRESSED records round trip, split records, 64 KiB records", test__compress_roundtrip);
DEFINE_SUITE("compress: HEADER_COMPRESSED payload", test__compress_feature);
DEFINE_SUITE("compress: corrupt, oversized and garbage zstd input refused", test__decompress_bad);
DEFINE_SUITE("compress: perf.data reader opens COMPRESSED records (truncated, corrupt, nested)", test__compressed_file);
