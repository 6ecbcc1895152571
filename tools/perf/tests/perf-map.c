// SPDX-License-Identifier: MIT
/*
 * /tmp/perf-PID.map (util/perf-map.c): parsing, bad lines and the owner
 * rule, names as perf 6.1 shows them, and overlaps (memory freed and reused
 * by the JIT): the later line wins, address by address; what it does not
 * cover keeps the earlier name.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/symbol-helpers.h"
#include "tests/tests.h"
#include "util/build-id.h"
#include "util/dso.h"
#include "util/kallsyms.h"
#include "util/perf-map.h"

static int test__perf_map_parse(void)
{
	const char *path = "/tmp/perf-999999999.map";
	struct symtab t = { 0 };
	struct symbol *s;
	FILE *f = fopen(path, "w");

	TEST_ASSERT_VAL("create map", f);
	fprintf(f, "1000 10 first\nnot a line\n2000 zz bad_size\n3000 20 with spaces in name\n"
		"4000 8\n0x5000 10 prefixed\n\n6000 10 last");
	fclose(f);
	TEST_ASSERT_EQUAL("good lines", perf_map__load(path, &t), 4);
	symtab__finish(&t);
	s = symtab__find(&t, 0x1005);
	TEST_ASSERT_VAL("first", s && !strcmp(s->name, "first"));
	TEST_ASSERT_VAL("size respected", symtab__find(&t, 0x1010) == NULL);
	s = symtab__find(&t, 0x301f);
	TEST_ASSERT_VAL("spaces kept", s && !strcmp(s->name, "with spaces in name"));
	TEST_ASSERT_VAL("no newline at end", (s = symtab__find(&t, 0x6000)) && !strcmp(s->name, "last"));
	TEST_ASSERT_VAL("bad size skipped", symtab__find(&t, 0x2000) == NULL);
	symtab__exit(&t);
	TEST_ASSERT_EQUAL("pid", perf_map__pid(path), 999999999);
	TEST_ASSERT_EQUAL("not a map", perf_map__pid("/tmp/perf-12.mapx"), -1);

	/* owned by someone else: ignored, like perf */
	if (geteuid() == 0) {
		TEST_ASSERT_VAL("chown", chown(path, 65534, 65534) == 0);
		TEST_ASSERT_EQUAL("foreign map ignored", perf_map__load(path, &t), -1);
		symtab__exit(&t);
	}
	unlink(path);
	return TEST_OK;
}
DEFINE_SUITE("Symbols: perf-PID.map parsing, bad lines, owner", test__perf_map_parse);

static int test__perf_map_vs_perf(void)
{
	char *w = sym_test__workload("sym_jit_map"), *cmd, *out, *line, *save = NULL, *map;
	int pid = 0, compared = 0;
	unsigned long addr = 0;
	struct dsos d;
	struct dso *dso;

	if (!w)
		return TEST_FAIL;
	if (access("/usr/bin/perf", X_OK))
		return TEST_SKIP;
	cmd = xasprintf("/usr/bin/perf record -q -e cpu-clock -o jit.data '%s' 300 'Lcom/example/Foo;hot(I)V' "
			"'second one' 'garbage line' '12 34' '' 2>/dev/null", w);
	out = sym_test__run(cmd);
	TEST_ASSERT_VAL("perf 6.1 record", out && sscanf(out, "%d %lx", &pid, &addr) == 2);
	free(out);
	free(cmd);
	out = sym_test__run("/usr/bin/perf script -i jit.data -F ip,sym 2>/dev/null");
	TEST_ASSERT_VAL("perf 6.1 script", out);
	map = xasprintf("/tmp/perf-%d.map", pid);
	dsos__init(&d);
	dso = dsos__findnew(&d, map);
	TEST_ASSERT_VAL("perf map kind", dso->kind == DSO_KIND_PERF_MAP && dso->absolute);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long ip;
		int pos = 0;
		struct symbol *s;

		if (sscanf(line, " %lx %n", &ip, &pos) != 1 || ip < addr || ip >= addr + 4096)
			continue;
		s = dso__find_symbol(dso, dso__offset_to_addr(dso, ip));
		if (strcmp(s ? s->name : "[unknown]", line + pos)) {
			fprintf(stderr, "ip %#lx: perf 6.1 '%s', we '%s'\n", ip, line + pos, s ? s->name : "[unknown]");
			unlink(map);
			return TEST_FAIL;
		}
		compared++;
	}
	fprintf(stderr, "%d JIT samples named like perf 6.1\n", compared);
	unlink(map);
	dsos__exit(&d);
	TEST_ASSERT_VAL("samples in the JIT code", compared > 10);
	free(map);
	free(out);
	free(w);
	return TEST_OK;
}
DEFINE_SUITE("Symbols: perf-PID.map names match perf 6.1", test__perf_map_vs_perf);

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
