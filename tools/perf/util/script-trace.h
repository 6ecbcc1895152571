/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_SCRIPT_TRACE_H
#define PERF_UTIL_SCRIPT_TRACE_H

/* Glue between perf script and the tracepoint formats of a session. */
#include <stddef.h>
#include <stdint.h>

struct perf_session;
struct evsel;
struct trace_printer;
struct hist_frame;

struct trace_printer *script_trace__new(void);
void script_trace__delete(struct trace_printer *tp);
/*
 * The decoded fields of a raw tracepoint sample ("arg1=42 ..."); -1 when
 * unknown. site: where the sample hit (NULL: unknown); at an SDT site the
 * note's floating-point arguments are shown as floats.
 */
int script_trace__format(struct trace_printer *tp, struct perf_session *s, const struct evsel *evsel,
			 const struct hist_frame *site, const void *raw, size_t size, char *buf, size_t bufsz);

#endif
