// SPDX-License-Identifier: MIT
/*
 * The jitdump reader on synthetic dumps: every record type in both byte
 * orders, truncation at every byte, empty/garbage files, bad headers and
 * malformed records. Dumps are built byte by byte here from the layout in
 * Documentation/jitdump-specification.txt, not with the agent's writer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/tests.h"
#include "util/jitdump.h"
#include "util/strbuf.h"
#include "util/util.h"

struct bytes {
	unsigned char *p;
	size_t len, cap;
	bool swap;
};

static void put(struct bytes *b, const void *d, size_t n)
{
	GROW_ARRAY(b->p, b->len + n, b->cap);
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

static void put32(struct bytes *b, uint32_t v)
{
	if (b->swap)
		v = __builtin_bswap32(v);
	put(b, &v, 4);
}

static void put64(struct bytes *b, uint64_t v)
{
	if (b->swap)
		v = __builtin_bswap64(v);
	put(b, &v, 8);
}

static void put_str(struct bytes *b, const char *s)
{
	put(b, s, strlen(s) + 1);
}

static void set32(struct bytes *b, size_t at, uint32_t v)
{
	if (b->swap)
		v = __builtin_bswap32(v);
	memcpy(b->p + at, &v, 4);
}

static void header(struct bytes *b, uint32_t version, uint32_t size, uint64_t flags)
{
	put32(b, JITDUMP_MAGIC);
	put32(b, version);
	put32(b, size);
	put32(b, 62);
	put32(b, 0);
	put32(b, 4242);
	put64(b, 1000);
	put64(b, flags);
}

static size_t begin(struct bytes *b, uint32_t id, uint64_t ts)
{
	size_t at = b->len;

	put32(b, id);
	put32(b, 0);
	put64(b, ts);
	return at;
}

static void end(struct bytes *b, size_t at)
{
	set32(b, at + 4, (uint32_t)(b->len - at));
}

static const unsigned char code1[] = { 0x55, 0x48, 0x89, 0xe5, 0xc3 };

/* record boundaries of the sample dump, for the truncation test */
static size_t bounds[16];
static int nbounds;

static void sample_dump(struct bytes *b, bool swap)
{
	size_t at;

	memset(b, 0, sizeof(*b));
	b->swap = swap;
	nbounds = 0;
	header(b, 1, 40, 0);
	bounds[nbounds++] = b->len;

	at = begin(b, JIT_CODE_DEBUG_INFO, 1001);
	put64(b, 0x7000);
	put64(b, 2);
	put64(b, 0x7000); put32(b, 10); put32(b, 0); put_str(b, "a/B.java");
	put64(b, 0x7003); put32(b, 11); put32(b, 3); put_str(b, "a/C.java");
	end(b, at);
	bounds[nbounds++] = b->len;

	at = begin(b, JIT_CODE_INLINE_INFO, 1002);
	put64(b, 0x7000);
	put32(b, 1);          /* nr_pc */
	put32(b, 17);         /* strtab "a.C.f()\0a/C.java\0" = 8 + 9 bytes */
	put64(b, 0x7003); put32(b, 2); put32(b, 0);
	put32(b, 0); put32(b, 8); put32(b, 11); put32(b, 4);          /* leaf: a.C.f() a/C.java:11 bci 4 */
	put32(b, 0); put32(b, 8); put32(b, 5); put32(b, (uint32_t)-1); /* caller, bci -1 */
	put(b, "a.C.f()\0a/C.java", 17);
	end(b, at);
	bounds[nbounds++] = b->len;

	at = begin(b, JIT_CODE_LOAD, 1003);
	put32(b, 4242); put32(b, 4243);
	put64(b, 0x7000); put64(b, 0x7000); put64(b, sizeof(code1)); put64(b, 1);
	put_str(b, "a.B.m(int)");
	put(b, code1, sizeof(code1));
	end(b, at);
	bounds[nbounds++] = b->len;

	at = begin(b, JIT_CODE_MOVE, 1004);
	put32(b, 4242); put32(b, 4243);
	put64(b, 0x8000); put64(b, 0x7000); put64(b, 0x8000); put64(b, sizeof(code1)); put64(b, 1);
	end(b, at);
	bounds[nbounds++] = b->len;

	at = begin(b, JIT_CODE_UNWINDING_INFO, 1005);
	put64(b, 6); put64(b, 2); put64(b, 0);
	put(b, "EHFRhd\0\0", 8);  /* 6 bytes of data + 2 of padding */
	end(b, at);
	bounds[nbounds++] = b->len;

	at = begin(b, 77, 1006);  /* an id nobody knows yet */
	put(b, "future", 6);
	end(b, at);
	bounds[nbounds++] = b->len;

	at = begin(b, JIT_CODE_CLOSE, 1007);
	end(b, at);
	bounds[nbounds++] = b->len;
}

