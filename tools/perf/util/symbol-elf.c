// SPDX-License-Identifier: MIT
/*
 * Symbols, load segments and build-ids from ELF files through libelf. Files
 * are mapped (ELF_C_READ_MMAP), so only the pages of the sections we look at
 * are read: the section headers, the symbol table and its strings.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debug.h"
#include "symbol-elf.h"
#include "util.h"

static void symsrc__scan(struct symsrc *ss)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	ss->build_id_size = elf__read_build_id(ss->elf, ss->build_id, sizeof(ss->build_id));
	if (elf_getshdrstrndx(ss->elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(ss->elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB && sh.sh_size > sh.sh_entsize)
			ss->has_symtab = true;
		else if (sh.sh_type == SHT_DYNSYM && sh.sh_size > sh.sh_entsize)
			ss->has_dynsym = true;
		name = elf_strptr(ss->elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".text") && sh.sh_type == SHT_PROGBITS)
			ss->has_text = true;
	}
}

static int symsrc__init(struct symsrc *ss, int fd, Elf *elf, const char *path)
{
	memset(ss, 0, sizeof(*ss));
	ss->fd = fd;
	ss->elf = elf;
	ss->build_id_size = -1;
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		if (fd >= 0)
			close(fd);
		ss->elf = NULL;
		ss->fd = -1;
		return -1;
	}
	ss->path = xstrdup(path);
	symsrc__scan(ss);
	return 0;
}

int symsrc__open(struct symsrc *ss, const char *path)
{
	int fd;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		memset(ss, 0, sizeof(*ss));
		ss->fd = -1;
		return -1;
	}
	return symsrc__init(ss, fd, elf_begin(fd, ELF_C_READ_MMAP, NULL), path);
}

int symsrc__open_mem(struct symsrc *ss, void *image, size_t size, const char *name)
{
	elf_version(EV_CURRENT);
	return symsrc__init(ss, -1, elf_memory(image, size), name);
}

void symsrc__close(struct symsrc *ss)
{
	if (ss->elf)
		elf_end(ss->elf);
	if (ss->fd >= 0)
		close(ss->fd);
	free(ss->path);
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
}

static int note__find_build_id(Elf_Data *data, uint8_t *id, size_t max)
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((char *)data->d_buf + name_off, "GNU", 4)) {
			size_t n = nh.n_descsz < max ? nh.n_descsz : max;

			memcpy(id, (char *)data->d_buf + desc_off, n);
			return (int)n;
		}
	}
	return -1;
}

int elf__read_build_id(Elf *elf, uint8_t *id, size_t max)
{
	static const char *const names[] = { ".note.gnu.build-id", ".notes", ".note" };
	size_t shstrndx, nphdr;
	Elf_Scn *scn;
	int ret;

	if (elf_getshdrstrndx(elf, &shstrndx) == 0) {
		for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
			scn = NULL;
			while ((scn = elf_nextscn(elf, scn)) != NULL) {
				GElf_Shdr sh;
				const char *name;
				Elf_Data *data;

				if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
					continue;
				name = elf_strptr(elf, shstrndx, sh.sh_name);
				if (!name || strcmp(name, names[i]))
					continue;
				data = elf_getdata(scn, NULL);
				if (data && (ret = note__find_build_id(data, id, max)) > 0)
					return ret;
			}
		}
	}
	/* no section headers (or no named note): the PT_NOTE segments */
	if (elf_getphdrnum(elf, &nphdr) != 0)
		return -1;
	for (size_t i = 0; i < nphdr; i++) {
		GElf_Phdr ph;
		Elf_Data *data;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_NOTE)
			continue;
		data = elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz,
					    ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
		if (data && (ret = note__find_build_id(data, id, max)) > 0)
			return ret;
	}
	return -1;
}

static bool sym__wanted(const GElf_Sym *sym, const char *name, const GElf_Shdr *sec)
{
	int type = GELF_ST_TYPE(sym->st_info);

	/* absolute symbols are not code: version names (LINUX_2.6, XZ_5.1.2alpha) at 0 */
	if (!name || !name[0] || sym->st_shndx == SHN_UNDEF || sym->st_shndx == SHN_ABS)
		return false;
	switch (type) {
	case STT_FUNC:
	case STT_GNU_IFUNC:
	case STT_OBJECT:
		return true;
	case STT_NOTYPE:
		/* assembler labels in code, not local ".L" labels */
		return sym->st_shndx != SHN_ABS && sec && (sec->sh_flags & SHF_EXECINSTR) &&
		       name[0] != '.' && name[0] != '$';
	default:
		return false;
	}
}

