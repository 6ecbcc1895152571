// SPDX-License-Identifier: MIT
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "debug.h"
#include "evlist.h"
#include "strbuf.h"
#include "trace-event.h"
#include "util.h"

/* perf 6.1 files carry 128-byte attrs (PERF_ATTR_SIZE_VER7) */
#define RECORD_ATTR_SIZE 128

void evlist__init(struct evlist *el)
{
	memset(el, 0, sizeof(*el));
}

void evlist__add(struct evlist *el, const struct parsed_event *pe, bool user_requested)
{
	struct evsel *e;

	e = ARRAY_PUSH(el->entries, el->nr, el->cap);
	memset(e, 0, sizeof(*e));
	e->attr = pe->attr;
	e->name = xstrdup(pe->name);
	e->tp_system = pe->tp_system ? xstrdup(pe->tp_system) : NULL;
	e->tp_event = pe->tp_event ? xstrdup(pe->tp_event) : NULL;
	e->user_requested = user_requested;
}

static void evsel__set_tracking(struct perf_event_attr *a)
{
	a->mmap = 1;
	a->comm = 1;
	a->task = 1;
	a->mmap2 = 1;
	a->comm_exec = 1;
	a->ksymbol = 1;
	a->bpf_event = 1;
}

/*
 * --call-graph dwarf as perf 6.1 configures it (perf evlist -v of its file):
 * the kernel chain only (user part comes from unwinding the stack copy),
 * all x86-64 user registers except the segment/flags ones (mask 0xff0fff),
 * and ADDR|DATA_SRC (+ mmap_data on the tracking event), which perf 6.1
 * adds in this mode too.
 */
static void evsel__set_dwarf_callchain(struct perf_event_attr *a, uint32_t stack_size)
{
	a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_ADDR | PERF_SAMPLE_REGS_USER |
			  PERF_SAMPLE_STACK_USER | PERF_SAMPLE_DATA_SRC;
	a->exclude_callchain_user = 1;
	a->sample_regs_user = 0xff0fffull;
	a->sample_stack_user = stack_size;
}

void evlist__add_default(struct evlist *el)
{
	struct parsed_event pe;

	memset(&pe, 0, sizeof(pe));
	pe.attr.type = PERF_TYPE_HARDWARE;
	pe.attr.config = PERF_COUNT_HW_CPU_CYCLES;
	pe.attr.precise_ip = 3;
	pe.name = (char *)"cycles:P";
	evlist__add(el, &pe, false);
}

