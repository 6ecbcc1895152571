// SPDX-License-Identifier: MIT
/*
 * jitdump-check: validates a jitdump written by libperf-jvmti.so (or any
 * writer) record by record, beyond what a reader needs to be safe:
 * exact sizes, time order, unique code indexes, DEBUG_INFO / INLINE_INFO
 * each directly followed by the LOAD of the same function, and optionally
 * that the code bytes equal the live process memory (/proc/PID/mem).
 *
 *   jitdump-check [--killed] [--list] [--inline] [--mem PID] [--min-identical PCT] DUMP
 *
 * Prints one "summary:" line; exit 0 = valid, 1 = invalid, 2 = cannot read.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/jitdump.h"
#include "util/util.h"

static int nr_errors;

static void problem(const struct jitdump_record *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void problem(const struct jitdump_record *r, const char *fmt, ...)
{
	va_list ap;

	if (++nr_errors > 50)
		return;
	if (r)
		fprintf(stderr, "jitdump-check: record id %u at offset %" PRIu64 ": ", r->id, r->offset);
	else
		fprintf(stderr, "jitdump-check: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

struct load_seen {
	uint64_t index, addr, size, offset;
	const unsigned char *code;
};

static struct load_seen *loads;
static size_t nr_loads, cap_loads;

static int cmp_index(const void *a, const void *b)
{
	const struct load_seen *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

/* one pending debug entry table, to compare with the inline record's leaf lines */
struct line_at {
	uint64_t addr;
	int32_t line;
	const char *file;
};

static uint64_t debug_size(struct jitdump *jd, const struct jitdump_record *r, struct line_at **out,
			   size_t *nout)
{
	struct jitdump_cursor c;
	struct jitdump_debug_line l;
	uint64_t size = sizeof(struct jitdump_debug_info);
	size_t n = 0;

	*out = xmalloc((r->debug.nr_entry + 1) * sizeof(**out));
	jitdump_cursor__init(&c, jd, r);
	while (jitdump_cursor__next_debug_line(&c, &l)) {
		size += sizeof(struct jitdump_debug_entry) + strlen(l.file) + 1;
		(*out)[n++] = (struct line_at){ l.addr, l.lineno, l.file };
	}
	*nout = n;
	return size;
}

static int compare_memory(int pid, double min_identical)
{
	char path[64];
	size_t identical = 0, compared = 0, unreadable = 0;
	uint64_t bytes = 0, bytes_diff = 0;
	unsigned char *buf = NULL;
	size_t bufsz = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "jitdump-check: %s: %s\n", path, strerror(errno));
		return -1;
	}
	/*
	 * Only the newest blob at an address is still in memory; an older blob
	 * overlapped by a later one was freed and its space reused.
	 */
	for (size_t i = 0; i < nr_loads; i++) {
		const struct load_seen *l = &loads[i];
		bool superseded = false;
		uint64_t d = 0;

		for (size_t j = i + 1; j < nr_loads && !superseded; j++)
			superseded = loads[j].addr < l->addr + l->size && l->addr < loads[j].addr + loads[j].size;
		if (superseded || !l->size)
			continue;
		if (l->size > bufsz)
			buf = xrealloc(buf, bufsz = l->size);
		if (preadn(fd, buf, l->size, (off_t)l->addr) != (ssize_t)l->size) {
			unreadable++;
			continue;
		}
		compared++;
		for (uint64_t k = 0; k < l->size; k++)
			d += buf[k] != l->code[k];
		bytes += l->size;
		bytes_diff += d;
		identical += d == 0;
	}
	close(fd);
	free(buf);
	printf("memory: compared=%zu identical=%zu unreadable=%zu bytes=%" PRIu64
	       " bytes_differing=%" PRIu64 "\n", compared, identical, unreadable, bytes, bytes_diff);
	if (!compared || 100.0 * identical / compared < min_identical) {
		problem(NULL, "only %zu of %zu live code blobs equal the process memory (want %.1f%%)",
			identical, compared, min_identical);
		return -1;
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: jitdump-check [--killed] [--list] [--inline] [--mem PID [--min-identical PCT]] DUMP\n"
			"  --killed  the writer may have died: no CLOSE needed, a partial last record is fine\n"
			"  --list    print every LOAD: index address size debug=0|1 inline=0|1 name\n"
			"  --inline  print every inline pc: inline, addr, depth, then name, file:line, bci per frame\n"
			"  --mem     compare code bytes with /proc/PID/mem (stop the process first)\n");
	exit(2);
}

