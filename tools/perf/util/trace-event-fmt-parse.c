// SPDX-License-Identifier: MIT
/*
 * Parser of tracepoint print formats: the quoted printf format, then
 * comma-separated C expressions over the record (REC->field, casts,
 * arithmetic, ?:, and the kernel's __print_flags/__print_symbolic/__get_str
 * helpers) into the tree trace-event-print.c evaluates.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "strbuf.h"
#include "trace-event.h"
#include "trace-event-fmt.h"
#include "trace-event-print.h"
#include "util.h"

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

/* a node of kind k over two operands */
static struct node *node_new2(enum node_kind k, struct node *a, struct node *b)
{
	struct node *n = node_new(k);

	node_add(n, a);
	node_add(n, b);
	return n;
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
		return node_new2(N_PAIR, a, b);
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
		struct node *idx;

		next(lx);
		idx = parse_expr(lx);
		if (!idx || !accept(lx, ']')) {
			node_free(idx);
			node_free(n);
			return NULL;
		}
		n = node_new2(N_INDEX, n, idx);
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
		struct node *rhs;

		if (!prec || prec < min_prec)
			break;
		next(lx);
		rhs = parse_binary(lx, prec + 1);
		if (!rhs) {
			node_free(lhs);
			return NULL;
		}
		lhs = node_new2(N_BINARY, lhs, rhs);
		lhs->op = op;
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
