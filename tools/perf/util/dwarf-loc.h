/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_DWARF_LOC_H
#define PERF_UTIL_DWARF_LOC_H

/*
 * DWARF location expressions evaluated symbolically into what a uprobe can
 * fetch. Each DWARF stack entry is "register + k", "value fetched by a
 * fetcharg + k", "file address + k" or a constant. What uprobes can express
 * (a register, a dereference at a constant offset, a file-relative memory
 * fetch, an immediate) becomes a fetcharg; anything else (register
 * arithmetic, entry values, ...) is refused with the reason, so a wrong
 * value is never recorded. Registers are x86-64's (x86-regs.h).
 *
 * Also the DWARF types a fetch needs: the uprobe type of a scalar, the
 * offset of a struct member, a type's name as perf -V prints it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>

enum dwarf_sv_kind { DWARF_SV_REG, DWARF_SV_FETCH, DWARF_SV_FILE, DWARF_SV_CONST };

/* a DWARF stack value: REG: %reg + k; FETCH: (value of fetch) + k; FILE: file address + k */
struct dwarf_sv {
	enum dwarf_sv_kind kind;
	int reg;
	char *fetch;
	int64_t k;
};

enum dwarf_loc_kind {
	DWARF_LOC_MEM, DWARF_LOC_REG, DWARF_LOC_VALUE, DWARF_LOC_IMM, DWARF_LOC_PIECES, DWARF_LOC_NONE,
};

struct dwarf_piece;

/* where a variable (or part of it) is */
struct dwarf_loc {
	enum dwarf_loc_kind kind;
	struct dwarf_sv addr;    /* MEM: address */
	int reg;                 /* REG */
	int bitoff;              /* REG: bits of the register below the value */
	char *value;             /* VALUE: fetcharg giving the value */
	uint64_t imm;            /* IMM */
	struct dwarf_piece *pieces;
	size_t npieces, cap_pieces;
};

struct dwarf_piece {
	struct dwarf_loc loc;
	uint64_t size;           /* bytes */
};

struct dwarf_loc_ctx {
	Dwarf_CFI *cfi[2];       /* the debug file's and .eh_frame's call frame info (NULL = none) */
	uint64_t addr;           /* probe address */
	Dwarf_Die *frame_fn;     /* out-of-line function (frame base) */
	uint64_t bias;
	char *why;               /* reason of refusal */
};

/*
 * The location of variable @var at c->addr; DWARF_LOC_NONE when optimised
 * out there. 0, or -1 with c->why (malloc'ed).
 */
int dwarf_loc__of_var(struct dwarf_loc_ctx *c, Dwarf_Die *var, struct dwarf_loc *out);
void dwarf_loc__exit(struct dwarf_loc *l);

/*
 * Moves an lvalue @byte bytes further (a member, an element) and narrows it
 * to @size bytes. 0, or -1 with *why naming @what.
 */
int dwarf_loc__advance(struct dwarf_loc *l, uint64_t byte, uint64_t size, const char *what,
		       char **why);

/* The fetcharg giving the value of a pointer-sized scalar location, or NULL with *why. */
char *dwarf_loc__value(const struct dwarf_loc *l, uint64_t bias, char **why, const char *what);

/* The fetcharg reading memory at address @v (@bias: vaddr - file offset), or NULL for a constant. */
char *dwarf_sv__deref(const struct dwarf_sv *v, uint64_t bias);

/* @t without const/volatile/typedef layers (into @buf), or NULL. */
Dwarf_Die *dwarf_type__strip_cv(Dwarf_Die *t, Dwarf_Die *buf);
/* DW_AT_type of @d into @out. */
bool dwarf_type__of(Dwarf_Die *d, Dwarf_Die *out);
/* "int", "char*", "struct point", "const char*" (as perf -V prints), malloc'ed. */
char *dwarf_type__name(Dwarf_Die *t);
/* uprobe type of a scalar ("s32", "u64" ...) and its *size in bytes; NULL for aggregates. */
const char *dwarf_type__fetch(Dwarf_Die *t, int *size);
/*
 * Member @name of struct/union @st (anonymous members looked into): its DIE
 * and byte offset. 0, -1 not found, -2 a bit field.
 */
int dwarf_type__member(Dwarf_Die *st, const char *name, Dwarf_Die *mem, uint64_t *off);

#endif