int main(int argc, char **argv)
{
	bool killed = false, list = false, show_inline = false, seen_close = false;
	int mem_pid = 0, err;
	double min_identical = 90;
	const char *file = NULL;
	const struct jitdump_file_header *h;
	struct jitdump *jd;
	struct jitdump_record r;
	uint64_t last_ts, tail = 0;
	/* a DEBUG_INFO / INLINE_INFO waiting for its LOAD */
	bool pending_debug = false, pending_inline = false;
	uint64_t pending_addr = 0;
	struct line_at *lines = NULL;
	size_t nlines = 0;
	size_t nr_rec = 0, nr_debug = 0, nr_inline = 0, nr_unknown = 0, nr_entries = 0,
	       nr_inline_pcs = 0, max_depth = 0, nr_moves = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--killed"))
			killed = true;
		else if (!strcmp(argv[i], "--list"))
			list = true;
		else if (!strcmp(argv[i], "--inline"))
			show_inline = true;
		else if (!strcmp(argv[i], "--mem") && i + 1 < argc)
			mem_pid = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--min-identical") && i + 1 < argc)
			min_identical = atof(argv[++i]);
		else if (argv[i][0] == '-' || file)
			usage();
		else
			file = argv[i];
	}
	if (!file)
		usage();
	err = jitdump__open(file, &jd);
	if (err) {
		fprintf(stderr, "jitdump-check: %s: %s\n", file, jitdump__strerror(err));
		return 2;
	}
	h = jitdump__header(jd);
	if (h->total_size != sizeof(struct jitdump_file_header))
		problem(NULL, "header size %u, perf 6.1 only handles 40", h->total_size);
#if defined(__x86_64__)
	if (h->elf_mach != EM_X86_64)
		problem(NULL, "header elf_mach %u is not this host's (%u)", h->elf_mach, EM_X86_64);
