// SPDX-License-Identifier: MIT
/* perf report --stdio: a histogram of samples by comm, dso, symbol, ... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "util/callchain.h"
#include "util/debug.h"
#include "util/debuginfod.h"
#include "util/hist.h"
#include "util/parse-options.h"
#include "util/session.h"
#include "util/util.h"

#define MAX_FRAMES 512

struct report {
	struct perf_tool tool;
	struct hists *hists;        /* one per evsel */
	size_t nr_hists;
	const char *sort_keys;
	bool children;
	bool callchains;
	bool callee_order;
	double graph_threshold;
	double percent_limit;
	struct dsos *dsos;
	int children_set;           /* -1: not given */
	bool mode_decided;
	struct perf_session *session;
	struct hist_frame frames[MAX_FRAMES];
};

/* pipe mode: attrs arrive with the data, so histograms are made as evsels appear */
static int report__ensure_hists(struct report *rep, size_t n)
{
	if (n <= rep->nr_hists)
		return 0;
	if (!rep->mode_decided) {
		bool has_chain = false;

		for (size_t i = 0; i < rep->session->nr_evsels; i++)
			if (rep->session->evsels[i].attr.sample_type & PERF_SAMPLE_CALLCHAIN)
				has_chain = true;
		rep->callchains = rep->callchains && has_chain;
		/* like perf: with call chains in the data, --children is the default */
		rep->children = rep->children_set >= 0 ? rep->children_set == 1 && has_chain : has_chain;
		if (rep->children)
			rep->callee_order = false;
		rep->mode_decided = true;
	}
	rep->hists = xrealloc(rep->hists, n * sizeof(*rep->hists));
	for (size_t i = rep->nr_hists; i < n; i++) {
		if (hists__init(&rep->hists[i], rep->sort_keys ? rep->sort_keys : "comm,dso,sym", rep->dsos) < 0)
			return -1;
		rep->hists[i].children = rep->children;
		rep->hists[i].callchains = rep->callchains;
		rep->hists[i].callee_order = rep->callee_order;
	}
	rep->nr_hists = n;
	return 0;
}

static int report__sample(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
			  struct perf_sample *sample, struct evsel *evsel)
{
	struct report *rep = (struct report *)tool;
	struct hists *h;
	struct thread *thread;
	size_t n;

	(void)ev;
	if (report__ensure_hists(rep, s->nr_evsels) < 0)
		return -1;
	h = &rep->hists[evsel->idx];
	n = sample__resolve_frames(&s->machine, sample, rep->frames,
				   h->callchains || h->children ? MAX_FRAMES : 1, &thread);
	hists__add_sample(h, thread ? thread->comm : "", thread ? thread->pid : (int32_t)sample->pid,
			  rep->frames, n, sample->period);
	return 0;
}

static const char *key_header(enum sort_key k)
{
	switch (k) {
	case SORT_COMM: return "Command";
	case SORT_PID: return "Pid:Command";
	case SORT_DSO: return "Shared Object";
	case SORT_SYM: return "Symbol";
	case SORT_SRCLINE: return "Source:Line";
	default: return "?";
	}
}

static const char *entry_field(const struct hist_entry *e, enum sort_key k, char *buf, size_t size)
{
	switch (k) {
	case SORT_COMM:
		return e->comm;
	case SORT_PID:
		snprintf(buf, size, "%7d:%s", e->pid, e->comm);
		return buf;
	case SORT_DSO:
		return hist_frame__dso_name(&e->frame);
	case SORT_SYM:
		return hist_frame__sym_name(&e->frame, buf, size);
	case SORT_SRCLINE:
		return e->srcline ? e->srcline : "";
	default:
		return "";
	}
}

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * v / total : 0;
}

static int cmp_nodes(const void *a, const void *b)
{
	const struct callchain_node *x = *(const struct callchain_node *const *)a;
	const struct callchain_node *y = *(const struct callchain_node *const *)b;

	return x->period > y->period ? -1 : x->period < y->period;
}

