// SPDX-License-Identifier: MIT
/*
 * perf.data reader and writer (util/data.c): write/read round trips in file
 * and pipe format (mapped file and a real pipe), the file layout of
 * perf-data.md section 1, bad input (one-line error and -1, never a crash),
 * damaged record streams (warning and stop / skip), and a file whose attrs
 * are written after the data, read by perf 6.1.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "tests.h"
#include "util/data.h"
#include "util/debug.h"
#include "util/header.h"
#include "util/util.h"

#define REF_PERF "/usr/bin/perf"

static const uint64_t ids0[] = { 101, 102 }, ids1[] = { 103 };

/* COMM, SAMPLE, STAT_CONFIG (a type we do not parse), FINISHED_ROUND */
static size_t make_records(unsigned char *buf)
{
	size_t n = 0;
	struct perf_event_header h;

	h = (struct perf_event_header){ PERF_RECORD_COMM, 0x2000, 32 };
	memcpy(buf + n, &h, 8);
	memcpy(buf + n + 8, "\x10\x00\x00\x00\x10\x00\x00\x00prog\0\0\0\0\0\0\0\0\0\0\0\0", 24);
	n += 32;
	h = (struct perf_event_header){ PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 24 };
	memcpy(buf + n, &h, 8);
	memcpy(buf + n + 8, "\x00\x10\x40\x00\x00\x00\x00\x00\x10\x00\x00\x00\x10\x00\x00\x00", 16);
	n += 24;
	h = (struct perf_event_header){ PERF_RECORD_STAT_CONFIG, 0, 16 };
	memcpy(buf + n, &h, 8);
	memcpy(buf + n + 8, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	n += 16;
	h = (struct perf_event_header){ PERF_RECORD_FINISHED_ROUND, 0, 8 };
	memcpy(buf + n, &h, 8);
	n += 8;
	return n;
}

static int write_sample_file(const char *path, bool pipe, bool late_attrs)
{
	struct perf_data_writer w;
	struct perf_event_attr a0 = { .type = PERF_TYPE_SOFTWARE, .size = 128, .sample_type = 0x107 };
	struct perf_event_attr a1 = { .type = PERF_TYPE_TRACEPOINT, .size = 128, .config = 77 };
	unsigned char recs[256];
	size_t n = make_records(recs);
	struct feat_buf b = { 0 };
	struct build_id_entry bid = { .cpumode = PERF_RECORD_MISC_KERNEL, .pid = -1, .size = 20,
				      .filename = "[kernel.kallsyms]", .build_id = { 1, 2, 3 } };

	if (perf_data_writer__open(&w, path, pipe))
		return -1;
	if (!late_attrs) {
		perf_data_writer__add_attr(&w, &a0, ids0, 2, "cpu-clock");
		perf_data_writer__add_attr(&w, &a1, ids1, 1, "sched:x");
	}
	feat_buf__put_string(&b, "host");
	perf_data_writer__set_feature(&w, HEADER_HOSTNAME, b.data, b.len);
	feat_buf__release(&b);
	build_id__encode(&b, &bid, 0);
	perf_data_writer__set_feature(&w, HEADER_BUILD_ID, b.data, b.len);
	feat_buf__release(&b);
	perf_data_writer__set_feature(&w, HEADER_TRACING_DATA, "tracing-bytes", 13);
	/* a feature id perf 6.1 does not know: carried opaquely */
	perf_data_writer__set_feature(&w, 40, "opaque", 6);
	if (perf_data_writer__start(&w))
		return -1;
	if (late_attrs) {
		perf_data_writer__add_attr(&w, &a0, ids0, 2, "cpu-clock");
		perf_data_writer__add_attr(&w, &a1, ids1, 1, "sched:x");
	}
	if (perf_data_writer__write(&w, recs, n))
		return -1;
	return perf_data_writer__close(&w);
}

/* reads every record; checks attrs/features/records against write_sample_file's */
static int check_sample_stream(struct perf_data_reader *r)
{
	unsigned char recs[256];
	size_t n = make_records(recs), pos = 0;
	union perf_event *ev;
	uint64_t off;
	int ret, nr_build_id = 0;
	bool saw_tracing = false;

	while ((ret = perf_data_reader__next(r, &ev, &off)) > 0) {
		uint32_t t = ev->header.type;

		if (r->is_pipe && (t == PERF_RECORD_HEADER_ATTR || t == PERF_RECORD_HEADER_FEATURE))
			continue;
		if (t == PERF_RECORD_HEADER_TRACING_DATA) {
			TEST_ASSERT_VAL("tracing payload padded to 8", r->tail_size == 16);
			TEST_ASSERT_VAL("tracing payload", !memcmp(r->tail_buf, "tracing-bytes\0\0\0", 16));
			saw_tracing = true;
			continue;
		}
		if (t == PERF_RECORD_HEADER_BUILD_ID) {
			nr_build_id++;
			TEST_ASSERT_VAL("build-id record", !strcmp(ev->build_id.filename, "[kernel.kallsyms]"));
			continue;
		}
		TEST_ASSERT_VAL("record fits", pos + ev->header.size <= n);
		TEST_ASSERT_VAL("record bytes", !memcmp(ev, recs + pos, ev->header.size));
		pos += ev->header.size;
	}
	TEST_ASSERT_EQUAL("next result", ret, 0);
	TEST_ASSERT_EQUAL("all records", pos, n);
	TEST_ASSERT_EQUAL("attrs", r->nr_attrs, 2);
	TEST_ASSERT_EQUAL("attr 0 ids", r->attrs[0].nr_ids, 2);
	TEST_ASSERT_EQUAL("attr 0 id 1", r->attrs[0].ids[1], 102);
	TEST_ASSERT_EQUAL("attr 1 config", r->attrs[1].attr.config, 77);
	TEST_ASSERT_EQUAL("attr 1 id", r->attrs[1].ids[0], 103);
	TEST_ASSERT_VAL("names from the generated EVENT_DESC",
			r->attrs[0].name && !strcmp(r->attrs[0].name, "cpu-clock") &&
			r->attrs[1].name && !strcmp(r->attrs[1].name, "sched:x"));
	TEST_ASSERT_VAL("HOSTNAME", perf_data_reader__has_feat(r, HEADER_HOSTNAME) &&
					r->feat[HEADER_HOSTNAME].size == 68 &&
					!strcmp((char *)r->feat[HEADER_HOSTNAME].data + 4, "host"));
	TEST_ASSERT_VAL("tracing data", r->tracing_data && r->tracing_data_size >= 13 &&
					    !memcmp(r->tracing_data, "tracing-bytes", 13));
	if (r->is_pipe) {
		TEST_ASSERT_VAL("tracing record seen", saw_tracing);
		TEST_ASSERT_EQUAL("build-ids as records", nr_build_id, 1);
	} else {
		TEST_ASSERT_VAL("BUILD_ID feature", perf_data_reader__has_feat(r, HEADER_BUILD_ID) &&
						    r->feat[HEADER_BUILD_ID].size == 100);
		TEST_ASSERT_VAL("opaque feature 40", perf_data_reader__has_feat(r, 40) &&
						     r->feat[40].size == 6 && !memcmp(r->feat[40].data, "opaque", 6));
	}
	return TEST_OK;
}

static int test__file_round_trip(void)
{
	struct perf_data_reader r;
	unsigned char *f;
	size_t size;
	uint64_t v[8];
	int ret;

	TEST_ASSERT_VAL("write", write_sample_file("f.data", false, false) == 0);
	/* layout: header 104, ids (3 u64), 2 attrs of 144, data of exactly 80 bytes */
	f = (unsigned char *)read_file("f.data", &size);
	TEST_ASSERT_VAL("read back", f);
	memcpy(v, f + 8, sizeof(v));
	TEST_ASSERT_EQUAL("header size", v[0], 104);
	TEST_ASSERT_EQUAL("attr_size", v[1], 144);
	TEST_ASSERT_EQUAL("attrs offset", v[2], 104 + 24);
	TEST_ASSERT_EQUAL("attrs size", v[3], 288);
	TEST_ASSERT_EQUAL("data offset", v[4], 104 + 24 + 288);
	TEST_ASSERT_EQUAL("data size exact", v[5], 80);
	free(f);
	TEST_ASSERT_VAL("open", perf_data_reader__open(&r, "f.data") == 0);
	TEST_ASSERT_VAL("file mode", !r.is_pipe);
	ret = check_sample_stream(&r);
	perf_data_reader__close(&r);
	if (ret)
		return ret;

	/* attrs only known after the data started: they go after the features */
	TEST_ASSERT_VAL("write late", write_sample_file("late.data", false, true) == 0);
	TEST_ASSERT_VAL("open late", perf_data_reader__open(&r, "late.data") == 0);
	TEST_ASSERT_EQUAL("late: data right after the header", r.data_offset, 104);
	ret = check_sample_stream(&r);
	perf_data_reader__close(&r);
	return ret;
}
DEFINE_SUITE("perf.data: file-mode write/read round trip", test__file_round_trip);

static int test__pipe_round_trip(void)
{
	struct perf_data_reader r;
	int ret, fds[2], saved_stdin;
	pid_t pid;

	TEST_ASSERT_VAL("write", write_sample_file("p.data", true, false) == 0);
	/* pipe format detected in a regular file */
	TEST_ASSERT_VAL("open", perf_data_reader__open(&r, "p.data") == 0);
	TEST_ASSERT_VAL("pipe format", r.is_pipe);
	ret = check_sample_stream(&r);
	perf_data_reader__close(&r);
	if (ret)
		return ret;

	/* the same bytes through a real pipe on stdin, written in small pieces */
	TEST_ASSERT_VAL("pipe", pipe(fds) == 0);
	pid = fork();
	if (pid == 0) {
		size_t size;
		char *d = read_file("p.data", &size);

		close(fds[0]);
		for (size_t o = 0; d && o < size; o += 7)
			if (writen(fds[1], d + o, MIN((size_t)7, size - o)) < 0)
				_exit(1);
		_exit(0);
	}
	close(fds[1]);
	saved_stdin = dup(0);
	dup2(fds[0], 0);
	close(fds[0]);
	ret = perf_data_reader__open(&r, "-");
	if (!ret) {
		ret = r.is_pipe && !r.map ? check_sample_stream(&r) : TEST_FAIL;
		perf_data_reader__close(&r);
	}
	dup2(saved_stdin, 0);
	close(saved_stdin);
	waitpid(pid, NULL, 0);
	return ret ? TEST_FAIL : TEST_OK;
}
DEFINE_SUITE("perf.data: pipe-mode write/read round trip (file and real pipe)", test__pipe_round_trip);

/* open must fail with exactly one stderr line naming the file and containing `what` */
static int expect_open_error(const char *path, const char *what)
{
	struct perf_data_reader r;
	int saved = dup(2), fd = open("err.txt", O_WRONLY | O_CREAT | O_TRUNC, 0600), ret;
	char *msg;
	size_t n, lines = 0;

	fflush(stderr);
	dup2(fd, 2);
	close(fd);
	ret = perf_data_reader__open(&r, path);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	if (ret == 0)
		perf_data_reader__close(&r);
	msg = read_file("err.txt", &n);
	for (size_t i = 0; msg && i < n; i++)
		lines += msg[i] == '\n';
	if (ret != -1 || !msg || lines != 1 || !strstr(msg, path) || !strstr(msg, what)) {
		fprintf(stderr, "%s: expected one error line mentioning '%s', got ret %d: %s", path, what, ret,
			msg ? msg : "(nothing)\n");
		free(msg);
		return -1;
	}
	fprintf(stderr, "ok: %s", msg);
	free(msg);
	return 0;
}

static void put_file(const char *path, const void *d, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd >= 0) {
		if (writen(fd, d, n) < 0)
			perror(path);
		close(fd);
	}
}

