// SPDX-License-Identifier: MIT
/*
 * util/flamegraph.c's writers on stacks made by hand: perf's JSON shape
 * (as Python's json.dumps writes it, \u escapes included), merging by name,
 * folded lines with stackcollapse.py's options, and the page JSON's escapes.
 */
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "util/dso.h"
#include "util/flamegraph.h"

static struct symbol *mksym(const char *name)
{
	struct symbol *s = calloc(1, sizeof(*s) + strlen(name) + 1);

	strcpy(s->name, name);
	return s;
}

static char *render(const struct flamegraph *fg, int which, const struct folded_opts *fo)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (which == 0)
		flamegraph__write_json(fg, f);
	else if (which == 1)
		flamegraph__write_folded(fg, f, fo);
	else
		flamegraph__write_page_json(fg, f);
	fclose(f);
	return buf;
}

static int expect(const char *what, char *got, const char *want)
{
	int ok = !strcmp(got, want);

	if (!ok)
		fprintf(stderr, "FAILED %s:\n got: %s\nwant: %s\n", what, got, want);
	free(got);
	return ok ? TEST_OK : TEST_FAIL;
}

static int test__flamegraph(void)
{
	struct dso kdso = { .long_name = "[kernel.kallsyms]", .kind = DSO_KIND_KERNEL };
	struct dso libc = { .long_name = "/usr/lib/libc.so.6", .kind = DSO_KIND_ELF };
	struct dso jit = { .long_name = "/home/u/.debug/jit/j/jitted-7-1.so", .kind = DSO_KIND_ELF };
	struct symbol *hot = mksym("Foo.hot(int)"), *interp = mksym("Interpreter");
	struct symbol *start = mksym("start_thread"), *sys = mksym("do_syscall_64");
	struct symbol *odd = mksym("a;b \"q\"\\ \xc3\xa9 \xf0\x9f\x94\xa5 <http://x>\x01");
	struct flamegraph_opts o = { 0 };
	struct folded_opts fo = { 0 };
	struct flamegraph fg;
	struct hist_frame s1[] = {   /* leaf first */
		{ .dso = &jit, .sym = hot, .addr = 0x10 },
		{ .dso = &jit, .sym = interp, .addr = 0x20 },
		{ .dso = &libc, .sym = start, .addr = 0x30 },
	};
	struct hist_frame s2[] = {
		{ .dso = &kdso, .sym = sys, .addr = 0xffff, .kernel = true },
		{ .dso = &libc, .sym = start, .addr = 0x31 },
	};
	struct hist_frame s3[] = { { .dso = NULL, .sym = NULL, .addr = 0x99 }, { .dso = &libc, .sym = odd } };
	int ret = TEST_OK;

	flamegraph__init(&fg, &o, NULL);
	flamegraph__add_sample(&fg, "java (7)", false, s1, 3);
	flamegraph__add_sample(&fg, "java (7)", false, s1, 3);
	flamegraph__add_sample(&fg, "java (7)", false, s2, 2);
	flamegraph__add_sample(&fg, "swapper", true, s2, 1);
	TEST_ASSERT_EQUAL("samples", fg.nr_samples, 4);
	/* merged by name, children in the order first seen, self counts only at the ends */
	if (expect("perf json", render(&fg, 0, NULL),
		   "{\"n\": \"all\", \"l\": \"root\", \"v\": 0, \"c\": ["
		   "{\"n\": \"java (7)\", \"l\": \"\", \"v\": 0, \"c\": ["
		   "{\"n\": \"start_thread\", \"l\": \"\", \"v\": 0, \"c\": ["
		   "{\"n\": \"Interpreter\", \"l\": \"\", \"v\": 0, \"c\": ["
		   "{\"n\": \"Foo.hot(int)\", \"l\": \"\", \"v\": 2, \"c\": []}]}, "
		   "{\"n\": \"do_syscall_64\", \"l\": \"kernel\", \"v\": 1, \"c\": []}]}]}, "
		   "{\"n\": \"swapper\", \"l\": \"kernel\", \"v\": 0, \"c\": ["
		   "{\"n\": \"do_syscall_64\", \"l\": \"kernel\", \"v\": 1, \"c\": []}]}]}"))
		ret = TEST_FAIL;
	if (expect("folded", render(&fg, 1, &fo),
		   "java (7);start_thread;Interpreter;Foo.hot(int) 2\n"
		   "java (7);start_thread;do_syscall_64 1\n"
		   "swapper;do_syscall_64 1\n"))
		ret = TEST_FAIL;
	fo.annotate_kernel = true;
	fo.tidy_java = true;
	if (expect("folded --kernel --tidy-java", render(&fg, 1, &fo),
		   "java (7);start_thread;Interpreter;Foo.hot 2\n"
		   "java (7);start_thread;do_syscall_64_[k] 1\n"
		   "swapper;do_syscall_64_[k] 1\n"))
		ret = TEST_FAIL;
	/* kinds: JIT method, stub, native, kernel; DSOs by index */
	if (expect("page json", render(&fg, 2, NULL),
		   "{\"samples\":4,\"dsos\":[\"/usr/lib/libc.so.6\",\"/home/u/.debug/jit/j/jitted-7-1.so\","
		   "\"[kernel.kallsyms]\"],\"tree\":"
		   "{\"n\":\"all\",\"v\":0,\"k\":0,\"c\":["
		   "{\"n\":\"java (7)\",\"v\":0,\"k\":1,\"c\":["
		   "{\"n\":\"start_thread\",\"v\":0,\"k\":5,\"d\":0,\"c\":["
		   "{\"n\":\"Interpreter\",\"v\":0,\"k\":4,\"d\":1,\"c\":["
		   "{\"n\":\"Foo.hot(int)\",\"v\":2,\"k\":2,\"d\":1,\"c\":[]}]},"
		   "{\"n\":\"do_syscall_64\",\"v\":1,\"k\":6,\"l\":\"kernel\",\"d\":2,\"c\":[]}]}]},"
		   "{\"n\":\"swapper\",\"v\":0,\"k\":1,\"l\":\"kernel\",\"c\":["
		   "{\"n\":\"do_syscall_64\",\"v\":1,\"k\":6,\"l\":\"kernel\",\"d\":2,\"c\":[]}]}]}}"))
		ret = TEST_FAIL;
	flamegraph__exit(&fg);

	/* escapes: json.dumps' for perf's JSON; the page's also hides <, > and URL schemes */
	flamegraph__init(&fg, &o, NULL);
	flamegraph__add_sample(&fg, NULL, false, s3, 2);
	if (expect("escapes", render(&fg, 0, NULL),
		   "{\"n\": \"all\", \"l\": \"root\", \"v\": 0, \"c\": ["
		   "{\"n\": \"a;b \\\"q\\\"\\\\ \\u00e9 \\ud83d\\udd25 <http://x>\\u0001\", \"l\": \"\", \"v\": 0, \"c\": ["
		   "{\"n\": \"[unknown]\", \"l\": \"\", \"v\": 1, \"c\": []}]}]}"))
		ret = TEST_FAIL;
	{
		char *page = render(&fg, 2, NULL);

		TEST_ASSERT_VAL("page escapes <, > and http:",
				strstr(page, "\\u003chttp\\u003a//x\\u003e") && !strstr(page, "http:") &&
				!strchr(page, '<'));
		free(page);
	}
	fo = (struct folded_opts){ 0 };
	if (expect("folded ; in names", render(&fg, 1, &fo),
		   "a:b \"q\"\\ \xc3\xa9 \xf0\x9f\x94\xa5 <http://x>\x01;[unknown] 1\n"))
		ret = TEST_FAIL;
	flamegraph__exit(&fg);
	free(hot);
	free(interp);
	free(start);
	free(sys);
	free(odd);
	return ret;
}

DEFINE_SUITE("flame graph stacks: perf's JSON, folded, page data", test__flamegraph);
