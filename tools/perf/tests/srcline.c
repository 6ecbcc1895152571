// SPDX-License-Identifier: MIT
/* DWARF source lines (util/srcline.c) against addr2line, inline chains included. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/tests.h"
#include "tests/symbol-helpers.h"
#include "util/build-id.h"
#include "util/dso.h"

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
