/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_ANNOTATE_H
#define PERF_UTIL_ANNOTATE_H

/*
 * perf annotate's model: the samples of one symbol counted per instruction,
 * the symbol's code disassembled from its DSO file (objdump, as perf does,
 * so the instruction text is the same), and the source position of every
 * instruction taken from the DWARF line table (.debug_line) of the file, not
 * inferred from objdump's text. Jitted ELFs of perf inject --jit are ordinary
 * DSOs here: their line tables point into the .java/.js sources.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dso.h"
#include "symbol.h"

/* samples of one symbol by address (DSO address space) */
struct sym_hist {
	struct dso *dso;
	struct symbol *sym;
	uint64_t nr_samples, period;
	struct { uint64_t addr, period, nr; } *hits;
	size_t nr_hits, cap_hits;
	struct sym_hist *next;
};

struct sym_hists {
	struct sym_hist **buckets;
	size_t nbuckets, nr;
};

void sym_hists__init(struct sym_hists *h);
void sym_hists__exit(struct sym_hists *h);
void sym_hists__add(struct sym_hists *h, struct dso *dso, struct symbol *sym, uint64_t addr,
		    uint64_t period);
/* all symbols, most samples first (malloc'ed array) */
struct sym_hist **sym_hists__sorted(struct sym_hists *h, size_t *nr);

struct annotated_insn {
	uint64_t addr;
	char *text;                /* objdump's disassembly of the instruction */
	uint64_t period, nr_samples;
	const char *src_file;      /* DWARF line table: file (full path as recorded) */
	int src_line;              /* 0 = unknown */
};

/* --no-source: objdump -l's own lines, numbered the way perf 6.1 numbers them */
struct annotate_row {
	long insn;                 /* index into insns, or -1 for a text row */
	int line_nr;               /* perf's running number (text rows only) */
	char *text;
};

struct annotation {
	struct annotated_insn *insns;
	size_t nr, cap_insns;
	struct annotate_row *rows; /* only with annotate_ctx.no_source */
	size_t nr_rows, cap_rows;
	uint64_t period;           /* of the symbol: what the percentages divide */
	char *objdump_file;        /* the file disassembled */
};

struct source_file;

/* What one perf annotate run shares between symbols: options and the source files read. */
struct annotate_ctx {
	bool no_source;            /* rows from objdump -l instead of DWARF source lines */
	struct source_file *sources;
};

void annotate_ctx__exit(struct annotate_ctx *ctx);

/*
 * Disassembles sym from its DSO and spreads the hits over its instructions
 * (a hit belongs to the instruction that contains its address). Returns 0,
 * or -1 with a one-line reason in err.
 */
int symbol__annotate(struct annotate_ctx *ctx, const struct sym_hist *sh, struct annotation *a,
		     char *err, size_t errsize);
void annotation__exit(struct annotation *a);

/* Line `line` (1-based) of a source file, read once per ctx; NULL if unreadable. */
const char *annotate_ctx__source_line(struct annotate_ctx *ctx, const char *path, int line);

#endif