static const char *node_name(const struct callchain_node *n, char *buf, size_t size)
{
	if (n->frame.sym && n->frame.inlined) {
		snprintf(buf, size, "%s (inlined)", n->frame.sym->name);
		return buf;
	}
	if (n->frame.sym)
		return n->frame.sym->name;
	snprintf(buf, size, "%#llx", (unsigned long long)n->frame.addr);
	return buf;
}

/* perf's graph: a branch per caller (or callee) above the threshold, indented by level */
static void print_graph(FILE *f, const struct callchain_node *node, uint64_t total,
			double threshold, const char *indent, int depth)
{
	struct callchain_node *kids[4096];
	size_t n = 0;
	char name[64];

	if (depth > 256)
		return;
	for (struct callchain_node *c = node->children; c && n < ARRAY_SIZE(kids); c = c->next)
		if (pct(c->period, total) >= threshold)
			kids[n++] = c;
	qsort(kids, n, sizeof(*kids), cmp_nodes);
	/* one child that carries everything continues the straight line */
	if (n == 1 && kids[0]->period == node->period - node->self) {
		fprintf(f, "%s%s\n", indent, node_name(kids[0], name, sizeof(name)));
		print_graph(f, kids[0], total, threshold, indent, depth + 1);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		bool last = i == n - 1;
		char *sub = xasprintf("%s%s", indent, last ? "           " : "|          ");

		fprintf(f, "%s|\n", indent);
		fprintf(f, "%s%s--%.2f%%--%s\n", indent, last ? " " : "|", pct(kids[i]->period, total),
			node_name(kids[i], name, sizeof(name)));
		print_graph(f, kids[i], total, threshold, sub, depth + 1);
		free(sub);
	}
}

static void print_entry_chain(FILE *f, const struct report *rep, const struct hists *h,
			      const struct hist_entry *e)
{
	const char *pad = "            ";
	char name[512], *sub;
	const struct callchain_node *n = &e->chain_root;

	/* perf draws no graph under an entry below the graph threshold */
	if (!e->chain_root.children ||
	    pct(h->children ? e->period_children : e->period, h->total_period) < rep->graph_threshold)
		return;
	if (!h->children) {
		/* callee graph: starts at the sampled function itself */
		fprintf(f, "%s|\n", pad);
		hist_frame__sym_name(&e->frame, name, sizeof(name));
		fprintf(f, "%s---%s\n", pad, e->frame.sym ? e->frame.sym->name : name + 4);
		sub = xasprintf("%s   ", pad);
		print_graph(f, n, h->total_period, rep->graph_threshold, sub, 0);
		free(sub);
		fprintf(f, "\n");
		return;
	}
	/* caller graph: a chain every sample shares is printed as one straight line */
	if (n->children && !n->children->next && n->children->period == n->period - n->self &&
	    pct(n->children->period, h->total_period) >= rep->graph_threshold) {
		n = n->children;
		fprintf(f, "%s|\n%s---%s\n", pad, pad, node_name(n, name, sizeof(name)));
		sub = xasprintf("%s   ", pad);
		print_graph(f, n, h->total_period, rep->graph_threshold, sub, 0);
		free(sub);
	} else
		print_graph(f, n, h->total_period, rep->graph_threshold, pad, 0);
	fprintf(f, "\n");
}

static void print_hists(FILE *f, struct report *rep, struct perf_session *s, struct evsel *evsel,
			struct hists *h)
{
	size_t nr, shown = 0;
	struct hist_entry **v = hists__sorted(h, &nr);
	size_t width[MAX_SORT_KEYS];
	char buf[1024];
	uint64_t nsamples = evsel->nr_samples;
	char unit = ' ';
	double nshow = nsamples;

