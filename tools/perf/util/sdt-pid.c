// SPDX-License-Identifier: MIT
/*
 * SDT events found in the files running processes map, through their
 * roots (see sdt-pid.h). Reads /proc only; the files are read through
 * descriptors opened inside the process's root, never by a host path.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "build-id.h"
#include "build-id-cache.h"
#include "debug.h"
#include "event.h"
#include "namespaces.h"
#include "probe-cache.h"
#include "sdt-cache.h"
#include "sdt-pid.h"
#include "sdt.h"
#include "strbuf.h"
#include "util.h"

struct inode_id {
	dev_t dev;
	ino_t ino;
};

struct sdt_pid_ctx {
	char *group, *event;         /* the spec's globs (group NULL = any) */
	char *cache_root;
	bool named_pids;             /* -p: say why a file is not probed */
	const char *extra_args;      /* perf probe's user arguments, appended */
	struct inode_id *seen;       /* files already looked at: one uprobe set per inode */
	size_t nr_seen, cap_seen;
	struct sdt_sites *out;
};

static bool seen_before(struct sdt_pid_ctx *c, dev_t dev, ino_t ino)
{
	for (size_t i = 0; i < c->nr_seen; i++)
		if (c->seen[i].dev == dev && c->seen[i].ino == ino)
			return true;
	*ARRAY_PUSH(c->seen, c->nr_seen, c->cap_seen) = (struct inode_id){ dev, ino };
	return false;
}

static bool note_matches(const struct sdt_pid_ctx *c, const struct sdt_note *n)
{
	char *g = xasprintf("sdt_%s", n->provider);
	bool ok = (!c->group || !fnmatch(c->group, g, 0)) && !fnmatch(c->event, n->name, 0);

	free(g);
	return ok;
}

/*
 * The file by build-id in the cache, under its name inside the root, when
 * no entry has that build-id yet: report and annotate find it there once
 * the container is gone. Read from the descriptor, not by path.
 */
static void cache_file(struct sdt_pid_ctx *c, const char *name, const char *fdpath,
		       const char *bid, const struct sdt_notes *notes)
{
	uint8_t id[BUILD_ID_MAX];
	int n = build_id__parse(bid, id, sizeof(id));
	char *orig = n > 0 ? bidcache__origname(c->cache_root, id, (size_t)n) : NULL, *file;
	struct probe_cache pc = { 0 };

	if (n <= 0 || orig) {
		free(orig);
		return;
	}
	if (bidcache__add_file(c->cache_root, name, bid, "elf", fdpath) < 0)
		return;
	file = bidcache__probes_path(c->cache_root, name, bid);
	probe_cache__set_sdt(&pc, notes, name);
	if (probe_cache__write(&pc, file) < 0)
		pr_warning("Warning: cannot write the probe cache of %s (%s)\n", name, bid);
	probe_cache__exit(&pc);
	free(file);
}

static void add_sites(struct sdt_pid_ctx *c, const struct sdt_notes *notes, const char *probe_path,
		      const char *bid)
{
	for (size_t i = 0; i < notes->nr; i++) {
		const struct sdt_note *n = &notes->v[i];
		struct sdt_site *s;

		if (!note_matches(c, n))
			continue;
		s = ARRAY_PUSH(c->out->v, c->out->nr, c->out->cap);
		memset(s, 0, sizeof(*s));
		s->line = sdt_note__uprobe_line(n, probe_path);
		if (c->extra_args && *c->extra_args) {
			char *l = xasprintf("%s %s", s->line, c->extra_args);

			free(s->line);
			s->line = l;
		}
		s->group = xasprintf("sdt_%s", n->provider);
		s->event = xstrdup(n->name);
		s->path = xstrdup(probe_path);
		snprintf(s->bid, sizeof(s->bid), "%s", bid);
	}
}

/* fd of the file the mapping shows, by its name inside p's root with no symlink walked; -1 */
static int open_mapped(const struct ns_proc *p, const char *name, dev_t dev, ino_t ino)
{
	struct stat st;
	int fd = ns_proc__open_nosymlinks(p, name);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || st.st_dev != dev || st.st_ino != ino) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}

