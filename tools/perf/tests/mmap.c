// SPDX-License-Identifier: MIT
/* The ring buffer reader (util/mmap.c): records that wrap are copied out whole. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "tests.h"
#include "util/mmap.h"

static int test__record_ring_wrap(void)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *mem = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct perf_event_mmap_page *pc = (void *)mem;
	unsigned char *data = mem + page, rec[48];
	struct perf_event_header *h = (void *)rec;
	struct perf_mmap m;
	union perf_event *ev;
	uint64_t start = (uint64_t)page * 3 - 16;   /* 16 bytes before the end, 3rd lap */

	TEST_ASSERT_VAL("mmap", mem != MAP_FAILED);
	for (size_t i = 0; i < sizeof(rec); i++)
		rec[i] = (unsigned char)i;
	h->type = PERF_RECORD_SAMPLE;
	h->misc = 0;
	h->size = sizeof(rec);
	for (size_t i = 0; i < sizeof(rec); i++)
		data[(start + i) & (page - 1)] = rec[i];
	pc->data_tail = start;
	pc->data_head = start + sizeof(rec);

	memset(&m, 0, sizeof(m));
	m.base = mem;
	m.data = data;
	m.mask = page - 1;
	TEST_ASSERT_EQUAL("avail", perf_mmap__read_init(&m), sizeof(rec));
	ev = perf_mmap__read_event(&m);
	TEST_ASSERT_VAL("record", ev != NULL);
	TEST_ASSERT_VAL("copied whole", !memcmp(ev, rec, sizeof(rec)));
	TEST_ASSERT_VAL("end of round", perf_mmap__read_event(&m) == NULL);
	perf_mmap__read_done(&m);
	TEST_ASSERT_EQUAL("tail", pc->data_tail, start + sizeof(rec));
	free(m.copy);
	munmap(mem, 2 * page);
	return TEST_OK;
}
DEFINE_SUITE("perf record: ring records that wrap are copied out whole", test__record_ring_wrap);
