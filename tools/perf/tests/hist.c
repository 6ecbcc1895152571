// SPDX-License-Identifier: MIT
/*
 * util/hist and util/hist-output on hand-made frames: children periods
 * (a caller counts once per sample, also when callers share an entry),
 * the order of equal rows, and the graph layout perf 6.1 prints (root to
 * leaf in caller order, the sampled function included, separator lines
 * with their trailing blanks), as seen in perf 6.1's output for report_mix.
 */
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "util/hist.h"
#include "util/hist-output.h"
#include "util/util.h"

static struct symbol *mksym(const char *name, uint64_t start)
{
	struct symbol *s = calloc(1, sizeof(*s) + strlen(name) + 1);

	s->start = start;
	s->end = start + 0x100;
	strcpy(s->name, name);
	return s;
}

static int test_hist_children(void)
{
	struct dso dso = { .long_name = (char *)"/bin/app", .short_name = (char *)"app" };
	struct symbol *root = mksym("root", 0x1000), *mid = mksym("mid", 0x2000), *leaf = mksym("leaf", 0x3000);
	struct hist_frame f[3] = {
		{ .dso = &dso, .sym = leaf, .addr = 0x3010, .ip = 0x3010 },
		{ .dso = &dso, .sym = mid, .addr = 0x2010, .ip = 0x2010 },
		{ .dso = &dso, .sym = root, .addr = 0x1010, .ip = 0x1010 },
	};
	struct hists h;
	struct hist_entry **v;
	size_t nr;
	int ret = TEST_FAIL;

	TEST_ASSERT_EQUAL("init", hists__init(&h, "dso", NULL), 0);
	h.children = true;
	hists__add_sample(&h, "app", 1, 1, 0, f, 3, 100);
	v = hists__sorted(&h, &nr);
	/* one DSO: the sample and both callers fall into one entry, counted once */
	if (nr != 1 || v[0]->period_children != 100 || v[0]->period != 100) {
		fprintf(stderr, "FAILED --sort dso children: %zu entries, %llu\n", nr,
			nr ? (unsigned long long)v[0]->period_children : 0ull);
		goto out;
	}
	free(v);
	hists__exit(&h);

	TEST_ASSERT_EQUAL("init", hists__init(&h, "sym", NULL), 0);
	h.children = true;
	h.callchains = true;
	hists__add_sample(&h, "app", 1, 1, 0, f, 3, 100);
	hists__add_sample(&h, "app", 1, 1, 0, f + 1, 2, 50);   /* a sample in mid itself */
	v = hists__sorted(&h, &nr);
	/*
	 * root 150/0, mid 150/50, leaf 100/100: of equal children shares the
	 * caller first (perf 6.1: the longer chains in caller order), however
	 * much self it has (compat/report.tbl checks this against perf 6.1)
	 */
	if (nr != 3 || v[0]->frame.sym != root || v[1]->frame.sym != mid || v[2]->frame.sym != leaf ||
	    v[0]->period_children != 150 || v[2]->period != 100) {
		fprintf(stderr, "FAILED children order: %s %s %s\n", nr > 0 ? v[0]->frame.sym->name : "",
			nr > 1 ? v[1]->frame.sym->name : "", nr > 2 ? v[2]->frame.sym->name : "");
		goto out;
	}
	free(v);
	hists__exit(&h);

	/* without a graph (-g none) perf 6.1 orders equal children shares by self */
	TEST_ASSERT_EQUAL("init", hists__init(&h, "sym", NULL), 0);
	h.children = true;
	hists__add_sample(&h, "app", 1, 1, 0, f, 3, 100);
	hists__add_sample(&h, "app", 1, 1, 0, f + 1, 2, 50);
	v = hists__sorted(&h, &nr);
	if (nr != 3 || v[0]->frame.sym != mid || v[1]->frame.sym != root) {
		fprintf(stderr, "FAILED children order without chains: %s %s\n",
			nr > 0 ? v[0]->frame.sym->name : "", nr > 1 ? v[1]->frame.sym->name : "");
		goto out;
	}
	ret = TEST_OK;
out:
	free(v);
	hists__exit(&h);
	free(root);
	free(mid);
	free(leaf);
	return ret;
}
DEFINE_SUITE("hist: children periods once per sample, equal rows in perf 6.1's order", test_hist_children);

