// SPDX-License-Identifier: MIT
/*
 * Per-instruction sample counts of a symbol, its disassembly (objdump, like
 * perf, so the instruction text matches) and DWARF source positions.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "annotate.h"
#include "debug.h"
#include "strbuf.h"
#include "util.h"

void sym_hists__init(struct sym_hists *h)
{
	h->nbuckets = 4096;
	h->buckets = xzalloc(h->nbuckets * sizeof(*h->buckets));
	h->nr = 0;
}

void sym_hists__exit(struct sym_hists *h)
{
	for (size_t b = 0; b < h->nbuckets; b++) {
		struct sym_hist *s = h->buckets[b], *next;

		for (; s; s = next) {
			next = s->next;
			free(s->hits);
			free(s);
		}
	}
	free(h->buckets);
	memset(h, 0, sizeof(*h));
}

void sym_hists__add(struct sym_hists *h, struct dso *dso, struct symbol *sym, uint64_t addr,
		    uint64_t period)
{
	size_t b = (((uintptr_t)sym >> 4) ^ ((uintptr_t)dso >> 6)) % h->nbuckets;
	struct sym_hist *s;

	for (s = h->buckets[b]; s; s = s->next)
		if (s->sym == sym && s->dso == dso)
			break;
	if (!s) {
		s = xzalloc(sizeof(*s));
		s->dso = dso;
		s->sym = sym;
		s->next = h->buckets[b];
		h->buckets[b] = s;
		h->nr++;
	}
	s->nr_samples++;
	s->period += period;
	/* hot loops hit few addresses: the last one is the likeliest */
	for (size_t i = s->nr_hits; i-- > 0;) {
		if (s->hits[i].addr == addr) {
			s->hits[i].period += period;
			s->hits[i].nr++;
			return;
		}
	}
	GROW_ARRAY(s->hits, s->nr_hits + 1, s->cap_hits);
	s->hits[s->nr_hits].addr = addr;
	s->hits[s->nr_hits].period = period;
	s->hits[s->nr_hits].nr = 1;
	s->nr_hits++;
}

static int cmp_hist(const void *a, const void *b)
{
	const struct sym_hist *x = *(const struct sym_hist *const *)a, *y = *(const struct sym_hist *const *)b;

	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	return strcmp(x->sym->name, y->sym->name);
}

struct sym_hist **sym_hists__sorted(struct sym_hists *h, size_t *nr)
{
	struct sym_hist **v = xmalloc((h->nr + 1) * sizeof(*v));
	size_t n = 0;

	for (size_t b = 0; b < h->nbuckets; b++)
		for (struct sym_hist *s = h->buckets[b]; s; s = s->next)
			v[n++] = s;
	qsort(v, n, sizeof(*v), cmp_hist);
	*nr = n;
	return v;
}

/* objdump -d of [start,end) of path, read through a pipe (no shell) */
static char *run_objdump(const char *path, uint64_t start, uint64_t end, bool with_lines, size_t *len)
{
	char a1[64], a2[64];
	const char *argv[] = { "objdump", "-d", "--no-show-raw-insn", "-C", "-w", a1, a2, path, NULL, NULL };
	int p[2], status;
	pid_t pid;
	struct strbuf out = STRBUF_INIT;

	snprintf(a1, sizeof(a1), "--start-address=0x%llx", (unsigned long long)start);
	snprintf(a2, sizeof(a2), "--stop-address=0x%llx", (unsigned long long)end);
	if (with_lines) {
		argv[7] = "-l";
		argv[8] = path;
	}
	if (pipe2(p, O_CLOEXEC) < 0)
		return NULL;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return NULL;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(p[1], 1);
		if (null >= 0)
			dup2(null, 2);
		execvp("objdump", (char *const *)argv);
		_exit(127);
	}
	close(p[1]);
	/* a read error ends the text like EOF: objdump's status decides */
	strbuf_read_fd(&out, p[0]);
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		strbuf_release(&out);
		return NULL;
	}
	return strbuf_detach(&out, len);
}

