// SPDX-License-Identifier: MIT
/*
 * sdt-cache: the cached events of a private build-id cache. The SDT notes
 * expected are counted with readelf -n, not with our own note reader.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tests.h"
#include "tests/symbol-helpers.h"
#include "util/build-id-cache.h"
#include "util/probe-cache.h"
#include "util/sdt-cache.h"
#include "util/util.h"

static int count_sdt(const char *provider, const char *name, void *arg)
{
	(*(int *)arg)++;
	return 0;
}

static int test__sdt_cache_split(void)
{
	char *g, *e, *at;

	cached_event__split("%test:one", &g, &e, &at);
	TEST_ASSERT_VAL("%P:N", !strcmp(g, "sdt_test") && !strcmp(e, "one") && !at);
	free(g), free(e);
	cached_event__split("sdt_test:o*@/usr/bin/x", &g, &e, &at);
	TEST_ASSERT_VAL("sdt_P:N@PATH", !strcmp(g, "sdt_test") && !strcmp(e, "o*") &&
			!strcmp(at, "/usr/bin/x"));
	free(g), free(e), free(at);
	cached_event__split("%one", &g, &e, &at);
	TEST_ASSERT_VAL("%N", !g && !strcmp(e, "one") && !at);
	free(e);
	return TEST_OK;
}

static int test__sdt_cache(void)
{
	char *w = sym_test__workload("sdt_test"), *root, *cmd, *out, abs[PATH_MAX], bid[41];
	char *lines[] = { NULL };
	struct cached_events ce;
	int notes, listed = 0, one = 0;

	if (!w || !sym_test__have("readelf"))
		return w ? TEST_SKIP : TEST_FAIL;
	cmd = xasprintf("readelf -n '%s' | grep -c NT_STAPSDT", w);
	out = sym_test__run(cmd);
	TEST_ASSERT_VAL("readelf", out);
	notes = atoi(out);
	free(out);
	free(cmd);
	root = xasprintf("%s/cache", test_tmpdir());
	TEST_ASSERT_VAL("nothing cached yet", cached_events__load(root, NULL, &ce) == 0 && ce.nr == 0);
	cached_events__exit(&ce);

	TEST_ASSERT_VAL("add binary", sdt_cache__add_binary(root, w, abs, bid) == 0);
	{
		char *rp = realpath(w, NULL);
		bool same = rp && !strcmp(abs, rp);

		free(rp);
		TEST_ASSERT_VAL("real path", same);
	}
	TEST_ASSERT_VAL("cached", bidcache__has(root, abs, bid));
	TEST_ASSERT_VAL("load", cached_events__load(root, NULL, &ce) == 0);
	for (size_t i = 0; i < ce.nr; i++)
		if (ce.v[i].e->sdt && !strcmp(ce.v[i].bid, bid) && !strcmp(ce.v[i].path, abs) &&
		    !strcmp(ce.v[i].e->group, "sdt_test"))
			one += (int)ce.v[i].e->nr_tevs;
	TEST_ASSERT_EQUAL("one uprobe line per note", one, notes);
	{
		/* @PATH and @BUILDID narrow; another path does not match */
		char *bad = xasprintf("%s.other", abs);
		bool path_ok = cached_event__matches(&ce.v[0], "sdt_test", "*", abs);
		bool bid_ok = cached_event__matches(&ce.v[0], "sdt_*", "*", bid);
		bool other = cached_event__matches(&ce.v[0], "sdt_test", "*", bad);

		TEST_ASSERT_VAL("@PATH", path_ok);
		TEST_ASSERT_VAL("@BUILDID", bid_ok);
		TEST_ASSERT_VAL("@other path", !other);
		free(bad);
	}
	cached_events__exit(&ce);

	/* perf list's hook: one call per distinct event (readelf shows 'one' twice) */
	setenv("PERF_BUILDID_DIR", root, 1);
	sdt_cache__for_each_event(count_sdt, &listed);
	unsetenv("PERF_BUILDID_DIR");
	cmd = xasprintf("readelf -n '%s' | awk '/Name:/ {print $2}' | sort -u | wc -l", w);
	out = sym_test__run(cmd);
	TEST_ASSERT_EQUAL("listed once per name", listed, out ? atoi(out) : -1);
	free(out);
	free(cmd);

	/* a '#' entry added, found, removed by glob */
	lines[0] = xasprintf("p:mine/ev %s:0x1213 %%di", abs);
	TEST_ASSERT_VAL("add named", sdt_cache__add_named(root, w, "mine:ev=main %di", lines, 1) == 0);
	TEST_ASSERT_VAL("load named", cached_events__load(root, w, &ce) == 0);
	one = 0;
	for (size_t i = 0; i < ce.nr; i++)
		if (!ce.v[i].e->sdt && !strcmp(ce.v[i].e->event, "ev") && ce.v[i].e->nr_tevs == 1 &&
		    !strcmp(ce.v[i].e->tevs[0], lines[0]))
			one++;
	cached_events__exit(&ce);
	TEST_ASSERT_EQUAL("named entry", one, 1);
	TEST_ASSERT_EQUAL("removed", sdt_cache__remove(root, NULL, "mine", "e*"), 1);
	TEST_ASSERT_EQUAL("removed once", sdt_cache__remove(root, NULL, "mine", "e*"), 0);
	TEST_ASSERT_VAL("load after", cached_events__load(root, NULL, &ce) == 0);
	one = 0;
	for (size_t i = 0; i < ce.nr; i++)
		one += ce.v[i].e->sdt;
	cached_events__exit(&ce);
	TEST_ASSERT_VAL("SDT entries kept", one > 0);
	TEST_ASSERT_VAL("not ELF refused", sdt_cache__add_binary(root, "/etc/hostname", abs, bid) < 0);
	free(lines[0]);
	free(root);
	free(w);
	return TEST_OK;
}

