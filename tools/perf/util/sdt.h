/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_SDT_H
#define PERF_UTIL_SDT_H

/*
 * SDT markers of an ELF file (.note.stapsdt, Documentation/formats/sdt.md): where
 * each probe site and semaphore is in the file, and the uprobe_events line
 * that probes it.
 */
#include <stddef.h>
#include <stdint.h>
#include "sdt-arg.h"

struct sdt_note {
	char *provider, *name;
	char *args;              /* the note's argument string ("" when none) */
	uint64_t pc, base, semaphore;  /* as written in the note */
	uint64_t addr;           /* the probe site's address in the file (pc moved with .stapsdt.base) */
	uint64_t pc_off;         /* file offset of the probe site */
	uint64_t sem_off;        /* file offset of the semaphore, 0 = none */
	/*
	 * " arg1=%bx:u64 arg3=..." (leading space; "" when none); arguments
	 * uprobes cannot express are left out (warned about), their numbers
	 * stay unused.
	 */
	char *fetchargs;
	int nr_args, nr_skipped;
};

struct sdt_notes {
	struct sdt_note *v;
	size_t nr, cap;
	size_t nr_bad;           /* malformed notes skipped */
	enum sdt_arch arch;
};

/*
 * Scans @path. Malformed notes and inexpressible arguments are skipped with
 * a warning naming them; the rest is still returned. 0 on success (possibly
 * with no notes), -1 with a message when the file cannot be read or is not
 * ELF.
 */
int sdt__scan_file(const char *path, struct sdt_notes *out);
void sdt_notes__exit(struct sdt_notes *n);

/*
 * "p:sdt_<provider>/<name> <path>:0x<off>[(0x<sem>)]<fetchargs>"
 * (malloc'ed), the line perf writes to uprobe_events and the cache.
 */
char *sdt_note__uprobe_line(const struct sdt_note *n, const char *path);

/* A name tracefs accepts as a group or event: [A-Za-z_][A-Za-z0-9_]* */
int sdt__valid_event_name(const char *s);

#endif
