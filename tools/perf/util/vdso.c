// SPDX-License-Identifier: MIT
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include "vdso.h"

const void *vdso__image(size_t *size)
{
	const ElfW(Ehdr) *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Phdr) *ph;
	size_t end;

	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG))
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
