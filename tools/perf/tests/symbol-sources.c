// SPDX-License-Identifier: MIT
/* Non-ELF symbol sources: /tmp/perf-PID.map, /proc/kallsyms, the vDSO; and
 * DWARF line numbers. Compared with perf 6.1 and addr2line. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/tests.h"
#include "tests/symbol-helpers.h"
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

/* perf 6.1 records a JIT-like workload; both must name the same samples. */
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

static int test__kallsyms(void)
{
	struct dsos d;
	struct dso *dso;
	struct symbol *s = NULL;
	char *out;
	unsigned long long addr = 0;

	if (geteuid() != 0)
		return TEST_SKIP;
	out = sym_test__run("awk '$3 == \"schedule\" && ($2 == \"T\" || $2 == \"t\") {print $1; exit}' /proc/kallsyms");
	TEST_ASSERT_VAL("schedule in /proc/kallsyms", out && sscanf(out, "%llx", &addr) == 1 && addr);
	free(out);
	dsos__init(&d);
	dso = dsos__findnew(&d, "[kernel.kallsyms]");
	TEST_ASSERT_VAL("kernel kind", dso->kind == DSO_KIND_KERNEL && dso->absolute);
	TEST_ASSERT_VAL("kallsyms loaded", dso__load(&d, dso) > 10000);
	TEST_ASSERT_VAL("running kernel's build-id", dso->build_id_size == 20);
	s = dso__find_symbol(dso, addr);
	TEST_ASSERT_VAL("schedule at its address", s && !strcmp(s->name, "schedule") && s->start == addr);
	s = dso__find_symbol(dso, addr + 1);
	TEST_ASSERT_VAL("inside schedule", s && !strcmp(s->name, "schedule"));
	TEST_ASSERT_VAL("ends at the next symbol", s->end > addr);
	dsos__exit(&d);

	/* recorded on another kernel (wrong build-id), nothing cached: no symbols */
	dsos__init(&d);
	d.debug_dir = "/nonexistent";
	dso = dsos__findnew(&d, "[kernel.kallsyms]");
	dso__set_build_id(dso, (const uint8_t *)"01234567890123456789", 20);
	TEST_ASSERT_EQUAL("other kernel", dso__load(&d, dso), 0);
	dsos__exit(&d);
	return TEST_OK;
}
DEFINE_SUITE("Symbols: kernel symbols from /proc/kallsyms", test__kallsyms);

static int test__vdso(void)
{
	struct dsos d;
	struct dso *dso;
	bool found = false;

	dsos__init(&d);
	dso = dsos__findnew(&d, "[vdso]");
	TEST_ASSERT_VAL("vdso kind", dso->kind == DSO_KIND_VDSO);
	if (dso__load(&d, dso) <= 0) {
		dsos__exit(&d);
		fprintf(stderr, "no vDSO in this process\n");
		return TEST_SKIP;
	}
	for (size_t i = 0; i < dso->symtab.nr; i++) {
		struct symbol *s = dso->symtab.syms[i];

		if (strstr(s->name, "clock_gettime")) {
			found = true;
			TEST_ASSERT_VAL("lookup", dso__find_symbol(dso, s->start) == s);
		}
	}
	TEST_ASSERT_VAL("clock_gettime in the vDSO", found);
	dsos__exit(&d);

	dsos__init(&d);
	d.debug_dir = "/nonexistent";
	dso = dsos__findnew(&d, "[vdso]");
	dso__set_build_id(dso, (const uint8_t *)"01234567890123456789", 20);
	TEST_ASSERT_EQUAL("other vDSO: no symbols", dso__load(&d, dso), 0);
	dsos__exit(&d);
	return TEST_OK;
}
DEFINE_SUITE("Symbols: vDSO of our own process", test__vdso);

static int test__srcline_vs_addr2line(void)
{
	char *w = sym_test__workload("sym_funcs"), *cmd, *out, *p, *save = NULL;
	struct inline_frame fr[8];
	struct dsos d;
	struct dso *dso;
	int checked = 0, nf;
	uint64_t addrs[64];
	size_t na = 0;

	if (!w || !sym_test__have("addr2line"))
		return w ? TEST_SKIP : TEST_FAIL;
	dsos__init(&d);
	dso = dsos__findnew(&d, w);
	TEST_ASSERT_VAL("load", dso__load(&d, dso) > 0);
	for (size_t i = 0; i < dso->symtab.nr && na + 3 < ARRAY_SIZE(addrs); i++) {
		struct symbol *s = dso->symtab.syms[i];

		if ((strncmp(s->name, "sym_", 4) && strcmp(s->name, "main")) || s->type != STT_FUNC)
			continue;
		addrs[na++] = s->start;
		addrs[na++] = s->start + (s->end - s->start) / 2;
		addrs[na++] = s->end - 1;
	}
	cmd = xasprintf("addr2line -e '%s'", w);
	for (size_t i = 0; i < na; i++) {
		p = cmd;
		cmd = xasprintf("%s %#llx", p, (unsigned long long)addrs[i]);
		free(p);
	}
	p = cmd;
	cmd = xasprintf("%s | sed 's#.*/##; s/ (discriminator [0-9]*)//'", p);
	free(p);
	out = sym_test__run(cmd);
	TEST_ASSERT_VAL("addr2line", out);
	p = strtok_r(out, "\n", &save);
	for (size_t i = 0; i < na && p; i++, p = strtok_r(NULL, "\n", &save)) {
		const char *ours = dso__srcline(&d, dso, addrs[i]);

		if (!strcmp(p, "??:?") || !strcmp(p, "??:0"))
			continue;
		if (!ours || strcmp(ours, p)) {
			fprintf(stderr, "%#llx: addr2line %s, we %s\n", (unsigned long long)addrs[i], p,
				ours ? ours : "(null)");
			return TEST_FAIL;
		}
		TEST_ASSERT_VAL("cached", dso__srcline(&d, dso, addrs[i]) == ours);
		checked++;
	}
	fprintf(stderr, "%d addresses agree with addr2line\n", checked);
	TEST_ASSERT_VAL("enough addresses", checked >= 8);

	/* sym_inlined is inlined into sym_caller: its loop body shows both */
	for (size_t i = 0; i < dso->symtab.nr; i++) {
		struct symbol *s = dso->symtab.syms[i];

		if (strcmp(s->name, "sym_caller"))
			continue;
		for (uint64_t a = s->start; a < s->end; a++) {
			nf = dso__inline_chain(&d, dso, a, fr, 8);
			if (nf == 2) {
				fprintf(stderr, "%#llx: %s (%s) in %s (%s)\n", (unsigned long long)a, fr[0].func,
					fr[0].srcline, fr[1].func, fr[1].srcline);
				TEST_ASSERT_VAL("inlined", !strcmp(fr[0].func, "sym_inlined"));
				TEST_ASSERT_VAL("into", !strcmp(fr[1].func, "sym_caller"));
				TEST_ASSERT_VAL("call line", fr[1].srcline && strstr(fr[1].srcline, "sym_funcs.c:"));
				checked = -1;
				break;
			}
		}
	}
	TEST_ASSERT_VAL("found an inline chain", checked == -1);
	dsos__exit(&d);
	free(out);
	free(cmd);
	free(w);
	return TEST_OK;
}
DEFINE_SUITE("Symbols: srcline matches addr2line, inline chain", test__srcline_vs_addr2line);
