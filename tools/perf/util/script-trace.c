// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include "script-trace.h"
#include "session.h"
#include "trace-event.h"
#include "util.h"

struct trace_printer {
	int unused;
};

struct trace_printer *script_trace__new(void)
{
	return xzalloc(sizeof(struct trace_printer));
}

void script_trace__delete(struct trace_printer *tp)
{
	free(tp);
}

int script_trace__format(struct trace_printer *tp, struct perf_session *s, const struct evsel *evsel,
			 const void *raw, size_t size, char *buf, size_t bufsz)
{
	struct trace_formats *tf = perf_session__trace_formats(s);
	const struct trace_format *fmt;

	(void)tp;
	if (!tf || evsel->attr.type != PERF_TYPE_TRACEPOINT)
		return -1;
	fmt = trace_formats__find(tf, evsel->attr.config);
	if (!fmt)
		return -1;
	return trace_formats__print_raw(tf, fmt, raw, size, buf, bufsz);
}