/* copy of f.data with `n` bytes at `off` replaced */
static void patched(const char *path, const unsigned char *base, size_t size, size_t off,
		    const void *bytes, size_t n)
{
	unsigned char *c = xmalloc(size);

	memcpy(c, base, size);
	memcpy(c + off, bytes, n);
	put_file(path, c, size);
	free(c);
}

static int test__bad_input(void)
{
	unsigned char *f;
	size_t size;
	uint64_t v;
	uint32_t u;
	int bad = 0;

	TEST_ASSERT_VAL("write", write_sample_file("f.data", false, false) == 0);
	f = (unsigned char *)read_file("f.data", &size);
	TEST_ASSERT_VAL("read", f);

	bad |= expect_open_error("missing.data", "No such file");
	put_file("empty.data", "", 0);
	bad |= expect_open_error("empty.data", "empty");
	put_file("text.data", "hello, this is not a perf.data file at all\n", 43);
	bad |= expect_open_error("text.data", "not a perf.data file");
	put_file("short.data", "PERFILE2", 8);
	bad |= expect_open_error("short.data", "too short");
	patched("swapped.data", f, size, 0, "2ELIFREP", 8);
	bad |= expect_open_error("swapped.data", "byte order");
	v = 0;
	patched("attrsize0.data", f, size, 16, &v, 8);
	bad |= expect_open_error("attrsize0.data", "attr_size is 0");
	v = size + 4096;
	patched("attrsout.data", f, size, 24, &v, 8);
	bad |= expect_open_error("attrsout.data", "outside the file");
	v = 1000;
	patched("hsize.data", f, size, 8, &v, 8);
	bad |= expect_open_error("hsize.data", "header size");
	u = 200;   /* attr.size of the first attr: newer ABI than perf 6.1 reads */
	patched("bigattr.data", f, size, 104 + 24 + 4, &u, 4);
	bad |= expect_open_error("bigattr.data", "larger than 128");
	v = 1ull << 40;   /* ids of attr 0 far outside */
	patched("idsout.data", f, size, 104 + 24 + 128, &v, 8);
	bad |= expect_open_error("idsout.data", "ids section");
	/* the first feature section's offset outside the file */
	v = size * 2;
	patched("featout.data", f, size, 104 + 24 + 288 + 80, &v, 8);
	bad |= expect_open_error("featout.data", "feature");
	/* attr.size 0 means the 64-byte first version: read, zero-extended */
	u = 0;
	patched("attr0.data", f, size, 104 + 24 + 4, &u, 4);
	{
		struct perf_data_reader r;

		TEST_ASSERT_VAL("attr.size 0 accepted", perf_data_reader__open(&r, "attr0.data") == 0);
		TEST_ASSERT_EQUAL("attr.size 0: sample_type kept", r.attrs[0].attr.sample_type, 0x107);
		TEST_ASSERT_EQUAL("attr.size 0: ids kept", r.attrs[0].ids[0], 101);
		perf_data_reader__close(&r);
	}
	/* cut inside the data section */
	put_file("trunc.data", f, 104 + 24 + 288 + 40);
	bad |= expect_open_error("trunc.data", "truncated data section");
	free(f);
	return bad ? TEST_FAIL : TEST_OK;
}
DEFINE_SUITE("perf.data: bad input gives one error line and -1", test__bad_input);

