/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_JIT_SAVE_H
#define PERF_UTIL_JIT_SAVE_H

/*
 * The JIT files of recorded processes that live in other namespaces
 * (containers): their jitdumps and /tmp/perf-<nspid>.map are only
 * reachable through /proc/PID/root while they run, so perf record takes
 * hold of them as it sees them (an open descriptor: the file stays readable
 * whatever happens to the container) and at the end copies them into
 * <output>.jit/ with an index that inject and report read:
 *
 *   # comment
 *   proc <host pid> <pid in its namespace>
 *   dump <host pid> <saved file name> <path inside the container>
 *   map <host pid> <saved file name>
 *
 * Processes of perf's own namespaces are left alone: their files stay where
 * perf 6.1 looks for them.
 */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "event.h"

struct jit_save;

struct jit_save *jit_save__new(void);
void jit_save__delete(struct jit_save *js);

/* MMAP/MMAP2 of user space: a jitdump marker or anonymous code. Other records are ignored. */
void jit_save__event(struct jit_save *js, const union perf_event *ev);

/*
 * Copies what was held into <output>.jit/ (an older one is moved to
 * <output>.jit.old) and writes the index. summary gets one line for the
 * user ("" when nothing was saved). 0, or -1 with the reason in summary.
 * @output NULL (pipe mode): nothing is saved, summary says what was not.
 */
int jit_save__finish(struct jit_save *js, const char *output, char *summary, size_t len);

/* ---- reading it back (inject, report) ---- */

struct jit_saved_file {
	pid_t pid;                    /* host pid */
	bool is_map;
	char *path;                   /* absolute path of the saved copy */
	char *inner;                  /* dump: the path in the container's MMAP record */
};

struct jit_saved {
	char *dir;                    /* <data>.jit, absolute */
	struct jit_saved_file *files;
	size_t nr_files, cap_files;
	pid_t (*procs)[2];            /* host pid, nspid */
	size_t nr_procs, cap_procs;
};

/* The index beside data_path, or NULL when there is none (not an error). */
struct jit_saved *jit_saved__load(const char *data_path);
void jit_saved__delete(struct jit_saved *s);

/* pid's namespace pid as recorded, or -1 */
pid_t jit_saved__nspid(const struct jit_saved *s, pid_t pid);
/* the saved dump (inner == NULL: any) or map of pid, or NULL */
const struct jit_saved_file *jit_saved__find(const struct jit_saved *s, pid_t pid, bool map, const char *inner);

/* the <data>.jit directory name for a data file ("perf.data" -> "perf.data.jit") */
char *jit_saved__dir_of(const char *data_path);

#endif
