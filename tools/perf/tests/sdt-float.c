// SPDX-License-Identifier: MIT
/*
 * SDT floating-point arguments: which note operands are floats, and their
 * raw bits (a u64/u32 uprobe field) printed as the shortest decimal that
 * reads back as the same value, in the print fmt and in the field-list
 * fallback; fields not listed, or of another size, stay integers.
 */
#include <stdint.h>
#include <string.h>

#include "tests.h"
#include "util/sdt-arg.h"
#include "util/trace-event.h"
#include "util/trace-event-print.h"
#include "util/util.h"

/* the format of a uprobe on "8f@-8(%rsp) 4f@-12(%rsp)" (sdt_fp/mem), as tracefs writes it */
static const char fp_format[] =
	"name: mem\n"
	"ID: 3001\n"
	"format:\n"
	UPROBE_FORMAT_HEAD
	"\tfield:u64 arg1;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u32 arg2;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"(%lx) arg1=%llu arg2=%u\", REC->__probe_ip, REC->arg1, REC->arg2\n";

static int print(struct trace_format *fmt, const struct print_float *pf, size_t nr, double d, float f,
		 char *out, size_t outsz)
{
	unsigned char raw[28] = { 0 };
	uint64_t ip = 0x107a;
	struct print_env env = { __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__, sizeof(long), NULL, NULL, pf, nr };

	memcpy(raw + 8, &ip, 8);
	memcpy(raw + 16, &d, 8);
	memcpy(raw + 24, &f, 4);
	return print_fmt__print(fmt, &env, raw, sizeof(raw), out, outsz);
}

static int test__sdt_float(void)
{
	struct trace_format *fmt = trace_format__parse(fp_format, strlen(fp_format), "sdt_fp");
	static const struct print_float both[] = { { "arg1", 8 }, { "arg2", 4 } };
	static const struct print_float wrong_size[] = { { "arg1", 4 }, { "arg2", 8 } };
	struct print_fmt *pf;
	char out[256];

	TEST_ASSERT_VAL("float sizes", sdt_arg__float_size("8f@%rdx") == 8 &&
			sdt_arg__float_size("4f@-12(%rsp)") == 4 && !sdt_arg__float_size("8@%rdx") &&
			!sdt_arg__float_size("-8f@%rdx") && !sdt_arg__float_size("3f@%rdx") &&
			!sdt_arg__float_size("-4@%eax") && !sdt_arg__float_size(""));
	TEST_ASSERT_VAL("parse", fmt && fmt->pf);
	print(fmt, both, 2, 1.5, -2.25f, out, sizeof(out));
	TEST_ASSERT_VAL(out, !strcmp(out, "(107a) arg1=1.5 arg2=-2.25"));
	/* shortest round-trip: 0.1 is not 0.10000000000000001, 0.1f not 0.100000001 */
	print(fmt, both, 2, 0.1, 0.1f, out, sizeof(out));
	TEST_ASSERT_VAL(out, !strcmp(out, "(107a) arg1=0.1 arg2=0.1"));
	print(fmt, both, 2, 1.0 / 3, -0.0f, out, sizeof(out));
	TEST_ASSERT_VAL(out, !strcmp(out, "(107a) arg1=0.3333333333333333 arg2=-0"));
	print(fmt, both, 2, 1e300, 3.4e38f, out, sizeof(out));
	TEST_ASSERT_VAL(out, !strcmp(out, "(107a) arg1=1e+300 arg2=3.4e+38"));
	print(fmt, both, 2, __builtin_inf(), __builtin_nanf(""), out, sizeof(out));
	TEST_ASSERT_VAL(out, !strcmp(out, "(107a) arg1=inf arg2=nan"));
	/* not listed, or listed with another size than the field's: the bits as perf 6.1 prints them */
	print(fmt, NULL, 0, 1.5, -2.25f, out, sizeof(out));
	TEST_ASSERT_VAL(out, !strcmp(out, "(107a) arg1=4609434218613702656 arg2=3222274048"));
	print(fmt, wrong_size, 2, 1.5, -2.25f, out, sizeof(out));
	TEST_ASSERT_VAL(out, !strcmp(out, "(107a) arg1=4609434218613702656 arg2=3222274048"));
	/* the field-list fallback (no print fmt) shows them as floats too */
	pf = fmt->pf;
	fmt->pf = NULL;
	print(fmt, both, 2, 1.5, -2.25f, out, sizeof(out));
	fmt->pf = pf;
	TEST_ASSERT_VAL(out, !strcmp(out, "__probe_ip=4218 arg1=1.5 arg2=-2.25"));
	trace_format__delete(fmt);
	return TEST_OK;
}
DEFINE_SUITE("SDT floating-point arguments printed as floats", test__sdt_float);
