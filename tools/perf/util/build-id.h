/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_BUILD_ID_H
#define PERF_UTIL_BUILD_ID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BUILD_ID_HEX_MAX (2 * 20 + 1)

/*
 * Build-id cache root: $PERF_BUILDID_DIR, else $HOME/.debug, else ./.debug.
 * Returns a malloc'ed string.
 */
char *bidcache__default_root(void);

/* <root>/.build-id/<xx>/<rest>  (malloc'ed) */
char *bidcache__linkname(const char *root, const uint8_t *id, size_t size);

/* <root><abs path>/<bid>  (malloc'ed); path "[kernel.kallsyms]"/"[vdso]" get a '/' */
char *bidcache__dirname(const char *root, const char *path, const uint8_t *id, size_t size);

/*
 * The cached file `which` ("elf", "debug", "kallsyms", "vdso", "probes") for
 * a build-id, found through the .build-id link (old-style links to a plain
 * file return that file for "elf"). NULL if not cached. malloc'ed.
 */
char *bidcache__file(const char *root, const uint8_t *id, size_t size, const char *which);

/* Original path of a cached build-id (readlink of the .build-id link, without
 * "../.." and "/<bid>"); malloc'ed or NULL. */
char *bidcache__origname(const char *root, const uint8_t *id, size_t size);

/* <debuginfo_root>/.build-id/<xx>/<rest>.debug, e.g. under /usr/lib/debug (malloc'ed) */
char *build_id__debuginfo_path(const char *debuginfo_root, const uint8_t *id, size_t size);

/* The NT_GNU_BUILD_ID of a block of ELF notes (/sys/kernel/notes, a PT_NOTE):
 * its size (at most max), or -1 when there is none. */
int build_id__from_notes(const void *notes, size_t size, uint8_t *id, size_t max);

/* Running kernel's build-id from /sys/kernel/notes (or a notes file): size or -1. */
int sysfs__read_build_id(const char *notes_path, uint8_t *id, size_t max);

/* Reads the NT_GNU_BUILD_ID of an ELF file; returns its size or -1. */
int filename__read_build_id(const char *path, uint8_t *id, size_t max);

/* lowercase hex, NUL-terminated; buf needs 2*size+1 */
char *build_id__sprintf(const uint8_t *id, size_t size, char *buf);

/* Parses lower/upper-case hex into id; returns the byte count or -1. */
int build_id__parse(const char *hex, uint8_t *id, size_t max);

bool build_id__equal(const uint8_t *a, size_t asize, const uint8_t *b, size_t bsize);

/* Adding to the cache: bidcache__add() in build-id-cache.h (never follows a planted symlink). */

#endif
