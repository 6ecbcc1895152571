// SPDX-License-Identifier: MIT
/*
 * sdt-record: cached-event specs resolved to uprobe lines in a private
 * build-id cache (nothing written to tracefs here; the shell test
 * sdt-record.sh records for real). Counts come from readelf -n.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tests.h"
#include "tests/symbol-helpers.h"
#include "util/build-id-cache.h"
#include "util/sdt-record.h"
#include "util/util.h"

static int readelf_count(const char *bin, const char *name)
{
	char *cmd = xasprintf("readelf -n '%s' | grep -c 'Name: %s$'", bin, name);
	char *out = sym_test__run(cmd);
	int n = out ? atoi(out) : -1;

	free(out);
	free(cmd);
	return n;
}

static int test__sdt_resolve(void)
{
	char *w = sym_test__workload("sdt_test"), *root, abs[PATH_MAX], bid[41], *prefix, *cmd;
	struct sdt_sites s;
	int n, ones = -1;

	if (!w || !sym_test__have("readelf"))
		return w ? TEST_SKIP : TEST_FAIL;
	ones = readelf_count(w, "one");
	TEST_ASSERT_VAL("readelf", ones > 1);
	root = xasprintf("%s/cache", test_tmpdir());
	setenv("PERF_BUILDID_DIR", root, 1);
	TEST_ASSERT_VAL("realpath", realpath(w, abs));
	TEST_ASSERT_VAL("build-id", bidcache__file_build_id(abs, bid) == 0);

	/* not cached yet and no binary given: no match, not an error */
	TEST_ASSERT_EQUAL("empty cache", sdt_spec__resolve("%sdt_test:one", NULL, NULL, &s), 0);
	sdt_sites__exit(&s);
	/* with the binary it is cached first; one line per site of the marker */
	n = sdt_spec__resolve("%sdt_test:one", w, "extra=%ax", &s);
	TEST_ASSERT_EQUAL("every site of test:one", n, ones);
	prefix = xasprintf("p:sdt_test/one %s:0x", abs);
	for (size_t i = 0; i < s.nr; i++) {
		TEST_ASSERT_VAL("line", !strncmp(s.v[i].line, prefix, strlen(prefix)));
		TEST_ASSERT_VAL("user args last", str_ends_with(s.v[i].line, " extra=%ax"));
		TEST_ASSERT_VAL("names", !strcmp(s.v[i].group, "sdt_test") && !strcmp(s.v[i].event, "one"));
		TEST_ASSERT_VAL("path", !strcmp(s.v[i].path, abs));
		TEST_ASSERT_VAL("build-id", !strcmp(s.v[i].bid, bid));
	}
	free(prefix);
	sdt_sites__exit(&s);
	/* now cached: found without the binary, with globs, @PATH and @BUILDID */
	TEST_ASSERT_EQUAL("cached", sdt_spec__resolve("test:one", NULL, NULL, &s), ones);
	sdt_sites__exit(&s);
	TEST_ASSERT_EQUAL("%NAME", sdt_spec__resolve("%one", NULL, NULL, &s), ones);
	sdt_sites__exit(&s);
	prefix = xasprintf("sdt_test:one@%s", abs);
	TEST_ASSERT_EQUAL("@PATH", sdt_spec__resolve(prefix, NULL, NULL, &s), ones);
	sdt_sites__exit(&s);
	free(prefix);
	prefix = xasprintf("sdt_test:one@%.12s", bid);
	TEST_ASSERT_EQUAL("@BUILDID", sdt_spec__resolve(prefix, NULL, NULL, &s), ones);
	sdt_sites__exit(&s);
	free(prefix);
	n = sdt_spec__resolve("sdt_test:*", NULL, NULL, &s);
	TEST_ASSERT_VAL("glob: every note", n == readelf_count(w, ".*"));
	sdt_sites__exit(&s);
	TEST_ASSERT_EQUAL("no such event", sdt_spec__resolve("sdt_test:nosuch", NULL, NULL, &s), 0);
	sdt_sites__exit(&s);
	TEST_ASSERT_EQUAL("other build not claimed", sdt_spec__explain_other_build("%sdt_test:one", w), 0);

	/* the entry made for another build-id of this path is named, not used */
	cmd = xasprintf("mv '%s%s/%s' '%s%s/0123456789012345678901234567890123456789'", root, abs, bid,
			root, abs);
	TEST_ASSERT_VAL("fake another build", system(cmd) == 0);
	free(cmd);
	TEST_ASSERT_EQUAL("other build explained", sdt_spec__explain_other_build("%sdt_test:one", w), 1);
	unsetenv("PERF_BUILDID_DIR");
	free(root);
	free(w);
	return TEST_OK;
}

static int test__sdt_record_not_ours(void)
{
	struct sdt_record sr = SDT_RECORD_INIT;

	/* hardware/software names and pmu/.../ are left to the event parser */
	TEST_ASSERT_EQUAL("cycles", sdt_record__prepare(&sr, "cycles", NULL), 0);
	TEST_ASSERT_EQUAL("pmu", sdt_record__prepare(&sr, "cpu/event=0x3c/u", NULL), 0);
	TEST_ASSERT_EQUAL("nothing created", sr.created.nr, 0);
	sdt_record__cleanup(&sr);
	return TEST_OK;
}

DEFINE_SUITE("sdt-record: cached specs (%P:N, %N, globs, @PATH, @BUILDID) resolve to one uprobe line per note site", test__sdt_resolve);
DEFINE_SUITE("sdt-record: events that are not cached-event specs are left alone", test__sdt_record_not_ours);
