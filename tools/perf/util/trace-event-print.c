// SPDX-License-Identifier: MIT
/*
 * A small evaluator for tracepoint print formats, parsed by
 * trace-event-fmt-parse.c. Values of signed fields are sign-extended from
 * their real size, so an s8 of -1 prints as -1 under %d.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "strbuf.h"
#include "trace-event.h"
#include "trace-event-fmt.h"
#include "trace-event-print.h"
#include "util.h"

/* ---------------- evaluation ---------------- */

enum val_kind { V_INT, V_STR, V_ARR };

struct val {
	enum val_kind kind;
	uint64_t i;
	bool sgn;
	const char *s;              /* V_STR: not NUL-terminated, slen bytes */
	size_t slen;
	const unsigned char *ptr;   /* V_ARR */
	unsigned int es;
	size_t count;
	bool arr_signed;
};

struct ctx {
	const struct trace_format *fmt;
	const unsigned char *raw;
	size_t size;
	bool big_endian;
	unsigned int long_size;
	const struct print_env *env;
	char **tmp;                 /* strings made during evaluation, freed after printing */
	size_t nr_tmp, tmp_cap;
};

/* snprintf into a growing-length output that is truncated at outsz */
struct sink {
	char *out;
	size_t outsz, len;
};

static void sink_vprintf(struct sink *s, const char *fmt, va_list ap)
{
	size_t room = s->len < s->outsz ? s->outsz - s->len : 0;
	int n = vsnprintf(room ? s->out + s->len : NULL, room, fmt, ap);

	if (n > 0)
		s->len += n;
}

static void __attribute__((format(printf, 2, 3))) sink_printf(struct sink *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sink_vprintf(s, fmt, ap);
	va_end(ap);
}

static char *ctx_keep(struct ctx *c, char *s)
{
	*ARRAY_PUSH(c->tmp, c->nr_tmp, c->tmp_cap) = s;
	return s;
}

static uint64_t rd(const struct ctx *c, const unsigned char *p, unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < n; i++)
		v = (v << 8) | p[c->big_endian ? i : n - 1 - i];
	return v;
}

static uint64_t sext(uint64_t v, unsigned int size)
{
	if (size && size < 8 && (v >> (size * 8 - 1)) & 1)
		v |= ~0ull << (size * 8);
	else if (size && size < 8)
		v &= (1ull << (size * 8)) - 1;
	return v;
}

static uint64_t trunc_to(uint64_t v, unsigned int size)
{
	return size && size < 8 ? v & ((1ull << (size * 8)) - 1) : v;
}

/* Location of a __data_loc/__rel_loc payload, bounds-checked. */
static bool dyn_loc(const struct ctx *c, const struct trace_field *f, const unsigned char **p, size_t *len)
{
	uint64_t v, off;

	if (f->offset + 4 > c->size)
		return false;
	v = rd(c, c->raw + f->offset, 4);
	off = v & 0xffff;
	if (f->is_rel_loc)
		off += f->offset + f->size;
	*len = v >> 16;
	if (off > c->size || *len > c->size - off)
		return false;
	*p = c->raw + off;
	return true;
}

static bool eval(struct ctx *c, const struct node *n, struct val *v);

static bool eval_int(struct ctx *c, const struct node *n, uint64_t *i)
{
	struct val v;

	if (!eval(c, n, &v))
		return false;
	if (v.kind == V_INT)
		*i = v.i;
	else if (v.kind == V_STR)
		*i = (uintptr_t)v.s;          /* a string's "address": only good for truth tests */
	else
		*i = (uintptr_t)v.ptr;
	return true;
}

static bool eval_field(struct ctx *c, const struct trace_field *f, struct val *v)
{
	memset(v, 0, sizeof(*v));
	if (f->is_data_loc || f->is_rel_loc) {
		const unsigned char *p;
		size_t len;

		if (!dyn_loc(c, f, &p, &len))
			return false;
		if (f->is_string) {
			v->kind = V_STR;
			v->s = (const char *)p;
			v->slen = strnlen(v->s, len);
		} else {
			v->kind = V_ARR;
			v->ptr = p;
			v->es = f->elem_size ? f->elem_size : 1;
			v->count = len / v->es;
			v->arr_signed = f->is_signed;
		}
		return true;
	}
	if (f->offset > c->size || f->size > c->size - f->offset)
		return false;
	if (f->is_string) {
		v->kind = V_STR;
		v->s = (const char *)c->raw + f->offset;
		v->slen = strnlen(v->s, f->size);
		return true;
	}
	if (f->is_array || f->size > 8) {
		v->kind = V_ARR;
		v->ptr = c->raw + f->offset;
		v->es = f->elem_size && f->elem_size <= 8 ? f->elem_size : 1;
		v->count = f->size / v->es;
		v->arr_signed = f->is_signed;
		return true;
	}
	v->kind = V_INT;
	v->sgn = f->is_signed;
	v->i = rd(c, c->raw + f->offset, f->size);
	if (f->is_signed)
		v->i = sext(v->i, f->size);
	return true;
}

