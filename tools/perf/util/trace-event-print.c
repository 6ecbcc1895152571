// SPDX-License-Identifier: MIT
/*
 * A small evaluator for tracepoint print formats: the quoted printf format,
 * then comma-separated C expressions over the record (REC->field, casts,
 * arithmetic, ?:, and the kernel's __print_flags/__print_symbolic/__get_str
 * helpers). Values of signed fields are sign-extended from their real size,
 * so an s8 of -1 prints as -1 under %d.
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
#include "trace-event-print.h"
#include "util.h"

/* ---------------- AST ---------------- */

enum node_kind {
	N_NUM, N_STR, N_FIELD, N_INDEX, N_UNARY, N_BINARY, N_TERNARY, N_CAST, N_CALL, N_PAIR,
	N_UNRESOLVED,
};

enum call_kind {
	C_GET_STR, C_GET_REL_STR, C_DYN_ARRAY, C_REL_DYN_ARRAY, C_DYN_ARRAY_LEN, C_BITMASK,
	C_FLAGS, C_SYMBOLIC, C_HEX, C_HEX_STR, C_ARRAY,
};

struct node {
	enum node_kind kind;
	int op;                  /* operator token, or call kind */
	uint64_t num;
	char *str;
	int field;               /* index into fmt->fields */
	unsigned int cast_size;  /* N_CAST: 0 = no truncation (pointer/unknown) */
	bool cast_signed;
	struct node **kids;
	size_t nr_kids, kids_cap;
};

struct print_fmt {
	char *format;
	struct node **args;
	size_t nr_args, args_cap;
};

static void node_free(struct node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->nr_kids; i++)
		node_free(n->kids[i]);
	free(n->kids);
	free(n->str);
	free(n);
}

static struct node *node_new(enum node_kind k)
{
	struct node *n = xzalloc(sizeof(*n));

	n->kind = k;
	n->field = -1;
	return n;
}

static void node_add(struct node *n, struct node *kid)
{
	*ARRAY_PUSH(n->kids, n->nr_kids, n->kids_cap) = kid;
}

void print_fmt__delete(struct print_fmt *pf)
{
	if (!pf)
		return;
	for (size_t i = 0; i < pf->nr_args; i++)
		node_free(pf->args[i]);
	free(pf->args);
	free(pf->format);
	free(pf);
}

/* ---------------- tokens ---------------- */

enum tok {
	T_END = 256, T_NUM, T_STR, T_IDENT,
	T_ARROW, T_SHL, T_SHR, T_LE, T_GE, T_EQ, T_NE, T_AND, T_OR,
	T_ERR,
};

struct lexer {
	const char *p;
	int tok;
	uint64_t num;
	char *text;               /* T_STR (unescaped) or T_IDENT */
	const struct trace_format *fmt;
	unsigned int long_size;
	int depth;                /* nesting, bounded: formats come from untrusted files */
};

static int unescape(const char **pp, char *out)
{
	const char *p = *pp;
	int c = *p++;

	switch (c) {
	case 'n': c = '\n'; break;
	case 't': c = '\t'; break;
	case 'r': c = '\r'; break;
	case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
		int v = c - '0';

		for (int i = 0; i < 2 && *p >= '0' && *p <= '7'; i++)
			v = v * 8 + (*p++ - '0');
		c = v;
		break;
	}
	case 0:
		return -1;
	default:
		break;        /* \" \\ \' and the rest stand for themselves */
	}
	*out = (char)c;
	*pp = p;
	return 0;
}