void evlist__config(struct evlist *el, const struct record_opts *opts)
{
	bool same_type = true;

	if (opts->system_wide) {
		/* like perf: side-band records come from a dummy event so the
		 * sampling events stay lean */
		struct parsed_event dummy = { .name = (char *)"dummy:HG" };

		dummy.attr.type = PERF_TYPE_SOFTWARE;
		dummy.attr.config = PERF_COUNT_SW_DUMMY;
		evlist__add(el, &dummy, false);
		el->tracks_system = true;
	}

	for (size_t i = 0; i < el->nr; i++) {
		struct evsel *e = &el->entries[i];
		struct perf_event_attr *a = &e->attr;
		bool is_dummy = el->tracks_system && i == el->nr - 1;
		bool tp = a->type == PERF_TYPE_TRACEPOINT;

		a->size = RECORD_ATTR_SIZE;
		a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
		a->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
		a->inherit = !opts->no_inherit;
		a->sample_id_all = 1;
		if (is_dummy) {
			a->sample_period = 1;
			a->sample_type |= PERF_SAMPLE_CPU;
			evsel__set_tracking(a);
		} else {
			a->disabled = 1;
			if (opts->user_period) {
				a->sample_period = opts->period;
			} else if (tp) {
				a->sample_period = 1;
				a->sample_type |= PERF_SAMPLE_PERIOD;
			} else {
				a->freq = 1;
				a->sample_freq = opts->freq;
				a->sample_type |= PERF_SAMPLE_PERIOD;
			}
			if (tp)
				a->sample_type |= PERF_SAMPLE_CPU | PERF_SAMPLE_RAW;
			if (opts->system_wide)
				a->sample_type |= PERF_SAMPLE_CPU;
			if (opts->callchain)
				a->sample_type |= PERF_SAMPLE_CALLCHAIN;
			if (opts->callchain_dwarf)
				evsel__set_dwarf_callchain(a, opts->stack_dump_size);
			if (opts->workload && !opts->system_wide && !opts->per_thread)
				a->enable_on_exec = 1;
			if (i == 0 && !el->tracks_system)
				evsel__set_tracking(a);
		}
		if (opts->callchain_dwarf && a->mmap)
			a->mmap_data = 1;
		a->namespaces = opts->namespaces && a->task;
		if (opts->use_clockid) {
			a->use_clockid = 1;
			a->clockid = opts->clockid;
		}
	}

	for (size_t i = 1; i < el->nr; i++)
		if (el->entries[i].attr.sample_type != el->entries[0].attr.sample_type)
			same_type = false;
	for (size_t i = 0; i < el->nr; i++) {
		struct perf_event_attr *a = &el->entries[i].attr;

		/* samples must name their event once there is more than one;
		 * with differing layouts the id has to sit at a fixed place */
		if (el->nr > 1 && !same_type)
			a->sample_type |= PERF_SAMPLE_IDENTIFIER;
		else if (el->nr > 1 || opts->pipe)
			a->sample_type |= PERF_SAMPLE_ID;
	}
}

void evlist__set_targets(struct evlist *el, struct cpu_map *cpus, const pid_t *threads, int nr)
{
	el->cpus = cpus;
	el->nr_threads = nr;
	el->threads = xmalloc(nr * sizeof(pid_t));
	memcpy(el->threads, threads, nr * sizeof(pid_t));
}

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static bool is_cycles(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_CPU_CYCLES;
}

/* cycles -> cpu-clock, as perf does when there is no PMU. true if switched. */
static bool evsel__fallback(struct evsel *e, int err)
{
	if (!is_cycles(&e->attr) || (err != ENOENT && err != ENODEV && err != EOPNOTSUPP &&
				     err != ENXIO && err != EINVAL))
		return false;
	if (e->user_requested ? !quiet : verbose > 0)
		fprintf(stderr, "Warning:\nThe %s event is not supported, trying to fall back to cpu-clock-ticks\n",
			e->name);
	e->attr.type = PERF_TYPE_SOFTWARE;
	e->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	free(e->name);
	e->name = event_name__with_modifiers("cpu-clock", &e->attr);
	return true;
}

static void evsel__close_fds(struct evsel *e, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (e->fds[k] >= 0)
			close(e->fds[k]);
	for (size_t k = 0; k < n; k++)
		e->fds[k] = -1;
}

static void report_open_error(const struct evsel *e, int err, pid_t pid, int cpu)
{
	switch (err) {
	case EACCES:
	case EPERM:
		pr_err("No permission to open event %s (perf_event_paranoid is %s): run as root or lower /proc/sys/kernel/perf_event_paranoid\n",
		       e->name, "restrictive");
		break;
	case ESRCH:
		pr_err("The process %d does not exist (opening %s)\n", (int)pid, e->name);
		break;
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		pr_err("The %s event is not supported on this machine.\n", e->name);
		break;
	case EMFILE:
		pr_err("Too many open files opening %s: raise 'ulimit -n'\n", e->name);
		break;
	default:
		pr_err("Failed to open event %s on cpu %d pid %d: %s\n", e->name, cpu, (int)pid, strerror(err));
	}
}