static char *write_tmp(const char *name, const void *p, size_t n)
{
	char *path = xasprintf("%s/%s", test_tmpdir(), name);
	FILE *f = fopen(path, "w");

	if (!f)
		return path;
	if (n)
		fwrite(p, 1, n, f);
	fclose(f);
	return path;
}

static int check_sample(bool swap)
{
	struct bytes b;
	struct jitdump *jd;
	struct jitdump_record r;
	struct jitdump_cursor c;
	struct jitdump_debug_line l;
	struct jitdump_frame fr[4];
	uint64_t addr;
	uint32_t nf;
	char *path;

	sample_dump(&b, swap);
	path = write_tmp(swap ? "swapped.dump" : "native.dump", b.p, b.len);
	TEST_ASSERT_EQUAL("open", jitdump__open(path, &jd), JITDUMP_OK);
	TEST_ASSERT_VAL("swap detected", jitdump__needs_swap(jd) == swap);
	TEST_ASSERT_EQUAL("header pid", jitdump__header(jd)->pid, 4242);
	TEST_ASSERT_EQUAL("header mach", jitdump__header(jd)->elf_mach, 62);
	TEST_ASSERT_EQUAL("header ts", jitdump__header(jd)->timestamp, 1000);

	TEST_ASSERT_EQUAL("debug", jitdump__next(jd, &r), 1);
	TEST_ASSERT_EQUAL("debug id", r.id, JIT_CODE_DEBUG_INFO);
	TEST_ASSERT_EQUAL("debug ts", r.timestamp, 1001);
	TEST_ASSERT_EQUAL("debug offset", r.offset, 40);
	TEST_ASSERT_EQUAL("debug addr", r.debug.code_addr, 0x7000);
	TEST_ASSERT_EQUAL("debug n", r.debug.nr_entry, 2);
	jitdump_cursor__init(&c, jd, &r);
	TEST_ASSERT_EQUAL("entry 1", jitdump_cursor__next_debug_line(&c, &l), 1);
	TEST_ASSERT_VAL("entry 1 fields", l.addr == 0x7000 && l.lineno == 10 && l.discrim == 0 &&
			!strcmp(l.file, "a/B.java"));
	TEST_ASSERT_EQUAL("entry 2", jitdump_cursor__next_debug_line(&c, &l), 1);
	TEST_ASSERT_VAL("entry 2 fields", l.addr == 0x7003 && l.lineno == 11 && l.discrim == 3 &&
			!strcmp(l.file, "a/C.java"));
	TEST_ASSERT_EQUAL("entries end", jitdump_cursor__next_debug_line(&c, &l), 0);

	TEST_ASSERT_EQUAL("inline", jitdump__next(jd, &r), 1);
	TEST_ASSERT_EQUAL("inline id", r.id, JIT_CODE_INLINE_INFO);
	TEST_ASSERT_EQUAL("inline pcs", r.inl.nr_pc, 1);
	jitdump_cursor__init(&c, jd, &r);
	TEST_ASSERT_EQUAL("inline pc", jitdump_cursor__next_inline_pc(&c, &addr, &nf, fr, 4), 1);
	TEST_ASSERT_VAL("inline pc fields", addr == 0x7003 && nf == 2);
	TEST_ASSERT_VAL("leaf frame", !strcmp(fr[0].name, "a.C.f()") && !strcmp(fr[0].file, "a/C.java") &&
			fr[0].line == 11 && fr[0].bci == 4);
	TEST_ASSERT_VAL("caller frame", !strcmp(fr[1].name, "a.C.f()") && fr[1].line == 5 && fr[1].bci == -1);
	TEST_ASSERT_EQUAL("inline end", jitdump_cursor__next_inline_pc(&c, &addr, &nf, fr, 4), 0);

	TEST_ASSERT_EQUAL("load", jitdump__next(jd, &r), 1);
	TEST_ASSERT_EQUAL("load id", r.id, JIT_CODE_LOAD);
	TEST_ASSERT_VAL("load fields", r.load.pid == 4242 && r.load.tid == 4243 && r.load.vma == 0x7000 &&
			r.load.code_addr == 0x7000 && r.load.code_size == 5 && r.load.code_index == 1);
	TEST_ASSERT_VAL("load name", !strcmp(r.load.name, "a.B.m(int)"));
	TEST_ASSERT_VAL("load code", !memcmp(r.load.code, code1, sizeof(code1)));

	TEST_ASSERT_EQUAL("move", jitdump__next(jd, &r), 1);
	TEST_ASSERT_VAL("move fields", r.id == JIT_CODE_MOVE && r.move.old_code_addr == 0x7000 &&
			r.move.new_code_addr == 0x8000 && r.move.code_index == 1 && r.move.code_size == 5);

	TEST_ASSERT_EQUAL("unwind", jitdump__next(jd, &r), 1);
	TEST_ASSERT_VAL("unwind fields", r.id == JIT_CODE_UNWINDING_INFO && r.unwind.unwinding_size == 6 &&
			r.unwind.eh_frame_hdr_size == 2 && !memcmp(r.unwind.data, "EHFRhd", 6));

	TEST_ASSERT_EQUAL("unknown", jitdump__next(jd, &r), 1);
	TEST_ASSERT_VAL("unknown id kept", r.id == 77 && r.size == 22 && r.timestamp == 1006);

	TEST_ASSERT_EQUAL("close", jitdump__next(jd, &r), 1);
	TEST_ASSERT_VAL("close fields", r.id == JIT_CODE_CLOSE && r.size == 16);
	TEST_ASSERT_EQUAL("end", jitdump__next(jd, &r), 0);
	TEST_ASSERT_VAL("no partial tail", !jitdump__partial_tail(jd, NULL));
	TEST_ASSERT_EQUAL("end stays", jitdump__next(jd, &r), 0);

	jitdump__rewind(jd);
	TEST_ASSERT_EQUAL("rewind", jitdump__next(jd, &r), 1);
	TEST_ASSERT_EQUAL("rewind offset", r.offset, 40);
	jitdump__close(jd);
	free(path);
	free(b.p);
	return TEST_OK;
}

