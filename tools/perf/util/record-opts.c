// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "compress.h"
#include "debug.h"
#include "record-opts.h"
#include "util.h"

void record_opts__init(struct record_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->freq = RECORD_DEFAULT_FREQ;
	opts->mmap_pages = RECORD_DEFAULT_MMAP_PAGES;
}

/* a plain non-negative number (decimal, 0x, 0 octal), nothing after it */
static int parse_uint(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return (errno || *end) ? -1 : 0;
}

int record_opts__parse_freq(struct record_opts *opts, const char *arg, int unset)
{
	uint64_t v;

	if (arg && !strcmp(arg, "max")) {
		v = perf_event__max_sample_rate();
		if (!v)
			v = RECORD_DEFAULT_FREQ;
	} else if (parse_uint(arg, &v) || v == 0 || v > UINT32_MAX) {
		pr_err("invalid --freq '%s': expected a positive number of Hz or 'max'\n", arg ? arg : "");
		return -1;
	}
	opts->freq = v;
	opts->user_freq = true;
	return 0;
}

int record_opts__parse_period(struct record_opts *opts, const char *arg, int unset)
{
	uint64_t v;

	if (parse_uint(arg, &v) || v == 0) {
		pr_err("invalid --count '%s': expected a positive event period\n", arg ? arg : "");
		return -1;
	}
	opts->period = v;
	opts->user_period = true;
	return 0;
}

int record_opts__parse_mmap_pages(struct record_opts *opts, const char *arg, int unset)
{
	uint64_t v;

	if (parse_uint(arg, &v) || v == 0 || (v & (v - 1)) || v > (1u << 20)) {
		pr_err("invalid --mmap-pages '%s': expected a power of two\n", arg ? arg : "");
		return -1;
	}
	opts->mmap_pages = (int)v;
	return 0;
}

/* like perf 6.1, 0 means the default and above 22 means 22 (perf says nothing, we warn) */
int record_opts__parse_comp_level(struct record_opts *opts, const char *arg, int unset)
{
	uint64_t v = PERF_COMP_LEVEL_DEFAULT;

	if (unset) {
		opts->comp_level = 0;
		return 0;
	}
	if (arg && parse_uint(arg, &v)) {
		pr_err("invalid --compression-level '%s': expected a number from 1 to %d\n", arg,
		       PERF_COMP_LEVEL_MAX);
		return -1;
	}
	if (v == 0)
		v = PERF_COMP_LEVEL_DEFAULT;
	if (v > PERF_COMP_LEVEL_MAX) {
		pr_warning("compression level %llu lowered to the maximum, %d\n", (unsigned long long)v,
			   PERF_COMP_LEVEL_MAX);
		v = PERF_COMP_LEVEL_MAX;
	}
	opts->comp_level = (int)v;
	return 0;
}

static const struct {
	const char *name;
	int id;
} clockids[] = {
	{ "monotonic", CLOCK_MONOTONIC },
	{ "mono", CLOCK_MONOTONIC },
	{ "monotonic_raw", CLOCK_MONOTONIC_RAW },
	{ "raw", CLOCK_MONOTONIC_RAW },
	{ "realtime", CLOCK_REALTIME },
	{ "real", CLOCK_REALTIME },
	{ "boottime", CLOCK_BOOTTIME },
	{ "boot", CLOCK_BOOTTIME },
	{ "tai", CLOCK_TAI },
};

static int clockid_of(const char *name, int *clockid)
{
	uint64_t v;

	if (!name || !*name)
		return -1;
	if (!parse_uint(name, &v))
		return v > INT32_MAX ? -1 : (*clockid = (int)v, 0);
	if (!strncasecmp(name, "CLOCK_", 6))
		name += 6;
	for (size_t i = 0; i < ARRAY_SIZE(clockids); i++) {
		if (!strcasecmp(name, clockids[i].name)) {
			*clockid = clockids[i].id;
			return 0;
		}
	}
	return -1;
}

int record_opts__parse_clockid(struct record_opts *opts, const char *arg, int unset)
{
	if (unset) {
		opts->use_clockid = false;
		return 0;
	}
	if (clockid_of(arg, &opts->clockid)) {
		pr_err("unknown clockid '%s' (mono, monotonic, monotonic_raw, realtime, boot, tai or a number)\n",
		       arg ? arg : "");
		return -1;
	}
	opts->use_clockid = true;
	return 0;
}

/* perf 6.1's limit: the kernel takes a u16 stack size, kept a multiple of 8 */
#define MAX_STACK_DUMP_SIZE 65528u
#define DEFAULT_STACK_DUMP_SIZE 8192u

int record_opts__parse_callgraph(struct record_opts *opts, const char *arg, int unset)
{
	char *copy, *size;
	int ret = 0;

	opts->callchain = false;
	opts->callchain_dwarf = false;
	if (unset)
		return 0;
	copy = xstrdup(arg ? arg : "fp");
	size = strchr(copy, ',');
	if (size)
		*size++ = 0;
	if (!strcmp(copy, "fp")) {
		opts->callchain = true;
	} else if (!strcmp(copy, "dwarf")) {
		uint64_t v = DEFAULT_STACK_DUMP_SIZE;

		if (size && (parse_uint(size, &v) || v == 0 || v > MAX_STACK_DUMP_SIZE)) {
			pr_err("callchain: Incorrect stack dump size (max %u): %s\n", MAX_STACK_DUMP_SIZE, size);
			ret = -1;
		} else {
			opts->callchain = true;
			opts->callchain_dwarf = true;
			opts->stack_dump_size = (uint32_t)ALIGN_UP(v, 8ull);
		}
	} else {
		pr_err("callchain: Unknown --call-graph option value: %s\n", arg);
		ret = -1;
	}
	free(copy);
	return ret;
}

unsigned perf_event__max_sample_rate(void)
{
	char *s = read_file("/proc/sys/kernel/perf_event_max_sample_rate", NULL);
	unsigned v = 0;

	if (s) {
		v = (unsigned)strtoul(s, NULL, 10);
		free(s);
	}
	return v;
}

void record_opts__limit_freq(struct record_opts *opts)
{
	unsigned max;

	if (opts->user_period)
		return;
	max = perf_event__max_sample_rate();
	if (max && opts->freq > max) {
		if (!quiet)
			fprintf(stderr,
				"warning: Maximum frequency rate (%u Hz) exceeded, throttling from %llu Hz to %u Hz.\n"
				"         The limit can be raised via /proc/sys/kernel/perf_event_max_sample_rate.\n"
				"         The kernel will lower it when perf's interrupts take too long.\n",
				max, (unsigned long long)opts->freq, max);
		opts->freq = max;
	}
}
