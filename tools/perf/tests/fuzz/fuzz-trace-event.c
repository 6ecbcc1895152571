// SPDX-License-Identifier: MIT
/*
 * Tracepoint formats (util/trace-event.c) and the print fmt evaluator
 * (util/trace-event-print.c). The first byte picks the entry point:
 *   even: a whole TRACING_DATA payload (the rest of the input); every
 *         format it holds is then printed against a raw record made of
 *         the last bytes of the input, in its byte order and long size;
 *   odd:  one tracefs format file, a NUL, then a raw record for it.
 */
#include "fuzz-util.h"
#include "util/trace-event.h"

static volatile uint64_t sink;

static const char *no_ksym(uint64_t addr, uint64_t *offset, void *arg)
{
	/* deterministic and offline: /proc/kallsyms is not fuzz input */
	*offset = addr & 0xff;
	return addr & 0x100 ? "fuzz_sym" : NULL;
}

static void print_one(const struct trace_formats *tf, const struct trace_format *fmt,
		      const void *raw, size_t rawsz)
{
	char small[16], out[4096];
	const struct trace_field *fl;

	if (tf) {
		sink += trace_formats__print_raw(tf, fmt, raw, rawsz, out, sizeof(out));
		sink += trace_formats__print_raw(tf, fmt, raw, rawsz, small, sizeof(small));
	} else {
		sink += trace_format__print_raw(fmt, raw, rawsz, out, sizeof(out));
		/* truncation must still NUL-terminate and report the full length */
		if (trace_format__print_raw(fmt, raw, rawsz, small, sizeof(small)) >= 0 &&
		    strnlen(small, sizeof(small)) == sizeof(small))
			abort();
	}
	for (size_t i = 0; i < fmt->nr_fields; i++) {
		uint64_t v;

		fl = &fmt->fields[i];
		if (trace_field__value(fl, raw, rawsz, 0, tf && tf->big_endian, &v))
			sink += v;
		if (fl->is_array && fl->array_len > 1 &&
		    trace_field__value(fl, raw, rawsz, fl->array_len - 1, false, &v))
			sink += v;
	}
	if (fmt->nr_fields)
		sink += (uintptr_t)trace_format__field(fmt, fmt->fields[fmt->nr_fields - 1].name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (!(data[0] & 1)) {
		struct trace_formats *tf = trace_formats__parse(data + 1, size - 1);
		size_t rawsz = size - 1 < 256 ? size - 1 : 256;
		unsigned char *raw;
		char comm[16];

		if (!tf)
			return 0;
		trace_formats__set_ksym_resolver(tf, no_ksym, NULL);
		/* an exact-size heap copy: ASan sees any read past the record */
		raw = malloc(rawsz ? rawsz : 1);
		memcpy(raw, data + size - rawsz, rawsz);
		for (size_t i = 0; i < tf->nr_formats; i++)
			print_one(tf, tf->formats[i], raw, rawsz);
		sink += (uintptr_t)trace_formats__find(tf, 1) + (uintptr_t)trace_formats__comm(tf, 1, comm, sizeof(comm));
		free(raw);
		trace_formats__delete(tf);
	} else {
		const uint8_t *nul = memchr(data + 1, 0, size - 1);
		size_t tsz = nul ? (size_t)(nul - data - 1) : size - 1;
		size_t rawsz = nul ? size - 1 - tsz - 1 : 0;
		char *text = fuzz_strndup(data + 1, tsz);
		unsigned char *raw = malloc(rawsz ? rawsz : 1);
		struct trace_format *fmt;

		memcpy(raw, nul ? nul + 1 : data, rawsz);
		/* the parser gets the exact size, not the NUL we added */
		fmt = trace_format__parse(text, tsz, "fuzz");
		if (fmt) {
			print_one(NULL, fmt, raw, rawsz);
			trace_format__delete(fmt);
		}
		free(raw);
		free(text);
	}
	return 0;
}
