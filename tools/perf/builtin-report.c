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
#include "util/hist-output.h"
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
	bool graph_asked;           /* -g given (not none) */
	struct callchain_param cc;
	int max_stack;              /* -1: all frames */
	struct hist_filter filter;
	struct dsos *dsos;
	int children_set;           /* -1: not given */
	bool mode_decided;
	bool pipe;                  /* the attrs come with the data */
	struct perf_session *session;
	const char *fields;         /* -F */
	bool show_nr_samples;
	struct hist_fields hf;
	struct callchain_resolver resolver;
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
		/* like perf: with call chains in the data, --children is the default
		 * (from a pipe, perf 6.1 decides before it sees any: never) */
		if (rep->pipe)
			has_chain = false;
		rep->children = rep->children_set >= 0 ? rep->children_set == 1 && has_chain : has_chain;
		/* the graph starts at the root in children mode, at the sample without
		 * (from a pipe: where it would have been in children mode) */
		if (!rep->cc.order_set)
			rep->cc.caller_order = rep->pipe ? rep->children_set != 0 : rep->children;
		rep->mode_decided = true;
		if (rep->fields && hist_fields__setup(&rep->hf, rep->fields, rep->sort_keys, rep->children,
						      rep->show_nr_samples) < 0)
			return -1;
	}
	rep->hists = xrealloc(rep->hists, n * sizeof(*rep->hists));
	for (size_t i = rep->nr_hists; i < n; i++) {
		const char *keys = rep->fields ? rep->hf.keys : rep->sort_keys ? rep->sort_keys : "comm,dso,sym";

		if (hists__init(&rep->hists[i], keys, rep->dsos) < 0)
			return -1;
		memcpy(rep->hists[i].sort_items, rep->hf.sort_items, sizeof(rep->hf.sort_items));
		rep->hists[i].nr_sort_items = rep->hf.nr_sort_items;
		rep->hists[i].children = rep->children;
		rep->hists[i].callchains = rep->callchains;
		rep->hists[i].callee_order = !rep->cc.caller_order;
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
	size_t n, max = MAX_FRAMES, skip = 0;
	bool filtered;

	(void)ev;
	if (report__ensure_hists(rep, s->nr_evsels) < 0)
		return -1;
	h = &rep->hists[evsel->idx];
	if (!h->callchains && !h->children)
		max = 1;
	/* --max-stack counts the sampled function too, from the end the graph starts at */
	else if (rep->max_stack > 0 && rep->max_stack < MAX_FRAMES && h->callee_order)
		max = rep->max_stack;
	else if (rep->max_stack == 0)
		max = 1;
	n = callchain_resolver__frames(&rep->resolver, sample, rep->frames, max, &thread);
	if (rep->max_stack == 0)
		skip = n;     /* no chain at all: only the sampled function counts */
	else if (max > 1 && !h->callee_order && rep->max_stack > 0 && n > (size_t)rep->max_stack)
		skip = n - rep->max_stack;
	filtered = !hist_filter__match(&rep->filter, thread ? thread->comm : "", sample->pid, sample->tid,
				       &rep->frames[0]);
	hists__add_sample_filtered(h, thread ? thread->comm : "", thread ? thread->pid : (int32_t)sample->pid,
				   sample->tid, sample->cpu, rep->frames, n, skip, sample->period, filtered);
	return 0;
}

static const char *report__thread_comm(void *ctx, int32_t tid)
{
	struct thread *t = machine__find_thread(ctx, tid);

	return t ? t->comm : NULL;
}

static int parse_callchain_opt(const struct option *opt, const char *arg, int unset)
{
	struct report *rep = opt->value;

	if (unset) {
		rep->callchains = false;
		return 0;
	}
	rep->callchains = true;
	if (callchain_param__parse(&rep->cc, arg ? arg : "graph") < 0)
		return -1;
	if (rep->cc.mode == CHAIN_NONE)
		rep->callchains = false;
	rep->graph_asked = rep->callchains;
	return 0;
}

/* perf 6.1 takes the word after a bare -g as its argument unless it is an option */
static bool callchain_next_arg(const char *word)
{
	return word[0] != '-';
}

static int parse_inverted(const struct option *opt, const char *arg, int unset)
{
	struct report *rep = opt->value;

	(void)arg;
	rep->cc.caller_order = !unset;
	rep->cc.order_set = true;
	return 0;
}

/* --stats: records by type, with their share, then samples per event */
static void print_stats(const struct perf_session *s)
{
	uint64_t total = 0;

	for (int t = 0; t < PERF_RECORD_HEADER_MAX; t++)
		total += s->nr_events[t];
	printf("\nAggregated stats:\n%16s events: %10llu\n", "TOTAL", (unsigned long long)total);
	for (int t = 0; t < PERF_RECORD_HEADER_MAX; t++)
		if (s->nr_events[t])
			printf("%16s events: %10llu  (%4.1f%%)\n", perf_record_type__name(t),
			       (unsigned long long)s->nr_events[t], 100.0 * s->nr_events[t] / total);
	/* events without samples (dummy:HG of system-wide records) get no block */
	for (size_t i = 0; i < s->nr_evsels; i++)
		if (s->evsels[i].nr_samples)
			printf("%s stats:\n%16s events: %10llu\n", s->evsels[i].name, "SAMPLE",
			       (unsigned long long)s->evsels[i].nr_samples);
}

