// SPDX-License-Identifier: MIT
/* Build-ids, separate debuginfo and the build-id cache, checked against
 * readelf and perf 6.1's own cache layout. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "tests/tests.h"
#include "tests/symbol-helpers.h"
#include "util/build-id.h"
#include "util/build-id-cache.h"
#include "util/dso.h"

static bool dso_has(struct dso *dso, const char *name)
{
	for (size_t i = 0; i < dso->symtab.nr; i++)
		if (!strcmp(dso->symtab.syms[i]->name, name))
			return true;
	return false;
}

static int test__read_build_id(void)
{
	char *w = sym_test__workload("sym_funcs"), *cmd, *out, hex[41];
	uint8_t id[20];
	int n;

	if (!w || !sym_test__have("readelf"))
		return w ? TEST_SKIP : TEST_FAIL;
	cmd = xasprintf("readelf -n '%s' | awk '/Build ID/ {print $3}'", w);
	out = sym_test__run(cmd);
	TEST_ASSERT_VAL("readelf", out && out[0]);
	out[strcspn(out, "\n")] = 0;
	n = filename__read_build_id(w, id, sizeof(id));
	TEST_ASSERT_VAL("build-id read", n > 0);
	TEST_ASSERT_VAL("same as readelf", !strcmp(build_id__sprintf(id, (size_t)n, hex), out));
	TEST_ASSERT_EQUAL("no build-id in a text file", filename__read_build_id("/etc/hostname", id, 20), -1);
	free(cmd);
	free(out);
	free(w);
	return TEST_OK;
}
DEFINE_SUITE("Build-id: read from ELF notes like readelf -n", test__read_build_id);

/* A stripped binary whose .symtab lives in <dir>/.build-id/xx/rest.debug */
static int test__separate_debuginfo(void)
{
	const char *tmp = test_tmpdir();
	char *w = sym_test__workload("sym_funcs"), *cmd, *dbg, *dbgdir, hex[41], *bin;
	const char *line;
	uint8_t id[20];
	struct dsos d;
	struct dso *dso;
	int n;

	if (!w || !sym_test__have("objcopy") || !sym_test__have("addr2line"))
		return w ? TEST_SKIP : TEST_FAIL;
	n = filename__read_build_id(w, id, sizeof(id));
	TEST_ASSERT_VAL("build-id", n > 0);
	build_id__sprintf(id, (size_t)n, hex);
	dbgdir = xasprintf("%s/debug/.build-id/%.2s", tmp, hex);
	dbg = xasprintf("%s/%s.debug", dbgdir, hex + 2);
	bin = xasprintf("%s/sym_funcs", tmp);
	cmd = xasprintf("mkdir -p '%s' && objcopy --only-keep-debug '%s' '%s' && strip --strip-all -o '%s' '%s'",
			dbgdir, w, dbg, bin, w);
	TEST_ASSERT_VAL("make debuginfo", system(cmd) == 0);
	free(cmd);

	dsos__init(&d);
	d.debuginfo_dir = xasprintf("%s/debug", tmp);
	d.debug_dir = "/nonexistent";
	dso = dsos__findnew(&d, bin);
	TEST_ASSERT_VAL("symbols", dso__load(&d, dso) > 0);
	TEST_ASSERT_VAL("from the .debug file", dso->symsrc && !strcmp(dso->symsrc, dbg));
	TEST_ASSERT_VAL("static function (only in .symtab)", dso_has(dso, "sym_static_two"));
	TEST_ASSERT_VAL("segments from the stripped binary", dso->nr_segs >= 2);
	{
		/* line numbers come from the .debug file too: compare with addr2line on the original */
		struct symbol *s = NULL;
		char *out;

		for (size_t i = 0; i < dso->symtab.nr; i++)
			if (!strcmp(dso->symtab.syms[i]->name, "sym_static_two"))
				s = dso->symtab.syms[i];
		TEST_ASSERT_VAL("sym", s);
		line = dso__srcline(&d, dso, s->start + 4);
		cmd = xasprintf("addr2line -e '%s' %#llx | sed 's#.*/##; s/ .*//'", w,
				(unsigned long long)s->start + 4);
		out = sym_test__run(cmd);
		TEST_ASSERT_VAL("addr2line", out);
		out[strcspn(out, "\n")] = 0;
		fprintf(stderr, "srcline via debuginfo: %s, addr2line: %s\n", line ? line : "(null)", out);
		TEST_ASSERT_VAL("srcline from debuginfo", line && !strcmp(line, out));
		free(out);
		free(cmd);
	}
	free((char *)d.debuginfo_dir);
	dsos__exit(&d);

	/* without the debuginfo root only .dynsym is left */
	dsos__init(&d);
	d.debuginfo_dir = "/nonexistent";
	d.debug_dir = "/nonexistent";
	dso = dsos__findnew(&d, bin);
	dso__load(&d, dso);
	TEST_ASSERT_VAL("no static function without debuginfo", !dso_has(dso, "sym_static_two"));
	TEST_ASSERT_VAL("exported function still there", dso_has(dso, "sym_global_one"));
	dsos__exit(&d);
	free(dbg);
	free(dbgdir);
	free(bin);
	free(w);
	return TEST_OK;
}
DEFINE_SUITE("Symbols: separate debuginfo found by build-id", test__separate_debuginfo);

