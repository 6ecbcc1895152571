// SPDX-License-Identifier: MIT
/*
 * perf record's copy of the JIT files of containerised processes, and
 * the reader of that copy (see jit-save.h for the layout).
 *
 * The files are taken as an open descriptor the moment a record names
 * them: the runtime keeps appending, and the container (with its /tmp)
 * may be gone by the end of the recording. The copy is made at the end,
 * from the descriptor, so it holds everything written until then.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "debug.h"
#include "jit-inject.h"
#include "jit-save.h"
#include "machine.h"
#include "namespaces.h"
#include "strbuf.h"
#include "util.h"

/* descriptors held at once; a fleet of JVMs in containers is far below this */
#define MAX_HELD 512

struct held {
	int fd;
	bool is_map;
	pid_t pid, nspid;
	char *inner;                  /* the path as the process named it */
};

struct js_proc {
	struct ns_proc ns;
	bool contained;
	bool gone;                    /* its /proc entry could not be read */
	bool map_failed;              /* said so already */
	int map_fd;
	unsigned map_tries;
};

struct jit_save {
	struct js_proc *procs;
	size_t nr_procs, cap_procs;
	struct held *held;
	size_t nr_held, cap_held;
	char **failed;                /* "pid P: PATH: reason", for the summary */
	size_t nr_failed, cap_failed;
};

struct jit_save *jit_save__new(void)
{
	return xzalloc(sizeof(struct jit_save));
}

void jit_save__delete(struct jit_save *js)
{
	if (!js)
		return;
	for (size_t i = 0; i < js->nr_held; i++) {
		close(js->held[i].fd);
		free(js->held[i].inner);
	}
	for (size_t i = 0; i < js->nr_failed; i++)
		free(js->failed[i]);
	free(js->failed);
	free(js->held);
	free(js->procs);
	free(js);
}

static struct js_proc *find_proc(struct jit_save *js, pid_t pid)
{
	struct js_proc *p;

	for (size_t i = 0; i < js->nr_procs; i++)
		if (js->procs[i].ns.pid == pid)
			return &js->procs[i];
	if (js->nr_procs == js->cap_procs) {
		js->cap_procs = js->cap_procs ? js->cap_procs * 2 : 64;
		js->procs = xrealloc(js->procs, js->cap_procs * sizeof(*js->procs));
	}
	p = &js->procs[js->nr_procs++];
	memset(p, 0, sizeof(*p));
	p->map_fd = -1;
	if (ns_proc__read(pid, &p->ns)) {
		p->ns.pid = pid;
		p->gone = true;
	} else {
		p->contained = ns_proc__contained(&p->ns);
	}
	return p;
}

static void note_failure(struct jit_save *js, const struct js_proc *p, const char *path, int err)
{
	char *msg = xasprintf("pid %d: %s: %s%s", (int)p->ns.pid, path, strerror(err),
			      err == ELOOP ? " (a symlink: refused)" : err == EINVAL ? " (not a regular file)" : "");

	pr_warning("perf record: cannot take %s\n", msg);
	*ARRAY_PUSH(js->failed, js->nr_failed, js->cap_failed) = msg;
}

static void hold(struct jit_save *js, const struct js_proc *p, int fd, bool is_map, const char *inner)
{
	*ARRAY_PUSH(js->held, js->nr_held, js->cap_held) = (struct held){ fd, is_map, p->ns.pid, p->ns.nspid, xstrdup(inner) };
}

static void take_map(struct jit_save *js, struct js_proc *p)
{
	char path[64];
	int fd;

	if (p->map_fd >= 0 || js->nr_held >= MAX_HELD)
		return;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)p->ns.nspid);
	fd = ns_proc__open(&p->ns, path);
	if (fd < 0) {
		/* not written yet is normal early on; anything else is worth saying */
		if (errno != ENOENT && !p->map_failed) {
			note_failure(js, p, path, errno);
			p->map_failed = true;
		}
		p->map_tries++;
		return;
	}
	p->map_fd = fd;
	hold(js, p, fd, true, path);
}