/* "    1210:\ttest   %rdi,%rdi" -> addr, text */
static bool parse_insn_line(char *line, uint64_t *addr, char **text)
{
	char *p = line, *end;

	while (*p == ' ')
		p++;
	*addr = strtoull(p, &end, 16);
	if (end == p || *end != ':' || end[1] != '\t')
		return false;
	*text = end + 2;
	return **text != 0;
}

/* Source files named by line tables: interned names, contents read on demand. */
struct source_file {
	char *path;
	char *data;
	char **lines;
	int nr_lines;
	bool tried;
	struct source_file *next;
};

static struct source_file *source_file__find(struct annotate_ctx *ctx, const char *path)
{
	struct source_file *f;

	for (f = ctx->sources; f; f = f->next)
		if (!strcmp(f->path, path))
			return f;
	f = xzalloc(sizeof(*f));
	f->path = xstrdup(path);
	f->next = ctx->sources;
	ctx->sources = f;
	return f;
}

void annotate_ctx__exit(struct annotate_ctx *ctx)
{
	while (ctx->sources) {
		struct source_file *f = ctx->sources;

		ctx->sources = f->next;
		free(f->path);
		free(f->data);
		free(f->lines);
		free(f);
	}
}

static const char *intern_path(struct annotate_ctx *ctx, const char *path)
{
	return source_file__find(ctx, path)->path;
}

const char *annotate_ctx__source_line(struct annotate_ctx *ctx, const char *path, int line)
{
	struct source_file *f = source_file__find(ctx, path);

	if (!f->tried) {
		size_t len = 0, cap = 0;

		f->tried = true;
		f->data = read_file(path, &len);
		if (f->data) {
			char *p = f->data, *end = f->data + len;

			while (p < end) {
				char *nl = memchr(p, '\n', end - p);

				*ARRAY_PUSH(f->lines, f->nr_lines, cap) = p;
				if (!nl)
					break;
				*nl = 0;
				p = nl + 1;
			}
		}
	}
	if (line < 1 || line > f->nr_lines)
		return NULL;
	return f->lines[line - 1];
}

/* DWARF line of each instruction, from the file's CUs (.debug_line) */
static void add_lines(struct annotate_ctx *ctx, const char *path, struct annotation *a)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Dwarf *dw;

	if (fd < 0)
		return;
	dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw) {
		close(fd);
		return;
	}
	for (size_t i = 0; i < a->nr; i++) {
		Dwarf_Die cu;
		Dwarf_Line *line;
		int lineno;
		const char *file;

		if (!dwarf_addrdie(dw, a->insns[i].addr, &cu))
			continue;
		line = dwarf_getsrc_die(&cu, a->insns[i].addr);
		if (!line || dwarf_lineno(line, &lineno) || !(file = dwarf_linesrc(line, NULL, NULL)))
			continue;
		if (file[0] != '/') {
			Dwarf_Attribute attr;
			const char *dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &attr));

			if (dir) {
				char *full = xasprintf("%s/%s", dir, file);

				a->insns[i].src_file = intern_path(ctx, full);
				free(full);
				a->insns[i].src_line = lineno;
				continue;
			}
		}
		a->insns[i].src_file = intern_path(ctx, file);
		a->insns[i].src_line = lineno;
	}
	dwarf_end(dw);
	close(fd);
}

static void add_insn(struct annotation *a, uint64_t addr, const char *text)
{
	*ARRAY_PUSH(a->insns, a->nr, a->cap_insns) = (struct annotated_insn){
		.addr = addr, .text = xstrdup(text) };
}

static void add_row(struct annotation *a, long insn, int line_nr, const char *text)
{
	*ARRAY_PUSH(a->rows, a->nr_rows, a->cap_rows) = (struct annotate_row){
		.insn = insn, .line_nr = line_nr, .text = text ? xstrdup(text) : NULL };
}

/* "/path/file.c:42" (objdump -l): the line number, else -1 */
static int file_line(const char *line)
{
	const char *colon = strrchr(line, ':');
	char *end;
	long n;

	if (line[0] != '/' || !colon || colon[1] < '0' || colon[1] > '9')
		return -1;
	n = strtol(colon + 1, &end, 10);
	return *end ? -1 : (int)n;
}

