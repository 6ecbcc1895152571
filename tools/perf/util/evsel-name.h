/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_EVSEL_NAME_H
#define PERF_UTIL_EVSEL_NAME_H

#include <stdint.h>
#include <linux/perf_event.h>

/* malloc'ed; tracepoints are named by the session from the tracing data */
char *evsel_name__from_attr(const struct perf_event_attr *attr);

#endif