void jit_save__event(struct jit_save *js, const union perf_event *ev)
{
	const char *name;
	struct js_proc *p;
	uint32_t pid;
	size_t off;
	long n;

	if (ev->header.type == PERF_RECORD_MMAP2)
		off = sizeof(struct perf_record_mmap2);
	else if (ev->header.type == PERF_RECORD_MMAP)
		off = sizeof(struct perf_record_mmap);
	else
		return;
	if ((ev->header.misc & PERF_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER ||
	    ev->header.size <= off || !memchr((const char *)ev + off, 0, ev->header.size - off))
		return;
	name = (const char *)ev + off;
	pid = ev->mmap.pid;
	if ((int32_t)pid <= 0)
		return;
	n = jit_inject__dump_number(name);
	if (n < 0 && !machine__is_anon_name(name))
		return;
	p = find_proc(js, (pid_t)pid);
	if (!p->contained || p->gone)
		return;
	if (n < 0) {
		take_map(js, p);
		return;
	}
	if (n != p->ns.nspid)
		return;
	for (size_t i = 0; i < js->nr_held; i++)
		if (!js->held[i].is_map && !strcmp(js->held[i].inner, name))
			return;    /* mapped again, or by another thread */
	if (js->nr_held < MAX_HELD) {
		/* the mapped object itself; its path may be ours or the container's view */
		int fd = ns_proc__open_mapped(&p->ns, ev->mmap.start, ev->mmap.start + ev->mmap.len,
					      strrchr(name, '/') + 1);

		if (fd < 0)
			fd = ns_proc__open(&p->ns, name);

		if (fd < 0)
			note_failure(js, p, name, errno);
		else
			hold(js, p, fd, false, name);
	}
}

/* ---- the copy ---- */

/* empties and removes a directory of plain files we made; nothing is followed */
static int remove_flat_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct dirent *de;
	DIR *d;

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(fd, de->d_name, 0);
	closedir(d);
	return rmdir(dir);
}

