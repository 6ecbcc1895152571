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
#include "strbuf.h"
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

static void put_uleb(struct strbuf *b, uint64_t v)
{
	do {
		uint8_t c = v & 0x7f;

		v >>= 7;
		strbuf_add_u8(b, c | (v ? 0x80 : 0));
	} while (v);
}

static void put_sleb(struct strbuf *b, int64_t v)
{
	for (;;) {
		uint8_t c = v & 0x7f;

		v >>= 7;   /* arithmetic shift: gcc and clang define it for signed values */
		if ((v == 0 && !(c & 0x40)) || (v == -1 && (c & 0x40))) {
			strbuf_add_u8(b, c);
			return;
		}
		strbuf_add_u8(b, c | 0x80);
	}
}

/* patch a length or high_pc written earlier */
static void set_u32(struct strbuf *b, size_t off, uint32_t v) { strbuf_set(b, off, &v, 4); }
static void set_u64(struct strbuf *b, size_t off, uint64_t v) { strbuf_set(b, off, &v, 8); }

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
	struct strbuf abbrev, info, line, aranges;
	struct strbuf symtab, strtab;
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
	GROW_ARRAY(s->file_list, s->files.n + 1, s->file_list_cap);
	if (strmap_add(&s->files, f, (uint32_t)s->files.n + 1))
		s->file_list[s->files.n - 1] = f;
}

static void build_abbrev(struct strbuf *b)
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

	strbuf_add(b, abbrev, sizeof(abbrev));
}

