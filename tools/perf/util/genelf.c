// SPDX-License-Identifier: MIT
/*
 * ELF64 writer for jitted functions (see genelf.h for the layout). Written by
 * hand rather than through libelf: each file is a few hundred bytes built in
 * one buffer and written with a single write(2), which is what makes
 * injecting 100,000 functions cheap.
 *
 * DWARF is version 4, 32-bit format: a compile unit holding the compiled
 * method as a DW_TAG_subprogram; methods inlined into it appear as abstract
 * DW_TAG_subprogram DIEs (DW_AT_inline) referenced from nested
 * DW_TAG_inlined_subroutine DIEs carrying the call site, which is what
 * addr2line -i and libdw walk to print an inline chain. Names are given as
 * DW_AT_linkage_name too: binutils prefers the symbol table's name over a
 * plain DW_AT_name for the innermost frame, which would hide the leaf method.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "genelf.h"
#include "debug.h"
#include "util.h"

#if defined(__x86_64__)
#define GENELF_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define GENELF_MACHINE EM_AARCH64
#elif defined(__powerpc64__)
#define GENELF_MACHINE EM_PPC64
#elif defined(__riscv)
#define GENELF_MACHINE EM_RISCV
#elif defined(__s390x__)
#define GENELF_MACHINE EM_S390
#else
#error "genelf: unknown host machine"
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define GENELF_DATA ELFDATA2LSB
#else
#define GENELF_DATA ELFDATA2MSB
#endif

/* DWARF constants used here (DWARF 4, section 7) */
enum {
	DW_TAG_compile_unit = 0x11, DW_TAG_subprogram = 0x2e, DW_TAG_inlined_subroutine = 0x1d,
	DW_AT_name = 0x03, DW_AT_stmt_list = 0x10, DW_AT_low_pc = 0x11, DW_AT_high_pc = 0x12,
	DW_AT_language = 0x13, DW_AT_inline = 0x20, DW_AT_producer = 0x25,
	DW_AT_abstract_origin = 0x31, DW_AT_call_file = 0x58, DW_AT_call_line = 0x59, DW_AT_linkage_name = 0x6e,
	DW_FORM_addr = 0x01, DW_FORM_data2 = 0x05, DW_FORM_data8 = 0x07, DW_FORM_string = 0x08,
	DW_FORM_data1 = 0x0b, DW_FORM_udata = 0x0f, DW_FORM_ref4 = 0x13, DW_FORM_sec_offset = 0x17,
	DW_LANG_Java = 0x0b, DW_INL_inlined = 1,
	DW_LNS_copy = 1, DW_LNS_advance_pc = 2, DW_LNS_advance_line = 3, DW_LNS_set_file = 4,
	DW_LNE_end_sequence = 1, DW_LNE_set_address = 2,
};

enum { ABBREV_CU = 1, ABBREV_SUBPROGRAM, ABBREV_ABSTRACT, ABBREV_INLINED };

#define LINE_BASE   (-5)
#define LINE_RANGE  14
#define OPCODE_BASE 13

struct bbuf {
	unsigned char *p;
	size_t len, cap;
};

static void bb_reserve(struct bbuf *b, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;

		while (cap < b->len + n)
			cap *= 2;
		b->p = xrealloc(b->p, cap);
		b->cap = cap;
	}
}

