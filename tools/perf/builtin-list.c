// SPDX-License-Identifier: MIT
/*
 * perf list: the event names -e accepts, in perf 6.1's output shape
 * ("  %-50s [kind]"), optionally limited to kinds (hw, sw, tracepoint, sdt)
 * or to a glob.
 */
#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

#include "builtin.h"
#include "util/debug.h"
#include "util/parse-events.h"
#include "util/parse-options.h"
#include "util/sdt-cache.h"
#include "util/strbuf.h"
#include "util/tracefs.h"
#include "util/util.h"

struct list_filter {
	/* no ':' in the glob: a substring pattern on the event name (perf 6.1) */
	char *name_glob;
	/* "sys:event" glob: both parts must match exactly */
	char *sys_glob, *event_glob;
};

static bool name_matches(const struct list_filter *f, const char *name)
{
	return !f || (f->name_glob && !fnmatch(f->name_glob, name, 0));
}

/* --raw-dump: names only, each followed by a space (what perf's bash completion reads) */
static bool raw_dump;

static void print_entry(const char *name, const char *kind)
{
	if (raw_dump)
		printf("%s ", name);
	else
		printf("  %-50s [%s]\n", name, kind);
}

static void print_one(const char *name, const char *alias, const char *kind,
		      const struct list_filter *f)
{
	char buf[128];

	if (!name_matches(f, name) && !(alias && name_matches(f, alias)))
		return;
	if (alias && !raw_dump)
		snprintf(buf, sizeof(buf), "%s OR %s", name, alias);
	else
		snprintf(buf, sizeof(buf), "%s", name);
	print_entry(buf, kind);
}