static bool eval_flags(struct ctx *c, const struct node *n, struct val *v, bool symbolic)
{
	uint64_t val, rest;
	size_t first = symbolic ? 1 : 2;
	const char *delim = "";
	char *buf = NULL;
	size_t len = 0;
	struct val dv;
	FILE *m;

	if (!eval_int(c, n->kids[0], &val))
		return false;
	if (!symbolic) {
		if (n->nr_kids < 2 || !eval(c, n->kids[1], &dv) || dv.kind != V_STR)
			return false;
		delim = ctx_keep(c, xasprintf("%.*s", (int)dv.slen, dv.s));
	}
	m = open_memstream(&buf, &len);
	if (!m)
		return false;
	rest = val;
	for (size_t k = first; k < n->nr_kids; k++) {
		const struct node *pair = n->kids[k];
		uint64_t fv;
		struct val sv;
		bool printed = ftell(m) > 0;

		if (pair->kind != N_PAIR) {
			fclose(m);
			free(buf);
			return false;
		}
		/* unresolved enums and the { 0, NULL } terminator kernels add */
		if (!eval_int(c, pair->kids[0], &fv) || !eval(c, pair->kids[1], &sv) || sv.kind != V_STR)
			continue;
		if (symbolic) {
			if (fv == val) {
				fprintf(m, "%.*s", (int)sv.slen, sv.s);
				break;
			}
			continue;
		}
		if (fv == 0) {
			if (val == 0) {
				fprintf(m, "%.*s", (int)sv.slen, sv.s);
				break;
			}
			continue;
		}
		if ((rest & fv) == fv) {
			fprintf(m, "%s%.*s", printed ? delim : "", (int)sv.slen, sv.s);
			rest &= ~fv;
		}
	}
	if (symbolic && ftell(m) == 0)
		fprintf(m, "0x%" PRIx64, val);
	else if (!symbolic && rest && val)
		fprintf(m, "%s0x%" PRIx64, ftell(m) > 0 ? delim : "", rest);
	fclose(m);
	ctx_keep(c, buf);
	memset(v, 0, sizeof(*v));
	v->kind = V_STR;
	v->s = buf;
	v->slen = len;
	return true;
}

/* Bytes of a pointer-ish argument (array or string) and how many there are. */
static bool eval_bytes(struct ctx *c, const struct node *n, const unsigned char **p, size_t *len)
{
	struct val v;

	if (!eval(c, n, &v))
		return false;
	if (v.kind == V_ARR) {
		*p = v.ptr;
		*len = v.count * v.es;
	} else if (v.kind == V_STR) {
		*p = (const unsigned char *)v.s;
		*len = v.slen;
	} else {
		return false;
	}
	return true;
}