/*
 * perf 6.1 fills a build-id cache; we must find the entry, and a DSO whose
 * file on disk has another build-id than recorded must use the cache or
 * nothing.
 */
static int test__build_id_cache(void)
{
	const char *tmp = test_tmpdir();
	char *w = sym_test__workload("sym_funcs"), *other = sym_test__workload("sym_jit_map");
	char *cmd, *root, *file, *orig, *fake;
	uint8_t id[20], oid[20];
	int n, on;
	struct dsos d;
	struct dso *dso;

	if (!w || !other)
		return TEST_FAIL;
	if (access("/usr/bin/perf", X_OK))
		return TEST_SKIP;
	n = filename__read_build_id(w, id, sizeof(id));
	on = filename__read_build_id(other, oid, sizeof(oid));
	TEST_ASSERT_VAL("build-ids", n > 0 && on > 0);
	root = xasprintf("%s/.debug", tmp);
	cmd = xasprintf("HOME='%s' /usr/bin/perf buildid-cache --add '%s' >/dev/null 2>&1", tmp, w);
	TEST_ASSERT_VAL("perf 6.1 buildid-cache --add", system(cmd) == 0);
	free(cmd);

	file = bidcache__file(root, id, (size_t)n, "elf");
	TEST_ASSERT_VAL("cached elf found through .build-id link", file);
	orig = bidcache__origname(root, id, (size_t)n);
	{
		char *real = realpath(w, NULL);

		TEST_ASSERT_VAL("origname is the real path", orig && real && !strcmp(orig, real));
		free(real);
	}

	/* the recorded DSO had sym_funcs' id, but its path now holds another binary */
	fake = xasprintf("%s/bin-now", tmp);
	cmd = xasprintf("cp '%s' '%s'", other, fake);
	TEST_ASSERT_VAL("cp", system(cmd) == 0);
	free(cmd);

	dsos__init(&d);
	d.debuginfo_dir = "/nonexistent";
	d.debug_dir = "/nonexistent";
	dso = dsos__findnew(&d, fake);
	dso__set_build_id(dso, id, (size_t)n);
	TEST_ASSERT_EQUAL("mismatching file not used", dso__load(&d, dso), 0);
	dsos__exit(&d);

	dsos__init(&d);
	d.debuginfo_dir = "/nonexistent";
	d.debug_dir = root;
	dso = dsos__findnew(&d, fake);
	dso__set_build_id(dso, id, (size_t)n);
	TEST_ASSERT_VAL("symbols from the cache", dso__load(&d, dso) > 0);
	TEST_ASSERT_VAL("cache file used", dso->symsrc && !strcmp(dso->symsrc, file));
	TEST_ASSERT_VAL("sym_funcs' function", dso_has(dso, "sym_static_two"));
	dsos__exit(&d);

	/* matching id: the file itself */
	dsos__init(&d);
	d.debuginfo_dir = "/nonexistent";
	d.debug_dir = root;
	dso = dsos__findnew(&d, fake);
	dso__set_build_id(dso, oid, (size_t)on);
	TEST_ASSERT_VAL("own symbols", dso__load(&d, dso) > 0 && !strcmp(dso->symsrc, fake));
	dsos__exit(&d);

	/* our writer: perf 6.1 must list what we add */
	cmd = xasprintf("rm -rf '%s'", root);
	TEST_ASSERT_VAL("rm", system(cmd) == 0);
	free(cmd);
	{
		char bid[41];

		TEST_ASSERT_VAL("our add", bidcache__add(root, w, bid) == 0);
	}
	cmd = xasprintf("HOME='%s' /usr/bin/perf buildid-cache -l 2>/dev/null", tmp);
	{
		char *out = sym_test__run(cmd), hex[41];

		TEST_ASSERT_VAL("perf 6.1 -l", out);
		build_id__sprintf(id, (size_t)n, hex);
		fprintf(stderr, "perf 6.1 lists: %s", out);
		char *real = realpath(w, NULL);

		TEST_ASSERT_VAL("perf 6.1 lists our entry", real && strstr(out, hex) && strstr(out, real));
		free(real);
		free(out);
	}
	free(cmd);
	free(fake);
	free(orig);
	free(file);
	free(root);
	free(w);
	free(other);
	return TEST_OK;
}
DEFINE_SUITE("Build-id: cache lookup (perf 6.1 layout) and mismatch rule", test__build_id_cache);
