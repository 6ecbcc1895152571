// SPDX-License-Identifier: MIT
/*
 * perf record: open sampling events on a workload, processes, threads or
 * all CPUs, copy their ring buffers into perf.data (file or pipe format)
 * and describe the recording in the feature sections, as perf 6.1 does.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "builtin.h"
#include "util/cpumap.h"
#include "util/data.h"
#include "util/debug.h"
#include "util/dso.h"
#include "util/evlist.h"
#include "util/header.h"
#include "util/jit-save.h"
#include "util/jvm-attach.h"
#include "util/machine.h"
#include "util/parse-events.h"
#include "util/parse-options.h"
#include "util/sample.h"
#include "util/sdt-record.h"
#include "util/synthetic-events.h"
#include "util/trace-event.h"
#include "util/util.h"

/* perf's default for root: 512 KiB of data per ring */
#define DEFAULT_MMAP_PAGES 128
#define DEFAULT_FREQ 4000

struct record {
	struct record_opts opts;
	struct evlist evlist;
	struct parsed_event *events;
	size_t nr_events;
	const char **event_strs;       /* -e as given: parsed once SDT probes exist */
	size_t nr_event_strs;
	struct sdt_record sdt;         /* uprobes we created for cached events */
	const char *output;
	const char *pid_list, *tid_list;
	int mmap_pages;
	bool no_buildid;

	struct perf_data_writer writer;
	bool writer_open;
	struct machine machine;        /* side-band model, to find the DSOs hit */
	bool track_hits;
	struct jit_save *jsave;        /* JIT files of containers (util/jit-save.h) */
	bool jit_attach;               /* --jit: our agent into the -p JVMs (util/jvm-attach.h) */
	struct jvm_attach *jvms;

	pid_t child;
	int go_fd, exec_err_fd;
	int child_status;
	bool child_reaped;

	uint64_t samples, lost_events, lost_chunks, lost_samples;
	uint64_t bytes_written;
	uint64_t first_time, last_time;
	unsigned wakeups;
	int time_pos;                  /* offset of SAMPLE time from the header end */
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

static const char *const record_usage[] = {
	"perf record [<options>] [<command>]",
	"perf record [<options>] -- <command> [<options>]",
	NULL
};

/* ---- options ---- */

static struct record *option_record(const struct option *opt)
{
	return opt->value;
}

static int parse_event_option(const struct option *opt, const char *arg, int unset)
{
	struct record *rec = option_record(opt);

	/* parsed after the options: an SDT event may need its probe made first */
	rec->event_strs = xrealloc(rec->event_strs, (rec->nr_event_strs + 1) * sizeof(*rec->event_strs));
	rec->event_strs[rec->nr_event_strs++] = arg;
	return 0;
}

/* the workload's binary, for scanning its SDT notes into the cache */
static char *workload_path(const char *cmd)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *found = NULL;

	if (!cmd)
		return NULL;
	if (strchr(cmd, '/'))
		return realpath(cmd, NULL);
	copy = xstrdup(path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", dir, cmd);

		if (access(p, X_OK) == 0)
			found = realpath(p, NULL);
		free(p);
	}
	free(copy);
	return found;
}

/* only an ELF file has notes to scan; a script or a pyenv shim is not one */
static bool is_elf_file(const char *path)
{
	unsigned char magic[4];
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	bool elf = fd >= 0 && read(fd, magic, 4) == 4 && !memcmp(magic, ELFMAG, SELFMAG);

	if (fd >= 0)
		close(fd);
	return elf;
}

/*
 * Cached SDT and named probes (sdt_python:function__entry, 'sdt_test:*')
 * get their uprobes made here when tracefs has no such event yet; they are
 * removed again when recording ends.
 */
static int record__parse_events(struct record *rec, const char *workload)
{
	char *bin = workload_path(workload);
	int ret = 0;

	if (bin && !is_elf_file(bin)) {
		free(bin);
		bin = NULL;
	}

	for (size_t i = 0; i < rec->nr_event_strs && !ret; i++) {
		if (sdt_record__prepare(&rec->sdt, rec->event_strs[i], bin) < 0)
			ret = -1;
		else if (parse_events(rec->event_strs[i], &rec->events, &rec->nr_events))
			ret = -1;
	}
	free(bin);
	return ret;
}

static int parse_uint(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return (errno || *end) ? -1 : 0;
}

static unsigned max_sample_rate(void)
{
	char *s = read_file("/proc/sys/kernel/perf_event_max_sample_rate", NULL);
	unsigned v = 0;

	if (s) {
		v = (unsigned)strtoul(s, NULL, 10);
		free(s);
	}
	return v;
}

static int parse_freq_option(const struct option *opt, const char *arg, int unset)
{
	struct record *rec = option_record(opt);
	uint64_t v;

	if (arg && !strcmp(arg, "max")) {
		v = max_sample_rate();
		if (!v)
			v = DEFAULT_FREQ;
	} else if (parse_uint(arg, &v) || v == 0 || v > UINT32_MAX) {
		pr_err("invalid --freq '%s': expected a positive number of Hz or 'max'\n", arg ? arg : "");
		return -1;
	}
	rec->opts.freq = v;
	rec->opts.user_freq = true;
	return 0;
}

