// SPDX-License-Identifier: MIT
/*
 * jitdump reader. The whole file is mapped read-only and records are decoded
 * in place: nothing is copied except the fixed-size fields. A dump may still
 * be growing (the runtime is alive) or may end in a record cut short by a
 * kill; everything up to the last complete record is yielded.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "jitdump.h"
#include "util.h"

struct jitdump {
	const unsigned char *base;
	uint64_t size;
	bool swap;
	struct jitdump_file_header hdr;   /* host byte order */
	uint64_t first;                   /* offset of the first record */
	uint64_t pos;
	bool at_end;
	bool partial;
	uint64_t partial_offset;
	char errbuf[160];
};

static uint32_t get32(const struct jitdump *jd, const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return jd->swap ? __builtin_bswap32(v) : v;
}

static uint64_t get64(const struct jitdump *jd, const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return jd->swap ? __builtin_bswap64(v) : v;
}

const char *jitdump__strerror(int err)
{
	switch (err) {
	case JITDUMP_OK: return "success";
	case JITDUMP_ERR_IO: return strerror(errno);
	case JITDUMP_ERR_SHORT_HEADER: return "file too small for a jitdump header";
	case JITDUMP_ERR_MAGIC: return "not a jitdump (bad magic)";
	case JITDUMP_ERR_VERSION: return "unsupported jitdump version";
	case JITDUMP_ERR_HEADER_SIZE: return "bad jitdump header size";
	case JITDUMP_ERR_FLAGS: return "unknown jitdump header flags";
	case JITDUMP_ERR_RECORD: return "malformed jitdump record";
	}
	return "unknown error";
}

