// SPDX-License-Identifier: MIT
/* ELF symbol loading checked against binutils' nm and readelf. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include "tests/tests.h"
#include "tests/symbol-helpers.h"
#include "util/dso.h"
#include "util/symbol.h"

struct nm_sym {
	unsigned long long start, size;
	char type;
	char *name;
};

static int nm_sym__cmp(const void *a, const void *b)
{
	const struct nm_sym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* does nm list some name at addr that displays as shown? (aliases, C1/C2 ctors) */
static bool nm_has_alias(struct nm_sym *v, size_t n, unsigned long long addr, const char *shown)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (v[mid].start < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && v[lo].start == addr; lo++) {
		char *dm = symbol__demangle(v[lo].name);
		bool eq = !strcmp(dm ? dm : v[lo].name, shown);

		free(dm);
		if (eq)
			return true;
	}
	return false;
}

/*
 * Every defined function nm lists must be found at its start and in its
 * middle, under its (demangled) name or an alias at the same address.
 */
static int check_against_nm(const char *path, const char *nm_flags, int *checked)
{
	char *cmd = xasprintf("nm %s --defined-only -S '%s' 2>/dev/null", nm_flags, path);
	char *out = sym_test__run(cmd), *line, *save = NULL;
	struct nm_sym *v = NULL;
	size_t n = 0, cap = 0;
	struct dsos d;
	struct dso *dso;
	int ret = TEST_OK;
	uint64_t t0;

	free(cmd);
	if (!out)
		return TEST_FAIL;
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct nm_sym e;
		int pos = 0;

		if (sscanf(line, "%llx %llx %c %n", &e.start, &e.size, &e.type, &pos) != 3 || !pos)
			continue;
		e.name = line + pos;
		*ARRAY_PUSH(v, n, cap) = e;
	}
	qsort(v, n, sizeof(*v), nm_sym__cmp);

	dsos__init(&d);
	d.debuginfo_dir = "/nonexistent";
	dso = dsos__findnew(&d, path);
	t0 = monotonic_ns();
	if (dso__load(&d, dso) <= 0) {
		fprintf(stderr, "no symbols loaded from %s\n", path);
		ret = TEST_FAIL;
		goto out;
	}
	fprintf(stderr, "%s: %zu symbols loaded in %.1f ms\n", path, dso->symtab.nr,
		(monotonic_ns() - t0) / 1e6);
	for (size_t i = 0; i < n; i++) {
		struct symbol *s, *mid;

		if ((v[i].type != 'T' && v[i].type != 't') || v[i].size == 0)
			continue;
		s = dso__find_symbol(dso, v[i].start);
		mid = dso__find_symbol(dso, v[i].start + v[i].size / 2);
		if (!s || s->start != v[i].start || mid != s) {
			fprintf(stderr, "%s: %s at %#llx: got %s\n", path, v[i].name, v[i].start,
				s ? s->name : "nothing");
			ret = TEST_FAIL;
			break;
		}
		if (!nm_has_alias(v, n, v[i].start, s->name)) {
			fprintf(stderr, "%s: %#llx: %s vs nm %s\n", path, v[i].start, s->name, v[i].name);
			ret = TEST_FAIL;
			break;
		}
		(*checked)++;
	}
out:
	dsos__exit(&d);
	free(v);
	free(out);
	return ret;
}

static int test__symtab_vs_nm(void)
{
	char *w = sym_test__workload("sym_funcs");
	int checked = 0, ret;

	if (!sym_test__have("nm"))
		return TEST_SKIP;
	if (!w)
		return TEST_FAIL;
	ret = check_against_nm(w, "", &checked);
	TEST_ASSERT_VAL("workload symbols", ret == TEST_OK);
	TEST_ASSERT_VAL("workload has sym_static_two etc.", checked >= 4);
	free(w);
	/* a big C++ library: libjvm.so if installed (demangled names too) */
	w = sym_test__run("ls /usr/lib/jvm/*/lib/server/libjvm.so 2>/dev/null | head -1");
	if (w && w[0]) {
		w[strcspn(w, "\n")] = 0;
		checked = 0;
		ret = check_against_nm(w, "", &checked);
		fprintf(stderr, "libjvm: %d functions checked\n", checked);
		TEST_ASSERT_VAL("libjvm symbols", ret == TEST_OK && checked > 1000);
	}
	free(w);
	return TEST_OK;
}
DEFINE_SUITE("Symbols: .symtab lookups match nm", test__symtab_vs_nm);

