// SPDX-License-Identifier: MIT
/* Event names derived from an attr, as perf shows them when EVENT_DESC is absent. */
#include <stdio.h>
#include <string.h>
#include "evsel-name.h"
#include "util.h"

static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	"bpf-output", "cgroup-switches",
};

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};

const char *software_event_name(uint64_t config)
{
	return config < ARRAY_SIZE(sw_names) ? sw_names[config] : NULL;
}

const char *hardware_event_name(uint64_t config)
{
	return config < ARRAY_SIZE(hw_names) ? hw_names[config] : NULL;
}

char *evsel_name_from_attr(const struct perf_event_attr *attr)
{
	const char *base = NULL;
	char mods[8];
	int n = 0;

	if (attr->type == PERF_TYPE_SOFTWARE)
		base = software_event_name(attr->config);
	else if (attr->type == PERF_TYPE_HARDWARE)
		base = hardware_event_name(attr->config);
	if (!base)
		return xasprintf("unknown-%u-%#llx", attr->type, (unsigned long long)attr->config);
	/* perf adds modifiers for what is excluded: u = user only, k = kernel only */
	if (attr->exclude_kernel && !attr->exclude_user)
		mods[n++] = 'u';
	else if (attr->exclude_user && !attr->exclude_kernel)
		mods[n++] = 'k';
	if (!attr->exclude_guest && !attr->exclude_host) {
		mods[n++] = 'H';
		mods[n++] = 'G';
	}
	mods[n] = 0;
	return n ? xasprintf("%s:%s", base, mods) : xstrdup(base);
}