/*
 * perf 6.1's rows of objdump -l: lines naming the object file are dropped,
 * "/file:N" lines are not rows but set the running number to N, and every
 * other line (instructions included) takes the running number, which then
 * counts up by one.
 */
static void parse_rows(struct annotation *a, char *out, const char *file, const struct symbol *sym)
{
	int nr = 0;
	char *line = out, *next;

	for (; line && *line; line = next) {
		uint64_t addr;
		char *text;
		int n;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (strstr(line, file))
			continue;
		n = file_line(line);
		if (n >= 0) {
			nr = n;
			continue;
		}
		if (parse_insn_line(line, &addr, &text) && addr >= sym->start && addr < sym->end) {
			add_insn(a, addr, text);
			add_row(a, (long)a->nr - 1, nr++, NULL);
		} else
			add_row(a, -1, nr++, line);
	}
}

int symbol__annotate(struct annotate_ctx *ctx, const struct sym_hist *sh, struct annotation *a,
		     char *err, size_t errsize)
{
	struct dso *dso = sh->dso;
	const char *files[2];
	size_t nfiles = 0, len = 0;
	char *out = NULL, *line, *save = NULL;

	memset(a, 0, sizeof(*a));
	if (dso->kind != DSO_KIND_ELF && dso->kind != DSO_KIND_VDSO) {
		snprintf(err, errsize, "no object file to disassemble for %s", dso->long_name);
		return -1;
	}
	/* the mapped file has the code; a separate debuginfo may have NOBITS .text */
	if (dso->kind == DSO_KIND_ELF && access(dso->long_name, R_OK) == 0)
		files[nfiles++] = dso->long_name;
	if (dso->symsrc && (!nfiles || strcmp(dso->symsrc, dso->long_name)))
		files[nfiles++] = dso->symsrc;
	for (size_t f = 0; f < nfiles && !a->nr; f++) {
		free(out);
		out = run_objdump(files[f], sh->sym->start, sh->sym->end, ctx->no_source, &len);
		if (!out)
			continue;
		if (ctx->no_source) {
			/* rows of a file that gave no instruction are not wanted */
			for (size_t i = 0; i < a->nr_rows; i++)
				free(a->rows[i].text);
			a->nr_rows = 0;
			parse_rows(a, out, files[f], sh->sym);
			if (a->nr)
				a->objdump_file = xstrdup(files[f]);
			continue;
		}
		for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			uint64_t addr;
			char *text;

			if (!parse_insn_line(line, &addr, &text) || addr < sh->sym->start || addr >= sh->sym->end)
				continue;
			add_insn(a, addr, text);
		}
		if (a->nr)
			a->objdump_file = xstrdup(files[f]);
	}
	free(out);
	if (!a->nr) {
		snprintf(err, errsize, "objdump gave no instructions for %s in %s", sh->sym->name,
			 nfiles ? files[0] : dso->long_name);
		return -1;
	}
	/* each hit goes to the instruction containing it (insns are in address order) */
	for (size_t i = 0; i < sh->nr_hits; i++) {
		uint64_t addr = sh->hits[i].addr;
		size_t lo = 0, hi = a->nr;

		while (hi - lo > 1) {
			size_t mid = (lo + hi) / 2;

			if (a->insns[mid].addr <= addr)
				lo = mid;
			else
				hi = mid;
		}
		if (addr < a->insns[lo].addr)
			continue;
		a->insns[lo].period += sh->hits[i].period;
		a->insns[lo].nr_samples += sh->hits[i].nr;
		a->period += sh->hits[i].period;
	}
	for (size_t f = 0; f < nfiles && !ctx->no_source; f++) {
		add_lines(ctx, files[f], a);
		for (size_t i = 0; i < a->nr; i++)
			if (a->insns[i].src_line)
				return 0;
	}
	return 0;
}

void annotation__exit(struct annotation *a)
{
	for (size_t i = 0; i < a->nr; i++)
		free(a->insns[i].text);
	free(a->insns);
	for (size_t i = 0; i < a->nr_rows; i++)
		free(a->rows[i].text);
	free(a->rows);
	free(a->objdump_file);
	memset(a, 0, sizeof(*a));
}
