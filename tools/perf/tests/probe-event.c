// SPDX-License-Identifier: MIT
/*
 * probe-event: the probe point syntax, uprobe_events lines, and probe
 * definitions turned into lines (dry run: no tracefs needed). Offsets are
 * checked against objdump's "File Offset", not against our own output.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tests.h"
#include "tests/symbol-helpers.h"
#include "util/probe-event.h"
#include "util/util.h"

static int test__probe_point_parse(void)
{
	struct probe_point pp;

	TEST_ASSERT_VAL("FUNC", probe_point__parse("compute", &pp) == 0);
	TEST_ASSERT_VAL("FUNC name", !strcmp(pp.function, "compute") && pp.rel_line == -1 && !pp.file);
	probe_point__exit(&pp);
	TEST_ASSERT_VAL("FUNC:REL", probe_point__parse("compute:4", &pp) == 0 && pp.rel_line == 4);
	probe_point__exit(&pp);
	TEST_ASSERT_VAL("FUNC+OFF", probe_point__parse("compute+0x10", &pp) == 0 && pp.has_offset &&
			pp.offset == 16);
	probe_point__exit(&pp);
	TEST_ASSERT_VAL("FUNC%return", probe_point__parse("compute%return", &pp) == 0 && pp.retprobe);
	probe_point__exit(&pp);
	TEST_ASSERT_VAL("FUNC@FILE:REL", probe_point__parse("compute@dwarf_vars.c:2", &pp) == 0 &&
			!strcmp(pp.file, "dwarf_vars.c") && pp.rel_line == 2);
	probe_point__exit(&pp);
	TEST_ASSERT_VAL("FILE:LINE", probe_point__parse("dwarf_vars.c:40", &pp) == 0 && !pp.function &&
			pp.line == 40);
	probe_point__exit(&pp);
	TEST_ASSERT_VAL("lazy", probe_point__parse("compute;res*", &pp) == 0 && !strcmp(pp.lazy, "res*"));
	probe_point__exit(&pp);
	TEST_ASSERT_VAL("junk after %return", probe_point__parse("compute%returnx", &pp) < 0);
	TEST_ASSERT_VAL("bad line", probe_point__parse("compute:x", &pp) < 0);
	TEST_ASSERT_VAL(":LINE and %return", probe_point__parse("compute:3%return", &pp) < 0);
	TEST_ASSERT_VAL("newline", probe_point__parse("compute\np:x", &pp) < 0);
	TEST_ASSERT_VAL("empty", probe_point__parse("", &pp) < 0);
	return TEST_OK;
}

static int test__probe_line(void)
{
	char *l = probe_line__format(false, "g", "e", "/bin/x", 0x1139, "a=%di:s32"), *g, *e, *r;

	TEST_ASSERT_VAL("format", !strcmp(l, "p:g/e /bin/x:0x1139 a=%di:s32"));
	TEST_ASSERT_VAL("names", probe_line__names(l, &g, &e) == 0 && !strcmp(g, "g") && !strcmp(e, "e"));
	free(g);
	free(e);
	r = probe_line__rename(l, "h", "f_1");
	TEST_ASSERT_VAL("rename", !strcmp(r, "p:h/f_1 /bin/x:0x1139 a=%di:s32"));
	free(r);
	free(l);
	l = probe_line__format(true, "g", "e", "/bin/x", 16, NULL);
	TEST_ASSERT_VAL("return probe, no args", !strcmp(l, "r:g/e /bin/x:0x10"));
	free(l);
	TEST_ASSERT_VAL("no group", probe_line__names("p:e /bin/x:0x1", &g, &e) < 0);
	return TEST_OK;
}

/* the file offset objdump gives for symbol @sym of @bin, or 0 */
static unsigned long long objdump_offset(const char *bin, const char *sym)
{
	char *cmd = xasprintf("a=$(nm '%s' | awk '$3 == \"%s\" {print $1; exit}') && "
			      "objdump -d -F --start-address=0x$a --stop-address=$((0x$a + 1)) '%s' | "
			      "sed -n 's/.*<%s> (File Offset: \\(0x[0-9a-f]*\\)).*/\\1/p'",
			      bin, sym, bin, sym);
	char *out = sym_test__run(cmd);
	unsigned long long off = out ? strtoull(out, NULL, 16) : 0;

	free(out);
	free(cmd);
	return off;
}

