/* SPDX-License-Identifier: MIT */
/*
 * jitdump: the file a JIT runtime writes so perf can name and disassemble
 * code that lives in anonymous memory. Layouts are described in
 * Documentation/jitdump-specification.txt.
 *
 * The struct part (up to "Reader") depends on nothing but <stdint.h>, so the
 * JVMTI agent can include it for the layouts without pulling in perf's util/.
 * All structs are packed: records follow each other with no padding, so a
 * field of a record inside a file mapping may be misaligned.
 */
#ifndef PERF_UTIL_JITDUMP_H
#define PERF_UTIL_JITDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JITDUMP_MAGIC          0x4A695444u  /* "JiTD" as a big-endian word */
#define JITDUMP_MAGIC_SWAPPED  0x4454694Au
#define JITDUMP_VERSION        1u

/* timestamps are raw architecture counter values (x86: TSC) */
#define JITDUMP_FLAGS_ARCH_TIMESTAMP  (1ull << 0)
#define JITDUMP_FLAGS_KNOWN           JITDUMP_FLAGS_ARCH_TIMESTAMP

struct jitdump_file_header {
	uint32_t magic;
	uint32_t version;
	uint32_t total_size;     /* of this header; 40 is the only size perf 6.1 handles */
	uint32_t elf_mach;
	uint32_t pad1;
	uint32_t pid;
	uint64_t timestamp;
	uint64_t flags;
} __attribute__((packed));

enum jitdump_record_type {
	JIT_CODE_LOAD           = 0,
	JIT_CODE_MOVE           = 1,
	JIT_CODE_DEBUG_INFO     = 2,
	JIT_CODE_CLOSE          = 3,
	JIT_CODE_UNWINDING_INFO = 4,
	JIT_CODE_STANDARD_MAX   = 5,
	/*
	 * Ours: the inline stacks of a compiled method. Far above the standard
	 * ids so a future standard record cannot collide; readers that do not
	 * know it skip it by total_size (perf 6.1 does, with a warning).
	 */
	JIT_CODE_INLINE_INFO    = 0x10000,
};

struct jitdump_record_prefix {
	uint32_t id;
	uint32_t total_size;     /* whole record, prefix included */
	uint64_t timestamp;
} __attribute__((packed));

struct jitdump_code_load {
	struct jitdump_record_prefix p;
	uint32_t pid;
	uint32_t tid;
	uint64_t vma;
	uint64_t code_addr;
	uint64_t code_size;
	uint64_t code_index;
	/* followed by: name (NUL-terminated), code_size code bytes */
} __attribute__((packed));

struct jitdump_code_move {
	struct jitdump_record_prefix p;
	uint32_t pid;
	uint32_t tid;
	uint64_t vma;
	uint64_t old_code_addr;
	uint64_t new_code_addr;
	uint64_t code_size;
	uint64_t code_index;
} __attribute__((packed));

struct jitdump_debug_entry {
	uint64_t addr;           /* absolute address of the instruction */
	int32_t  lineno;
	int32_t  discrim;
	/* followed by: source file name (NUL-terminated) */
} __attribute__((packed));

struct jitdump_debug_info {
	struct jitdump_record_prefix p;
	uint64_t code_addr;
	uint64_t nr_entry;
	/* followed by: nr_entry debug entries */
} __attribute__((packed));

struct jitdump_unwinding_info {
	struct jitdump_record_prefix p;
	uint64_t unwinding_size;
	uint64_t eh_frame_hdr_size;
	uint64_t mapped_size;
	/* followed by: unwinding_size bytes (.eh_frame then .eh_frame_hdr) */
} __attribute__((packed));

/*
 * JIT_CODE_INLINE_INFO: for each pc of one compiled function, the whole
 * inline stack, leaf frame first. Strings (method names, source files) are
 * stored once in a table at the end of the record and referenced by byte
 * offset into that table. Comes after the DEBUG_INFO and before the LOAD of
 * the same function.
 */
struct jitdump_inline_info {
	struct jitdump_record_prefix p;
	uint64_t code_addr;      /* start of the function (= the next LOAD's code_addr) */
	uint32_t nr_pc;
	uint32_t strtab_size;    /* bytes of the string table */
	/* followed by: nr_pc pc entries (each followed by its frames), then the string table */
} __attribute__((packed));

struct jitdump_inline_pc {
	uint64_t addr;           /* absolute address inside the function */
	uint32_t nr_frame;
	uint32_t reserved;       /* 0 */
	/* followed by: nr_frame frames */
} __attribute__((packed));

struct jitdump_inline_frame {
	uint32_t name;           /* offset of the method name in the string table */
	uint32_t file;           /* offset of the source file name, "" if unknown */
	int32_t  line;           /* 0 if unknown */
	int32_t  bci;            /* bytecode index, -1 if the VM gave none */
} __attribute__((packed));

