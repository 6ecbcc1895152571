// SPDX-License-Identifier: MIT
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "debug.h"
#include "util.h"
#include "workload.h"

void workload__init(struct workload *w)
{
	memset(w, 0, sizeof(*w));
	w->go_fd = w->err_fd = -1;
}

static char *path_lookup(const char *cmd)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *found = NULL;

	if (strchr(cmd, '/'))
		return realpath(cmd, NULL);
	copy = xstrdup(path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", dir, cmd);

		if (access(p, X_OK) == 0)
			found = realpath(p, NULL);
		free(p);
	}
	free(copy);
	return found;
}

char *workload__elf_path(const char *cmd)
{
	unsigned char magic[SELFMAG];
	char *bin = cmd ? path_lookup(cmd) : NULL;
	int fd = bin ? open(bin, O_RDONLY | O_CLOEXEC) : -1;
	bool elf = fd >= 0 && read(fd, magic, SELFMAG) == SELFMAG && !memcmp(magic, ELFMAG, SELFMAG);

	if (fd >= 0)
		close(fd);
	if (!elf) {
		free(bin);
		return NULL;
	}
	return bin;
}

int workload__prepare(struct workload *w, const char *const *argv, const sigset_t *orig,
		      bool stdout_to_stderr)
{
	int go[2], err[2];

	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		pr_err("cannot create pipes for the workload: %s\n", strerror(errno));
		return -1;
	}
	fflush(NULL);
	w->pid = fork();
	if (w->pid < 0) {
		pr_err("cannot fork the workload: %s\n", strerror(errno));
		return -1;
	}
	if (w->pid == 0) {
		char c;
		int e;

		sigprocmask(SIG_SETMASK, orig, NULL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		close(go[1]);
		close(err[0]);
		if (stdout_to_stderr)
			dup2(2, 1);
		prctl(PR_SET_NAME, "perf-exec", 0, 0, 0);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], (char *const *)argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	w->go_fd = go[1];
	w->err_fd = err[0];
	return 0;
}

int workload__start(struct workload *w)
{
	char c = 0;
	int e = 0;
	ssize_t n;

	if (write(w->go_fd, &c, 1) != 1)
		e = errno ? errno : EPIPE;
	close(w->go_fd);
	w->go_fd = -1;
	if (e)
		return e;
	do
		n = read(w->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	return n == sizeof(e) ? e : 0;
}

void workload__reap(struct workload *w, bool kill_it)
{
	if (w->pid <= 0 || w->reaped)
		return;
	if (kill_it && waitpid(w->pid, &w->status, WNOHANG) == w->pid) {
		w->reaped = true;
		return;
	}
	if (kill_it)
		kill(w->pid, SIGTERM);
	while (waitpid(w->pid, &w->status, 0) < 0 && errno == EINTR)
		;
	w->reaped = true;
}

void workload__abort(struct workload *w)
{
	if (w->go_fd >= 0)
		close(w->go_fd);   /* the child sees EOF and exits */
	w->go_fd = -1;
	if (w->err_fd >= 0)
		close(w->err_fd);
	w->err_fd = -1;
	if (w->pid > 0 && !w->reaped)
		workload__reap(w, true);
}

int workload__exit_code(const struct workload *w)
{
	if (WIFEXITED(w->status))
		return WEXITSTATUS(w->status);
	if (WIFSIGNALED(w->status))
		return 128 + WTERMSIG(w->status);
	return 0;
}
