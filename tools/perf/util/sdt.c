// SPDX-License-Identifier: MIT
/*
 * Scanning .note.stapsdt. The notes are read straight from the file image
 * with explicit bounds so that a damaged note costs only itself (and the
 * ones after it when its size field makes the rest unreachable), never the
 * whole binary as with perf 6.1.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debug.h"
#include "sdt.h"
#include "strbuf.h"
#include "util.h"

#define NT_STAPSDT 3

struct sym_entry {
	const char *name;
	uint64_t addr;
};

struct scan {
	const char *path;
	Elf *elf;
	const unsigned char *img;
	size_t img_size;
	bool swap, is64;
	GElf_Phdr *loads;
	size_t nr_loads, cap_loads;
	struct sym_entry *syms;
	size_t nr_syms, cap_syms;
	bool syms_loaded;
	bool base_moved_warned;
};

int sdt__valid_event_name(const char *s)
{
	if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	for (s++; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

static uint32_t rd32(const struct scan *sc, const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return sc->swap ? __builtin_bswap32(v) : v;
}

static uint64_t rdaddr(const struct scan *sc, const unsigned char *p)
{
	if (sc->is64) {
		uint64_t v;

		memcpy(&v, p, 8);
		return sc->swap ? __builtin_bswap64(v) : v;
	}
	return rd32(sc, p);
}

/* link-time address -> file offset through the PT_LOAD holding it (file-backed part) */
static int vaddr_to_off(const struct scan *sc, uint64_t addr, uint64_t *off)
{
	for (size_t i = 0; i < sc->nr_loads; i++) {
		const GElf_Phdr *ph = &sc->loads[i];

		if (addr >= ph->p_vaddr && addr - ph->p_vaddr < ph->p_filesz) {
			*off = addr - ph->p_vaddr + ph->p_offset;
			return 0;
		}
	}
	return -1;
}

/*
 * Is VADDR, in an executable segment, the nop an SDT site is made of
 * (sys/sdt.h emits one `nop`)? Unknown architectures always pass.
 */
static bool site_is_nop(const struct scan *sc, enum sdt_arch arch, uint64_t vaddr)
{
	static const unsigned char aarch64_nop[4] = { 0x1f, 0x20, 0x03, 0xd5 };

	for (size_t i = 0; i < sc->nr_loads; i++) {
		const GElf_Phdr *ph = &sc->loads[i];
		uint64_t off;

		if (vaddr < ph->p_vaddr || vaddr - ph->p_vaddr >= ph->p_filesz)
			continue;
		if (!(ph->p_flags & PF_X))
			return false;
		off = vaddr - ph->p_vaddr + ph->p_offset;
		switch (arch) {
		case SDT_ARCH_X86_64:
			return off < sc->img_size && sc->img[off] == 0x90;
		case SDT_ARCH_AARCH64:
			return off + 4 <= sc->img_size && !memcmp(sc->img + off, aarch64_nop, 4);
		default:
			return true;
		}
	}
	return false;
}