/* ---------------------------------------------------------------------------
 * Reader. Maps the file read-only and decodes records in place, byte-swapping
 * every field when the writer's byte order differs from ours.
 */

enum jitdump_error {
	JITDUMP_OK = 0,
	JITDUMP_ERR_IO = -1,          /* open/stat/mmap failed, see errno */
	JITDUMP_ERR_SHORT_HEADER = -2,/* file smaller than the header */
	JITDUMP_ERR_MAGIC = -3,
	JITDUMP_ERR_VERSION = -4,
	JITDUMP_ERR_HEADER_SIZE = -5,
	JITDUMP_ERR_FLAGS = -6,       /* unknown header flag bits */
	JITDUMP_ERR_RECORD = -7,      /* a complete record whose contents are inconsistent */
};

struct jitdump;

struct jitdump_debug_line {
	uint64_t addr;
	int32_t lineno;
	int32_t discrim;
	const char *file;         /* points into the mapping */
};

struct jitdump_frame {
	const char *name;
	const char *file;
	int32_t line;
	int32_t bci;
};

/* One decoded record. Pointers point into the mapping, valid until jitdump__close(). */
struct jitdump_record {
	uint32_t id;
	uint32_t size;
	uint64_t timestamp;
	uint64_t offset;          /* of the record in the file */
	const void *raw;          /* the record as on disk (writer's byte order) */
	union {
		struct {
			uint32_t pid, tid;
			uint64_t vma, code_addr, code_size, code_index;
			const char *name;
			const void *code;
		} load;
		struct {
			uint32_t pid, tid;
			uint64_t vma, old_code_addr, new_code_addr, code_size, code_index;
		} move;
		struct {
			uint64_t code_addr, nr_entry;
			const void *entries;   /* walk with jitdump_cursor__next_debug_line() */
		} debug;
		struct {
			uint64_t unwinding_size, eh_frame_hdr_size, mapped_size;
			const void *data;
		} unwind;
		struct {
			uint64_t code_addr;
			uint32_t nr_pc;
			const void *pcs;       /* walk with jitdump_cursor__next_inline_pc() */
			const char *strtab;
			uint32_t strtab_size;
		} inl;
	};
};

/* Cursor over the entries of a DEBUG_INFO or the pcs of an INLINE_INFO record. */
struct jitdump_cursor {
	const struct jitdump *jd;
	const struct jitdump_record *rec;
	const unsigned char *pos;
	uint64_t left;
};

/*
 * Opens and validates the header. Returns JITDUMP_OK and *out, or a negative
 * enum jitdump_error (errno is kept for JITDUMP_ERR_IO).
 */
int jitdump__open(const char *path, struct jitdump **out);
void jitdump__close(struct jitdump *jd);
const char *jitdump__strerror(int err);

/* Header fields in host byte order. */
const struct jitdump_file_header *jitdump__header(const struct jitdump *jd);
bool jitdump__needs_swap(const struct jitdump *jd);
uint64_t jitdump__file_size(const struct jitdump *jd);

/*
 * Next record: 1 = *rec filled, 0 = end of the records, JITDUMP_ERR_RECORD =
 * the record at rec->offset is complete but malformed (a later call goes on
 * with the record after it when its size is sane, else ends).
 */
int jitdump__next(struct jitdump *jd, struct jitdump_record *rec);
/* Back to the first record. */
void jitdump__rewind(struct jitdump *jd);

/*
 * After jitdump__next() returned 0: true if the file ends in an incomplete
 * record (a writer killed mid-write, or still writing); *offset = where it starts.
 */
bool jitdump__partial_tail(const struct jitdump *jd, uint64_t *offset);
/* Why the last JITDUMP_ERR_RECORD happened, for messages. */
const char *jitdump__record_error(const struct jitdump *jd);

/* Calls cb for each good record; stops when cb returns non-zero (returned). */
int jitdump__for_each(struct jitdump *jd, int (*cb)(const struct jitdump_record *rec, void *arg),
		     void *arg);

void jitdump_cursor__init(struct jitdump_cursor *c, const struct jitdump *jd,
			 const struct jitdump_record *rec);
/* DEBUG_INFO entries: 1 = *line filled, 0 = done. Entries were checked by jitdump__next(). */
int jitdump_cursor__next_debug_line(struct jitdump_cursor *c, struct jitdump_debug_line *line);
/*
 * INLINE_INFO pcs: 1 = addr, nr_frame filled and frames (at most max of them)
 * filled, 0 = done.
 */
int jitdump_cursor__next_inline_pc(struct jitdump_cursor *c, uint64_t *addr, uint32_t *nr_frame,
			   struct jitdump_frame *frames, uint32_t max);

#endif
