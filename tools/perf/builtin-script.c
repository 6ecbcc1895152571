// SPDX-License-Identifier: MIT
/* perf script: one line per sample, in perf's default shape or the -F fields. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "util/callchain.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/script-filter.h"
#include "util/script-output.h"
#include "util/session.h"
#include "util/util.h"

struct script {
	struct perf_tool tool;
	struct script_output out;
	struct script_filter filter;
	bool ready;                /* fields settled against the session's events */
};

/* pipe input names its events only as it goes: settle at the first record */
static int script__ready(struct script *sc, struct perf_session *s)
{
	if (sc->ready)
		return 0;
	if (script_output__setup(&sc->out, s) < 0)
		return -1;
	sc->ready = true;
	return 0;
}

static int script__sample(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
			  struct perf_sample *sample, struct evsel *evsel)
{
	struct script *sc = (struct script *)tool;
	struct thread *thread;
	size_t n;

	(void)ev;
	if (script__ready(sc, s) < 0)
		return -1;
	n = script_output__resolve(&sc->out, s, sample, evsel, &thread);
	if (script_filter__sample_ok(&sc->filter, sample, thread, &sc->out.frames[0]))
		script_output__sample(&sc->out, stdout, s, sample, evsel, thread, n);
	return 0;
}

static int script__other(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
			 struct perf_sample *sample)
{
	struct script *sc = (struct script *)tool;

	if (sample && script__ready(sc, s) < 0)
		return -1;
	/* of the filters, perf 6.1 applies only the CPU list to side-band records */
	if (sample && !script_filter__cpu_ok(&sc->filter, sample->cpu))
		return 0;
	script_output__event(&sc->out, stdout, s, ev, sample);
	return 0;
}

/* the option callbacks get the struct script through opt->value */
static struct script *of(const struct option *opt)
{
	return opt->value;
}

static int opt_fields(const struct option *opt, const char *arg, int unset)
{
	(void)unset;
	return script_output__parse_fields(&of(opt)->out, arg);
}

static int opt_comms(const struct option *opt, const char *arg, int unset)
{
	(void)unset;
	return script_filter__add_names(&of(opt)->filter.comms, arg);
}

static int opt_symbols(const struct option *opt, const char *arg, int unset)
{
	(void)unset;
	return script_filter__add_names(&of(opt)->filter.syms, arg);
}

static int opt_dsos(const struct option *opt, const char *arg, int unset)
{
	(void)unset;
	return script_filter__add_names(&of(opt)->filter.dsos, arg);
}

static int opt_pids(const struct option *opt, const char *arg, int unset)
{
	struct script_filter *f = &of(opt)->filter;

	(void)unset;
	return script_filter__add_ids(&f->pids, &f->nr_pids, arg, "pid");
}

static int opt_tids(const struct option *opt, const char *arg, int unset)
{
	struct script_filter *f = &of(opt)->filter;

	(void)unset;
	return script_filter__add_ids(&f->tids, &f->nr_tids, arg, "tid");
}

static int opt_cpu(const struct option *opt, const char *arg, int unset)
{
	(void)unset;
	return script_filter__set_cpus(&of(opt)->filter, arg);
}

static int opt_time(const struct option *opt, const char *arg, int unset)
{
	(void)unset;
	return script_filter__set_time(&of(opt)->filter, arg);
}

static int opt_stop_bt(const struct option *opt, const char *arg, int unset)
{
	(void)unset;
	return script_filter__add_names(&of(opt)->out.stop_bt, arg);
}

static int opt_max_stack(const struct option *opt, const char *arg, int unset)
{
	char *end;
	long v = strtol(arg, &end, 0);

	(void)unset;
	if (!*arg || *end || v < 0) {
		pr_err("invalid --max-stack '%s'\n", arg);
		return -1;
	}
	of(opt)->out.max_stack = v > SCRIPT_MAX_FRAMES ? SCRIPT_MAX_FRAMES : (unsigned)v;
	return 0;
}

