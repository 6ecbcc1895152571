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

static int digits(int v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

static void print_annotation(FILE *f, const struct sym_hist *sh, const struct annotation *a,
			     const char *event)
{
	char head[1024];
	int width, maxline = 0, n;
	const char *last_file = NULL;
	int last_line = -1;

	for (size_t i = 0; i < a->nr; i++)
		if (a->insns[i].src_line > maxline)
			maxline = a->insns[i].src_line;
	width = digits(maxline) + 3;
	n = snprintf(head, sizeof(head), "Source code & Disassembly of %s for %s (%llu samples, percent: local period)",
		     sh->dso->short_name, event, (unsigned long long)sh->nr_samples);
	fprintf(f, " Percent |\t%s\n", head);
	/* the rule is as wide as the title with its tab expanded */
	for (int i = 0; i < 16 + n; i++)
		fputc('-', f);
	fputc('\n', f);
	fprintf(f, "         :\n         :\n         :\n");
	fprintf(f, "         : %*sDisassembly of section .text:\n", width, "");
	fprintf(f, "         :\n");
	fprintf(f, "         : %*s%016llx <%s>:\n", width, "", (unsigned long long)sh->sym->start, sh->sym->name);
	for (size_t i = 0; i < a->nr; i++) {
		const struct annotated_insn *in = &a->insns[i];
		char addr[32];

		if (in->src_line && (in->src_line != last_line || in->src_file != last_file)) {
			const char *text = source_line(in->src_file, in->src_line);

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
		snprintf(addr, sizeof(addr), "%llx:", (unsigned long long)in->addr);
		fprintf(f, "%8.2f :   %-7s %s\n", a->period ? 100.0 * in->period / a->period : 0.0, addr, in->text);
	}
}

static const char *const annotate_usage[] = {
	"perf annotate [<options>] [<symbol>]",
	NULL
};

int cmd_annotate(int argc, const char **argv)
{
	struct annotate ann = { .nr_hists = 0 };
	const char *input = NULL, *symbol = NULL;
	bool stdio = false, stdio2 = false, tui = false, gtk = false;
	struct debuginfod_opt dbgd = DEBUGINFOD_OPT_INIT;
	const struct option options[] = {
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_STRING('s', "symbol", &symbol, "symbol", "symbol to annotate"),
		OPT_BOOLEAN(0, "stdio", &stdio, "Use the stdio interface (the only one)"),
		OPT_BOOLEAN(0, "stdio2", &stdio2, "accepted; same as --stdio"),
		OPT_BOOLEAN(0, "tui", &tui, "accepted for compatibility; stdio is used"),
		OPT_BOOLEAN(0, "gtk", &gtk, "accepted for compatibility; stdio is used"),
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
	s = perf_session__open(input ? input : "perf.data");
	if (!s)
		return 1;
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
			if (symbol__annotate(&s->machine.dsos, v[i], &a, err, sizeof(err)) < 0) {
				pr_err("Couldn't annotate %s: %s\n", v[i]->sym->name, err);
				continue;
			}
			print_annotation(stdout, v[i], &a, s->evsels[e].name);
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
	perf_session__delete(s);
	return 0;
}