#endif
	if (h->pad1)
		problem(NULL, "header pad1 is %u, not 0", h->pad1);
	last_ts = h->timestamp;

	while ((err = jitdump__next(jd, &r)) != 0) {
		nr_rec++;
		if (err < 0) {
			problem(&r, "%s", jitdump__record_error(jd));
			continue;
		}
		if (seen_close)
			problem(&r, "record after JIT_CODE_CLOSE");
		if (r.timestamp < last_ts)
			problem(&r, "timestamp %" PRIu64 " goes back (previous %" PRIu64 ")", r.timestamp,
				last_ts);
		last_ts = r.timestamp;
		if ((pending_debug || pending_inline) && r.id != JIT_CODE_LOAD &&
		    !(r.id == JIT_CODE_INLINE_INFO && !pending_inline))
			problem(&r, "DEBUG_INFO/INLINE_INFO not directly followed by its LOAD");

		switch (r.id) {
		case JIT_CODE_LOAD: {
			uint64_t want = sizeof(struct jitdump_code_load) + strlen(r.load.name) + 1 +
					r.load.code_size;

			if (r.size != want)
				problem(&r, "LOAD size %u, expected %" PRIu64, r.size, want);
			if (r.load.pid != h->pid)
				problem(&r, "LOAD pid %u, header says %u", r.load.pid, h->pid);
			if (r.load.vma != r.load.code_addr)
				problem(&r, "LOAD vma != code_addr");
			if (!r.load.code_size)
				problem(&r, "LOAD with empty code");
			if (!*r.load.name)
				problem(&r, "LOAD with empty name");
			if ((pending_debug || pending_inline) && pending_addr != r.load.code_addr)
				problem(&r, "LOAD at %#" PRIx64 " follows debug/inline info for %#" PRIx64,
					r.load.code_addr, pending_addr);
			for (size_t i = 0; i < nlines; i++)
				if (lines[i].addr < r.load.code_addr ||
				    lines[i].addr >= r.load.code_addr + r.load.code_size)
					problem(&r, "debug entry %#" PRIx64 " outside its function", lines[i].addr);
			if (nr_loads == cap_loads)
				loads = xrealloc(loads, (cap_loads = cap_loads ? cap_loads * 2 : 1024) *
						 sizeof(*loads));
			loads[nr_loads++] = (struct load_seen){ r.load.code_index, r.load.code_addr,
								r.load.code_size, r.offset, r.load.code };
			if (list)
				printf("%" PRIu64 " %#" PRIx64 " %" PRIu64 " debug=%d inline=%d %s\n",
				       r.load.code_index, r.load.code_addr, r.load.code_size, pending_debug,
				       pending_inline, r.load.name);
			pending_debug = pending_inline = false;
			free(lines);
			lines = NULL;
			nlines = 0;
			break;
		}
		case JIT_CODE_MOVE:
			nr_moves++;
			if (r.size != sizeof(struct jitdump_code_move))
				problem(&r, "MOVE size %u, expected 64", r.size);
			break;
		case JIT_CODE_DEBUG_INFO: {
			uint64_t want;

			nr_debug++;
			free(lines);
			want = debug_size(jd, &r, &lines, &nlines);
			nr_entries += nlines;
			if (r.size != want)
				problem(&r, "DEBUG_INFO size %u, expected %" PRIu64, r.size, want);
			if (!nlines)
				problem(&r, "DEBUG_INFO without entries");
			for (size_t i = 0; i < nlines; i++) {
				if (i && lines[i].addr < lines[i - 1].addr)
					problem(&r, "debug entries not in address order");
				if (lines[i].line <= 0)
					problem(&r, "debug entry with line %d", lines[i].line);
				if (!*lines[i].file)
					problem(&r, "debug entry without a file name");
			}
			pending_debug = true;
			pending_addr = r.debug.code_addr;
			break;
		}
		case JIT_CODE_CLOSE:
			if (r.size != sizeof(struct jitdump_record_prefix))
				problem(&r, "CLOSE size %u, expected 16", r.size);
			seen_close = true;
			break;
		case JIT_CODE_INLINE_INFO: {
			struct jitdump_cursor c;
			struct jitdump_frame fr[64];
			uint64_t addr, want = sizeof(struct jitdump_inline_info);
			uint32_t nf;
			size_t pcs = 0;

			nr_inline++;
			if (pending_debug && pending_addr != r.inl.code_addr)
				problem(&r, "INLINE_INFO for %#" PRIx64 " after DEBUG_INFO for %#" PRIx64,
					r.inl.code_addr, pending_addr);
			jitdump_cursor__init(&c, jd, &r);
			while (jitdump_cursor__next_inline_pc(&c, &addr, &nf, fr, 64)) {
				pcs++;
				if (show_inline) {
					printf("inline\t%#" PRIx64 "\t%u", addr, nf);
					for (uint32_t f = 0; f < nf && f < 64; f++)
						printf("\t%s\t%s:%d\t%d", fr[f].name, fr[f].file, fr[f].line, fr[f].bci);
					putchar('\n');
				}
				want += sizeof(struct jitdump_inline_pc) + nf * sizeof(struct jitdump_inline_frame);
				if (!nf)
					problem(&r, "inline pc %#" PRIx64 " without frames", addr);
				if (nf > max_depth)
					max_depth = nf;
				if (addr < r.inl.code_addr)
					problem(&r, "inline pc %#" PRIx64 " before the function", addr);
				for (uint32_t f = 0; f < nf && f < 64; f++)
					if (!*fr[f].name)
						problem(&r, "inline frame without a method name");
				/*
				 * The leaf frame is what DEBUG_INFO says for this pc: a row
				 * at this address, or the row covering it.
				 */
				if (nf && fr[0].line > 0 && *fr[0].file) {
					bool same = false;
					size_t cover = nlines;

					for (size_t i = 0; i < nlines; i++) {
						if (lines[i].addr == addr)
							same |= lines[i].line == fr[0].line &&
								!strcmp(lines[i].file, fr[0].file);
						if (lines[i].addr <= addr)
							cover = i;
					}
					if (!same && cover < nlines)
						same = lines[cover].line == fr[0].line &&
						       !strcmp(lines[cover].file, fr[0].file);
					if (!same)
						problem(&r, "leaf frame of pc %#" PRIx64 " (%s:%d) not in DEBUG_INFO",
							addr, fr[0].file, fr[0].line);
				}
			}
			nr_inline_pcs += pcs;
			want += r.inl.strtab_size;
			if (r.size != want)
				problem(&r, "INLINE_INFO size %u, expected %" PRIu64, r.size, want);
			if (pcs != r.inl.nr_pc)
				problem(&r, "INLINE_INFO pc count mismatch");
			pending_inline = true;
			pending_addr = r.inl.code_addr;
			break;
		}
		default:
			nr_unknown++;
			break;
		}
	}
	if (jitdump__partial_tail(jd, &tail)) {
		if (!killed)
			problem(NULL, "file ends in a partial record at offset %" PRIu64, tail);
	} else if (!killed && (pending_debug || pending_inline))
		problem(NULL, "DEBUG_INFO/INLINE_INFO at the end without a LOAD");
	if (!killed && !seen_close)
		problem(NULL, "no JIT_CODE_CLOSE record");

	/* code_index must be unique: it names the ELF file perf inject writes */
	{
		struct load_seen *sorted = xmalloc((nr_loads + 1) * sizeof(*sorted));

		if (nr_loads)
			memcpy(sorted, loads, nr_loads * sizeof(*sorted));
		qsort(sorted, nr_loads, sizeof(*sorted), cmp_index);
		for (size_t i = 1; i < nr_loads; i++)
			if (sorted[i].index == sorted[i - 1].index)
				problem(NULL, "code_index %" PRIu64 " used twice (offsets %" PRIu64 ", %" PRIu64 ")",
					sorted[i].index, sorted[i - 1].offset, sorted[i].offset);
		free(sorted);
	}

	printf("summary: records=%zu loads=%zu debug_info=%zu debug_entries=%zu inline_info=%zu "
	       "inline_pcs=%zu max_inline_depth=%zu moves=%zu unknown=%zu close=%d partial_tail=%s "
	       "complete_bytes=%" PRIu64 " flags=%#" PRIx64 " header_ts=%" PRIu64 " pid=%u errors=%d\n",
	       nr_rec, nr_loads, nr_debug, nr_entries, nr_inline, nr_inline_pcs, max_depth, nr_moves,
	       nr_unknown, seen_close, jitdump__partial_tail(jd, NULL) ? "yes" : "no",
	       jitdump__partial_tail(jd, NULL) ? tail : jitdump__file_size(jd), h->flags, h->timestamp, h->pid,
	       nr_errors);
	if (mem_pid && compare_memory(mem_pid, min_identical) < 0)
		nr_errors++;
	free(lines);
	free(loads);
	jitdump__close(jd);
	return nr_errors ? 1 : 0;
}