static int parse_count_option(const struct option *opt, const char *arg, int unset)
{
	struct record *rec = option_record(opt);
	uint64_t v;

	if (parse_uint(arg, &v) || v == 0) {
		pr_err("invalid --count '%s': expected a positive event period\n", arg ? arg : "");
		return -1;
	}
	rec->opts.period = v;
	rec->opts.user_period = true;
	return 0;
}

static const struct {
	const char *name;
	int id;
} clockids[] = {
	{ "monotonic", CLOCK_MONOTONIC },
	{ "mono", CLOCK_MONOTONIC },
	{ "monotonic_raw", CLOCK_MONOTONIC_RAW },
	{ "raw", CLOCK_MONOTONIC_RAW },
	{ "realtime", CLOCK_REALTIME },
	{ "real", CLOCK_REALTIME },
	{ "boottime", CLOCK_BOOTTIME },
	{ "boot", CLOCK_BOOTTIME },
	{ "tai", CLOCK_TAI },
};

/* perf 6.1's limit: the kernel takes a u16 stack size, kept a multiple of 8 */
#define MAX_STACK_DUMP_SIZE 65528u
#define DEFAULT_STACK_DUMP_SIZE 8192u

/* --call-graph fp | dwarf[,SIZE]; fp ignores a size like perf 6.1 does */
static int parse_call_graph_option(const struct option *opt, const char *arg, int unset)
{
	struct record *rec = option_record(opt);
	char *copy, *mode, *size;
	int ret = 0;

	rec->opts.callchain = false;
	rec->opts.callchain_dwarf = false;
	if (unset)
		return 0;
	copy = xstrdup(arg ? arg : "fp");
	mode = copy;
	size = strchr(copy, ',');
	if (size)
		*size++ = 0;
	if (!strcmp(mode, "fp")) {
		rec->opts.callchain = true;
	} else if (!strcmp(mode, "dwarf")) {
		uint64_t v = DEFAULT_STACK_DUMP_SIZE;

		if (size && (parse_uint(size, &v) || v == 0 || v > MAX_STACK_DUMP_SIZE)) {
			pr_err("callchain: Incorrect stack dump size (max %u): %s\n", MAX_STACK_DUMP_SIZE, size);
			ret = -1;
		} else {
			rec->opts.callchain = true;
			rec->opts.callchain_dwarf = true;
			rec->opts.stack_dump_size = (uint32_t)ALIGN_UP(v, 8);
		}
	} else {
		pr_err("callchain: Unknown --call-graph option value: %s\n", arg);
		ret = -1;
	}
	free(copy);
	return ret;
}

static int parse_clockid_option(const struct option *opt, const char *arg, int unset)
{
	struct record *rec = option_record(opt);
	const char *name = arg;
	uint64_t v;

	if (unset) {
		rec->opts.use_clockid = false;
		return 0;
	}
	if (!arg || !*arg)
		goto bad;
	if (!parse_uint(arg, &v)) {
		if (v > INT32_MAX)
			goto bad;
		rec->opts.clockid = (int)v;
		rec->opts.use_clockid = true;
		return 0;
	}
	if (!strncasecmp(name, "CLOCK_", 6))
		name += 6;
	for (size_t i = 0; i < ARRAY_SIZE(clockids); i++) {
		if (!strcasecmp(name, clockids[i].name)) {
			rec->opts.clockid = clockids[i].id;
			rec->opts.use_clockid = true;
			return 0;
		}
	}
bad:
	pr_err("unknown clockid '%s' (mono, monotonic, monotonic_raw, realtime, boot, tai or a number)\n",
	       arg ? arg : "");
	return -1;
}

static int parse_pages_option(const struct option *opt, const char *arg, int unset)
{
	struct record *rec = option_record(opt);
	uint64_t v;

	if (parse_uint(arg, &v) || v == 0 || (v & (v - 1)) || v > (1u << 20)) {
		pr_err("invalid --mmap-pages '%s': expected a power of two\n", arg ? arg : "");
		return -1;
	}
	rec->mmap_pages = (int)v;
	return 0;
}

/* "1,2,3" -> pids; -1 on anything else */
static int parse_pid_list(const char *s, pid_t **out, int *nr)
{
	char *copy = xstrdup(s), *save = NULL, *tok;
	int ret = 0;

	*out = NULL;
	*nr = 0;
	for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		uint64_t v;

		if (parse_uint(tok, &v) || v == 0 || v > INT32_MAX) {
			ret = -1;
			break;
		}
		*out = xrealloc(*out, (*nr + 1) * sizeof(pid_t));
		(*out)[(*nr)++] = (pid_t)v;
	}
	free(copy);
	if (!*nr)
		ret = -1;
	return ret;
}

/* ---- output ---- */