static void build_line(struct genelf_scratch *s, const struct genelf_line *lines, size_t n,
		       uint64_t text, uint64_t code_size)
{
	static const uint8_t std_lengths[OPCODE_BASE - 1] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };
	struct strbuf *b = &s->line;
	size_t len_off, hlen_off, prog_off;
	uint64_t addr = text;
	int64_t line = 1;
	uint32_t file = 1;

	len_off = b->len;
	strbuf_add_u32(b, 0);
	strbuf_add_u16(b, 4);
	hlen_off = b->len;
	strbuf_add_u32(b, 0);
	strbuf_add_u8(b, 1);                  /* minimum_instruction_length */
	strbuf_add_u8(b, 1);                  /* maximum_operations_per_instruction */
	strbuf_add_u8(b, 1);                  /* default_is_stmt */
	strbuf_add_u8(b, (uint8_t)LINE_BASE);
	strbuf_add_u8(b, LINE_RANGE);
	strbuf_add_u8(b, OPCODE_BASE);
	strbuf_add(b, std_lengths, sizeof(std_lengths));
	strbuf_add_u8(b, 0);                  /* no include directories */
	for (size_t i = 0; i < s->files.n; i++) {
		strbuf_addstr0(b, s->file_list[i]);
		strbuf_add_u8(b, 0);
		strbuf_add_u8(b, 0);
		strbuf_add_u8(b, 0);
	}
	strbuf_add_u8(b, 0);
	prog_off = b->len;
	set_u32(b, hlen_off, (uint32_t)(prog_off - hlen_off - 4));

	if (n) {
		strbuf_add_u8(b, 0);
		strbuf_add_u8(b, 9);
		strbuf_add_u8(b, DW_LNE_set_address);
		strbuf_add_u64(b, addr);
		for (size_t i = 0; i < n; i++) {
			uint64_t a = text + lines[i].addr;
			uint32_t f = file_index(s, lines[i].file);
			int64_t dl = (int64_t)lines[i].line - line;
			uint64_t da = a - addr;

			if (f != file) {
				strbuf_add_u8(b, DW_LNS_set_file);
				put_uleb(b, f);
				file = f;
			}
			if (dl >= LINE_BASE && dl < LINE_BASE + LINE_RANGE &&
			    da <= (uint64_t)(255 - OPCODE_BASE - (dl - LINE_BASE)) / LINE_RANGE) {
				strbuf_add_u8(b, (uint8_t)((dl - LINE_BASE) + LINE_RANGE * da + OPCODE_BASE));
			} else {
				if (dl) {
					strbuf_add_u8(b, DW_LNS_advance_line);
					put_sleb(b, dl);
				}
				if (da) {
					strbuf_add_u8(b, DW_LNS_advance_pc);
					put_uleb(b, da);
				}
				strbuf_add_u8(b, DW_LNS_copy);
			}
			line = lines[i].line;
			addr = a;
		}
		if (text + code_size > addr) {
			strbuf_add_u8(b, DW_LNS_advance_pc);
			put_uleb(b, text + code_size - addr);
		}
		strbuf_add_u8(b, 0);
		strbuf_add_u8(b, 1);
		strbuf_add_u8(b, DW_LNE_end_sequence);
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

static void close_dies(struct strbuf *b, struct open_die *stack, size_t *depth, size_t keep,
		       uint64_t end)
{
	while (*depth > keep) {
		struct open_die *d = &stack[--*depth];

		set_u64(b, d->high_off, end - d->low);
		strbuf_add_u8(b, 0);
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
	struct strbuf *b = &s->info;
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
		GROW_ARRAY(stack, levels, cap);
		for (size_t j = common; j < levels; j++) {
			size_t k = pc->nr_frame - 2 - j;
			const struct genelf_frame *callee = &pc->frames[k], *caller = &pc->frames[k + 1];
			struct open_die *d = &stack[depth++];

			d->method = callee->name;
			d->call_file = caller->file;
			d->call_line = caller->line;
			d->low = text + lo;
			put_uleb(b, ABBREV_INLINED);
			strbuf_add_u32(b, strmap_get(&s->methods, callee->name) - 1 - (uint32_t)cu_off);
			strbuf_add_u64(b, text + lo);
			d->high_off = b->len;
			strbuf_add_u64(b, 0);
			put_uleb(b, file_index(s, caller->file));
			put_uleb(b, caller->line > 0 ? (uint64_t)caller->line : 0);
		}
	}
	close_dies(b, stack, &depth, 0, text + code_size);
	free(stack);
}

static void build_info(struct genelf_scratch *s, const char *name, const char *cu_name,
		       const struct genelf_inline_pc *pcs, size_t npcs, uint64_t text,
		       uint64_t code_size, uint32_t stmt_list)
{
	struct strbuf *b = &s->info;
	size_t len_off = b->len;

	strbuf_add_u32(b, 0);
	strbuf_add_u16(b, 4);
	strbuf_add_u32(b, 0);                 /* abbrev offset */
	strbuf_add_u8(b, 8);
	put_uleb(b, ABBREV_CU);
	strbuf_addstr0(b, "perf inject --jit");
	strbuf_add_u16(b, DW_LANG_Java);
	strbuf_addstr0(b, cu_name);
	strbuf_add_u64(b, text);
	strbuf_add_u64(b, code_size);
	strbuf_add_u32(b, stmt_list);

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
			put_uleb(b, ABBREV_ABSTRACT);
			strbuf_addstr0(b, m);
			strbuf_addstr0(b, m);
			strbuf_add_u8(b, DW_INL_inlined);
		}
	}

	put_uleb(b, ABBREV_SUBPROGRAM);
	strbuf_addstr0(b, name);
	strbuf_addstr0(b, name);
	strbuf_add_u64(b, text);
	strbuf_add_u64(b, code_size);
	build_inline_dies(s, pcs, npcs, text, code_size, len_off);
	strbuf_add_u8(b, 0);                  /* end of the subprogram's children */
	strbuf_add_u8(b, 0);                  /* end of the CU's children */
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

	GROW_ARRAY(s->lines, in->nr_lines, s->lines_cap);
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

	GROW_ARRAY(s->pcs, in->nr_pcs, s->pcs_cap);
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
	strbuf_add_u32(&s->aranges, 44);
	strbuf_add_u16(&s->aranges, 2);
	strbuf_add_u32(&s->aranges, (uint32_t)cu_off);
	strbuf_add_u8(&s->aranges, 8);
	strbuf_add_u8(&s->aranges, 0);
	strbuf_addzeros(&s->aranges, 4);
	strbuf_add_u64(&s->aranges, text);
	strbuf_add_u64(&s->aranges, in->code_size);
	strbuf_addzeros(&s->aranges, 16);
}

/* ---- the file layout, one routine for the one-function and the many-function files ---- */

/* namesz, descsz, type, "GNU\0", then the id */
#define NOTE_SIZE    (12 + 4 + GENELF_BUILD_ID_SIZE)
#define MAX_SECTIONS 16

struct section {
	const char *name;
	uint32_t type;
	uint64_t flags, addr, offset, size;
	uint32_t link, info;
	uint64_t align, entsize;
};

