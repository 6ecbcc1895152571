/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_WORKLOAD_H
#define PERF_UTIL_WORKLOAD_H

/*
 * The command perf record runs: forked first and held before exec, so the
 * events exist (enable_on_exec) when it starts; an exec failure comes
 * back through a close-on-exec pipe. The caller owns the struct.
 */
#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

struct workload {
	pid_t pid;                 /* > 0 once forked */
	int go_fd, err_fd;
	int status;                /* waitpid status once reaped */
	bool reaped;
};

void workload__init(struct workload *w);

/* The command's binary (PATH search), only if it is an ELF file (its SDT
 * notes can be scanned); a script or a shim gives NULL. malloc'ed. */
char *workload__elf_path(const char *cmd);

/*
 * Forks argv, held until workload__start(). The child gets the signal mask
 * `orig` back and default SIGINT/SIGTERM/SIGCHLD; with stdout_to_stderr its
 * stdout is its stderr (stdout is the perf.data stream in pipe mode).
 * -1 after a message.
 */
int workload__prepare(struct workload *w, const char *const *argv, const sigset_t *orig,
		      bool stdout_to_stderr);

/* Lets it exec: 0 once the command runs, else exec's errno. */
int workload__start(struct workload *w);

/* Waits for it; kill_it sends SIGTERM first unless it has already exited. */
void workload__reap(struct workload *w, bool kill_it);

/* Ends a workload that may never have been started (error paths). */
void workload__abort(struct workload *w);

/* Its exit code as a shell gives it: the status, or 128 + the signal. */
int workload__exit_code(const struct workload *w);

#endif