/* count of records returned, with the records' stream patched first */
static int read_patched_stream(size_t rec_off, const void *bytes, size_t n, int *nr, uint32_t *types)
{
	unsigned char *f;
	size_t size;
	struct perf_data_reader r;
	union perf_event *ev;
	uint64_t off;
	int ret;

	f = (unsigned char *)read_file("f.data", &size);
	if (!f)
		return -1;
	patched("s.data", f, size, 104 + 24 + 288 + rec_off, bytes, n);
	free(f);
	if (perf_data_reader__open(&r, "s.data"))
		return -1;
	*nr = 0;
	while ((ret = perf_data_reader__next(&r, &ev, &off)) > 0)
		types[(*nr)++] = ev->header.type;
	perf_data_reader__close(&r);
	return ret;
}

static int test__damaged_records(void)
{
	struct perf_event_header h;
	uint32_t types[16];
	int nr;

	TEST_ASSERT_VAL("write", write_sample_file("f.data", false, false) == 0);
	TEST_ASSERT_VAL("intact", read_patched_stream(0, "", 0, &nr, types) == 0 && nr == 4);
	TEST_ASSERT_EQUAL("type below 83 not parsed here is returned", types[2], PERF_RECORD_STAT_CONFIG);

	/* the SAMPLE (offset 32) turned into type 200: skipped with a warning, the rest read */
	h = (struct perf_event_header){ 200, 0, 24 };
	TEST_ASSERT_VAL("unknown type", read_patched_stream(32, &h, 8, &nr, types) == 0);
	TEST_ASSERT_EQUAL("unknown type skipped", nr, 3);
	TEST_ASSERT_EQUAL("after it", types[1], PERF_RECORD_STAT_CONFIG);
	/* type 83..: also never handed out (perf 6.1 aborts on them) */
	h = (struct perf_event_header){ 83, 0, 24 };
	TEST_ASSERT_VAL("type 83", read_patched_stream(32, &h, 8, &nr, types) == 0 && nr == 3);
	/* size < 8: warning and stop */
	h = (struct perf_event_header){ PERF_RECORD_SAMPLE, 0, 4 };
	TEST_ASSERT_VAL("size 4", read_patched_stream(32, &h, 8, &nr, types) == 0);
	TEST_ASSERT_EQUAL("stops at the bad record", nr, 1);
	h = (struct perf_event_header){ PERF_RECORD_SAMPLE, 0, 0 };
	TEST_ASSERT_VAL("size 0", read_patched_stream(32, &h, 8, &nr, types) == 0 && nr == 1);
	/* the last record running past the data end */
	h = (struct perf_event_header){ PERF_RECORD_FINISHED_ROUND, 0, 64 };
	TEST_ASSERT_VAL("past end", read_patched_stream(72, &h, 8, &nr, types) == 0);
	TEST_ASSERT_EQUAL("records before it", nr, 3);
	return TEST_OK;
}
DEFINE_SUITE("perf.data: damaged record streams warn and stop, unknown types skipped", test__damaged_records);