/*
 * What goes into the headers, collected while the content is emitted: the
 * sections (sec[0] is the null section) and the extent of the one R+X LOAD.
 */
struct layout {
	struct section sec[MAX_SECTIONS];
	unsigned nsec;
	unsigned nph;                 /* LOAD, NOTE [, GNU_EH_FRAME] */
	unsigned text_idx;
	uint64_t note_off;            /* the build-id note follows the program headers */
	uint64_t text;                /* file offset == vaddr of the first code byte */
	uint64_t alloc_end;           /* end of the LOAD */
	uint64_t eh_hdr_off, eh_hdr_size;
	uint64_t shoff;
};

static unsigned layout_add(struct layout *l, const char *name, uint32_t type, uint64_t flags,
			   uint64_t offset, uint64_t size, uint64_t align)
{
	unsigned i = ++l->nsec;

	/* allocated content has vaddr == file offset */
	l->sec[i] = (struct section){ name, type, flags, flags & SHF_ALLOC ? offset : 0, offset, size,
				      0, 0, align, 0 };
	return i;
}

/* the note and .text (its size set by layout_set_text); eh_frame adds a program header */
static void layout_init(struct layout *l, bool eh_frame)
{
	memset(l, 0, sizeof(*l));
	l->nph = eh_frame ? 3 : 2;
	l->note_off = sizeof(Elf64_Ehdr) + l->nph * sizeof(Elf64_Phdr);
	l->text = ALIGN_UP(l->note_off + NOTE_SIZE, 16);
	l->alloc_end = l->text;
	layout_add(l, ".note.gnu.build-id", SHT_NOTE, SHF_ALLOC, l->note_off, NOTE_SIZE, 4);
	l->text_idx = layout_add(l, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, l->text, 0, 16);
}

static void layout_set_text(struct layout *l, uint64_t size)
{
	l->sec[l->text_idx].size = size;
	l->alloc_end = l->text + size;
}

/* .eh_frame then .eh_frame_hdr, `size` bytes in all from `off` (still allocated) */
static void layout_add_unwind(struct layout *l, uint64_t off, uint64_t size, uint64_t hdr_size)
{
	uint64_t hdr = off + size - hdr_size;

	layout_add(l, ".eh_frame", SHT_PROGBITS, SHF_ALLOC, off, hdr - off, 8);
	layout_add(l, ".eh_frame_hdr", SHT_PROGBITS, SHF_ALLOC, hdr, hdr_size, hdr % 4 ? 1 : 4);
	l->eh_hdr_off = hdr;
	l->eh_hdr_size = hdr_size;
	l->alloc_end = off + size;
}

/*
 * The file as it is emitted: kept whole in buf (fd < 0), or streamed to fd
 * whenever a megabyte has gathered.
 */
struct elf_writer {
	struct strbuf buf;
	int fd;
	uint64_t flushed;             /* bytes already written to fd */
	bool failed;
};

static uint64_t writer_pos(const struct elf_writer *w)
{
	return w->flushed + w->buf.len;
}

static int writer_flush(struct elf_writer *w)
{
	if (w->fd >= 0 && w->buf.len && !w->failed &&
	    writen(w->fd, w->buf.buf, w->buf.len) != (ssize_t)w->buf.len)
		w->failed = true;
	if (w->fd >= 0) {
		w->flushed += w->buf.len;
		strbuf_reset(&w->buf);
	}
	return w->failed ? -1 : 0;
}

static void writer_put(struct elf_writer *w, const void *p, size_t n)
{
	strbuf_add(&w->buf, p, n);
	if (w->fd >= 0 && w->buf.len >= (1u << 20))
		writer_flush(w);
}

static void writer_pad(struct elf_writer *w, uint64_t align)
{
	static const unsigned char zeros[16];
	uint64_t pos = writer_pos(w);

	writer_put(w, zeros, ALIGN_UP(pos, align) - pos);
}

/*
 * Everything after the allocated part: the DWARF sections (when dwarf is
 * given), .symtab (all nsyms symbols local), .strtab, .shstrtab and the
 * section headers.
 */
