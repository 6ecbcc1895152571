// SPDX-License-Identifier: MIT
/*
 * perf archive (see archive.h): which objects a perf.data hit, and a tar of
 * their build-id cache entries. The tar is written here (ustar, with a pax
 * header for names that do not fit) rather than by tar(1) so that nothing
 * below the cache root is reached through a symlink.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "archive.h"
#include "build-id.h"
#include "build-id-cache.h"
#include "callchain.h"
#include "debug.h"
#include "dso.h"
#include "machine.h"
#include "session.h"
#include "strbuf.h"
#include "symbol-elf.h"
#include "util.h"
#include "vdso.h"

/* ---- which objects were hit ---- */

#define CTX_KERNEL ((uint64_t)-128)   /* PERF_CONTEXT_KERNEL */
#define CTX_USER   ((uint64_t)-512)   /* PERF_CONTEXT_USER */

static int hit_sample(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
		      struct perf_sample *sample, struct evsel *evsel)
{
	struct addr_location al;
	uint8_t mode = (uint8_t)sample->cpumode;

	machine__resolve(&s->machine, (int32_t)sample->pid, (int32_t)sample->tid, mode, sample->ip, &al, true);
	/* callers need their objects too, or the other machine's call graphs lose names */
	for (uint64_t i = 0; sample->callchain && i < sample->callchain->nr; i++) {
		uint64_t ip = sample->callchain->ips[i];

		if (ip == CTX_KERNEL)
			mode = PERF_RECORD_MISC_KERNEL;
		else if (ip == CTX_USER)
			mode = PERF_RECORD_MISC_USER;
		if (callchain_is_context(ip))
			continue;
		machine__resolve(&s->machine, (int32_t)sample->pid, (int32_t)sample->tid, mode, ip, &al, true);
	}
	return 0;
}

struct collect {
	struct archive_object *v;
	int nr;
	size_t alloc;
};

static void collect_hit(struct dso *dso, void *arg)
{
	struct collect *c = arg;

	if (!dso->hit || !dso->build_id_size || dso->kind == DSO_KIND_ANON || dso->kind == DSO_KIND_PERF_MAP)
		return;
	struct archive_object *o = ARRAY_PUSH(c->v, c->nr, c->alloc);

	build_id__sprintf(dso->build_id, dso->build_id_size, o->bid);
	o->name = xstrdup(dso->long_name);
}

static int cmp_objects(const void *a, const void *b)
{
	const struct archive_object *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	return r ? r : strcmp(x->bid, y->bid);
}

int archive__hit_objects(const char *data_path, struct archive_object **objs)
{
	struct perf_tool tool = { .sample = hit_sample };
	struct perf_session *s = perf_session__open(data_path);
	struct collect c = { 0 };

	*objs = NULL;
	if (!s)
		return -1;
	if (perf_session__process_events(s, &tool) < 0) {
		perf_session__delete(s);
		return -1;
	}
	dsos__for_each(&s->machine.dsos, collect_hit, &c);
	perf_session__delete(s);
	/* hash order is no order: sorted, so two runs write the same archive */
	if (c.nr)
		qsort(c.v, (size_t)c.nr, sizeof(*c.v), cmp_objects);
	*objs = c.v;
	return c.nr;
}

void archive__objects_free(struct archive_object *objs, int nr)
{
	for (int i = 0; i < nr; i++)
		free(objs[i].name);
	free(objs);
}

/* ---- the compressed output stream ---- */

struct sink {
	enum archive_compress how;
	int fd;                     /* the output file */
	int to_child;               /* bzip2's stdin (a socket: EPIPE, not SIGPIPE) */
	pid_t child;
	ZSTD_CStream *z;
	void *zbuf;
	size_t zcap;
	unsigned long long bytes;   /* uncompressed */
	int err;
};

