// SPDX-License-Identifier: MIT
/*
 * The session (util/session.c) delivers records in time order so that a
 * sample resolves to what was mapped at its time, however the records lie
 * in the file.
 */
#include <stdlib.h>
#include <string.h>
#include "tests/tests.h"
#include "util/data.h"
#include "util/machine.h"
#include "util/session.h"
#include "util/util.h"

struct order_check {
	struct perf_tool tool;
	char *seen[4];
	int n;
};

static int order_sample(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
			struct perf_sample *sample, struct evsel *evsel)
{
	struct order_check *oc = (struct order_check *)tool;
	struct addr_location al;

	(void)ev; (void)evsel;
	machine__resolve(&s->machine, sample->pid, sample->tid, sample->cpumode, sample->ip, &al, true);
	if (oc->n < 4)
		oc->seen[oc->n++] = xstrdup(al.dso ? al.dso->long_name : "none");
	return 0;
}

static void put_mmap2(struct perf_data_writer *w, uint64_t time, const char *name)
{
	unsigned char buf[256] = { 0 };
	struct perf_record_mmap2 *m = (void *)buf;
	size_t nl = ALIGN_UP(strlen(name) + 1, 8);
	uint32_t pidtid[2] = { 42, 42 };

	m->header.type = PERF_RECORD_MMAP2;
	m->header.misc = PERF_RECORD_MISC_USER;
	m->header.size = sizeof(*m) + nl + 16;
	m->pid = m->tid = 42;
	m->start = 0x400000;
	m->len = 0x1000;
	m->prot = 5;
	strcpy(m->filename, name);
	memcpy(buf + sizeof(*m) + nl, pidtid, 8);
	memcpy(buf + sizeof(*m) + nl + 8, &time, 8);
	perf_data_writer__write(w, buf, m->header.size);
}

static void put_sample(struct perf_data_writer *w, uint64_t time, uint64_t ip)
{
	struct {
		struct perf_event_header h;
		uint64_t ip;
		uint32_t pid, tid;
		uint64_t time, period;
	} s = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s) }, ip, 42, 42, time, 1 };

	perf_data_writer__write(w, &s, sizeof(s));
}

static int test__time_order(void)
{
	struct perf_event_attr attr = { 0 };
	struct perf_data_writer w;
	struct perf_event_header round = { PERF_RECORD_FINISHED_ROUND, 0, 8 };
	struct order_check oc = { .tool.sample = order_sample };
	struct perf_session *s;
	char *path = xasprintf("%s/order.data", test_tmpdir());
	uint64_t id = 7;

	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	attr.sample_id_all = 1;
	attr.sample_period = 1;
	TEST_ASSERT_VAL("open writer", perf_data_writer__open(&w, path, false) == 0);
	TEST_ASSERT_VAL("attr", perf_data_writer__add_attr(&w, &attr, &id, 1, "cpu-clock") == 0);
	TEST_ASSERT_VAL("start", perf_data_writer__start(&w) == 0);
	/* file order differs from time order within the round, as with per-CPU buffers */
	put_mmap2(&w, 100, "/first.so");
	put_mmap2(&w, 200, "/second.so");
	put_sample(&w, 150, 0x400010);
	put_sample(&w, 250, 0x400010);
	perf_data_writer__write(&w, &round, sizeof(round));
	put_sample(&w, 300, 0x400020);
	TEST_ASSERT_VAL("close", perf_data_writer__close(&w) == 0);

	s = perf_session__open(path);
	TEST_ASSERT_VAL("session opens", s);
	TEST_ASSERT_VAL("process", perf_session__process_events(s, &oc.tool) == 0);
	perf_session__delete(s);
	free(path);
	for (int i = 0; i < oc.n; i++)
		fprintf(stderr, "sample %d resolved to %s\n", i, oc.seen[i]);
	/* the strings are leaked on failure; a test process is short-lived */
	TEST_ASSERT_EQUAL("samples", oc.n, 3);
	TEST_ASSERT_VAL("sample at 150 in /first.so", !strcmp(oc.seen[0], "/first.so"));
	TEST_ASSERT_VAL("sample at 250 in /second.so", !strcmp(oc.seen[1], "/second.so"));
	TEST_ASSERT_VAL("sample at 300 in /second.so", !strcmp(oc.seen[2], "/second.so"));
	for (int i = 0; i < oc.n; i++)
		free(oc.seen[i]);
	return TEST_OK;
}
DEFINE_SUITE("Session: records delivered in time order resolve to the map of their time", test__time_order);
