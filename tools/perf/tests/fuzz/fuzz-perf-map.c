// SPDX-License-Identifier: MIT
/*
 * perf-PID.map (util/perf-map.c) and, in the same line-oriented spirit,
 * /proc/kallsyms (util/kallsyms.c): the first byte picks which.
 */
#include "fuzz-util.h"
#include "util/kallsyms.h"
#include "util/perf-map.h"
#include "util/symbol.h"

static volatile uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_file f;
	struct symtab t = { 0 };
	int n;

	if (size < 1)
		return 0;
	fuzz_file__open(&f, data + 1, size - 1);
	if (data[0] & 1)
		n = kallsyms__load(f.path, &t);
	else
		n = perf_map__load(f.path, &t);
	sink += n;
	symtab__finish(&t);
	/* (no end >= start check: a symbol at 0xffffffffffffffff ends at 0,
	 * harmless since no address is >= its start and < its end) */
	for (size_t i = 0; i < t.nr; i++)
		sink += strlen(t.syms[i]->name) + (t.syms[i]->end - t.syms[i]->start);
	sink += (uintptr_t)symtab__find(&t, 0x7f0000001000ull);
	symtab__exit(&t);
	fuzz_file__close(&f);
	return 0;
}
