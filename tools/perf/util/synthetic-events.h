/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_SYNTHETIC_EVENTS_H
#define PERF_UTIL_SYNTHETIC_EVENTS_H

/*
 * Records for state that existed before recording started, shaped as the
 * kernel would have emitted them, with a zeroed sample_id trailer
 * (id_hdr_size bytes) like perf writes.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "event.h"

struct evlist;

struct synth_target {
	int (*process)(void *arg, const union perf_event *ev);
	void *arg;
	unsigned id_hdr_size;
	bool namespaces;          /* NAMESPACES after each thread's COMM (record --namespaces) */
};

/* MMAP "[kernel.kallsyms]_text" at _text, len _etext - _text, pgoff _text. */
int perf_event__synthesize_kernel_mmap(const struct synth_target *t);

int perf_event__synthesize_comm(const struct synth_target *t, pid_t pid, pid_t tid, const char *comm, bool exec);

/* NAMESPACES of tid (dev and inode of each /proc/PID/task/TID/ns/ file), when t->namespaces */
int synthesize_namespaces(const struct synth_target *t, pid_t pid, pid_t tid);

/* COMM for every thread of pid, FORK for its non-leader threads, MMAP2 for
 * its executable mappings (/proc/PID/maps). A vanished pid is not an error. */
int perf_event__synthesize_thread(const struct synth_target *t, pid_t pid);

/* perf_event__synthesize_thread for every process in /proc (-a) */
int perf_event__synthesize_all_threads(const struct synth_target *t);

/* ID_INDEX, THREAD_MAP and CPU_MAP describing the opened events */
int perf_event__synthesize_id_index(const struct synth_target *t, const struct evlist *el);
int perf_event__synthesize_thread_map(const struct synth_target *t, const struct evlist *el);
int perf_event__synthesize_cpu_map(const struct synth_target *t, const struct evlist *el);

/*
 * KSYMBOL for every JITed function of the BPF programs loaded now, then
 * BPF_EVENT PROG_LOAD, as perf 6.1 writes them (bpf(2): needs
 * CAP_SYS_ADMIN or CAP_BPF; without it there are none, not an error).
 */
int perf_event__synthesize_bpf_events(const struct synth_target *t);

/* a header-only record (FINISHED_INIT, FINISHED_ROUND) */
int perf_event__synthesize_empty(const struct synth_target *t, uint32_t type);

/* Address of a symbol of /proc/kallsyms, 0 if absent. */
uint64_t kallsyms__symbol_address(const char *name);

#endif
