// SPDX-License-Identifier: MIT
/*
 * perf record: open sampling events on a workload, processes, threads or
 * all CPUs and copy their rings into perf.data (file or pipe format), as
 * perf 6.1 does. The work is in util/ (evlist, workload, target,
 * record-opts, record-output); here are the options and the sequence.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "builtin.h"
#include "util/cpumap.h"
#include "util/debug.h"
#include "util/evlist.h"
#include "util/header.h"
#include "util/jit-save.h"
#include "util/jvm-attach.h"
#include "util/record-features.h"
#include "util/parse-events.h"
#include "util/parse-options.h"
#include "util/record-opts.h"
#include "util/record-output.h"
#include "util/sdt-record.h"
#include "util/strbuf.h"
#include "util/target.h"
#include "util/util.h"
#include "util/workload.h"

struct record {
	struct record_opts opts;
	struct evlist evlist;
	struct parsed_event *events;
	size_t nr_events;
	const char **event_strs;       /* -e as given: parsed once SDT probes exist */
	size_t nr_event_strs, cap_event_strs;
	struct sdt_record sdt;         /* uprobes we created for cached events */
	const char *output;
	const char *pid_list, *tid_list;
	bool no_buildid;
	struct record_output out;
	struct workload child;
	bool jit_attach;               /* --jit: our agent into the -p JVMs (util/jvm-attach.h) */
	struct jvm_attach *jvms;
	unsigned wakeups;
	sigset_t block, orig;          /* SIGINT, SIGTERM, SIGCHLD; the mask before */
};

static volatile sig_atomic_t done, child_done, signr;

static void sig_handler(int sig)
{
	if (sig == SIGCHLD) {
		child_done = 1;
	} else {
		done = 1;
		signr = sig;
	}
}

/* Blocked from before the SDT probes are made until the end, except in ppoll:
 * none is missed, none kills perf between making uprobes and removing them. */
static void record__block_signals(struct record *rec)
{
	struct sigaction sa;

	sigemptyset(&rec->block);
	sigaddset(&rec->block, SIGINT);
	sigaddset(&rec->block, SIGTERM);
	sigaddset(&rec->block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &rec->block, &rec->orig);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sig_handler;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
}

static const char *const record_usage[] = {
	"perf record [<options>] [<command>]",
	"perf record [<options>] -- <command> [<options>]",
	NULL
};

/* ---- options: the values are checked in util/record-opts.c ---- */

static int parse_event_option(const struct option *opt, const char *arg, int unset)
{
	struct record *rec = opt->value;

	/* parsed after the options: an SDT event may need its probe made first */
	*ARRAY_PUSH(rec->event_strs, rec->nr_event_strs, rec->cap_event_strs) = arg;
	return 0;
}

#define OPTS_CALLBACK(what)                                                                  \
	static int parse_##what(const struct option *opt, const char *arg, int unset)         \
	{                                                                                     \
		return record_opts__parse_##what(opt->value, arg, unset);                     \
	}
OPTS_CALLBACK(freq)
OPTS_CALLBACK(period)
OPTS_CALLBACK(callgraph)
OPTS_CALLBACK(clockid)
OPTS_CALLBACK(mmap_pages)
OPTS_CALLBACK(comp_level)

/*
 * Cached SDT and named probes (sdt_python:function__entry, 'sdt_test:*')
 * get their uprobes made here when tracefs has no such event yet; they are
 * removed again when recording ends.
 */
static int record__parse_events(struct record *rec, const char *workload)
{
	char *bin = workload__elf_path(workload);
	int ret = 0;

	rec->sdt.pids = rec->pid_list;   /* a -p process's own copies, in its root */
	rec->sdt.system_wide = rec->opts.system_wide;
	for (size_t i = 0; i < rec->nr_event_strs && !ret; i++) {
		if (sdt_record__prepare(&rec->sdt, rec->event_strs[i], bin) < 0)
			ret = -1;
		else if (parse_events(rec->event_strs[i], &rec->events, &rec->nr_events))
			ret = -1;
	}
	free(bin);
	return ret;
}