static int test__jitdump_reader_records(void)
{
	if (check_sample(false) != TEST_OK)
		return TEST_FAIL;
	return check_sample(true);
}
DEFINE_SUITE("jitdump reader: all record types, native byte order and swapped", test__jitdump_reader_records);

static int count_cb(const struct jitdump_record *r, void *arg)
{
	(*(int *)arg)++;
	return 0;
}

static int test__jitdump_reader_truncated(void)
{
	struct bytes b;

	for (int swap = 0; swap < 2; swap++) {
		sample_dump(&b, swap);
		for (size_t cut = 40; cut <= b.len; cut++) {
			char *path = write_tmp("cut.dump", b.p, cut);
			struct jitdump *jd;
			int want = 0, got = 0, r;
			uint64_t tail = 0;
			bool partial;

			for (int i = 1; i < nbounds; i++)
				if (bounds[i] <= cut)
					want++;
			TEST_ASSERT_EQUAL("open cut", jitdump__open(path, &jd), JITDUMP_OK);
			r = jitdump__for_each(jd, count_cb, &got);
			TEST_ASSERT_EQUAL("no error in cut file", r, 0);
			TEST_ASSERT_EQUAL("complete records of a cut file", got, want);
			partial = jitdump__partial_tail(jd, &tail);
			TEST_ASSERT_VAL("partial iff cut inside a record", partial == (bounds[want] != cut));
			if (partial)
				TEST_ASSERT_EQUAL("partial tail offset", tail, bounds[want]);
			jitdump__close(jd);
			free(path);
		}
		free(b.p);
	}
	return TEST_OK;
}
DEFINE_SUITE("jitdump reader: truncated at every byte yields every complete record", test__jitdump_reader_truncated);