static void bb_put(struct bbuf *b, const void *p, size_t n)
{
	bb_reserve(b, n);
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void bb_zeros(struct bbuf *b, size_t n)
{
	bb_reserve(b, n);
	memset(b->p + b->len, 0, n);
	b->len += n;
}

static void bb_u8(struct bbuf *b, uint8_t v) { bb_put(b, &v, 1); }
static void bb_u16(struct bbuf *b, uint16_t v) { bb_put(b, &v, 2); }
static void bb_u32(struct bbuf *b, uint32_t v) { bb_put(b, &v, 4); }
static void bb_u64(struct bbuf *b, uint64_t v) { bb_put(b, &v, 8); }
static void bb_str(struct bbuf *b, const char *s) { bb_put(b, s, strlen(s) + 1); }

static void bb_uleb(struct bbuf *b, uint64_t v)
{
	do {
		uint8_t c = v & 0x7f;

		v >>= 7;
		bb_u8(b, c | (v ? 0x80 : 0));
	} while (v);
}

static void bb_sleb(struct bbuf *b, int64_t v)
{
	for (;;) {
		uint8_t c = v & 0x7f;

		v >>= 7;   /* arithmetic shift: gcc and clang define it for signed values */
		if ((v == 0 && !(c & 0x40)) || (v == -1 && (c & 0x40))) {
			bb_u8(b, c);
			return;
		}
		bb_u8(b, c | 0x80);
	}
}

static void bb_align(struct bbuf *b, size_t a)
{
	bb_zeros(b, ALIGN_UP(b->len, a) - b->len);
}

static void set_u32(struct bbuf *b, size_t off, uint32_t v) { memcpy(b->p + off, &v, 4); }
static void set_u64(struct bbuf *b, size_t off, uint64_t v) { memcpy(b->p + off, &v, 8); }

/* string -> small integer, for the file table and the abstract method DIEs */
struct strmap {
	const char **keys;
	uint32_t *vals;
	size_t cap, n;
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

static void strmap_reset(struct strmap *m, size_t want)
{
	size_t cap = 16;

	while (cap < want * 2)
		cap *= 2;
	if (cap > m->cap) {
		free(m->keys);
		free(m->vals);
		m->keys = xmalloc(cap * sizeof(*m->keys));
		m->vals = xmalloc(cap * sizeof(*m->vals));
		m->cap = cap;
	}
	memset(m->keys, 0, m->cap * sizeof(*m->keys));
	m->n = 0;
}

/* slot of s: keys[slot] == NULL if absent */
static size_t strmap_slot(const struct strmap *m, const char *s)
{
	size_t i = str_hash(s) & (m->cap - 1);

	while (m->keys[i] && (m->keys[i] != s && strcmp(m->keys[i], s)))
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* 0 = not found */
static uint32_t strmap_get(const struct strmap *m, const char *s)
{
	size_t i = strmap_slot(m, s);

	return m->keys[i] ? m->vals[i] : 0;
}

/* false if s is already there; the table was sized by strmap_reset for every key */
static bool strmap_add(struct strmap *m, const char *s, uint32_t val)
{
	size_t i = strmap_slot(m, s);

	if (m->keys[i])
		return false;
	m->keys[i] = s;
	m->vals[i] = val;
	m->n++;
	return true;
}

struct genelf_scratch {
	struct bbuf abbrev, info, line, aranges;
	struct strmap files, methods;
	const char **file_list;
	size_t file_list_cap;
	struct genelf_line *lines;
	size_t lines_cap;
	struct genelf_inline_pc *pcs;
	size_t pcs_cap;
};

static int cmp_line(const void *a, const void *b)
{
	const struct genelf_line *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* qsort is not stable: keep the dump's order for equal addresses */
	return x < y ? -1 : x > y;
}

static int cmp_pc(const void *a, const void *b)
{
	const struct genelf_inline_pc *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x < y ? -1 : x > y;
}

static bool is_sorted_lines(const struct genelf_line *l, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (l[i].addr < l[i - 1].addr)
			return false;
	return true;
}

static uint32_t file_index(struct genelf_scratch *s, const char *f)
{
	if (!f || !*f)
		return 0;
	return strmap_get(&s->files, f);
}

static void add_file(struct genelf_scratch *s, const char *f)
{
	if (!f || !*f)
		return;
	if (s->files.n >= s->file_list_cap) {
		s->file_list_cap = s->file_list_cap ? s->file_list_cap * 2 : 64;
		s->file_list = xrealloc(s->file_list, s->file_list_cap * sizeof(*s->file_list));
	}
	if (strmap_add(&s->files, f, (uint32_t)s->files.n + 1))
		s->file_list[s->files.n - 1] = f;
}

static void build_abbrev(struct bbuf *b)
{
	static const uint8_t abbrev[] = {
		ABBREV_CU, DW_TAG_compile_unit, 1,
		DW_AT_producer, DW_FORM_string, DW_AT_language, DW_FORM_data2,
		DW_AT_name, DW_FORM_string, DW_AT_low_pc, DW_FORM_addr,
		DW_AT_high_pc, DW_FORM_data8, DW_AT_stmt_list, DW_FORM_sec_offset, 0, 0,
		ABBREV_SUBPROGRAM, DW_TAG_subprogram, 1,
		DW_AT_name, DW_FORM_string, DW_AT_linkage_name, DW_FORM_string, DW_AT_low_pc, DW_FORM_addr,
		DW_AT_high_pc, DW_FORM_data8, 0, 0,
		ABBREV_ABSTRACT, DW_TAG_subprogram, 0,
		DW_AT_name, DW_FORM_string, DW_AT_linkage_name, DW_FORM_string,
		DW_AT_inline, DW_FORM_data1, 0, 0,
		ABBREV_INLINED, DW_TAG_inlined_subroutine, 1,
		DW_AT_abstract_origin, DW_FORM_ref4, DW_AT_low_pc, DW_FORM_addr,
		DW_AT_high_pc, DW_FORM_data8, DW_AT_call_file, DW_FORM_udata,
		DW_AT_call_line, DW_FORM_udata, 0, 0,
		0,
	};

	bb_put(b, abbrev, sizeof(abbrev));
}

static void build_line(struct genelf_scratch *s, const struct genelf_line *lines, size_t n,
		       uint64_t text, uint64_t code_size)
{
	static const uint8_t std_lengths[OPCODE_BASE - 1] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };
	struct bbuf *b = &s->line;
	size_t len_off, hlen_off, prog_off;
	uint64_t addr = text;
	int64_t line = 1;
	uint32_t file = 1;

	len_off = b->len;
	bb_u32(b, 0);
	bb_u16(b, 4);
	hlen_off = b->len;
	bb_u32(b, 0);
	bb_u8(b, 1);                  /* minimum_instruction_length */
	bb_u8(b, 1);                  /* maximum_operations_per_instruction */
	bb_u8(b, 1);                  /* default_is_stmt */
	bb_u8(b, (uint8_t)LINE_BASE);
	bb_u8(b, LINE_RANGE);
	bb_u8(b, OPCODE_BASE);
	bb_put(b, std_lengths, sizeof(std_lengths));
	bb_u8(b, 0);                  /* no include directories */
	for (size_t i = 0; i < s->files.n; i++) {
		bb_str(b, s->file_list[i]);
		bb_u8(b, 0);
		bb_u8(b, 0);
		bb_u8(b, 0);
	}
	bb_u8(b, 0);
	prog_off = b->len;
	set_u32(b, hlen_off, (uint32_t)(prog_off - hlen_off - 4));

	if (n) {
		bb_u8(b, 0);
		bb_u8(b, 9);
		bb_u8(b, DW_LNE_set_address);
		bb_u64(b, addr);
		for (size_t i = 0; i < n; i++) {
			uint64_t a = text + lines[i].addr;
			uint32_t f = file_index(s, lines[i].file);
			int64_t dl = (int64_t)lines[i].line - line;
			uint64_t da = a - addr;

			if (f != file) {
				bb_u8(b, DW_LNS_set_file);
				bb_uleb(b, f);
				file = f;
			}
			if (dl >= LINE_BASE && dl < LINE_BASE + LINE_RANGE &&
			    da <= (uint64_t)(255 - OPCODE_BASE - (dl - LINE_BASE)) / LINE_RANGE) {
				bb_u8(b, (uint8_t)((dl - LINE_BASE) + LINE_RANGE * da + OPCODE_BASE));
			} else {
				if (dl) {
					bb_u8(b, DW_LNS_advance_line);
					bb_sleb(b, dl);
				}
				if (da) {
					bb_u8(b, DW_LNS_advance_pc);
					bb_uleb(b, da);
				}
				bb_u8(b, DW_LNS_copy);
			}
			line = lines[i].line;
			addr = a;
		}
		if (text + code_size > addr) {
			bb_u8(b, DW_LNS_advance_pc);
			bb_uleb(b, text + code_size - addr);
		}
		bb_u8(b, 0);
		bb_u8(b, 1);
		bb_u8(b, DW_LNE_end_sequence);
	}
	set_u32(b, len_off, (uint32_t)(b->len - len_off - 4));
}

/* an open DW_TAG_inlined_subroutine while walking the pcs */
struct open_die {
	const char *method;
	const char *call_file;
	int32_t call_line;
	uint64_t low;             /* text-relative */
	size_t high_off;          /* where its DW_AT_high_pc goes in .debug_info */
};

static bool frame_key_equal(const struct open_die *d, const struct genelf_frame *callee,
			    const struct genelf_frame *caller)
{
	return (d->method == callee->name || !strcmp(d->method, callee->name)) &&
	       d->call_line == caller->line &&
	       (d->call_file == caller->file || !strcmp(d->call_file, caller->file));
}

static void close_dies(struct bbuf *b, struct open_die *stack, size_t *depth, size_t keep,
		       uint64_t end)
{
	while (*depth > keep) {
		struct open_die *d = &stack[--*depth];

		set_u64(b, d->high_off, end - d->low);
		bb_u8(b, 0);
	}
}

/*
 * DIEs of the inline stacks. pcs are sorted; pc i covers [addr_i, addr_i+1)
 * (the last one up to the end of the code), so each inline instance is one
 * contiguous low_pc/high_pc range.
 */
static void build_inline_dies(struct genelf_scratch *s, const struct genelf_inline_pc *pcs,
			      size_t n, uint64_t text, uint64_t code_size, size_t cu_off)
{
	struct bbuf *b = &s->info;
	struct open_die *stack = NULL;
	size_t depth = 0, cap = 0;

	for (size_t i = 0; i < n; i++) {
		const struct genelf_inline_pc *pc = &pcs[i];
		uint64_t lo = pc->addr;
		size_t levels, common = 0;

		if (i + 1 < n && pcs[i + 1].addr == lo)
			continue;          /* the last entry for an address wins */
		levels = pc->nr_frame ? pc->nr_frame - 1 : 0;
		while (common < depth && common < levels) {
			size_t k = pc->nr_frame - 2 - common;

			if (!frame_key_equal(&stack[common], &pc->frames[k], &pc->frames[k + 1]))
				break;
			common++;
		}
		close_dies(b, stack, &depth, common, text + lo);
		if (levels > cap) {
			cap = levels;
			stack = xrealloc(stack, cap * sizeof(*stack));
		}
		for (size_t j = common; j < levels; j++) {
			size_t k = pc->nr_frame - 2 - j;
			const struct genelf_frame *callee = &pc->frames[k], *caller = &pc->frames[k + 1];
			struct open_die *d = &stack[depth++];

			d->method = callee->name;
			d->call_file = caller->file;
			d->call_line = caller->line;
			d->low = text + lo;
			bb_uleb(b, ABBREV_INLINED);
			bb_u32(b, strmap_get(&s->methods, callee->name) - 1 - (uint32_t)cu_off);
			bb_u64(b, text + lo);
			d->high_off = b->len;
			bb_u64(b, 0);
			bb_uleb(b, file_index(s, caller->file));
			bb_uleb(b, caller->line > 0 ? (uint64_t)caller->line : 0);
		}
	}
	close_dies(b, stack, &depth, 0, text + code_size);
	free(stack);
}

static void build_info(struct genelf_scratch *s, const char *name, const char *cu_name,
		       const struct genelf_inline_pc *pcs, size_t npcs, uint64_t text,
		       uint64_t code_size, uint32_t stmt_list)
{
	struct bbuf *b = &s->info;
	size_t len_off = b->len;

	bb_u32(b, 0);
	bb_u16(b, 4);
	bb_u32(b, 0);                 /* abbrev offset */
	bb_u8(b, 8);
	bb_uleb(b, ABBREV_CU);
	bb_str(b, "perf inject --jit");
	bb_u16(b, DW_LANG_Java);
	bb_str(b, cu_name);
	bb_u64(b, text);
	bb_u64(b, code_size);
	bb_u32(b, stmt_list);

	/* abstract instances first, so the inlined DIEs can refer back to them */
	{
		size_t nframes = 0;

		for (size_t i = 0; i < npcs; i++)
			nframes += pcs[i].nr_frame;
		strmap_reset(&s->methods, nframes + 1);
	}
	for (size_t i = 0; i < npcs; i++) {
		for (uint32_t k = 0; k + 1 < pcs[i].nr_frame; k++) {
			const char *m = pcs[i].frames[k].name;

			/* value = DIE offset + 1, so that 0 means absent */
			if (!strmap_add(&s->methods, m, (uint32_t)b->len + 1))
				continue;
			bb_uleb(b, ABBREV_ABSTRACT);
			bb_str(b, m);
			bb_str(b, m);
			bb_u8(b, DW_INL_inlined);
		}
	}

	bb_uleb(b, ABBREV_SUBPROGRAM);
	bb_str(b, name);
	bb_str(b, name);
	bb_u64(b, text);
	bb_u64(b, code_size);
	build_inline_dies(s, pcs, npcs, text, code_size, len_off);
	bb_u8(b, 0);                  /* end of the subprogram's children */
	bb_u8(b, 0);                  /* end of the CU's children */
	set_u32(b, len_off, (uint32_t)(b->len - len_off - 4));
}

/* four independent 64-bit lanes over the content: 160 bits of id with no crypto library */
struct content_hash {
	uint64_t h[4];
	uint64_t n;
	unsigned char carry[8];
	unsigned ncarry;
};

static const uint64_t hk1[4] = { 0x9e3779b185ebca87ull, 0xc2b2ae3d27d4eb4full,
				 0x165667b19e3779f9ull, 0x27d4eb2f165667c5ull };
static const uint64_t hk2[4] = { 0xff51afd7ed558ccdull, 0xc4ceb9fe1a85ec53ull,
				 0x94d049bb133111ebull, 0xbf58476d1ce4e5b9ull };

static void hash_init(struct content_hash *c)
{
	memset(c, 0, sizeof(*c));
	for (int l = 0; l < 4; l++)
		c->h[l] = (uint64_t)l + 1;
}

static void hash_word(struct content_hash *c, uint64_t w)
{
	for (int l = 0; l < 4; l++) {
		c->h[l] ^= w * hk1[l];
		c->h[l] = ((c->h[l] << 31) | (c->h[l] >> 33)) * hk2[l];
	}
}

static void hash_update(struct content_hash *c, const void *data, size_t n)
{
	const unsigned char *p = data;
	uint64_t w;

	c->n += n;
	while (c->ncarry && n) {
		c->carry[c->ncarry++] = *p++;
		n--;
		if (c->ncarry == 8) {
			memcpy(&w, c->carry, 8);
			hash_word(c, w);
			c->ncarry = 0;
		}
	}
	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		hash_word(c, w);
	}
	memcpy(c->carry, p, n);
	c->ncarry = (unsigned)n;
}

static void hash_final(struct content_hash *c, uint8_t out[GENELF_BUILD_ID_SIZE])
{
	uint64_t w = 0, h[4];

	memcpy(&w, c->carry, c->ncarry);
	hash_word(c, w ^ c->n << 56 ^ c->n);
	for (int l = 0; l < 4; l++) {
		uint64_t x = c->h[l] ^ c->h[(l + 1) & 3] * hk1[l];

		x ^= x >> 33;
		x *= hk2[l];
		x ^= x >> 29;
		x *= hk1[(l + 2) & 3];
		x ^= x >> 32;
		h[l] = x;
	}
	memcpy(out, h, GENELF_BUILD_ID_SIZE);
}

static void content_hash(const unsigned char *p, size_t n, uint8_t out[GENELF_BUILD_ID_SIZE])
{
	struct content_hash c;

	hash_init(&c);
	hash_update(&c, p, n);
	hash_final(&c, out);
}

static struct genelf_scratch *scratch_of(struct genelf_image *img)
{
	if (!img->scratch)
		img->scratch = xzalloc(sizeof(struct genelf_scratch));
	return img->scratch;
}

/* lines/pcs in range, text-relative and sorted, into scratch copies */
static size_t prepare_lines(struct genelf_scratch *s, const struct genelf_input *in)
{
	size_t n = 0;

	if (in->nr_lines > s->lines_cap) {
		s->lines_cap = in->nr_lines;
		s->lines = xrealloc(s->lines, s->lines_cap * sizeof(*s->lines));
	}
	for (size_t i = 0; i < in->nr_lines; i++) {
		const struct genelf_line *l = &in->lines[i];

		if (l->addr < in->code_addr || l->addr - in->code_addr >= in->code_size ||
		    l->line <= 0 || !l->file || !*l->file)
			continue;
		s->lines[n] = *l;
		s->lines[n].addr -= in->code_addr;
		n++;
	}
	if (!is_sorted_lines(s->lines, n))
		qsort(s->lines, n, sizeof(*s->lines), cmp_line);
	return n;
}

static size_t prepare_pcs(struct genelf_scratch *s, const struct genelf_input *in)
{
	size_t n = 0;
	bool sorted = true;

	if (in->nr_pcs > s->pcs_cap) {
		s->pcs_cap = in->nr_pcs;
		s->pcs = xrealloc(s->pcs, s->pcs_cap * sizeof(*s->pcs));
	}
	for (size_t i = 0; i < in->nr_pcs; i++) {
		const struct genelf_inline_pc *p = &in->pcs[i];

		if (p->addr < in->code_addr || p->addr - in->code_addr >= in->code_size || !p->frames)
			continue;
		s->pcs[n] = *p;
		s->pcs[n].addr -= in->code_addr;
		if (n && s->pcs[n].addr < s->pcs[n - 1].addr)
			sorted = false;
		n++;
	}
	if (!sorted)
		qsort(s->pcs, n, sizeof(*s->pcs), cmp_pc);
	return n;
}

/*
 * Appends one compile unit for the function at `text` (its lines and inline
 * DIEs, already prepared into s->lines / s->pcs) to the info, line and
 * aranges buffers; the abbrev table is shared by all units.
 */
static void add_cu(struct genelf_scratch *s, const struct genelf_input *in, size_t nlines, size_t npcs,
		   uint64_t text)
{
	const char *cu_name = nlines ? s->lines[0].file : in->name;
	size_t nframes = 0, cu_off = s->info.len, line_off = s->line.len;

	for (size_t i = 0; i < npcs; i++)
		nframes += s->pcs[i].nr_frame;
	strmap_reset(&s->files, nlines + nframes + 1);
	for (size_t i = 0; i < nlines; i++)
		add_file(s, s->lines[i].file);
	for (size_t i = 0; i < npcs; i++)
		for (uint32_t k = 0; k < s->pcs[i].nr_frame; k++)
			add_file(s, s->pcs[i].frames[k].file);
	build_line(s, s->lines, nlines, text, in->code_size);
	build_info(s, in->name, cu_name, s->pcs, npcs, text, in->code_size, (uint32_t)line_off);
	/* libdw finds the CU of an address through .debug_aranges only */
	bb_u32(&s->aranges, 44);
	bb_u16(&s->aranges, 2);
	bb_u32(&s->aranges, (uint32_t)cu_off);
	bb_u8(&s->aranges, 8);
	bb_u8(&s->aranges, 0);
	bb_zeros(&s->aranges, 4);
	bb_u64(&s->aranges, text);
	bb_u64(&s->aranges, in->code_size);
	bb_zeros(&s->aranges, 16);
}

struct section {
	const char *name;
	uint32_t type;
	uint64_t flags, addr, offset, size;
	uint32_t link, info;
	uint64_t align, entsize;
};

int genelf__build(const struct genelf_input *in, struct genelf_image *img)
{
	struct genelf_scratch *s = scratch_of(img);
	struct section sec[16];
	unsigned nsec = 0, text_idx, nph;
	struct bbuf out = { img->buf, 0, img->cap };
	bool unwind = in->unwind && in->unwind_size && in->eh_frame_hdr_size <= in->unwind_size;
	bool debug;
	size_t nlines, npcs;
	uint64_t note_off, text, alloc_end, eh_off = 0, hdr_off = 0;
	size_t shstr_size, strtab_off, shdr_off, note_desc;
	Elf64_Ehdr eh;
	Elf64_Phdr ph[3];
	Elf64_Sym sym[2];

	if (!in->code_size || in->code_size > (1ull << 32) || in->unwind_size > (1ull << 32)) {
		pr_debug("genelf: %s: unusable code size %#" PRIx64 "\n", in->name, in->code_size);
		return -1;
	}

	nlines = prepare_lines(s, in);
	npcs = prepare_pcs(s, in);
	debug = nlines || npcs;

	nph = unwind ? 3 : 2;
	note_off = sizeof(Elf64_Ehdr) + nph * sizeof(Elf64_Phdr);
	text = ALIGN_UP(note_off + 12 + 4 + GENELF_BUILD_ID_SIZE, 16);
	alloc_end = text + in->code_size;
	if (unwind) {
		eh_off = ALIGN_UP(alloc_end, 8);
		hdr_off = eh_off + in->unwind_size - in->eh_frame_hdr_size;
		alloc_end = eh_off + in->unwind_size;
	}

	/* ELF header and program headers are filled in at the end */
	bb_zeros(&out, note_off);
	bb_u32(&out, 4);
	bb_u32(&out, GENELF_BUILD_ID_SIZE);
	bb_u32(&out, NT_GNU_BUILD_ID);
	bb_put(&out, "GNU", 4);
	note_desc = out.len;
	bb_zeros(&out, GENELF_BUILD_ID_SIZE);
	sec[++nsec] = (struct section){ ".note.gnu.build-id", SHT_NOTE, SHF_ALLOC, note_off, note_off,
					12 + 4 + GENELF_BUILD_ID_SIZE, 0, 0, 4, 0 };
	bb_zeros(&out, text - out.len);
	bb_put(&out, in->code, in->code_size);
	text_idx = ++nsec;
	sec[text_idx] = (struct section){ ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, text, text,
					  in->code_size, 0, 0, 16, 0 };
	if (unwind) {
		bb_zeros(&out, eh_off - out.len);
		bb_put(&out, in->unwind, in->unwind_size);
		sec[++nsec] = (struct section){ ".eh_frame", SHT_PROGBITS, SHF_ALLOC, eh_off, eh_off,
						hdr_off - eh_off, 0, 0, 8, 0 };
		sec[++nsec] = (struct section){ ".eh_frame_hdr", SHT_PROGBITS, SHF_ALLOC, hdr_off, hdr_off,
						in->eh_frame_hdr_size, 0, 0, hdr_off % 4 ? 1 : 4, 0 };
	}

	if (debug) {
		s->abbrev.len = s->info.len = s->line.len = s->aranges.len = 0;
		build_abbrev(&s->abbrev);
		add_cu(s, in, nlines, npcs, text);
		sec[++nsec] = (struct section){ ".debug_abbrev", SHT_PROGBITS, 0, 0, out.len, s->abbrev.len, 0, 0, 1, 0 };
		bb_put(&out, s->abbrev.p, s->abbrev.len);
		sec[++nsec] = (struct section){ ".debug_info", SHT_PROGBITS, 0, 0, out.len, s->info.len, 0, 0, 1, 0 };
		bb_put(&out, s->info.p, s->info.len);
		sec[++nsec] = (struct section){ ".debug_line", SHT_PROGBITS, 0, 0, out.len, s->line.len, 0, 0, 1, 0 };
		bb_put(&out, s->line.p, s->line.len);
		sec[++nsec] = (struct section){ ".debug_aranges", SHT_PROGBITS, 0, 0, out.len, s->aranges.len, 0, 0, 1, 0 };
		bb_put(&out, s->aranges.p, s->aranges.len);
	}

	/* one local FUNC symbol; sh_info = index of the first non-local = 2 */
	bb_align(&out, 8);
	memset(sym, 0, sizeof(sym));
	sym[1].st_name = 1;
	sym[1].st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC);
	sym[1].st_shndx = (uint16_t)text_idx;
	sym[1].st_value = text;
	sym[1].st_size = in->code_size;
	/* the link names .strtab, the section after this one */
	nsec++;
	sec[nsec] = (struct section){ ".symtab", SHT_SYMTAB, 0, 0, out.len, sizeof(sym), nsec + 1, 2, 8,
					sizeof(Elf64_Sym) };
	bb_put(&out, sym, sizeof(sym));
	strtab_off = out.len;
	bb_u8(&out, 0);
	bb_str(&out, in->name);
	sec[++nsec] = (struct section){ ".strtab", SHT_STRTAB, 0, 0, strtab_off, out.len - strtab_off, 0, 0, 1, 0 };
	sec[++nsec] = (struct section){ ".shstrtab", SHT_STRTAB, 0, 0, out.len, 0, 0, 0, 1, 0 };
	{
		size_t start = out.len;
		uint32_t names[16];

		bb_u8(&out, 0);
		for (unsigned i = 1; i <= nsec; i++) {
			names[i] = (uint32_t)(out.len - start);
			bb_str(&out, sec[i].name);
		}
		shstr_size = out.len - start;
		sec[nsec].size = shstr_size;
		bb_align(&out, 8);
		shdr_off = out.len;
		bb_zeros(&out, sizeof(Elf64_Shdr));
		for (unsigned i = 1; i <= nsec; i++) {
			Elf64_Shdr sh = {
				.sh_name = names[i], .sh_type = sec[i].type, .sh_flags = sec[i].flags,
				.sh_addr = sec[i].addr, .sh_offset = sec[i].offset, .sh_size = sec[i].size,
				.sh_link = sec[i].link, .sh_info = sec[i].info,
				.sh_addralign = sec[i].align, .sh_entsize = sec[i].entsize,
			};

			bb_put(&out, &sh, sizeof(sh));
		}
	}

	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = GENELF_DATA;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh.e_type = ET_DYN;
	eh.e_machine = GENELF_MACHINE;
	eh.e_version = EV_CURRENT;
	eh.e_entry = text;
	eh.e_phoff = sizeof(Elf64_Ehdr);
	eh.e_shoff = shdr_off;
	eh.e_ehsize = sizeof(Elf64_Ehdr);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = (uint16_t)nph;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = (uint16_t)(nsec + 1);
	eh.e_shstrndx = (uint16_t)nsec;
	memcpy(out.p, &eh, sizeof(eh));

	memset(ph, 0, sizeof(ph));
	ph[0] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_offset = 0, .p_vaddr = 0,
			      .p_paddr = 0, .p_filesz = alloc_end, .p_memsz = alloc_end, .p_align = 0x1000 };
	ph[1] = (Elf64_Phdr){ .p_type = PT_NOTE, .p_flags = PF_R, .p_offset = note_off,
			      .p_vaddr = note_off, .p_paddr = note_off,
			      .p_filesz = 12 + 4 + GENELF_BUILD_ID_SIZE,
			      .p_memsz = 12 + 4 + GENELF_BUILD_ID_SIZE, .p_align = 4 };
	if (unwind)
		ph[2] = (Elf64_Phdr){ .p_type = PT_GNU_EH_FRAME, .p_flags = PF_R, .p_offset = hdr_off,
				      .p_vaddr = hdr_off, .p_paddr = hdr_off,
				      .p_filesz = in->eh_frame_hdr_size, .p_memsz = in->eh_frame_hdr_size,
				      .p_align = hdr_off % 4 ? 1 : 4 };
	memcpy(out.p + sizeof(eh), ph, nph * sizeof(Elf64_Phdr));

	content_hash(out.p, out.len, img->build_id);
	memcpy(out.p + note_desc, img->build_id, GENELF_BUILD_ID_SIZE);

	img->buf = out.p;
	img->cap = out.cap;
	img->size = out.len;
	img->text_offset = text;
	return 0;
}