/*
 * perf 6.1 accepts the layout with the attrs section after the feature
 * payloads (what a pipe converted to a file with late attrs gets): copy a
 * perf 6.1 recording with the attrs added after the data started and
 * compare perf 6.1's `perf script` of both.
 */
static int test__late_attrs_perf61(void)
{
	struct perf_data_reader r;
	struct perf_data_writer w;
	union perf_event *ev;
	uint64_t off;
	int ret;

	if (access(REF_PERF, X_OK))
		return printf("SKIP: perf 6.1 not installed\n"), TEST_SKIP;
	if (system("HOME=$PWD " REF_PERF " record -q -e cpu-clock -o ref.data -- dd if=/dev/zero of=/dev/null "
		   "bs=4k count=20000 >/dev/null 2>&1"))
		return printf("SKIP: perf 6.1 cannot record here\n"), TEST_SKIP;
	TEST_ASSERT_VAL("open", perf_data_reader__open(&r, "ref.data") == 0);
	TEST_ASSERT_VAL("create", perf_data_writer__open(&w, "late.data", false) == 0);
	for (int f = 1; f < HEADER_FEAT_BITS; f++)
		if (perf_data_reader__has_feat(&r, f))
			perf_data_writer__set_feature(&w, f, r.feat[f].data, r.feat[f].size);
	TEST_ASSERT_VAL("start", perf_data_writer__start(&w) == 0);
	for (size_t i = 0; i < r.nr_attrs; i++)
		perf_data_writer__add_attr(&w, &r.attrs[i].attr, r.attrs[i].ids, r.attrs[i].nr_ids, r.attrs[i].name);
	while ((ret = perf_data_reader__next(&r, &ev, &off)) > 0)
		TEST_ASSERT_VAL("write", perf_data_writer__write(&w, ev, ev->header.size) == 0);
	TEST_ASSERT_VAL("read all", ret == 0);
	perf_data_reader__close(&r);
	TEST_ASSERT_VAL("close", perf_data_writer__close(&w) == 0);
	TEST_ASSERT_VAL("our reader reads it", perf_data_reader__open(&r, "late.data") == 0);
	TEST_ASSERT_VAL("attrs after the data", r.data_offset == 104);
	perf_data_reader__close(&r);
	ret = system("HOME=$PWD " REF_PERF " script -i ref.data >ref.txt 2>ref.err && "
		     "HOME=$PWD " REF_PERF " script -i late.data >late.txt 2>late.err && "
		     "test -s ref.txt && cmp ref.txt late.txt && cmp ref.err late.err");
	TEST_ASSERT_VAL("perf 6.1 script identical for the late-attrs layout", ret == 0);
	return TEST_OK;
}
DEFINE_SUITE("perf.data: attrs after the data section, read by perf 6.1", test__late_attrs_perf61);