#define SHOW_OPT(name, bit, help) \
	OPT_CALLBACK_NOOPT(0, name, &sc, help, opt_show_##bit)
#define SHOW_CB(bit) \
	static int opt_show_##bit(const struct option *opt, const char *arg, int unset) \
	{ \
		(void)arg; \
		if (unset) \
			of(opt)->out.show &= ~SHOW_##bit; \
		else \
			of(opt)->out.show |= SHOW_##bit; \
		return 0; \
	}
SHOW_CB(MMAP)
SHOW_CB(TASK)
SHOW_CB(SWITCH)
SHOW_CB(LOST)
SHOW_CB(ROUND)
SHOW_CB(NAMESPACE)
SHOW_CB(CGROUP)
SHOW_CB(BPF)

static const char *const script_usage[] = {
	"perf script [<options>]",
	NULL
};

int cmd_script(int argc, const char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "report"))
		return cmd_script_report(argc - 1, argv + 1);
	static struct script sc;
	const char *input = NULL, *symfs = NULL, *kallsyms = NULL, *vmlinux = NULL, *itrace = NULL;
	bool inl = false, force = false, demangle = true, demangle_kernel = false;
	bool full_source_path = false, show_kernel_path = false;
	const struct option options[] = {
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_CALLBACK('F', "fields", &sc, "str",
			     "comma separated output fields prepend with 'type:'. +field to add and -field to remove. "
			     "Fields: comm,tid,pid,time,cpu,event,trace,ip,sym,dso,addr,symoff,srcline,period,"
			     "callindent,misc,ipc,brstack,brstacksym,brstackoff,flags,synth,metric", opt_fields),
		OPT_BOOLEAN('G', "hide-call-graph", &sc.out.hide_callchain,
			    "When printing symbols do not display call chain"),
		OPT_CALLBACK(0, "max-stack", &sc, "n", "Set the maximum stack depth when printing the callchain",
			     opt_max_stack),
		OPT_CALLBACK(0, "stop-bt", &sc, "symbol[,symbol...]", "Stop display of callgraph at these symbols",
			     opt_stop_bt),
		OPT_STRING_OPTARG(0, "itrace", &itrace, "opts",
				  "Instruction Tracing options (accepted: there is no AUX trace decoding, files without one print the same)", ""),
		OPT_BOOLEAN(0, "inline", &inl, "Show inlined callers in call chains (off by default, as in perf 6.1)"),
		OPT_BOOLEAN(0, "ns", &sc.out.ns, "Use 9 decimal places when displaying time"),
		OPT_BOOLEAN(0, "reltime", &sc.out.reltime, "Show time stamps relative to start"),
		OPT_BOOLEAN(0, "deltatime", &sc.out.deltatime, "Show time stamps relative to previous event"),
		OPT_CALLBACK('c', "comms", &sc, "comm[,comm...]", "only display events for these comms", opt_comms),
		OPT_CALLBACK(0, "pid", &sc, "pid[,pid...]", "only consider symbols in these pids", opt_pids),
		OPT_CALLBACK(0, "tid", &sc, "tid[,tid...]", "only consider symbols in these tids", opt_tids),
		OPT_CALLBACK('C', "cpu", &sc, "cpu", "list of cpus to profile", opt_cpu),
		OPT_CALLBACK('S', "symbols", &sc, "symbol[,symbol...]", "only consider these symbols", opt_symbols),
		OPT_CALLBACK(0, "dsos", &sc, "dso[,dso...]", "only consider symbols in these DSOs", opt_dsos),
		OPT_CALLBACK(0, "time", &sc, "str", "Time span of interest (start,stop)", opt_time),
		SHOW_OPT("show-mmap-events", MMAP, "Show the mmap events"),
		SHOW_OPT("show-bpf-events", BPF, "Show bpf related events"),
		SHOW_OPT("show-task-events", TASK, "Show the fork/comm/exit events"),
		SHOW_OPT("show-switch-events", SWITCH, "Show context switch events (if recorded)"),
		SHOW_OPT("show-lost-events", LOST, "Show lost events (if recorded)"),
		SHOW_OPT("show-round-events", ROUND, "Show round events (if recorded)"),
		SHOW_OPT("show-namespace-events", NAMESPACE, "Show namespace events (if recorded)"),
		SHOW_OPT("show-cgroup-events", CGROUP, "Show cgroup events (if recorded)"),
		OPT_BOOLEAN(0, "show-kernel-path", &show_kernel_path,
			    "Show the path of [kernel.kallsyms] (accepted: without a vmlinux it stays [kernel.kallsyms])"),
		OPT_STRING(0, "symfs", &symfs, "directory", "Look for files with symbols relative to this directory"),
		OPT_STRING(0, "kallsyms", &kallsyms, "file", "kallsyms pathname"),
		OPT_STRING('k', "vmlinux", &vmlinux, "file", "vmlinux pathname (accepted; kallsyms is used)"),
		OPT_BOOLEAN(0, "demangle", &demangle, "Enable symbol demangling (always on)"),
		OPT_BOOLEAN(0, "demangle-kernel", &demangle_kernel, "Enable kernel symbol demangling (accepted)"),
		OPT_BOOLEAN(0, "full-source-path", &full_source_path, "Show full source file name path for source lines"),
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_BOOLEAN('q', "quiet", &quiet, "do not show any warnings or messages"),
		OPT_END()
	};
	struct perf_session *s;
	int ret;

	script_output__init(&sc.out);
	argc = parse_options(argc, argv, options, script_usage, 0);
	if (argc)
		usage_with_options_msg(script_usage, options, "unexpected argument '%s'", argv[0]);
	s = perf_session__open(input ? input : "perf.data");
	if (!s) {
		ret = 1;
		goto out;
	}
	if (symfs)
		s->machine.dsos.symfs = symfs;
	if (kallsyms)
		s->machine.dsos.kallsyms_path = kallsyms;
	callchain_resolver__init(&sc.out.resolver, &s->machine, inl);
	sc.tool.sample = script__sample;
	sc.tool.other = script__other;
	/* a field the events cannot give ends it like perf 6.1: status 255 */
	if (s->nr_evsels && script__ready(&sc, s) < 0)
		ret = 255;
	else if (perf_session__process_events(s, &sc.tool) < 0)
		/* in a pipe perf 6.1 finds out while reading: -EINVAL as status */
		ret = sc.ready ? 1 : 234;
	else
		ret = 0;
	callchain_resolver__exit(&sc.out.resolver);
	perf_session__delete(s);
out:
	script_output__exit(&sc.out);
	script_filter__exit(&sc.filter);
	return ret;
}