static int sink__open(struct sink *k, int fd, enum archive_compress how)
{
	memset(k, 0, sizeof(*k));
	k->how = how;
	k->fd = fd;
	k->to_child = -1;
	if (how == ARCHIVE_ZSTD) {
		k->z = ZSTD_createCStream();
		if (!k->z || ZSTD_isError(ZSTD_CCtx_setParameter(k->z, ZSTD_c_compressionLevel, 6)) ||
		    ZSTD_isError(ZSTD_CCtx_setParameter(k->z, ZSTD_c_checksumFlag, 1))) {
			pr_err("perf archive: cannot start zstd\n");
			return -1;
		}
		k->zcap = ZSTD_CStreamOutSize();
		k->zbuf = xmalloc(k->zcap);
		return 0;
	}
	{
		int sv[2];

		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
			pr_err("perf archive: socketpair: %s\n", strerror(errno));
			return -1;
		}
		k->child = fork();
		if (k->child < 0) {
			pr_err("perf archive: fork: %s\n", strerror(errno));
			close(sv[0]);
			close(sv[1]);
			return -1;
		}
		if (k->child == 0) {
			shutdown(sv[1], SHUT_WR);
			if (dup2(sv[1], 0) < 0 || dup2(fd, 1) < 0)
				_exit(127);
			execlp("bzip2", "bzip2", "-c", (char *)NULL);
			fprintf(stderr, "perf archive: cannot run bzip2: %s (use --zstd, or install bzip2)\n",
				strerror(errno));
			_exit(127);
		}
		close(sv[1]);
		shutdown(sv[0], SHUT_RD);
		k->to_child = sv[0];
	}
	return 0;
}

static int zstd_flush(struct sink *k, const void *buf, size_t n, ZSTD_EndDirective end)
{
	ZSTD_inBuffer in = { buf, n, 0 };
	size_t left;

	do {
		ZSTD_outBuffer out = { k->zbuf, k->zcap, 0 };

		left = ZSTD_compressStream2(k->z, &out, &in, end);
		if (ZSTD_isError(left)) {
			pr_err("perf archive: zstd: %s\n", ZSTD_getErrorName(left));
			return -1;
		}
		if (out.pos && writen(k->fd, k->zbuf, out.pos) < 0) {
			pr_err("perf archive: write: %s\n", strerror(errno));
			return -1;
		}
	} while (end == ZSTD_e_end ? left != 0 : in.pos < in.size);
	return 0;
}

