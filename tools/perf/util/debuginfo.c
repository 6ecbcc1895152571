// SPDX-License-Identifier: MIT
/*
 * Where a binary's DWARF lives (see debuginfo.h for the search order).
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "build-id.h"
#include "debug.h"
#include "debuginfo.h"
#include "dso.h"
#include "util.h"

static Elf *open_elf(const char *path, int *fd)
{
	Elf *elf;

	elf_version(EV_CURRENT);
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	elf = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(*fd);
		return NULL;
	}
	return elf;
}

static Elf_Scn *find_section(Elf *elf, const char *name, GElf_Shdr *sh)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, sh))
			continue;
		n = elf_strptr(elf, shstrndx, sh->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

int debuginfo__has_dwarf(const char *path)
{
	int fd, ret = 0;
	Elf *elf = open_elf(path, &fd);
	GElf_Shdr sh;

	if (!elf)
		return 0;
	if (find_section(elf, ".debug_info", &sh) && sh.sh_type != SHT_NOBITS && sh.sh_size)
		ret = 1;
	elf_end(elf);
	close(fd);
	return ret;
}

/* a candidate with DWARF whose build-id (if any) is the binary's */
static bool usable(const char *cand, const uint8_t *id, int idsize)
{
	uint8_t cid[BUILD_ID_MAX];
	int csize;

	if (access(cand, R_OK) || !debuginfo__has_dwarf(cand))
		return false;
	csize = filename__read_build_id(cand, cid, sizeof(cid));
	if (idsize > 0 && csize > 0 && !build_id__equal(id, (size_t)idsize, cid, (size_t)csize)) {
		pr_debug("%s: build-id differs from the binary's, not used\n", cand);
		return false;
	}
	return true;
}

static bool crc_matches(const char *path, uint32_t want)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	unsigned char buf[65536];
	uLong crc = crc32(0L, Z_NULL, 0);
	ssize_t n;

	if (fd < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		crc = crc32(crc, buf, (uInt)n);
	close(fd);
	return n == 0 && (uint32_t)crc == want;
}

/* .gnu_debuglink: NUL-terminated name, padding to 4, then a 4-byte CRC32 */
static char *read_debuglink(const char *binary, uint32_t *crc)
{
	int fd;
	Elf *elf = open_elf(binary, &fd);
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *d;
	char *name = NULL;

	if (!elf)
		return NULL;
	scn = find_section(elf, ".gnu_debuglink", &sh);
	if (scn && (d = elf_getdata(scn, NULL)) && d->d_size >= 6) {
		const char *p = d->d_buf;
		size_t len = strnlen(p, d->d_size);
		size_t at = ALIGN_UP(len + 1, 4);

		if (len && at + 4 <= d->d_size) {
			memcpy(crc, p + at, 4);
			if (elf_getident(elf, NULL)[EI_DATA] != ELFDATA2LSB)
				*crc = __builtin_bswap32(*crc);
			if (!strchr(p, '/'))
				name = xasprintf("%.*s", (int)len, p);
		}
	}
	elf_end(elf);
	close(fd);
	return name;
}

char *debuginfo__find(const char *binary)
{
	uint8_t id[BUILD_ID_MAX];
	int idsize = filename__read_build_id(binary, id, sizeof(id));
	const char *droot = getenv("PERF_DEBUGINFO_DIR");
	char *abs = realpath(binary, NULL), *dir, *cand, *link;
	uint32_t crc = 0;

	if (!droot || !*droot)
		droot = "/usr/lib/debug";
	if (!abs)
		return NULL;
	if (debuginfo__has_dwarf(abs))
		return abs;
	if (idsize > 0) {
		cand = build_id__debuginfo_path(droot, id, (size_t)idsize);
		if (cand && usable(cand, id, idsize))
			goto found;
		free(cand);
	}
	dir = xstrdup(abs);
	*strrchr(dir, '/') = '\0';
	link = read_debuglink(abs, &crc);
	if (link) {
		const char *fmts[] = { "%s/%s", "%s/.debug/%s", NULL };

		for (int i = 0; fmts[i]; i++) {
			cand = xasprintf(fmts[i], dir, link);
			if (strcmp(cand, abs) && usable(cand, id, idsize) && crc_matches(cand, crc))
				goto found_link;
			free(cand);
		}
		cand = xasprintf("%s%s/%s", droot, dir, link);
		if (usable(cand, id, idsize) && crc_matches(cand, crc))
			goto found_link;
		free(cand);
		pr_debug("%s: .gnu_debuglink %s not found (or CRC differs)\n", abs, link);
		free(link);
	}
	cand = xasprintf("%s.debug", abs);
	if (usable(cand, id, idsize))
		goto found_dir;
	free(cand);
	free(dir);
	if (idsize > 0) {
		char *root = bidcache__default_root();

		cand = bidcache__file(root, id, (size_t)idsize, "debug");
		free(root);
		if (cand && usable(cand, id, idsize))
			goto found;
		free(cand);
	}
	free(abs);
	return NULL;
found_link:
	free(link);
found_dir:
	free(dir);
found:
	pr_debug("debuginfo of %s: %s\n", abs, cand);
	free(abs);
	return cand;
}
