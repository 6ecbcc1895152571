// SPDX-License-Identifier: MIT
/*
 * C++ names for display. perf 6.1 (Debian) prints Itanium-mangled names
 * demangled without parameters, return type, cv-qualifiers or clone
 * suffixes ("ns::Foo::hot"), i.e. like `c++filt -p`. We get the full
 * demangling from libstdc++'s __cxa_demangle and cut it down to that form.
 * perf links libstdc++ for it (as perf 6.1 does): looking it up at run time
 * with dlopen needed a process-wide cache of the looked-up pointer.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "symbol.h"
#include "util.h"

/* the C++ ABI's demangler (<cxxabi.h>, C linkage), in libstdc++ */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

static bool ends_with_n(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/* Length of an operator name ending at s[len) ("operator<<", "operator->"), or 0. */
static size_t trailing_operator(const char *s, size_t len)
{
	static const char *const ops[] = {
		"operator<<=", "operator>>=", "operator<=>", "operator->*", "operator<<",
		"operator>>", "operator<=", "operator>=", "operator->", "operator<",
		"operator>",
	};

	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		if (ends_with_n(s, len, ops[i]))
			return strlen(ops[i]);
	return 0;
}

static bool operator_before(const char *s, size_t pos)
{
	/* s[pos] is a space: is it inside "operator new", "operator void (*)()", "operator<< <T>"? */
	size_t k = pos;

	while (k >= 2 && !(s[k - 1] == ':' && s[k - 2] == ':'))
		k--;
	if (k < 2)
		k = 0;
	return memmem(s + k, pos - k, "operator", 8) != NULL;
}

/* Start of the qualified name in s[0, len): skips a return type. */
static size_t name_start(const char *s, size_t len)
{
	int depth = 0;

	for (size_t i = len; i-- > 0;) {
		char c = s[i];
		size_t op = depth == 0 ? trailing_operator(s, i + 1) : 0;

		if (op) {
			i -= op - 1;
			continue;
		}
		if (c == ')' || c == '>' || c == ']' || c == '}') {
			depth++;
		} else if (c == '(' || c == '<' || c == '[' || c == '{') {
			depth--;
		} else if (c == ' ' && depth == 0 && !operator_before(s, i)) {
			return i + 1;
		}
		if (depth < 0)
			return 0;   /* unbalanced: leave it alone */
	}
	return 0;
}

/* Cuts "ret name(params) const [clone .x]" down to "name", in place. */
static void strip_to_name(char *s)
{
	static const char *const quals[] = {
		" const", " volatile", " &&", " &", " noexcept", " throw()", " transaction_safe",
	};
	size_t len = strlen(s);
	bool again = true;
	char *clone;
	int depth = 0;
	size_t i;

	clone = strstr(s, " [clone ");
	if (clone)
		len = clone - s;
	while (again) {
		again = false;
		for (i = 0; i < ARRAY_SIZE(quals); i++) {
			if (ends_with_n(s, len, quals[i])) {
				len -= strlen(quals[i]);
				again = true;
			}
		}
	}
	if (len == 0 || s[len - 1] != ')')
		return;
	for (i = len; i-- > 0;) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			break;
	}
	if (depth != 0 || i == 0 || i == (size_t)-1)
		return;
	len = i;
	i = name_start(s, len);
	memmove(s, s + i, len - i);
	s[len - i] = '\0';
}

char *cxx_name__demangle(const char *name)
{
	int status = -1;
	char *out;

	if (!name || name[0] != '_' || name[1] != 'Z')
		return NULL;
	out = __cxa_demangle(name, NULL, NULL, &status);
	if (status != 0 || !out) {
		free(out);
		return NULL;
	}
	/* special names (vtables, typeinfo, guards, thunks) print in full */
	if (name[2] != 'T' && name[2] != 'G')
		strip_to_name(out);
	return out;
}