/* perf keeps one previous recording as FILE.old */
static int backup_output(const char *path)
{
	struct stat st;
	char *old;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : (pr_err("cannot stat %s: %s\n", path, strerror(errno)), -1);
	if (S_ISDIR(st.st_mode)) {
		pr_err("output %s is a directory\n", path);
		return -1;
	}
	if (S_ISREG(st.st_mode) && st.st_size == 0)
		return 0;
	old = xasprintf("%s.old", path);
	if (rename(path, old) < 0) {
		pr_err("cannot rename %s to %s: %s\n", path, old, strerror(errno));
		free(old);
		return -1;
	}
	free(old);
	return 0;
}

static int record__write(struct record *rec, const void *buf, size_t size)
{
	if (perf_data_writer__write(&rec->writer, buf, size) < 0) {
		pr_err("failed to write perf data to %s: %s\n", rec->output, strerror(errno));
		done = 1;
		return -1;
	}
	rec->bytes_written += size;
	return 0;
}

static bool is_side_band(uint32_t type)
{
	return type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2 || type == PERF_RECORD_COMM ||
	       type == PERF_RECORD_FORK || type == PERF_RECORD_EXIT;
}

static int record__process_synth(void *arg, const union perf_event *ev)
{
	struct record *rec = arg;

	if (rec->track_hits && is_side_band(ev->header.type))
		machine__process_event(&rec->machine, ev, NULL);
	jit_save__event(rec->jsave, ev);
	return record__write(rec, ev, ev->header.size);
}

static const struct perf_event_attr *record__attr_of(struct record *rec, const union perf_event *ev)
{
	struct evlist *el = &rec->evlist;
	uint64_t id;

	if (el->nr == 1)
		return &el->entries[0].attr;
	if (perf_event__read_id(evlist__sample_type(el), true, ev, &id)) {
		struct evsel_rec *e = evlist__find_id(el, id);

		if (e)
			return &e->attr;
	}
	return NULL;
}

static void record__account_sample(struct record *rec, const union perf_event *ev)
{
	const unsigned char *p = (const unsigned char *)ev + sizeof(ev->header) + rec->time_pos;
	uint64_t t;

	rec->samples++;
	if (ev->header.size >= sizeof(ev->header) + rec->time_pos + 8) {
		memcpy(&t, p, 8);
		if (!rec->first_time || t < rec->first_time)
			rec->first_time = t;
		if (t > rec->last_time)
			rec->last_time = t;
	}
	if (rec->track_hits) {
		const struct perf_event_attr *attr = record__attr_of(rec, ev);
		struct perf_sample s;
		struct addr_location al;

		if (attr && !perf_sample__parse(attr, ev, &s))
			machine__resolve(&rec->machine, (int32_t)s.pid, (int32_t)s.tid, s.cpumode, s.ip,
					 &al, true);
	}
}

static int record__process_ring_event(struct record *rec, const union perf_event *ev)
{
	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		record__account_sample(rec, ev);
		break;
	case PERF_RECORD_LOST:
		rec->lost_chunks++;
		rec->lost_events += ev->lost.lost;
		break;
	case PERF_RECORD_LOST_SAMPLES:
		rec->lost_samples += ev->lost_samples.lost;
		break;
	default:
		jit_save__event(rec->jsave, ev);
		break;
	}
	return record__write(rec, ev, ev->header.size);
}

/* Copies everything the rings hold; returns bytes copied, -1 on write error. */
static int64_t record__drain(struct record *rec)
{
	struct evlist *el = &rec->evlist;
	int64_t total = 0;

	for (int i = 0; i < el->nr_mmaps; i++) {
		struct perf_mmap *m = &el->mmaps[i];
		union perf_event *ev;
		uint64_t n = perf_mmap__read_init(m);

		if (!n)
			continue;
		if (rec->track_hits) {
			/* side-band first, so this round's samples find their maps */
			uint64_t start = m->start;

			while ((ev = perf_mmap__read_event(m)))
				if (is_side_band(ev->header.type))
					machine__process_event(&rec->machine, ev, NULL);
			m->start = start;
		}
		while ((ev = perf_mmap__read_event(m)))
			if (record__process_ring_event(rec, ev))
				return -1;
		perf_mmap__read_done(m);
		total += (int64_t)n;
	}
	if (total) {
		struct perf_event_header fr = { .type = PERF_RECORD_FINISHED_ROUND, .size = sizeof(fr) };

		if (record__write(rec, &fr, sizeof(fr)))
			return -1;
	}
	return total;
}

