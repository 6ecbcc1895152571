// SPDX-License-Identifier: MIT
/*
 * Tracepoint formats against perf 6.1: decode the raw samples of a
 * `perf record -e sched:sched_switch` recording made by /usr/bin/perf with
 * our TRACING_DATA parser and print-fmt evaluator, and compare every line
 * with `perf script -F trace`; rebuild TRACING_DATA for the same ids and
 * compare it byte for byte with perf 6.1's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "tests.h"
#include "trace-event-perf61.h"
#include "util/debug.h"
#include "util/strbuf.h"
#include "util/trace-event.h"
#include "util/util.h"

#define REF_PERF "/usr/bin/perf"

/*
 * Just enough of a file-mode perf.data reader (perf-data.md §1, §4.2) to
 * reach the tracing data and the raw payloads; kept here so this test
 * checks trace-event.c alone.
 */
int tp_data__load_file(struct tp_data *d, const char *path)
{
	const unsigned char *p;
	uint64_t attr_size, attrs_off, attrs_sz, data_off, data_sz, feats;

	memset(d, 0, sizeof(*d));
	d->buf = (unsigned char *)read_file(path, &d->size);
	if (!d->buf || d->size < 104 || memcmp(d->buf, "PERFILE2", 8))
		return -1;
	p = d->buf;
	memcpy(&attr_size, p + 16, 8);
	memcpy(&attrs_off, p + 24, 8);
	memcpy(&attrs_sz, p + 32, 8);
	memcpy(&data_off, p + 40, 8);
	memcpy(&data_sz, p + 48, 8);
	memcpy(&feats, p + 72, 8);
	if (attr_size < sizeof(struct perf_event_attr) + 16 || data_off + data_sz > d->size ||
	    attrs_off + attrs_sz > d->size)
		return -1;
	for (uint64_t off = attrs_off; off + attr_size <= attrs_off + attrs_sz && d->nr_attrs < TP_MAX_ATTRS;
	     off += attr_size) {
		struct tp_attr *a = &d->attrs[d->nr_attrs++];
		uint64_t ids_off, ids_sz;

		memcpy(&a->attr, p + off, sizeof(a->attr));
		memcpy(&ids_off, p + off + attr_size - 16, 8);
		memcpy(&ids_sz, p + off + attr_size - 8, 8);
		a->nr_ids = MIN(ids_sz / 8, (uint64_t)TP_MAX_IDS);
		if (ids_off + a->nr_ids * 8 <= d->size)
			memcpy(a->ids, p + ids_off, a->nr_ids * 8);
	}
	d->data = p + data_off;
	d->data_size = data_sz;
	if (feats & 2) {      /* feature 1 is the first section after the data */
		uint64_t fo, fs;

		memcpy(&fo, p + data_off + data_sz, 8);
		memcpy(&fs, p + data_off + data_sz + 8, 8);
		if (fo + fs <= d->size) {
			d->tracing_data = p + fo;
			d->tracing_data_size = fs;
		}
	}
	return 0;
}

static const struct tp_attr *attr_of(const struct tp_data *d, uint64_t id)
{
	for (size_t i = 0; i < d->nr_attrs; i++)
		for (size_t j = 0; j < d->attrs[i].nr_ids; j++)
			if (d->attrs[i].ids[j] == id)
				return &d->attrs[i];
	return d->nr_attrs == 1 ? &d->attrs[0] : NULL;
}

/*
 * Next SAMPLE's attr and raw payload. Needs IDENTIFIER (perf 6.1 sets it
 * with more than one event) or a single attr.
 */
int tp_data__next_raw(struct tp_data *d, const struct tp_attr **attr, const void **raw, uint32_t *raw_size,
		      uint64_t *time)
{
	while (d->pos + 8 <= d->data_size) {
		const unsigned char *ev = d->data + d->pos;
		struct perf_event_header h;
		const unsigned char *q, *end;
		uint64_t st, id = 0;
		const struct tp_attr *a;

		memcpy(&h, ev, sizeof(h));
		if (h.size < 8 || d->pos + h.size > d->data_size)
			return -1;
		d->pos += h.size;
		if (h.type != PERF_RECORD_SAMPLE)
			continue;
		q = ev + 8;
		end = ev + h.size;
		if (d->nr_attrs > 1) {
			if (!(d->attrs[0].attr.sample_type & PERF_SAMPLE_IDENTIFIER))
				return -1;
			memcpy(&id, q, 8);
		}
		a = attr_of(d, id);
		if (!a)
			continue;
		st = a->attr.sample_type;
		*time = 0;
		if (st & PERF_SAMPLE_TIME)
			memcpy(time, q + 8 * (!!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_IP) +
					      !!(st & PERF_SAMPLE_TID)), 8);
		q += 8 * !!(st & PERF_SAMPLE_IDENTIFIER) + 8 * !!(st & PERF_SAMPLE_IP) +
		     8 * !!(st & PERF_SAMPLE_TID) + 8 * !!(st & PERF_SAMPLE_TIME) +
		     8 * !!(st & PERF_SAMPLE_ADDR) + 8 * !!(st & PERF_SAMPLE_ID) +
		     8 * !!(st & PERF_SAMPLE_STREAM_ID) + 8 * !!(st & PERF_SAMPLE_CPU) +
		     8 * !!(st & PERF_SAMPLE_PERIOD);
		if (st & (PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN))
			return -1;     /* not produced by the recordings these tests make */
		if (!(st & PERF_SAMPLE_RAW) || q + 4 > end)
			continue;
		memcpy(raw_size, q, 4);
		if (q + 4 + *raw_size > end)
			return -1;
		*raw = q + 4;
		*attr = a;
		return 1;
	}
	return 0;
}