DEFINE_SUITE("sdt-cache: cached-event specs split into group, event and @PATH|@BUILDID", test__sdt_cache_split);
DEFINE_SUITE("sdt-cache: a private cache: SDT notes as readelf counts them, list names, '#' entries added and removed", test__sdt_cache);

/* the '#' headers perf 6.1 writes for definitions (checked against perf 6.1 in probe-matrix.sh) */
static int test__probe_cache_headers(void)
{
	static const char *const cases[][3] = {
		/* definition, its first uprobe line, the header perf 6.1 writes */
		{ "compute:0 a b", "p:probe_x/compute /x:0x1157 a=%di:s32", "compute a b" },
		{ "dwarf_vars.c:40 b", "p:probe_x/compute /x:0x116c b=%si:s32", "@dwarf_vars.c:40 b" },
		{ "compute:2 a", "p:probe_x/compute_L2 /x:0x1157 a=%di:s32", "probe_x:compute_L2=compute:2 a" },
		{ "compute@f.c:2 a", "p:probe_x/compute_L2 /x:0x1157 a=%di:s32",
		  "probe_x:compute_L2=compute:2@f.c a" },
		{ "weigh r->id:x32 r->name:string", "p:probe_x/weigh /x:0x1253 id=%di:x32",
		  "weigh id=r->id:x32 name=r->name:string" },
		{ "weigh nm=r->name:string p.x", "p:probe_x/weigh /x:0x1253 nm=%di:x32", "weigh nm=r->name:string x=p.x" },
		{ "ev=compute:0 a", "p:probe_x/ev /x:0x1157 a=%di:s32", "ev=compute a" },
		{ "compute+4", "p:probe_x/compute /x:0x114d", "compute+4" },
		{ "compute%return", "r:probe_x/compute__return /x:0x1149", "compute%return" },
		{ "compute;res* sum", "p:probe_x/compute /x:0x116c sum=%di:s32", "compute;res* sum" },
	};
	struct probe_cache pc = { 0 };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *tev = (char *)cases[i][1];

		probe_cache__add_named(&pc, cases[i][0], &tev, 1);
		TEST_ASSERT_VAL(cases[i][0], pc.nr && !strcmp(pc.v[pc.nr - 1].spec, cases[i][2]));
	}
	/* unnamed: replaced by the same text only; named: by the name */
	TEST_ASSERT_EQUAL("entries", pc.nr, 9);   /* compute_L2 twice: the second replaced the first */
	probe_cache__exit(&pc);
	return TEST_OK;
}
DEFINE_SUITE("probe-cache: '#' headers as perf 6.1 writes them (FUNC:0, @FILE:LINE, named FUNC:N, member names)", test__probe_cache_headers);