void genelf__image_release(struct genelf_image *img)
{
	struct genelf_scratch *s = img->scratch;

	if (s) {
		free(s->abbrev.p);
		free(s->info.p);
		free(s->line.p);
		free(s->aranges.p);
		free(s->files.keys);
		free(s->files.vals);
		free(s->methods.keys);
		free(s->methods.vals);
		free(s->file_list);
		free(s->lines);
		free(s->pcs);
		free(s);
	}
	free(img->buf);
	memset(img, 0, sizeof(*img));
}

/* 1 = the regular file behind fd holds exactly img, 0 = differs, -1 = error */
static int same_contents(int fd, const struct genelf_image *img, struct stat *st)
{
	unsigned char chunk[4096];
	size_t off = 0;

	if (fstat(fd, st))
		return -1;
	if (!S_ISREG(st->st_mode)) {
		errno = EINVAL;
		return -1;
	}
	if ((uint64_t)st->st_size != img->size)
		return 0;
	while (off < img->size) {
		size_t n = MIN(sizeof(chunk), img->size - off);
		ssize_t r = preadn(fd, chunk, n, (off_t)off);

		if (r < 0)
			return -1;
		if ((size_t)r != n || memcmp(chunk, img->buf + off, n))
			return 0;
		off += n;
	}
	return 1;
}

