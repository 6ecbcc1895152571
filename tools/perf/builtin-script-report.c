// SPDX-License-Identifier: MIT
/*
 * perf script report flamegraph | stackcollapse: perf 6.1 runs Python
 * scripts for these; here they are built in (util/flamegraph.c), and the
 * flame graph page carries its libraries so that it opens with no network.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "builtin.h"
#include "util/callchain.h"
#include "util/debug.h"
#include "util/flamegraph.h"
#include "util/header.h"
#include "util/parse-options.h"
#include "util/session.h"
#include "util/util.h"

/* perf's default --max-stack: the kernel's perf_event_max_stack */
#define DEFAULT_MAX_STACK 127

enum label_mode { LABEL_FLAMEGRAPH, LABEL_FOLDED };

struct script_report {
	struct perf_tool tool;
	struct flamegraph fg;
	struct hist_frame *frames;
	int max_stack;
	enum label_mode label_mode;
	bool no_comm, include_pid, include_tid;
};

static int report_sample(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
			 struct perf_sample *sample, struct evsel *evsel)
{
	struct script_report *r = (struct script_report *)tool;
	struct thread *thread;
	size_t n = sample__resolve_frames(&s->machine, sample, r->frames, (size_t)r->max_stack, &thread);
	const char *comm = thread && thread->comm ? thread->comm : "[unknown]";
	char label[512];

	(void)ev, (void)evsel;
	if (r->label_mode == LABEL_FLAMEGRAPH) {
		/* flamegraph.py: "comm (pid)", the bare comm (a kernel label) for pid 0 */
		if (sample->pid == 0)
			snprintf(label, sizeof(label), "%s", comm);
		else
			snprintf(label, sizeof(label), "%s (%d)", comm, (int)sample->pid);
		flamegraph__add_sample(&r->fg, label, sample->pid == 0, r->frames, n);
		return 0;
	}
	/* stackcollapse.py: "comm-pid/tid", spaces as underscores */
	snprintf(label, sizeof(label), "%s", comm);
	for (char *p = label; *p; p++)
		if (*p == ' ')
			*p = '_';
	if (r->include_pid)
		snprintf(label + strlen(label), sizeof(label) - strlen(label), "-%d", (int)sample->pid);
	if (r->include_tid)
		snprintf(label + strlen(label), sizeof(label) - strlen(label), "%s%d",
			 r->include_pid ? "/" : "-", (int)sample->tid);
	flamegraph__add_sample(&r->fg, r->no_comm ? NULL : label, false, r->frames, n);
	return 0;
}

static int read_session(struct script_report *r, const char *input, struct perf_session **sp,
			const struct flamegraph_opts *o)
{
	struct perf_session *s = perf_session__open(input);

	if (!s)
		return -1;
	if (r->max_stack < 1) {
		pr_err("--max-stack must be at least 1\n");
		perf_session__delete(s);
		return -1;
	}
	r->frames = xmalloc((size_t)r->max_stack * sizeof(*r->frames));
	flamegraph__init(&r->fg, o, &s->machine.dsos);
	r->tool.sample = report_sample;
	if (perf_session__process_events(s, &r->tool) < 0) {
		flamegraph__exit(&r->fg);
		perf_session__delete(s);
		return -1;
	}
	*sp = s;
	return 0;
}

static void done(struct script_report *r, struct perf_session *s)
{
	flamegraph__exit(&r->fg);
	free(r->frames);
	perf_session__delete(s);
}

/* "java -Xmx1g Main" of "perf record -g -- java -Xmx1g Main", from the CMDLINE feature */
static char *recorded_command(struct perf_session *s)
{
	const struct perf_feature_blob *b = &s->reader.feat[HEADER_CMDLINE];
	struct feat_cursor c;
	const char **argv;
	uint32_t nr, from = 0;
	char *out = NULL;

	if (!b->data)
		return NULL;
	feat_cursor__init(&c, b->data, b->size);
	argv = feat_cursor__string_list(&c, &nr);
	if (!argv)
		return NULL;
	for (uint32_t i = 0; i < nr; i++)
		if (!strcmp(argv[i], "--")) {
			from = i + 1;
			break;
		}
	if (from == nr)
		from = 0;
	for (uint32_t i = from; i < nr; i++) {
		char *t = xasprintf("%s%s%s", out ? out : "", out ? " " : "", argv[i]);

		free(out);
		out = t;
	}
	free(argv);
	return out;
}

