// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>
#include "java-names.h"

struct sbuf {
	char *p;
	size_t len, cap;
	int oom;
};

static void put(struct sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

static void puts_(struct sbuf *b, const char *s)
{
	put(b, s, strlen(s));
}

static char *finish(struct sbuf *b)
{
	if (b->oom || !b->p) {
		free(b->p);
		return NULL;
	}
	return b->p;
}

static const char *primitive(char c)
{
	switch (c) {
	case 'B': return "byte";
	case 'C': return "char";
	case 'D': return "double";
	case 'F': return "float";
	case 'I': return "int";
	case 'J': return "long";
	case 'S': return "short";
	case 'Z': return "boolean";
	case 'V': return "void";
	}
	return NULL;
}

/*
 * One field descriptor at *sp; appends its Java spelling and advances. Class
 * names of parameters lose their package: the declaring class already says
 * where we are, and full names make report columns unreadable.
 */
static int put_type(struct sbuf *b, const char **sp)
{
	const char *s = *sp, *prim;
	int dims = 0;

	while (*s == '[') {
		dims++;
		s++;
	}
	if (*s == 'L') {
		const char *end = strchr(s, ';'), *start = s + 1;

		if (!end)
			return -1;
		for (const char *q = start; q < end; q++)
			if (*q == '/')
				start = q + 1;
		put(b, start, end - start);
		s = end + 1;
	} else if ((prim = primitive(*s))) {
		puts_(b, prim);
		s++;
	} else
		return -1;
	while (dims--)
		puts_(b, "[]");
	*sp = s;
	return 0;
}

/* "Ljava/util/Map$Entry;" -> "java.util.Map$Entry"; array classes keep their descriptor */
static void put_class(struct sbuf *b, const char *class_sig)
{
	size_t n = strlen(class_sig);

	if (class_sig[0] == 'L' && n >= 2 && class_sig[n - 1] == ';') {
		for (size_t i = 1; i < n - 1; i++)
			put(b, class_sig[i] == '/' ? "." : class_sig + i, 1);
	} else
		put(b, class_sig, n);
}

char *java_readable_name(const char *class_sig, const char *method, const char *method_sig)
{
	struct sbuf b = { 0 };
	const char *s = method_sig;
	int first = 1;

	put_class(&b, class_sig);
	puts_(&b, ".");
	puts_(&b, method);
	if (*s != '(') {
		puts_(&b, s);
		return finish(&b);
	}
	puts_(&b, "(");
	s++;
	while (*s && *s != ')') {
		size_t mark = b.len;

		if (!first)
			puts_(&b, ", ");
		if (put_type(&b, &s) < 0) {
			/* not a descriptor we understand: keep the rest verbatim */
			if (!b.oom) {
				b.len = mark;
				b.p[b.len] = 0;
			}
			puts_(&b, first ? "" : ", ");
			puts_(&b, s);
			return finish(&b);
		}
		first = 0;
	}
	puts_(&b, ")");
	return finish(&b);
}

char *java_raw_name(const char *class_sig, const char *method, const char *method_sig)
{
	struct sbuf b = { 0 };

	puts_(&b, class_sig);
	puts_(&b, method);
	puts_(&b, method_sig);
	return finish(&b);
}

char *java_source_path(const char *class_sig, const char *source_file)
{
	struct sbuf b = { 0 };
	const char *slash;

	if (class_sig[0] == 'L' && (slash = strrchr(class_sig, '/')))
		put(&b, class_sig + 1, slash - class_sig);
	puts_(&b, source_file);
	return finish(&b);
}
