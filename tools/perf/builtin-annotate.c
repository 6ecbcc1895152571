// SPDX-License-Identifier: MIT
/*
 * perf annotate --stdio [SYMBOL]: the instructions of each sampled symbol
 * with their share of its samples, and the source lines from DWARF between
 * them, in perf 6.1's --stdio layout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "util/annotate.h"
#include "util/callchain.h"
#include "util/debug.h"
#include "util/debuginfod.h"
#include "util/parse-options.h"
#include "util/session.h"
#include "util/util.h"

struct annotate {
	struct perf_tool tool;
	struct sym_hists *hists;     /* per evsel */
	size_t nr_hists;
	struct hist_frame frame;
};

static int annotate__sample(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
			    struct perf_sample *sample, struct evsel *evsel)
{
	struct annotate *ann = (struct annotate *)tool;
	struct thread *thread;

	(void)ev;
	if ((size_t)evsel->idx >= ann->nr_hists) {
		size_t n = evsel->idx + 1;

		ann->hists = xrealloc(ann->hists, n * sizeof(*ann->hists));
		for (size_t i = ann->nr_hists; i < n; i++)
			sym_hists__init(&ann->hists[i]);
		ann->nr_hists = n;
	}
	sample__resolve_frames(&s->machine, sample, &ann->frame, 1, &thread);
	if (ann->frame.sym && ann->frame.dso)
		sym_hists__add(&ann->hists[evsel->idx], ann->frame.dso, ann->frame.sym, ann->frame.addr,
			       sample->period);
	return 0;
}

/* perf pads the numbers of text rows to the width of the symbol's hex end address, plus one */
static int row_width(const struct sym_hist *sh)
{
	char buf[32];

	return snprintf(buf, sizeof(buf), "%llx", (unsigned long long)sh->sym->end) + 1;
}

static double percent(const struct annotation *a, const struct annotated_insn *in)
{
	return a->period ? 100.0 * in->period / a->period : 0.0;
}

static void print_insn(FILE *f, const struct annotation *a, const struct annotated_insn *in)
{
	char addr[32];

	snprintf(addr, sizeof(addr), "%llx:", (unsigned long long)in->addr);
	fprintf(f, "%8.2f :   %-7s %s\n", percent(a, in), addr, in->text);
}

/* the title and its rule, as wide as the title with its tab expanded */
static void print_title(FILE *f, const struct sym_hist *sh, const char *event)
{
	char head[1024];
	int n = snprintf(head, sizeof(head),
			 "Source code & Disassembly of %s for %s (%llu samples, percent: local period)",
			 sh->dso->short_name, event, (unsigned long long)sh->nr_samples);

	fprintf(f, " Percent |\t%s\n", head);
	for (int i = 0; i < 16 + n; i++)
		fputc('-', f);
	fputc('\n', f);
}

/* --no-source: objdump -l's rows with perf 6.1's running numbers */
static void print_rows(FILE *f, const struct sym_hist *sh, const struct annotation *a,
		       const char *event)
{
	int width = row_width(sh);

	print_title(f, sh, event);
	for (size_t i = 0; i < a->nr_rows; i++) {
		const struct annotate_row *r = &a->rows[i];

		if (r->insn >= 0)
			print_insn(f, a, &a->insns[r->insn]);
		else if (!r->text[0])
			fprintf(f, "         :\n");
		else
			fprintf(f, "         : %-*d%s\n", width, r->line_nr, r->text);
	}
}

static void print_annotation(struct annotate_ctx *ctx, FILE *f, const struct sym_hist *sh,
			     const struct annotation *a, const char *event)
{
	int width = row_width(sh), maxline = 0;
	const char *last_file = NULL;
	int last_line = -1;
	char buf[16];

	for (size_t i = 0; i < a->nr; i++)
		if (a->insns[i].src_line > maxline)
			maxline = a->insns[i].src_line;
	/* a DWARF line number may be wider than the addresses */
	if (snprintf(buf, sizeof(buf), "%d", maxline) + 1 > width)
		width = (int)strlen(buf) + 1;
	print_title(f, sh, event);
	fprintf(f, "         :\n         :\n         :\n");
	fprintf(f, "         : %*sDisassembly of section .text:\n", width, "");
	fprintf(f, "         :\n");
	fprintf(f, "         : %*s%016llx <%s>:\n", width, "", (unsigned long long)sh->sym->start, sh->sym->name);
	for (size_t i = 0; i < a->nr; i++) {
		const struct annotated_insn *in = &a->insns[i];

		if (in->src_line && (in->src_line != last_line || in->src_file != last_file)) {
			const char *text = annotate_ctx__source_line(ctx, in->src_file, in->src_line);

			/* perf shows the statement without its indentation */
			while (text && (*text == ' ' || *text == '\t'))
				text++;
			if (text)
				fprintf(f, "         : %-*d%s\n", width, in->src_line, text);
			else
				fprintf(f, "         : %-*d%s:%d\n", width, in->src_line, in->src_file, in->src_line);
			last_line = in->src_line;
			last_file = in->src_file;
		}
		print_insn(f, a, in);
	}
}

