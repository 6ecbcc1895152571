// SPDX-License-Identifier: MIT
/* Kernel symbols from /proc/kallsyms (util/kallsyms.c), compared with the file itself. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/tests.h"
#include "tests/symbol-helpers.h"
#include "util/build-id.h"
#include "util/dso.h"
#include "util/kallsyms.h"

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
	TEST_ASSERT_EQUAL("other kernel", sym_test__load_other_build("[kernel.kallsyms]"), 0);
	return TEST_OK;
}
DEFINE_SUITE("Symbols: kernel symbols from /proc/kallsyms", test__kallsyms);