/* listed only when the kernel can count it, as perf does */
static bool can_count(uint32_t type, uint64_t config)
{
	struct perf_event_attr attr = {
		.type = type, .size = sizeof(attr), .config = config,
		.disabled = 1, .exclude_kernel = 1, .exclude_hv = 1,
	};
	int fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static void print_symbols(uint32_t type, const char *kind, const struct list_filter *f)
{
	size_t n;
	const struct event_symbol *ev = event_symbols__table(&n);

	for (size_t i = 0; i < n; i++)
		if (ev[i].type == type && (type != PERF_TYPE_HARDWARE || can_count(type, ev[i].config)))
			print_one(ev[i].list_name, ev[i].alias, kind, f);
}

/* perf's own "tool" events, listed with the software ones */
static const char *const tool_events[] = { "duration_time", "user_time", "system_time" };

struct tp_list {
	const struct list_filter *f;
	char **names;
	size_t n, cap;
};

static int collect_tracepoint(const char *sys, const char *event, void *arg)
{
	struct tp_list *l = arg;
	const struct list_filter *f = l->f;

	if (f) {
		if (f->name_glob && fnmatch(f->name_glob, event, 0))
			return 0;
		if (!f->name_glob && (fnmatch(f->sys_glob, sys, 0) || fnmatch(f->event_glob, event, 0)))
			return 0;
	}
	*ARRAY_PUSH(l->names, l->n, l->cap) = xasprintf("%s:%s", sys, event);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * "sdt_P:N@PATH(BUILDID)": by name, then, as perf 6.1 lists the copies of
 * one name, by build-id.
 */
static int cmp_sdt(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t nx = strcspn(x, "@"), ny = strcspn(y, "@");
	const char *bx = strrchr(x, '('), *by = strrchr(y, '(');
	int r = strncmp(x, y, nx < ny ? nx : ny);

	if (r || nx != ny)
		return r ? r : (nx < ny ? -1 : 1);
	if (bx && by && (r = strcmp(bx, by)))
		return r;
	return strcmp(x, y);
}

static void print_tracepoints(const struct list_filter *f)
{
	struct tp_list l = { .f = f };

	if (tracefs__for_each_event(collect_tracepoint, &l) < 0) {
		pr_debug("tracefs not available: no tracepoints listed\n");
		return;
	}
	if (l.n)
		qsort(l.names, l.n, sizeof(*l.names), cmp_str);
	for (size_t i = 0; i < l.n; i++) {
		print_entry(l.names[i], "Tracepoint event");
		free(l.names[i]);
	}
	free(l.names);
}

static int collect_sdt(const char *provider, const char *name, void *arg)
{
	struct tp_list *l = arg;
	const struct list_filter *f = l->f;
	char *sys = xasprintf("sdt_%s", provider);

	if (!f || (f->name_glob ? !fnmatch(f->name_glob, name, 0)
				: !fnmatch(f->sys_glob, sys, 0) && !fnmatch(f->event_glob, name, 0))) {
		*ARRAY_PUSH(l->names, l->n, l->cap) = xasprintf("%s:%s", sys, name);
	}
	free(sys);
	return 0;
}

/* SDT events, "sdt_PROVIDER:NAME", from the build-id cache */
static void print_sdt_events(const struct list_filter *f)
{
	struct tp_list l = { .f = f };

	sdt_cache__for_each_event(collect_sdt, &l);
	if (l.n)
		qsort(l.names, l.n, sizeof(*l.names), cmp_sdt);
	for (size_t i = 0; i < l.n; i++) {
		if (raw_dump) {
			/* perf 6.1 dumps every copy, without its @PATH(BUILDID) */
			l.names[i][strcspn(l.names[i], "@")] = '\0';
			print_entry(l.names[i], "SDT event");
		} else if (!i || strcmp(l.names[i], l.names[i - 1])) {
			/* the same note cached for two binaries is one event name */
			print_entry(l.names[i], "SDT event");
		}
	}
	for (size_t i = 0; i < l.n; i++)
		free(l.names[i]);
	free(l.names);
}

static void print_hw(const struct list_filter *f)
{
	print_symbols(PERF_TYPE_HARDWARE, "Hardware event", f);
}

static void print_sw(const struct list_filter *f)
{
	print_symbols(PERF_TYPE_SOFTWARE, "Software event", f);
	for (size_t i = 0; i < ARRAY_SIZE(tool_events); i++)
		print_one(tool_events[i], NULL, "Tool event", f);
}

/* "PMU/EVENT/" of every PMU's sysfs events directory (the CPU's as "EVENT OR cpu/EVENT/") */
static void print_pmu_events(const struct list_filter *f)
{
	const char *root = "/sys/bus/event_source/devices";
	struct dirent **pmus = NULL;
	int np = scandir(root, &pmus, NULL, alphasort);

	for (int i = 0; i < np; i++) {
		char *dir = xasprintf("%s/%s/events", root, pmus[i]->d_name);
		struct dirent **evs = NULL;
		int ne = pmus[i]->d_name[0] == '.' ? -1 : scandir(dir, &evs, NULL, alphasort);

		for (int k = 0; k < ne; k++) {
			const char *e = evs[k]->d_name, *dot = strchr(e, '.');
			char *name = xasprintf("%s/%s/", pmus[i]->d_name, e);

			/* .scale, .unit ... describe an event, they are none */
			if (e[0] != '.' && !dot) {
				if (!strcmp(pmus[i]->d_name, "cpu"))
					print_one(e, name, "Kernel PMU event", f);
				else
					print_one(name, NULL, "Kernel PMU event", f);
			}
			free(name);
			free(evs[k]);
		}
		free(evs);
		free(dir);
		free(pmus[i]);
	}
	free(pmus);
}

static void print_all(void)
{
	print_hw(NULL);
	print_sw(NULL);
	print_pmu_events(NULL);
	if (!raw_dump) {
		print_entry("rNNN", "Raw hardware event descriptor");
		print_entry("cpu/t1=v1[,t2=v2,t3 ...]/modifier", "Raw hardware event descriptor");
		print_entry("mem:<addr>[/len][:access]", "Hardware breakpoint");
	}
	print_tracepoints(NULL);
	print_sdt_events(NULL);
	if (!raw_dump)
		printf("\nMetric Groups:\n\n");   /* none here, but perf 6.1 ends with the heading */
}

static void print_glob(const char *glob)
{
	struct list_filter f = { 0 };
	const char *colon = strchr(glob, ':');

	if (colon) {
		f.sys_glob = xasprintf("%.*s", (int)(colon - glob), glob);
		f.event_glob = xstrdup(colon + 1);
		print_tracepoints(&f);
		print_sdt_events(&f);
	} else {
		f.name_glob = xasprintf("*%s*", glob);
		print_hw(&f);
		print_sw(&f);
		print_pmu_events(&f);
		print_tracepoints(&f);
		print_sdt_events(&f);
	}
	free(f.name_glob);
	free(f.sys_glob);
	free(f.event_glob);
}

int cmd_list(int argc, const char **argv)
{
	static const char *const usage[] = {
		"perf list [<options>] [hw|sw|tracepoint|sdt|event_glob]",
		NULL,
	};
	bool long_desc = false;
	const struct option options[] = {
		OPT_BOOLEAN(0, "raw-dump", &raw_dump, "dump raw events (names only)"),
		OPT_BOOLEAN(0, "long-desc", &long_desc,
			    "print longer event descriptions (the same here: no event has a long one)"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, options, usage, 0);
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	if (argc == 0) {
		print_all();
		return 0;
	}
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "hw") || !strcmp(a, "hardware"))
			print_hw(NULL);
		else if (!strcmp(a, "sw") || !strcmp(a, "software"))
			print_sw(NULL);
		else if (!strcmp(a, "tracepoint"))
			print_tracepoints(NULL);
		else if (!strcmp(a, "sdt"))
			print_sdt_events(NULL);
		else if (!strcmp(a, "pmu"))
			print_pmu_events(NULL);
		else if (!strcmp(a, "cache") || !strcmp(a, "hwcache") ||
			 !strcmp(a, "metric") || !strcmp(a, "metricgroup"))
			continue;     /* no cache/PMU/metric tables in this perf */
		else
			print_glob(a);
	}
	return 0;
}
