// SPDX-License-Identifier: MIT
/*
 * Display names vs perf 6.1: we compile symbols with Java-style names into
 * an ELF and let perf 6.1 list them (`perf probe --funcs` demangles like
 * report does); libstdc++'s C++ names the same way.
 */
#include <stdlib.h>
#include <string.h>
#include "tests/tests.h"
#include "tests/symbol-helpers.h"
#include "util/symbol.h"

static const char *const java_names[] = {
	"Lcom/example/Foo;hot(I[Ljava/lang/String;)V", "LFoo;a([I)V", "LFoo;b([II)V", "LFoo;d([[I)V",
	"LFoo;e([Ljava/lang/String;I)V", "LFoo;f(Ljava/lang/String;[Ljava/lang/Object;)V",
	"LFoo;g()V", "LFoo;h()[I", "LFoo;i(J)Ljava/lang/String;", "LFoo$Bar;j(LFoo$Bar;)V",
	"LFoo;<init>()V", "LFoo;<clinit>()V", "Lfoo", "LFoo;k", "LFoo;l(", "LFoo;m(Q)V",
	"LFoo;n(Lx)V", "LFoo;z(ZBCSIJFD[[J)I", "LA;b(ZZZZZZ)V", "LA;e(DDDDDD)V", "LA;h(QI)V",
	"LA;i(IQ)V", "LA;_x(I)V", "LA;$y(I)V", "LA;9z(I)V", "LA;s(I)Vxyz", "LA;t(I)", "LA;u(I",
	"LA;w([[LB;I)V", "LA;a/b(I)V", "LA;a(I;)V", "L;a(I)V", "LA;(I)V", "LA;a(L;)V",
	"LA;a(II)V(I)", "LA;lambda$main$0(I)V", "LA;d(I))", "LA;e(V)V", "LA;f(I[)V", "LA(;j(I)V",
	"LA);k(I)V", "LA;l)(I)V", "LA;m(IL)V", "LA;p(Ia)V", "LA;t(LB/C;I)V", "LA;v(LB(;)V",
	"Lcom/a/B;c([[[Ljava/lang/String;)V", "LA;p([Z[B[C[S[J[F[D)V", "LAB;", "Interpreter",
	"Ljava/util/HashMap;get(Ljava/lang/Object;)Ljava/lang/Object;",
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int verbose_first_line(const char *out)
{
	fprintf(stderr, "perf 6.1 first lines: %.80s\n", out);
	if (!out[0]) {
		fprintf(stderr, "perf 6.1 printed nothing\n");
		return 1;
	}
	return 0;
}

/* perf probe --funcs output restricted to a set of names, sorted, one per line */
static int compare_sets(char **ours, size_t n, char *perf_out)
{
	char *line, *save = NULL;
	size_t i = 0;
	int ret = TEST_OK;

	qsort(ours, n, sizeof(*ours), cmp_str);
	if (verbose_first_line(perf_out))
		return TEST_FAIL;
	for (line = strtok_r(perf_out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (i < n && !strcmp(line, ours[i])) {
			i++;
			while (i < n && !strcmp(ours[i], ours[i - 1]))
				i++;
			continue;
		}
	}
	if (i != n) {
		fprintf(stderr, "perf 6.1 does not show '%s'\n", ours[i]);
		ret = TEST_FAIL;
	}
	return ret;
}

static int test__java_vs_perf(void)
{
	FILE *f;
	char *names[ARRAY_SIZE(java_names)], *out;
	int ret;

	if (access("/usr/bin/perf", X_OK) || !sym_test__have("gcc"))
		return TEST_SKIP;
	f = fopen("names.c", "w");
	TEST_ASSERT_VAL("names.c", f);
	for (size_t i = 0; i < ARRAY_SIZE(java_names); i++)
		fprintf(f, "void f%zu(void) __asm__(\"\\\"%s\\\"\"); void f%zu(void) {}\n", i, java_names[i], i);
	fprintf(f, "int main(void) { return 0; }\n");
	fclose(f);
	TEST_ASSERT_VAL("gcc", system("gcc -O0 -o names names.c") == 0);
	/* a private HOME: perf would take a same-build-id copy from the user's ~/.debug */
	out = sym_test__run("HOME=$PWD /usr/bin/perf probe -x ./names --funcs --filter '*' 2>/dev/null | LC_ALL=C sort");
	TEST_ASSERT_VAL("perf 6.1 probe --funcs", out);
	for (size_t i = 0; i < ARRAY_SIZE(java_names); i++) {
		names[i] = java_name__demangle(java_names[i]);
		if (!names[i])
			names[i] = xstrdup(java_names[i]);
	}
	ret = compare_sets(names, ARRAY_SIZE(java_names), out);
	for (size_t i = 0; i < ARRAY_SIZE(java_names); i++)
		free(names[i]);
	free(out);
	TEST_ASSERT_VAL("java names as perf 6.1 shows them", ret == TEST_OK);
	/* and a hand-checked one, independent of perf */
	out = java_name__demangle("Lcom/example/Foo;hot(I)V");
	TEST_ASSERT_VAL("readable", out && !strcmp(out, "com.example.Foo.hot(int)"));
	free(out);
	TEST_ASSERT_VAL("not java", java_name__demangle("main") == NULL);
	return TEST_OK;
}
DEFINE_SUITE("Symbols: Java names demangled like perf 6.1", test__java_vs_perf);

static int test__cxx_vs_perf(void)
{
	const char *lib = "/lib/x86_64-linux-gnu/libstdc++.so.6";
	char *cmd, *out, *line, *save = NULL, **names = NULL;
	size_t n = 0, cap = 0;
	int ret;

	if (access("/usr/bin/perf", X_OK) || access(lib, R_OK) || !sym_test__have("nm"))
		return TEST_SKIP;
	cmd = xasprintf("nm -D --defined-only '%s' | awk '$2 ~ /^[TW]$/ {print $3}' | sed 's/@.*//' | sort -u", lib);
	out = sym_test__run(cmd);
	TEST_ASSERT_VAL("nm", out);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *dm = cxx_name__demangle(line);

		*ARRAY_PUSH(names, n, cap) = dm ? dm : xstrdup(line);
	}
	free(out);
	free(cmd);
	TEST_ASSERT_VAL("C++ names", n > 1000);
	cmd = xasprintf("/usr/bin/perf probe -x '%s' --funcs --filter '*' 2>/dev/null | LC_ALL=C sort", lib);
	out = sym_test__run(cmd);
	TEST_ASSERT_VAL("perf 6.1 probe --funcs", out);
	ret = compare_sets(names, n, out);
	fprintf(stderr, "%zu libstdc++ functions compared\n", n);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(out);
	free(cmd);
	return ret;
}
DEFINE_SUITE("Symbols: C++ names demangled like perf 6.1", test__cxx_vs_perf);
