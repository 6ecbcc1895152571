/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_BUILD_ID_CACHE_H
#define PERF_UTIL_BUILD_ID_CACHE_H

/*
 * Managing the build-id cache as `perf buildid-cache` does, in perf 6.1's
 * layout (Documentation/formats/buildid-cache.md §2): <root>/.build-id/xx/rest links,
 * <root><path>/<bid>/{elf,debug,probes}. Name helpers come from build-id.h.
 *
 * Everything below <root> is reached with openat(O_NOFOLLOW) component by
 * component, and files are replaced by rename, so a symlink planted inside
 * the cache is never written through.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bidcache_item {
	char bid[41];        /* lower-case hex */
	char *path;          /* original path (origname), "[kernel.kallsyms]" ... */
};

/* The root to use: @dir when given, else bidcache__default_root(). malloc'ed. */
char *bidcache__root(const char *dir);

/*
 * Adds @path (an ELF file with a build-id): elf (hard link or copy), debug
 * when a separate debuginfo exists, the .build-id link, and the probes file
 * with the SDT notes of the binary (merged with cached '#' entries already
 * there). *bid gets the hex build-id. 0 on success, -1 with a message.
 */
int bidcache__add(const char *root, const char *path, char bid[41]);

/*
 * Stores @src as the @which file ("elf" or "debug") of build-id @bid, whose
 * binary was at @path (absolute; need not exist here), e.g. a file fetched
 * from debuginfod. An entry already cached for @bid under another name gets
 * the file. 0 or -1 with a message.
 */
int bidcache__add_file(const char *root, const char *path, const char *bid,
		       const char *which, const char *src);

/*
 * <rootfd>/<rel> opened as a directory without following a symlink in any
 * component of rel ("." and ".." refused); missing components are created
 * (0755) when @create. -1 with errno.
 */
int bidcache__open_dir(int rootfd, const char *rel, bool create);

/* The probes file of (path, bid); malloc'ed. */
char *bidcache__probes_path(const char *root, const char *path, const char *bid);

/*
 * Is (path,bid) in the cache? The .build-id link must point to
 * ../..<path>/<bid>.
 */
bool bidcache__has(const char *root, const char *path, const char *bid);

/* Removes the entry of @path's current build-id. 0 removed, 1 not cached, -1 error. */
int bidcache__remove(const char *root, const char *path, char bid[41]);

/* Removes every build-id cached under <root><path>/. Returns the count or -1;
 * calls @cb for each removed one when non-NULL. */
int bidcache__purge(const char *root, const char *path,
		    void (*cb)(const char *bid, const char *path, int ok, void *arg), void *arg);

/* Removes every entry. Returns the count, -1 on error. */
int bidcache__purge_all(const char *root,
			void (*cb)(const char *bid, const char *path, int ok, void *arg), void *arg);

/*
 * All entries, sorted by .build-id directory then name (readdir order is
 * not stable). validonly: only those whose original file still has that
 * build-id (or the running kernel's). Returns the count (-1 on error).
 */
int bidcache__list(const char *root, bool validonly, struct bidcache_item **items);
void bidcache__items_free(struct bidcache_item *items, int nr);

/* Build-id of a file as hex; 0, or -1 with a message (not ELF, no build-id ...). */
int bidcache__file_build_id(const char *path, char bid[41]);

#endif
