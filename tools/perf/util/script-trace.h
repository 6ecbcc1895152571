/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_SCRIPT_TRACE_H
#define PERF_UTIL_SCRIPT_TRACE_H

/* Glue between perf script and the tracepoint formats of a session. */
#include <stddef.h>
#include <stdint.h>

struct perf_session;
struct evsel;
struct trace_printer;

struct trace_printer *script_trace__new(void);
void script_trace__delete(struct trace_printer *tp);
/* the decoded fields of a raw tracepoint sample ("arg1=42 ..."); -1 when unknown */
int script_trace__format(struct trace_printer *tp, struct perf_session *s, const struct evsel *evsel,
			 const void *raw, size_t size, char *buf, size_t bufsz);

#endif
