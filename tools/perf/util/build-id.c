// SPDX-License-Identifier: MIT
/*
 * Build-ids: reading them, and the on-disk build-id cache in the layout
 * perf 6.1 uses (see Documentation/formats/buildid-cache.md), so either tool finds
 * what the other stored.
 */
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
#include "debug.h"
#include "dso.h"
#include "symbol-elf.h"
#include "util.h"

char *build_id__sprintf(const uint8_t *id, size_t size, char *buf)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < size; i++) {
		buf[2 * i] = hex[id[i] >> 4];
		buf[2 * i + 1] = hex[id[i] & 15];
	}
	buf[2 * size] = '\0';
	return buf;
}

int build_id__parse(const char *hex, uint8_t *id, size_t max)
{
	size_t n = 0;

	while (hex[0] && hex[1] && n < max) {
		int v = 0;

		for (int k = 0; k < 2; k++) {
			char c = hex[k];

			v <<= 4;
			if (c >= '0' && c <= '9')
				v |= c - '0';
			else if (c >= 'a' && c <= 'f')
				v |= c - 'a' + 10;
			else if (c >= 'A' && c <= 'F')
				v |= c - 'A' + 10;
			else
				return -1;
		}
		id[n++] = (uint8_t)v;
		hex += 2;
	}
	return hex[0] ? -1 : (int)n;
}

bool build_id__equal(const uint8_t *a, size_t asize, const uint8_t *b, size_t bsize)
{
	return asize == bsize && asize > 0 && !memcmp(a, b, asize);
}

int filename__read_build_id(const char *path, uint8_t *id, size_t max)
{
	struct symsrc ss;
	int n;

	if (symsrc__open(&ss, path) < 0)
		return -1;
	n = ss.build_id_size;
	if (n > 0)
		memcpy(id, ss.build_id, (size_t)n < max ? (size_t)n : max);
	symsrc__close(&ss);
	return n > 0 ? ((size_t)n < max ? n : (int)max) : -1;
}

int build_id__from_notes(const void *notes, size_t size, uint8_t *id, size_t max)
{
	const unsigned char *p = notes;
	size_t off = 0;

	/* Elf_Nhdr records: namesz, descsz, type, then name and desc, each 4-byte aligned */
	while (off + 12 <= size) {
		uint32_t namesz, descsz, type;
		size_t name_off = off + 12, desc_off;

		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		desc_off = name_off + ALIGN_UP((size_t)namesz, (size_t)4);
		if (desc_off > size || descsz > size - desc_off)
			return -1;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + name_off, "GNU", 4) &&
		    descsz > 0 && descsz <= max) {
			memcpy(id, p + desc_off, descsz);
			return (int)descsz;
		}
		off = desc_off + ALIGN_UP((size_t)descsz, (size_t)4);
	}
	return -1;
}

int sysfs__read_build_id(const char *notes_path, uint8_t *id, size_t max)
{
	size_t size;
	char *buf = read_file(notes_path, &size);
	int ret;

	if (!buf)
		return -1;
	ret = build_id__from_notes(buf, size, id, max);
	free(buf);
	return ret;
}

char *bidcache__default_root(void)
{
	const char *env = getenv("PERF_BUILDID_DIR");
	const char *home = getenv("HOME");

	if (env && env[0])
		return xstrdup(env);
	if (home && home[0])
		return xasprintf("%s/.debug", home);
	return xstrdup(".debug");
}

char *bidcache__linkname(const char *root, const uint8_t *id, size_t size)
{
	char hex[BUILD_ID_HEX_MAX];

	if (!size || size > 20)
		return NULL;
	build_id__sprintf(id, size, hex);
	return xasprintf("%s/.build-id/%.2s/%s", root, hex, hex + 2);
}

char *bidcache__dirname(const char *root, const char *path, const uint8_t *id, size_t size)
{
	char hex[BUILD_ID_HEX_MAX];

	if (!size || size > 20)
		return NULL;
	build_id__sprintf(id, size, hex);
	return xasprintf("%s%s%s/%s", root, path[0] == '/' ? "" : "/", path, hex);
}

char *bidcache__file(const char *root, const uint8_t *id, size_t size, const char *which)
{
	char *link = bidcache__linkname(root, id, size), *file;
	struct stat st;

	if (!link)
		return NULL;
	if (stat(link, &st) < 0) {
		free(link);
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		/* old-style cache: the link points at the binary itself */
		if (S_ISREG(st.st_mode) && !strcmp(which, "elf"))
			return link;
		free(link);
		return NULL;
	}
	file = xasprintf("%s/%s", link, which);
	free(link);
	if (stat(file, &st) < 0 || !S_ISREG(st.st_mode)) {
		free(file);
		return NULL;
	}
	return file;
}

char *bidcache__origname(const char *root, const uint8_t *id, size_t size)
{
	char *link = bidcache__linkname(root, id, size);
	char target[PATH_MAX], hex[BUILD_ID_HEX_MAX];
	ssize_t n;
	size_t hl;
	char *p;

	if (!link)
		return NULL;
	n = readlink(link, target, sizeof(target) - 1);
	free(link);
	if (n <= 0)
		return NULL;
	target[n] = '\0';
	build_id__sprintf(id, size, hex);
	hl = strlen(hex);
	if (strncmp(target, "../..", 5) || (size_t)n < 5 + hl + 1 ||
	    strcmp(target + n - hl, hex) || target[n - hl - 1] != '/')
		return NULL;
	target[n - hl - 1] = '\0';
	p = target + 5;
	if (p[0] == '/' && p[1] == '[')
		p++;
	return xstrdup(p);
}

char *build_id__debuginfo_path(const char *debuginfo_root, const uint8_t *id, size_t size)
{
	char hex[BUILD_ID_HEX_MAX];

	if (!size || size > 20)
		return NULL;
	build_id__sprintf(id, size, hex);
	return xasprintf("%s/.build-id/%.2s/%s.debug", debuginfo_root, hex, hex + 2);
}
