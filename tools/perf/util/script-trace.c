// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "hist.h"
#include "script-trace.h"
#include "sdt-float.h"
#include "session.h"
#include "trace-event.h"
#include "trace-event-print.h"
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

static bool is_uprobe(const struct trace_format *fmt)
{
	for (size_t i = 0; i < fmt->nr_fields; i++)
		if (!strcmp(fmt->fields[i].name, "__probe_ip"))
			return true;
	return false;
}

int script_trace__format(struct trace_printer *tp, struct perf_session *s, const struct evsel *evsel,
			 const struct hist_frame *site, const void *raw, size_t size, char *buf, size_t bufsz)
{
	struct trace_formats *tf = perf_session__trace_formats(s);
	const struct trace_format *fmt;
	struct sdt_float_arg fa[16];
	struct print_float pf[16];
	char names[16][16];
	struct print_env env;
	int nr = 0;

	(void)tp;
	if (!tf || evsel->attr.type != PERF_TYPE_TRACEPOINT)
		return -1;
	fmt = trace_formats__find(tf, evsel->attr.config);
	if (!fmt)
		return -1;
	/* an SDT site's floating-point arguments: fetched as bits, shown as floats */
	if (site && site->dso && is_uprobe(fmt))
		nr = sdt_float__site_args(&s->machine.dsos, site->dso, site->addr, fa, 16);
	if (!nr)
		return trace_formats__print_raw(tf, fmt, raw, size, buf, bufsz);
	for (int i = 0; i < nr; i++) {
		snprintf(names[i], sizeof(names[i]), "arg%u", fa[i].arg);
		pf[i] = (struct print_float){ names[i], fa[i].size };
	}
	env = (struct print_env){ tf->big_endian, tf->long_size, tf->ksym_resolver, tf->ksym_arg,
				  pf, (size_t)nr };
	return print_fmt__print(fmt, &env, raw, size, buf, bufsz);
}