static void layout_emit_tail(struct layout *l, struct elf_writer *w, const struct genelf_scratch *dwarf,
			     const struct strbuf *symtab, uint32_t nsyms, const struct strbuf *strtab)
{
	uint32_t names[MAX_SECTIONS];
	unsigned i, shstr;
	uint64_t start;

	if (dwarf) {
		const struct strbuf *parts[] = { &dwarf->abbrev, &dwarf->info, &dwarf->line, &dwarf->aranges };
		static const char *const pn[] = { ".debug_abbrev", ".debug_info", ".debug_line",
						  ".debug_aranges" };

		for (i = 0; i < ARRAY_SIZE(parts); i++) {
			layout_add(l, pn[i], SHT_PROGBITS, 0, writer_pos(w), parts[i]->len, 1);
			writer_put(w, parts[i]->buf, parts[i]->len);
		}
	}
	writer_pad(w, 8);
	i = layout_add(l, ".symtab", SHT_SYMTAB, 0, writer_pos(w), symtab->len, 8);
	/* the link names .strtab, the section after this one; info = first non-local symbol */
	l->sec[i].link = i + 1;
	l->sec[i].info = nsyms;
	l->sec[i].entsize = sizeof(Elf64_Sym);
	writer_put(w, symtab->buf, symtab->len);
	layout_add(l, ".strtab", SHT_STRTAB, 0, writer_pos(w), strtab->len, 1);
	writer_put(w, strtab->buf, strtab->len);
	start = writer_pos(w);
	shstr = layout_add(l, ".shstrtab", SHT_STRTAB, 0, start, 0, 1);
	writer_put(w, "", 1);
	for (i = 1; i <= l->nsec; i++) {
		names[i] = (uint32_t)(writer_pos(w) - start);
		writer_put(w, l->sec[i].name, strlen(l->sec[i].name) + 1);
	}
	l->sec[shstr].size = writer_pos(w) - start;
	writer_pad(w, 8);
	l->shoff = writer_pos(w);
	names[0] = 0;
	for (i = 0; i <= l->nsec; i++) {
		const struct section *s = &l->sec[i];
		Elf64_Shdr sh = {
			.sh_name = names[i], .sh_type = s->type, .sh_flags = s->flags,
			.sh_addr = s->addr, .sh_offset = s->offset, .sh_size = s->size,
			.sh_link = s->link, .sh_info = s->info,
			.sh_addralign = s->align, .sh_entsize = s->entsize,
		};

		writer_put(w, &sh, sizeof(sh));
	}
}

/* ELF header, program headers and the build-id note: the first note_off + NOTE_SIZE bytes */
static size_t layout_header(const struct layout *l, const uint8_t build_id[GENELF_BUILD_ID_SIZE],
			    unsigned char *out)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph[3];
	uint32_t note[3] = { 4, GENELF_BUILD_ID_SIZE, NT_GNU_BUILD_ID };
	unsigned char *p = out;

	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = GENELF_DATA;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh.e_type = ET_DYN;
	eh.e_machine = GENELF_MACHINE;
	eh.e_version = EV_CURRENT;
	eh.e_entry = l->text;
	eh.e_phoff = sizeof(Elf64_Ehdr);
	eh.e_shoff = l->shoff;
	eh.e_ehsize = sizeof(Elf64_Ehdr);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = (uint16_t)l->nph;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = (uint16_t)(l->nsec + 1);
	eh.e_shstrndx = (uint16_t)l->nsec;     /* .shstrtab is the last section */

	memset(ph, 0, sizeof(ph));
	ph[0] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_filesz = l->alloc_end,
			      .p_memsz = l->alloc_end, .p_align = 0x1000 };
	ph[1] = (Elf64_Phdr){ .p_type = PT_NOTE, .p_flags = PF_R, .p_offset = l->note_off,
			      .p_vaddr = l->note_off, .p_paddr = l->note_off,
			      .p_filesz = NOTE_SIZE, .p_memsz = NOTE_SIZE, .p_align = 4 };
	if (l->nph > 2)
		ph[2] = (Elf64_Phdr){ .p_type = PT_GNU_EH_FRAME, .p_flags = PF_R, .p_offset = l->eh_hdr_off,
				      .p_vaddr = l->eh_hdr_off, .p_paddr = l->eh_hdr_off,
				      .p_filesz = l->eh_hdr_size, .p_memsz = l->eh_hdr_size,
				      .p_align = l->eh_hdr_off % 4 ? 1 : 4 };

	memcpy(p, &eh, sizeof(eh));
	p += sizeof(eh);
	memcpy(p, ph, l->nph * sizeof(Elf64_Phdr));
	p += l->nph * sizeof(Elf64_Phdr);
	memcpy(p, note, sizeof(note));
	memcpy(p + sizeof(note), "GNU", 4);
	memcpy(p + sizeof(note) + 4, build_id, GENELF_BUILD_ID_SIZE);
	return l->note_off + NOTE_SIZE;
}

