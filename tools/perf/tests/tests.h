/* SPDX-License-Identifier: MIT */
#ifndef PERF_TESTS_TESTS_H
#define PERF_TESTS_TESTS_H

#include <stdio.h>

enum { TEST_OK = 0, TEST_FAIL = -1, TEST_SKIP = -2 };

struct test_suite {
	const char *desc;
	int (*func)(void);     /* TEST_OK / TEST_FAIL / TEST_SKIP */
};

/*
 * Each test file registers its suites with DEFINE_SUITE; the pointers are
 * collected in one linker section, so adding a test touches no shared list.
 * `perf test` orders suites by description.
 */
#define DEFINE_SUITE(description, fn)                                              \
	static const struct test_suite suite__##fn = { description, fn };          \
	static const struct test_suite *suite_ptr__##fn                            \
		__attribute__((used, section("perf_test_suites"), aligned(sizeof(void *)))) = &suite__##fn

/* Print where and what failed; only shown with -v or on failure. */
#define TEST_ASSERT_VAL(text, cond)                                                \
	do {                                                                       \
		if (!(cond)) {                                                     \
			fprintf(stderr, "FAILED %s:%d %s\n", __FILE__, __LINE__, text); \
			return TEST_FAIL;                                          \
		}                                                                  \
	} while (0)

#define TEST_ASSERT_EQUAL(text, val, expected)                                     \
	do {                                                                       \
		long long _v = (long long)(val), _e = (long long)(expected);       \
		if (_v != _e) {                                                    \
			fprintf(stderr, "FAILED %s:%d %s: got %lld, expected %lld\n", \
				__FILE__, __LINE__, text, _v, _e);                 \
			return TEST_FAIL;                                          \
		}                                                                  \
	} while (0)

/* A scratch directory for the running test (created by the runner). */
const char *test_tmpdir(void);

/* The fields every uprobe's tracefs format starts with, as the kernel writes them. */
#define UPROBE_FORMAT_HEAD \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n" \
	"\n" \
	"\tfield:unsigned long __probe_ip;\toffset:8;\tsize:8;\tsigned:0;\n"

#endif
