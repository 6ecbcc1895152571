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

struct trace_format;
struct print_fmt;

/* NULL (pr_debug) when the expression uses something we do not evaluate. */
struct print_fmt *print_fmt__parse(const struct trace_format *fmt, const char *text);
void print_fmt__delete(struct print_fmt *pf);

/* snprintf-like; falls back to "field=value" pairs when fmt->pf is NULL or evaluation fails */
int print_fmt__print(const struct trace_format *fmt, bool big_endian, unsigned int long_size,
		     const void *raw, size_t size, char *out, size_t outsz);

#endif