/* name is one of the comma-separated list */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return true;
		p += len + (comma != NULL);
	}
	return false;
}

static const char *const annotate_usage[] = {
	"perf annotate [<options>] [<symbol>]",
	NULL
};

int cmd_annotate(int argc, const char **argv)
{
	struct annotate ann = { .nr_hists = 0 };
	const char *input = NULL, *symbol = NULL;
	bool stdio = false, stdio2 = false, tui = false, gtk = false, source = true;
	bool force = false, skip_missing = false;
	const char *dsos = NULL, *color = NULL, *symfs = NULL, *vmlinux = NULL;
	struct annotate_ctx ctx = { .no_source = false };
	struct debuginfod_opt dbgd = DEBUGINFOD_OPT_INIT;
	const struct option options[] = {
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_STRING('s', "symbol", &symbol, "symbol", "symbol to annotate"),
		OPT_BOOLEAN(0, "stdio", &stdio, "Use the stdio interface (the only one)"),
		OPT_BOOLEAN(0, "stdio2", &stdio2, "accepted; same as --stdio"),
		OPT_BOOLEAN(0, "tui", &tui, "accepted for compatibility; stdio is used"),
		OPT_BOOLEAN(0, "gtk", &gtk, "accepted for compatibility; stdio is used"),
		OPT_BOOLEAN(0, "source", &source, "Interleave source code with assembly code (default; --no-source: objdump's lines only)"),
		OPT_STRING('d', "dsos", &dsos, "dso[,dso...]", "only consider symbols in these dsos"),
		OPT_BOOLEAN(0, "skip-missing", &skip_missing, "Skip symbols that cannot be annotated"),
		OPT_STRING(0, "stdio-color", &color, "mode", "'always', 'never' or 'auto' (no colors are printed)"),
		OPT_STRING(0, "symfs", &symfs, "directory", "Look for files with symbols relative to this directory"),
		OPT_STRING('k', "vmlinux", &vmlinux, "file", "vmlinux pathname (accepted; kernel symbols are not annotated)"),
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_BOOLEAN('q', "quiet", &quiet, "do not show any warnings or messages"),
		OPT_DEBUGINFOD(&dbgd),
		OPT_END()
	};
	struct perf_session *s;
	size_t shown = 0;
	int ret;

	argc = parse_options(argc, argv, options, annotate_usage, 0);
	if (argc > 1)
		usage_with_options_msg(annotate_usage, options, "unexpected argument '%s'", argv[1]);
	if (argc == 1) {
		if (symbol && strcmp(symbol, argv[0]))
			usage_with_options_msg(annotate_usage, options, "two symbols given: '%s' and '%s'",
					       symbol, argv[0]);
		symbol = argv[0];
	}
	ctx.no_source = !source;
	s = perf_session__open(input ? input : "perf.data");
	if (!s)
		return 1;
	if (symfs)
		s->machine.dsos.symfs = symfs;
	s->machine.dsos.debuginfod = debuginfod__new(&dbgd, true);
	ann.tool.sample = annotate__sample;
	ret = perf_session__process_events(s, &ann.tool);
	if (ret < 0) {
		perf_session__delete(s);
		return 1;
	}
	for (size_t e = 0; e < ann.nr_hists; e++) {
		size_t nr;
		struct sym_hist **v = sym_hists__sorted(&ann.hists[e], &nr);

		for (size_t i = 0; i < nr; i++) {
			struct annotation a;
			char err[512];

			if (symbol && strcmp(v[i]->sym->name, symbol))
				continue;
			if (dsos && !in_list(dsos, v[i]->dso->short_name) && !in_list(dsos, v[i]->dso->long_name))
				continue;
			if (symbol__annotate(&ctx, v[i], &a, err, sizeof(err)) < 0) {
				if (!skip_missing)
					pr_err("Couldn't annotate %s: %s\n", v[i]->sym->name, err);
				continue;
			}
			if (ctx.no_source)
				print_rows(stdout, v[i], &a, s->evsels[e].name);
			else
				print_annotation(&ctx, stdout, v[i], &a, s->evsels[e].name);
			annotation__exit(&a);
			shown++;
		}
		free(v);
	}
	if (!shown && symbol)
		pr_warning("no samples of symbol '%s'\n", symbol);
	for (size_t e = 0; e < ann.nr_hists; e++)
		sym_hists__exit(&ann.hists[e]);
	free(ann.hists);
	annotate_ctx__exit(&ctx);
	perf_session__delete(s);
	return 0;
}