static int evsel__open(struct evlist *el, struct evsel *e)
{
	size_t n = (size_t)el->cpus->nr * el->nr_threads;

	e->fds = xrealloc(e->fds, n * sizeof(int));
	e->ids = xrealloc(e->ids, n * sizeof(uint64_t));
	memset(e->ids, 0, n * sizeof(uint64_t));
	for (size_t k = 0; k < n; k++)
		e->fds[k] = -1;
	e->nr_ids = n;
retry:
	for (int c = 0; c < el->cpus->nr; c++) {
		for (int t = 0; t < el->nr_threads; t++) {
			size_t k = (size_t)c * el->nr_threads + t;
			int cpu = el->cpus->cpus[c], fd, err;
			pid_t pid = el->threads[t];

			fd = sys_perf_event_open(&e->attr, pid, cpu);
			if (fd < 0) {
				err = errno;
				if (err == ESRCH && el->nr_threads > 1) {
					/* a thread of -p exited meanwhile */
					pr_debug("thread %d vanished before it could be opened\n", (int)pid);
					continue;
				}
				evsel__close_fds(e, n);
				if (err == EINVAL && (e->attr.read_format & PERF_FORMAT_LOST)) {
					pr_debug("kernel without PERF_FORMAT_LOST, retrying\n");
					e->attr.read_format &= ~(uint64_t)PERF_FORMAT_LOST;
					goto retry;
				}
				if (evsel__fallback(e, err))
					goto retry;
				if (err == EINVAL && e->attr.use_clockid)
					pr_err("clockid %d is not supported by this kernel for %s\n",
					       e->attr.clockid, e->name);
				else
					report_open_error(e, err, pid, cpu);
				return -1;
			}
			e->fds[k] = fd;
			if (ioctl(fd, PERF_EVENT_IOC_ID, &e->ids[k]) < 0) {
				pr_err("PERF_EVENT_IOC_ID failed for %s: %s\n", e->name, strerror(errno));
				return -1;
			}
		}
	}
	return 0;
}

int evlist__open(struct evlist *el)
{
	for (size_t i = 0; i < el->nr; i++)
		if (evsel__open(el, &el->entries[i]))
			return -1;
	return 0;
}

int evlist__mmap(struct evlist *el, size_t data_pages)
{
	bool per_thread = el->cpus->nr == 1 && el->cpus->cpus[0] == -1;
	int nr = per_thread ? el->nr_threads : el->cpus->nr;

	el->mmaps = xzalloc(nr * sizeof(*el->mmaps));
	el->nr_mmaps = 0;
	for (int m = 0; m < nr; m++) {
		int out = -1;

		for (size_t i = 0; i < el->nr; i++) {
			struct evsel *e = &el->entries[i];

			for (int c = 0; c < el->cpus->nr; c++) {
				for (int t = 0; t < el->nr_threads; t++) {
					size_t k = (size_t)c * el->nr_threads + t;
					int fd = e->fds[k];

					if (fd < 0 || (per_thread ? t : c) != m)
						continue;
					if (out < 0) {
						struct perf_mmap *pm = &el->mmaps[el->nr_mmaps];

						if (perf_mmap__open(pm, fd, el->cpus->cpus[c], data_pages)) {
							pr_err("failed to mmap the ring buffer of %s (%zu pages): %s%s\n",
							       e->name, data_pages, strerror(errno),
							       errno == EPERM ? " (check /proc/sys/kernel/perf_event_mlock_kb)" : "");
							return -1;
						}
						el->nr_mmaps++;
						out = fd;
					} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, out) < 0) {
						pr_err("PERF_EVENT_IOC_SET_OUTPUT failed for %s: %s\n", e->name,
						       strerror(errno));
						return -1;
					}
				}
			}
		}
	}
	/* every fd: each one hangs up when its task exits */
	el->nr_pollfds = 0;
	for (size_t i = 0; i < el->nr; i++)
		el->nr_pollfds += (int)el->entries[i].nr_ids;
	el->pollfds = xzalloc((el->nr_pollfds + 1) * sizeof(*el->pollfds));
	el->nr_pollfds = 0;
	for (size_t i = 0; i < el->nr; i++)
		for (size_t k = 0; k < el->entries[i].nr_ids; k++)
			if (el->entries[i].fds[k] >= 0) {
				el->pollfds[el->nr_pollfds].fd = el->entries[i].fds[k];
				el->pollfds[el->nr_pollfds].events = POLLIN;
				el->nr_pollfds++;
			}
	return 0;
}