static bool eval_call(struct ctx *c, const struct node *n, struct val *v)
{
	const struct node *a = n->kids[0];
	const struct trace_field *f = a->kind == N_FIELD ? &c->fmt->fields[a->field] : NULL;

	memset(v, 0, sizeof(*v));
	switch (n->op) {
	case C_GET_STR:
	case C_GET_REL_STR:
	case C_DYN_ARRAY:
	case C_REL_DYN_ARRAY:
		if (!f)
			return false;
		if (!eval_field(c, f, v))
			return false;
		if (n->op == C_GET_STR || n->op == C_GET_REL_STR) {
			if (v->kind == V_ARR) {
				v->kind = V_STR;
				v->s = (const char *)v->ptr;
				v->slen = strnlen(v->s, v->count * v->es);
			}
		} else if (v->kind == V_STR) {
			v->kind = V_ARR;
			v->ptr = (const unsigned char *)v->s;
			v->es = 1;
			v->count = v->slen;
		}
		return true;
	case C_DYN_ARRAY_LEN: {
		const unsigned char *p;
		size_t len;

		if (!f || !(f->is_data_loc || f->is_rel_loc) || !dyn_loc(c, f, &p, &len))
			return false;
		v->kind = V_INT;
		v->i = len;
		return true;
	}
	case C_BITMASK: {
		const unsigned char *p;
		size_t len;
		char *buf = NULL;
		size_t blen = 0;
		FILE *m;
		bool any = false;

		if (!f || !dyn_loc(c, f, &p, &len))
			return false;
		/* most significant 32-bit word first, comma-separated, like the kernel's %*pb */
		m = open_memstream(&buf, &blen);
		if (!m)
			return false;
		for (size_t w = (len + 3) / 4; w-- > 0;) {
			uint32_t word = 0;

			for (size_t b = 0; b < 4; b++)
				if (w * 4 + b < len)
					word |= (uint32_t)p[w * 4 + b] << (8 * b);
			if (!any && !word && w)
				continue;
			fprintf(m, any ? ",%08x" : "%x", word);
			any = true;
		}
		fclose(m);
		ctx_keep(c, buf);
		v->kind = V_STR;
		v->s = buf;
		v->slen = blen;
		return true;
	}
	case C_FLAGS:
		return eval_flags(c, n, v, false);
	case C_SYMBOLIC:
		return eval_flags(c, n, v, true);
	case C_HEX:
	case C_HEX_STR: {
		const unsigned char *p;
		size_t avail;
		uint64_t want;
		char *buf;

		if (!eval_bytes(c, a, &p, &avail) || !eval_int(c, n->kids[1], &want))
			return false;
		want = MIN(want, avail);
		buf = ctx_keep(c, xzalloc(want * 3 + 1));
		for (size_t k = 0; k < want; k++)
			sprintf(buf + strlen(buf), n->op == C_HEX ? "%s%02x" : "%s%02x",
				k && n->op == C_HEX ? " " : "", p[k]);
		v->kind = V_STR;
		v->s = buf;
		v->slen = strlen(buf);
		return true;
	}
	case C_ARRAY: {
		const unsigned char *p;
		size_t avail;
		uint64_t count, es;
		char *buf = NULL;
		size_t blen = 0;
		FILE *m;

		if (!eval_bytes(c, a, &p, &avail) || !eval_int(c, n->kids[1], &count) ||
		    !eval_int(c, n->kids[2], &es) || !(es == 1 || es == 2 || es == 4 || es == 8))
			return false;
		count = MIN(count, avail / es);
		m = open_memstream(&buf, &blen);
		if (!m)
			return false;
		fputc('{', m);
		for (size_t k = 0; k < count; k++)
			fprintf(m, "%s0x%" PRIx64, k ? "," : "", rd(c, p + k * es, es));
		fputc('}', m);
		fclose(m);
		ctx_keep(c, buf);
		v->kind = V_STR;
		v->s = buf;
		v->slen = blen;
		return true;
	}
	}
	return false;
}

