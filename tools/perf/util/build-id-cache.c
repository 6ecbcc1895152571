// SPDX-License-Identifier: MIT
/*
 * perf buildid-cache's operations on the cache directory. Paths below the
 * root are walked with openat(O_NOFOLLOW) and entries replaced by rename, so
 * a symlink planted inside the cache (e.g. <root>/usr -> /etc) makes the
 * operation fail instead of writing where the link points.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build-id.h"
#include "build-id-cache.h"
#include "debug.h"
#include "dso.h"
#include "probe-cache.h"
#include "sdt.h"
#include "strbuf.h"
#include "symbol-elf.h"
#include "util.h"

char *bidcache__root(const char *dir)
{
	return dir && dir[0] ? xstrdup(dir) : bidcache__default_root();
}

/*
 * Why an ELF file of @size bytes is cut short or has tables pointing past
 * its end, or NULL when every header, section and segment is inside it. A
 * copy of such a file in the cache would not be the binary it names.
 */
static const char *elf_damage(Elf *elf, uint64_t size)
{
	GElf_Ehdr eh;
	size_t shnum, phnum;

	if (!gelf_getehdr(elf, &eh))
		return "no ELF header";
	if (elf_getshdrnum(elf, &shnum) < 0 || elf_getphdrnum(elf, &phnum) < 0)
		return "unreadable section or program header count";
	if (eh.e_shoff && (eh.e_shoff > size || (size - eh.e_shoff) / (eh.e_shentsize ?: 1) < shnum))
		return "section header table past the end of the file";
	if (eh.e_phoff > size || (size - eh.e_phoff) / (eh.e_phentsize ?: 1) < phnum)
		return "program header table past the end of the file";
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph))
			return "unreadable program header";
		if (ph.p_offset > size || ph.p_filesz > size - ph.p_offset)
			return "a segment runs past the end of the file";
	}
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			return "unreadable section header";
		if (sh.sh_type != SHT_NOBITS && (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset))
			return "a section runs past the end of the file";
	}
	return NULL;
}

int bidcache__file_build_id(const char *path, char bid[41])
{
	const char *damage;
	uint8_t id[BUILD_ID_MAX];
	struct stat st;
	Elf *elf;
	int fd, n;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		pr_err("Couldn't add %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		pr_err("Couldn't add %s: %s\n", path, S_ISDIR(st.st_mode) ? "Is a directory" : "not a regular file");
		close(fd);
		return -1;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		pr_err("Couldn't add %s: not an ELF file\n", path);
		if (elf)
			elf_end(elf);
		close(fd);
		return -1;
	}
	damage = elf_damage(elf, (uint64_t)st.st_size);
	if (damage) {
		/* perf 6.1 says "Couldn't add" too, but exits 0 */
		pr_err("Couldn't add %s: truncated or damaged ELF (%s)\n", path, damage);
		elf_end(elf);
		close(fd);
		return -1;
	}
	n = elf__read_build_id(elf, id, sizeof(id));
	elf_end(elf);
	close(fd);
	if (n < 16) {
		/* perf 6.1 caches nothing for such files either */
		pr_err("Couldn't add %s: no build-id in the file (link it with -Wl,--build-id)\n", path);
		return -1;
	}
	build_id__sprintf(id, (size_t)n, bid);
	return 0;
}

/*
 * Opens <rootfd>/<rel> as a directory without following any symlink in rel,
 * creating missing components (0755) when create. An old-style plain file in
 * the way is replaced when create. -1 with errno.
 */
