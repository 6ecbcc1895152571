// SPDX-License-Identifier: MIT
/*
 * Processes in other pid/mount namespaces, seen from perf's (see
 * namespaces.h). Only /proc is read; nothing here enters a namespace.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "namespaces.h"
#include "util.h"

static bool same_ns(pid_t pid, const char *ns)
{
	char path[64];
	struct stat a, b;

	snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)pid, ns);
	if (stat(path, &a))
		return true;    /* cannot tell: assume ours, the paths are then tried as they are */
	snprintf(path, sizeof(path), "/proc/self/ns/%s", ns);
	if (stat(path, &b))
		return true;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* field 22 of /proc/PID/stat; the comm (field 2) may hold spaces and ')' */
static int read_start(pid_t pid, unsigned long long *start)
{
	char path[64], *s, *p;
	int field = 3;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	s = read_file(path, NULL);
	if (!s)
		return -1;
	p = strrchr(s, ')');
	if (!p) {
		free(s);
		errno = EINVAL;
		return -1;
	}
	for (p++; *p && field < 22; field++) {
		while (*p == ' ')
			p++;
		while (*p && *p != ' ')
			p++;
	}
	*start = strtoull(p, NULL, 10);
	free(s);
	return 0;
}

/* the second (effective) field of a Uid:/Gid: line of /proc/PID/status, -1 if absent */
static unsigned long effective_id(const char *status, const char *key)
{
	const char *line = strstr(status, key);
	char *q;

	if (!line)
		return (unsigned long)-1;
	strtoul(line + strlen(key), &q, 10);     /* real */
	return strtoul(q, NULL, 10);
}

int ns_proc__read(pid_t pid, struct ns_proc *p)
{
	char path[64], *s, *line;

	memset(p, 0, sizeof(*p));
	p->pid = p->nspid = pid;
	if (read_start(pid, &p->start))
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	s = read_file(path, NULL);
	if (!s)
		return -1;
	line = strstr(s, "\nNSpid:");
	if (line) {
		/* outermost first: the last field is the pid inside its own namespace */
		char *q = line + 7, *end;
		int levels = 0;

		for (;;) {
			long v = strtol(q, &end, 10);

			if (end == q)
				break;
			p->nspid = (pid_t)v;
			levels++;
			q = end;
		}
		p->other_pidns = levels > 1;
	}
	p->uid = (uid_t)effective_id(s, "\nUid:");
	p->gid = (gid_t)effective_id(s, "\nGid:");
	free(s);
	p->other_mntns = !same_ns(pid, "mnt");
	return 0;
}

/*
 * fd, opened through p's /proc entry, if p is still the process there (the
 * pid may have been reused meanwhile) and fd a regular file; else -1
 */
static int checked_fd(const struct ns_proc *p, int fd)
{
	unsigned long long now;
	struct stat st;
	int err = 0;

	if (read_start(p->pid, &now) || now != p->start)
		err = ESRCH;
	else if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		err = EINVAL;
	if (err) {
		close(fd);
		errno = err;
		return -1;
	}
	/* O_NONBLOCK only kept a FIFO from blocking the open */
	fcntl(fd, F_SETFL, 0);
	return fd;
}

/* path opened inside p's root with the openat2 resolve flags given (see ns_proc__open) */
static int open_in_root(const struct ns_proc *p, const char *path, unsigned long long resolve)
{
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK,
		.resolve = resolve,
	};
	unsigned long long start;
	char root[64];
	int rootfd, fd, err;

	snprintf(root, sizeof(root), "/proc/%d/root", (int)p->pid);
	rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -1;
	/* the pid may have been reused since p was read: the root would be another's */
	if (read_start(p->pid, &start) || start != p->start) {
		close(rootfd);
		errno = ESRCH;
		return -1;
	}
	fd = (int)syscall(SYS_openat2, rootfd, path, &how, sizeof(how));
	err = errno;
	close(rootfd);
	if (fd < 0) {
		errno = err;
		return -1;
	}
	return checked_fd(p, fd);
}

int ns_proc__open(const struct ns_proc *p, const char *path)
{
	/* '..' and absolute symlinks stay inside the root; no /proc magic links */
	return open_in_root(p, path, RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
}

int ns_proc__open_nosymlinks(const struct ns_proc *p, const char *path)
{
	return open_in_root(p, path, RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
}

char *ns_proc__path_in_root(const struct ns_proc *p, const char *path)
{
	char link[64], root[4096];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d/root", (int)p->pid);
	n = readlink(link, root, sizeof(root) - 1);
	if (n <= 1 || root[0] != '/')
		return xstrdup(path);
	root[n] = 0;
	/* a chroot in a mount namespace we share: maps name its files from our root */
	if (!strncmp(path, root, (size_t)n) && path[n] == '/')
		return xstrdup(path + n);
	return xstrdup(path);
}

int ns_proc__open_mapped(const struct ns_proc *p, uint64_t start, uint64_t end, const char *base)
{
	char path[96], target[4096];
	size_t bl = strlen(base);
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/map_files/%llx-%llx", (int)p->pid, (unsigned long long)start,
		 (unsigned long long)end);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -1;
	target[n] = 0;
	/* the mapping there now must still be the file the record named */
	if ((size_t)n <= bl || target[n - bl - 1] != '/' || strcmp(target + n - bl, base)) {
		errno = ENOENT;
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	return checked_fd(p, fd);
}

int ns_proc__start_time(const struct ns_proc *p, double *secs)
{
	char *s = read_file("/proc/stat", NULL), *b;
	long tck = sysconf(_SC_CLK_TCK);

	if (!s)
		return -1;
	b = strstr(s, "\nbtime ");
	if (!b || tck <= 0) {
		free(s);
		return -1;
	}
	*secs = (double)strtoull(b + 7, NULL, 10) + (double)p->start / (double)tck;
	free(s);
	return 0;
}