static bool eval(struct ctx *c, const struct node *n, struct val *v)
{
	memset(v, 0, sizeof(*v));
	switch (n->kind) {
	case N_NUM:
		v->kind = V_INT;
		v->i = n->num;
		return true;
	case N_STR:
		v->kind = V_STR;
		v->s = n->str;
		v->slen = strlen(n->str);
		return true;
	case N_FIELD:
		return eval_field(c, &c->fmt->fields[n->field], v);
	case N_INDEX: {
		struct val base;
		uint64_t idx;

		if (!eval(c, n->kids[0], &base) || !eval_int(c, n->kids[1], &idx))
			return false;
		v->kind = V_INT;
		if (base.kind == V_ARR) {
			if (idx >= base.count)
				return false;
			v->i = rd(c, base.ptr + idx * base.es, base.es);
			if (base.arr_signed)
				v->i = sext(v->i, base.es);
			v->sgn = base.arr_signed;
			return true;
		}
		if (base.kind == V_STR) {
			v->i = idx < base.slen ? (unsigned char)base.s[idx] : 0;
			return true;
		}
		return false;
	}
	case N_UNARY: {
		uint64_t a;

		if (!eval_int(c, n->kids[0], &a))
			return false;
		v->kind = V_INT;
		v->sgn = true;
		switch (n->op) {
		case '-': v->i = -a; break;
		case '!': v->i = !a; break;
		case '~': v->i = ~a; break;
		default: v->i = a; break;
		}
		return true;
	}
	case N_BINARY: {
		struct val l, r;
		uint64_t a, b;
		bool sgn;

		if (!eval(c, n->kids[0], &l) || !eval(c, n->kids[1], &r))
			return false;
		if (l.kind != V_INT || r.kind != V_INT) {
			/* only && / || make sense on strings or arrays (non-NULL is true) */
			if (n->op != T_AND && n->op != T_OR)
				return false;
		}
		a = l.kind == V_INT ? l.i : 1;
		b = r.kind == V_INT ? r.i : 1;
		sgn = l.sgn && r.sgn;
		v->kind = V_INT;
		v->sgn = sgn;
		switch (n->op) {
		case '+': v->i = a + b; break;
		case '-': v->i = a - b; break;
		case '*': v->i = a * b; break;
		case '/': if (!b) return false; v->i = sgn ? (uint64_t)((int64_t)a / (int64_t)b) : a / b; break;
		case '%': if (!b) return false; v->i = sgn ? (uint64_t)((int64_t)a % (int64_t)b) : a % b; break;
		case T_SHL: v->i = b < 64 ? a << b : 0; break;
		case T_SHR: v->i = b < 64 ? (sgn ? (uint64_t)((int64_t)a >> b) : a >> b) : 0; break;
		case '&': v->i = a & b; break;
		case '|': v->i = a | b; break;
		case '^': v->i = a ^ b; break;
		case T_AND: v->i = a && b; break;
		case T_OR: v->i = a || b; break;
		case T_EQ: v->i = a == b; break;
		case T_NE: v->i = a != b; break;
		case '<': v->i = sgn ? (int64_t)a < (int64_t)b : a < b; break;
		case '>': v->i = sgn ? (int64_t)a > (int64_t)b : a > b; break;
		case T_LE: v->i = sgn ? (int64_t)a <= (int64_t)b : a <= b; break;
		case T_GE: v->i = sgn ? (int64_t)a >= (int64_t)b : a >= b; break;
		default: return false;
		}
		return true;
	}
	case N_TERNARY: {
		uint64_t cond;

		if (!eval_int(c, n->kids[0], &cond))
			return false;
		return eval(c, n->kids[cond ? 1 : 2], v);
	}
	case N_CAST:
		if (!eval(c, n->kids[0], v))
			return false;
		if (v->kind == V_INT && n->cast_size) {
			v->i = n->cast_signed ? sext(v->i, n->cast_size) : trunc_to(v->i, n->cast_size);
			v->sgn = n->cast_signed;
		}
		return true;
	case N_CALL:
		return eval_call(c, n, v);
	case N_PAIR:
	case N_UNRESOLVED:
		return false;
	}
	return false;
}

/* ---------------- printf ---------------- */

enum len_mod { L_HH = -2, L_H = -1, L_NONE = 0, L_L = 1, L_LL = 2 };

static void print_int(struct sink *s, const struct ctx *c, const char *flags, int width, int prec,
		      int lm, char conv, uint64_t v)
{
	char spec[32];
	bool is_signed = conv == 'd' || conv == 'i';

	if (lm == L_L && c->long_size == 4)
		lm = L_NONE;
	snprintf(spec, sizeof(spec), "%%%s*.*ll%c", flags, conv);
	if (is_signed) {
		long long x = lm <= L_HH ? (signed char)v : lm == L_H ? (short)v :
			      lm == L_NONE ? (int)v : (long long)v;

		sink_printf(s, spec, width, prec, x);
	} else {
		unsigned long long x = lm <= L_HH ? (unsigned char)v : lm == L_H ? (unsigned short)v :
				       lm == L_NONE ? (unsigned int)v : (unsigned long long)v;

		sink_printf(s, spec, width, prec, x);
	}
}

/* the size of the float whose bits field f holds (print_env.floats), 0 when none */
static unsigned int float_size(const struct ctx *c, const struct trace_field *f)
{
	for (size_t i = 0; i < c->env->nr_floats; i++) {
		const struct print_float *pf = &c->env->floats[i];

		if (!strcmp(pf->field, f->name))
			return pf->size == f->size && !f->is_array && !f->is_data_loc ? pf->size : 0;
	}
	return 0;
}