int bidcache__open_dir(int rootfd, const char *rel, bool create)
{
	char *copy = xstrdup(rel), *save = NULL, *comp;
	int fd = dup(rootfd);

	for (comp = strtok_r(copy, "/", &save); comp && fd >= 0; comp = strtok_r(NULL, "/", &save)) {
		int nfd;

		if (!strcmp(comp, ".") || !strcmp(comp, "..")) {
			close(fd);
			fd = -1;
			errno = EINVAL;
			break;
		}
		nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0 && create && errno == ENOTDIR) {
			struct stat st;

			/* a plain file from an old cache layout: replace; a symlink: refuse */
			if (fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
			    unlinkat(fd, comp, 0) == 0)
				errno = ENOENT;
			else
				errno = ELOOP;
		}
		if (nfd < 0 && create && errno == ENOENT) {
			if (mkdirat(fd, comp, 0755) < 0 && errno != EEXIST) {
				close(fd);
				fd = -1;
				break;
			}
			nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		close(fd);
		fd = nfd;
	}
	free(copy);
	return fd;
}

static int open_root(const char *root, bool create)
{
	int fd;

	if (create && mkdir_p(root, 0755) < 0 && errno != EEXIST) {
		pr_err("build-id cache: cannot create %s: %s\n", root, strerror(errno));
		return -1;
	}
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && (create || errno != ENOENT))
		pr_err("build-id cache: %s: %s\n", root, strerror(errno));
	return fd;
}

static int copy_to(int dirfd, const char *name, const char *src)
{
	char buf[1 << 16];
	int in, out, ret = 0;
	ssize_t n;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	out = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0755);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (writen(out, buf, (size_t)n) < 0) {
			ret = -1;
			break;
		}
	if (n < 0)
		ret = -1;
	close(in);
	if (close(out) < 0)
		ret = -1;
	return ret;
}

/* dirfd/name becomes src (hard link, else copy); a regular file already there is kept */
static int store_file(int dirfd, const char *name, const char *src)
{
	char tmp[64];
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
		return 0;   /* content-addressed: already there */
	snprintf(tmp, sizeof(tmp), ".%s.tmp.%d", name, (int)getpid());
	unlinkat(dirfd, tmp, 0);
	if (linkat(AT_FDCWD, src, dirfd, tmp, 0) < 0 && copy_to(dirfd, tmp, src) < 0) {
		int e = errno;

		unlinkat(dirfd, tmp, 0);
		errno = e;
		return -1;
	}
	if (renameat(dirfd, tmp, dirfd, name) < 0) {
		int e = errno;

		unlinkat(dirfd, tmp, 0);
		errno = e;
		return -1;
	}
	return 0;
}

char *bidcache__probes_path(const char *root, const char *path, const char *bid)
{
	return xasprintf("%s%s/%s/probes", root, path, bid);
}

/* writes the probes file: fresh SDT entries, cached '#' entries kept */
static int write_probes(int dirfd, const char *abs)
{
	struct sdt_notes notes;
	struct probe_cache pc = { 0 };
	int fd, ret;

	if (sdt__scan_file(abs, &notes) < 0)
		return -1;
	fd = openat(dirfd, "probes", O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		char *text = NULL;
		size_t len = 0;
		char buf[8192];
		ssize_t n;

		while ((n = read(fd, buf, sizeof(buf))) > 0) {
			text = xrealloc(text, len + (size_t)n + 1);
			memcpy(text + len, buf, (size_t)n);
			len += (size_t)n;
		}
		close(fd);
		if (text) {
			text[len] = '\0';
			if (probe_cache__parse(text, "probes", &pc) < 0)
				pr_warning("Warning: the old probe cache of %s was unreadable and is replaced\n", abs);
			free(text);
		}
	}
	probe_cache__set_sdt(&pc, &notes, abs);
	ret = probe_cache__write_at(&pc, dirfd, "probes");
	probe_cache__exit(&pc);
	sdt_notes__exit(&notes);
	return ret;
}