/* the symbol of one function: local, in .text */
static void add_func_symbol(struct genelf_scratch *s, const struct layout *l, const char *name,
			    uint64_t value, uint64_t size)
{
	Elf64_Sym sym;

	memset(&sym, 0, sizeof(sym));
	sym.st_name = (uint32_t)s->strtab.len;
	sym.st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC);
	sym.st_shndx = (uint16_t)l->text_idx;
	sym.st_value = value;
	sym.st_size = size;
	strbuf_add(&s->symtab, &sym, sizeof(sym));
	strbuf_addstr0(&s->strtab, name);
}

/* the null symbol and the empty name */
static void reset_symbols(struct genelf_scratch *s)
{
	strbuf_reset(&s->symtab);
	strbuf_addzeros(&s->symtab, sizeof(Elf64_Sym));
	strbuf_reset(&s->strtab);
	strbuf_add_u8(&s->strtab, 0);
}

static void scratch_release(struct genelf_scratch *s)
{
	strbuf_release(&s->abbrev);
	strbuf_release(&s->info);
	strbuf_release(&s->line);
	strbuf_release(&s->aranges);
	strbuf_release(&s->symtab);
	strbuf_release(&s->strtab);
	free(s->files.keys);
	free(s->files.vals);
	free(s->methods.keys);
	free(s->methods.vals);
	free(s->file_list);
	free(s->lines);
	free(s->pcs);
}

int genelf__build(const struct genelf_input *in, struct genelf_image *img)
{
	static const uint8_t no_id[GENELF_BUILD_ID_SIZE];
	struct genelf_scratch *s = scratch_of(img);
	struct elf_writer w = { .buf = { (char *)img->buf, 0, img->cap }, .fd = -1 };
	bool unwind = in->unwind && in->unwind_size && in->eh_frame_hdr_size <= in->unwind_size;
	size_t nlines, npcs;
	struct layout l;

	if (!in->code_size || in->code_size > (1ull << 32) || in->unwind_size > (1ull << 32)) {
		pr_debug("genelf: %s: unusable code size %#" PRIx64 "\n", in->name, in->code_size);
		return -1;
	}

	nlines = prepare_lines(s, in);
	npcs = prepare_pcs(s, in);

	/* the headers and the note are filled in at the end */
	layout_init(&l, unwind);
	strbuf_addzeros(&w.buf, l.text);
	writer_put(&w, in->code, in->code_size);
	layout_set_text(&l, in->code_size);
	if (unwind) {
		writer_pad(&w, 8);
		layout_add_unwind(&l, writer_pos(&w), in->unwind_size, in->eh_frame_hdr_size);
		writer_put(&w, in->unwind, in->unwind_size);
	}
	if (nlines || npcs) {
		strbuf_reset(&s->abbrev);
		strbuf_reset(&s->info);
		strbuf_reset(&s->line);
		strbuf_reset(&s->aranges);
		build_abbrev(&s->abbrev);
		add_cu(s, in, nlines, npcs, l.text);
	}
	reset_symbols(s);
	add_func_symbol(s, &l, in->name, l.text, in->code_size);
	layout_emit_tail(&l, &w, nlines || npcs ? s : NULL, &s->symtab, 2, &s->strtab);

	/* the build-id is a hash of the whole file with the id itself still zero */
	layout_header(&l, no_id, (unsigned char *)w.buf.buf);
	content_hash((const unsigned char *)w.buf.buf, w.buf.len, img->build_id);
	memcpy(w.buf.buf + l.note_off + 16, img->build_id, GENELF_BUILD_ID_SIZE);

	img->buf = (unsigned char *)w.buf.buf;
	img->cap = w.buf.alloc;
	img->size = w.buf.len;
	img->text_offset = l.text;
	return 0;
}