static int sink__write(struct sink *k, const void *buf, size_t n)
{
	const char *p = buf;

	if (k->err)
		return -1;
	k->bytes += n;
	if (k->how == ARCHIVE_ZSTD) {
		if (zstd_flush(k, buf, n, ZSTD_e_continue) < 0)
			k->err = 1;
		return k->err ? -1 : 0;
	}
	while (n) {
		ssize_t w = send(k->to_child, p, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			pr_err("perf archive: bzip2 stopped reading: %s\n", strerror(errno));
			k->err = 1;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* 0 when everything reached the file */
static int sink__close(struct sink *k)
{
	int ret = k->err ? -1 : 0, status;

	if (k->how == ARCHIVE_ZSTD) {
		if (!ret && zstd_flush(k, NULL, 0, ZSTD_e_end) < 0)
			ret = -1;
		ZSTD_freeCStream(k->z);
		free(k->zbuf);
		return ret;
	}
	if (k->to_child >= 0)
		close(k->to_child);
	if (k->child > 0) {
		while (waitpid(k->child, &status, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			pr_err("perf archive: bzip2 failed\n");
			ret = -1;
		}
	}
	return ret;
}

/* ---- tar ---- */

struct tar_hdr {
	char name[100], mode[8], uid[8], gid[8], size[12], mtime[12], chksum[8];
	char typeflag, linkname[100], magic[6], version[2], uname[32], gname[32];
	char devmajor[8], devminor[8], prefix[155], pad[12];
};

/* width-1 octal digits and a NUL (values are checked to fit by the callers) */
static void octal(char *field, size_t width, unsigned long long v)
{
	field[width - 1] = '\0';
	for (size_t i = width - 1; i-- > 0; v >>= 3)
		field[i] = (char)('0' + (v & 7));
}

/* name split into ustar prefix/name, or false when it does not fit */
static bool ustar_name(struct tar_hdr *h, const char *name)
{
	size_t len = strlen(name);

	if (len <= sizeof(h->name)) {
		memcpy(h->name, name, len);
		return true;
	}
	for (size_t p = len - 1; p > 0; p--) {
		if (name[p] != '/')
			continue;
		if (p <= sizeof(h->prefix) && len - p - 1 <= sizeof(h->name) && len - p - 1 > 0) {
			memcpy(h->prefix, name, p);
			memcpy(h->name, name + p + 1, len - p - 1);
			return true;
		}
		if (len - p - 1 > sizeof(h->name))
			return false;
	}
	return false;
}

static int tar_block(struct sink *k, struct tar_hdr *h)
{
	unsigned sum = 0;
	const unsigned char *b = (const unsigned char *)h;

	memset(h->chksum, ' ', sizeof(h->chksum));
	memcpy(h->magic, "ustar", 6);
	memcpy(h->version, "00", 2);
	for (size_t i = 0; i < sizeof(*h); i++)
		sum += b[i];
	snprintf(h->chksum, sizeof(h->chksum), "%06o", sum);
	h->chksum[7] = ' ';
	return sink__write(k, h, sizeof(*h));
}

static int tar_pad(struct sink *k, unsigned long long size)
{
	static const char zeros[512];
	size_t r = (size_t)(size % 512);

	return r ? sink__write(k, zeros, 512 - r) : 0;
}

/* one "LEN key=value\n" pax record; LEN counts itself */
static void pax_record(struct strbuf *sb, const char *key, const char *val)
{
	size_t body = strlen(key) + strlen(val) + 3, n = body + 1;

	while (snprintf(NULL, 0, "%zu", n) + body != n)
		n++;
	strbuf_addf(sb, "%zu %s=%s\n", n, key, val);
}

static int tar_header(struct sink *k, const char *name, char type, unsigned mode,
		      unsigned long long size, long long mtime, const char *link)
{
	struct tar_hdr h;
	bool fits;

	memset(&h, 0, sizeof(h));
	fits = ustar_name(&h, name) && (!link || strlen(link) <= sizeof(h.linkname));
	if (size > 077777777777ull) {
		pr_err("perf archive: %s: over 8 GiB, not supported\n", name);
		return -1;
	}
	if (!fits) {
		/* a pax extended header carries the long name, as GNU tar and bsdtar read it */
		struct strbuf pax = STRBUF_INIT;
		struct tar_hdr x;
		int ret;

		pax_record(&pax, "path", name);
		if (link)
			pax_record(&pax, "linkpath", link);
		memset(&x, 0, sizeof(x));
		snprintf(x.name, sizeof(x.name), "PaxHeaders/%.80s", strrchr(name, '/') ? strrchr(name, '/') + 1 : name);
		octal(x.mode, sizeof(x.mode), 0644);
		octal(x.uid, sizeof(x.uid), 0);
		octal(x.gid, sizeof(x.gid), 0);
		octal(x.size, sizeof(x.size), pax.len);
		octal(x.mtime, sizeof(x.mtime), (unsigned long long)(mtime > 0 ? mtime : 0));
		x.typeflag = 'x';
		ret = tar_block(k, &x) < 0 || sink__write(k, pax.buf, pax.len) < 0 || tar_pad(k, pax.len) < 0 ? -1 : 0;
		strbuf_release(&pax);
		if (ret)
			return -1;
		memset(&h, 0, sizeof(h));
		/* a truncated name for readers without pax */
		snprintf(h.name, sizeof(h.name), "%.99s", name);
	}
	octal(h.mode, sizeof(h.mode), mode & 07777);
	octal(h.uid, sizeof(h.uid), (unsigned long long)getuid());
	octal(h.gid, sizeof(h.gid), (unsigned long long)getgid());
	octal(h.size, sizeof(h.size), size);
	octal(h.mtime, sizeof(h.mtime), (unsigned long long)(mtime > 0 ? mtime : 0));
	h.typeflag = type;
	if (link && fits)
		memcpy(h.linkname, link, strlen(link));
	return tar_block(k, &h);
}

static int tar_mem(struct sink *k, const char *name, const void *data, size_t size, unsigned mode)
{
	if (tar_header(k, name, '0', mode, size, (long long)time(NULL), NULL) < 0 ||
	    sink__write(k, data, size) < 0 || tar_pad(k, size) < 0)
		return -1;
	return 0;
}

/* a regular file from an open fd: exactly the size fstat said */
static int tar_fd(struct sink *k, const char *name, int fd)
{
	struct stat st;
	char buf[1 << 16];
	unsigned long long left;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return 1;
	if (tar_header(k, name, '0', st.st_mode, (unsigned long long)st.st_size, (long long)st.st_mtime, NULL) < 0)
		return -1;
	for (left = (unsigned long long)st.st_size; left;) {
		size_t want = left < sizeof(buf) ? (size_t)left : sizeof(buf);
		ssize_t n = read(fd, buf, want);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* shrank while we read: the header's size is kept, zero-filled */
			memset(buf, 0, want);
			n = (ssize_t)want;
		}
		if (sink__write(k, buf, (size_t)n) < 0)
			return -1;
		left -= (unsigned long long)n;
	}
	return tar_pad(k, (unsigned long long)st.st_size);
}

/* ---- objects ---- */

struct writer {
	struct sink sink;
	const char *root;
	int rootfd;
	struct archive_stats *st;
};

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* <rel>/ and its regular files (sorted), from the cache; 1 when not cached */
static int archive_cached_dir(struct writer *w, const char *rel)
{
	int dfd = w->rootfd >= 0 ? bidcache__open_dir(w->rootfd, rel, false) : -1;
	char **names = NULL, *ename;
	size_t nr = 0, alloc = 0;
	struct stat st;
	struct dirent *de;
	DIR *dir;
	int ret = 0;

	if (dfd < 0)
		return 1;
	if (fstat(dfd, &st) < 0 || !(dir = fdopendir(dfd))) {
		close(dfd);
		return 1;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;   /* ., .., and temporaries of a writer */
		*ARRAY_PUSH(names, nr, alloc) = xstrdup(de->d_name);
	}
	if (nr)
		qsort(names, nr, sizeof(*names), name_cmp);
	ename = xasprintf("%s/", rel);
	if (tar_header(&w->sink, ename, '5', 0755, 0, (long long)st.st_mtime, NULL) < 0)
		ret = -1;
	free(ename);
	for (size_t i = 0; i < nr && !ret; i++) {
		int fd = openat(dirfd(dir), names[i], O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		char *full = xasprintf("%s/%s", rel, names[i]);
		int r = fd < 0 ? 1 : tar_fd(&w->sink, full, fd);

		if (r < 0)
			ret = -1;
		else if (r > 0)
			pr_warning("Warning: perf archive: %s%s%s is not a regular file, left out\n",
				   w->root, "/", full);
		else
			w->st->files++;
		if (fd >= 0)
			close(fd);
		free(full);
	}
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	closedir(dir);
	return ret;
}

static bool mem_build_id_is(const void *img, size_t size, const char *bid)
{
	uint8_t id[BUILD_ID_MAX];
	char hex[BUILD_ID_HEX_MAX];
	Elf *elf;
	int n;

	elf_version(EV_CURRENT);
	elf = elf_memory((char *)img, size);
	if (!elf)
		return false;
	n = elf__read_build_id(elf, id, sizeof(id));
	elf_end(elf);
	return n > 0 && !strcmp(build_id__sprintf(id, (size_t)n, hex), bid);
}

static int dir_entry(struct writer *w, const char *rel)
{
	char *ename = xasprintf("%s/", rel);
	int ret = tar_header(&w->sink, ename, '5', 0755, 0, (long long)time(NULL), NULL);

	free(ename);
	return ret;
}

/* not cached: the object where it was recorded, if it is still that build-id; 1 if not */
static int archive_from_disk(struct writer *w, const struct archive_object *o, const char *rel)
{
	uint8_t id[BUILD_ID_MAX];
	char hex[BUILD_ID_HEX_MAX], *ename;
	int n, ret = 0;

	if (!strcmp(o->name, "[vdso]")) {
		size_t size = 0;
		const void *img = vdso__image(&size);

		if (!img || !mem_build_id_is(img, size, o->bid))
			return 1;
		ename = xasprintf("%s/vdso", rel);
		ret = dir_entry(w, rel) < 0 || tar_mem(&w->sink, ename, img, size, 0600) < 0 ? -1 : 0;
		free(ename);
		w->st->files += !ret;
		return ret;
	}
	if (dso__kind_of(o->name) == DSO_KIND_KERNEL) {
		size_t size = 0;
		char *text;

		n = sysfs__read_build_id("/sys/kernel/notes", id, sizeof(id));
		if (n <= 0 || strcmp(build_id__sprintf(id, (size_t)n, hex), o->bid))
			return 1;
		text = read_file("/proc/kallsyms", &size);
		if (!text)
			return 1;
		ename = xasprintf("%s/kallsyms", rel);
		ret = dir_entry(w, rel) < 0 || tar_mem(&w->sink, ename, text, size, 0755) < 0 ? -1 : 0;
		free(ename);
		free(text);
		w->st->files += !ret;
		return ret;
	}
	if (o->name[0] != '/')
		return 1;
	n = filename__read_build_id(o->name, id, sizeof(id));
	if (n <= 0 || strcmp(build_id__sprintf(id, (size_t)n, hex), o->bid))
		return 1;
	if (dir_entry(w, rel) < 0)
		return -1;
	{
		const char *droot = getenv("PERF_DEBUGINFO_DIR");
		char *dbg = build_id__debuginfo_path(droot && *droot ? droot : "/usr/lib/debug", id, (size_t)n);
		const char *src[2] = { o->name, dbg }, *as[2] = { "elf", "debug" };

		for (int i = 0; i < 2 && !ret; i++) {
			int fd = src[i] ? open(src[i], O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;

			if (fd < 0)
				continue;
			ename = xasprintf("%s/%s", rel, as[i]);
			if (tar_fd(&w->sink, ename, fd) < 0)
				ret = -1;
			else
				w->st->files++;
			free(ename);
			close(fd);
		}
		free(dbg);
	}
	return ret;
}

static int archive_object(struct writer *w, const struct archive_object *o)
{
	char linkrel[64], target[4096], *rel;
	ssize_t n = -1;
	int lfd, r;
	size_t blen = strlen(o->bid);

	snprintf(linkrel, sizeof(linkrel), ".build-id/%.2s", o->bid);
	lfd = w->rootfd >= 0 ? bidcache__open_dir(w->rootfd, linkrel, false) : -1;
	if (lfd >= 0) {
		n = readlinkat(lfd, o->bid + 2, target, sizeof(target) - 1);
		close(lfd);
	}
	/* the link names the entry's directory: "../.." + path + "/" + bid */
	if (n > 6 && !strncmp(target, "../../", 6) && (size_t)n > blen + 7 &&
	    !strncmp(target + n - blen - 1, "/", 1) && !strncmp(target + n - blen, o->bid, blen)) {
		target[n] = '\0';
		rel = xstrdup(target + 6);
	} else {
		snprintf(target, sizeof(target), "../..%s%s/%s", o->name[0] == '/' ? "" : "/", o->name, o->bid);
		rel = xasprintf("%s/%s", o->name[0] == '/' ? o->name + 1 : o->name, o->bid);
	}
	if (strstr(rel, "/../") || !strncmp(rel, "../", 3)) {
		pr_warning("Warning: perf archive: %s: the cache link %s leaves the cache, left out\n", o->name, target);
		free(rel);
		w->st->missing++;
		return 0;
	}
	{
		char *lname = xasprintf("%s/%s", linkrel, o->bid + 2);

		r = tar_header(&w->sink, lname, '2', 0777, 0, (long long)time(NULL), target);
		free(lname);
	}
	if (r == 0)
		r = archive_cached_dir(w, rel);
	if (r == 1)
		r = archive_from_disk(w, o, rel);
	if (r == 1) {
		pr_warning("Warning: perf archive: %s (%s) is neither in the build-id cache %s nor on this "
			   "machine with that build-id: left out\n", o->name, o->bid, w->root);
		w->st->missing++;
		r = 0;
	} else if (r == 0) {
		w->st->objects++;
	}
	free(rel);
	return r;
}

int archive__write(const char *root, const struct archive_object *objs, int nr,
		   const char *out, enum archive_compress how, struct archive_stats *stats)
{
	struct writer w = { .root = root, .st = stats };
	char *tmp = xasprintf("%s.tmp.%d", out, (int)getpid());
	static const char end[1024];
	int fd, ret = 0;

	memset(stats, 0, sizeof(*stats));
	w.rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		pr_err("perf archive: cannot create %s: %s\n", tmp, strerror(errno));
		free(tmp);
		if (w.rootfd >= 0)
			close(w.rootfd);
		return -1;
	}
	if (sink__open(&w.sink, fd, how) < 0) {
		ret = -1;
		goto out;
	}
	for (int i = 0; i < nr && !ret; i++)
		ret = archive_object(&w, &objs[i]);
	if (!ret && sink__write(&w.sink, end, sizeof(end)) < 0)
		ret = -1;
	stats->bytes = w.sink.bytes;
	if (sink__close(&w.sink) < 0)
		ret = -1;
out:
	if (close(fd) < 0 && !ret) {
		pr_err("perf archive: %s: %s\n", tmp, strerror(errno));
		ret = -1;
	}
	/* rename replaces a symlink at @out instead of writing where it points */
	if (!ret && rename(tmp, out) < 0) {
		pr_err("perf archive: cannot create %s: %s\n", out, strerror(errno));
		ret = -1;
	}
	if (ret)
		unlink(tmp);
	free(tmp);
	if (w.rootfd >= 0)
		close(w.rootfd);
	return ret;
}
