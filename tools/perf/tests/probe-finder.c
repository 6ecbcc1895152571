// SPDX-License-Identifier: MIT
/*
 * probe-finder: DWARF resolution of the dwarf_vars workload checked against
 * what its source and objdump-independent facts say (locations from DWARF,
 * not from a run of our own tool).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/tests.h"
#include "util/probe-finder.h"
#include "util/util.h"

static char *workload(const char *name)
{
	const char *top = getenv("TOP");
	char *p = xasprintf("%s/build/workloads/%s", top ? top : ".", name);

	if (access(p, X_OK)) {
		free(p);
		return NULL;
	}
	return p;
}

/* an -O0 build keeps everything in frame slots: fetched relative to %bp after the prologue */
static int test__probe_finder_O0(void)
{
	char *bin = workload("dwarf_vars_O0");
	struct probe_point pp;
	struct probe_sites s;
	char *args[] = { "a", "b", "sum" }, *bad[] = { "nosuch" };

	if (!bin) {
		fprintf(stderr, "SKIP: dwarf_vars_O0 not built (make build-tests)\n");
		return TEST_SKIP;
	}
	TEST_ASSERT_VAL("parse", probe_point__parse("compute", &pp) == 0);
	TEST_ASSERT_VAL("find", probe_finder__find(bin, &pp, args, 3, &s) == 0);
	TEST_ASSERT_EQUAL("one site", s.nr, (size_t)1);
	TEST_ASSERT_VAL("after the prologue", s.v[0].func_off > 0);
	TEST_ASSERT_VAL("frame slots", strstr(s.v[0].args, "a=-") && strstr(s.v[0].args, "(%bp):s32") &&
			strstr(s.v[0].args, "sum="));
	TEST_ASSERT_VAL("event name", !strcmp(s.event, "compute"));
	probe_sites__exit(&s);
	TEST_ASSERT_VAL("unknown variable refused", probe_finder__find(bin, &pp, bad, 1, &s) < 0);
	probe_point__exit(&pp);
	TEST_ASSERT_VAL("unknown function", probe_point__parse("no_such_fn", &pp) == 0 &&
			probe_finder__find(bin, &pp, NULL, 0, &s) < 0);
	probe_point__exit(&pp);
	free(bin);
	return TEST_OK;
}

/* -O2: inlined constant as an immediate, register parameters, computed variable refused */
static int test__probe_finder_O2(void)
{
	char *bin = workload("dwarf_vars_O2");
	struct probe_point pp;
	struct probe_sites s;
	char *inl[] = { "factor" }, *regs[] = { "c", "s" }, *computed[] = { "d" };

	if (!bin) {
		fprintf(stderr, "SKIP: dwarf_vars_O2 not built (make build-tests)\n");
		return TEST_SKIP;
	}
	TEST_ASSERT_VAL("scale", probe_point__parse("scale", &pp) == 0 &&
			probe_finder__find(bin, &pp, inl, 1, &s) == 0);
	TEST_ASSERT_VAL("inline site", s.nr >= 1 && s.v[0].inlined);
	TEST_ASSERT_VAL("constant 3", !strcmp(s.v[0].args, "factor=\\3:s32"));
	probe_sites__exit(&s);
	probe_point__exit(&pp);
	TEST_ASSERT_VAL("negs", probe_point__parse("negs", &pp) == 0 &&
			probe_finder__find(bin, &pp, regs, 2, &s) == 0);
	TEST_ASSERT_VAL("s8/s16 in registers", !strcmp(s.v[0].args, "c=%di:s8 s=%si:s16"));
	probe_sites__exit(&s);
	probe_point__exit(&pp);
	TEST_ASSERT_VAL("diffs", probe_point__parse("diffs:5", &pp) == 0);
	TEST_ASSERT_VAL("computed refused", probe_finder__find(bin, &pp, computed, 1, &s) < 0);
	probe_point__exit(&pp);
	free(bin);
	return TEST_OK;
}

DEFINE_SUITE("probe-finder: -O0 frame-slot variables of dwarf_vars", test__probe_finder_O0);
DEFINE_SUITE("probe-finder: -O2 inlined constant, s8/s16 registers, computed variable refused", test__probe_finder_O2);