/* ---- recording ---- */

/* the JIT files of containers, saved beside the output: one line says what (or why not) */
static void record__jit_finish(struct record *rec)
{
	char line[1024] = "";

	jit_save__finish(rec->out.jsave, rec->out.pipe ? NULL : rec->output, line, sizeof(line));
	if (line[0] && !quiet)
		fprintf(stderr, "%s\n", line);
}

/* the header and what existed before the start */
static int record__begin(struct record *rec, const struct target *tg, int argc, const char **argv)
{
	struct record_output *o = &rec->out;
	void *tdata = NULL;
	size_t tdata_size = 0;
	int t;

	if (record_output__open(o, rec->opts.pipe ? "-" : rec->output, &rec->evlist, !rec->no_buildid,
				rec->opts.comp_level, (size_t)rec->opts.mmap_pages))
		return -1;
	record_features__env(&o->writer, perf_exec_path, perf_version_string, argc, argv);
	if (rec->opts.use_clockid)
		record_features__clock(&o->writer, rec->opts.clockid);
	/* a file gets it as a feature, a pipe as a HEADER_TRACING_DATA record after the attrs */
	t = evlist__tracing_data(&rec->evlist, &tdata, &tdata_size);
	if (t > 0)
		perf_data_writer__set_feature(&o->writer, HEADER_TRACING_DATA, tdata, tdata_size);
	free(tdata);
	if (t < 0 || record_output__start(o) < 0)
		return -1;
	return record_output__synthesize(o, rec->child.pid, tg->pids, tg->nr_pids, rec->opts.system_wide);
}

/* until the workload ends, a signal comes or the targets are gone */
static void record__loop(struct record *rec, const sigset_t *orig, const sigset_t *block)
{
	while (!done) {
		int64_t n = record_output__drain(&rec->out);

		if (n < 0 || child_done || done)
			break;
		if (n == 0) {
			int live = evlist__poll(&rec->evlist, orig);

			/* a timeout (side-band is read every 100 ms) is not a wakeup */
			rec->wakeups += live != EVLIST_POLL_TIMEOUT;
			/* no live fd left (every -p/-t target exited): done */
			if (live == 0)
				done = 1;
		} else {
			/* busy rings never reach ppoll: let pending signals in here */
			sigprocmask(SIG_SETMASK, orig, NULL);
			sigprocmask(SIG_BLOCK, block, NULL);
		}
	}
}

static int __cmd_record(struct record *rec, int argc, const char **argv, int rec_argc, const char **rec_argv)
{
	struct evlist *el = &rec->evlist;
	struct cpu_map *cpus = cpu_map__new_online();   /* -p/-t too: inherited per-task rings need a CPU */
	struct target tg = { 0 };
	pid_t all = -1;
	int err = -1, exec_err = 0;

	if ((rec->pid_list || rec->tid_list) &&
	    target__resolve(&tg, rec->pid_list ? rec->pid_list : rec->tid_list, !rec->pid_list))
		goto out_cpus;
	if (argc > 0 && workload__prepare(&rec->child, argv, &rec->orig, rec->opts.pipe))
		goto out;
	if (rec->opts.system_wide)
		evlist__set_targets(el, cpus, &all, 1);
	else if (argc > 0 && !rec->opts.per_thread)
		evlist__set_targets(el, cpus, &rec->child.pid, 1);
	else
		evlist__set_targets(el, cpus, tg.threads, tg.nr_threads);
	if (evlist__open(el) || evlist__mmap(el, (size_t)rec->opts.mmap_pages))
		goto out;
	/* --jit: before the maps are read, so the agent's marker and replayed code are in them */
	if (rec->jit_attach && !(rec->jvms = jvm_attach__many(tg.pids, tg.nr_pids, "dir=/tmp,record")))
		goto out;
	if (record__begin(rec, &tg, rec_argc, rec_argv))
		goto out;

	if (rec->opts.system_wide || rec->opts.per_thread || argc == 0)
		evlist__enable(el);
	if (argc > 0) {
		exec_err = workload__start(&rec->child);
		if (exec_err) {
			pr_err("Failed to collect '%s' for the '%s' workload: %s\n", el->entries[0].name,
			       argv[0], strerror(exec_err));
			workload__reap(&rec->child, false);
			done = 1;
		}
	}
	record__loop(rec, &rec->orig, &rec->block);
	jvm_attach__stop_many(&rec->jvms);   /* --jit: the agents close their dumps */
	evlist__disable(el);
	workload__reap(&rec->child, !child_done);
	record_output__drain(&rec->out);
	record_output__read_lost_samples(&rec->out);

	/* like perf, a failed exec gets only its error line */
	if (!quiet && !exec_err)
		fprintf(stderr, "[ perf record: Woken up %u times to write data ]\n", rec->wakeups);
	if (!quiet)
		record_output__print_lost(&rec->out, stderr);
	if (record_output__close(&rec->out) < 0)
		goto out;
	record__jit_finish(rec);
	if (!quiet && !exec_err)
		record_output__print_summary(&rec->out, stderr);
	if (exec_err)
		err = 255;
	else
		err = rec->child.pid > 0 && rec->child.reaped ? workload__exit_code(&rec->child) : 0;
out:
	jvm_attach__stop_many(&rec->jvms);
	record_output__exit(&rec->out);
	workload__abort(&rec->child);
	evlist__close(el);
out_cpus:
	target__exit(&tg);
	cpu_map__delete(cpus);
	el->cpus = NULL;
	return err;
}

