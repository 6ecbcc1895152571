// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "build-id.h"
#include "compress.h"
#include "debug.h"
#include "record-features.h"
#include "jit-save.h"
#include "record-output.h"
#include "sample.h"
#include "synthetic-events.h"
#include "util.h"
#include "vdso.h"

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

int record_output__open(struct record_output *o, const char *path, struct evlist *el,
			bool track_hits, int comp_level, size_t mmap_pages)
{
	memset(o, 0, sizeof(*o));
	machine__init(&o->machine);
	o->jsave = jit_save__new();
	o->path = path;
	o->pipe = !strcmp(path, "-");
	o->evlist = el;
	/*
	 * Pipe mode has no place for BUILD_ID at the end. With -z perf 6.1
	 * leaves it out as well: a [vdso] build-id would send perf 6.1 to a
	 * build-id cache that perf record -z did not fill, so the vdso's
	 * symbols would be lost to it.
	 */
	o->track_hits = track_hits && !o->pipe && !comp_level;
	o->comp_level = comp_level;
	o->mmap_pages = mmap_pages;
	/* the time field sits after IDENTIFIER?, IP, TID in every sample */
	o->time_pos = ((evlist__sample_type(el) & PERF_SAMPLE_IDENTIFIER) ? 8 : 0) + 16;

	if (!o->pipe && backup_output(path))
		return -1;
	if (perf_data_writer__open(&o->writer, path, false) < 0)
		return -1;
	o->open = true;
	for (size_t i = 0; i < el->nr; i++) {
		struct evsel *e = &el->entries[i];
		uint64_t *ids = xmalloc((e->nr_ids + 1) * sizeof(uint64_t));
		size_t n = 0;

		for (size_t k = 0; k < e->nr_ids; k++)
			if (e->fds[k] >= 0)
				ids[n++] = e->ids[k];
		perf_data_writer__add_attr(&o->writer, &e->attr, ids, n, e->name);
		free(ids);
	}
	if (comp_level) {
		o->zc = perf_compressor__new(comp_level);
		if (!o->zc)
			return -1;
	}
	return 0;
}

/* HEADER_COMPRESSED: the ratio is known at the end (file) or not at all (pipe: 0) */
static void set_comp_feature(struct record_output *o)
{
	struct perf_comp_feature f = {
		.version = PERF_COMP_VERSION,
		.type = PERF_COMP_ZSTD,
		.level = (uint32_t)o->comp_level,
		/* perf 6.1's reader sizes its buffer by this: the ring, header page included */
		.mmap_len = (uint32_t)((o->mmap_pages + 1) * sysconf(_SC_PAGESIZE)),
	};
	unsigned char payload[20];
	uint64_t in, out;

	perf_compressor__totals(o->zc, &in, &out);
	if (in && out)
		f.ratio = (uint32_t)((double)in / (double)out + 0.5);
	perf_comp_feature__encode(&f, payload);
	perf_data_writer__set_feature(&o->writer, HEADER_COMPRESSED, payload, sizeof(payload));
}

int record_output__start(struct record_output *o)
{
	/* pipe mode sends features at start; a file gets the final ratio at the end */
	if (o->zc && o->pipe)
		set_comp_feature(o);
	return perf_data_writer__start(&o->writer);
}

int record_output__write(struct record_output *o, const void *buf, size_t size)
{
	if (perf_data_writer__write(&o->writer, buf, size) < 0) {
		pr_err("failed to write perf data to %s: %s\n", o->path, strerror(errno));
		o->failed = true;
		return -1;
	}
	o->bytes_written += size;
	return 0;
}

static bool is_side_band(uint32_t type)
{
	return type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2 || type == PERF_RECORD_COMM ||
	       type == PERF_RECORD_FORK || type == PERF_RECORD_EXIT;
}

int record_output__synth(void *arg, const union perf_event *ev)
{
	struct record_output *o = arg;

	if (o->track_hits && is_side_band(ev->header.type))
		machine__process_event(&o->machine, ev, NULL);
	jit_save__event(o->jsave, ev);
	return record_output__write(o, ev, ev->header.size);
}