/* the shortest decimal that reads back as the same float ("1.5", not "1.500000") */
static void print_float(struct sink *s, uint64_t bits, unsigned int size)
{
	char buf[64];
	double d;
	int max = 17;   /* digits that always round-trip: 17 for a double, 9 for a float */

	if (size == 4) {
		uint32_t b32 = (uint32_t)bits;
		float f;

		memcpy(&f, &b32, 4);
		d = f;
		max = 9;
	} else {
		memcpy(&d, &bits, 8);
	}
	for (int prec = 1; prec <= max; prec++) {
		double r;

		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		r = strtod(buf, NULL);
		if (d != d || (size == 4 ? (double)(float)r : r) == d)
			break;
	}
	sink_printf(s, "%s", buf);
}

static void print_str(struct sink *s, const char *flags, int width, int prec, const char *str, size_t len)
{
	char spec[32];

	if (prec >= 0 && (size_t)prec < len)
		len = prec;
	snprintf(spec, sizeof(spec), "%%%s*.*s", flags);
	sink_printf(s, spec, width, (int)len, str);
}

/* kernel %p extensions: the letters after 'p' select a printer */
static void print_pointer(const struct ctx *c, struct sink *s, const char *ext, size_t extlen,
			  const struct val *v)
{
	const struct print_env *env = c->env;

	if (v->kind == V_INT && extlen && strchr("SsFfB", ext[0]) && env->ksym_resolver) {
		uint64_t off = 0;
		const char *name = env->ksym_resolver(v->i, &off, env->ksym_arg);

		if (name) {
			if (ext[0] == 's' || ext[0] == 'f')
				sink_printf(s, "%s", name);
			else
				sink_printf(s, "%s+0x%llx", name, (unsigned long long)off);
			return;
		}
	}
	if (v->kind == V_ARR && extlen && (ext[0] == 'M' || ext[0] == 'm') && v->count * v->es >= 6) {
		const unsigned char *m = v->ptr;
		const char *sep = ext[0] == 'M' ? ":" : "";

		sink_printf(s, "%02x%s%02x%s%02x%s%02x%s%02x%s%02x", m[0], sep, m[1], sep, m[2],
			    sep, m[3], sep, m[4], sep, m[5]);
		return;
	}
	if (v->kind == V_ARR && extlen >= 2 && (ext[0] == 'I' || ext[0] == 'i') && ext[1] == '4' &&
	    v->count * v->es >= 4) {
		sink_printf(s, "%u.%u.%u.%u", v->ptr[0], v->ptr[1], v->ptr[2], v->ptr[3]);
		return;
	}
	if (v->kind == V_STR) {
		sink_printf(s, "%.*s", (int)v->slen, v->s);
		return;
	}
	sink_printf(s, "0x%llx", (unsigned long long)(v->kind == V_INT ? v->i : 0));
}

static bool next_arg(struct ctx *c, struct node *const *args, size_t nargs, size_t *ai, struct val *v)
{
	if (*ai >= nargs)
		return false;
	return eval(c, args[(*ai)++], v);
}

