// SPDX-License-Identifier: MIT
/* Event names derived from an attr, as perf shows them when EVENT_DESC is absent. */
#include <stdio.h>
#include <string.h>
#include "evsel-name.h"
#include "parse-events.h"
#include "util.h"

char *evsel_name__from_attr(const struct perf_event_attr *attr)
{
	const char *base = NULL;
	char mods[8];
	int n = 0;

	if (attr->type == PERF_TYPE_SOFTWARE || attr->type == PERF_TYPE_HARDWARE)
		base = event_symbol__name(attr->type, attr->config);
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