/* perf 6.1 reads PERF_FORMAT_LOST at the end and stores it as LOST_SAMPLES */
static void record__read_lost_samples(struct record *rec)
{
	struct evlist *el = &rec->evlist;

	for (size_t i = 0; i < el->nr; i++) {
		struct evsel_rec *e = &el->entries[i];
		unsigned id_hdr = sample_id_hdr_size(e->attr.sample_type);

		if (!(e->attr.read_format & PERF_FORMAT_LOST))
			continue;
		for (size_t k = 0; k < e->nr_ids; k++) {
			uint64_t vals[3];
			unsigned char buf[sizeof(struct perf_record_lost_samples) + 64] __attribute__((aligned(8)));
			struct perf_record_lost_samples *ls = (void *)buf;
			struct perf_sample s;
			int c = (int)(k / el->nr_threads), t = (int)(k % el->nr_threads);

			if (e->fds[k] < 0 || read(e->fds[k], vals, sizeof(vals)) != sizeof(vals) || !vals[2])
				continue;
			memset(buf, 0, sizeof(buf));
			memset(&s, 0, sizeof(s));
			s.id = vals[1];
			s.cpu = (uint32_t)el->cpus->cpus[c];
			s.pid = s.tid = (uint32_t)el->threads[t];
			ls->header.type = PERF_RECORD_LOST_SAMPLES;
			ls->header.size = sizeof(*ls) + id_hdr;
			ls->lost = vals[2];
			perf_sample__write_id_hdr(e->attr.sample_type, &s, buf + sizeof(*ls));
			rec->lost_samples += vals[2];
			record__write(rec, buf, ls->header.size);
		}
	}
}

/* ---- build-ids ---- */

/* the NT_GNU_BUILD_ID in a block of ELF notes; size or -1 */
static int notes__build_id(const unsigned char *p, size_t size, uint8_t *id)
{
	size_t off = 0;

	while (off + 12 <= size) {
		uint32_t namesz, descsz, type;
		size_t name_off, desc_off;

		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		name_off = off + 12;
		desc_off = name_off + ALIGN_UP((size_t)namesz, 4);
		if (desc_off > size || descsz > size - desc_off)
			return -1;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + name_off, "GNU", 4) &&
		    descsz > 0 && descsz <= BUILD_ID_MAX) {
			memcpy(id, p + desc_off, descsz);
			return (int)descsz;
		}
		off = desc_off + ALIGN_UP((size_t)descsz, 4);
	}
	return -1;
}

static int kernel_build_id(uint8_t *id)
{
	size_t size;
	char *notes = read_file("/sys/kernel/notes", &size);
	int n;

	if (!notes)
		return -1;
	n = notes__build_id((unsigned char *)notes, size, id);
	free(notes);
	return n;
}

/* the kernel gives every process the same vdso image: read ours */
static int vdso_build_id(uint8_t *id)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)getauxval(AT_SYSINFO_EHDR);
	const unsigned char *base = (const unsigned char *)eh;

	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return -1;
	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff + (size_t)i * eh->e_phentsize);

		if (ph->p_type == PT_NOTE) {
			int n = notes__build_id(base + ph->p_offset, ph->p_filesz, id);

			if (n > 0)
				return n;
		}
	}
	return -1;
}

struct build_id_collect {
	struct feat_buf buf;
	int nr;
};

static void add_build_id(struct build_id_collect *c, const char *name, uint16_t cpumode,
			 const uint8_t *id, int size)
{
	struct build_id_entry e;

	memset(&e, 0, sizeof(e));
	e.cpumode = cpumode;
	e.pid = -1;
	memcpy(e.build_id, id, (size_t)size);
	e.size = (uint8_t)size;
	e.filename = (char *)name;
	build_id__encode(&c->buf, &e, 0);
	c->nr++;
}

static void collect_dso_build_id(struct dso *dso, void *arg)
{
	struct build_id_collect *c = arg;
	uint8_t id[BUILD_ID_MAX];
	int n;

	if (!dso->hit || dso->kind != DSO_KIND_ELF || dso->long_name[0] != '/')
		return;
	n = filename__read_build_id(dso->long_name, id, sizeof(id));
	if (n > 0)
		add_build_id(c, dso->long_name, PERF_RECORD_MISC_USER, id, n);
}

static void record__write_build_ids(struct record *rec)
{
	struct build_id_collect c = { { 0 }, 0 };
	uint8_t id[BUILD_ID_MAX];
	int n;

	if ((n = kernel_build_id(id)) > 0)
		add_build_id(&c, "[kernel.kallsyms]", PERF_RECORD_MISC_KERNEL, id, n);
	dsos__for_each(&rec->machine.dsos, collect_dso_build_id, &c);
	if ((n = vdso_build_id(id)) > 0)
		add_build_id(&c, "[vdso]", PERF_RECORD_MISC_USER, id, n);
	if (c.nr)
		perf_data_writer__set_feature(&rec->writer, HEADER_BUILD_ID, c.buf.data, c.buf.len);
	feat_buf__release(&c.buf);
}

/* ---- tracing data ---- */