	for (int k = 0; k < h->nr_keys; k++)
		width[k] = strlen(key_header(h->keys[k]));
	for (size_t i = 0; i < nr; i++) {
		uint64_t v_ = h->children ? v[i]->period_children : v[i]->period;

		if (pct(v_, h->total_period) < rep->percent_limit)
			continue;
		for (int k = 0; k < h->nr_keys; k++) {
			size_t l = strlen(entry_field(v[i], h->keys[k], buf, sizeof(buf)));

			if (l > width[k])
				width[k] = l;
		}
	}
	/* perf's sample count: 1234 -> 1K */
	while (nshow >= 1000 && unit != 'G') {
		nshow /= 1000;
		unit = unit == ' ' ? 'K' : unit == 'K' ? 'M' : 'G';
	}
	if (!quiet) {
		fprintf(f, "#\n# Samples: %.0f%c of event '%s'\n", unit == ' ' ? nshow : (double)(uint64_t)nshow,
			unit, evsel->name);
		fprintf(f, "# Event count (approx.): %llu\n#\n", (unsigned long long)evsel->total_period);
		fprintf(f, "#");
		if (h->children)
			fprintf(f, " Children      Self");
		else
			fprintf(f, " Overhead");
		for (int k = 0; k < h->nr_keys; k++)
			fprintf(f, "  %-*s", (int)width[k], key_header(h->keys[k]));
		fprintf(f, "\n#");
		fprintf(f, h->children ? " ........  ........" : " ........");
		for (int k = 0; k < h->nr_keys; k++) {
			fprintf(f, "  ");
			for (size_t i = 0; i < width[k]; i++)
				fputc('.', f);
		}
		fprintf(f, "\n#\n");
	}
	for (size_t i = 0; i < nr; i++) {
		const struct hist_entry *e = v[i];
		uint64_t val = h->children ? e->period_children : e->period;

		if (pct(val, h->total_period) < rep->percent_limit)
			continue;
		if (h->children)
			fprintf(f, "  %7.2f%%  %7.2f%%", pct(e->period_children, h->total_period),
				pct(e->period, h->total_period));
		else
			fprintf(f, "  %7.2f%%", pct(e->period, h->total_period));
		for (int k = 0; k < h->nr_keys; k++) {
			const char *s_ = entry_field(e, h->keys[k], buf, sizeof(buf));

			if (k == h->nr_keys - 1)
				fprintf(f, "  %s", s_);
			else
				fprintf(f, "  %-*s", (int)width[k], s_);
		}
		fputc('\n', f);
		if (h->callchains)
			print_entry_chain(f, rep, h, e);
		shown++;
	}
	(void)s;
	(void)shown;
	free(v);
	if (!quiet)
		fprintf(f, "\n\n");
}

static int parse_callchain_opt(const struct option *opt, const char *arg, int unset)
{
	struct report *rep = opt->value;
	char *copy, *tok, *save = NULL;

	if (unset || (arg && !strcmp(arg, "none"))) {
		rep->callchains = false;
		return 0;
	}
	rep->callchains = true;
	if (!arg)
		return 0;
	copy = xstrdup(arg);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		double t = strtod(tok, &end);

		if (!strcmp(tok, "caller"))
			rep->callee_order = false;
		else if (!strcmp(tok, "callee"))
			rep->callee_order = true;
		else if (!strcmp(tok, "graph") || !strcmp(tok, "fractal") || !strcmp(tok, "flat") ||
			 !strcmp(tok, "folded") || !strcmp(tok, "function") || !strcmp(tok, "address") ||
			 !strcmp(tok, "percent") || !strcmp(tok, "period") || !strcmp(tok, "count"))
			;
		else if (end != tok && !*end)
			rep->graph_threshold = t;
		else {
			pr_err("Error: invalid -g/--call-graph option '%s'\n", tok);
			free(copy);
			return -1;
		}
	}
	free(copy);
	return 0;
}

static const char *const report_usage[] = {
	"perf report [<options>]",
	NULL
};