static void next(struct lexer *lx)
{
	const char *p = lx->p;

	free(lx->text);
	lx->text = NULL;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p) {
		lx->tok = T_END;
	} else if (isdigit((unsigned char)*p)) {
		char *end;

		lx->num = strtoull(p, &end, 0);
		p = end;
		while (*p == 'u' || *p == 'U' || *p == 'l' || *p == 'L')
			p++;
		lx->tok = T_NUM;
	} else if (*p == '"') {
		/* adjacent literals concatenate, as in C */
		size_t len = 0;
		char *s = xmalloc(strlen(p) + 1);

		while (*p == '"') {
			p++;
			while (*p && *p != '"') {
				if (*p == '\\') {
					p++;
					if (unescape(&p, &s[len]))
						break;
					len++;
				} else {
					s[len++] = *p++;
				}
			}
			if (*p != '"') {
				free(s);
				lx->tok = T_ERR;
				lx->p = p;
				return;
			}
			p++;
			{
				const char *q = p;

				while (isspace((unsigned char)*q))
					q++;
				if (*q == '"')
					p = q;
			}
		}
		s[len] = 0;
		lx->text = s;
		lx->tok = T_STR;
	} else if (*p == '\'') {
		char c = 0;

		p++;
		if (*p == '\\') {
			p++;
			if (unescape(&p, &c)) {
				lx->tok = T_ERR;
				return;
			}
		} else if (*p) {
			c = *p++;
		}
		if (*p != '\'') {
			lx->tok = T_ERR;
			return;
		}
		p++;
		lx->num = (unsigned char)c;
		lx->tok = T_NUM;
	} else if (isalpha((unsigned char)*p) || *p == '_') {
		const char *s = p;

		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		lx->text = xasprintf("%.*s", (int)(p - s), s);
		lx->tok = T_IDENT;
	} else {
		static const struct { const char *s; int tok; } two[] = {
			{ "->", T_ARROW }, { "<<", T_SHL }, { ">>", T_SHR }, { "<=", T_LE },
			{ ">=", T_GE }, { "==", T_EQ }, { "!=", T_NE }, { "&&", T_AND }, { "||", T_OR },
		};

		lx->tok = (unsigned char)*p;
		for (size_t i = 0; i < ARRAY_SIZE(two); i++) {
			if (p[0] == two[i].s[0] && p[1] == two[i].s[1]) {
				lx->tok = two[i].tok;
				p++;
				break;
			}
		}
		p++;
	}
	lx->p = p;
}

/* ---------------- parser ---------------- */

#define MAX_NESTING 256

static struct node *parse_expr(struct lexer *lx);
static struct node *parse_unary(struct lexer *lx);

static bool accept(struct lexer *lx, int tok)
{
	if (lx->tok != tok)
		return false;
	next(lx);
	return true;
}

static int field_index(const struct trace_format *fmt, const char *name)
{
	for (size_t i = 0; i < fmt->nr_fields; i++)
		if (!strcmp(fmt->fields[i].name, name))
			return (int)i;
	return -1;
}

static bool is_type_word(const char *w)
{
	static const char *const words[] = {
		"unsigned", "signed", "int", "long", "short", "char", "bool", "_Bool", "void",
		"const", "volatile", "struct", "enum", "union",
		"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
		"__u8", "__u16", "__u32", "__u64", "__s8", "__s16", "__s32", "__s64",
		"__le16", "__le32", "__le64", "__be16", "__be32", "__be64",
	};

	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (!strcmp(w, words[i]))
			return true;
	return str_ends_with(w, "_t");
}

/* Size and signedness of a cast's type words; size 0 = keep the value as is. */
static void cast_type(const char *words, bool pointer, unsigned int long_size,
		      unsigned int *size, bool *sgn)
{
	int longs = 0;
	const char *w;

	*size = 4;
	*sgn = true;
	if (pointer) {
		*size = long_size;
		*sgn = false;
		return;
	}
	for (w = strstr(words, "long"); w; w = strstr(w + 4, "long"))
		longs++;
	if (strstr(words, "unsigned"))
		*sgn = false;
	if (strstr(words, "char"))
		*size = 1;
	else if (strstr(words, "short"))
		*size = 2;
	else if (longs == 1)
		*size = long_size;
	else if (longs >= 2)
		*size = 8;
	if (strstr(words, "bool"))
		*size = 1, *sgn = false;
	if (strstr(words, "struct") || strstr(words, "union") || strstr(words, "void"))
		*size = 0;
	/* the kernel's fixed-size names: [us]N, __[us]N */
	{
		const char *t = words;

		while (*t == '_')
			t++;
		if ((t[0] == 'u' || t[0] == 's') && isdigit((unsigned char)t[1])) {
			unsigned int bits = atoi(t + 1);

			if (bits == 8 || bits == 16 || bits == 32 || bits == 64) {
				*size = bits / 8;
				*sgn = t[0] == 's';
			}
		}
	}
	if (!strcmp(words, "size_t") || !strcmp(words, "uintptr_t"))
		*size = long_size, *sgn = false;
	else if (!strcmp(words, "ssize_t") || !strcmp(words, "loff_t"))
		*size = 8, *sgn = true;
	else if (!strcmp(words, "pid_t") || !strcmp(words, "uid_t") || !strcmp(words, "gid_t"))
		*size = 4, *sgn = !!strcmp(words, "uid_t") && !!strcmp(words, "gid_t");
	else if (!strcmp(words, "gfp_t") || !strcmp(words, "dev_t"))
		*size = 4, *sgn = false;
}

