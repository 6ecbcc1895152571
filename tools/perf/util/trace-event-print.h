/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_TRACE_EVENT_PRINT_H
#define PERF_UTIL_TRACE_EVENT_PRINT_H

/*
 * Evaluation of a tracepoint's "print fmt:" (a printf format plus C
 * expressions over REC->field) against a raw record. Used by trace-event.c;
 * call trace_format__print_raw() instead.
 */
#include <stdbool.h>
#include <stddef.h>

#include "trace-event.h"

struct print_fmt;

/* how the recorded machine lays out a record, and how to name kernel addresses */
struct print_env {
	bool big_endian;
	unsigned int long_size;              /* 0: the host's */
	trace_ksym_resolver_t ksym_resolver; /* NULL: %pS prints the address in hex */
	void *ksym_arg;
	/*
	 * Integer fields that hold the bits of a float (an SDT "8f@" argument
	 * fetched as u64): printed as the float, whatever the print fmt says.
	 */
	const struct print_float *floats;
	size_t nr_floats;
};

struct print_float {
	const char *field;
	unsigned int size;      /* 4 or 8: must be the field's size */
};

/* NULL (pr_debug) when the expression uses something we do not evaluate. */
struct print_fmt *print_fmt__parse(const struct trace_format *fmt, const char *text);
void print_fmt__delete(struct print_fmt *pf);

/* snprintf-like; falls back to "field=value" pairs when fmt->pf is NULL or evaluation fails */
int print_fmt__print(const struct trace_format *fmt, const struct print_env *env,
		     const void *raw, size_t size, char *out, size_t outsz);

#endif