static int record__tracing_data(struct record *rec, void **buf, size_t *size)
{
	struct evlist *el = &rec->evlist;
	const char **names = NULL;
	char **owned = NULL;
	size_t n = 0;
	int ret;

	for (size_t i = 0; i < el->nr; i++) {
		if (el->entries[i].attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		owned = xrealloc(owned, (n + 1) * sizeof(*owned));
		owned[n++] = xasprintf("%s:%s", el->entries[i].tp_system, el->entries[i].tp_event);
	}
	if (!n)
		return 0;
	names = (const char **)owned;
	ret = trace_event__build_tracing_data_names(names, n, buf, size);
	for (size_t i = 0; i < n; i++)
		free(owned[i]);
	free(owned);
	return ret ? -1 : 1;
}

/* ---- workload ---- */

/*
 * Forks the command; it waits on go_fd so the events exist before it
 * execs (enable_on_exec starts counting exactly at exec). An exec failure
 * comes back through a close-on-exec pipe.
 */
static int record__prepare_workload(struct record *rec, const char **argv, const sigset_t *orig)
{
	int go[2], err[2];

	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		pr_err("cannot create pipes for the workload: %s\n", strerror(errno));
		return -1;
	}
	fflush(NULL);
	rec->child = fork();
	if (rec->child < 0) {
		pr_err("cannot fork the workload: %s\n", strerror(errno));
		return -1;
	}
	if (rec->child == 0) {
		char c;
		int e;

		sigprocmask(SIG_SETMASK, orig, NULL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		close(go[1]);
		close(err[0]);
		/* stdout is the perf.data stream in pipe mode */
		if (rec->opts.pipe)
			dup2(2, 1);
		prctl(PR_SET_NAME, "perf-exec", 0, 0, 0);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], (char *const *)argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	rec->go_fd = go[1];
	rec->exec_err_fd = err[0];
	return 0;
}

/* 0 once the command runs, else its exec errno */
static int record__start_workload(struct record *rec)
{
	char c = 0;
	int e = 0;
	ssize_t n;

	if (write(rec->go_fd, &c, 1) != 1)
		e = errno ? errno : EPIPE;
	close(rec->go_fd);
	rec->go_fd = -1;
	if (e)
		return e;
	do
		n = read(rec->exec_err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(rec->exec_err_fd);
	rec->exec_err_fd = -1;
	return n == sizeof(e) ? e : 0;
}

static void record__reap_child(struct record *rec, bool kill_it)
{
	if (rec->child <= 0 || rec->child_reaped)
		return;
	if (kill_it && waitpid(rec->child, &rec->child_status, WNOHANG) == rec->child) {
		rec->child_reaped = true;
		return;
	}
	if (kill_it)
		kill(rec->child, SIGTERM);
	while (waitpid(rec->child, &rec->child_status, 0) < 0 && errno == EINTR)
		;
	rec->child_reaped = true;
}

/* ---- main loop ---- */

static void record__poll(struct record *rec, const sigset_t *orig)
{
	struct evlist *el = &rec->evlist;
	int live = 0;

	/* side-band is read at least every 100 ms: a container's JIT files must be
	 * taken while it lives (util/jit-save.h); a timeout is not a wakeup */
	struct timespec side_band = { 0, 100000000 };

	if (ppoll(el->pollfds, el->nr_pollfds, &side_band, orig) == 0)
		return;
	rec->wakeups++;
	for (int i = 0; i < el->nr_pollfds; i++) {
		if (el->pollfds[i].fd < 0)
			continue;
		/* a per-thread target that exited: stop watching it */
		if (el->pollfds[i].revents & (POLLHUP | POLLERR))
			el->pollfds[i].fd = -1;
		else
			live++;
	}
	if (!live && el->nr_pollfds)
		done = 1;
}

static int record__synthesize(struct record *rec, pid_t *pids, int nr_pids)
{
	struct synth_target t = {
		.process = record__process_synth,
		.arg = rec,
		.id_hdr_size = sample_id_hdr_size(evlist__sample_type(&rec->evlist)),
	};
	struct evlist *el = &rec->evlist;
	int ret = 0;

	ret = synthesize_id_index(&t, el);
	if (!ret)
		ret = synthesize_kernel_mmap(&t);
	if (!ret)
		ret = synthesize_thread_map(&t, el);
	if (!ret)
		ret = synthesize_cpu_map(&t, el);
	if (!ret && rec->child > 0)
		ret = synthesize_comm(&t, rec->child, rec->child, "perf-exec", false);
	if (!ret && rec->opts.system_wide)
		ret = synthesize_all_threads(&t);
	else
		for (int i = 0; i < nr_pids && !ret; i++)
			ret = synthesize_thread(&t, pids[i]);
	if (!ret)
		ret = synthesize_empty(&t, PERF_RECORD_FINISHED_INIT);
	return ret;
}

static pid_t tgid_of(pid_t tid)
{
	char path[64], *s, *p;
	pid_t tgid = tid;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	s = read_file(path, NULL);
	if (s && (p = strstr(s, "\nTgid:")))
		tgid = (pid_t)strtol(p + 6, NULL, 10);
	free(s);
	return tgid;
}

static void print_lost_warnings(struct record *rec)
{
	if (quiet)
		return;
	if (rec->lost_chunks)
		fprintf(stderr, "Warning:\nProcessed %llu events and lost %llu chunks!\n\nCheck IO/CPU overload!\n\n",
			(unsigned long long)(rec->samples + rec->lost_chunks),
			(unsigned long long)rec->lost_chunks);
	if (rec->lost_samples) {
		double pct = 100.0 * rec->lost_samples / (double)(rec->samples + rec->lost_samples);

		fprintf(stderr, "Warning:\nProcessed %llu samples and lost %3.2f%%  samples!\n\n",
			(unsigned long long)rec->samples, pct);
	}
}

static int __cmd_record(struct record *rec, int argc, const char **argv, int rec_argc,
			const char **rec_argv)
{
	struct evlist *el = &rec->evlist;
	struct cpu_map *cpus = NULL;
	pid_t *threads = NULL, *pids = NULL;
	int nr_threads = 0, nr_pids = 0, err = -1, exec_err = 0;
	sigset_t block, orig;
	struct sigaction sa;
	void *tdata = NULL;
	size_t tdata_size = 0;
	bool pipe = rec->opts.pipe;

	/* targets */
	if (rec->pid_list || rec->tid_list) {
		pid_t *ids;
		int n;

		if (parse_pid_list(rec->pid_list ? rec->pid_list : rec->tid_list, &ids, &n)) {
			pr_err("invalid %s list '%s'\n", rec->pid_list ? "--pid" : "--tid",
			       rec->pid_list ? rec->pid_list : rec->tid_list);
			return -1;
		}
		for (int i = 0; i < n; i++) {
			char path[64];

			snprintf(path, sizeof(path), "/proc/%d", (int)ids[i]);
			if (access(path, F_OK)) {
				pr_err("The %s %d does not exist\n", rec->pid_list ? "process" : "thread", (int)ids[i]);
				free(ids);
				goto out;
			}
			if (rec->pid_list) {
				int nt = 0;
				pid_t *t = thread_list__from_pid(ids[i], &nt);

				if (!t)
					continue;
				threads = xrealloc(threads, (nr_threads + nt) * sizeof(pid_t));
				memcpy(threads + nr_threads, t, nt * sizeof(pid_t));
				nr_threads += nt;
				free(t);
				pids = xrealloc(pids, (nr_pids + 1) * sizeof(pid_t));
				pids[nr_pids++] = ids[i];
			} else {
				pid_t tg = tgid_of(ids[i]);
				bool seen = false;

				threads = xrealloc(threads, (nr_threads + 1) * sizeof(pid_t));
				threads[nr_threads++] = ids[i];
				for (int k = 0; k < nr_pids; k++)
					seen |= pids[k] == tg;
				if (!seen) {
					pids = xrealloc(pids, (nr_pids + 1) * sizeof(pid_t));
					pids[nr_pids++] = tg;
				}
			}
		}
		free(ids);
		/* per CPU like perf: inherited per-task rings need a CPU */
		cpus = cpu_map__new_online();
	} else if (rec->opts.system_wide) {
		cpus = cpu_map__new_online();
		threads = xmalloc(sizeof(pid_t));
		threads[0] = -1;
		nr_threads = 1;
	} else {
		cpus = cpu_map__new_online();
	}

	/* signals: blocked except while waiting in ppoll, so none is missed */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &orig);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sig_handler;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);

	if (argc > 0) {
		if (record__prepare_workload(rec, argv, &orig))
			goto out;
		if (!rec->opts.system_wide && !rec->opts.per_thread) {
			threads = xmalloc(sizeof(pid_t));
			threads[0] = rec->child;
			nr_threads = 1;
		}
	}

	evlist__set_targets(el, cpus, threads, nr_threads);
	if (evlist__open(el) || evlist__mmap(el, (size_t)rec->mmap_pages))
		goto out;

	/* the time field sits after IDENTIFIER?, IP, TID in every sample */
	rec->time_pos = ((evlist__sample_type(el) & PERF_SAMPLE_IDENTIFIER) ? 8 : 0) + 16;

	if (!pipe && backup_output(rec->output))
		goto out;
	if (perf_data_writer__open(&rec->writer, pipe ? "-" : rec->output, false) < 0)
		goto out;
	rec->writer_open = true;
	for (size_t i = 0; i < el->nr; i++) {
		struct evsel_rec *e = &el->entries[i];
		uint64_t *ids = xmalloc((e->nr_ids + 1) * sizeof(uint64_t));
		size_t n = 0;

		for (size_t k = 0; k < e->nr_ids; k++)
			if (e->fds[k] >= 0)
				ids[n++] = e->ids[k];
		perf_data_writer__add_attr(&rec->writer, &e->attr, ids, n, e->name);
		free(ids);
	}
	header__write_env_features(&rec->writer, rec_argc, rec_argv);
	if (rec->opts.use_clockid)
		header__write_clock_features(&rec->writer, rec->opts.clockid);
	{
		int t = record__tracing_data(rec, &tdata, &tdata_size);

		if (t < 0)
			goto out;
		if (t > 0 && !pipe)
			perf_data_writer__set_feature(&rec->writer, HEADER_TRACING_DATA, tdata, tdata_size);
	}
	if (pipe) {
		/* pipe mode has no place for SAMPLE_TIME/BUILD_ID at the end */
		rec->track_hits = false;
	}
	if (perf_data_writer__start(&rec->writer) < 0)
		goto out;
	if (pipe && tdata) {
		size_t padded = ALIGN_UP(tdata_size, 8);
		struct perf_record_header_tracing_data td = {
			.header = { .type = PERF_RECORD_HEADER_TRACING_DATA, .size = sizeof(td) },
			.size = (uint32_t)padded,
		};
		unsigned char *payload = xzalloc(padded);

		memcpy(payload, tdata, tdata_size);
		record__write(rec, &td, sizeof(td));
		record__write(rec, payload, padded);
		free(payload);
	}
	/* before the maps are read: the agent's marker mapping and replayed code exist by then */
	if (rec->jit_attach && !(rec->jvms = jvm_attach__many(pids, nr_pids, "dir=/tmp,record")))
		goto out;
	if (record__synthesize(rec, pids, nr_pids))
		goto out;

	if (rec->opts.system_wide || rec->opts.per_thread || argc == 0)
		evlist__enable(el);
	if (argc > 0) {
		exec_err = record__start_workload(rec);
		if (exec_err) {
			pr_err("Failed to collect '%s' for the '%s' workload: %s\n", el->entries[0].name,
			       argv[0], strerror(exec_err));
			record__reap_child(rec, false);
			done = 1;
		}
	}

	while (!done) {
		int64_t n = record__drain(rec);

		if (n < 0)
			break;
		if (child_done || done)
			break;
		if (n == 0) {
			record__poll(rec, &orig);
		} else {
			/* busy rings never reach ppoll: let pending signals in here */
			sigprocmask(SIG_SETMASK, &orig, NULL);
			sigprocmask(SIG_BLOCK, &block, NULL);
		}
	}
	jvm_attach__stop_many(rec->jvms);
	free(rec->jvms);
	rec->jvms = NULL;
	evlist__disable(el);
	if (rec->child > 0)
		record__reap_child(rec, !child_done);
	record__drain(rec);
	record__read_lost_samples(rec);

	/* like perf, a failed exec gets only its error line */
	if (!quiet && !exec_err)
		fprintf(stderr, "[ perf record: Woken up %u times to write data ]\n", rec->wakeups);
	print_lost_warnings(rec);

	if (!pipe) {
		if (rec->first_time)
			header__write_sample_time(&rec->writer, rec->first_time, rec->last_time);
		if (rec->track_hits)
			record__write_build_ids(rec);
	}
	rec->writer_open = false;
	if (perf_data_writer__close(&rec->writer) < 0) {
		pr_err("failed to finish %s\n", rec->output);
		goto out;
	}
	if (!pipe) {
		char line[1024];

		jit_save__finish(rec->jsave, rec->output, line, sizeof(line));
		if (line[0] && !quiet)
			fprintf(stderr, "%s\n", line);
	}
	if (!quiet && !exec_err) {
		if (pipe) {
			fprintf(stderr, "[ perf record: Captured and wrote %.3f MB - ]\n",
				rec->bytes_written / 1024.0 / 1024.0);
		} else {
			struct stat st;
			double mb = stat(rec->output, &st) ? 0 : st.st_size / 1024.0 / 1024.0;

			fprintf(stderr, "[ perf record: Captured and wrote %.3f MB %s (%llu samples) ]\n", mb,
				rec->output, (unsigned long long)rec->samples);
		}
	}
	if (exec_err)
		err = 255;
	else if (rec->child > 0 && rec->child_reaped) {
		if (WIFEXITED(rec->child_status))
			err = WEXITSTATUS(rec->child_status);
		else if (WIFSIGNALED(rec->child_status))
			err = 128 + WTERMSIG(rec->child_status);
		else
			err = 0;
	} else
		err = 0;
out:
	jvm_attach__stop_many(rec->jvms);
	free(rec->jvms);
	if (rec->writer_open)
		perf_data_writer__close(&rec->writer);
	if (rec->child > 0 && !rec->child_reaped) {
		if (rec->go_fd >= 0)
			close(rec->go_fd);   /* the child sees EOF and exits */
		rec->go_fd = -1;
		record__reap_child(rec, true);
	}
	free(tdata);
	free(threads);
	free(pids);
	evlist__close(el);
	cpu_map__delete(cpus);
	el->cpus = NULL;
	sigprocmask(SIG_SETMASK, &orig, NULL);
	return err;
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
		OPT_CALLBACK('F', "freq", &rec, "freq or 'max'", "profile at this frequency", parse_freq_option),
		OPT_CALLBACK('c', "count", &rec, "n", "event period to sample", parse_count_option),
		OPT_BOOLEAN('a', "all-cpus", &rec.opts.system_wide, "system-wide collection from all CPUs"),
		OPT_STRING('p', "pid", &rec.pid_list, "pid", "record events on existing process id(s)"),
		OPT_STRING('t', "tid", &rec.tid_list, "tid", "record events on existing thread id(s)"),
		OPT_BOOLEAN('g', NULL, &callchain, "enables call-graph (frame pointer) recording"),
		OPT_CALLBACK(0, "call-graph", &rec, "record_mode[,record_size]",
			     "setup and enables call-graph (stack chain/backtrace): fp, dwarf[,size] (default 8192)",
			     parse_call_graph_option),
		OPT_BOOLEAN('i', "no-inherit", &rec.opts.no_inherit, "child tasks do not inherit counters"),
		OPT_CALLBACK('k', "clockid", &rec, "clockid", "clockid to use for events, see clock_gettime()",
			     parse_clockid_option),
		OPT_CALLBACK('m', "mmap-pages", &rec, "pages", "number of mmap data pages (a power of two)",
			     parse_pages_option),
		OPT_STRING('o', "output", &rec.output, "file", "output file name ('-' for a pipe)"),
		OPT_BOOLEAN('B', "no-buildid", &rec.no_buildid, "do not collect buildids in perf.data"),
		OPT_BOOLEAN(0, "jit", &rec.jit_attach,
			    "with -p: load the JVMTI agent into the JVM(s), stop it at the end (then perf inject --jit)"),
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
	rec.output = "perf.data";
	rec.mmap_pages = DEFAULT_MMAP_PAGES;
	rec.opts.freq = DEFAULT_FREQ;
	rec.go_fd = rec.exec_err_fd = -1;
	done = child_done = signr = 0;

	argc = parse_options(argc, argv, options, record_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		return 129;
	if (verbose_q)
		quiet = 1;
	if (rec.pid_list && rec.tid_list) {
		pr_err("--pid and --tid cannot be used together\n");
		return 129;
	}
	if (rec.opts.user_freq && rec.opts.user_period) {
		pr_err("--freq and --count cannot be used together\n");
		return 129;
	}
	if ((rec.pid_list || rec.tid_list) && rec.opts.system_wide) {
		pr_err("--pid/--tid and --all-cpus cannot be used together\n");
		return 129;
	}
	if (rec.jit_attach && !rec.pid_list) {
		pr_err("--jit needs -p PID of a running JVM\n");
		return 129;
	}
	if (!rec.output || !*rec.output) {
		pr_err("empty --output file name\n");
		return 129;
	}
	rec.opts.pipe = !strcmp(rec.output, "-");
	if (callchain)
		rec.opts.callchain = true;
	rec.opts.workload = argc > 0;
	rec.opts.per_thread = rec.pid_list || rec.tid_list;
	if (rec.tid_list)
		rec.opts.no_inherit = true;
	/* nothing to run and nothing to attach to: the whole system, like perf */
	if (argc == 0 && !rec.opts.per_thread)
		rec.opts.system_wide = true;

	if (!rec.opts.user_period) {
		unsigned max = max_sample_rate();

		if (max && rec.opts.freq > max) {
			if (!quiet)
				fprintf(stderr,
					"warning: Maximum frequency rate (%u Hz) exceeded, throttling from %llu Hz to %u Hz.\n"
					"         The limit can be raised via /proc/sys/kernel/perf_event_max_sample_rate.\n"
					"         The kernel will lower it when perf's interrupts take too long.\n",
					max, (unsigned long long)rec.opts.freq, max);
			rec.opts.freq = max;
		}
	}

	if (record__parse_events(&rec, argc > 0 ? argv[0] : NULL) < 0) {
		sdt_record__cleanup(&rec.sdt);
		free(rec.event_strs);
		return 129;
	}
	evlist__init(&rec.evlist);
	if (rec.nr_events == 0) {
		/* perf's default: the most precise cycles, cpu-clock without a PMU */
		struct parsed_event pe;

		memset(&pe, 0, sizeof(pe));
		pe.attr.type = PERF_TYPE_HARDWARE;
		pe.attr.config = PERF_COUNT_HW_CPU_CYCLES;
		pe.attr.precise_ip = 3;
		pe.name = (char *)"cycles:P";
		evlist__add(&rec.evlist, &pe, false);
	} else {
		for (size_t i = 0; i < rec.nr_events; i++)
			evlist__add(&rec.evlist, &rec.events[i], true);
	}
	evlist__config(&rec.evlist, &rec.opts);

	rec.track_hits = !rec.no_buildid;
	machine__init(&rec.machine);
	rec.jsave = jit_save__new();
	ret = __cmd_record(&rec, argc, argv, rec_argc, rec_argv);
	jit_save__delete(rec.jsave);
	/* every perf fd is closed by now, so the uprobes are free to go */
	sdt_record__cleanup(&rec.sdt);
	free(rec.event_strs);
	machine__exit(&rec.machine);
	evlist__exit(&rec.evlist);
	for (size_t i = 0; i < rec.nr_events; i++)
		parsed_event__exit(&rec.events[i]);
	free(rec.events);
	free(rec_argv);

	/* a workload killed by a signal: die the same way, like perf */
	if (ret > 128 && ret < 128 + 65 && rec.child > 0 && WIFSIGNALED(rec.child_status)) {
		signal(ret - 128, SIG_DFL);
		raise(ret - 128);
	}
	/* no workload: an interrupted recording ends by that signal, like perf */
	if (ret == 0 && rec.child <= 0 && signr) {
		signal(signr, SIG_DFL);
		raise(signr);
	}
	return ret < 0 ? 1 : ret;
}