static int evlist__ioctl_all(struct evlist *el, unsigned long req)
{
	for (size_t i = 0; i < el->nr; i++)
		for (size_t k = 0; k < el->entries[i].nr_ids; k++)
			if (el->entries[i].fds[k] >= 0 && ioctl(el->entries[i].fds[k], req, 0) < 0)
				return -1;
	return 0;
}

int evlist__enable(struct evlist *el)
{
	return evlist__ioctl_all(el, PERF_EVENT_IOC_ENABLE);
}

int evlist__disable(struct evlist *el)
{
	return evlist__ioctl_all(el, PERF_EVENT_IOC_DISABLE);
}

struct evsel *evlist__find_id(struct evlist *el, uint64_t id)
{
	for (size_t i = 0; i < el->nr; i++)
		for (size_t k = 0; k < el->entries[i].nr_ids; k++)
			if (el->entries[i].fds[k] >= 0 && el->entries[i].ids[k] == id)
				return &el->entries[i];
	return NULL;
}

uint64_t evlist__sample_type(const struct evlist *el)
{
	return el->nr ? el->entries[0].attr.sample_type : 0;
}

void evlist__close(struct evlist *el)
{
	for (int m = 0; m < el->nr_mmaps; m++)
		perf_mmap__close(&el->mmaps[m]);
	free(el->mmaps);
	free(el->pollfds);
	el->mmaps = NULL;
	el->pollfds = NULL;
	el->nr_pollfds = 0;
	el->nr_mmaps = 0;
	for (size_t i = 0; i < el->nr; i++)
		if (el->entries[i].fds)
			evsel__close_fds(&el->entries[i], el->entries[i].nr_ids);
}

void evlist__exit(struct evlist *el)
{
	evlist__close(el);
	for (size_t i = 0; i < el->nr; i++) {
		struct evsel *e = &el->entries[i];

		free(e->name);
		free(e->tp_system);
		free(e->tp_event);
		free(e->fds);
		free(e->ids);
	}
	free(el->entries);
	free(el->threads);
	memset(el, 0, sizeof(*el));
}

static int pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

pid_t *thread_list__from_pid(pid_t pid, int *nr)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	pid_t *list = NULL;
	int n = 0, cap = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);

		if (*end || end == de->d_name)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			list = xrealloc(list, cap * sizeof(pid_t));
		}
		list[n++] = (pid_t)tid;
	}
	closedir(d);
	if (!n) {
		free(list);
		return NULL;
	}
	qsort(list, n, sizeof(pid_t), pid_cmp);
	*nr = n;
	return list;
}

int evlist__tracing_data(const struct evlist *el, void **buf, size_t *size)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	int ret;

	for (size_t i = 0; i < el->nr; i++) {
		if (el->entries[i].attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		*ARRAY_PUSH(names, n, cap) = xasprintf("%s:%s", el->entries[i].tp_system, el->entries[i].tp_event);
	}
	if (!n)
		return 0;
	ret = trace_event__build_tracing_data_names((const char *const *)names, n, buf, size);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret ? -1 : 1;
}

int evlist__poll(struct evlist *el, const sigset_t *sigmask)
{
	/* at least every 100 ms: a container's JIT files must be taken while it lives */
	struct timespec side_band = { 0, 100000000 };
	int live = 0;

	if (ppoll(el->pollfds, el->nr_pollfds, &side_band, sigmask) == 0)
		return EVLIST_POLL_TIMEOUT;
	for (int i = 0; i < el->nr_pollfds; i++) {
		if (el->pollfds[i].fd < 0)
			continue;
		/* a per-thread target that exited: stop watching it */
		if (el->pollfds[i].revents & (POLLHUP | POLLERR))
			el->pollfds[i].fd = -1;
		else
			live++;
	}
	return el->nr_pollfds ? live : -1;
}