int genelf__write_at(int dirfd, const char *name, const struct genelf_image *img, struct stat *st)
{
	int fd, again = 0;

retry:
	fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST && !again) {
		int rfd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		int same;

		if (rfd < 0)
			return -1;    /* ELOOP: a symlink sits there; refused */
		same = same_contents(rfd, img, st);
		close(rfd);
		if (same < 0)
			return -1;
		if (same)
			return 1;
		if (unlinkat(dirfd, name, 0))
			return -1;
		again = 1;
		goto retry;
	}
	if (fd < 0)
		return -1;
	if (writen(fd, img->buf, img->size) != (ssize_t)img->size || fstat(fd, st)) {
		int e = errno;

		close(fd);
		unlinkat(dirfd, name, 0);
		errno = e;
		return -1;
	}
	if (close(fd))
		return -1;
	return 0;
}

/* ---- many functions in one file ---- */

#define MULTI_TEXT_START 0xe0       /* ELF header + LOAD + NOTE headers + the note, rounded to 16 */
#define MULTI_NOTE_OFF   (sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr))

struct genelf_multi {
	int dirfd, fd;
	char *name, *tmpname;
	struct genelf_scratch s;     /* info/line/aranges accumulate over all functions */
	struct bbuf wbuf;            /* code not yet written */
	struct bbuf symtab, strtab;
	uint64_t pos;                /* file size so far (written + buffered) */
	uint32_t nsyms;
	struct content_hash hash;
	bool failed;
};

