// SPDX-License-Identifier: MIT
/*
 * Java method descriptors ("Lpkg/Cls;meth(I[Ljava/lang/String;)V") as perf
 * 6.1 displays them. The rules below were established by feeding perf 6.1
 * ELF symbols of this form and reading what it prints (tests/symbol-java-
 * demangle.c keeps checking that): class '/' become '.', a '.' joins class
 * and method only when the method starts with a letter, the return type is
 * dropped, argument types are spelled out and separated by ", ". Its quirks
 * are kept on purpose so our reports match: pending "[]" of an array are
 * printed after the next primitive type (an object array prints without
 * them), unknown characters are copied, and the output is cut at three
 * times the input length.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "symbol.h"
#include "util.h"

struct jout {
	char *buf;
	size_t len, max;
};

static void jput(struct jout *o, const char *s)
{
	while (*s && o->len < o->max)
		o->buf[o->len++] = *s++;
}

static void jputc(struct jout *o, char c)
{
	char s[2] = { c, 0 };

	jput(o, s);
}

static const char *primitive_name(char c)
{
	switch (c) {
	case 'Z': return "boolean";
	case 'B': return "byte";
	case 'C': return "char";
	case 'S': return "short";
	case 'I': return "int";
	case 'J': return "long";
	case 'F': return "float";
	case 'D': return "double";
	case 'V': return "void";
	default:  return NULL;
	}
}

char *java_name__demangle(const char *name)
{
	enum { CLASS, METHOD, ARGS, ARG_CLASS, RET } mode = CLASS;
	size_t n = name ? strlen(name) : 0;
	unsigned int arrays = 0, nr_types = 0;
	struct jout o;
	const char *p;

	if (n < 2 || name[0] != 'L')
		return NULL;
	o.max = 3 * n;
	o.buf = xmalloc(o.max + 1);
	o.len = 0;

	for (p = name + 1; *p; p++) {
		char c = *p;

		switch (mode) {
		case CLASS:
			if (c == ';') {
				mode = METHOD;
				if (isalpha((unsigned char)p[1]))
					jputc(&o, '.');
			} else if (c == '(' || c == ')') {
				goto fail;
			} else {
				jputc(&o, c == '/' ? '.' : c);
			}
			break;
		case METHOD:
			if (c == '(') {
				jputc(&o, '(');
				mode = ARGS;
			} else if (c == ';' || c == '/' || c == ')') {
				goto fail;
			} else {
				jputc(&o, c);
			}
			break;
		case ARGS:
			if (c == ')') {
				jputc(&o, ')');
				mode = RET;
			} else if (c == '[') {
				arrays++;
			} else if (c == 'L') {
				if (nr_types++)
					jput(&o, ", ");
				mode = ARG_CLASS;
			} else if (primitive_name(c)) {
				if (nr_types++)
					jput(&o, ", ");
				jput(&o, primitive_name(c));
				for (; arrays; arrays--)
					jput(&o, "[]");
			} else if (c == ';' || c == '/' || c == '(') {
				goto fail;
			} else {
				jputc(&o, c);
			}
			break;
		case ARG_CLASS:
			if (c == ';')
				mode = ARGS;
			else if (c == '(' || c == ')')
				goto fail;
			else
				jputc(&o, c == '/' ? '.' : c);
			break;
		case RET:
			if (c == '(')
				goto fail;
			if (c == ')')
				jputc(&o, ')');
			break;
		}
	}
	if (mode != RET)
		goto fail;
	o.buf[o.len] = '\0';
	return o.buf;
fail:
	free(o.buf);
	return NULL;
}
