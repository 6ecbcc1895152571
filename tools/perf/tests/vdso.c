// SPDX-License-Identifier: MIT
/* The vDSO (util/vdso.c) of our own process: found, read, its symbols named. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/tests.h"
#include "tests/symbol-helpers.h"
#include "util/build-id.h"
#include "util/dso.h"

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

	TEST_ASSERT_EQUAL("other vDSO: no symbols", sym_test__load_other_build("[vdso]"), 0);
	return TEST_OK;
}
DEFINE_SUITE("Symbols: vDSO of our own process", test__vdso);
