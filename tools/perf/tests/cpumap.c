// SPDX-License-Identifier: MIT
/* CPU lists (util/cpumap.c) as perf record -C takes them. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "util/cpumap.h"

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