void tp_data__free(struct tp_data *d)
{
	free(d->buf);
	memset(d, 0, sizeof(*d));
}

int tp_run(const char *cmd)
{
	int rc = system(cmd);

	if (rc)
		pr_debug("'%s' exited with %d\n", cmd, rc);
	return rc;
}

struct decoded {
	uint64_t time;
	int seq;
	char *text;
	const struct trace_format *fmt;
};

/* perf script prints in time order; equal times keep file order */
static int cmp_decoded(const void *a, const void *b)
{
	const struct decoded *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq - y->seq;
}

/*
 * Compares our decoding of every raw sample of @data with the lines of
 * `perf script -F trace` in @script_out. Returns the number of samples,
 * or -1 when the files cannot be read; *mismatches counts differing lines.
 */
int tp_compare_with_script(const char *data, const char *script_out, int *mismatches)
{
	struct tp_data d;
	struct trace_formats *tf;
	struct decoded *dec = NULL;
	FILE *f;
	char *line = NULL;
	size_t cap = 0, dec_cap = 0;
	int n = 0, r;
	const struct tp_attr *a;
	const void *raw;
	uint32_t rsz;
	uint64_t t;

	*mismatches = 0;
	if (tp_data__load_file(&d, data) || !d.tracing_data) {
		fprintf(stderr, "cannot read %s\n", data);
		tp_data__free(&d);
		return -1;
	}
	tf = trace_formats__parse(d.tracing_data, d.tracing_data_size);
	f = fopen(script_out, "r");
	if (!tf || !f) {
		if (f)
			fclose(f);
		trace_formats__delete(tf);
		tp_data__free(&d);
		return -1;
	}
	while ((r = tp_data__next_raw(&d, &a, &raw, &rsz, &t)) == 1) {
		const struct trace_format *fmt = trace_formats__find(tf, a->attr.config);
		int len;

		GROW_ARRAY(dec, (size_t)n + 1, dec_cap);
		dec[n].time = t;
		dec[n].seq = n;
		dec[n].fmt = fmt;
		if (!fmt) {
			dec[n].text = xasprintf("<no format for id %llu>", (unsigned long long)a->attr.config);
		} else {
			len = trace_formats__print_raw(tf, fmt, raw, rsz, NULL, 0);
			dec[n].text = xmalloc(len > 0 ? len + 1 : 16);
			if (len < 0)
				strcpy(dec[n].text, "<short record>");
			else
				trace_formats__print_raw(tf, fmt, raw, rsz, dec[n].text, len + 1);
		}
		n++;
	}
	if (n)
		qsort(dec, n, sizeof(*dec), cmp_decoded);
	for (int i = 0; i < n; i++) {
		ssize_t len = getline(&line, &cap, f);
		const char *ref;

		if (len < 0) {
			fprintf(stderr, "perf script printed fewer lines (%d) than there are samples (%d)\n", i, n);
			(*mismatches)++;
			break;
		}
		/* perf 6.1 pads -F trace lines on both sides */
		while (len && (line[len - 1] == '\n' || line[len - 1] == ' '))
			line[--len] = 0;
		for (ref = line; *ref == ' '; ref++)
			;
		if (strcmp(dec[i].text, ref)) {
			if (*mismatches < 5)
				fprintf(stderr, "sample %d (%s:%s):\n  perf 6.1: %s\n  ours:     %s\n", i,
					dec[i].fmt ? dec[i].fmt->system : "?", dec[i].fmt ? dec[i].fmt->name : "?",
					ref, dec[i].text);
			(*mismatches)++;
		}
	}
	if (r < 0)
		n = -1;
	for (int i = 0; i < n; i++)
		free(dec[i].text);
	free(dec);
	free(line);
	fclose(f);
	trace_formats__delete(tf);
	tp_data__free(&d);
	return n;
}

/*
 * The payload part after header_event up to (not including) the
 * saved_cmdlines, i.e. everything that does not change from run to run.
 */