static int copy_fd(int from, int dirfd, const char *name)
{
	char buf[65536];
	off_t off = 0;
	int to = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (to < 0)
		return -1;
	for (;;) {
		ssize_t n = pread(from, buf, sizeof(buf), off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		if (writen(to, buf, (size_t)n) < 0)
			goto fail;
		off += n;
	}
	return close(to);
fail:
	close(to);
	return -1;
}

char *jit_saved__dir_of(const char *data_path)
{
	return xasprintf("%s.jit", data_path);
}

int jit_save__finish(struct jit_save *js, const char *output, char *summary, size_t len)
{
	size_t dumps = 0, maps = 0, nprocs = 0;
	char *dir, *old, *idx = NULL;
	size_t idx_len = 0;
	FILE *f;
	struct stat st;
	int dirfd, ret = 0;

	summary[0] = '\0';
	/* a map written after the last code mapping, or late */
	for (size_t i = 0; i < js->nr_procs; i++) {
		struct js_proc *p = &js->procs[i];

		if (p->contained && !p->gone && p->map_fd < 0 && p->map_tries)
			take_map(js, p);
	}
	if (!js->nr_held) {
		if (js->nr_failed)
			snprintf(summary, len, "[ perf record: no JIT file of a container saved; could not take %s ]",
				 js->failed[0]);
		return js->nr_failed ? -1 : 0;
	}
	/* a pipe has no place beside it: inject or report reading the pipe live read the roots */
	if (!output) {
		snprintf(summary, len, "[ perf record: pipe mode: %zu JIT file%s of processes in other namespaces "
			 "not saved (record to a file with -o to keep them; perf inject --jit and perf report read "
			 "them in the containers while the processes run) ]", js->nr_held, js->nr_held == 1 ? "" : "s");
		return 0;
	}
	dir = jit_saved__dir_of(output);
	old = xasprintf("%s.old", dir);
	if (!lstat(dir, &st)) {
		if (!S_ISDIR(st.st_mode) || remove_flat_dir(old) || rename(dir, old)) {
			snprintf(summary, len, "[ perf record: %s is in the way (not a directory perf made?): "
				 "the JIT files of containers were not saved ]", dir);
			free(old);
			free(dir);
			return -1;
		}
	}
	if (mkdir(dir, 0755) ||
	    (dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		snprintf(summary, len, "[ perf record: cannot create %s: %s ]", dir, strerror(errno));
		free(old);
		free(dir);
		return -1;
	}
	f = open_memstream(&idx, &idx_len);
	fprintf(f, "# perf record: JIT files of recorded processes in other namespaces\n");
	for (size_t i = 0; i < js->nr_procs; i++) {
		const struct js_proc *p = &js->procs[i];

		if (p->contained) {
			fprintf(f, "proc %d %d\n", (int)p->ns.pid, (int)p->ns.nspid);
			nprocs++;
		}
	}
	for (size_t i = 0; i < js->nr_held; i++) {
		const struct held *h = &js->held[i];
		char name[96];

		if (h->is_map)
			snprintf(name, sizeof(name), "%d-perf-%d.map", (int)h->pid, (int)h->nspid);
		else
			snprintf(name, sizeof(name), "%d-%zu-%s", (int)h->pid, i, strrchr(h->inner, '/') + 1);
		if (copy_fd(h->fd, dirfd, name)) {
			pr_warning("perf record: cannot save %s of pid %d in %s: %s\n", h->inner, (int)h->pid, dir,
				   strerror(errno));
			ret = -1;
			continue;
		}
		if (h->is_map) {
			fprintf(f, "map %d %s\n", (int)h->pid, name);
			maps++;
		} else {
			fprintf(f, "dump %d %s %s\n", (int)h->pid, name, h->inner);
			dumps++;
		}
	}
	fclose(f);
	{
		int ifd = openat(dirfd, "index", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);

		if (ifd < 0 || writen(ifd, idx, idx_len) < 0 || close(ifd)) {
			snprintf(summary, len, "[ perf record: cannot write %s/index: %s ]", dir, strerror(errno));
			ret = -1;
		}
	}
	if (!summary[0])
		snprintf(summary, len, "[ perf record: saved %zu jitdump%s and %zu perf map%s of %zu process%s "
			 "in other namespaces to %s/%s%s ]",
			 dumps, dumps == 1 ? "" : "s", maps, maps == 1 ? "" : "s", nprocs, nprocs == 1 ? "" : "es", dir,
			 js->nr_failed ? "; could not take " : "", js->nr_failed ? js->failed[0] : "");
	close(dirfd);
	free(idx);
	free(old);
	free(dir);
	return ret;
}

/* ---- reading ---- */

struct jit_saved *jit_saved__load(const char *data_path)
{
	char *real = realpath(data_path, NULL), *dir, *text, *line, *save = NULL, *ipath;
	struct jit_saved *s;

	if (!real)
		return NULL;
	dir = jit_saved__dir_of(real);
	free(real);
	ipath = xasprintf("%s/index", dir);
	text = read_file(ipath, NULL);
	free(ipath);
	if (!text) {
		free(dir);
		return NULL;
	}
	s = xzalloc(sizeof(*s));
	s->dir = dir;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char kind[8], file[256];
		int pid, nspid, off = 0;

		if (sscanf(line, "proc %d %d", &pid, &nspid) == 2) {
			pid_t (*pr)[2] = ARRAY_PUSH(s->procs, s->nr_procs, s->cap_procs);

			(*pr)[0] = pid;
			(*pr)[1] = nspid;
		} else if (sscanf(line, "%7s %d %255s %n", kind, &pid, file, &off) == 3 &&
			   (!strcmp(kind, "map") || (!strcmp(kind, "dump") && off && line[off] == '/')) &&
			   !strchr(file, '/')) {
			struct jit_saved_file *e;

			e = ARRAY_PUSH(s->files, s->nr_files, s->cap_files);
			e->pid = pid;
			e->is_map = kind[0] == 'm';
			e->path = xasprintf("%s/%s", dir, file);
			e->inner = e->is_map ? NULL : xstrdup(line + off);
		} else if (line[0] != '#') {
			pr_debug("%s/index: bad line skipped: %.60s\n", dir, line);
		}
	}
	free(text);
	return s;
}

void jit_saved__delete(struct jit_saved *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_files; i++) {
		free(s->files[i].path);
		free(s->files[i].inner);
	}
	free(s->files);
	free(s->procs);
	free(s->dir);
	free(s);
}

pid_t jit_saved__nspid(const struct jit_saved *s, pid_t pid)
{
	for (size_t i = 0; s && i < s->nr_procs; i++)
		if (s->procs[i][0] == pid)
			return s->procs[i][1];
	return -1;
}

const struct jit_saved_file *jit_saved__find(const struct jit_saved *s, pid_t pid, bool map, const char *inner)
{
	for (size_t i = 0; s && i < s->nr_files; i++) {
		const struct jit_saved_file *e = &s->files[i];

		if (e->pid == pid && e->is_map == map && (map || !inner || !strcmp(e->inner, inner)))
			return e;
	}
	return NULL;
}
