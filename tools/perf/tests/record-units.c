// SPDX-License-Identifier: MIT
/* Unit tests of perf record's helpers: CPU lists, event names, the ring reader. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "tests.h"
#include "util/cpumap.h"
#include "util/mmap.h"
#include "util/parse-events.h"

static int test__record_cpu_list(void)
{
	struct cpu_map *m = cpu_map__parse("0-3,5\n");

	TEST_ASSERT_VAL("parse 0-3,5", m != NULL);
	TEST_ASSERT_EQUAL("nr", m->nr, 5);
	TEST_ASSERT_EQUAL("last", m->cpus[4], 5);
	cpu_map__delete(m);
	TEST_ASSERT_VAL("reversed range", cpu_map__parse("3-1") == NULL);
	TEST_ASSERT_VAL("garbage", cpu_map__parse("x") == NULL);
	TEST_ASSERT_VAL("empty", cpu_map__parse("") == NULL);
	TEST_ASSERT_VAL("dangling", cpu_map__parse("1-") == NULL);
	m = cpu_map__new_online();
	TEST_ASSERT_VAL("online", m && m->nr >= 1 && m->nr == sysconf(_SC_NPROCESSORS_ONLN));
	cpu_map__delete(m);
	return TEST_OK;
}
DEFINE_SUITE("perf record: CPU list parsing", test__record_cpu_list);

static int test__record_event_names(void)
{
	struct parsed_event *evs = NULL;
	size_t nr = 0;
	char *name;

	TEST_ASSERT_EQUAL("parse", parse_events("cpu-clock:u,task-clock,cycles:k", &evs, &nr), 0);
	TEST_ASSERT_EQUAL("nr", nr, 3);
	TEST_ASSERT_VAL("cpu-clock", evs[0].attr.type == PERF_TYPE_SOFTWARE && evs[0].attr.config == 0);
	TEST_ASSERT_VAL(":u", evs[0].attr.exclude_kernel && evs[0].attr.exclude_hv && !evs[0].attr.exclude_user);
	TEST_ASSERT_VAL("task-clock", evs[1].attr.config == PERF_COUNT_SW_TASK_CLOCK && evs[1].attr.exclude_guest);
	TEST_ASSERT_VAL("cycles:k", evs[2].attr.type == PERF_TYPE_HARDWARE && evs[2].attr.exclude_user);
	/* perf 6.1 names the fallback of cycles:u "cpu-clock:uH" (perf evlist) */
	name = event_name_with_modifiers("cpu-clock", &evs[0].attr);
	TEST_ASSERT_VAL("name :uH", !strcmp(name, "cpu-clock:uH"));
	free(name);
	for (size_t i = 0; i < nr; i++)
		parsed_event__exit(&evs[i]);
	free(evs);
	evs = NULL;
	nr = 0;
	TEST_ASSERT_VAL("unknown", parse_events("no-such-event", &evs, &nr) < 0);
	TEST_ASSERT_VAL("bad modifier", parse_events("cpu-clock:z", &evs, &nr) < 0);
	TEST_ASSERT_VAL("bad tracepoint", parse_events("nosuchgroup:nosuchevent", &evs, &nr) < 0);
	TEST_ASSERT_VAL("path in tracepoint", parse_events("../x:y", &evs, &nr) < 0);
	TEST_ASSERT_EQUAL("nothing added", nr, 0);
	free(evs);
	return TEST_OK;
}
DEFINE_SUITE("perf record: event name parsing", test__record_event_names);

/* a fake ring (control page + 1 data page) with a record across the end */
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
