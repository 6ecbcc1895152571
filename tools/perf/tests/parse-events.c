// SPDX-License-Identifier: MIT
/* Event names (util/parse-events.c) as perf record -e takes them. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "util/parse-events.h"

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
	name = event_name__with_modifiers("cpu-clock", &evs[0].attr);
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