static size_t stable_prefix(const unsigned char *p, size_t size)
{
	/* saved_cmdlines is last: size8 + text (ASCII, so no false match inside it) */
	for (size_t off = size >= 8 ? size - 8 : 0; size >= 8; off--) {
		uint64_t sz;

		memcpy(&sz, p + off, 8);
		if (sz == size - off - 8)
			return off;
		if (!off)
			break;
	}
	return size;
}

/*
 * Records @events with perf 6.1 around @workload, then (1) decodes every
 * sample and compares with `perf script -F trace`, (2) rebuilds the
 * TRACING_DATA for the same ids and compares it byte for byte (all but the
 * saved_cmdlines, which change while tracing runs), (3) parses it back.
 */
static int check_recording(const char *events, const char *workload)
{
	char cmd[1024];
	struct tp_data d;
	void *ours = NULL;
	size_t ours_size = 0;
	int n, bad;
	uint64_t ids[TP_MAX_ATTRS];
	size_t nr = 0;

	if (access(REF_PERF, X_OK)) {
		fprintf(stderr, "SKIP: perf 6.1 not installed\n");
		return TEST_SKIP;
	}
	snprintf(cmd, sizeof(cmd), REF_PERF " record -q -o tp.data %s -a -- %s >/dev/null 2>&1",
		 events, workload);
	if (tp_run(cmd)) {
		fprintf(stderr, "SKIP: perf 6.1 cannot record %s here\n", events);
		return TEST_SKIP;
	}
	TEST_ASSERT_VAL("perf script -F trace",
			!tp_run(REF_PERF " script -i tp.data -F trace > tp.txt 2>/dev/null"));
	n = tp_compare_with_script("tp.data", "tp.txt", &bad);
	TEST_ASSERT_VAL("samples decoded", n > 0);
	fprintf(stderr, "%d samples compared with perf 6.1 script, %d differ\n", n, bad);
	TEST_ASSERT_EQUAL("lines differing from perf 6.1", bad, 0);

	TEST_ASSERT_VAL("load", !tp_data__load_file(&d, "tp.data"));
	for (size_t i = 0; i < d.nr_attrs; i++)
		if (d.attrs[i].attr.type == PERF_TYPE_TRACEPOINT && nr < TP_MAX_ATTRS)
			ids[nr++] = d.attrs[i].attr.config;
	TEST_ASSERT_VAL("build", !trace_event__build_tracing_data(ids, nr, &ours, &ours_size));
	{
		size_t a = stable_prefix(d.tracing_data, d.tracing_data_size);
		size_t b = stable_prefix(ours, ours_size);

		fprintf(stderr, "TRACING_DATA perf 6.1 %llu bytes, ours %zu; compared %zu / %zu\n",
			(unsigned long long)d.tracing_data_size, ours_size, a, b);
		TEST_ASSERT_EQUAL("size before saved_cmdlines", b, a);
		for (size_t i = 0; i < a; i++) {
			if (((const unsigned char *)ours)[i] != d.tracing_data[i]) {
				fprintf(stderr, "first difference at byte %zu\n", i);
				free(ours);
				tp_data__free(&d);
				return TEST_FAIL;
			}
		}
	}
	{
		struct trace_formats *tf = trace_formats__parse(ours, ours_size);

		TEST_ASSERT_VAL("parse ours", tf);
		TEST_ASSERT_EQUAL("formats", tf->nr_formats, nr);
		for (size_t i = 0; i < nr; i++)
			TEST_ASSERT_VAL("find id", trace_formats__find(tf, ids[i]));
		trace_formats__delete(tf);
	}
	free(ours);
	tp_data__free(&d);
	return TEST_OK;
}

static int test__sched_vs_perf61(void)
{
	return check_recording("-e sched:sched_switch -e sched:sched_wakeup -e sched:sched_process_exec",
			       "sleep 0.2");
}

/*
 * Several systems (their order in the payload is tracefs directory order),
 * flags, symbolic values, %pS/%ps, casts, __data_loc strings.
 * timer:timer_start is left out: perf 6.1 prints its flags wrongly (see
 * Documentation/perf-list.txt, "Differences from perf 6.1").
 */
static int test__systems_vs_perf61(void)
{
	return check_recording("-e syscalls:sys_enter_openat -e syscalls:sys_exit_openat "
			       "-e timer:hrtimer_start -e irq:softirq_entry -e kmem:kmalloc "
			       "-e signal:signal_generate -e sched:sched_process_exit "
			       "-e sched:sched_process_fork -e workqueue:workqueue_queue_work",
			       "sh -c 'sleep 0.1; ls /nonexistent; kill -0 $$'");
}

DEFINE_SUITE("Tracepoint formats: sched samples and TRACING_DATA as perf 6.1", test__sched_vs_perf61);
DEFINE_SUITE("Tracepoint formats: several systems decoded and written as perf 6.1", test__systems_vs_perf61);
