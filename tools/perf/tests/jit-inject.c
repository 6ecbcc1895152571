// SPDX-License-Identifier: MIT
/*
 * The jitdump marker rule of perf inject --jit (jitdump.md section 1): a
 * '/' before the basename, "jit-", decimal digits equal to the record's pid
 * (any pid when the record's pid is 0), then exactly ".dump".
 */
#include "tests/tests.h"
#include "util/jit-inject.h"

static int test__jit_marker(void)
{
	TEST_ASSERT_VAL("plain", jit_inject__is_marker("/home/u/.debug/jit/java-jit-1.x/jit-1234.dump", 1234));
	TEST_ASSERT_VAL("cwd of node", jit_inject__is_marker("/srv/app/jit-7.dump", 7));
	TEST_ASSERT_VAL("pid 0 takes any number", jit_inject__is_marker("/tmp/x/jit-99.dump", 0));
	TEST_ASSERT_VAL("other pid", !jit_inject__is_marker("/tmp/x/jit-99.dump", 98));
	TEST_ASSERT_VAL("no slash", !jit_inject__is_marker("jit-99.dump", 99));
	TEST_ASSERT_VAL("no digits", !jit_inject__is_marker("/tmp/jit-.dump", 0));
	TEST_ASSERT_VAL("letters", !jit_inject__is_marker("/tmp/jit-12a.dump", 12));
	TEST_ASSERT_VAL("suffix after .dump", !jit_inject__is_marker("/tmp/jit-12.dump.old", 12));
	TEST_ASSERT_VAL("other extension", !jit_inject__is_marker("/tmp/jit-12.dmp", 12));
	TEST_ASSERT_VAL("prefix", !jit_inject__is_marker("/tmp/xjit-12.dump", 12));
	TEST_ASSERT_VAL("dir named like a dump", !jit_inject__is_marker("/tmp/jit-12.dump/x", 12));
	TEST_ASSERT_VAL("generated ELF", !jit_inject__is_marker("/tmp/jitted-12-1.so", 12));
	TEST_ASSERT_VAL("overflow", !jit_inject__is_marker("/tmp/jit-99999999999999999999.dump", 0));
	return TEST_OK;
}

DEFINE_SUITE("jit inject: jitdump marker rule", test__jit_marker);