static const struct {
	const char *name;
	int kind;
	int nargs;           /* -1: variadic */
} calls[] = {
	{ "__get_str", C_GET_STR, 1 },
	{ "__get_rel_str", C_GET_REL_STR, 1 },
	{ "__get_dynamic_array", C_DYN_ARRAY, 1 },
	{ "__get_rel_dynamic_array", C_REL_DYN_ARRAY, 1 },
	{ "__get_dynamic_array_len", C_DYN_ARRAY_LEN, 1 },
	{ "__get_bitmask", C_BITMASK, 1 },
	{ "__print_flags", C_FLAGS, -1 },
	{ "__print_flags_u64", C_FLAGS, -1 },
	{ "__print_symbolic", C_SYMBOLIC, -1 },
	{ "__print_symbolic_u64", C_SYMBOLIC, -1 },
	{ "__print_hex", C_HEX, 2 },
	{ "__print_hex_str", C_HEX_STR, 2 },
	{ "__print_array", C_ARRAY, 3 },
};

static struct node *parse_call(struct lexer *lx, const char *name)
{
	struct node *n = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(calls); i++) {
		if (strcmp(name, calls[i].name))
			continue;
		n = node_new(N_CALL);
		n->op = calls[i].kind;
		if (lx->tok != ')') {
			do {
				struct node *a = parse_expr(lx);

				if (!a)
					goto fail;
				node_add(n, a);
			} while (accept(lx, ','));
		}
		if (!accept(lx, ')'))
			goto fail;
		if (calls[i].nargs >= 0 && n->nr_kids != (size_t)calls[i].nargs)
			goto fail;
		if (calls[i].nargs < 0 && n->nr_kids < 1)
			goto fail;
		return n;
	}
	pr_debug("print fmt of %s:%s: cannot evaluate %s()\n", lx->fmt->system, lx->fmt->name, name);
	return NULL;
fail:
	node_free(n);
	return NULL;
}

static struct node *parse_primary(struct lexer *lx)
{
	struct node *n;

	switch (lx->tok) {
	case T_NUM:
		n = node_new(N_NUM);
		n->num = lx->num;
		next(lx);
		return n;
	case T_STR:
		n = node_new(N_STR);
		n->str = lx->text;
		lx->text = NULL;
		next(lx);
		return n;
	case '{': {
		struct node *a, *b;

		next(lx);
		a = parse_expr(lx);
		if (!a || !accept(lx, ',')) {
			node_free(a);
			return NULL;
		}
		b = parse_expr(lx);
		if (!b || !accept(lx, '}')) {
			node_free(a);
			node_free(b);
			return NULL;
		}
		n = node_new(N_PAIR);
		node_add(n, a);
		node_add(n, b);
		return n;
	}
	case T_IDENT: {
		char *name = lx->text;

		lx->text = NULL;
		next(lx);
		if (!strcmp(name, "REC")) {
			free(name);
			if (!accept(lx, T_ARROW) || lx->tok != T_IDENT)
				return NULL;
			n = node_new(N_FIELD);
			n->field = field_index(lx->fmt, lx->text);
			if (n->field < 0) {
				pr_debug("print fmt of %s:%s: no field %s\n", lx->fmt->system,
					 lx->fmt->name, lx->text);
				node_free(n);
				return NULL;
			}
			next(lx);
			return n;
		}
		if (accept(lx, '(')) {
			n = parse_call(lx, name);
			free(name);
			return n;
		}
		/* helpers name fields bare: __get_str(comm) */
		n = node_new(N_FIELD);
		n->field = field_index(lx->fmt, name);
		if (n->field < 0) {
			/*
			 * An enum the kernel did not turn into a number: it has no
			 * value, so a {value, "name"} pair holding it never matches.
			 */
			pr_debug2("print fmt of %s:%s: unknown symbol %s\n", lx->fmt->system,
				 lx->fmt->name, name);
			n->kind = N_UNRESOLVED;
			n->str = name;
			return n;
		}
		free(name);
		return n;
	}
	case '(': {
		next(lx);
		if (lx->tok == T_IDENT && is_type_word(lx->text)) {
			char words[256] = "";
			bool pointer = false;
			struct node *a;

			while (lx->tok == T_IDENT || lx->tok == '*') {
				if (lx->tok == '*') {
					pointer = true;
				} else if (strlen(words) + strlen(lx->text) + 2 < sizeof(words)) {
					if (*words)
						strcat(words, " ");
					strcat(words, lx->text);
				}
				next(lx);
			}
			if (!accept(lx, ')'))
				return NULL;
			lx->depth++;
			a = parse_unary(lx);
			lx->depth--;
			if (!a)
				return NULL;
			n = node_new(N_CAST);
			cast_type(words, pointer, lx->long_size, &n->cast_size, &n->cast_signed);
			node_add(n, a);
			return n;
		}
		n = parse_expr(lx);
		if (!n || !accept(lx, ')')) {
			node_free(n);
			return NULL;
		}
		return n;
	}
	default:
		return NULL;
	}
}

