// SPDX-License-Identifier: MIT
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include "build-id.h"
#include "vdso.h"

/* our own vdso's ELF header, if the kernel gave us one */
static const ElfW(Ehdr) *vdso__ehdr(void)
{
	const ElfW(Ehdr) *eh = (const void *)getauxval(AT_SYSINFO_EHDR);

	return eh && !memcmp(eh->e_ident, ELFMAG, SELFMAG) ? eh : NULL;
}

const void *vdso__image(size_t *size)
{
	const ElfW(Ehdr) *eh = vdso__ehdr();
	const ElfW(Phdr) *ph;
	size_t end;

	if (!eh)
		return NULL;
	/* section headers are at the end of the image, after all segments */
	end = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	ph = (const void *)((const char *)eh + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset + ph[i].p_filesz > end)
			end = ph[i].p_offset + ph[i].p_filesz;
	*size = end;
	return eh;
}

int vdso__build_id(uint8_t *id, size_t max)
{
	const ElfW(Ehdr) *eh = vdso__ehdr();
	const ElfW(Phdr) *ph;

	if (!eh)
		return -1;
	ph = (const void *)((const char *)eh + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++) {
		int n;

		if (ph[i].p_type != PT_NOTE)
			continue;
		n = build_id__from_notes((const char *)eh + ph[i].p_offset, ph[i].p_filesz, id, max);
		if (n > 0)
			return n;
	}
	return -1;
}
