// SPDX-License-Identifier: MIT
/*
 * perf annotate's model (util/annotate.c) on the sym_funcs workload:
 * samples counted per symbol and address, a function disassembled into the
 * instructions objdump prints for it, each hit given to the instruction
 * that contains it, DWARF line numbers from the file's own line table, and
 * source lines read once per context.
 */
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "tests/symbol-helpers.h"
#include "util/annotate.h"
#include "util/dso.h"
#include "util/util.h"

static struct symbol *find_by_name(struct dso *dso, const char *name)
{
	for (size_t i = 0; i < dso->symtab.nr; i++)
		if (!strcmp(dso->symtab.syms[i]->name, name))
			return dso->symtab.syms[i];
	return NULL;
}

/* instruction lines objdump prints for [start, end): what the model must hold */
static long objdump_insns(const char *path, const struct symbol *sym)
{
	char *cmd = xasprintf("objdump -d --no-show-raw-insn --start-address=%#llx --stop-address=%#llx %s"
			      " | grep -cE '^ +[0-9a-f]+:'", (unsigned long long)sym->start,
			      (unsigned long long)sym->end, path);
	char *out = sym_test__run(cmd);
	long n = out ? strtol(out, NULL, 10) : -1;

	free(cmd);
	free(out);
	return n;
}

static int test__annotate_sym_funcs(void)
{
	char *path = sym_test__workload("sym_funcs"), *src;
	struct annotate_ctx ctx = { 0 };
	struct annotation a, b;
	struct sym_hists h;
	struct sym_hist **sorted;
	struct symbol *one, *two;
	struct dsos d;
	struct dso *dso;
	char err[256];
	size_t nr, k;
	bool lines = false;
	int ret = TEST_FAIL;

	if (!path)
		return TEST_FAIL;
	dsos__init(&d);
	d.debuginfo_dir = "/nonexistent";
	dso = dsos__findnew(&d, path);
	sym_hists__init(&h);
	if (dso__load(&d, dso) <= 0 || !(one = find_by_name(dso, "sym_global_one")) ||
	    !(two = find_by_name(dso, "sym_static_two"))) {
		fprintf(stderr, "FAILED: symbols of %s\n", path);
		goto out_free;
	}

	/* the instructions alone: as many as objdump prints, in order, inside the symbol */
	TEST_ASSERT_VAL("annotate", symbol__annotate(&ctx, &(struct sym_hist){ .dso = dso, .sym = one },
						     &a, err, sizeof(err)) == 0);
	TEST_ASSERT_EQUAL("instructions as objdump", (long)a.nr, objdump_insns(path, one));
	TEST_ASSERT_VAL("at least three", a.nr >= 3);
	TEST_ASSERT_EQUAL("first at the symbol", a.insns[0].addr, one->start);
	for (size_t i = 0; i < a.nr; i++) {
		TEST_ASSERT_VAL("inside", a.insns[i].addr >= one->start && a.insns[i].addr < one->end);
		TEST_ASSERT_VAL("ascending", i == 0 || a.insns[i].addr > a.insns[i - 1].addr);
		TEST_ASSERT_VAL("text", a.insns[i].text && *a.insns[i].text);
		if (a.insns[i].src_line > 0 && a.insns[i].src_file &&
		    str_ends_with(a.insns[i].src_file, "sym_funcs.c"))
			lines = true;
	}
	TEST_ASSERT_VAL("DWARF lines of sym_funcs.c (built with -g)", lines);

	/* an instruction longer than one byte: a hit inside it is its own */
	for (k = 0; k + 1 < a.nr && a.insns[k + 1].addr - a.insns[k].addr < 2; k++)
		;
	TEST_ASSERT_VAL("a multi-byte instruction", k + 1 < a.nr);
	sym_hists__add(&h, dso, one, a.insns[0].addr, 10);
	sym_hists__add(&h, dso, one, a.insns[0].addr, 20);
	sym_hists__add(&h, dso, one, a.insns[k].addr + 1, 5);
	sym_hists__add(&h, dso, one, a.insns[a.nr - 1].addr, 7);    /* exactly at the last */
	sym_hists__add(&h, dso, two, two->start, 1);
	sorted = sym_hists__sorted(&h, &nr);
	TEST_ASSERT_EQUAL("two symbols", nr, 2);
	TEST_ASSERT_VAL("most samples first", sorted[0]->sym == one && sorted[0]->nr_samples == 4 &&
			sorted[0]->period == 42 && sorted[1]->sym == two);
	TEST_ASSERT_EQUAL("one address hit twice is one entry", sorted[0]->nr_hits, 3);
	TEST_ASSERT_VAL("annotate with hits", symbol__annotate(&ctx, sorted[0], &b, err, sizeof(err)) == 0);
	free(sorted);
	TEST_ASSERT_EQUAL("symbol period", b.period, 42);
	TEST_ASSERT_VAL("last instruction", b.insns[b.nr - 1].period == 7 && b.insns[b.nr - 1].nr_samples == 1);
	if (k == 0) {
		TEST_ASSERT_VAL("all in the first", b.insns[0].period == 35 && b.insns[0].nr_samples == 3);
	} else {
		TEST_ASSERT_VAL("first instruction", b.insns[0].period == 30 && b.insns[0].nr_samples == 2);
		TEST_ASSERT_VAL("inside instruction k", b.insns[k].period == 5 && b.insns[k].nr_samples == 1);
	}
	for (size_t i = 0; i < b.nr; i++)
		TEST_ASSERT_VAL("no other instruction hit", i == 0 || i == k || i == b.nr - 1 ||
				!b.insns[i].period);

	/* source lines: read once, 1-based, NULL past the end or for a missing file */
	src = xasprintf("%s/tools/perf/tests/workloads/sym_funcs.c", sym_test__top());
	TEST_ASSERT_VAL("line 1", !strcmp(annotate_ctx__source_line(&ctx, src, 1) ?: "",
					  "// SPDX-License-Identifier: MIT"));
	TEST_ASSERT_VAL("line 0", annotate_ctx__source_line(&ctx, src, 0) == NULL);
	TEST_ASSERT_VAL("past the end", annotate_ctx__source_line(&ctx, src, 1000000) == NULL);
	TEST_ASSERT_VAL("missing file", annotate_ctx__source_line(&ctx, "/nonexistent/x.c", 1) == NULL);
	free(src);
	annotation__exit(&b);
	annotation__exit(&a);

	/* nothing to disassemble: an error with the reason, not a crash */
	dso->kind = DSO_KIND_ANON;
	TEST_ASSERT_VAL("anon refused", symbol__annotate(&ctx, &(struct sym_hist){ .dso = dso, .sym = one },
							 &a, err, sizeof(err)) == -1 && strstr(err, "no object file"));
	dso->kind = DSO_KIND_ELF;
	annotation__exit(&a);
	ret = TEST_OK;
out_free:
	annotate_ctx__exit(&ctx);
	sym_hists__exit(&h);
	dsos__exit(&d);
	free(path);
	return ret;
}
DEFINE_SUITE("annotate: instructions as objdump prints them, hits per instruction, DWARF lines",
	     test__annotate_sym_funcs);