static int multi_flush(struct genelf_multi *m)
{
	if (m->wbuf.len && !m->failed && writen(m->fd, m->wbuf.p, m->wbuf.len) != (ssize_t)m->wbuf.len)
		m->failed = true;
	m->wbuf.len = 0;
	return m->failed ? -1 : 0;
}

static void multi_put(struct genelf_multi *m, const void *p, size_t n)
{
	bb_put(&m->wbuf, p, n);
	m->pos += n;
	if (m->wbuf.len >= (1u << 20))
		multi_flush(m);
}

struct genelf_multi *genelf_multi__create(int dirfd, const char *name)
{
	struct genelf_multi *m = xzalloc(sizeof(*m));
	unsigned char zeros[MULTI_TEXT_START] = { 0 };

	m->dirfd = dirfd;
	m->name = xstrdup(name);
	for (int i = 0; i < 100; i++) {
		free(m->tmpname);
		m->tmpname = xasprintf(".%s.%d.%d.tmp", name, (int)getpid(), i);
		m->fd = openat(dirfd, m->tmpname, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (m->fd >= 0 || errno != EEXIST)
			break;
	}
	if (m->fd < 0) {
		int e = errno;

		free(m->name);
		free(m->tmpname);
		free(m);
		errno = e;
		return NULL;
	}
	hash_init(&m->hash);
	build_abbrev(&m->s.abbrev);
	bb_zeros(&m->symtab, sizeof(Elf64_Sym));
	bb_u8(&m->strtab, 0);
	m->nsyms = 1;
	multi_put(m, zeros, sizeof(zeros));
	return m;
}

int genelf_multi__fstat(struct genelf_multi *m, struct stat *st)
{
	return fstat(m->fd, st);
}

uint64_t genelf_multi__add(struct genelf_multi *m, const struct genelf_input *in)
{
	static const unsigned char pad[16] = { 0 };
	struct genelf_scratch *s = &m->s;
	uint64_t text;
	size_t nlines, npcs;
	Elf64_Sym sym;

	if (m->failed || !in->code_size || in->code_size > (1ull << 32))
		return 0;
	multi_put(m, pad, ALIGN_UP(m->pos, 16) - m->pos);
	text = m->pos;
	multi_put(m, in->code, in->code_size);
	hash_update(&m->hash, &text, sizeof(text));
	hash_update(&m->hash, in->code, in->code_size);

	nlines = prepare_lines(s, in);
	npcs = prepare_pcs(s, in);
	if (nlines || npcs)
		add_cu(s, in, nlines, npcs, text);

	memset(&sym, 0, sizeof(sym));
	sym.st_name = (uint32_t)m->strtab.len;
	sym.st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC);
	sym.st_shndx = 2;
	sym.st_value = text;
	sym.st_size = in->code_size;
	bb_put(&m->symtab, &sym, sizeof(sym));
	bb_str(&m->strtab, in->name);
	m->nsyms++;
	return text;
}

