// SPDX-License-Identifier: MIT
/*
 * SDT markers: the .note.stapsdt scanner (util/sdt.c) on whole ELF files,
 * and the argument parser (util/sdt-arg.c) on argument strings. The first
 * byte picks:
 *   0..0x7f: an ELF file (the rest); every note found is turned into its
 *            uprobe_events line, as perf buildid-cache / probe do;
 *   0x80..:  an argument string for x86-64 (bit 0 clear) or aarch64 (set),
 *            split and converted one argument at a time.
 */
#include "fuzz-util.h"
#include "util/sdt.h"
#include "util/sdt-arg.h"

static volatile uint64_t sink;

static int sym_addr(void *priv, const char *name, uint64_t *addr)
{
	/* some symbols exist, some do not: both paths of sym(%rip) */
	if (name[0] && (name[0] & 1)) {
		*addr = 0x4000 + (uint64_t)name[0] * 8;
		return 0;
	}
	return -1;
}

static void scan(const uint8_t *data, size_t size)
{
	struct fuzz_file f;
	struct sdt_notes n;

	fuzz_file__open(&f, data, size);
	if (sdt__scan_file(f.path, &n) == 0) {
		for (size_t i = 0; i < n.nr; i++) {
			char *line = sdt_note__uprobe_line(&n.v[i], "/usr/bin/fuzz");

			sink += strlen(line) + sdt__valid_event_name(n.v[i].name) +
				sdt__valid_event_name(n.v[i].provider);
			free(line);
		}
		sdt_notes__exit(&n);
	}
	fuzz_file__close(&f);
}

static void args(const uint8_t *data, size_t size, enum sdt_arch arch)
{
	char *s = fuzz_strndup(data, size);
	struct sdt_arg_ctx ctx = {
		.arch = arch, .symbol_addr = sym_addr, .text_delta = 0x1000,
		.no_immediates = size & 1,
	};
	char **v;
	int nr;

	v = sdt_args__split(s, arch, &nr);
	for (int i = 0; i < nr; i++) {
		char *out = NULL;
		const char *why = NULL;

		if (sdt_arg__to_fetcharg(v[i], &ctx, &out, &why) >= 0) {
			sink += strlen(out);
			free(out);
		} else if (!why) {
			abort();        /* failures must say why */
		}
	}
	if (v[nr] != NULL)
		abort();
	sdt_args__free(v);
	for (int sz = -9; sz <= 9; sz++)
		sink += (uintptr_t)sdt_arg__type_of_size(sz);
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] < 0x80)
		scan(data + 1, size - 1);
	else
		args(data + 1, size - 1, data[0] & 1 ? SDT_ARCH_AARCH64 : SDT_ARCH_X86_64);
	return 0;
}