static int test__dynsym_only(void)
{
	char *w = sym_test__workload("sym_funcs"), *cmd;
	const char *tmp = test_tmpdir();
	int checked = 0, ret;
	struct dsos d;
	struct dso *dso;

	if (!sym_test__have("strip") || !sym_test__have("nm"))
		return TEST_SKIP;
	if (!w)
		return TEST_FAIL;
	cmd = xasprintf("strip --strip-all -o '%s/stripped' '%s'", tmp, w);
	TEST_ASSERT_VAL("strip", system(cmd) == 0);
	free(cmd);
	cmd = xasprintf("%s/stripped", tmp);
	ret = check_against_nm(cmd, "-D", &checked);
	TEST_ASSERT_VAL("stripped symbols vs nm -D", ret == TEST_OK);
	TEST_ASSERT_VAL("exported functions", checked >= 3);
	/* the static function is gone with .symtab */
	dsos__init(&d);
	d.debuginfo_dir = "/nonexistent";
	dso = dsos__findnew(&d, cmd);
	dso__load(&d, dso);
	for (size_t i = 0; i < dso->symtab.nr; i++)
		TEST_ASSERT_VAL("no static symbol in .dynsym", strcmp(dso->symtab.syms[i]->name, "sym_static_two"));
	dsos__exit(&d);
	free(cmd);
	free(w);
	return TEST_OK;
}
DEFINE_SUITE("Symbols: stripped binary uses .dynsym", test__dynsym_only);

/* dso__offset_to_addr against the PT_LOAD table printed by readelf */
static int test__offset_to_addr(void)
{
	char *bin = xasprintf("%s/tools/perf/perf", sym_test__top());
	char *cmd = xasprintf("readelf -lW '%s' | awk '$1==\"LOAD\" {print $2, $3, $5}'", bin);
	char *out, *line, *save = NULL;
	struct dsos d;
	struct dso *dso;
	int n = 0;

	if (!sym_test__have("readelf"))
		return TEST_SKIP;
	out = sym_test__run(cmd);
	TEST_ASSERT_VAL("readelf", out);
	dsos__init(&d);
	dso = dsos__findnew(&d, bin);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long off, vaddr, filesz;

		if (sscanf(line, "%llx %llx %llx", &off, &vaddr, &filesz) != 3 || filesz < 0x20)
			continue;
		TEST_ASSERT_EQUAL("segment start", dso__offset_to_addr(dso, off + 0x10), vaddr + 0x10);
		TEST_ASSERT_EQUAL("segment end", dso__offset_to_addr(dso, off + filesz - 1), vaddr + filesz - 1);
		n++;
	}
	TEST_ASSERT_VAL("PT_LOADs seen", n >= 2 && (size_t)n == dso->nr_segs);
	dso->absolute = true;
	TEST_ASSERT_EQUAL("absolute: unchanged", dso__offset_to_addr(dso, 0x123456), 0x123456);
	dsos__exit(&d);
	free(out);
	free(cmd);
	free(bin);
	return TEST_OK;
}
DEFINE_SUITE("Symbols: file offset to ELF address via PT_LOAD", test__offset_to_addr);

/*
 * Absolute symbols have no place in the file: the version names of a shared
 * library (GLIBC_2.2.5, ELFUTILS_1.1.1, LINUX_2.6 in the vdso) sit at value
 * 0 and, kept, would name every address below the first function, where
 * perf 6.1 prints [unknown].
 */
static int test__abs_symbols(void)
{
	/* libelf (we link it) has only .dynsym, with its version names */
	char *lib = sym_test__run("readlink -f /usr/lib/*/libelf.so.1 /lib/*/libelf.so.1 2>/dev/null | head -1");
	char *cmd, *abs;
	struct dsos d;
	struct dso *dso;
	int nabs = 0;

	if (!sym_test__have("readelf"))
		return TEST_SKIP;
	TEST_ASSERT_VAL("libelf.so.1", lib && lib[0]);
	lib[strcspn(lib, "\n")] = 0;
	cmd = xasprintf("readelf -sW --dyn-syms '%s' | awk '$7 == \"ABS\" && $8 != \"\" { print $8 }'", lib);
	abs = sym_test__run(cmd);
	free(cmd);
	TEST_ASSERT_VAL("libelf has version names", abs && abs[0]);
	dsos__init(&d);
	d.debuginfo_dir = "/nonexistent";
	dso = dsos__findnew(&d, lib);
	TEST_ASSERT_VAL("libelf symbols", dso__load(&d, dso) > 100);
	for (char *save = NULL, *n = strtok_r(abs, "\n", &save); n; n = strtok_r(NULL, "\n", &save), nabs++)
		for (size_t i = 0; i < dso->symtab.nr; i++)
			if (!strcmp(dso->symtab.syms[i]->name, n)) {
				fprintf(stderr, "absolute symbol %s kept at %#llx\n", n,
					(unsigned long long)dso->symtab.syms[i]->start);
				return TEST_FAIL;
			}
	fprintf(stderr, "%d absolute symbols left out\n", nabs);
	dsos__exit(&d);
	free(abs);
	free(lib);
	return TEST_OK;
}
DEFINE_SUITE("Symbols: absolute symbols (version names) name no addresses", test__abs_symbols);
