/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_EVLIST_H
#define PERF_UTIL_EVLIST_H

/*
 * The events perf record opens: one perf_event_open per (event, CPU,
 * thread), the sampling attr perf 6.1 would use, the ids the kernel gives
 * them (PERF_EVENT_IOC_ID) and one ring buffer per CPU (or per thread
 * when CPU-agnostic), shared by all events of that CPU via SET_OUTPUT.
 */
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>
#include "cpumap.h"
#include "evsel.h"
#include "mmap.h"
#include "parse-events.h"

/* what the user asked for; evlist__config turns it into attrs */
struct record_opts {
	bool system_wide;          /* -a */
	bool per_thread;           /* -p/-t: cpu -1 per thread */
	bool no_inherit;           /* -t */
	bool workload;             /* a command is run: enable_on_exec */
	bool pipe;                 /* -o -: perf adds PERF_SAMPLE_ID */
	bool callchain;            /* -g */
	bool callchain_dwarf;      /* --call-graph dwarf: user regs + stack copy */
	uint32_t stack_dump_size;  /* bytes of user stack per sample (dwarf) */
	bool user_freq, user_period;
	uint64_t freq;             /* -F, default 4000 */
	uint64_t period;           /* -c */
	bool use_clockid;
	int clockid;
	int mmap_pages;            /* -m: data pages per ring */
	int comp_level;            /* -z: zstd level, 0 = off */
	bool namespaces;           /* --namespaces: NAMESPACES records (tracking event) */
};

struct evlist {
	struct evsel *entries;
	size_t nr, cap;
	struct cpu_map *cpus;
	pid_t *threads;            /* -1 for system-wide */
	int nr_threads;
	struct perf_mmap *mmaps;
	int nr_mmaps;
	struct pollfd *pollfds;    /* every opened fd */
	int nr_pollfds;
	bool tracks_system;        /* a dummy event carries the side-band (-a) */
};

void evlist__init(struct evlist *el);
void evlist__exit(struct evlist *el);

/* Adds an event as parsed (copied). */
void evlist__add(struct evlist *el, const struct parsed_event *pe, bool user_requested);

/* perf's default: the most precise cycles (cpu-clock without a PMU, see evlist__open) */
void evlist__add_default(struct evlist *el);

/*
 * Sets the sampling attrs like perf 6.1 record: sample_type, read_format,
 * side-band tracking on the first event only, freq/period, clockid, ...
 * For -a it adds perf's dummy tracking event.
 */
void evlist__config(struct evlist *el, const struct record_opts *opts);

/* Where to open: the CPU list and the threads (-1 = all). */
void evlist__set_targets(struct evlist *el, struct cpu_map *cpus, const pid_t *threads, int nr);

/*
 * Opens every fd. cycles falls back to cpu-clock when the machine has no
 * hardware PMU (announced with perf's message). -1 after an error message.
 */
int evlist__open(struct evlist *el);

/* One ring buffer of data_pages per CPU (or per thread). */
int evlist__mmap(struct evlist *el, size_t data_pages);

/*
 * Waits for data with sigmask in force (ppoll). Returns the fds still
 * live (a per-thread target that exited is dropped), -1 if there are none
 * to watch at all.
 */
/* what evlist__poll returns when 100 ms passed with nothing to read */
#define EVLIST_POLL_TIMEOUT (-2)
int evlist__poll(struct evlist *el, const sigset_t *sigmask);

int evlist__enable(struct evlist *el);
int evlist__disable(struct evlist *el);

/* The evsel whose sample ids include id, or NULL. */
struct evsel *evlist__find_id(struct evlist *el, uint64_t id);

/* The tracking/side-band sample_type shared by all events (id_hdr). */
uint64_t evlist__sample_type(const struct evlist *el);

void evlist__close(struct evlist *el);

/*
 * The tracing data (TRACING_DATA feature / pipe record) of the evlist's
 * tracepoints: 1 with a malloc'ed *buf, 0 when there are none, -1 after a
 * message.
 */
int evlist__tracing_data(const struct evlist *el, void **buf, size_t *size);

/* Threads of a process from /proc/PID/task; NULL if it does not exist. */
pid_t *thread_list__from_pid(pid_t pid, int *nr);

#endif
