/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_NAMESPACES_H
#define PERF_UTIL_NAMESPACES_H

/*
 * A recorded process as its container sees it. Records carry pids of
 * perf's own pid namespace ("host pids"), while a containerised runtime
 * names its files after its pid inside its namespace (jit-<nspid>.dump,
 * /tmp/perf-<nspid>.map) and writes them under its own root. While the
 * process lives, /proc/PID/status (NSpid) and /proc/PID/root tell both.
 *
 * Files found there are untrusted: they are opened with every symlink
 * resolved inside the process's root (openat2 RESOLVE_IN_ROOT), a symlink
 * as the last component refused, and only regular files accepted.
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct ns_proc {
	pid_t pid;                    /* in our pid namespace */
	pid_t nspid;                  /* in its innermost pid namespace (== pid when it is ours) */
	uid_t uid;                    /* effective uid */
	gid_t gid;                    /* effective gid */
	bool other_pidns;             /* NSpid has more than one level */
	bool other_mntns;             /* /proc/PID/ns/mnt differs from ours */
	unsigned long long start;     /* start time, clock ticks after boot (/proc/PID/stat field 22) */
};

/* 0, or -1 when the process is gone or its /proc entry unreadable (errno set) */
int ns_proc__read(pid_t pid, struct ns_proc *p);

/* its start as wall-clock seconds since the epoch (boot time + start ticks); 0 or -1 */
int ns_proc__start_time(const struct ns_proc *p, double *secs);

/* in another pid or mount namespace than perf: its paths mean something else here */
static inline bool ns_proc__contained(const struct ns_proc *p)
{
	return p->other_pidns || p->other_mntns;
}

/*
 * Opens path (absolute, as the process sees it) read-only inside the
 * process's root, symlinks resolved within that root, the last component
 * not a symlink, only a regular file. Checks that the pid still names the
 * process p described (same start time). Returns the fd or -1 with errno
 * (ELOOP for a symlink, EINVAL for a non-regular file, ESRCH if gone).
 */
int ns_proc__open(const struct ns_proc *p, const char *path);

/*
 * The same, but with no symlink at all on the way (ELOOP): the path then
 * names the file for anyone resolving it from the process's root, e.g.
 * the kernel given /proc/PID/root/<path>.
 */
int ns_proc__open_nosymlinks(const struct ns_proc *p, const char *path);

/*
 * A path of /proc/PID/maps as the process names it inside its root: maps
 * name files from the reader's root, so a chroot in our mount namespace
 * shows its root's prefix, which is taken off. malloc'ed.
 */
char *ns_proc__path_in_root(const struct ns_proc *p, const char *path);

/*
 * The file mapped at [start, end) in the process, through
 * /proc/PID/map_files (needs CAP_SYS_ADMIN): the very object the kernel
 * reported, whatever its path says in which root, with no path walked.
 * Only a regular file whose name ends in "/base". fd or -1 with errno.
 */
int ns_proc__open_mapped(const struct ns_proc *p, uint64_t start, uint64_t end, const char *base);

#endif
