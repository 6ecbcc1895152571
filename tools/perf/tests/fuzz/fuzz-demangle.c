// SPDX-License-Identifier: MIT
/*
 * Symbol names for display (util/demangle-java.c, util/demangle-cxx.c,
 * symbol__demangle): every name comes from a file someone else wrote - an
 * ELF symbol table, a jitdump LOAD, a perf-PID.map line.
 */
#include "fuzz-util.h"
#include "util/symbol.h"

static volatile uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *name = fuzz_strndup(data, size);
	char *out;

	out = java_name__demangle(name);
	if (out) {
		sink += strlen(out);
		free(out);
	}
	out = cxx_name__demangle(name);
	if (out) {
		sink += strlen(out);
		free(out);
	}
	out = symbol__demangle(name);
	if (out) {
		sink += strlen(out);
		free(out);
	}
	free(name);
	return 0;
}