int symsrc__load_symbols(struct symsrc *ss, struct symtab *t, bool dynsym)
{
	Elf_Scn *scn = NULL, *symscn = NULL;
	GElf_Shdr symsh, *shdrs = NULL;
	size_t nsec = 0, nsyms, i;
	Elf_Data *data;
	int added = 0;

	while ((scn = elf_nextscn(ss->elf, scn)) != NULL) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == (dynsym ? SHT_DYNSYM : SHT_SYMTAB)) {
			symscn = scn;
			symsh = sh;
			break;
		}
	}
	if (!symscn || !symsh.sh_entsize)
		return 0;
	data = elf_getdata(symscn, NULL);
	if (!data)
		return 0;

	/* section flags, to tell code labels from other untyped symbols */
	if (elf_getshdrnum(ss->elf, &nsec) == 0 && nsec) {
		shdrs = xzalloc(nsec * sizeof(*shdrs));
		for (i = 0; i < nsec; i++) {
			Elf_Scn *s = elf_getscn(ss->elf, i);

			if (s)
				gelf_getshdr(s, &shdrs[i]);
		}
	}

	nsyms = symsh.sh_size / symsh.sh_entsize;
	for (i = 1; i < nsyms; i++) {
		GElf_Sym sym;
		const char *name;
		char *shown;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		name = elf_strptr(ss->elf, symsh.sh_link, sym.st_name);
		if (!sym__wanted(&sym, name, sym.st_shndx < nsec ? &shdrs[sym.st_shndx] : NULL))
			continue;
		shown = symbol__demangle(name);
		symtab__add(t, sym.st_value, sym.st_size, GELF_ST_BIND(sym.st_info),
			    GELF_ST_TYPE(sym.st_info), shown ? shown : name);
		free(shown);
		added++;
	}
	free(shdrs);
	return added;
}

static Elf_Scn *section_by_name(Elf *elf, size_t shstrndx, const char *want, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *name;

		if (!gelf_getshdr(scn, sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

int symsrc__synthesize_plt(struct symsrc *ss, struct symtab *t)
{
	GElf_Shdr rsh, psh, dsh;
	Elf_Scn *rscn, *pscn, *dscn;
	Elf_Data *rdata, *ddata;
	size_t shstrndx, nrel;
	uint64_t base, stride;
	int added = 0;

	if (elf_getshdrstrndx(ss->elf, &shstrndx) != 0)
		return 0;
	rscn = section_by_name(ss->elf, shstrndx, ".rela.plt", &rsh);
	if (!rscn)
		rscn = section_by_name(ss->elf, shstrndx, ".rel.plt", &rsh);
	if (!rscn || !rsh.sh_entsize || (rsh.sh_type != SHT_RELA && rsh.sh_type != SHT_REL))
		return 0;
	/* with IBT the stubs that are called live in .plt.sec, one per slot, no header */
	pscn = section_by_name(ss->elf, shstrndx, ".plt.sec", &psh);
	if (pscn && psh.sh_type == SHT_PROGBITS) {
		stride = psh.sh_entsize ? psh.sh_entsize : 16;
		base = psh.sh_addr;
	} else {
		pscn = section_by_name(ss->elf, shstrndx, ".plt", &psh);
		if (!pscn || psh.sh_type != SHT_PROGBITS)
			return 0;
		stride = psh.sh_entsize ? psh.sh_entsize : 16;
		base = psh.sh_addr + stride;   /* PLT0, the resolver trampoline, comes first */
	}
	dscn = elf_getscn(ss->elf, rsh.sh_link);
	if (!dscn || !gelf_getshdr(dscn, &dsh) || !dsh.sh_entsize)
		return 0;
	rdata = elf_getdata(rscn, NULL);
	ddata = elf_getdata(dscn, NULL);
	if (!rdata || !ddata)
		return 0;
	nrel = rsh.sh_size / rsh.sh_entsize;
	for (size_t i = 0; i < nrel; i++) {
		uint64_t info;
		size_t symidx;
		GElf_Sym sym;
		const char *name;
		char *shown, *plt;

		if (rsh.sh_type == SHT_RELA) {
			GElf_Rela r;

			if (!gelf_getrela(rdata, (int)i, &r))
				break;
			info = r.r_info;
		} else {
			GElf_Rel r;

			if (!gelf_getrel(rdata, (int)i, &r))
				break;
			info = r.r_info;
		}
		symidx = GELF_R_SYM(info);   /* gelf widens ELF32 r_info to this form */
		/* IRELATIVE slots name no symbol: perf calls them just "@plt" */
		name = "";
		if (symidx) {
			if (symidx >= dsh.sh_size / dsh.sh_entsize || !gelf_getsym(ddata, (int)symidx, &sym))
				continue;
			name = elf_strptr(ss->elf, dsh.sh_link, sym.st_name);
			if (!name)
				continue;
		}
		if (base + (i + 1) * stride > psh.sh_addr + psh.sh_size)
			break;
		shown = *name ? symbol__demangle(name) : NULL;
		plt = xasprintf("%s@plt", shown ? shown : name);
		symtab__add(t, base + i * stride, stride, STB_GLOBAL, STT_FUNC, plt);
		free(plt);
		free(shown);
		added++;
	}
	return added;
}

size_t symsrc__read_segments(struct symsrc *ss, struct dso_segment **segs)
{
	size_t nphdr, n = 0;

	*segs = NULL;
	if (elf_getphdrnum(ss->elf, &nphdr) != 0 || !nphdr)
		return 0;
	*segs = xmalloc(nphdr * sizeof(**segs));
	for (size_t i = 0; i < nphdr; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(ss->elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		(*segs)[n].offset = ph.p_offset;
		(*segs)[n].vaddr = ph.p_vaddr;
		(*segs)[n].filesz = ph.p_filesz;
		n++;
	}
	if (!n) {
		free(*segs);
		*segs = NULL;
	}
	return n;
}