/* the events of the file open as fd (NAME inside its root), probed as probe_path; the count */
static int use_file(struct sdt_pid_ctx *c, int fd, const char *name, const char *probe_path)
{
	char fdpath[64], bid[41] = "";
	struct sdt_notes notes = { 0 };
	size_t before = c->out->nr;
	bool any = false;

	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	if (sdt__scan_file(fdpath, &notes) == 0)
		for (size_t i = 0; i < notes.nr && !any; i++)
			any = note_matches(c, &notes.v[i]);
	if (any) {
		if (bidcache__file_build_id(fdpath, bid) == 0)
			cache_file(c, name, fdpath, bid, &notes);
		add_sites(c, &notes, probe_path, bid);
	}
	sdt_notes__exit(&notes);
	return (int)(c->out->nr - before);
}

/*
 * The mapped object itself, /proc/PID/map_files/START-END (CAP_SYS_ADMIN):
 * when its name inside the root walks a symlink (or is another file now),
 * that name would send the kernel elsewhere; this one cannot. fd or -1.
 */
static int open_map_files(const struct ns_proc *p, const char *name, uint64_t start, uint64_t end,
			  dev_t dev, ino_t ino)
{
	const char *base = strrchr(name, '/');
	struct stat st;
	int fd = ns_proc__open_mapped(p, start, end, base ? base + 1 : name);

	if (fd >= 0 && (fstat(fd, &st) || st.st_dev != dev || st.st_ino != ino)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static void look_at_file(struct sdt_pid_ctx *c, const struct ns_proc *p, const char *maps_path,
			 const struct inode_id *id, uint64_t start, uint64_t end)
{
	char *name = ns_proc__path_in_root(p, maps_path), *probe_path = NULL;
	int fd = open_mapped(p, name, id->dev, id->ino), err = errno;

	/* a mount namespace of its own: the maps path may already be the one inside */
	if (fd < 0 && strcmp(name, maps_path) && (fd = open_mapped(p, maps_path, id->dev, id->ino)) >= 0) {
		free(name);
		name = xstrdup(maps_path);
	}
	/* the kernel resolves /proc/PID/root/NAME into the root: that inode, as no symlink is on the way */
	if (fd >= 0)
		probe_path = ns_proc__contained(p) ? xasprintf("/proc/%d/root%s", (int)p->pid, name) : xstrdup(name);
	else if ((fd = open_map_files(p, name, start, end, id->dev, id->ino)) >= 0)
		probe_path = xasprintf("/proc/%d/map_files/%" PRIx64 "-%" PRIx64, (int)p->pid, start, end);
	if (fd < 0) {
		if (c->named_pids)
			pr_warning("Warning: pid %d: %s not looked at for SDT events: %s\n", (int)p->pid,
				   maps_path, err == ELOOP ? "a symlink is in its path inside the process's root" :
				   err == ESTALE ? "it is no longer the mapped file" : strerror(err));
		free(name);
		return;
	}
	use_file(c, fd, name, probe_path);
	close(fd);
	free(probe_path);
	free(name);
}

/* every executable file mapping of pid */
static void look_at_pid(struct sdt_pid_ctx *c, pid_t pid)
{
	char path[64], *maps, *line, *save = NULL;
	struct ns_proc p;

	if (ns_proc__read(pid, &p) < 0) {
		if (c->named_pids)
			pr_warning("Warning: pid %d: %s\n", (int)pid, strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	maps = read_file(path, NULL);
	for (line = maps ? strtok_r(maps, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long start, end, off, ino;
		unsigned maj, min;
		char perms[8];
		int pos = 0;
		const char *file;

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &off, &maj, &min,
			   &ino, &pos) < 7 || !pos)
			continue;
		file = line + pos;
		if (strlen(perms) < 3 || perms[2] != 'x' || !ino || file[0] != '/' ||
		    strstr(file, " (deleted)"))
			continue;
		if (!seen_before(c, makedev(maj, min), (ino_t)ino)) {
			struct inode_id id = { makedev(maj, min), (ino_t)ino };

			look_at_file(c, &p, file, &id, start, end);
		}
	}
	free(maps);
}

static void ctx_init(struct sdt_pid_ctx *c, const char *spec, struct sdt_sites *out, char **at)
{
	memset(c, 0, sizeof(*c));
	memset(out, 0, sizeof(*out));
	c->out = out;
	cached_event__split(spec, &c->group, &c->event, at);
	c->cache_root = bidcache__root(NULL);
}

static void ctx_exit(struct sdt_pid_ctx *c, char *at)
{
	free(c->seen);
	free(c->cache_root);
	free(c->group);
	free(c->event);
	free(at);
}

int sdt_pid__split_target(const char *target, pid_t *pid, const char **path)
{
	int n = 0;
	long v;

	if (sscanf(target, "/proc/%ld/root%n", &v, &n) < 1 || !n || target[n] != '/' || v <= 0)
		return -1;
	*pid = (pid_t)v;
	*path = target + n;
	return 0;
}

int sdt_pid__resolve_target(const char *spec, const char *target, const char *extra_args,
			    struct sdt_sites *out)
{
	struct sdt_pid_ctx c;
	struct ns_proc p;
	const char *path;
	char *at, *probe_path;
	pid_t pid;
	int fd, n = -1;

	ctx_init(&c, spec, out, &at);
	c.extra_args = extra_args;
	if (sdt_pid__split_target(target, &pid, &path) < 0 || ns_proc__read(pid, &p) < 0) {
		pr_err("%s: no such process root\n", target);
	} else if ((fd = ns_proc__open_nosymlinks(&p, path)) < 0) {
		pr_err("%s: %s\n", target, errno == ELOOP ?
		       "a symlink is in its path inside the process's root: give the path it resolves to there" :
		       strerror(errno));
	} else {
		/* no symlink inside the root: the kernel resolves the target to this very file */
		probe_path = ns_proc__contained(&p) ? xstrdup(target) : xstrdup(path);
		n = use_file(&c, fd, path, probe_path);
		free(probe_path);
		close(fd);
	}
	ctx_exit(&c, at);
	return n;
}

int sdt_pid__cache_target(const char *cache_root, const char *target, char bid[41])
{
	struct sdt_pid_ctx c = { 0 };
	struct sdt_notes notes = { 0 };
	struct ns_proc p;
	const char *path;
	char fdpath[64];
	pid_t pid;
	int fd, ret = -1;

	if (sdt_pid__split_target(target, &pid, &path) < 0 || ns_proc__read(pid, &p) < 0) {
		pr_err("Couldn't add %s: no such process root\n", target);
		return -1;
	}
	fd = ns_proc__open(&p, path);
	if (fd < 0) {
		pr_err("Couldn't add %s: %s\n", target, errno == ELOOP ? "a symlink inside the process's root" :
		       strerror(errno));
		return -1;
	}
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	c.cache_root = (char *)cache_root;
	if (bidcache__file_build_id(fdpath, bid) == 0 && sdt__scan_file(fdpath, &notes) == 0) {
		cache_file(&c, path, fdpath, bid, &notes);
		ret = 0;
	}
	sdt_notes__exit(&notes);
	close(fd);
	return ret;
}

int sdt_pid__resolve(const char *spec, const char *pids, struct sdt_sites *out)
{
	struct sdt_pid_ctx c;
	char *at;

	/* only SDT names: "cycles:u" or a missing tracepoint is not worth reading every mapped file */
	if (spec[0] != '%' && strncmp(spec, "sdt_", 4)) {
		memset(out, 0, sizeof(*out));
		return 0;
	}
	ctx_init(&c, spec, out, &at);
	c.named_pids = pids != NULL;
	if (pids) {
		char *copy = xstrdup(pids), *save = NULL, *end;

		for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			long v = strtol(t, &end, 10);

			if (end != t && !*end && v > 0)
				look_at_pid(&c, (pid_t)v);
		}
		free(copy);
	} else {
		DIR *d = opendir("/proc");
		struct dirent *de;

		while (d && (de = readdir(d)))
			if (isdigit((unsigned char)de->d_name[0]))
				look_at_pid(&c, (pid_t)atoi(de->d_name));
		if (d)
			closedir(d);
	}
	ctx_exit(&c, at);
	return (int)out->nr;
}