int record_output__synthesize(struct record_output *o, pid_t child, const pid_t *pids, int nr_pids,
			      bool system_wide)
{
	struct synth_target t = {
		.process = record_output__synth,
		.arg = o,
		.id_hdr_size = sample_id_hdr__size(evlist__sample_type(o->evlist)),
	};
	int ret;

	ret = perf_event__synthesize_id_index(&t, o->evlist);
	if (!ret)
		ret = perf_event__synthesize_kernel_mmap(&t);
	if (!ret)
		ret = perf_event__synthesize_thread_map(&t, o->evlist);
	if (!ret)
		ret = perf_event__synthesize_cpu_map(&t, o->evlist);
	if (!ret)
		ret = perf_event__synthesize_bpf_events(&t);
	for (size_t i = 0; i < o->evlist->nr; i++)
		t.namespaces |= o->evlist->entries[i].attr.namespaces;
	if (!ret && child > 0)
		ret = perf_event__synthesize_comm(&t, child, child, "perf-exec", false);
	if (!ret && child > 0)
		ret = synthesize_namespaces(&t, child, child);
	if (!ret && system_wide)
		ret = perf_event__synthesize_all_threads(&t);
	else
		for (int i = 0; i < nr_pids && !ret; i++)
			ret = perf_event__synthesize_thread(&t, pids[i]);
	if (!ret)
		ret = perf_event__synthesize_empty(&t, PERF_RECORD_FINISHED_INIT);
	return ret;
}

static const struct perf_event_attr *attr_of(struct record_output *o, const union perf_event *ev)
{
	struct evlist *el = o->evlist;
	uint64_t id;

	if (el->nr == 1)
		return &el->entries[0].attr;
	if (perf_event__read_id(evlist__sample_type(el), true, ev, &id)) {
		struct evsel *e = evlist__find_id(el, id);

		if (e)
			return &e->attr;
	}
	return NULL;
}

static void account_sample(struct record_output *o, const union perf_event *ev)
{
	const unsigned char *p = (const unsigned char *)ev + sizeof(ev->header) + o->time_pos;
	uint64_t t;

	o->samples++;
	if (ev->header.size >= sizeof(ev->header) + o->time_pos + 8) {
		memcpy(&t, p, 8);
		if (!o->first_time || t < o->first_time)
			o->first_time = t;
		if (t > o->last_time)
			o->last_time = t;
	}
	if (o->track_hits) {
		const struct perf_event_attr *attr = attr_of(o, ev);
		struct perf_sample s;
		struct addr_location al;

		if (attr && !perf_sample__parse(attr, ev, &s))
			machine__resolve(&o->machine, (int32_t)s.pid, (int32_t)s.tid, s.cpumode, s.ip, &al, true);
	}
}

static int process_ring_event(struct record_output *o, const union perf_event *ev)
{
	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		account_sample(o, ev);
		break;
	case PERF_RECORD_LOST:
		o->lost_chunks++;
		o->lost_events += ev->lost.lost;
		break;
	case PERF_RECORD_LOST_SAMPLES:
		o->lost_samples += ev->lost_samples.lost;
		break;
	default:
		/* a container's jitdump or perf map is taken while the process lives */
		jit_save__event(o->jsave, ev);
		break;
	}
	if (o->zc) {
		feat_buf__put(&o->zstage, ev, ev->header.size);
		return 0;
	}
	return record_output__write(o, ev, ev->header.size);
}

static int emit_compressed(void *arg, const void *buf, size_t size)
{
	return record_output__write(arg, buf, size);
}

/* one ring's records: together they stay within the ring's size, as perf 6.1's reader needs */
static int flush_compressed(struct record_output *o)
{
	int ret = 0;

	if (o->zc && o->zstage.len)
		ret = perf_compressor__records(o->zc, o->zstage.data, o->zstage.len, emit_compressed, o);
	o->zstage.len = 0;
	if (ret)
		o->failed = true;
	return ret;
}

int64_t record_output__drain(struct record_output *o)
{
	struct evlist *el = o->evlist;
	int64_t total = 0;

	for (int i = 0; i < el->nr_mmaps; i++) {
		struct perf_mmap *m = &el->mmaps[i];
		union perf_event *ev;
		uint64_t n = perf_mmap__read_init(m);

		if (!n)
			continue;
		if (o->track_hits) {
			/* side-band first, so this round's samples find their maps */
			uint64_t start = m->start;

			while ((ev = perf_mmap__read_event(m)))
				if (is_side_band(ev->header.type))
					machine__process_event(&o->machine, ev, NULL);
			m->start = start;
		}
		while ((ev = perf_mmap__read_event(m)))
			if (process_ring_event(o, ev))
				return -1;
		perf_mmap__read_done(m);
		if (flush_compressed(o))
			return -1;
		total += (int64_t)n;
	}
	if (total) {
		struct perf_event_header fr = { .type = PERF_RECORD_FINISHED_ROUND, .size = sizeof(fr) };

		if (record_output__write(o, &fr, sizeof(fr)))
			return -1;
	}
	return total;
}

