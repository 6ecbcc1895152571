// SPDX-License-Identifier: MIT
/* perf-PID.map hygiene: where entries overlap (memory freed and reused by the JIT) the later
 * line wins, address by address; what it does not cover keeps the earlier name. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/tests.h"
#include "util/perf-map.h"

static const char *name_at(struct symtab *t, uint64_t addr)
{
	struct symbol *s = symtab__find(t, addr);

	return s ? s->name : "(none)";
}

static int test__perf_map_overlap(void)
{
	char path[] = "/tmp/perftest-pmap-XXXXXX";
	struct symtab t = { 0 };
	int fd = mkstemp(path);
	FILE *f;

	TEST_ASSERT_VAL("mkstemp", fd >= 0);
	f = fdopen(fd, "w");
	TEST_ASSERT_VAL("fdopen", f);
	fprintf(f, "1000 100 old_big\n"       /* a small later one inside: old_big around it */
		"1020 10 new_small\n"
		"2000 10 early_small\n"        /* a big later one over it: later_big everywhere */
		"1ff0 100 later_big\n"
		"3000 10 same_a\n"             /* the same range twice: the second */
		"3000 10 same_b\n"
		"4000 20 tail_old\n"           /* a later one over its end */
		"4010 20 tail_new\n"
		"5000 10 alone\n");
	fclose(f);
	TEST_ASSERT_VAL("loaded", perf_map__load(path, &t) > 0);
	unlink(path);
	symtab__finish(&t);
	TEST_ASSERT_VAL("before the inner one", !strcmp(name_at(&t, 0x1005), "old_big"));
	TEST_ASSERT_VAL("inner later line", !strcmp(name_at(&t, 0x1025), "new_small"));
	TEST_ASSERT_VAL("after the inner one", !strcmp(name_at(&t, 0x1050), "old_big"));
	TEST_ASSERT_VAL("outer later line over an earlier one", !strcmp(name_at(&t, 0x2005), "later_big"));
	TEST_ASSERT_VAL("outer later line, own start", !strcmp(name_at(&t, 0x1ff5), "later_big"));
	TEST_ASSERT_VAL("outer later line, after", !strcmp(name_at(&t, 0x2050), "later_big"));
	TEST_ASSERT_VAL("same range: the later", !strcmp(name_at(&t, 0x3005), "same_b"));
	TEST_ASSERT_VAL("overlapped tail: old part", !strcmp(name_at(&t, 0x4008), "tail_old"));
	TEST_ASSERT_VAL("overlapped tail: new part", !strcmp(name_at(&t, 0x4018), "tail_new"));
	TEST_ASSERT_VAL("overlapped tail: beyond", !strcmp(name_at(&t, 0x4028), "tail_new"));
	TEST_ASSERT_VAL("untouched", !strcmp(name_at(&t, 0x5005), "alone"));
	TEST_ASSERT_VAL("gap", !strcmp(name_at(&t, 0x2100), "(none)"));
	symtab__exit(&t);
	return TEST_OK;
}
DEFINE_SUITE("Symbols: perf-PID.map overlaps, the later line wins", test__perf_map_overlap);
