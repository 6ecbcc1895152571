/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_SYMBOL_ELF_H
#define PERF_UTIL_SYMBOL_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libelf.h>
#include "dso.h"

/* An ELF file (or in-memory image) opened as a source of symbols. */
struct symsrc {
	int fd;                        /* -1 for memory images */
	Elf *elf;
	char *path;
	uint8_t build_id[BUILD_ID_MAX];
	int build_id_size;             /* -1 = none */
	bool has_symtab;               /* a .symtab with entries (not NOBITS) */
	bool has_dynsym;
	bool has_text;                 /* .text has bytes (not a debuginfo-only file) */
};

/* 0 on success; -1 if the file cannot be opened or is not ELF. */
int symsrc__open(struct symsrc *ss, const char *path);
int symsrc__open_mem(struct symsrc *ss, void *image, size_t size, const char *name);
void symsrc__close(struct symsrc *ss);

/* Adds the functions and objects of .symtab (or .dynsym if dynsym) to t, demangled
 * for display. Returns how many were added. */
int symsrc__load_symbols(struct symsrc *ss, struct symtab *t, bool dynsym);

/* PT_LOAD program headers; malloc'ed array. Returns the count. */
/* name@plt symbols for the stubs of .plt (or .plt.sec) from .rela.plt; the count added */
int symsrc__synthesize_plt(struct symsrc *ss, struct symtab *t);
size_t symsrc__read_segments(struct symsrc *ss, struct dso_segment **segs);

/*
 * File offset of symbol @name (+@add) of the ELF file @path, where a uprobe
 * on it goes. 0, or -1 with a message (no such symbol, not in a segment).
 */
int symsrc__symbol_offset(const char *path, const char *name, uint64_t add, uint64_t *off);

/* NT_GNU_BUILD_ID of an open ELF: size, or -1. */
int elf__read_build_id(Elf *elf, uint8_t *id, size_t max);

#endif