static void load_syms(struct scan *sc)
{
	Elf_Scn *scn = NULL;

	sc->syms_loaded = true;
	while ((scn = elf_nextscn(sc->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx == SHN_UNDEF ||
			    GELF_ST_TYPE(sym.st_info) != STT_OBJECT)
				continue;
			name = elf_strptr(sc->elf, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			*ARRAY_PUSH(sc->syms, sc->nr_syms, sc->cap_syms) = (struct sym_entry){ .name = name, .addr = sym.st_value };
		}
	}
}

static int symbol_addr(void *priv, const char *name, uint64_t *addr)
{
	struct scan *sc = priv;

	if (!sc->syms_loaded)
		load_syms(sc);
	for (size_t i = 0; i < sc->nr_syms; i++)
		if (!strcmp(sc->syms[i].name, name)) {
			*addr = sc->syms[i].addr;
			return 0;
		}
	return -1;
}

static void convert_args(struct scan *sc, struct sdt_note *n, enum sdt_arch arch, uint64_t pc_vaddr)
{
	struct sdt_arg_ctx ctx = {
		.arch = arch, .symbol_addr = symbol_addr, .priv = sc,
		.text_delta = (int64_t)(pc_vaddr - n->pc_off),
	};
	char *buf = xstrdup("");
	char **v;
	int nr;

	/* perf: a missing/empty string or one starting with ':' means no arguments */
	if (n->args[0] == ':') {
		n->fetchargs = buf;
		return;
	}
	v = sdt_args__split(n->args, arch, &nr);
	n->nr_args = nr;
	for (int i = 0; i < nr; i++) {
		const char *why = NULL;
		char *fa, *nbuf;

		int r = sdt_arg__to_fetcharg(v[i], &ctx, &fa, &why);

		if (r < 0) {
			pr_warning("Warning: %s: SDT %s:%s argument %d '%s' skipped: %s\n",
				   sc->path, n->provider, n->name, i + 1, v[i], why);
			n->nr_skipped++;
			continue;
		}
		if (r > 0)
			pr_warning("Warning: %s: SDT %s:%s argument %d '%s': %s\n",
				   sc->path, n->provider, n->name, i + 1, v[i], why);
		nbuf = xasprintf("%s arg%d=%s", buf, i + 1, fa);
		free(buf);
		free(fa);
		buf = nbuf;
	}
	sdt_args__free(v);
	n->fetchargs = buf;
}

/* one note's descriptor; 0 = added, -1 = skipped (warned) */
static int parse_desc(struct scan *sc, const unsigned char *desc, size_t descsz, size_t idx,
		      bool have_base, uint64_t base_addr, enum sdt_arch arch, struct sdt_notes *out)
{
	size_t a = sc->is64 ? 8 : 4, off = 3 * a;
	const char *strs[3];
	struct sdt_note n = { 0 };
	uint64_t delta = 0, pc, sem;

	if (descsz < 3 * a + 2) {
		pr_warning("Warning: %s: SDT note #%zu skipped: descriptor too short (%zu bytes)\n",
			   sc->path, idx, descsz);
		return -1;
	}
	for (int k = 0; k < 3; k++) {
		const unsigned char *z;

		if (off >= descsz && k == 2) {
			strs[k] = "";   /* argument string absent */
			break;
		}
		z = off < descsz ? memchr(desc + off, 0, descsz - off) : NULL;
		if (!z) {
			pr_warning("Warning: %s: SDT note #%zu skipped: %s string not terminated inside the note\n",
				   sc->path, idx, k == 0 ? "provider" : k == 1 ? "name" : "argument");
			return -1;
		}
		strs[k] = (const char *)desc + off;
		off = (size_t)(z - desc) + 1;
	}
	if (!sdt__valid_event_name(strs[0]) || !sdt__valid_event_name(strs[1])) {
		pr_warning("Warning: %s: SDT note #%zu skipped: '%.64s:%.64s' is not a valid event name\n",
			   sc->path, idx, strs[0], strs[1]);
		return -1;
	}
	n.pc = rdaddr(sc, desc);
	n.base = rdaddr(sc, desc + a);
	n.semaphore = rdaddr(sc, desc + 2 * a);
	/* prelink moved the binary: .stapsdt.base's real address tells by how much */
	if (have_base && n.base)
		delta = base_addr - n.base;
	/*
	 * The notes say the code moved with .stapsdt.base, but when the section
	 * alone was moved (objcopy --change-section-address) the adjusted place
	 * is no probe site while the note's own address still is: trust the
	 * code. perf 6.1 probes the adjusted place, in the middle of anything.
	 */
	if (delta && arch != SDT_ARCH_UNKNOWN && !site_is_nop(sc, arch, n.pc + delta) &&
	    site_is_nop(sc, arch, n.pc)) {
		if (!sc->base_moved_warned)
			pr_warning("Warning: %s: .stapsdt.base is at 0x%" PRIx64 ", the SDT notes say 0x%" PRIx64
				   ", but the code did not move with it: probes placed at the notes' own addresses\n",
				   sc->path, base_addr, n.base);
		sc->base_moved_warned = true;
		delta = 0;
	}
	pc = n.pc + delta;
	n.addr = pc;
	if (vaddr_to_off(sc, pc, &n.pc_off) < 0) {
		pr_warning("Warning: %s: SDT %s:%s skipped: address 0x%" PRIx64 " is not in a loaded segment\n",
			   sc->path, strs[0], strs[1], pc);
		return -1;
	}
	if (n.semaphore) {
		sem = n.semaphore + delta;
		if (vaddr_to_off(sc, sem, &n.sem_off) < 0) {
			pr_warning("Warning: %s: SDT %s:%s skipped: semaphore 0x%" PRIx64 " is not in the file\n",
				   sc->path, strs[0], strs[1], sem);
			return -1;
		}
	}
	n.provider = xstrdup(strs[0]);
	n.name = xstrdup(strs[1]);
	n.args = xstrdup(strs[2]);
	convert_args(sc, &n, arch, pc);
	*ARRAY_PUSH(out->v, out->nr, out->cap) = n;
	return 0;
}

static void scan_section(struct scan *sc, const GElf_Shdr *sh, bool have_base, uint64_t base_addr,
			 enum sdt_arch arch, struct sdt_notes *out, size_t *idx)
{
	size_t size = sh->sh_size, pos = 0;
	const unsigned char *p;

	if (sh->sh_offset > sc->img_size) {
		pr_warning("Warning: %s: .note.stapsdt lies past the end of the file\n", sc->path);
		out->nr_bad++;
		return;
	}
	if (size > sc->img_size - sh->sh_offset) {
		pr_warning("Warning: %s: .note.stapsdt is truncated (%zu of %zu bytes in the file)\n",
			   sc->path, (size_t)(sc->img_size - sh->sh_offset), size);
		size = sc->img_size - sh->sh_offset;
		out->nr_bad++;
	}
	p = sc->img + sh->sh_offset;
	while (pos < size) {
		uint32_t namesz, descsz, type;
		size_t name_off, desc_off, next;

		(*idx)++;
		if (size - pos < 12) {
			pr_warning("Warning: %s: SDT note #%zu skipped: truncated header\n", sc->path, *idx);
			out->nr_bad++;
			return;
		}
		namesz = rd32(sc, p + pos);
		descsz = rd32(sc, p + pos + 4);
		type = rd32(sc, p + pos + 8);
		name_off = pos + 12;
		if (namesz > size - name_off) {
			pr_warning("Warning: %s: SDT note #%zu skipped: name size %u runs past the section; "
				   "later notes unreachable\n", sc->path, *idx, namesz);
			out->nr_bad++;
			return;
		}
		desc_off = name_off + ALIGN_UP((size_t)namesz, 4);
		if (desc_off > size || descsz > size - desc_off) {
			pr_warning("Warning: %s: SDT note #%zu skipped: descriptor size %u runs past the section; "
				   "later notes unreachable\n", sc->path, *idx, descsz);
			out->nr_bad++;
			return;
		}
		next = desc_off + ALIGN_UP((size_t)descsz, 4);
		if (type != NT_STAPSDT || namesz != 8 || memcmp(p + name_off, "stapsdt", 8)) {
			pr_warning("Warning: %s: note #%zu in .note.stapsdt is not an SDT note (type %u), skipped\n",
				   sc->path, *idx, type);
			out->nr_bad++;
		} else if (parse_desc(sc, p + desc_off, descsz, *idx, have_base, base_addr, arch, out) < 0) {
			out->nr_bad++;
		}
		pos = next;
	}
}

int sdt__scan_file(const char *path, struct sdt_notes *out)
{
	struct scan sc = { .path = path };
	GElf_Ehdr eh;
	Elf_Scn *scn = NULL;
	size_t shstrndx, nph, idx = 0;
	bool have_base = false;
	uint64_t base_addr = 0;
	struct stat st;
	enum sdt_arch arch;
	int fd, ret = -1;

	memset(out, 0, sizeof(*out));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		pr_err("%s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		pr_err("%s: %s\n", path, S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
		close(fd);
		return -1;
	}
	elf_version(EV_CURRENT);
	sc.elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!sc.elf || elf_kind(sc.elf) != ELF_K_ELF || !gelf_getehdr(sc.elf, &eh)) {
		pr_err("%s: not an ELF file\n", path);
		goto out;
	}
	sc.img = (const unsigned char *)elf_rawfile(sc.elf, &sc.img_size);
	if (!sc.img) {
		pr_err("%s: cannot read the ELF image: %s\n", path, elf_errmsg(-1));
		goto out;
	}
	sc.is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	sc.swap = (eh.e_ident[EI_DATA] == ELFDATA2MSB) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	arch = eh.e_machine == EM_X86_64 ? SDT_ARCH_X86_64 :
	       eh.e_machine == EM_AARCH64 ? SDT_ARCH_AARCH64 : SDT_ARCH_UNKNOWN;
	out->arch = arch;
	if (elf_getphdrnum(sc.elf, &nph) == 0) {
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(sc.elf, (int)i, &ph) && ph.p_type == PT_LOAD) {
				*ARRAY_PUSH(sc.loads, sc.nr_loads, sc.cap_loads) = ph;
			}
		}
	}
	if (elf_getshdrstrndx(sc.elf, &shstrndx) < 0) {
		pr_err("%s: no section name table: %s\n", path, elf_errmsg(-1));
		goto out;
	}
	while ((scn = elf_nextscn(sc.elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(sc.elf, shstrndx, sh.sh_name)))
			continue;
		if (!strcmp(name, ".stapsdt.base") && sh.sh_type != SHT_NOBITS) {
			have_base = true;
			base_addr = sh.sh_addr;
		}
	}
	while ((scn = elf_nextscn(sc.elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(name = elf_strptr(sc.elf, shstrndx, sh.sh_name)) || strcmp(name, ".note.stapsdt"))
			continue;
		scan_section(&sc, &sh, have_base, base_addr, arch, out, &idx);
	}
	ret = 0;
out:
	free(sc.loads);
	free(sc.syms);
	if (sc.elf)
		elf_end(sc.elf);
	close(fd);
	if (ret < 0)
		sdt_notes__exit(out);
	return ret;
}

void sdt_notes__exit(struct sdt_notes *n)
{
	for (size_t i = 0; i < n->nr; i++) {
		free(n->v[i].provider);
		free(n->v[i].name);
		free(n->v[i].args);
		free(n->v[i].fetchargs);
	}
	free(n->v);
	n->v = NULL;
	n->nr = n->cap = 0;
}

char *sdt_note__uprobe_line(const struct sdt_note *n, const char *path)
{
	char sem[32] = "";

	if (n->sem_off)
		snprintf(sem, sizeof(sem), "(0x%" PRIx64 ")", n->sem_off);
	return xasprintf("p:sdt_%s/%s %s:0x%" PRIx64 "%s%s", n->provider, n->name, path,
			 n->pc_off, sem, n->fetchargs ? n->fetchargs : "");
}
