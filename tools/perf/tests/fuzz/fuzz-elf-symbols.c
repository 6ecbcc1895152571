// SPDX-License-Identifier: MIT
/*
 * ELF symbol loading (util/symbol-elf.c, the build-id reading of util/dso.c):
 * from a file (how perf report opens DSOs) and from memory (the vDSO
 * image), .symtab and .dynsym, PT_LOAD segments, the build-id note, then
 * the symbol table's sorting and lookups.
 */
#include "fuzz-util.h"
#include "util/build-id.h"
#include "util/dso.h"
#include "util/symbol.h"
#include "util/symbol-elf.h"

static volatile uint64_t sink;

static void load(struct symsrc *ss)
{
	struct dso_segment *segs = NULL;
	size_t nseg;
	uint8_t id[BUILD_ID_MAX];

	for (int dyn = 0; dyn < 2; dyn++) {
		struct symtab t = { 0 };
		struct symbol *s;

		sink += symsrc__load_symbols(ss, &t, dyn);
		symtab__finish(&t);
		for (size_t i = 0; i < t.nr; i++) {
			s = t.syms[i];
			sink += strlen(s->name);
			/* every symbol must be found again by its own start */
			if (s->end > s->start && symtab__find(&t, s->start) == NULL)
				abort();
		}
		sink += (uintptr_t)symtab__find(&t, 0x401000);
		symtab__exit(&t);
	}
	nseg = symsrc__read_segments(ss, &segs);
	sink += nseg;
	free(segs);
	if (ss->elf)
		sink += elf__read_build_id(ss->elf, id, sizeof(id));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_file f;
	struct symsrc ss;
	uint8_t id[BUILD_ID_MAX];
	void *copy;

	fuzz_file__open(&f, data, size);
	if (symsrc__open(&ss, f.path) == 0) {
		load(&ss);
		symsrc__close(&ss);
	}
	sink += filename__read_build_id(f.path, id, sizeof(id));
	fuzz_file__close(&f);

	/* libelf may write to a memory image (ELF_C_READ_MMAP_PRIVATE-like), so a copy */
	copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	if (symsrc__open_mem(&ss, copy, size, "[fuzz]") == 0) {
		load(&ss);
		symsrc__close(&ss);
	}
	free(copy);
	return 0;
}
