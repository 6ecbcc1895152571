// SPDX-License-Identifier: MIT
/*
 * SDT argument operands -> uprobe fetchargs. Unlike perf 6.1 this keeps the
 * operands it can express exactly (immediates, %rip-relative globals, the
 * high-byte registers) and refuses, with a reason, the ones it cannot,
 * instead of passing them to the kernel or silently dropping them.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdt-arg.h"
#include "strbuf.h"
#include "util.h"
#include "x86-regs.h"

const char *sdt_arg__type_of_size(int size)
{
	switch (size) {
	case 1: return "u8";
	case 2: return "u16";
	case 4: return "u32";
	case 8: return "u64";
	case -1: return "s8";
	case -2: return "s16";
	case -4: return "s32";
	case -8: return "s64";
	default: return NULL;
	}
}

/* A whole-string integer (decimal, 0x hex, optional sign). */
static int parse_int(const char *s, size_t len, long long *v)
{
	char buf[32], *end;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (!isdigit((unsigned char)buf[buf[0] == '-' || buf[0] == '+']))
		return -1;
	errno = 0;
	*v = strtoll(buf, &end, 0);
	if (errno || *end) {
		/* large unsigned immediates such as $0xffffffffffffffff */
		errno = 0;
		*v = (long long)strtoull(buf, &end, 0);
		if (errno || *end)
			return -1;
	}
	return 0;
}

static bool is_sym_char(char c, bool first)
{
	return isalpha((unsigned char)c) || c == '_' || c == '.' || c == '$' ||
	       (!first && isdigit((unsigned char)c));
}

/*
 * "sym", "sym+N", "sym-N" -> the symbol's address plus N through ctx.
 * 0 on success, -1 with *why.
 */
static int resolve_symbol_expr(const char *s, size_t len, const struct sdt_arg_ctx *ctx,
			       uint64_t *addr, const char **why)
{
	size_t n = 0;
	long long add = 0;
	char *name;
	int ret;

	while (n < len && is_sym_char(s[n], n == 0))
		n++;
	if (!n) {
		*why = "unparsable memory operand";
		return -1;
	}
	if (n < len && (s[n] != '+' && s[n] != '-')) {
		*why = "unparsable symbol expression";
		return -1;
	}
	if (n < len && parse_int(s + n, len - n, &add) < 0) {
		*why = "unparsable symbol offset";
		return -1;
	}
	if (!ctx || !ctx->symbol_addr) {
		*why = "symbol operand and no symbol table";
		return -1;
	}
	name = xasprintf("%.*s", (int)n, s);
	ret = ctx->symbol_addr(ctx->priv, name, addr);
	free(name);
	if (ret < 0) {
		*why = "symbol of a %rip-relative operand not in the symbol table";
		return -1;
	}
	*addr += (uint64_t)add;
	return 0;
}

/* memory at a link-time address, as a fetch relative to the probed file */
static int file_relative_fetch(uint64_t addr, const struct sdt_arg_ctx *ctx, char **out,
			       const char **why)
{
	int64_t x = (int64_t)(addr - (uint64_t)ctx->text_delta);

	if (x < 0) {
		*why = "global lies before the file's start";
		return -1;
	}
	*out = xasprintf("@+0x%" PRIx64, (uint64_t)x);
	return 0;
}