static int open_bytes(const void *p, size_t n)
{
	char *path = write_tmp("bad.dump", p, n);
	struct jitdump *jd = NULL;
	int r = jitdump__open(path, &jd);

	jitdump__close(jd);
	free(path);
	return r;
}

static int test__jitdump_reader_bad_headers(void)
{
	struct bytes b = { 0 };
	unsigned char garbage[4096];
	char *path;
	struct jitdump *jd;

	TEST_ASSERT_EQUAL("empty file", open_bytes("", 0), JITDUMP_ERR_SHORT_HEADER);
	header(&b, 1, 40, 0);
	TEST_ASSERT_EQUAL("39 bytes", open_bytes(b.p, 39), JITDUMP_ERR_SHORT_HEADER);
	TEST_ASSERT_EQUAL("header only", open_bytes(b.p, 40), JITDUMP_OK);
	b.len = 0;

	for (size_t i = 0; i < sizeof(garbage); i++)
		garbage[i] = (unsigned char)(i * 131 + 7);
	TEST_ASSERT_EQUAL("garbage", open_bytes(garbage, sizeof(garbage)), JITDUMP_ERR_MAGIC);
	TEST_ASSERT_EQUAL("ELF file", open_bytes("\177ELF\2\1\1\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
						 "\0\0\0\0\0\0\0\0\0\0\0\0", 40), JITDUMP_ERR_MAGIC);
	header(&b, 2, 40, 0);
	TEST_ASSERT_EQUAL("version 2", open_bytes(b.p, b.len), JITDUMP_ERR_VERSION);
	b.len = 0;
	header(&b, 1, 24, 0);
	TEST_ASSERT_EQUAL("header size 24", open_bytes(b.p, b.len), JITDUMP_ERR_HEADER_SIZE);
	b.len = 0;
	header(&b, 1, 4096, 0);
	TEST_ASSERT_EQUAL("header larger than the file", open_bytes(b.p, b.len), JITDUMP_ERR_SHORT_HEADER);
	b.len = 0;
	header(&b, 1, 40, 2);
	TEST_ASSERT_EQUAL("unknown flag", open_bytes(b.p, b.len), JITDUMP_ERR_FLAGS);
	b.len = 0;
	b.swap = true;
	header(&b, 1, 40, JITDUMP_FLAGS_ARCH_TIMESTAMP);
	TEST_ASSERT_EQUAL("swapped arch timestamp flag", open_bytes(b.p, b.len), JITDUMP_OK);
	free(b.p);

	path = xasprintf("%s/missing.dump", test_tmpdir());
	TEST_ASSERT_EQUAL("missing file", jitdump__open(path, &jd), JITDUMP_ERR_IO);
	free(path);
	TEST_ASSERT_EQUAL("directory", jitdump__open(test_tmpdir(), &jd), JITDUMP_ERR_IO);
	TEST_ASSERT_VAL("messages", *jitdump__strerror(JITDUMP_ERR_MAGIC) && *jitdump__strerror(JITDUMP_ERR_RECORD));
	return TEST_OK;
}
DEFINE_SUITE("jitdump reader: empty, garbage and bad headers give clear errors", test__jitdump_reader_bad_headers);

