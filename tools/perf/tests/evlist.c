// SPDX-License-Identifier: MIT
/*
 * The events perf record opens (util/evlist.c): the attrs evlist__config
 * sets, as `perf record -vv` of perf 6.1 prints them for the same command
 * line, and a real per-thread open on this process: every fd opened, every
 * id known to evlist__find_id.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "util/cpumap.h"
#include "util/evlist.h"
#include "util/parse-events.h"

static int add_events(struct evlist *el, const char *list)
{
	struct parsed_event *evs = NULL;
	size_t nr = 0;

	if (parse_events(list, &evs, &nr))
		return -1;
	for (size_t i = 0; i < nr; i++) {
		evlist__add(el, &evs[i], true);
		parsed_event__exit(&evs[i]);
	}
	free(evs);
	return 0;
}

static bool tracks(const struct perf_event_attr *a)
{
	return a->mmap && a->comm && a->task && a->mmap2 && a->comm_exec;
}

/* perf 6.1: record -g -e cpu-clock,task-clock -- true */
static int test__evlist_config_workload(void)
{
	const uint64_t type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			      PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_ID | PERF_SAMPLE_PERIOD;
	struct record_opts opts = { .workload = true, .callchain = true, .freq = 4000 };
	struct evlist el;

	evlist__init(&el);
	TEST_ASSERT_VAL("parse", add_events(&el, "cpu-clock,task-clock") == 0);
	evlist__config(&el, &opts);
	TEST_ASSERT_EQUAL("events", el.nr, 2);
	for (size_t i = 0; i < el.nr; i++) {
		const struct perf_event_attr *a = &el.entries[i].attr;

		TEST_ASSERT_EQUAL("sample_type", a->sample_type, type);
		TEST_ASSERT_EQUAL("read_format", a->read_format, PERF_FORMAT_ID | PERF_FORMAT_LOST);
		TEST_ASSERT_VAL("freq 4000", a->freq && a->sample_freq == 4000);
		TEST_ASSERT_VAL("disabled, inherit, enable_on_exec",
				a->disabled && a->inherit && a->enable_on_exec);
		TEST_ASSERT_VAL("sample_id_all", a->sample_id_all);
	}
	/* the side-band records come from the first event only */
	TEST_ASSERT_VAL("first tracks", tracks(&el.entries[0].attr));
	TEST_ASSERT_VAL("second does not", !el.entries[1].attr.mmap && !el.entries[1].attr.comm &&
			!el.entries[1].attr.task);
	evlist__exit(&el);
	return TEST_OK;
}
DEFINE_SUITE("evlist: attrs of a workload's events as perf 6.1 sets them", test__evlist_config_workload);

/* perf 6.1: record -a -c 1000 -e cpu-clock (a dummy:HG event tracks, events sample CPU) */
static int test__evlist_config_system_wide(void)
{
	struct record_opts opts = { .system_wide = true, .user_period = true, .period = 1000,
				    .freq = 4000 };
	const struct perf_event_attr *ev, *dummy;
	struct evlist el;

	evlist__init(&el);
	TEST_ASSERT_VAL("parse", add_events(&el, "cpu-clock") == 0);
	evlist__config(&el, &opts);
	TEST_ASSERT_EQUAL("cpu-clock and dummy", el.nr, 2);
	ev = &el.entries[0].attr;
	dummy = &el.entries[1].attr;
	TEST_ASSERT_VAL("dummy last", dummy->type == PERF_TYPE_SOFTWARE &&
			dummy->config == PERF_COUNT_SW_DUMMY && !strcmp(el.entries[1].name, "dummy:HG"));
	/* (perf 6.1 gives the dummy -c's period too; it samples nothing, so no matter) */
	TEST_ASSERT_VAL("dummy tracks", tracks(dummy) && !dummy->disabled);
	TEST_ASSERT_VAL("event does not track", !ev->mmap && !ev->comm && !ev->task);
	TEST_ASSERT_VAL("-c: a period, no freq", !ev->freq && ev->sample_period == 1000);
	/* no PERIOD with -c, CPU with -a; one layout for both, so ID (not IDENTIFIER) */
	TEST_ASSERT_EQUAL("sample_type", ev->sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			  PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU);
	TEST_ASSERT_EQUAL("dummy's sample_type", dummy->sample_type, ev->sample_type);
	TEST_ASSERT_VAL("no enable_on_exec for -a", !ev->enable_on_exec);
	evlist__exit(&el);
	return TEST_OK;
}
DEFINE_SUITE("evlist: attrs of -a -c with its tracking dummy event as perf 6.1 sets them",
	     test__evlist_config_system_wide);

/* a real open on this process: fds, kernel ids, lookup by id */
static int test__evlist_open_self(void)
{
	struct record_opts opts = { .per_thread = true, .no_inherit = true, .freq = 100 };
	struct cpu_map *any = cpu_map__new_any();
	pid_t self = getpid();
	struct evlist el;
	int ret = TEST_FAIL;

	evlist__init(&el);
	if (add_events(&el, "cpu-clock,task-clock"))
		goto out;
	evlist__config(&el, &opts);
	evlist__set_targets(&el, any, &self, 1);
	if (evlist__open(&el)) {
		ret = TEST_SKIP;    /* perf_event_paranoid or seccomp: said why above */
		goto out;
	}
	for (size_t i = 0; i < el.nr; i++) {
		struct evsel *e = &el.entries[i];

		if (e->fds[0] < 0 || e->ids[0] == 0) {
			fprintf(stderr, "FAILED %s: fd %d id %llu\n", e->name, e->fds[0],
				(unsigned long long)e->ids[0]);
			goto out;
		}
		if (evlist__find_id(&el, e->ids[0]) != e) {
			fprintf(stderr, "FAILED id %llu not found as %s\n", (unsigned long long)e->ids[0], e->name);
			goto out;
		}
	}
	if (el.entries[0].ids[0] == el.entries[1].ids[0] || evlist__find_id(&el, ~0ull) != NULL) {
		fprintf(stderr, "FAILED ids not distinct, or an unknown id found\n");
		goto out;
	}
	if (evlist__sample_type(&el) != el.entries[0].attr.sample_type) {
		fprintf(stderr, "FAILED evlist__sample_type\n");
		goto out;
	}
	ret = TEST_OK;
out:
	evlist__exit(&el);
	cpu_map__delete(any);
	return ret;
}
DEFINE_SUITE("evlist: events opened on this process, each id found again", test__evlist_open_self);