static void multi_free(struct genelf_multi *m)
{
	free(m->s.abbrev.p);
	free(m->s.info.p);
	free(m->s.line.p);
	free(m->s.aranges.p);
	free(m->s.files.keys);
	free(m->s.files.vals);
	free(m->s.methods.keys);
	free(m->s.methods.vals);
	free(m->s.file_list);
	free(m->s.lines);
	free(m->s.pcs);
	free(m->wbuf.p);
	free(m->symtab.p);
	free(m->strtab.p);
	free(m->name);
	free(m->tmpname);
	free(m);
}

void genelf_multi__discard(struct genelf_multi *m)
{
	if (!m)
		return;
	close(m->fd);
	unlinkat(m->dirfd, m->tmpname, 0);
	multi_free(m);
}

int genelf_multi__finish(struct genelf_multi *m, struct stat *st, uint8_t build_id[GENELF_BUILD_ID_SIZE])
{
	struct section sec[10];
	unsigned nsec = 0;
	uint64_t text_end = m->pos;
	bool debug = m->s.info.len > 0;
	uint32_t names[10];
	size_t shdr_off;
	struct bbuf hdr = { 0 };
	Elf64_Ehdr eh;
	Elf64_Phdr ph[2];
	struct stat lst;
	int ret = -1, e;

	if (m->nsyms == 1)
		text_end = MULTI_TEXT_START;
	sec[++nsec] = (struct section){ ".note.gnu.build-id", SHT_NOTE, SHF_ALLOC, MULTI_NOTE_OFF,
					MULTI_NOTE_OFF, 12 + 4 + GENELF_BUILD_ID_SIZE, 0, 0, 4, 0 };
	sec[++nsec] = (struct section){ ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, MULTI_TEXT_START,
					MULTI_TEXT_START, text_end - MULTI_TEXT_START, 0, 0, 16, 0 };
	if (debug) {
		const struct bbuf *parts[] = { &m->s.abbrev, &m->s.info, &m->s.line, &m->s.aranges };
		static const char *const pn[] = { ".debug_abbrev", ".debug_info", ".debug_line", ".debug_aranges" };

		for (int i = 0; i < 4; i++) {
			sec[++nsec] = (struct section){ pn[i], SHT_PROGBITS, 0, 0, m->pos, parts[i]->len, 0, 0, 1, 0 };
			multi_put(m, parts[i]->p, parts[i]->len);
			hash_update(&m->hash, parts[i]->p, parts[i]->len);
		}
	}
	{
		static const unsigned char pad[8] = { 0 };

		multi_put(m, pad, ALIGN_UP(m->pos, 8) - m->pos);
	}
	/* the link names .strtab, the section after this one */
	nsec++;
	sec[nsec] = (struct section){ ".symtab", SHT_SYMTAB, 0, 0, m->pos, m->symtab.len, nsec + 1, m->nsyms,
					8, sizeof(Elf64_Sym) };
	multi_put(m, m->symtab.p, m->symtab.len);
	sec[++nsec] = (struct section){ ".strtab", SHT_STRTAB, 0, 0, m->pos, m->strtab.len, 0, 0, 1, 0 };
	multi_put(m, m->strtab.p, m->strtab.len);
	hash_update(&m->hash, m->strtab.p, m->strtab.len);
	sec[++nsec] = (struct section){ ".shstrtab", SHT_STRTAB, 0, 0, m->pos, 0, 0, 0, 1, 0 };
	{
		uint64_t start = m->pos;

		multi_put(m, "", 1);
		for (unsigned i = 1; i <= nsec; i++) {
			names[i] = (uint32_t)(m->pos - start);
			multi_put(m, sec[i].name, strlen(sec[i].name) + 1);
		}
		sec[nsec].size = m->pos - start;
	}
	{
		static const unsigned char pad[8] = { 0 };
		Elf64_Shdr zero = { 0 };

		multi_put(m, pad, ALIGN_UP(m->pos, 8) - m->pos);
		shdr_off = m->pos;
		multi_put(m, &zero, sizeof(zero));
	}
	for (unsigned i = 1; i <= nsec; i++) {
		Elf64_Shdr sh = {
			.sh_name = names[i], .sh_type = sec[i].type, .sh_flags = sec[i].flags,
			.sh_addr = sec[i].addr, .sh_offset = sec[i].offset, .sh_size = sec[i].size,
			.sh_link = sec[i].link, .sh_info = sec[i].info,
			.sh_addralign = sec[i].align, .sh_entsize = sec[i].entsize,
		};

		multi_put(m, &sh, sizeof(sh));
	}
	if (multi_flush(m))
		goto out;

	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = GENELF_DATA;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_DYN;
	eh.e_machine = GENELF_MACHINE;
	eh.e_version = EV_CURRENT;
	eh.e_entry = MULTI_TEXT_START;
	eh.e_phoff = sizeof(Elf64_Ehdr);
	eh.e_shoff = shdr_off;
	eh.e_ehsize = sizeof(Elf64_Ehdr);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = 2;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = (uint16_t)(nsec + 1);
	eh.e_shstrndx = (uint16_t)nsec;
	ph[0] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_filesz = text_end,
			      .p_memsz = text_end, .p_align = 0x1000 };
	ph[1] = (Elf64_Phdr){ .p_type = PT_NOTE, .p_flags = PF_R, .p_offset = MULTI_NOTE_OFF,
			      .p_vaddr = MULTI_NOTE_OFF, .p_paddr = MULTI_NOTE_OFF,
			      .p_filesz = 12 + 4 + GENELF_BUILD_ID_SIZE,
			      .p_memsz = 12 + 4 + GENELF_BUILD_ID_SIZE, .p_align = 4 };
	hash_final(&m->hash, build_id);
	bb_put(&hdr, &eh, sizeof(eh));
	bb_put(&hdr, ph, sizeof(ph));
	bb_u32(&hdr, 4);
	bb_u32(&hdr, GENELF_BUILD_ID_SIZE);
	bb_u32(&hdr, NT_GNU_BUILD_ID);
	bb_put(&hdr, "GNU", 4);
	bb_put(&hdr, build_id, GENELF_BUILD_ID_SIZE);
	if (pwrite(m->fd, hdr.p, hdr.len, 0) != (ssize_t)hdr.len || fstat(m->fd, st))
		goto out;
	/* rename replaces a symlink itself, never its target; still, refuse one */
	if (!fstatat(m->dirfd, m->name, &lst, AT_SYMLINK_NOFOLLOW) && !S_ISREG(lst.st_mode)) {
		errno = ELOOP;
		goto out;
	}
	if (renameat(m->dirfd, m->tmpname, m->dirfd, m->name))
		goto out;
	ret = 0;
out:
	e = errno;
	free(hdr.p);
	close(m->fd);
	if (ret)
		unlinkat(m->dirfd, m->tmpname, 0);
	multi_free(m);
	errno = e;
	return ret;
}