/* open + read everything; only "no crash, sane result" is checked (run under SAN=1 too) */
static int read_all_quietly(const char *path)
{
	struct perf_data_reader r;
	union perf_event *ev;
	uint64_t off;
	int ret, n = 0;

	if (perf_data_reader__open(&r, path))
		return -1;
	while ((ret = perf_data_reader__next(&r, &ev, &off)) > 0) {
		if (ev->header.size < 8 || ev->header.type >= PERF_RECORD_HEADER_MAX)
			ret = -2;
		if (++n > 100000 || ret == -2)
			break;
	}
	perf_data_reader__close(&r);
	return ret == -2 ? -2 : 0;
}

static int test__mutations(void)
{
	unsigned char *f, *c;
	size_t size;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	int saved = dup(2), devnull = open("/dev/null", O_WRONLY), quiet_errs = 0;
	int pipe_bad = 0, file_bad = 0;

	TEST_ASSERT_VAL("write", write_sample_file("f.data", false, false) == 0);
	TEST_ASSERT_VAL("write pipe", write_sample_file("p.data", true, false) == 0);
	fflush(stderr);
	dup2(devnull, 2);
	for (int which = 0; which < 2; which++) {
		f = (unsigned char *)read_file(which ? "p.data" : "f.data", &size);
		if (!f)
			break;
		c = xmalloc(size);
		/* every truncation */
		for (size_t len = 0; len < size; len++) {
			put_file("m.data", f, len);
			if (read_all_quietly("m.data") == -2)
				(*(which ? &pipe_bad : &file_bad))++;
		}
		/* random byte damage, a few bytes at a time */
		for (int i = 0; i < 800; i++) {
			memcpy(c, f, size);
			for (int k = 0; k < 1 + i % 4; k++) {
				seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
				c[seed % size] = (unsigned char)(seed >> 32);
			}
			put_file("m.data", c, size);
			if (read_all_quietly("m.data") == -2)
				(*(which ? &pipe_bad : &file_bad))++;
			quiet_errs++;
		}
		free(c);
		free(f);
	}
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(devnull);
	TEST_ASSERT_EQUAL("bad records handed out (file)", file_bad, 0);
	TEST_ASSERT_EQUAL("bad records handed out (pipe)", pipe_bad, 0);
	TEST_ASSERT_VAL("ran", quiet_errs == 1600);
	return TEST_OK;
}
DEFINE_SUITE("perf.data: truncated and damaged files never crash the reader", test__mutations);