/* <root>/.build-id/xx/rest -> target (unless it is already); errors name @who */
static int set_link(int rootfd, const char *root, const char *bid, const char *target, const char *who)
{
	char linkrel[16], tmp[64], cur[PATH_MAX];
	int linkfd, ret = 0;
	ssize_t n;

	snprintf(linkrel, sizeof(linkrel), ".build-id/%.2s", bid);
	linkfd = bidcache__open_dir(rootfd, linkrel, true);
	if (linkfd < 0) {
		pr_err("Couldn't add %s: cannot create %s/%s: %s\n", who, root, linkrel, strerror(errno));
		return -1;
	}
	n = readlinkat(linkfd, bid + 2, cur, sizeof(cur) - 1);
	if (n > 0 && (size_t)n == strlen(target) && !memcmp(cur, target, (size_t)n))
		goto out;
	snprintf(tmp, sizeof(tmp), ".link.tmp.%d", (int)getpid());
	unlinkat(linkfd, tmp, 0);
	if (symlinkat(target, linkfd, tmp) < 0 || renameat(linkfd, tmp, linkfd, bid + 2) < 0) {
		pr_err("Couldn't add %s: cannot link %s/%s/%s: %s\n", who, root, linkrel, bid + 2,
		       strerror(errno));
		unlinkat(linkfd, tmp, 0);
		ret = -1;
	}
out:
	close(linkfd);
	return ret;
}

int bidcache__add(const char *root, const char *path, char bid[41])
{
	char abs[PATH_MAX], *rel = NULL, *target = NULL;
	int rootfd = -1, dirfd = -1, ret = -1;

	if (bidcache__file_build_id(path, bid) < 0)
		return -1;
	if (!realpath(path, abs)) {
		pr_err("Couldn't add %s: %s\n", path, strerror(errno));
		return -1;
	}
	rootfd = open_root(root, true);
	if (rootfd < 0)
		return -1;
	rel = xasprintf("%s/%s", abs + 1, bid);
	dirfd = bidcache__open_dir(rootfd, rel, true);
	if (dirfd < 0) {
		pr_err("Couldn't add %s: cannot create %s%s/%s: %s\n", path, root, abs, bid,
		       errno == ELOOP ? "a symlink is in the way" : strerror(errno));
		goto out;
	}
	if (store_file(dirfd, "elf", abs) < 0) {
		pr_err("Couldn't add %s: cannot store the binary: %s\n", path, strerror(errno));
		goto out;
	}
	{
		uint8_t id[BUILD_ID_MAX];
		int n = build_id__parse(bid, id, sizeof(id));
		const char *droot = getenv("PERF_DEBUGINFO_DIR");
		char *dbg = n > 0 ? build_id__debuginfo_path(droot && *droot ? droot : "/usr/lib/debug", id, (size_t)n) : NULL;

		if (dbg && access(dbg, R_OK) == 0 && store_file(dirfd, "debug", dbg) < 0)
			pr_warning("Warning: %s: cannot cache its debuginfo %s\n", path, dbg);
		free(dbg);
	}
	if (write_probes(dirfd, abs) < 0)
		goto out;
	target = xasprintf("../..%s/%s", abs, bid);
	ret = set_link(rootfd, root, bid, target, path);
out:
	free(rel);
	free(target);
	if (dirfd >= 0)
		close(dirfd);
	close(rootfd);
	return ret;
}

int bidcache__add_file(const char *root, const char *path, const char *bid,
		       const char *which, const char *src)
{
	uint8_t id[BUILD_ID_MAX];
	int n = build_id__parse(bid, id, sizeof(id)), rootfd, dirfd, ret = -1;
	char *orig, *rel;

	if (n < 16 || path[0] != '/') {
		pr_err("build-id cache: cannot store %s of %s (%s)\n", which, path, bid);
		return -1;
	}
	rootfd = open_root(root, true);
	if (rootfd < 0)
		return -1;
	/* an entry for this build-id under another name gets the file: one directory per id */
	orig = bidcache__origname(root, id, (size_t)n);
	if (!orig || orig[0] != '/')
		free(orig), orig = xstrdup(path);
	rel = xasprintf("%s/%s", orig + 1, bid);
	dirfd = bidcache__open_dir(rootfd, rel, true);
	if (dirfd < 0 || store_file(dirfd, which, src) < 0) {
		pr_err("build-id cache: cannot store %s%s/%s/%s: %s\n", root, orig, bid, which,
		       errno == ELOOP ? "a symlink is in the way" : strerror(errno));
	} else {
		char *target = xasprintf("../..%s/%s", orig, bid);

		ret = set_link(rootfd, root, bid, target, path);
		free(target);
	}
	if (dirfd >= 0)
		close(dirfd);
	close(rootfd);
	free(orig);
	free(rel);
	return ret;
}