/* what the options leave to check together, as perf 6.1 checks it; 129 on a conflict */
static int record__check_options(struct record *rec, int argc)
{
	if (rec->pid_list && rec->tid_list) {
		pr_err("--pid and --tid cannot be used together\n");
		return 129;
	}
	if (rec->opts.user_freq && rec->opts.user_period) {
		pr_err("--freq and --count cannot be used together\n");
		return 129;
	}
	if ((rec->pid_list || rec->tid_list) && rec->opts.system_wide) {
		pr_err("--pid/--tid and --all-cpus cannot be used together\n");
		return 129;
	}
	if (rec->jit_attach && !rec->pid_list) {
		pr_err("--jit needs -p PID of a running JVM\n");
		return 129;
	}
	if (!rec->output || !*rec->output) {
		pr_err("empty --output file name\n");
		return 129;
	}
	rec->opts.pipe = !strcmp(rec->output, "-");
	rec->opts.workload = argc > 0;
	rec->opts.per_thread = rec->pid_list || rec->tid_list;
	if (rec->tid_list)
		rec->opts.no_inherit = true;
	/* nothing to run and nothing to attach to: the whole system, like perf */
	if (argc == 0 && !rec->opts.per_thread)
		rec->opts.system_wide = true;
	record_opts__limit_freq(&rec->opts);
	return 0;
}

