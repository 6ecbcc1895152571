// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include "script-trace.h"
#include "util.h"

/* Filled in once util/trace-event can decode formats. */
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

int script_trace__format(struct trace_printer *tp, struct perf_session *s, struct evsel *evsel,
			 const void *raw, size_t size, char *buf, size_t bufsz)
{
	(void)tp; (void)s; (void)evsel; (void)raw; (void)size; (void)buf; (void)bufsz;
	return -1;
}
