/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_GENELF_H
#define PERF_UTIL_GENELF_H

/*
 * genelf: builds the small ELF64 file that stands in for one jitted function,
 * so that tools which only understand files (perf report, addr2line, objdump)
 * can name, disassemble and line-map code that lived in anonymous memory.
 *
 * Layout (all allocated content in one R+X PT_LOAD with vaddr == file offset,
 * so a mapping of the code at pgoff text_offset translates back to vaddrs):
 *   ELF header, program headers, .note.gnu.build-id, .text at text_offset,
 *   [.eh_frame at ALIGN8(text end), .eh_frame_hdr right after it],
 *   then the non-allocated .debug_abbrev/.debug_info/.debug_line, .symtab,
 *   .strtab, .shstrtab and the section headers.
 * The eh_frame data keeps the position relative to the code that the runtime
 * gave it (code, pad to 8, table, header), so its pc-relative pointers stay valid.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#define GENELF_BUILD_ID_SIZE 20

/* one row of the line table: the instruction at addr comes from file:line */
struct genelf_line {
	uint64_t addr;           /* absolute runtime address, as in the jitdump */
	int32_t line;
	const char *file;
};

/* one frame of an inline stack; frames of a pc are ordered leaf first */
struct genelf_frame {
	const char *name;        /* method */
	const char *file;        /* its source file, "" if unknown */
	int32_t line;            /* line inside that method, 0 if unknown */
};

struct genelf_inline_pc {
	uint64_t addr;           /* absolute runtime address */
	uint32_t nr_frame;
	const struct genelf_frame *frames;
};

struct genelf_input {
	const char *name;        /* symbol name, verbatim */
	const void *code;
	uint64_t code_size;
	uint64_t code_addr;      /* runtime address of code[0] (for the line/inline addresses) */
	const struct genelf_line *lines;
	size_t nr_lines;
	const struct genelf_inline_pc *pcs;
	size_t nr_pcs;
	const void *unwind;      /* .eh_frame bytes followed by .eh_frame_hdr bytes */
	uint64_t unwind_size;
	uint64_t eh_frame_hdr_size;
};

/* Reusable output buffer: building many files through one buffer avoids a malloc per file. */
struct genelf_image {
	unsigned char *buf;
	size_t size, cap;
	uint64_t text_offset;    /* file offset == vaddr of code[0] */
	uint8_t build_id[GENELF_BUILD_ID_SIZE];
	/* scratch space kept between builds */
	void *scratch;
	size_t scratch_cap;
};

/*
 * Builds the ELF into img (previous contents replaced). The build-id is a
 * hash of the whole file, so equal input gives a byte-identical file.
 * Returns 0, or -1 (pr_debug) if the input is unusable (code_size 0 or huge).
 */
int genelf__build(const struct genelf_input *in, struct genelf_image *img);
void genelf__image_release(struct genelf_image *img);

/*
 * Writes img as `name` inside the directory dirfd, never following a
 * symlink: a new file is created with O_EXCL|O_NOFOLLOW; an existing regular
 * file with identical contents is reused as is (reruns cost no writes); a
 * different regular file is replaced (unlinked, recreated exclusively). A
 * symlink or any other kind of file is refused. *st gets the file's stat.
 * Returns 0 (written), 1 (identical file reused), or -1 with errno (ELOOP
 * for a refused symlink).
 */
int genelf__write_at(int dirfd, const char *name, const struct genelf_image *img, struct stat *st);

/*
 * Many functions in one ELF (one file per dump instead of one per function):
 * each function's code at its own 16-aligned file offset (== vaddr), one
 * local FUNC symbol and one DWARF unit each; unwinding info is not carried
 * (give such functions a file of their own). The file is written under a
 * temporary name created with O_EXCL|O_NOFOLLOW, code streamed out as it
 * comes, and renamed over `name` by finish (a symlink there is refused).
 */
struct genelf_multi;

/* NULL with errno */
struct genelf_multi *genelf_multi__create(int dirfd, const char *name);
/* the final file's inode is already known: the temporary file is renamed */
int genelf_multi__fstat(struct genelf_multi *m, struct stat *st);
/* file offset (== vaddr) of the function's code; 0 if it could not be added */
uint64_t genelf_multi__add(struct genelf_multi *m, const struct genelf_input *in);
/* writes the rest, renames, frees m. 0, or -1 with errno (temporary file removed) */
int genelf_multi__finish(struct genelf_multi *m, struct stat *st, uint8_t build_id[GENELF_BUILD_ID_SIZE]);
void genelf_multi__discard(struct genelf_multi *m);

#endif