int jitdump__open(const char *path, struct jitdump **out)
{
	struct jitdump *jd;
	struct stat st;
	uint32_t magic;
	void *map;
	int fd, err;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return JITDUMP_ERR_IO;
	if (fstat(fd, &st) < 0) {
		err = errno;
		close(fd);
		errno = err;
		return JITDUMP_ERR_IO;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return JITDUMP_ERR_IO;
	}
	if ((uint64_t)st.st_size < sizeof(struct jitdump_file_header)) {
		close(fd);
		return JITDUMP_ERR_SHORT_HEADER;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	err = errno;
	close(fd);
	if (map == MAP_FAILED) {
		errno = err;
		return JITDUMP_ERR_IO;
	}
	jd = xzalloc(sizeof(*jd));
	jd->base = map;
	jd->size = st.st_size;

	memcpy(&magic, map, sizeof(magic));
	if (magic == JITDUMP_MAGIC_SWAPPED)
		jd->swap = true;
	else if (magic != JITDUMP_MAGIC) {
		err = JITDUMP_ERR_MAGIC;
		goto fail;
	}
	jd->hdr.magic = JITDUMP_MAGIC;
	jd->hdr.version = get32(jd, jd->base + 4);
	jd->hdr.total_size = get32(jd, jd->base + 8);
	jd->hdr.elf_mach = get32(jd, jd->base + 12);
	jd->hdr.pad1 = get32(jd, jd->base + 16);
	jd->hdr.pid = get32(jd, jd->base + 20);
	jd->hdr.timestamp = get64(jd, jd->base + 24);
	jd->hdr.flags = get64(jd, jd->base + 32);
	if (jd->hdr.version != JITDUMP_VERSION) {
		err = JITDUMP_ERR_VERSION;
		goto fail;
	}
	if (jd->hdr.total_size < sizeof(struct jitdump_file_header)) {
		err = JITDUMP_ERR_HEADER_SIZE;
		goto fail;
	}
	if (jd->hdr.total_size > jd->size) {
		err = JITDUMP_ERR_SHORT_HEADER;
		goto fail;
	}
	if (jd->hdr.flags & ~JITDUMP_FLAGS_KNOWN) {
		err = JITDUMP_ERR_FLAGS;
		goto fail;
	}
	jd->first = jd->pos = jd->hdr.total_size;
	*out = jd;
	return JITDUMP_OK;
fail:
	jitdump__close(jd);
	return err;
}

void jitdump__close(struct jitdump *jd)
{
	if (!jd)
		return;
	munmap((void *)jd->base, jd->size);
	free(jd);
}

const struct jitdump_file_header *jitdump__header(const struct jitdump *jd)
{
	return &jd->hdr;
}

bool jitdump__needs_swap(const struct jitdump *jd)
{
	return jd->swap;
}

uint64_t jitdump__file_size(const struct jitdump *jd)
{
	return jd->size;
}

void jitdump__rewind(struct jitdump *jd)
{
	jd->pos = jd->first;
	jd->at_end = jd->partial = false;
}

bool jitdump__partial_tail(const struct jitdump *jd, uint64_t *offset)
{
	if (jd->partial && offset)
		*offset = jd->partial_offset;
	return jd->partial;
}

const char *jitdump__record_error(const struct jitdump *jd)
{
	return jd->errbuf;
}

/* length of a NUL-terminated string starting at p within n bytes, or -1 */
static long bounded_strlen(const unsigned char *p, uint64_t n)
{
	const unsigned char *z = memchr(p, 0, n);

	return z ? z - p : -1;
}

static int bad(struct jitdump *jd, const struct jitdump_record *rec, const char *why)
{
	snprintf(jd->errbuf, sizeof(jd->errbuf), "record id %u size %u at offset %llu: %s",
		 rec->id, rec->size, (unsigned long long)rec->offset, why);
	return JITDUMP_ERR_RECORD;
}

static int decode_load(struct jitdump *jd, struct jitdump_record *r, const unsigned char *p)
{
	const uint64_t fixed = sizeof(struct jitdump_code_load);
	long n;

	if (r->size < fixed + 1)
		return bad(jd, r, "code load shorter than its fixed part");
	r->load.pid = get32(jd, p + 16);
	r->load.tid = get32(jd, p + 20);
	r->load.vma = get64(jd, p + 24);
	r->load.code_addr = get64(jd, p + 32);
	r->load.code_size = get64(jd, p + 40);
	r->load.code_index = get64(jd, p + 48);
	if (r->load.code_size > r->size - fixed - 1)
		return bad(jd, r, "code size exceeds the record");
	/* the code is the record's last code_size bytes; the name precedes it */
	n = bounded_strlen(p + fixed, r->size - fixed - r->load.code_size);
	if (n < 0)
		return bad(jd, r, "function name not NUL-terminated before the code");
	r->load.name = (const char *)p + fixed;
	r->load.code = p + r->size - r->load.code_size;
	return JITDUMP_OK;
}

static int decode_move(struct jitdump *jd, struct jitdump_record *r, const unsigned char *p)
{
	if (r->size < sizeof(struct jitdump_code_move))
		return bad(jd, r, "code move shorter than 64 bytes");
	r->move.pid = get32(jd, p + 16);
	r->move.tid = get32(jd, p + 20);
	r->move.vma = get64(jd, p + 24);
	r->move.old_code_addr = get64(jd, p + 32);
	r->move.new_code_addr = get64(jd, p + 40);
	r->move.code_size = get64(jd, p + 48);
	r->move.code_index = get64(jd, p + 56);
	return JITDUMP_OK;
}

static int decode_debug(struct jitdump *jd, struct jitdump_record *r, const unsigned char *p)
{
	const uint64_t fixed = sizeof(struct jitdump_debug_info);
	const unsigned char *q;
	uint64_t left;

	if (r->size < fixed)
		return bad(jd, r, "debug info shorter than its fixed part");
	r->debug.code_addr = get64(jd, p + 16);
	r->debug.nr_entry = get64(jd, p + 24);
	r->debug.entries = p + fixed;
	left = r->size - fixed;
	if (r->debug.nr_entry > left / (sizeof(struct jitdump_debug_entry) + 1))
		return bad(jd, r, "more debug entries than fit in the record");
	q = p + fixed;
	for (uint64_t i = 0; i < r->debug.nr_entry; i++) {
		long n;

		if (left < sizeof(struct jitdump_debug_entry) + 1)
			return bad(jd, r, "debug entry runs past the record");
		n = bounded_strlen(q + sizeof(struct jitdump_debug_entry),
				   left - sizeof(struct jitdump_debug_entry));
		if (n < 0)
			return bad(jd, r, "debug entry file name not NUL-terminated");
		q += sizeof(struct jitdump_debug_entry) + n + 1;
		left -= sizeof(struct jitdump_debug_entry) + n + 1;
	}
	return JITDUMP_OK;
}

static int decode_unwind(struct jitdump *jd, struct jitdump_record *r, const unsigned char *p)
{
	const uint64_t fixed = sizeof(struct jitdump_unwinding_info);

	if (r->size < fixed)
		return bad(jd, r, "unwinding info shorter than its fixed part");
	r->unwind.unwinding_size = get64(jd, p + 16);
	r->unwind.eh_frame_hdr_size = get64(jd, p + 24);
	r->unwind.mapped_size = get64(jd, p + 32);
	r->unwind.data = p + fixed;
	if (r->unwind.unwinding_size > r->size - fixed)
		return bad(jd, r, "unwinding data exceeds the record");
	if (r->unwind.eh_frame_hdr_size > r->unwind.unwinding_size)
		return bad(jd, r, "eh_frame_hdr larger than the unwinding data");
	return JITDUMP_OK;
}

static int decode_inline(struct jitdump *jd, struct jitdump_record *r, const unsigned char *p)
{
	const uint64_t fixed = sizeof(struct jitdump_inline_info);
	const unsigned char *q = p + fixed, *frames_start;
	uint64_t left;

	if (r->size < fixed)
		return bad(jd, r, "inline info shorter than its fixed part");
	left = r->size - fixed;
	r->inl.code_addr = get64(jd, p + 16);
	r->inl.nr_pc = get32(jd, p + 24);
	r->inl.strtab_size = get32(jd, p + 28);
	r->inl.pcs = q;
	frames_start = q;
	for (uint32_t i = 0; i < r->inl.nr_pc; i++) {
		uint32_t nf;

		if (left < sizeof(struct jitdump_inline_pc))
			return bad(jd, r, "inline pc entry runs past the record");
		nf = get32(jd, q + 8);
		q += sizeof(struct jitdump_inline_pc);
		left -= sizeof(struct jitdump_inline_pc);
		if (nf > left / sizeof(struct jitdump_inline_frame))
			return bad(jd, r, "inline frames run past the record");
		q += (uint64_t)nf * sizeof(struct jitdump_inline_frame);
		left -= (uint64_t)nf * sizeof(struct jitdump_inline_frame);
	}
	if (r->inl.strtab_size > left)
		return bad(jd, r, "inline string table runs past the record");
	if (r->inl.strtab_size && q[r->inl.strtab_size - 1] != 0)
		return bad(jd, r, "inline string table not NUL-terminated");
	r->inl.strtab = (const char *)q;
	/* every string reference must land inside the table */
	q = frames_start;
	for (uint32_t i = 0; i < r->inl.nr_pc; i++) {
		uint32_t nf = get32(jd, q + 8);

		q += sizeof(struct jitdump_inline_pc);
		for (uint32_t f = 0; f < nf; f++, q += sizeof(struct jitdump_inline_frame)) {
			if (get32(jd, q) >= r->inl.strtab_size || get32(jd, q + 4) >= r->inl.strtab_size)
				return bad(jd, r, "inline frame string offset outside the table");
		}
	}
	return JITDUMP_OK;
}

int jitdump__next(struct jitdump *jd, struct jitdump_record *rec)
{
	const unsigned char *p;
	uint64_t left;

	memset(rec, 0, sizeof(*rec));
	if (jd->at_end)
		return 0;
	left = jd->size - jd->pos;
	if (left == 0) {
		jd->at_end = true;
		return 0;
	}
	p = jd->base + jd->pos;
	rec->offset = jd->pos;
	rec->raw = p;
	if (left < sizeof(struct jitdump_record_prefix)) {
		jd->partial = true;
		jd->partial_offset = jd->pos;
		jd->at_end = true;
		return 0;
	}
	rec->id = get32(jd, p);
	rec->size = get32(jd, p + 4);
	rec->timestamp = get64(jd, p + 8);
	if (rec->size < sizeof(struct jitdump_record_prefix)) {
		/* no way to find the next record */
		jd->at_end = true;
		return bad(jd, rec, "record size smaller than the record prefix");
	}
	if (rec->size > left) {
		jd->partial = true;
		jd->partial_offset = jd->pos;
		jd->at_end = true;
		return 0;
	}
	jd->pos += rec->size;

	switch (rec->id) {
	case JIT_CODE_LOAD: return decode_load(jd, rec, p) ?: 1;
	case JIT_CODE_MOVE: return decode_move(jd, rec, p) ?: 1;
	case JIT_CODE_DEBUG_INFO: return decode_debug(jd, rec, p) ?: 1;
	case JIT_CODE_UNWINDING_INFO: return decode_unwind(jd, rec, p) ?: 1;
	case JIT_CODE_INLINE_INFO: return decode_inline(jd, rec, p) ?: 1;
	default: return 1;   /* CLOSE and unknown ids: the prefix is all there is to decode */
	}
}

int jitdump__for_each(struct jitdump *jd, int (*cb)(const struct jitdump_record *rec, void *arg),
		     void *arg)
{
	struct jitdump_record rec;
	int r, first_err = 0;

	while ((r = jitdump__next(jd, &rec)) != 0) {
		if (r < 0) {
			if (!first_err)
				first_err = r;
			continue;
		}
		r = cb(&rec, arg);
		if (r)
			return r;
	}
	return first_err;
}

void jitdump_cursor__init(struct jitdump_cursor *c, const struct jitdump *jd,
			 const struct jitdump_record *rec)
{
	c->jd = jd;
	c->rec = rec;
	if (rec->id == JIT_CODE_DEBUG_INFO) {
		c->pos = rec->debug.entries;
		c->left = rec->debug.nr_entry;
	} else if (rec->id == JIT_CODE_INLINE_INFO) {
		c->pos = rec->inl.pcs;
		c->left = rec->inl.nr_pc;
	} else {
		c->pos = NULL;
		c->left = 0;
	}
}

int jitdump_cursor__next_debug_line(struct jitdump_cursor *c, struct jitdump_debug_line *line)
{
	if (!c->left || c->rec->id != JIT_CODE_DEBUG_INFO)
		return 0;
	line->addr = get64(c->jd, c->pos);
	line->lineno = (int32_t)get32(c->jd, c->pos + 8);
	line->discrim = (int32_t)get32(c->jd, c->pos + 12);
	line->file = (const char *)c->pos + sizeof(struct jitdump_debug_entry);
	c->pos += sizeof(struct jitdump_debug_entry) + strlen(line->file) + 1;
	c->left--;
	return 1;
}

int jitdump_cursor__next_inline_pc(struct jitdump_cursor *c, uint64_t *addr, uint32_t *nr_frame,
			   struct jitdump_frame *frames, uint32_t max)
{
	const char *strtab;
	uint32_t nf;

	if (!c->left || c->rec->id != JIT_CODE_INLINE_INFO)
		return 0;
	strtab = c->rec->inl.strtab;
	*addr = get64(c->jd, c->pos);
	nf = get32(c->jd, c->pos + 8);
	*nr_frame = nf;
	c->pos += sizeof(struct jitdump_inline_pc);
	for (uint32_t f = 0; f < nf; f++, c->pos += sizeof(struct jitdump_inline_frame)) {
		if (f >= max)
			continue;
		frames[f].name = strtab + get32(c->jd, c->pos);
		frames[f].file = strtab + get32(c->jd, c->pos + 4);
		frames[f].line = (int32_t)get32(c->jd, c->pos + 8);
		frames[f].bci = (int32_t)get32(c->jd, c->pos + 12);
	}
	c->left--;
	return 1;
}
