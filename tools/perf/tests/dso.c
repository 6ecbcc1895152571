// SPDX-License-Identifier: MIT
/*
 * Per-DSO state of other units (dso__priv / dso__set_priv): each key finds
 * its own data, replacing frees the old data, and the DSO's end frees what
 * is attached, through the key's destructor, exactly once.
 */
#include <stdlib.h>
#include "tests.h"
#include "util/dso.h"
#include "util/util.h"

static int freed_a, freed_b;

static void free_a(void *p) { freed_a++; free(p); }
static void free_b(void *p) { freed_b++; free(p); }

static const struct dso_priv_key key_a = { "a", free_a };
static const struct dso_priv_key key_b = { "b", free_b };

static int test__dso_priv(void)
{
	struct dsos d;
	struct dso *x, *y;
	int *a1 = xmalloc(sizeof(int)), *a2 = xmalloc(sizeof(int)), *b = xmalloc(sizeof(int));

	freed_a = freed_b = 0;
	dsos__init(&d);
	x = dsos__findnew(&d, "/nonexistent/x.so");
	y = dsos__findnew(&d, "/nonexistent/y.so");
	TEST_ASSERT_VAL("nothing attached yet", !dso__priv(x, &key_a) && !dso__priv(x, &key_b));
	dso__set_priv(x, &key_a, a1);
	dso__set_priv(x, &key_b, b);
	TEST_ASSERT_VAL("each key its own data", dso__priv(x, &key_a) == a1 && dso__priv(x, &key_b) == b);
	TEST_ASSERT_VAL("other DSO unaffected", !dso__priv(y, &key_a));
	dso__set_priv(x, &key_a, a1);
	TEST_ASSERT_EQUAL("setting the same data frees nothing", freed_a, 0);
	dso__set_priv(x, &key_a, a2);
	TEST_ASSERT_EQUAL("replaced data freed", freed_a, 1);
	TEST_ASSERT_VAL("replacement found", dso__priv(x, &key_a) == a2);
	dsos__exit(&d);
	TEST_ASSERT_EQUAL("a freed with the DSO", freed_a, 2);
	TEST_ASSERT_EQUAL("b freed with the DSO", freed_b, 1);
	return TEST_OK;
}

DEFINE_SUITE("DSO: per-DSO state of other units freed with the DSO", test__dso_priv);