bool bidcache__has(const char *root, const char *path, const char *bid)
{
	char *link = xasprintf("%s/.build-id/%.2s/%s", root, bid, bid + 2);
	char *target = xasprintf("../..%s/%s", path, bid);
	char cur[PATH_MAX];
	ssize_t n = readlink(link, cur, sizeof(cur) - 1);
	bool ok = n > 0 && (size_t)n == strlen(target) && !memcmp(cur, target, (size_t)n);

	free(link);
	free(target);
	return ok;
}

/* removes the files of a <bid> directory, then the directory */
static int remove_bid_dir(int parentfd, const char *bid)
{
	int fd = openat(parentfd, bid, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d;
	struct dirent *de;

	if (fd < 0) {
		/* old style: a plain file (or nothing) */
		if (errno == ENOTDIR)
			return unlinkat(parentfd, bid, 0);
		return errno == ENOENT ? 0 : -1;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(fd, de->d_name, 0);
	closedir(d);
	return unlinkat(parentfd, bid, AT_REMOVEDIR);
}

/* removes link + dir of (path, bid); the link only if it points at path */
static int remove_entry(int rootfd, const char *path, const char *bid)
{
	char linkrel[64], *dirrel, *slash;
	int fd, ret = 0;

	snprintf(linkrel, sizeof(linkrel), ".build-id/%.2s", bid);
	fd = bidcache__open_dir(rootfd, linkrel, false);
	if (fd >= 0) {
		char cur[PATH_MAX], *target = xasprintf("../..%s%s/%s", path[0] == '[' ? "/" : "", path, bid);
		ssize_t n = readlinkat(fd, bid + 2, cur, sizeof(cur) - 1);

		if (n > 0 && (size_t)n == strlen(target) && !memcmp(cur, target, (size_t)n) &&
		    unlinkat(fd, bid + 2, 0) < 0)
			ret = -1;
		free(target);
		close(fd);
	}
	dirrel = xstrdup(path[0] == '/' ? path + 1 : path);
	fd = bidcache__open_dir(rootfd, dirrel, false);
	if (fd >= 0) {
		if (remove_bid_dir(fd, bid) < 0)
			ret = -1;
		close(fd);
	}
	slash = NULL;
	(void)slash;
	free(dirrel);
	return ret;
}

int bidcache__remove(const char *root, const char *path, char bid[41])
{
	char abs[PATH_MAX];
	int rootfd, ret;

	if (bidcache__file_build_id(path, bid) < 0)
		return -1;
	if (!realpath(path, abs))
		return -1;
	if (!bidcache__has(root, abs, bid))
		return 1;
	rootfd = open_root(root, false);
	if (rootfd < 0)
		return -1;
	ret = remove_entry(rootfd, abs, bid);
	close(rootfd);
	return ret;
}

static bool is_hex_name(const char *s, size_t min, size_t max)
{
	size_t n = strlen(s);

	if (n < min || n > max)
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	return true;
}

int bidcache__purge(const char *root, const char *path,
		    void (*cb)(const char *bid, const char *path, int ok, void *arg), void *arg)
{
	char abs[PATH_MAX];
	int rootfd, fd, n = 0;
	DIR *d;
	struct dirent *de;
	char **bids = NULL;
	size_t nb = 0, cap = 0;

	/* a path whose file is gone can still be purged */
	if (!realpath(path, abs))
		snprintf(abs, sizeof(abs), "%s", path);
	rootfd = open_root(root, false);
	if (rootfd < 0)
		return -1;
	fd = bidcache__open_dir(rootfd, abs + (abs[0] == '/'), false);
	if (fd < 0) {
		close(rootfd);
		return 0;
	}
	d = fdopendir(fd);
	while (d && (de = readdir(d)))
		if (is_hex_name(de->d_name, 32, 40)) {
			*ARRAY_PUSH(bids, nb, cap) = xstrdup(de->d_name);
		}
	if (d)
		closedir(d);
	for (size_t i = 0; i < nb; i++) {
		int ok = remove_entry(rootfd, abs, bids[i]) == 0;

		if (cb)
			cb(bids[i], abs, ok, arg);
		n += ok;
		free(bids[i]);
	}
	free(bids);
	close(rootfd);
	return n;
}

static int cmp_items(const void *a, const void *b)
{
	return strcmp(((const struct bidcache_item *)a)->bid, ((const struct bidcache_item *)b)->bid);
}

static bool entry_valid(const char *path, const char *bid)
{
	uint8_t id[BUILD_ID_MAX];
	char hex[BUILD_ID_HEX_MAX];
	int n;

	if (!strcmp(path, "[kernel.kallsyms]"))
		n = sysfs__read_build_id("/sys/kernel/notes", id, sizeof(id));
	else if (path[0] == '/')
		n = filename__read_build_id(path, id, sizeof(id));
	else
		return false;
	if (n <= 0)
		return false;
	return !strcmp(build_id__sprintf(id, (size_t)n, hex), bid);
}

int bidcache__list(const char *root, bool validonly, struct bidcache_item **items)
{
	char *bdir = xasprintf("%s/.build-id", root);
	DIR *top = opendir(bdir);
	struct dirent *de;
	int nr = 0;
	size_t cap = 0;

	*items = NULL;
	if (!top) {
		free(bdir);
		return 0;
	}
	while ((de = readdir(top))) {
		char *sub;
		DIR *d;
		struct dirent *le;

		if (!is_hex_name(de->d_name, 2, 2))
			continue;
		sub = xasprintf("%s/%s", bdir, de->d_name);
		d = opendir(sub);
		while (d && (le = readdir(d))) {
			char bid[41];
			uint8_t id[BUILD_ID_MAX];
			char *orig;
			int n;

			if (!is_hex_name(le->d_name, 30, 38))
				continue;
			memcpy(bid, de->d_name, 2);
			memcpy(bid + 2, le->d_name, strlen(le->d_name) + 1);
			n = build_id__parse(bid, id, sizeof(id));
			if (n <= 0)
				continue;
			orig = bidcache__origname(root, id, (size_t)n);
			if (!orig)
				continue;
			if (validonly && !entry_valid(orig, bid)) {
				free(orig);
				continue;
			}
			struct bidcache_item *it = ARRAY_PUSH(*items, nr, cap);

			memcpy(it->bid, bid, sizeof(bid));
			it->path = orig;
		}
		if (d)
			closedir(d);
		free(sub);
	}
	closedir(top);
	free(bdir);
	if (nr)
		qsort(*items, (size_t)nr, sizeof(**items), cmp_items);
	return nr;
}

void bidcache__items_free(struct bidcache_item *items, int nr)
{
	for (int i = 0; i < nr; i++)
		free(items[i].path);
	free(items);
}

int bidcache__purge_all(const char *root,
			void (*cb)(const char *bid, const char *path, int ok, void *arg), void *arg)
{
	struct bidcache_item *items;
	int nr = bidcache__list(root, false, &items), rootfd, n = 0;

	if (nr <= 0)
		return nr;
	rootfd = open_root(root, false);
	if (rootfd < 0) {
		bidcache__items_free(items, nr);
		return -1;
	}
	for (int i = 0; i < nr; i++) {
		int ok = remove_entry(rootfd, items[i].path, items[i].bid) == 0;

		if (cb)
			cb(items[i].bid, items[i].path, ok, arg);
		n += ok;
	}
	close(rootfd);
	bidcache__items_free(items, nr);
	return n;
}