void record_output__read_lost_samples(struct record_output *o)
{
	struct evlist *el = o->evlist;

	for (size_t i = 0; i < el->nr; i++) {
		struct evsel *e = &el->entries[i];
		unsigned id_hdr = sample_id_hdr__size(e->attr.sample_type);

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
			o->lost_samples += vals[2];
			record_output__write(o, buf, ls->header.size);
		}
	}
}

/* ---- BUILD_ID: the kernel, the DSOs hit, the vdso ---- */

static void add_build_id(struct feat_buf *b, const char *name, uint16_t cpumode, const uint8_t *id, int size)
{
	struct build_id_entry e;

	memset(&e, 0, sizeof(e));
	e.cpumode = cpumode;
	e.pid = -1;
	memcpy(e.build_id, id, (size_t)size);
	e.size = (uint8_t)size;
	e.filename = (char *)name;
	build_id__encode(b, &e, 0);
}

static void add_dso_build_id(struct dso *dso, void *arg)
{
	uint8_t id[BUILD_ID_MAX];
	int n;

	if (!dso->hit || dso->kind != DSO_KIND_ELF || dso->long_name[0] != '/')
		return;
	n = filename__read_build_id(dso->long_name, id, sizeof(id));
	if (n > 0)
		add_build_id(arg, dso->long_name, PERF_RECORD_MISC_USER, id, n);
}

static void write_build_ids(struct record_output *o)
{
	struct feat_buf b = { 0 };
	uint8_t id[BUILD_ID_MAX];
	int n;

	if ((n = sysfs__read_build_id("/sys/kernel/notes", id, sizeof(id))) > 0)
		add_build_id(&b, "[kernel.kallsyms]", PERF_RECORD_MISC_KERNEL, id, n);
	dsos__for_each(&o->machine.dsos, add_dso_build_id, &b);
	/* the kernel gives every process the same vdso image: ours */
	if ((n = vdso__build_id(id, sizeof(id))) > 0)
		add_build_id(&b, "[vdso]", PERF_RECORD_MISC_USER, id, n);
	if (b.len)
		perf_data_writer__set_feature(&o->writer, HEADER_BUILD_ID, b.data, b.len);
	feat_buf__release(&b);
}

int record_output__close(struct record_output *o)
{
	int ret;

	if (!o->pipe) {
		if (o->zc)
			set_comp_feature(o);
		if (o->first_time)
			record_features__sample_time(&o->writer, o->first_time, o->last_time);
		if (o->track_hits)
			write_build_ids(o);
	}
	o->open = false;
	ret = perf_data_writer__close(&o->writer);
	if (ret < 0)
		pr_err("failed to finish %s\n", o->path);
	return ret;
}

void record_output__comp_totals(const struct record_output *o, uint64_t *in, uint64_t *out)
{
	*in = *out = 0;
	if (o->zc)
		perf_compressor__totals(o->zc, in, out);
}

void record_output__exit(struct record_output *o)
{
	if (o->open)
		perf_data_writer__close(&o->writer);
	o->open = false;
	perf_compressor__delete(o->zc);
	o->zc = NULL;
	feat_buf__release(&o->zstage);
	machine__exit(&o->machine);
	jit_save__delete(o->jsave);
	o->jsave = NULL;
}

void record_output__print_lost(const struct record_output *o, FILE *f)
{
	if (o->lost_chunks)
		fprintf(f, "Warning:\nProcessed %llu events and lost %llu chunks!\n\nCheck IO/CPU overload!\n\n",
			(unsigned long long)(o->samples + o->lost_chunks), (unsigned long long)o->lost_chunks);
	if (o->lost_samples)
		fprintf(f, "Warning:\nProcessed %llu samples and lost %3.2f%%  samples!\n\n",
			(unsigned long long)o->samples, 100.0 * o->lost_samples / (double)(o->samples + o->lost_samples));
}

/* perf 6.1's last line; with -z the sample count gives way to the ratio */
void record_output__print_summary(const struct record_output *o, FILE *f)
{
	uint64_t in, out;
	struct stat st;
	double mb;

	if (o->pipe)
		mb = o->bytes_written / 1024.0 / 1024.0;
	else
		mb = stat(o->path, &st) ? 0 : st.st_size / 1024.0 / 1024.0;
	fprintf(f, "[ perf record: Captured and wrote %.3f MB %s", mb, o->pipe ? "-" : o->path);
	record_output__comp_totals(o, &in, &out);
	if (in && out)
		fprintf(f, ", compressed (original %.3f MB, ratio is %.3f)", in / 1024.0 / 1024.0,
			(double)in / (double)out);
	else if (!o->pipe)
		fprintf(f, " (%llu samples)", (unsigned long long)o->samples);
	fprintf(f, " ]\n");
}
