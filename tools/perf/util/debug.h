/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_DEBUG_H
#define PERF_UTIL_DEBUG_H

#include <stdarg.h>

/* -v count; -q sets quiet. Messages go to stderr so stdout stays a report. */
extern int verbose;
extern int quiet;

void pr_msg(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* level: 0 error/warning (shown unless quiet), 1.. shown with -v N */
#define pr_err(...)     pr_msg(-1, __VA_ARGS__)
#define pr_warning(...) pr_msg(0, __VA_ARGS__)
#define pr_info(...)    pr_msg(0, __VA_ARGS__)
#define pr_debug(...)   pr_msg(1, __VA_ARGS__)
#define pr_debug2(...)  pr_msg(2, __VA_ARGS__)

#endif