void genelf__image_release(struct genelf_image *img)
{
	if (img->scratch) {
		scratch_release(img->scratch);
		free(img->scratch);
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

struct genelf_multi {
	int dirfd;
	char *name, *tmpname;
	struct genelf_scratch s;     /* DWARF units and symbols accumulate over all functions */
	struct layout layout;
	struct elf_writer w;         /* streams to the temporary file */
	uint32_t nsyms;
	struct content_hash hash;
};

struct genelf_multi *genelf_multi__create(int dirfd, const char *name)
{
	struct genelf_multi *m = xzalloc(sizeof(*m));

	m->dirfd = dirfd;
	m->name = xstrdup(name);
	for (int i = 0; i < 100; i++) {
		free(m->tmpname);
		m->tmpname = xasprintf(".%s.%d.%d.tmp", name, (int)getpid(), i);
		m->w.fd = openat(dirfd, m->tmpname, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (m->w.fd >= 0 || errno != EEXIST)
			break;
	}
	if (m->w.fd < 0) {
		int e = errno;

		free(m->name);
		free(m->tmpname);
		free(m);
		errno = e;
		return NULL;
	}
	hash_init(&m->hash);
	build_abbrev(&m->s.abbrev);
	reset_symbols(&m->s);
	m->nsyms = 1;
	layout_init(&m->layout, false);
	/* the headers are written over these zeros by finish */
	strbuf_addzeros(&m->w.buf, m->layout.text);
	return m;
}

int genelf_multi__fstat(struct genelf_multi *m, struct stat *st)
{
	return fstat(m->w.fd, st);
}

uint64_t genelf_multi__add(struct genelf_multi *m, const struct genelf_input *in)
{
	struct genelf_scratch *s = &m->s;
	uint64_t text;
	size_t nlines, npcs;

	if (m->w.failed || !in->code_size || in->code_size > (1ull << 32))
		return 0;
	writer_pad(&m->w, 16);
	text = writer_pos(&m->w);
	writer_put(&m->w, in->code, in->code_size);
	hash_update(&m->hash, &text, sizeof(text));
	hash_update(&m->hash, in->code, in->code_size);

	nlines = prepare_lines(s, in);
	npcs = prepare_pcs(s, in);
	if (nlines || npcs)
		add_cu(s, in, nlines, npcs, text);
	add_func_symbol(s, &m->layout, in->name, text, in->code_size);
	m->nsyms++;
	return text;
}

static void multi_free(struct genelf_multi *m)
{
	scratch_release(&m->s);
	strbuf_release(&m->w.buf);
	free(m->name);
	free(m->tmpname);
	free(m);
}

void genelf_multi__discard(struct genelf_multi *m)
{
	if (!m)
		return;
	close(m->w.fd);
	unlinkat(m->dirfd, m->tmpname, 0);
	multi_free(m);
}

int genelf_multi__finish(struct genelf_multi *m, struct stat *st, uint8_t build_id[GENELF_BUILD_ID_SIZE])
{
	struct layout *l = &m->layout;
	bool dwarf = m->s.info.len > 0;
	unsigned char hdr[sizeof(Elf64_Ehdr) + 3 * sizeof(Elf64_Phdr) + NOTE_SIZE];
	size_t hdr_len;
	struct stat lst;
	int ret = -1, e;

	layout_set_text(l, writer_pos(&m->w) - l->text);
	/* the id covers the code with its offsets, the DWARF and the names (not the headers) */
	if (dwarf) {
		hash_update(&m->hash, m->s.abbrev.buf, m->s.abbrev.len);
		hash_update(&m->hash, m->s.info.buf, m->s.info.len);
		hash_update(&m->hash, m->s.line.buf, m->s.line.len);
		hash_update(&m->hash, m->s.aranges.buf, m->s.aranges.len);
	}
	hash_update(&m->hash, m->s.strtab.buf, m->s.strtab.len);
	hash_final(&m->hash, build_id);

	layout_emit_tail(l, &m->w, dwarf ? &m->s : NULL, &m->s.symtab, m->nsyms, &m->s.strtab);
	if (writer_flush(&m->w))
		goto out;
	hdr_len = layout_header(l, build_id, hdr);
	if (pwrite(m->w.fd, hdr, hdr_len, 0) != (ssize_t)hdr_len || fstat(m->w.fd, st))
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
	close(m->w.fd);
	if (ret)
		unlinkat(m->dirfd, m->tmpname, 0);
	multi_free(m);
	errno = e;
	return ret;
}
