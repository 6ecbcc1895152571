// SPDX-License-Identifier: MIT
/*
 * The jitdump reader (util/jitdump.c): header, every record kind, both byte
 * orders, the DEBUG_INFO and INLINE_INFO cursors, and the partial-tail
 * report a killed writer leaves.
 */
#include "fuzz-util.h"
#include "util/jitdump.h"

static volatile uint64_t sink;

static void touch(const char *s)
{
	if (s)
		sink += strlen(s);
}

static void walk(struct jitdump *jd, const struct jitdump_record *rec)
{
	struct jitdump_cursor c;
	struct jitdump_debug_line line;
	struct jitdump_frame frames[8];
	uint64_t addr;
	uint32_t nr;

	switch (rec->id) {
	case JIT_CODE_LOAD:
		touch(rec->load.name);
		if (rec->load.code_size)
			sink += ((const unsigned char *)rec->load.code)[rec->load.code_size - 1];
		break;
	case JIT_CODE_DEBUG_INFO:
		jitdump_cursor__init(&c, jd, rec);
		while (jitdump_cursor__next_debug_line(&c, &line) == 1)
			touch(line.file);
		break;
	case JIT_CODE_INLINE_INFO:
		jitdump_cursor__init(&c, jd, rec);
		while (jitdump_cursor__next_inline_pc(&c, &addr, &nr, frames, 8) == 1)
			for (uint32_t i = 0; i < nr && i < 8; i++) {
				touch(frames[i].name);
				touch(frames[i].file);
			}
		break;
	case JIT_CODE_UNWINDING_INFO:
		if (rec->unwind.unwinding_size)
			sink += ((const unsigned char *)rec->unwind.data)[rec->unwind.unwinding_size - 1];
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_file f;
	struct jitdump *jd;
	struct jitdump_record rec;
	uint64_t off;
	int ret, guard = 0;

	fuzz_file__open(&f, data, size);
	ret = jitdump__open(f.path, &jd);
	if (ret != JITDUMP_OK) {
		touch(jitdump__strerror(ret));
		fuzz_file__close(&f);
		return 0;
	}
	sink += jitdump__header(jd)->pid + jitdump__needs_swap(jd) + jitdump__file_size(jd);
	/* a reader must always make progress; 1e6 records cannot fit in max_len */
	while ((ret = jitdump__next(jd, &rec)) != 0 && guard++ < 1000000) {
		if (ret == 1)
			walk(jd, &rec);
		else
			touch(jitdump__record_error(jd));
	}
	if (guard >= 1000000)
		abort();
	if (jitdump__partial_tail(jd, &off))
		sink += off;
	jitdump__rewind(jd);
	if (jitdump__next(jd, &rec) == 1)
		sink += rec.size;
	jitdump__close(jd);
	fuzz_file__close(&f);
	return 0;
}