/* wall-clock time of the first sample (CLOCK_DATA + SAMPLE_TIME), else of the file */
static char *recorded_time(struct perf_session *s, const char *input)
{
	const struct perf_feature_blob *clk = &s->reader.feat[HEADER_CLOCK_DATA];
	const struct perf_feature_blob *st = &s->reader.feat[HEADER_SAMPLE_TIME];
	char buf[64];
	struct tm tm;
	struct stat sb;
	time_t t;

	if (clk->data && clk->size >= 24 && st->data && st->size >= 16) {
		struct feat_cursor c;
		uint64_t tod, ref, first;

		feat_cursor__init(&c, clk->data, clk->size);
		feat_cursor__u32(&c);                   /* version */
		feat_cursor__u32(&c);                   /* clockid */
		tod = feat_cursor__u64(&c);
		ref = feat_cursor__u64(&c);
		feat_cursor__init(&c, st->data, st->size);
		first = feat_cursor__u64(&c);
		t = (time_t)((tod + first - ref) / 1000000000ull);
	} else if (strcmp(input, "-") && stat(input, &sb) == 0) {
		t = sb.st_mtime;
	} else
		return NULL;
	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", &tm);
	return xstrdup(buf);
}

/*
 * Into a temporary file beside the output, renamed over it at the end: an
 * error leaves no half page, and a symlink at the name is replaced, not
 * followed.
 */
static FILE *open_output(const char *out, char **tmp)
{
	mode_t mask = umask(0);
	int fd;

	umask(mask);
	*tmp = xasprintf("%s.XXXXXX", out);
	fd = mkstemp(*tmp);
	if (fd < 0 || fchmod(fd, 0666 & ~mask) < 0) {
		pr_err("cannot create %s (as %s): %m\n", out, *tmp);
		if (fd >= 0) {
			close(fd);
			unlink(*tmp);
		}
		free(*tmp);
		return NULL;
	}
	return fdopen(fd, "w");
}

static int close_output(FILE *f, const char *out, char *tmp, bool ok)
{
	ok = ok && !ferror(f);
	if (fclose(f) != 0)
		ok = false;
	if (ok && rename(tmp, out) < 0) {
		pr_err("cannot write %s: %m\n", out);
		ok = false;
	}
	if (!ok)
		unlink(tmp);
	free(tmp);
	return ok ? 0 : -1;
}

static int write_flamegraph(struct script_report *r, struct perf_session *s, const char *input,
			    const char *out, bool html, const char *scheme, const char *libdir)
{
	char *cmd = recorded_command(s), *when = recorded_time(s, input), *title, *info, *tmp = NULL;
	struct flamegraph_page page = { .colorscheme = scheme, .libdir = libdir };
	FILE *f = stdout;
	bool ok;

	title = xasprintf("Flame graph: %s%s%s", cmd ? cmd : input, when ? ", recorded " : "",
			  when ? when : "");
	info = xasprintf("%llu samples from %s, stacks cut at %d frames; click a frame to zoom, "
			 "hover for its DSO and source line", (unsigned long long)r->fg.nr_samples,
			 input, r->max_stack);
	page.title = title;
	page.info = info;
	if (strcmp(out, "-")) {
		printf("dumping data to %s\n", out);
		f = open_output(out, &tmp);
	}
	if (!f) {
		ok = false;
	} else {
		ok = (html ? flamegraph__write_html(&r->fg, f, &page) : flamegraph__write_json(&r->fg, f)) == 0;
		if (f == stdout)
			ok = fflush(stdout) == 0 && ok;
		else if (close_output(f, out, tmp, ok) < 0)
			ok = false;
	}
	if (!ok)
		pr_err("writing the flame graph to %s failed\n", out);
	free(cmd);
	free(when);
	free(title);
	free(info);
	return ok ? 0 : 1;
}

/*
 * perf 6.1 hands what follows "--" to its Python script, so its options may
 * come there (`stackcollapse -i f -- --kernel`): parse them in both places.
 */
static int parse_script_options(int argc, const char **argv, const struct option *options,
				const char *const *usage)
{
	argc = parse_options(argc, argv, options, usage, 0);
	if (argc) {
		const char **rest = xmalloc((size_t)(argc + 2) * sizeof(*rest));

		rest[0] = usage[0];
		memcpy(rest + 1, argv, (size_t)argc * sizeof(*rest));
		rest[argc + 1] = NULL;
		argc = parse_options(argc + 1, rest, options, usage, 0);
		if (argc)
			usage_with_options_msg(usage, options, "unexpected argument '%s'", rest[0]);
		free(rest);
	}
	return 0;
}

static int tristate(const struct option *opt, const char *arg, int unset)
{
	(void)arg;
	*(int *)opt->value = !unset;
	return 0;
}