static int x86_operand(const char *op, int size, const struct sdt_arg_ctx *ctx,
		       char **fa, unsigned *natural, const char **why)
{
	size_t len = strlen(op);
	char kname[8];
	unsigned width, shift;
	const char *lp;

	*natural = 8;
	if (strchr(op, ',')) {
		*why = "base+index*scale addressing cannot be expressed by uprobes";
		return -1;
	}
	if (op[0] == '$') {
		long long v;

		if (parse_int(op + 1, len - 1, &v) < 0) {
			*why = "immediate is not a number";
			return -1;
		}
		if (ctx && ctx->no_immediates) {
			*why = "kernel has no immediate fetchargs";
			return -1;
		}
		*fa = xasprintf("\\%lld", v);
		return 0;
	}
	if (op[0] == '%') {
		if (x86_reg__from_asm(op + 1, len - 1, kname, &width, &shift) < 0 || !strcmp(kname, "ip")) {
			*why = "unknown register";
			return -1;
		}
		*natural = width;
		if (shift) {
			if (size != 1 && size != -1 && size != 0) {
				*why = "size does not fit a high-byte register";
				return -1;
			}
			/* bits 8..15 of the 64-bit register */
			*fa = xasprintf("%%%s:b8@8/64", kname);
			*natural = 0;
			return 0;
		}
		*fa = xasprintf("%%%s", kname);
		return 0;
	}
	lp = strchr(op, '(');
	if (lp) {
		const char *rp = strchr(lp, ')');
		long long disp = 0;

		if (!rp || rp[1] || rp - lp < 3 || lp[1] != '%') {
			*why = "unparsable memory operand";
			return -1;
		}
		if (x86_reg__from_asm(lp + 2, (size_t)(rp - lp - 2), kname, &width, &shift) < 0) {
			*why = "unknown base register";
			return -1;
		}
		if (!strcmp(kname, "ip")) {
			uint64_t addr;

			if (lp == op || parse_int(op, (size_t)(lp - op), &disp) == 0) {
				*why = "numeric %rip displacement: the instruction address is unknown";
				return -1;
			}
			if (resolve_symbol_expr(op, (size_t)(lp - op), ctx, &addr, why) < 0)
				return -1;
			return file_relative_fetch(addr, ctx, fa, why);
		}
		if (width != 8 || shift) {
			*why = "base register is not 64-bit";
			return -1;
		}
		if (lp != op && parse_int(op, (size_t)(lp - op), &disp) < 0) {
			*why = "displacement is not a number";
			return -1;
		}
		*fa = xasprintf("%s%lld(%%%s)", disp < 0 ? "" : "+", disp, kname);
		return 0;
	}
	if (isdigit((unsigned char)op[0]) || op[0] == '-') {
		*why = "absolute memory address";
		return -1;
	}
	{
		/* a bare symbol: memory at its address (non-PIC code) */
		uint64_t addr;

		if (resolve_symbol_expr(op, len, ctx, &addr, why) < 0)
			return -1;
		return file_relative_fetch(addr, ctx, fa, why);
	}
}

/* "x0".."x30", "w0".."w30", "sp", "lr": kernel name and width */
static int arm64_reg(const char *s, size_t len, char *kname, unsigned *width)
{
	char *end;
	long n;

	if (len == 2 && !memcmp(s, "sp", 2)) {
		strcpy(kname, "sp");
		*width = 8;
		return 0;
	}
	if (len == 2 && !memcmp(s, "lr", 2)) {
		strcpy(kname, "lr");
		*width = 8;
		return 0;
	}
	if (len < 2 || (s[0] != 'x' && s[0] != 'w') || !isdigit((unsigned char)s[1]))
		return -1;
	n = strtol(s + 1, &end, 10);
	if ((size_t)(end - s) != len || n < 0 || n > 30)
		return -1;
	snprintf(kname, 8, "x%ld", n);
	*width = s[0] == 'x' ? 8 : 4;
	return 0;
}

static int arm64_operand(const char *op, const struct sdt_arg_ctx *ctx, char **fa,
			 unsigned *natural, const char **why)
{
	size_t len = strlen(op);
	char kname[8];
	unsigned width;

	*natural = 8;
	if (op[0] == '#' || isdigit((unsigned char)op[0]) || op[0] == '-') {
		long long v;
		size_t skip = op[0] == '#';

		if (parse_int(op + skip, len - skip, &v) < 0) {
			*why = "immediate is not a number";
			return -1;
		}
		if (ctx && ctx->no_immediates) {
			*why = "kernel has no immediate fetchargs";
			return -1;
		}
		*fa = xasprintf("\\%lld", v);
		return 0;
	}
	if (op[0] == '[') {
		const char *p = op + 1, *comma, *rb = strchr(op, ']');
		long long disp = 0;

		if (!rb || rb[1]) {
			*why = "unparsable memory operand";
			return -1;
		}
		comma = memchr(p, ',', (size_t)(rb - p));
		if (arm64_reg(p, (size_t)((comma ? comma : rb) - p), kname, &width) < 0 || width != 8) {
			*why = "unknown base register";
			return -1;
		}
		if (comma) {
			const char *d = comma + 1;

			while (*d == ' ')
				d++;
			if (*d == '#')
				d++;
			if (parse_int(d, (size_t)(rb - d), &disp) < 0) {
				*why = "offset is not a number (register offsets cannot be expressed)";
				return -1;
			}
		}
		*fa = xasprintf("%s%lld(%%%s)", disp < 0 ? "" : "+", disp, kname);
		return 0;
	}
	if (arm64_reg(op, len, kname, &width) < 0) {
		*why = "unknown register";
		return -1;
	}
	*natural = width;
	*fa = xasprintf("%%%s", kname);
	return 0;
}