static int test_hist_graph(void)
{
	struct dso dso = { .long_name = (char *)"/bin/app", .short_name = (char *)"app" };
	struct symbol *root = mksym("main", 0x1000), *a = mksym("leaf_a", 0x3000), *b = mksym("leaf_b", 0x2000);
	struct hist_frame fa[2] = { { .dso = &dso, .sym = a, .addr = 0x3010, .ip = 0x3010 },
				    { .dso = &dso, .sym = root, .addr = 0x1010, .ip = 0x1010 } };
	struct hist_frame fb[2] = { { .dso = &dso, .sym = b, .addr = 0x2010, .ip = 0x2010 },
				    { .dso = &dso, .sym = root, .addr = 0x1020, .ip = 0x1020 } };
	struct callchain_param cc;
	struct hist_output o = { .cc = &cc, .quiet = true };
	struct hists h;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	/* perf 6.1's layout of this shape: one root, two branches, caller order */
	const char *want =
		"    60.00%  [.] leaf_a\n"
		"            |\n"
		"            ---main\n"
		"               leaf_a\n"
		"\n"
		"    40.00%  [.] leaf_b\n"
		"            |\n"
		"            ---main\n"
		"               leaf_b\n"
		"\n"
		"\n\n";
	const char *want_children_main =
		"   100.00%     0.00%  [.] main\n"
		"            |\n"
		"            ---main\n"
		"               |          \n"
		"               |--60.00%--leaf_a\n"
		"               |          \n"
		"                --40.00%--leaf_b\n"
		"\n";
	int ret = TEST_OK;

	callchain_param__init(&cc);
	cc.caller_order = true;
	TEST_ASSERT_EQUAL("init", hists__init(&h, "sym", NULL), 0);
	h.callchains = true;
	h.callee_order = false;
	hists__add_sample(&h, "app", 1, 1, 0, fa, 2, 60);
	hists__add_sample(&h, "app", 1, 1, 0, fb, 2, 40);
	hists__fprintf(f, &h, &o, "cpu-clock", 2, 100);
	fflush(f);
	if (strcmp(buf, want)) {
		fprintf(stderr, "FAILED self graph:\n%s---- expected:\n%s", buf, want);
		ret = TEST_FAIL;
	}
	hists__exit(&h);
	fclose(f);
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	TEST_ASSERT_EQUAL("init", hists__init(&h, "sym", NULL), 0);
	h.callchains = true;
	h.children = true;
	hists__add_sample(&h, "app", 1, 1, 0, fa, 2, 60);
	hists__add_sample(&h, "app", 1, 1, 0, fb, 2, 40);
	hists__fprintf(f, &h, &o, "cpu-clock", 2, 100);
	fflush(f);
	if (strncmp(buf, want_children_main, strlen(want_children_main))) {
		fprintf(stderr, "FAILED children graph:\n%s---- expected first:\n%s", buf, want_children_main);
		ret = TEST_FAIL;
	}
	hists__exit(&h);
	fclose(f);
	free(buf);
	free(root);
	free(a);
	free(b);
	return ret;
}
DEFINE_SUITE("hist: call graphs root to leaf with perf 6.1's separators and branches", test_hist_graph);

/*
 * A node with many children (past the few walked before the kid index takes
 * over): each child is found again, not made twice, and the children stay in
 * most-recently-used order, the order equal branches are printed in.
 */
static int test_hist_many_children(void)
{
	struct dso dso = { .long_name = (char *)"/bin/app", .short_name = (char *)"app" };
	struct symbol *leaf = mksym("leaf", 0x1000);
	/* callers without symbols: one child each, keyed by address */
	struct hist_frame f[2] = { { .dso = &dso, .sym = leaf, .addr = 0x1010, .ip = 0x1010 },
				   { .dso = NULL, .ip = 0 } };
	const uint64_t order[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 3, 0, 11, 7, 3 };
	uint64_t want_period[12] = { 0 };
	struct hists h;
	struct hist_entry **v;
	struct callchain_node *c;
	size_t nr, n = 0;
	int ret = TEST_FAIL;

	TEST_ASSERT_EQUAL("init", hists__init(&h, "sym", NULL), 0);
	h.callchains = true;
	h.callee_order = true;
	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		f[1].ip = f[1].addr = 0x5000 + 0x10 * order[i];
		hists__add_sample(&h, "app", 1, 1, 0, f, 2, 10 + i);
		want_period[order[i]] += 10 + i;
	}
	v = hists__sorted(&h, &nr);
	if (nr != 1) {
		fprintf(stderr, "FAILED: %zu entries\n", nr);
		goto out;
	}
	/* callee order: leaf, then one child per caller address under it */
	c = v[0]->chain_root.children;
	if (!c || c->next || c->frame.sym != leaf) {
		fprintf(stderr, "FAILED: the sampled function is not the only root\n");
		goto out;
	}
	/* most recent first: 3, 7, 11, 0, then the others from the newest */
	{
		const uint64_t want_order[] = { 3, 7, 11, 0, 10, 9, 8, 6, 5, 4, 2, 1 };

		for (c = c->children; c; c = c->next, n++) {
			uint64_t k = (c->frame.addr - 0x5000) / 0x10;

			if (n >= ARRAY_SIZE(want_order) || k != want_order[n] || c->period != want_period[k]) {
				fprintf(stderr, "FAILED child %zu: caller %llu period %llu\n", n,
					(unsigned long long)k, (unsigned long long)c->period);
				goto out;
			}
		}
	}
	if (n != 12)
		fprintf(stderr, "FAILED: %zu children, want 12\n", n);
	else
		ret = TEST_OK;
out:
	free(v);
	hists__exit(&h);
	free(leaf);
	return ret;
}
DEFINE_SUITE("hist: a call-graph node with many children finds each again, most recent first",
	     test_hist_many_children);
