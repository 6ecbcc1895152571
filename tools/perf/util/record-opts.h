/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_RECORD_OPTS_H
#define PERF_UTIL_RECORD_OPTS_H

/*
 * The values of perf record's options, checked as perf 6.1 checks them
 * (what it accepts, we accept). Each parser takes the option's argument
 * (NULL for an optional argument left out) and unset (--no-OPTION), and
 * returns 0 or -1 after a message.
 */
#include <stdbool.h>
#include "evlist.h"

#define RECORD_DEFAULT_FREQ 4000
/* perf's default for root: 512 KiB of data per ring */
#define RECORD_DEFAULT_MMAP_PAGES 128

void record_opts__init(struct record_opts *opts);

int record_opts__parse_freq(struct record_opts *opts, const char *arg, int unset);        /* -F N|max */
int record_opts__parse_period(struct record_opts *opts, const char *arg, int unset);      /* -c N */
int record_opts__parse_callgraph(struct record_opts *opts, const char *arg, int unset);   /* fp | dwarf[,SIZE] */
int record_opts__parse_clockid(struct record_opts *opts, const char *arg, int unset);     /* mono, CLOCK_TAI, 4 ... */
int record_opts__parse_mmap_pages(struct record_opts *opts, const char *arg, int unset);  /* a power of two */
int record_opts__parse_comp_level(struct record_opts *opts, const char *arg, int unset);  /* -z[N] */

/* -F above the kernel's limit comes down to it, with perf 6.1's warning */
void record_opts__limit_freq(struct record_opts *opts);

/* /proc/sys/kernel/perf_event_max_sample_rate, 0 if unknown */
unsigned perf_event__max_sample_rate(void);

#endif