static struct node *parse_postfix(struct lexer *lx)
{
	struct node *n = parse_primary(lx);

	while (n && lx->tok == '[') {
		struct node *idx, *ix;

		next(lx);
		idx = parse_expr(lx);
		if (!idx || !accept(lx, ']')) {
			node_free(idx);
			node_free(n);
			return NULL;
		}
		ix = node_new(N_INDEX);
		node_add(ix, n);
		node_add(ix, idx);
		n = ix;
	}
	return n;
}

static struct node *parse_unary(struct lexer *lx)
{
	int op = lx->tok;

	if (lx->depth > MAX_NESTING)
		return NULL;

	if (op == '-' || op == '!' || op == '~' || op == '+') {
		struct node *a, *n;

		next(lx);
		lx->depth++;
		a = parse_unary(lx);
		lx->depth--;
		if (!a)
			return NULL;
		n = node_new(N_UNARY);
		n->op = op;
		node_add(n, a);
		return n;
	}
	return parse_postfix(lx);
}

static int precedence(int tok)
{
	switch (tok) {
	case T_OR: return 1;
	case T_AND: return 2;
	case '|': return 3;
	case '^': return 4;
	case '&': return 5;
	case T_EQ: case T_NE: return 6;
	case '<': case '>': case T_LE: case T_GE: return 7;
	case T_SHL: case T_SHR: return 8;
	case '+': case '-': return 9;
	case '*': case '/': case '%': return 10;
	default: return 0;
	}
}

static struct node *parse_binary(struct lexer *lx, int min_prec)
{
	struct node *lhs = parse_unary(lx);

	while (lhs) {
		int op = lx->tok, prec = precedence(op);
		struct node *rhs, *n;

		if (!prec || prec < min_prec)
			break;
		next(lx);
		rhs = parse_binary(lx, prec + 1);
		if (!rhs) {
			node_free(lhs);
			return NULL;
		}
		n = node_new(N_BINARY);
		n->op = op;
		node_add(n, lhs);
		node_add(n, rhs);
		lhs = n;
	}
	return lhs;
}

static struct node *parse_expr_nested(struct lexer *lx);

static struct node *parse_expr(struct lexer *lx)
{
	struct node *n;

	if (++lx->depth > MAX_NESTING) {
		lx->depth--;
		return NULL;
	}
	n = parse_expr_nested(lx);
	lx->depth--;
	return n;
}

static struct node *parse_expr_nested(struct lexer *lx)
{
	struct node *c = parse_binary(lx, 1), *a, *b, *n;

	if (!c || lx->tok != '?')
		return c;
	next(lx);
	a = parse_expr(lx);
	if (!a || !accept(lx, ':')) {
		node_free(c);
		node_free(a);
		return NULL;
	}
	b = parse_expr(lx);
	if (!b) {
		node_free(c);
		node_free(a);
		return NULL;
	}
	n = node_new(N_TERNARY);
	node_add(n, c);
	node_add(n, a);
	node_add(n, b);
	return n;
}

struct print_fmt *print_fmt__parse(const struct trace_format *fmt, const char *text)
{
	struct lexer lx = { .p = text, .fmt = fmt, .long_size = sizeof(long) };
	struct print_fmt *pf = xzalloc(sizeof(*pf));

	next(&lx);
	if (lx.tok != T_STR)
		goto fail;
	pf->format = lx.text;
	lx.text = NULL;
	next(&lx);
	while (accept(&lx, ',')) {
		struct node *a = parse_expr(&lx);

		if (!a)
			goto fail;
		*ARRAY_PUSH(pf->args, pf->nr_args, pf->args_cap) = a;
	}
	if (lx.tok != T_END)
		goto fail;
	return pf;
fail:
	pr_debug("print fmt of %s:%s not evaluated; fields are printed instead\n",
		 fmt->system, fmt->name);
	free(lx.text);
	print_fmt__delete(pf);
	return NULL;
}

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