int sdt_arg__to_fetcharg(const char *arg, const struct sdt_arg_ctx *ctx,
			 char **out, const char **why)
{
	const char *tolerated = NULL, **warn = &tolerated;
	const char *at = strchr(arg, '@'), *op = arg, *type;
	enum sdt_arch arch = ctx ? ctx->arch : SDT_ARCH_X86_64;
	unsigned natural = 8;
	char *fa = NULL;
	int size = 0;

	*out = NULL;
	if (at) {
		const char *p = arg;
		bool neg = *p == '-', fp = false;
		long v = 0;

		p += neg;
		while (isdigit((unsigned char)*p) && v < 1000)
			v = v * 10 + (*p++ - '0');
		if (*p == 'f' && p + 1 == at && p > arg + neg) {
			/* floating point: perf 6.1 fetches the raw bits as u32/u64 */
			fp = true;
			p++;
		}
		if (p != at && (at - arg > 4 || strpbrk(arg, "%($") < at))
			goto no_size;       /* the '@' belongs to the operand */
		op = at + 1;
		if (v > 8) {
			*why = "argument wider than 8 bytes";
			return -1;
		}
		size = fp ? (int)v : neg ? -(int)v : (int)v;
		if (p != at || (fp && v != 4 && v != 8) || !sdt_arg__type_of_size(size)) {
			/*
			 * "3@", "0@", "x@": perf 6.1 fetches such operands at the
			 * default width; ours is the operand's own width.
			 */
			*warn = "size is not 1, 2, 4 or 8: fetched at the operand's own width";
			size = 0;
		}
	}
no_size:
	if (!*op) {
		*why = "empty operand";
		return -1;
	}
	if (arch == SDT_ARCH_X86_64) {
		if (x86_operand(op, size, ctx, &fa, &natural, why) < 0)
			return -1;
	} else if (arch == SDT_ARCH_AARCH64) {
		if (arm64_operand(op, ctx, &fa, &natural, why) < 0)
			return -1;
	} else {
		*why = "unsupported architecture";
		return -1;
	}
	if (natural == 0) {          /* already carries its bitfield type */
		*out = fa;
	} else {
		/* no size given: the register's own width, unsigned */
		type = sdt_arg__type_of_size(size ? size : (int)natural);
		*out = xasprintf("%s:%s", fa, type);
		free(fa);
	}
	if (tolerated) {
		*why = tolerated;
		return 1;
	}
	return 0;
}

char **sdt_args__split(const char *s, enum sdt_arch arch, int *nr)
{
	char **v = xzalloc(sizeof(*v));
	size_t cap = 1;
	int n = 0;

	while (s && *s) {
		const char *e;

		while (*s == ' ')
			s++;
		if (!*s)
			break;
		e = strchr(s, ' ');
		if (!e)
			e = s + strlen(s);
		/* aarch64 memory operands contain a space: "[sp, 8]" */
		if (arch == SDT_ARCH_AARCH64 && memchr(s, '[', (size_t)(e - s)) &&
		    !memchr(s, ']', (size_t)(e - s)) && *e) {
			const char *rb = strchr(e, ']');

			if (rb)
				e = rb + 1;
		}
		GROW_ARRAY(v, (size_t)n + 2, cap);
		v[n++] = xasprintf("%.*s", (int)(e - s), s);
		v[n] = NULL;
		s = e;
	}
	*nr = n;
	return v;
}

void sdt_args__free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

unsigned int sdt_arg__float_size(const char *arg)
{
	/* only the exact "4f@"/"8f@" forms: a tolerated odd size is fetched as an integer */
	if ((arg[0] == '4' || arg[0] == '8') && arg[1] == 'f' && arg[2] == '@')
		return (unsigned int)(arg[0] - '0');
	return 0;
}