static bool do_printf(struct ctx *c, struct sink *s, const char *f, struct node *const *args, size_t nargs)
{
	size_t ai = 0;

	while (*f) {
		char flags[8];
		int nf = 0, width = 0, prec = -1, lm = L_NONE;
		char conv;
		struct val v;

		if (*f != '%') {
			const char *e = strchr(f, '%');
			size_t n = e ? (size_t)(e - f) : strlen(f);

			sink_printf(s, "%.*s", (int)n, f);
			f += n;
			continue;
		}
		if (f[1] == '%') {
			sink_printf(s, "%%");
			f += 2;
			continue;
		}
		f++;
		while (*f && strchr("-+ #0", *f) && nf < 7)
			flags[nf++] = *f++;
		flags[nf] = 0;
		if (*f == '*') {
			if (!next_arg(c, args, nargs, &ai, &v) || v.kind != V_INT)
				return false;
			width = (int)v.i;
			f++;
		} else {
			/* a hostile format's 20-digit width saturates instead of overflowing */
			for (; isdigit((unsigned char)*f); f++)
				if (width < 1000000)
					width = width * 10 + (*f - '0');
		}
		if (*f == '.') {
			f++;
			prec = 0;
			if (*f == '*') {
				if (!next_arg(c, args, nargs, &ai, &v) || v.kind != V_INT)
					return false;
				prec = (int)v.i;
				f++;
			} else {
				for (; isdigit((unsigned char)*f); f++)
					if (prec < 1000000)
						prec = prec * 10 + (*f - '0');
			}
		}
		for (;; f++) {
			if (*f == 'h')
				lm = lm == L_H ? L_HH : L_H;
			else if (*f == 'l')
				lm = lm == L_L ? L_LL : L_L;
			else if (*f == 'L' || *f == 'q' || *f == 'j')
				lm = L_LL;
			else if (*f == 'z' || *f == 'Z' || *f == 't')
				lm = L_L;
			else
				break;
		}
		conv = *f;
		if (!conv)
			return false;
		f++;
		if (!next_arg(c, args, nargs, &ai, &v))
			return false;
		if (args[ai - 1]->kind == N_FIELD && v.kind == V_INT &&
		    float_size(c, &c->fmt->fields[args[ai - 1]->field])) {
			print_float(s, v.i, float_size(c, &c->fmt->fields[args[ai - 1]->field]));
			continue;
		}
		switch (conv) {
		case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
			if (v.kind != V_INT)
				return false;
			print_int(s, c, flags, width, prec, lm, conv, v.i);
			break;
		case 'c': {
			char ch = (char)v.i;

			if (v.kind != V_INT)
				return false;
			print_str(s, flags, width, -1, &ch, 1);
			break;
		}
		case 's':
			if (v.kind == V_STR)
				print_str(s, flags, width, prec, v.s, v.slen);
			else if (v.kind == V_ARR)
				print_str(s, flags, width, prec, (const char *)v.ptr,
					  strnlen((const char *)v.ptr, v.count * v.es));
			else
				return false;
			break;
		case 'p': {
			const char *ext = f;

			while (isalnum((unsigned char)*f))
				f++;
			print_pointer(c, s, ext, f - ext, &v);
			break;
		}
		default:
			return false;
		}
	}
	return true;
}

/* What we print when the print fmt cannot be evaluated: every event field. */
static void print_fields(struct ctx *c, struct sink *s)
{
	bool first = true;

	for (size_t i = 0; i < c->fmt->nr_fields; i++) {
		const struct trace_field *f = &c->fmt->fields[i];
		struct val v;

		if (f->is_common)
			continue;
		sink_printf(s, "%s%s=", first ? "" : " ", f->name);
		first = false;
		if (!eval_field(c, f, &v)) {
			sink_printf(s, "?");
		} else if (v.kind == V_STR) {
			sink_printf(s, "%.*s", (int)v.slen, v.s);
		} else if (v.kind == V_ARR) {
			sink_printf(s, "ARRAY[");
			for (size_t k = 0; k < v.count && k < 64; k++)
				sink_printf(s, "%s%02llx", k ? ", " : "",
					    (unsigned long long)rd(c, v.ptr + k * v.es, v.es));
			sink_printf(s, "]");
		} else if (float_size(c, f)) {
			print_float(s, v.i, float_size(c, f));
		} else if (f->is_pointer) {
			sink_printf(s, "0x%llx", (unsigned long long)v.i);
		} else if (f->is_signed) {
			sink_printf(s, "%lld", (long long)v.i);
		} else {
			sink_printf(s, "%llu", (unsigned long long)v.i);
		}
	}
}

int print_fmt__print(const struct trace_format *fmt, const struct print_env *env,
		     const void *raw, size_t size, char *out, size_t outsz)
{
	struct ctx c = {
		.fmt = fmt, .raw = raw, .size = size, .big_endian = env->big_endian,
		.long_size = env->long_size ? env->long_size : sizeof(long), .env = env,
	};
	struct sink s = { .out = out, .outsz = outsz };
	bool ok = false;

	if (outsz)
		out[0] = 0;
	for (size_t i = 0; i < fmt->nr_fields; i++) {
		const struct trace_field *f = &fmt->fields[i];

		if ((uint64_t)f->offset + f->size > size)
			return -1;
	}
	if (fmt->pf) {
		ok = do_printf(&c, &s, fmt->pf->format, fmt->pf->args, fmt->pf->nr_args);
		if (!ok)
			pr_debug("cannot evaluate the print fmt of %s:%s for this record\n",
				 fmt->system, fmt->name);
	}
	if (!ok) {
		s.len = 0;
		if (outsz)
			out[0] = 0;
		print_fields(&c, &s);
	}
	for (size_t i = 0; i < c.nr_tmp; i++)
		free(c.tmp[i]);
	free(c.tmp);
	if (outsz && s.len >= outsz)
		out[outsz - 1] = 0;
	return (int)s.len;
}
