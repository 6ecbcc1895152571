// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "debug.h"
#include "dso.h"
#include "script-filter.h"
#include "strbuf.h"
#include "symbol.h"
#include "util.h"

void script_filter__exit(struct script_filter *sf)
{
	struct name_list *lists[] = { &sf->comms, &sf->syms, &sf->dsos };

	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		for (size_t j = 0; j < lists[i]->nr; j++)
			free(lists[i]->names[j]);
		free(lists[i]->names);
	}
	free(sf->pids);
	free(sf->tids);
	free(sf->cpus);
	memset(sf, 0, sizeof(*sf));
}

int script_filter__add_names(struct name_list *l, const char *csv)
{
	char *copy = xstrdup(csv), *tok, *save = NULL;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		*ARRAY_PUSH(l->names, l->nr, l->cap) = xstrdup(tok);
	}
	free(copy);
	return 0;
}

static bool parse_int(const char *s, long max, long *out)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*out = strtol(s, &end, 10);
	return !errno && !*end && *out <= max;
}

int script_filter__add_ids(int32_t **ids, size_t *nr, const char *csv, const char *what)
{
	char *copy = xstrdup(csv), *tok, *save = NULL;
	/* the array is exactly *nr long between calls (one per --pid/--tid) */
	size_t alloc = *nr;
	int ret = 0;

	for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		long v;

		if (!parse_int(tok, INT32_MAX, &v)) {
			pr_err("Invalid %s '%s'\n", what, tok);
			ret = -1;
			break;
		}
		*ARRAY_PUSH(*ids, *nr, alloc) = (int32_t)v;
	}
	free(copy);
	return ret;
}

int script_filter__set_cpus(struct script_filter *sf, const char *list)
{
	char *copy = xstrdup(list), *tok, *save = NULL;
	int ret = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');
		long lo, hi;

		if (dash)
			*dash = 0;
		if (!parse_int(tok, 4095, &lo) || (dash && !parse_int(dash + 1, 4095, &hi)) ||
		    (dash && hi < lo)) {
			pr_err("Invalid cpu list: '%s'\n", list);
			ret = -1;
			break;
		}
		if (!dash)
			hi = lo;
		if (!sf->cpus) {
			sf->cpus_bytes = 512;
			sf->cpus = xzalloc(sf->cpus_bytes);
		}
		for (long c = lo; c <= hi; c++)
			sf->cpus[c / 8] |= 1u << (c % 8);
	}
	free(copy);
	return ret;
}

/* "SECS[.FRACTION]" in nanoseconds; an empty string is 0 (open end) */
static int parse_time(const char *s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000ull;
	const char *p = s;

	*ns = 0;
	if (!*s)
		return 0;
	if (!isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p)) {
		if (sec > UINT64_MAX / 10 / 1000000000ull)
			return -1;
		sec = sec * 10 + (*p++ - '0');
	}
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			scale /= 10;
			frac += (*p++ - '0') * scale;
		}
	}
	if (*p)
		return -1;
	*ns = sec * 1000000000ull + frac;
	return 0;
}

int script_filter__set_time(struct script_filter *sf, const char *span)
{
	const char *comma = strchr(span, ',');
	char *start = xstrdup(span);
	int ret;

	if (comma)
		start[comma - span] = 0;
	ret = parse_time(start, &sf->time_start);

	if (!ret && comma)
		ret = parse_time(comma + 1, &sf->time_end);
	if (!ret && sf->time_end && sf->time_end < sf->time_start)
		ret = -1;
	if (ret)
		pr_err("Invalid time string\n");
	free(start);
	return ret;
}

bool script_filter__cpu_ok(const struct script_filter *sf, uint32_t cpu)
{
	if (!sf->cpus)
		return true;
	return cpu / 8 < sf->cpus_bytes && (sf->cpus[cpu / 8] & (1u << (cpu % 8)));
}

static bool in_names(const struct name_list *l, const char *name)
{
	for (size_t i = 0; i < l->nr; i++)
		if (name && !strcmp(l->names[i], name))
			return true;
	return false;
}

static bool in_ids(const int32_t *ids, size_t nr, int32_t id)
{
	for (size_t i = 0; i < nr; i++)
		if (ids[i] == id)
			return true;
	return false;
}

bool script_filter__sample_ok(const struct script_filter *sf, const struct perf_sample *sample,
			      const struct thread *thread, const struct hist_frame *frame)
{
	if (!script_filter__cpu_ok(sf, sample->cpu))
		return false;
	if (sf->time_start && sample->time < sf->time_start)
		return false;
	if (sf->time_end && sample->time > sf->time_end)
		return false;
	if (sf->nr_pids && !in_ids(sf->pids, sf->nr_pids, (int32_t)sample->pid))
		return false;
	if (sf->nr_tids && !in_ids(sf->tids, sf->nr_tids, (int32_t)sample->tid))
		return false;
	if (sf->comms.nr && !in_names(&sf->comms, thread ? thread->comm : NULL))
		return false;
	if (sf->syms.nr && !in_names(&sf->syms, frame->sym ? frame->sym->name : NULL))
		return false;
	if (sf->dsos.nr && !(frame->dso && (in_names(&sf->dsos, frame->dso->short_name) ||
					    in_names(&sf->dsos, frame->dso->long_name))))
		return false;
	return true;
}
