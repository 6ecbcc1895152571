// SPDX-License-Identifier: MIT
/*
 * perf.data, three ways per input:
 *  1. the reader on a regular file (mmap path; pipe-format files too),
 *  2. the reader on a real pipe as stdin (the read()-ahead path),
 *  3. the session on the file and on the pipe: evsels, id map, ordered
 *     queue, machine model, sample parsing, tracepoint formats and their
 *     print fmt.
 * Feature payloads are decoded as `perf report --header` would.
 */
#include <errno.h>
#include "fuzz-util.h"
#include "util/data.h"
#include "util/header.h"
#include "util/machine.h"
#include "util/sample.h"
#include "util/session.h"
#include "util/trace-event.h"

static volatile uint64_t sink;

static void read_all(const char *path)
{
	struct perf_data_reader r;
	union perf_event *ev;
	uint64_t off;
	int ret;

	if (perf_data_reader__open(&r, path) < 0)
		return;
	for (size_t i = 0; i < r.nr_attrs; i++)
		sink += r.attrs[i].nr_ids ? r.attrs[i].ids[r.attrs[i].nr_ids - 1] : 0;
	while ((ret = perf_data_reader__next(&r, &ev, &off)) > 0) {
		sink += ev->header.type + ev->header.size + off;
		/* the reader promises size >= 8 and the whole record readable */
		sink += ((const unsigned char *)ev)[ev->header.size - 1];
		if (ev->header.type == PERF_RECORD_HEADER_TRACING_DATA && r.tail_size)
			sink += r.tail_buf[r.tail_size - 1];
	}
	if (perf_data_reader__has_feat(&r, HEADER_BUILD_ID)) {
		struct build_id_entry *e;
		size_t nr;

		if (!build_id__decode(r.feat[HEADER_BUILD_ID].data, r.feat[HEADER_BUILD_ID].size, &e, &nr)) {
			for (size_t i = 0; i < nr; i++)
				sink += strlen(e[i].filename) + e[i].size;
			build_id__free_entries(e, nr);
		}
	}
	if (perf_data_reader__has_feat(&r, HEADER_EVENT_DESC)) {
		struct event_desc *d;
		size_t nr;

		if (!event_desc__decode(r.feat[HEADER_EVENT_DESC].data, r.feat[HEADER_EVENT_DESC].size, &d, &nr)) {
			for (size_t i = 0; i < nr; i++)
				sink += (d[i].name ? strlen(d[i].name) : 0) + d[i].nr_ids;
			event_desc__free(d, nr);
		}
	}
	perf_data_reader__close(&r);
}

/* The input through a pipe on stdin; the pipe is made big enough to hold
 * all of it, so no writer thread is needed (max_len <= 1 MiB). */
static void with_stdin_pipe(const uint8_t *data, size_t size, void (*fn)(const char *path, bool arg),
			    bool arg)
{
	int p[2], saved;
	size_t done = 0;

	if (pipe2(p, O_CLOEXEC))
		abort();
	if (size > 65536 && fcntl(p[1], F_SETPIPE_SZ, (int)size) < 0) {
		close(p[0]);
		close(p[1]);
		return;
	}
	while (done < size) {
		ssize_t n = write(p[1], data + done, size - done);

		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	close(p[1]);
	saved = dup(STDIN_FILENO);
	dup2(p[0], STDIN_FILENO);
	close(p[0]);
	fn("-", arg);
	dup2(saved, STDIN_FILENO);
	close(saved);
}

static void read_all_cb(const char *path, bool unused)
{
	read_all(path);
}

static int on_sample(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
		     struct perf_sample *sample, struct evsel *evsel)
{
	struct thread *t = machine__find_thread(&s->machine, (int32_t)sample->tid);
	char out[256];

	if (t)
		sink += (uintptr_t)machine__find_map(&s->machine, t, sample->cpumode, sample->ip);
	if (sample->callchain)
		for (uint64_t i = 0; i < sample->callchain->nr; i++)
			sink += sample->callchain->ips[i];
	if (sample->user_stack_size)
		sink += ((const unsigned char *)sample->user_stack)[sample->user_stack_size - 1];
	if (evsel && evsel->attr.type == PERF_TYPE_TRACEPOINT && sample->raw_data) {
		struct trace_formats *tf = perf_session__trace_formats(s);
		const struct trace_format *fmt = tf ? trace_formats__find(tf, evsel->attr.config) : NULL;

		if (fmt)
			sink += trace_formats__print_raw(tf, fmt, sample->raw_data, sample->raw_size,
							 out, sizeof(out));
	}
	return 0;
}

static int on_other(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
		    struct perf_sample *sample)
{
	sink += ev->header.type;
	return 0;
}

static void run_session(const char *path, bool ordered)
{
	struct perf_tool tool = { .sample = on_sample, .other = on_other, .no_ordering = !ordered };
	struct perf_session *s = perf_session__open(path);

	if (!s)
		return;
	perf_session__process_events(s, &tool);
	sink += s->nr_lost_samples + s->nr_unknown;
	perf_session__delete(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_file f;

	if (size > (1 << 20))
		return 0;
	fuzz_file__open(&f, data, size);
	read_all(f.path);
	with_stdin_pipe(data, size, read_all_cb, false);
	/* ordered and in file order take different paths through the queue;
	 * from a pipe, records are copied instead of pointing into the map */
	run_session(f.path, size & 1 ? false : true);
	with_stdin_pipe(data, size, run_session, size & 2 ? false : true);
	fuzz_file__close(&f);
	return 0;
}