int cmd_report(int argc, const char **argv)
{
	struct report rep = {
		.sort_keys = NULL,
		.graph_threshold = 0.5,
		.callchains = true,
		.callee_order = true,
	};
	const char *input = NULL;
	const char *pct_limit = NULL;
	bool stdio = false, tui = false, children = false, no_children = false, inl = false;
	bool header = false, header_only = false;
	int children_set = -1;
	struct debuginfod_opt dbgd = DEBUGINFOD_OPT_INIT;
	const struct option options[] = {
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_BOOLEAN('q', "quiet", &quiet, "do not show any warnings or messages"),
		OPT_STRING('s', "sort", &rep.sort_keys, "key[,key2...]",
			   "sort by key(s): comm, pid, dso, sym, srcline (default comm,dso,sym)"),
		OPT_STRING(0, "percent-limit", &pct_limit, "percent", "Don't show entries under that percent"),
		OPT_BOOLEAN(0, "stdio", &stdio, "Use the stdio interface (the only one)"),
		OPT_BOOLEAN(0, "tui", &tui, "accepted for compatibility; stdio is used"),
		OPT_BOOLEAN(0, "children", &children, "Accumulate callchains of children and show total overhead"),
		OPT_BOOLEAN(0, "no-children", &no_children, "Show only self overhead"),
		OPT_CALLBACK_OPTARG('g', "call-graph", &rep, "print_type,threshold,order",
				    "Display call graph: none, graph, caller, callee, threshold",
				    parse_callchain_opt, "graph"),
		OPT_BOOLEAN(0, "inline", &inl, "Show inlined callers in call graphs (off by default: perf 6.1 shows none in its default output)"),
		OPT_BOOLEAN(0, "header", &header, "Show data header (accepted)"),
		OPT_BOOLEAN(0, "header-only", &header_only, "Show only data header (not supported yet)"),
		OPT_DEBUGINFOD(&dbgd),
		OPT_END()
	};
	struct perf_session *s;
	int ret;

	argc = parse_options(argc, argv, options, report_usage, 0);
	if (argc)
		usage_with_options_msg(report_usage, options, "unexpected argument '%s'", argv[0]);
	callchain_inline = inl;
	if (children)
		children_set = 1;
	if (no_children)
		children_set = 0;
	if (pct_limit) {
		char *end;

		rep.percent_limit = strtod(pct_limit, &end);
		if (*end && strcmp(end, "%")) {
			pr_err("Error: invalid --percent-limit '%s'\n", pct_limit);
			return 129;
		}
	}
	if (!input)
		input = "perf.data";
	s = perf_session__open(input);
	if (!s)
		return 1;

	rep.children_set = children_set;
	rep.session = s;
	rep.tool.sample = report__sample;
	rep.dsos = &s->machine.dsos;
	rep.dsos->debuginfod = debuginfod__new(&dbgd, true);
	if (report__ensure_hists(&rep, s->nr_evsels) < 0) {
		perf_session__delete(s);
		return 129;
	}
	ret = perf_session__process_events(s, &rep.tool);
	if (ret < 0) {
		perf_session__delete(s);
		return 1;
	}
	for (int t = 0; t < PERF_RECORD_HEADER_MAX; t++)
		if (s->nr_events[t])
			pr_debug("%20s events: %llu\n", perf_record_type_name(t),
				 (unsigned long long)s->nr_events[t]);
	if (s->nr_events[PERF_RECORD_LOST]) {
		uint64_t total = 0;

		for (int t = 0; t < PERF_RECORD_HEADER_MAX; t++)
			total += s->nr_events[t];
		pr_warning("\nWarning:\nProcessed %llu events and lost %llu chunks!\n\nCheck IO/CPU overload!\n\n",
			   (unsigned long long)total, (unsigned long long)s->nr_events[PERF_RECORD_LOST]);
	}
	if (!quiet) {
		printf("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
		printf("#\n# Total Lost Samples: %llu\n", (unsigned long long)s->nr_lost_samples);
	}
	for (size_t i = 0; i < rep.nr_hists; i++) {
		if (!s->evsels[i].nr_samples && rep.nr_hists > 1)
			continue;
		print_hists(stdout, &rep, s, &s->evsels[i], &rep.hists[i]);
	}
	for (size_t i = 0; i < rep.nr_hists; i++)
		hists__exit(&rep.hists[i]);
	free(rep.hists);
	perf_session__delete(s);
	return 0;
}