/* a filter with one value makes its column constant: perf names it above and drops it */
static unsigned report__filter_lines(const struct hist_filter *f, const char *sort_keys)
{
	unsigned hide = 0;
	const char *keys = sort_keys ? sort_keys : "comm,dso,sym";

	if (f->nr_comms == 1 && strstr(keys, "comm")) {
		printf("# comm: %s\n", f->comms[0]);
		hide |= 1u << SORT_COMM;
	}
	if (f->nr_dsos == 1 && strstr(keys, "dso")) {
		printf("# dso: %s\n", f->dsos[0]);
		hide |= 1u << SORT_DSO;
	}
	if (f->nr_syms == 1 && strstr(keys, "sym")) {
		printf("# symbol: %s\n", f->syms[0]);
		hide |= 1u << SORT_SYM;
	}
	return hide;
}

static void report__warn_lost(const struct perf_session *s)
{
	uint64_t total = 0;

	if (!s->nr_events[PERF_RECORD_LOST])
		return;
	for (int t = 0; t < PERF_RECORD_HEADER_MAX; t++)
		total += s->nr_events[t];
	pr_warning("\nWarning:\nProcessed %llu events and lost %llu chunks!\n\nCheck IO/CPU overload!\n\n",
		   (unsigned long long)total, (unsigned long long)s->nr_events[PERF_RECORD_LOST]);
}

static const char *const report_usage[] = {
	"perf report [<options>]",
	NULL
};