int cmd_record(int argc, const char **argv)
{
	static struct record rec;
	bool callchain = false, verbose_q = false;
	int ret;
	const struct option options[] = {
		OPT_CALLBACK('e', "event", &rec, "event",
			     "event selector: cpu-clock, task-clock, cycles, page-faults, group:tracepoint, with :u/:k",
			     parse_event_option),
		OPT_CALLBACK('F', "freq", &rec.opts, "freq or 'max'", "profile at this frequency", parse_freq),
		OPT_CALLBACK('c', "count", &rec.opts, "n", "event period to sample", parse_period),
		OPT_BOOLEAN('a', "all-cpus", &rec.opts.system_wide, "system-wide collection from all CPUs"),
		OPT_STRING('p', "pid", &rec.pid_list, "pid", "record events on existing process id(s)"),
		OPT_STRING('t', "tid", &rec.tid_list, "tid", "record events on existing thread id(s)"),
		OPT_BOOLEAN('g', NULL, &callchain, "enables call-graph (frame pointer) recording"),
		OPT_CALLBACK(0, "call-graph", &rec.opts, "record_mode[,record_size]",
			     "setup and enables call-graph (stack chain/backtrace): fp, dwarf[,size] (default 8192)",
			     parse_callgraph),
		OPT_BOOLEAN('i', "no-inherit", &rec.opts.no_inherit, "child tasks do not inherit counters"),
		OPT_CALLBACK('k', "clockid", &rec.opts, "clockid", "clockid to use for events, see clock_gettime()",
			     parse_clockid),
		OPT_CALLBACK('m', "mmap-pages", &rec.opts, "pages", "number of mmap data pages (a power of two)",
			     parse_mmap_pages),
		OPT_STRING('o', "output", &rec.output, "file", "output file name ('-' for a pipe)"),
		OPT_BOOLEAN('B', "no-buildid", &rec.no_buildid, "do not collect buildids in perf.data"),
		OPT_CALLBACK_OPTARG('z', "compression-level", &rec.opts, "n",
				    "Compress records using specified level (default: 1 - fastest compression, 22 - greatest compression)",
				    parse_comp_level, NULL),
		OPT_BOOLEAN(0, "jit", &rec.jit_attach,
			    "with -p: load the JVMTI agent into the JVM(s), stop it at the end (then perf inject --jit)"),
		OPT_BOOLEAN(0, "namespaces", &rec.opts.namespaces, "Record namespaces events"),
		OPT_BOOLEAN('q', "quiet", &verbose_q, "don't print any warnings or messages"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose (show counter open errors, etc)"),
		OPT_END()
	};
	/* parse_options reorders argv; CMDLINE wants it as typed */
	const char **rec_argv = xmalloc((argc + 1) * sizeof(*argv));
	int rec_argc = argc;

	memcpy(rec_argv, argv, argc * sizeof(*argv));
	rec_argv[argc] = NULL;
	memset(&rec, 0, sizeof(rec));
	record_opts__init(&rec.opts);
	rec.output = "perf.data";
	workload__init(&rec.child);
	done = child_done = signr = 0;

	argc = parse_options(argc, argv, options, record_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0) {
		free(rec_argv);
		return 129;
	}
	if (verbose_q)
		quiet = 1;
	if (callchain)
		rec.opts.callchain = true;
	ret = record__check_options(&rec, argc);
	if (ret) {
		free(rec.event_strs);
		free(rec_argv);
		return ret;
	}
	record__block_signals(&rec);
	if (record__parse_events(&rec, argc > 0 ? argv[0] : NULL) < 0) {
		sdt_record__cleanup(&rec.sdt);
		sigprocmask(SIG_SETMASK, &rec.orig, NULL);
		free(rec.event_strs);
		free(rec_argv);
		return 129;
	}
	evlist__init(&rec.evlist);
	if (rec.nr_events == 0)
		evlist__add_default(&rec.evlist);
	for (size_t i = 0; i < rec.nr_events; i++)
		evlist__add(&rec.evlist, &rec.events[i], true);
	evlist__config(&rec.evlist, &rec.opts);

	ret = __cmd_record(&rec, argc, argv, rec_argc, rec_argv);
	/* every perf fd is closed by now, so the uprobes are free to go */
	sdt_record__cleanup(&rec.sdt);
	sigprocmask(SIG_SETMASK, &rec.orig, NULL);
	free(rec.event_strs);
	evlist__exit(&rec.evlist);
	for (size_t i = 0; i < rec.nr_events; i++)
		parsed_event__exit(&rec.events[i]);
	free(rec.events);
	free(rec_argv);

	/* a workload killed by a signal: die the same way, like perf */
	if (ret > 128 && ret < 128 + 65 && rec.child.pid > 0 && WIFSIGNALED(rec.child.status)) {
		signal(ret - 128, SIG_DFL);
		raise(ret - 128);
	}
	/* no workload: an interrupted recording ends by that signal, like perf */
	if (ret == 0 && rec.child.pid <= 0 && signr) {
		signal(signr, SIG_DFL);
		raise(signr);
	}
	return ret < 0 ? 1 : ret;
}
