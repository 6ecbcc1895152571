// SPDX-License-Identifier: MIT
/* perf script: one line per sample, in perf's default shape or the -F fields. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "util/callchain.h"
#include "util/debug.h"
#include "util/debuginfod.h"
#include "util/parse-options.h"
#include "util/session.h"
#include "util/script-trace.h"
#include "util/util.h"

enum {
	F_COMM = 1 << 0, F_TID = 1 << 1, F_PID = 1 << 2, F_TIME = 1 << 3, F_CPU = 1 << 4,
	F_EVENT = 1 << 5, F_IP = 1 << 6, F_SYM = 1 << 7, F_DSO = 1 << 8, F_SYMOFF = 1 << 9,
	F_PERIOD = 1 << 10, F_TRACE = 1 << 11, F_ADDR = 1 << 12,
};

static const struct { const char *name; unsigned bit; } field_names[] = {
	{ "comm", F_COMM }, { "tid", F_TID }, { "pid", F_PID }, { "time", F_TIME },
	{ "cpu", F_CPU }, { "event", F_EVENT }, { "ip", F_IP }, { "sym", F_SYM },
	{ "dso", F_DSO }, { "symoff", F_SYMOFF }, { "period", F_PERIOD }, { "trace", F_TRACE },
	{ "addr", F_ADDR },
};

#define MAX_FRAMES 512

struct script {
	struct perf_tool tool;
	unsigned fields;
	bool user_fields;
	bool show_callchain;
	struct trace_printer *tp;
	struct hist_frame frames[MAX_FRAMES];
};

static unsigned default_fields(const struct evsel *evsel)
{
	unsigned f;

	if (evsel->attr.type == PERF_TYPE_TRACEPOINT)
		f = F_COMM | F_TID | F_TIME | F_EVENT | F_TRACE;
	else
		f = F_COMM | F_TID | F_TIME | F_EVENT | F_IP | F_SYM | F_DSO | F_SYMOFF | F_PERIOD;
	if (evsel->attr.sample_type & PERF_SAMPLE_CPU)
		f |= F_CPU;
	return f;
}

static void print_sym(FILE *f, const struct hist_frame *fr, unsigned fields)
{
	if (!(fields & F_SYM))
		return;
	if (fr->sym) {
		fprintf(f, " %s", fr->sym->name);
		if (fields & F_SYMOFF)
			fprintf(f, "+0x%llx", (unsigned long long)(fr->addr - fr->sym->start));
	} else
		fprintf(f, " [unknown]");
}

static void print_dso(FILE *f, const struct hist_frame *fr, unsigned fields)
{
	if (fields & F_DSO)
		fprintf(f, " (%s)", fr->dso ? fr->dso->long_name : "[unknown]");
}

static int script__sample(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
			  struct perf_sample *sample, struct evsel *evsel)
{
	struct script *sc = (struct script *)tool;
	unsigned fields = sc->user_fields ? sc->fields : default_fields(evsel);
	bool chain = sc->show_callchain && sample->callchain && (fields & F_IP);
	struct thread *thread;
	size_t n;
	FILE *f = stdout;

	(void)ev;
	n = sample__resolve_frames(&s->machine, sample, sc->frames, chain ? MAX_FRAMES : 1, &thread);
	if (fields & F_COMM) {
		const char *comm = thread ? thread->comm : ":-1";

		/* perf pads the command only when no call chain follows */
		if (chain)
			fprintf(f, "%s ", comm);
		else
			fprintf(f, "%16s ", comm);
	}
	if ((fields & F_PID) && (fields & F_TID))
		fprintf(f, "%5d/%-5d ", (int)sample->pid, (int)sample->tid);
	else if (fields & F_PID)
		fprintf(f, "%5d ", (int)sample->pid);
	else if (fields & F_TID)
		fprintf(f, "%5d ", (int)sample->tid);
	if (fields & F_CPU)
		fprintf(f, "[%03d] ", (int)sample->cpu);
	if (fields & F_TIME)
		fprintf(f, "%5llu.%06llu: ", (unsigned long long)(sample->time / 1000000000ull),
			(unsigned long long)(sample->time % 1000000000ull / 1000));
	if (fields & F_PERIOD)
		fprintf(f, "%10llu ", (unsigned long long)sample->period);
	if (fields & F_EVENT)
		fprintf(f, "%s: ", evsel->name);
	if ((fields & F_TRACE) && sample->raw_data) {
		char buf[4096];

		if (script_trace__format(sc->tp, s, evsel, sample->raw_data, sample->raw_size, buf,
					 sizeof(buf)) >= 0)
			fprintf(f, "%s", buf);
	}
	if (fields & F_ADDR)
		fprintf(f, "%16llx ", (unsigned long long)sample->addr);
	if (chain) {
		fputc('\n', f);
		for (size_t i = 0; i < n; i++) {
			const struct hist_frame *fr = &sc->frames[i];

			fprintf(f, "\t%16llx", (unsigned long long)fr->addr);
			print_sym(f, fr, fields);
			if (fr->inlined && (fields & F_DSO))
				fprintf(f, " (inlined)");
			else
				print_dso(f, fr, fields);
			fputc('\n', f);
		}
		fputc('\n', f);
		return 0;
	}
	if (fields & F_IP)
		fprintf(f, " %16llx", (unsigned long long)sample->ip);
	if (fields & (F_SYM | F_DSO)) {
		struct hist_frame fr = sc->frames[0];

		print_sym(f, &fr, fields);
		print_dso(f, &fr, fields);
	}
	fputc('\n', f);
	return 0;
}