static int test__jitdump_reader_bad_records(void)
{
	struct bytes b = { 0 };
	struct jitdump_record r;
	struct jitdump *jd;
	char *path;
	size_t at;
	int n;

	header(&b, 1, 40, 0);
	/* LOAD claiming more code than the record holds */
	at = begin(&b, JIT_CODE_LOAD, 1);
	put32(&b, 1); put32(&b, 1); put64(&b, 0); put64(&b, 0); put64(&b, 1000); put64(&b, 1);
	put_str(&b, "f");
	end(&b, at);
	/* LOAD whose name runs into the code */
	at = begin(&b, JIT_CODE_LOAD, 2);
	put32(&b, 1); put32(&b, 1); put64(&b, 0); put64(&b, 0); put64(&b, 2); put64(&b, 2);
	put(&b, "xyz", 3);
	end(&b, at);
	/* DEBUG_INFO with more entries than bytes */
	at = begin(&b, JIT_CODE_DEBUG_INFO, 3);
	put64(&b, 0); put64(&b, 1000000);
	end(&b, at);
	/* INLINE_INFO with a string offset outside its table */
	at = begin(&b, JIT_CODE_INLINE_INFO, 4);
	put64(&b, 0); put32(&b, 1); put32(&b, 2);
	put64(&b, 0); put32(&b, 1); put32(&b, 0);
	put32(&b, 5); put32(&b, 0); put32(&b, 1); put32(&b, 0);
	put(&b, "a", 2);
	end(&b, at);
	/* a good CLOSE, then a record too small to have a size */
	at = begin(&b, JIT_CODE_CLOSE, 5);
	end(&b, at);
	at = begin(&b, JIT_CODE_CLOSE, 6);
	set32(&b, at + 4, 8);
	put(&b, "trailing", 8);

	path = write_tmp("badrec.dump", b.p, b.len);
	TEST_ASSERT_EQUAL("open", jitdump__open(path, &jd), JITDUMP_OK);
	for (n = 0; n < 4; n++) {
		TEST_ASSERT_EQUAL("malformed record reported", jitdump__next(&*jd, &r), JITDUMP_ERR_RECORD);
		TEST_ASSERT_VAL("error text", strstr(jitdump__record_error(jd), "offset"));
	}
	TEST_ASSERT_EQUAL("reader goes on after a malformed record", jitdump__next(jd, &r), 1);
	TEST_ASSERT_EQUAL("close", r.id, JIT_CODE_CLOSE);
	TEST_ASSERT_EQUAL("size < 16", jitdump__next(jd, &r), JITDUMP_ERR_RECORD);
	TEST_ASSERT_EQUAL("then the end", jitdump__next(jd, &r), 0);
	jitdump__close(jd);

	/* random bytes after a good header: any result, but no crash and an end */
	for (unsigned seed = 1; seed <= 200; seed++) {
		unsigned x = seed;

		b.len = 40;
		for (int i = 0; i < 300; i++) {
			unsigned char c;

			x = x * 1103515245 + 12345;
			c = (unsigned char)(x >> 16);
			/* keep sizes small so records actually get decoded */
			if (b.len % 16 == 4 + 40 % 16)
				c &= 0x3f;
			put(&b, &c, 1);
		}
		free(path);
		path = write_tmp("fuzz.dump", b.p, b.len);
		TEST_ASSERT_EQUAL("fuzz open", jitdump__open(path, &jd), JITDUMP_OK);
		for (n = 0; n < 1000 && jitdump__next(jd, &r) != 0; n++)
			;
		TEST_ASSERT_VAL("fuzz terminates", n < 1000);
		jitdump__close(jd);
	}
	free(path);
	free(b.p);
	return TEST_OK;
}
DEFINE_SUITE("jitdump reader: malformed records are reported and skipped", test__jitdump_reader_bad_records);