static int test__probe_plan(void)
{
	char *w = sym_test__workload("dwarf_vars_O0"), *spec = NULL, *line, abs[PATH_MAX], *nodw, *cmd;
	struct probe_def_opts o = { .dry_run = true };
	struct probe_plan p = { 0 };
	unsigned long long off;

	if (!w || !sym_test__have("objdump") || !sym_test__have("nm"))
		return w ? TEST_SKIP : TEST_FAIL;
	o.target = w;
	TEST_ASSERT_VAL("realpath", realpath(w, abs));
	/* DWARF: a named definition with a variable */
	TEST_ASSERT_VAL("DWARF def", probe_plan__add_def(&p, &o, "grp:ev=compute a", &spec) == 0);
	TEST_ASSERT_EQUAL("one line", p.nr_lines, 1);
	line = xasprintf("p:grp/ev %s:0x", abs);
	TEST_ASSERT_VAL("line place", !strncmp(p.lines[0], line, strlen(line)));
	TEST_ASSERT_VAL("fetched a", strstr(p.lines[0], " a=") != NULL);
	free(line);
	TEST_ASSERT_VAL("cache spec", spec && !strcmp(spec, "grp:ev=compute a"));
	TEST_ASSERT_VAL("report", p.nr_added == 1 && !strcmp(p.added[0].name, "grp:ev") &&
			!strcmp(p.added[0].on, "compute") && !strcmp(p.added[0].path, abs) &&
			!strcmp(p.added[0].with, "a"));
	free(spec);
	probe_plan__exit(&p);

	/* no DWARF: SYMBOL and SYMBOL%return from the symbol table, default group and names */
	nodw = xasprintf("%s/dwarf_vars.nodebug", test_tmpdir());
	cmd = xasprintf("strip --strip-debug -o '%s' '%s'", nodw, w);
	TEST_ASSERT_VAL("strip", system(cmd) == 0);
	free(cmd);
	off = objdump_offset(nodw, "compute");
	TEST_ASSERT_VAL("objdump offset", off != 0);
	o.target = nodw;
	TEST_ASSERT_VAL("symbol def", probe_plan__add_def(&p, &o, "compute %di", &spec) == 0);
	TEST_ASSERT_VAL("realpath nodebug", realpath(nodw, abs));
	line = xasprintf("p:probe_dwarf_vars/compute %s:0x%llx %%di", abs, off);
	TEST_ASSERT_VAL("symbol line", p.nr_lines == 1 && !strcmp(p.lines[0], line));
	free(line);
	/* unnamed: the header perf 6.1 writes has no "G:E=" */
	TEST_ASSERT_VAL("symbol spec", !strcmp(spec, "compute %di"));
	free(spec);
	TEST_ASSERT_VAL("return def", probe_plan__add_def(&p, &o, "compute+0%return", &spec) == 0);
	line = xasprintf("r:probe_dwarf_vars/compute__return %s:0x%llx", abs, off);
	TEST_ASSERT_VAL("return line", p.nr_lines == 2 && !strcmp(p.lines[1], line));
	TEST_ASSERT_EQUAL("two reports", p.nr_added, 2);
	free(line);
	free(spec);

	/* refused: bad names, unknown symbol, junk, no target */
	TEST_ASSERT_VAL("bad event name", probe_plan__add_def(&p, &o, "1x=compute", &spec) < 0);
	TEST_ASSERT_VAL("bad group name", probe_plan__add_def(&p, &o, "a-b:x=compute", &spec) < 0);
	TEST_ASSERT_VAL("no symbol", probe_plan__add_def(&p, &o, "no_such_function", &spec) < 0);
	TEST_ASSERT_VAL("bad offset", probe_plan__add_def(&p, &o, "compute+zz", &spec) < 0);
	o.target = NULL;
	TEST_ASSERT_VAL("symbol without -x", probe_plan__add_def(&p, &o, "compute", &spec) < 0);
	TEST_ASSERT_EQUAL("nothing added by the refused ones", p.nr_lines, 2);
	o.target = nodw;
	TEST_ASSERT_EQUAL("syntax only: ok", probe_def__check(&o, "x:y=nosuch a b"), 0);
	TEST_ASSERT_EQUAL("syntax only: bad line", probe_def__check(&o, "compute:x"), -EINVAL);
	TEST_ASSERT_EQUAL("syntax only: bad name", probe_def__check(&o, "1x=compute"), -EINVAL);
	probe_plan__exit(&p);
	free(nodw);
	free(w);
	return TEST_OK;
}

DEFINE_SUITE("probe-event: probe point syntax", test__probe_point_parse);
DEFINE_SUITE("probe-event: uprobe_events line format, names and rename", test__probe_line);
DEFINE_SUITE("probe-event: definitions to lines (DWARF, symbol table, %return) at objdump's file offset", test__probe_plan);
