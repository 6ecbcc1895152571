// SPDX-License-Identifier: MIT
/*
 * SDT operand conversion against the register table and size->type table
 * of shared/specs/sdt.md §5, plus the cases where we differ from perf 6.1
 * on purpose (high bytes, immediates, %rip globals, refusals).
 */
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "util/sdt-arg.h"

static int fake_sym(void *priv, const char *name, uint64_t *addr)
{
	if (strcmp(name, "counter"))
		return -1;
	*addr = 0x404010;
	return 0;
}

static int check(const struct sdt_arg_ctx *ctx, const char *in, const char *want)
{
	char *out = NULL;
	const char *why = NULL;
	int r = sdt_arg__to_fetcharg(in, ctx, &out, &why);

	if (want ? (r < 0 || strcmp(out, want)) : r == 0) {
		fprintf(stderr, "FAILED '%s' -> '%s' (%s), expected '%s'\n", in, out ? out : "(refused)",
			why ? why : "", want ? want : "(refused)");
		free(out);
		return -1;
	}
	free(out);
	return 0;
}

static int test__sdt_arg_x86(void)
{
	struct sdt_arg_ctx ctx = { .arch = SDT_ARCH_X86_64, .symbol_addr = fake_sym,
				   .text_delta = 0x400000 };
	static const char *const cases[][2] = {
		/* spec §5 table and OBS lines */
		{ "8@%rbx", "%bx:u64" }, { "-4@%r14d", "%r14:s32" }, { "1@%r15b", "%r15:u8" },
		{ "-2@%r13w", "%r13:s16" }, { "8@%rdi", "%di:u64" }, { "-4@%eax", "%ax:s32" },
		{ "1@%al", "%ax:u8" }, { "1@%cl", "%cx:u8" }, { "1@%dil", "%di:u8" }, { "1@%sil", "%si:u8" },
		{ "1@%bpl", "%bp:u8" }, { "1@%spl", "%sp:u8" }, { "2@%dx", "%dx:u16" },
		{ "8@%r8", "%r8:u64" }, { "-8@%r12", "%r12:s64" },
		{ "-4@112(%rsp)", "+112(%sp):s32" }, { "-1@-217(%rbp)", "-217(%bp):s8" },
		{ "8@152(%rbx)", "+152(%bx):u64" }, { "8@(%rax)", "+0(%ax):u64" },
		/* where perf 6.1 is wrong */
		{ "1@%ah", "%ax:b8@8/64" }, { "1@%bh", "%bx:b8@8/64" }, { "1@%ch", "%cx:b8@8/64" },
		{ "1@%dh", "%dx:b8@8/64" }, { "-4@$-1", "\\-1:s32" }, { "4@$655360", "\\655360:u32" },
		{ "8@counter(%rip)", "@+0x4010:u64" }, { "4@counter+8(%rip)", "@+0x4018:u32" },
		/* floating point: the raw bits, as perf 6.1 fetches them (u32/u64) */
		{ "8f@%rax", "%ax:u64" }, { "4f@%edx", "%dx:u32" }, { "8f@-16(%rbp)", "-16(%bp):u64" },
		{ "4f@-12(%rsp)", "-12(%sp):u32" }, { "8f@counter(%rip)", "@+0x4010:u64" },
		/* sizes perf 6.1 tolerates: fetched at the operand's own width (with a warning) */
		{ "3@%rax", "%ax:u64" }, { "0@%eax", "%ax:u32" }, { "-3@-8(%rbp)", "-8(%bp):u64" },
		{ "x@%rcx", "%cx:u64" },
		/* refused, never guessed */
		{ "8@(%rax,%rsi,8)", NULL }, { "16@%xmm0", NULL }, { "-16@8(%rsp)", NULL },
		{ "8f@%xmm1", NULL }, { "16f@-16(%rbp)", NULL }, { "8@%zzz", NULL },
		{ "8@nosuch(%rip)", NULL }, { "8@16(%rip)", NULL }, { "8@", NULL }, { "8@$x", NULL },
		{ "8@(%eax", NULL }, { "8@%rip", NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		TEST_ASSERT_VAL(cases[i][0], check(&ctx, cases[i][0], cases[i][1]) == 0);
	return TEST_OK;
}
DEFINE_SUITE("SDT x86-64 argument conversion", test__sdt_arg_x86);

static int test__sdt_arg_arm64(void)
{
	struct sdt_arg_ctx ctx = { .arch = SDT_ARCH_AARCH64 };
	static const char *const cases[][2] = {
		{ "8@x0", "%x0:u64" }, { "-4@w3", "%x3:s32" }, { "4@w30", "%x30:u32" },
		{ "8@[sp]", "+0(%sp):u64" }, { "-4@[sp, 12]", "+12(%sp):s32" }, { "8@[sp,16]", "+16(%sp):u64" },
		{ "8@[x29, -8]", "-8(%x29):u64" }, { "8@[x1]", "+0(%x1):u64" },
		{ "8@x31", NULL }, { "8@[x1, x2]", NULL }, { "16@x0", NULL },
	};
	char **v;
	int nr;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		TEST_ASSERT_VAL(cases[i][0], check(&ctx, cases[i][0], cases[i][1]) == 0);
	/* "[sp, 12]" contains a space and stays one argument */
	v = sdt_args__split("8@x0 -4@[sp, 12] 8@x1", SDT_ARCH_AARCH64, &nr);
	TEST_ASSERT_EQUAL("arm64 split count", nr, 3);
	TEST_ASSERT_VAL("arm64 split", !strcmp(v[1], "-4@[sp, 12]"));
	sdt_args__free(v);
	return TEST_OK;
}
DEFINE_SUITE("SDT aarch64 argument conversion", test__sdt_arg_arm64);