static int report_flamegraph(int argc, const char **argv)
{
	static const char *const usage[] = {
		"perf script report flamegraph [<options>]",
		NULL
	};
	struct script_report r = { .max_stack = DEFAULT_MAX_STACK, .label_mode = LABEL_FLAMEGRAPH };
	const char *input = "perf.data", *out = NULL, *format = "html", *scheme = "blue-green";
	const char *tmpl = NULL;
	int inl = -1, ret;
	const struct option options[] = {
		OPT_STRING('i', "input", &input, "file", "input file name (default perf.data)"),
		OPT_STRING('f', "format", &format, "html|json", "output file format (default html)"),
		OPT_STRING('o', "output", &out, "file",
			   "output file name (default flamegraph.html or stacks.json; - for stdout)"),
		OPT_STRING(0, "colorscheme", &scheme, "blue-green|orange", "flame graph color scheme"),
		OPT_STRING(0, "template", &tmpl, "file",
			   "accepted for compatibility: the page is built in, with its libraries"),
		OPT_INTEGER(0, "max-stack", &r.max_stack, "frames kept per sample, from the sampled one (default 127)"),
		OPT_CALLBACK_NOOPT(0, "inline", &inl, "Java methods the JIT inlined as frames of their own "
				   "(default: on for html, off for json like perf 6.1)", tristate),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_BOOLEAN('q', "quiet", &quiet, "do not show any warnings or messages"),
		OPT_END()
	};
	struct flamegraph_opts o = { 0 };
	struct perf_session *s;
	char *libdir = NULL;
	bool html;

	parse_script_options(argc, argv, options, usage);
	if (strcmp(format, "html") && strcmp(format, "json"))
		usage_with_options_msg(usage, options, "--format must be html or json, not '%s'", format);
	if (strcmp(scheme, "blue-green") && strcmp(scheme, "orange"))
		usage_with_options_msg(usage, options, "--colorscheme must be blue-green or orange, not '%s'",
				       scheme);
	html = !strcmp(format, "html");
	if (tmpl)
		pr_warning("--template %s ignored: the page and its libraries are built in\n", tmpl);
	/* before reading a large file: say at once that the libraries are missing */
	if (html && !(libdir = flamegraph__find_libs(perf_exec_path)))
		return 1;
	o.inline_frames = inl < 0 ? html : inl;
	o.srclines = html;
	if (read_session(&r, input, &s, &o) < 0) {
		free(libdir);
		return 1;
	}
	ret = write_flamegraph(&r, s, input, out ? out : html ? "flamegraph.html" : "stacks.json", html,
			       scheme, libdir);
	done(&r, s);
	free(libdir);
	return ret;
}

static int report_stackcollapse(int argc, const char **argv)
{
	static const char *const usage[] = {
		"perf script report stackcollapse [<options>]",
		NULL
	};
	struct script_report r = { .max_stack = DEFAULT_MAX_STACK, .label_mode = LABEL_FOLDED };
	struct folded_opts fo = { 0 };
	const char *input = "perf.data";
	int inl = 0, ret;
	const struct option options[] = {
		OPT_STRING('i', "input", &input, "file", "input file name (default perf.data)"),
		OPT_BOOLEAN(0, "include-tid", &r.include_tid, "include thread id in stack"),
		OPT_BOOLEAN(0, "include-pid", &r.include_pid, "include process id in stack"),
		OPT_BOOLEAN(0, "no-comm", &r.no_comm, "do not separate stacks according to comm"),
		OPT_BOOLEAN(0, "tidy-java", &fo.tidy_java, "beautify Java signatures"),
		OPT_BOOLEAN(0, "kernel", &fo.annotate_kernel, "annotate kernel functions with _[k]"),
		OPT_INTEGER(0, "max-stack", &r.max_stack, "frames kept per sample, from the sampled one (default 127)"),
		OPT_CALLBACK_NOOPT(0, "inline", &inl, "Java methods the JIT inlined as frames of their own",
				   tristate),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_BOOLEAN('q', "quiet", &quiet, "do not show any warnings or messages"),
		OPT_END()
	};
	struct flamegraph_opts o = { 0 };
	struct perf_session *s;

	parse_script_options(argc, argv, options, usage);
	if (r.no_comm && (r.include_pid || r.include_tid))
		usage_with_options_msg(usage, options, "requesting %s but not comm is invalid",
				       r.include_tid ? "tid" : "pid");
	o.inline_frames = inl > 0;
	if (read_session(&r, input, &s, &o) < 0)
		return 1;
	ret = flamegraph__write_folded(&r.fg, stdout, &fo) < 0 || fflush(stdout) ? 1 : 0;
	if (ret)
		pr_err("writing the folded stacks failed\n");
	done(&r, s);
	return ret;
}

/* argv[0] is "report" (cmd_script hands over `perf script report ...`) */
int cmd_script_report(int argc, const char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(stderr, "usage: perf script report flamegraph|stackcollapse [<options>]\n");
		return argc < 2 ? 129 : 0;
	}
	if (!strcmp(argv[1], "flamegraph"))
		return report_flamegraph(argc - 1, argv + 1);
	if (!strcmp(argv[1], "stackcollapse"))
		return report_stackcollapse(argc - 1, argv + 1);
	pr_err("perf script report: no script '%s' (built in: flamegraph, stackcollapse)\n", argv[1]);
	return 1;
}
