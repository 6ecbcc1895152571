/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_SDT_PID_H
#define PERF_UTIL_SDT_PID_H

/*
 * SDT events of running processes (perf record -e sdt_P:E -p PID, -a):
 * found in the files the processes map, wherever their root is, instead of
 * only in the probe cache. A containerised program's binary exists only
 * in the container's root; its path there means nothing, or another file,
 * on the host.
 *
 * Each executable file mapping of /proc/PID/maps is opened inside the
 * process's root with no symlink on the way (util/namespaces.h), and must
 * be the very inode the mapping shows (device and inode number). Its SDT
 * notes are read from that descriptor, it is added to the build-id cache
 * by build-id when no entry has that build-id yet (under its name inside
 * the root), and its uprobes are placed on /proc/PID/root/<path>: a path
 * the host kernel resolves into the container's root, and, as it has no
 * symlink there, to that inode. A copy whose path has a symlink (or that
 * is no longer the mapped file) is not probed, with a warning.
 */
#include <stdbool.h>
#include <sys/types.h>
#include "sdt-record.h"

/*
 * The uprobes of the spec "%PROV:NAME" or "sdt_PROV:NAME" (globs; other
 * specs give 0) in the files mapped by the processes of @pids (a comma
 * separated list, as -p takes it), or by every process when @pids is NULL. One uprobe set
 * per file (inode), however many processes map it. Returns the count (0 =
 * no match), -1 on error; @out is filled either way (sdt_sites__exit).
 */
int sdt_pid__resolve(const char *spec, const char *pids, struct sdt_sites *out);

/*
 * perf probe -x /proc/PID/root/PATH (or --target-ns=PID -x PATH): PID and
 * PATH of such a target; 0, or -1 when it is not one.
 */
int sdt_pid__split_target(const char *target, pid_t *pid, const char **path);

/*
 * The same as sdt_pid__resolve for one file named inside a process's root
 * (the target above, which need not be mapped yet): opened there with no
 * symlink on the way, and probed through that path. @extra_args are
 * appended to every line. The count, -1 with a message.
 */
int sdt_pid__resolve_target(const char *spec, const char *target, const char *extra_args,
			    struct sdt_sites *out);

/*
 * perf buildid-cache --target-ns=PID -a PATH: the file read inside PID's
 * root (symlinks resolved there) and cached by build-id under PATH, with
 * its SDT notes, when no entry has that build-id yet. 0 or -1.
 */
int sdt_pid__cache_target(const char *cache_root, const char *target, char bid[41]);

#endif