int cmd_report(int argc, const char **argv)
{
	struct report rep = { .sort_keys = NULL, .callchains = true, .children_set = -1, .max_stack = -1 };
	const char *input = NULL, *pct_limit = NULL, *percentage = NULL;
	const char *comms = NULL, *dsos = NULL, *syms = NULL, *pids = NULL, *tids = NULL;
	bool stdio = false, tui = false, children = false, no_children = false, inl = false;
	bool header = false, header_only = false, stats = false;
	struct hist_output out = { .cc = &rep.cc };
	struct debuginfod_opt dbgd = DEBUGINFOD_OPT_INIT;
	const struct option options[] = {
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_BOOLEAN('q', "quiet", &quiet, "do not show any warnings or messages"),
		OPT_BOOLEAN('n', "show-nr-samples", &out.show_nr_samples, "Show a column with the number of samples"),
		OPT_STRING('F', "fields", &rep.fields, "key[,keys...]",
			   "output fields: overhead, overhead_children, sample, period and the --sort keys (+key: added to the default ones)"),
		OPT_STRING('s', "sort", &rep.sort_keys, "key[,key2...]",
			   "sort by key(s): comm, pid, tid, dso, sym, srcline, cpu (default comm,dso,sym)"),
		OPT_STRING(0, "percent-limit", &pct_limit, "percent", "Don't show entries under that percent"),
		OPT_STRING(0, "percentage", &percentage, "relative|absolute",
			   "how filtered entries' percentages are computed (default absolute)"),
		OPT_STRING('c', "comms", &comms, "comm[,comm...]", "only consider samples of these comms"),
		OPT_STRING('d', "dsos", &dsos, "dso[,dso...]", "only consider samples in these dsos"),
		OPT_STRING('S', "symbols", &syms, "symbol[,symbol...]", "only consider these symbols"),
		OPT_STRING(0, "pid", &pids, "pid[,pid...]", "only consider samples of these processes"),
		OPT_STRING(0, "tid", &tids, "tid[,tid...]", "only consider samples of these threads"),
		OPT_BOOLEAN(0, "stdio", &stdio, "Use the stdio interface (the only one)"),
		OPT_BOOLEAN(0, "tui", &tui, "accepted for compatibility; stdio is used"),
		OPT_BOOLEAN(0, "children", &children, "Accumulate callchains of children and show total overhead"),
		OPT_BOOLEAN(0, "no-children", &no_children, "Show only self overhead"),
		OPT_CALLBACK_OPTARG_NEXT('g', "call-graph", &rep, "print_type,threshold[,print_limit],order,sort_key,value",
					 "Display call graph: graph, fractal, flat, folded or none; caller or callee; function or address; percent, period or count",
					 parse_callchain_opt, "graph", callchain_next_arg),
		OPT_CALLBACK_NOOPT('G', "inverted", &rep, "alias for --call-graph=caller", parse_inverted),
		OPT_INTEGER(0, "max-stack", &rep.max_stack, "frames of a call chain used, from the sample"),
		OPT_BOOLEAN(0, "inline", &inl, "Show inlined callers in call graphs (off by default: perf 6.1 shows none in its default output)"),
		OPT_BOOLEAN(0, "stats", &stats, "Display event stats only"),
		OPT_BOOLEAN(0, "hierarchy", &out.hierarchy, "Show entries in a hierarchy (one level per sort key; no call graphs yet)"),
		OPT_BOOLEAN(0, "header", &header, "Show data header (not supported yet: a warning, then the report)"),
		OPT_BOOLEAN(0, "header-only", &header_only, "Show only data header (not supported yet: an error)"),
		OPT_DEBUGINFOD(&dbgd),
		OPT_END()
	};
	struct perf_session *s;
	int ret;

	callchain_param__init(&rep.cc);
	argc = parse_options(argc, argv, options, report_usage, 0);
	if (argc)
		usage_with_options_msg(report_usage, options, "unexpected argument '%s'", argv[0]);
	if (children)
		rep.children_set = 1;
	/* like perf 6.1: a hierarchy of self shares */
	if (no_children || out.hierarchy)
		rep.children_set = 0;
	out.quiet = quiet;
	rep.show_nr_samples = out.show_nr_samples;
	out.hide_first_sym = rep.sort_keys && !strncmp(rep.sort_keys, "sym", 3);
	if (pct_limit) {
		char *end;

		out.percent_limit = strtod(pct_limit, &end);
		if (*end && strcmp(end, "%")) {
			pr_err("Error: invalid --percent-limit '%s'\n", pct_limit);
			return 129;
		}
	}
	if (percentage && strcmp(percentage, "relative") && strcmp(percentage, "absolute")) {
		pr_err("Error: --percentage is relative or absolute, not '%s'\n", percentage);
		return 129;
	}
	/* never silent: the header dump is not written yet */
	if (header_only) {
		pr_err("Error: --header-only is not supported yet\n");
		return 1;
	}
	if (header)
		pr_warning("Warning: --header: the header dump is not supported yet, only the report follows\n");
	if (hist_filter__init(&rep.filter, comms, dsos, syms, pids, tids) < 0)
		return 129;
	if (!input)
		input = "perf.data";
	s = perf_session__open(input);
	if (!s)
		return 1;

	rep.session = s;
	rep.pipe = s->nr_evsels == 0;
	rep.tool.sample = report__sample;
	rep.dsos = &s->machine.dsos;
	rep.dsos->debuginfod = debuginfod__new(&dbgd, true);
	callchain_resolver__init(&rep.resolver, &s->machine, inl);
	ret = report__ensure_hists(&rep, s->nr_evsels) < 0 ? 129 : 0;
	if (!ret && rep.graph_asked && s->nr_evsels && !rep.callchains) {
		/* perf 6.1 says so after its first lines, and exits 0; an error is not a success */
		if (!quiet)
			printf("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
		pr_err("Error:\nSelected -g but the data has no call chains: record with -g or --call-graph.\n");
		ret = 1;
	}
	if (!ret && out.hierarchy && (rep.callchains || rep.fields)) {
		pr_err("Error: --hierarchy with call graphs or -F is not supported yet (add -g none, or drop -F)\n");
		ret = 1;
	}
	if (!ret && perf_session__process_events(s, &rep.tool) < 0)
		ret = 1;
	memcpy(out.cols, rep.hf.cols, sizeof(out.cols));
	out.nr_cols = rep.hf.nr_cols;
	out.cols_plus = rep.hf.plus;
	if (!ret && stats)
		print_stats(s);
	else if (!ret) {
		report__warn_lost(s);
		if (!quiet) {
			printf("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
			out.hide_key = report__filter_lines(&rep.filter, rep.sort_keys);
			printf("#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)s->nr_lost_samples);
		}
		for (size_t i = 0; i < rep.nr_hists; i++) {
			struct evsel *ev = &s->evsels[i];

			hists__set_thread_comms(&rep.hists[i], report__thread_comm, &s->machine);

			if (!ev->nr_samples && rep.nr_hists > 1)
				continue;
			/* relative: the filtered samples are all there is */
			if (percentage && !strcmp(percentage, "relative")) {
				rep.hists[i].nr_filtered_period = 0;
				hists__fprintf(stdout, &rep.hists[i], &out, ev->name, rep.hists[i].nr_samples,
					       rep.hists[i].total_period);
			} else
				hists__fprintf(stdout, &rep.hists[i], &out, ev->name, ev->nr_samples,
					       ev->total_period);
		}
		if (!quiet)
			hist_output__fprintf_tip(stdout);
	}
	for (size_t i = 0; i < rep.nr_hists; i++)
		hists__exit(&rep.hists[i]);
	free(rep.hists);
	hist_filter__exit(&rep.filter);
	callchain_resolver__exit(&rep.resolver);
	perf_session__delete(s);
	return ret;
}