static int parse_fields(struct script *sc, const char *arg)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;
	char *spec = copy;

	/* "type:fields" (e.g. "sw:ip,sym") applies to all events here */
	if (strchr(spec, ':'))
		spec = strchr(spec, ':') + 1;
	sc->fields = 0;
	for (tok = strtok_r(spec, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(field_names); i++)
			if (!strcmp(tok, field_names[i].name))
				break;
		if (i == ARRAY_SIZE(field_names)) {
			pr_err("Invalid field requested: '%s'\n", tok);
			free(copy);
			return -1;
		}
		sc->fields |= field_names[i].bit;
	}
	free(copy);
	sc->user_fields = true;
	return 0;
}

static const char *const script_usage[] = {
	"perf script [<options>]",
	NULL
};

int cmd_script(int argc, const char **argv)
{
	struct script sc = { .show_callchain = true };
	const char *input = NULL, *fields = NULL;
	bool no_chain = false, inl = false;
	struct debuginfod_opt dbgd = DEBUGINFOD_OPT_INIT;
	const struct option options[] = {
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_STRING('F', "fields", &fields, "str",
			   "comma separated output fields: comm,tid,pid,time,cpu,event,trace,ip,sym,dso,symoff,period,addr"),
		OPT_BOOLEAN('G', "hide-call-graph", &no_chain, "When printing symbols do not display call chain"),
		OPT_BOOLEAN(0, "inline", &inl, "Show inlined callers in call chains (off by default, as in perf 6.1)"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_BOOLEAN('q', "quiet", &quiet, "do not show any warnings or messages"),
		OPT_DEBUGINFOD(&dbgd),
		OPT_END()
	};
	struct perf_session *s;
	int ret;

	argc = parse_options(argc, argv, options, script_usage, 0);
	if (argc)
		usage_with_options_msg(script_usage, options, "unexpected argument '%s'", argv[0]);
	if (fields && parse_fields(&sc, fields) < 0)
		return 129;
	sc.show_callchain = !no_chain;
	callchain_inline = inl;
	s = perf_session__open(input ? input : "perf.data");
	if (!s)
		return 1;
	s->machine.dsos.debuginfod = debuginfod__new(&dbgd, true);
	sc.tool.sample = script__sample;
	sc.tp = script_trace__new();
	ret = perf_session__process_events(s, &sc.tool);
	script_trace__delete(sc.tp);
	perf_session__delete(s);
	return ret < 0 ? 1 : 0;
}
