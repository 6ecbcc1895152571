// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>
#include "debug.h"
#include "evsel-name.h"
#include "header.h"
#include "session.h"
#include "trace-event.h"
#include "util.h"

struct id_slot {
	uint64_t id;
	int32_t idx;      /* -1 = empty */
};

struct id_map {
	struct id_slot *slots;
	size_t cap, nr;
};

static size_t id_hash(uint64_t id, size_t cap)
{
	return (id * 0x9E3779B97F4A7C15ull) >> 17 & (cap - 1);
}

static void id_map__add(struct id_map *m, uint64_t id, int idx);

static void id_map__grow(struct id_map *m)
{
	struct id_slot *old = m->slots;
	size_t oldcap = m->cap;

	m->cap = m->cap ? m->cap * 2 : 64;
	m->slots = xmalloc(m->cap * sizeof(*m->slots));
	for (size_t i = 0; i < m->cap; i++)
		m->slots[i].idx = -1;
	m->nr = 0;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].idx >= 0)
			id_map__add(m, old[i].id, old[i].idx);
	free(old);
}

static void id_map__add(struct id_map *m, uint64_t id, int idx)
{
	size_t h;

	if ((m->nr + 1) * 2 > m->cap)
		id_map__grow(m);
	for (h = id_hash(id, m->cap); m->slots[h].idx >= 0; h = (h + 1) & (m->cap - 1))
		if (m->slots[h].id == id) {
			m->slots[h].idx = idx;
			return;
		}
	m->slots[h].id = id;
	m->slots[h].idx = idx;
	m->nr++;
}

static int id_map__find(const struct id_map *m, uint64_t id)
{
	if (!m->cap)
		return -1;
	for (size_t h = id_hash(id, m->cap); m->slots[h].idx >= 0; h = (h + 1) & (m->cap - 1))
		if (m->slots[h].id == id)
			return m->slots[h].idx;
	return -1;
}

/* keeps evsels in step with the reader's attrs (pipe mode adds them as it goes) */
static void session__sync_evsels(struct perf_session *s)
{
	struct perf_data_reader *r = &s->reader;
	struct id_map *ids = s->ids;

	if (r->nr_attrs == s->nr_evsels)
		return;
	s->evsels = xrealloc(s->evsels, r->nr_attrs * sizeof(*s->evsels));
	for (size_t i = s->nr_evsels; i < r->nr_attrs; i++) {
		struct evsel *e = &s->evsels[i];

		memset(e, 0, sizeof(*e));
		e->attr = r->attrs[i].attr;
		e->idx = i;
		e->id_hdr_size = e->attr.sample_id_all ? sample_id_hdr__size(e->attr.sample_type) : 0;
		e->name = r->attrs[i].name ? xstrdup(r->attrs[i].name) : evsel_name__from_attr(&e->attr);
		for (uint32_t k = 0; k < r->attrs[i].nr_ids; k++)
			id_map__add(ids, r->attrs[i].ids[k], i);
	}
	s->nr_evsels = r->nr_attrs;
	s->one_evsel = s->nr_evsels == 1;
}

struct trace_formats *perf_session__trace_formats(struct perf_session *s)
{
	if (!s->tformats && !s->tformats_tried && s->reader.tracing_data) {
		s->tformats_tried = true;
		s->tformats = trace_formats__parse(s->reader.tracing_data, s->reader.tracing_data_size);
	}
	return s->tformats;
}

/* tracepoints without an EVENT_DESC name are named from their format */
static void session__name_tracepoints(struct perf_session *s)
{
	for (size_t i = 0; i < s->nr_evsels; i++) {
		struct evsel *e = &s->evsels[i];
		const struct trace_format *fmt;
		struct trace_formats *tf;

		if (e->attr.type != PERF_TYPE_TRACEPOINT || (s->reader.attrs[i].name && i < s->reader.nr_attrs))
			continue;
		tf = perf_session__trace_formats(s);
		fmt = tf ? trace_formats__find(tf, e->attr.config) : NULL;
		if (fmt) {
			free(e->name);
			e->name = xasprintf("%s:%s", fmt->system, fmt->name);
		}
	}
}

/* names from EVENT_DESC arrive with the feature in pipe mode, after the attrs */
static void session__refresh_names(struct perf_session *s)
{
	for (size_t i = 0; i < s->nr_evsels && i < s->reader.nr_attrs; i++) {
		const char *n = s->reader.attrs[i].name;

		if (n && strcmp(n, s->evsels[i].name)) {
			free(s->evsels[i].name);
			s->evsels[i].name = xstrdup(n);
		}
	}
}

static void apply_build_id(struct perf_session *s, const struct build_id_entry *e)
{
	const char *name = e->filename;
	struct dso *dso;

	if (!name || !*name)
		return;
	/* the kernel may be listed by its image path; samples know it as [kernel.kallsyms] */
	if ((e->cpumode & PERF_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL &&
	    str_starts_with(name, "[kernel.kallsyms]"))
		name = "[kernel.kallsyms]";
	dso = dsos__findnew(&s->machine.dsos, name);
	dso__set_build_id(dso, e->build_id, MIN(e->size, BUILD_ID_MAX));
	dso->build_id_from_file = true;
}

/* a BUILD_ID feature payload, or one HEADER_BUILD_ID record (same layout) */
static void session__apply_build_ids(struct perf_session *s, const void *data, size_t size)
{
	struct build_id_entry *entries;
	size_t nr;

	if (!data || !size || build_id__decode(data, size, &entries, &nr) < 0)
		return;
	for (size_t i = 0; i < nr; i++)
		apply_build_id(s, &entries[i]);
	build_id__free_entries(entries, nr);
}

struct perf_session *perf_session__open(const char *path)
{
	struct perf_session *s = xzalloc(sizeof(*s));

	if (perf_data_reader__open(&s->reader, path) < 0) {
		free(s);
		return NULL;
	}
	s->ids = xzalloc(sizeof(struct id_map));
	machine__init(&s->machine);
	machine__set_data_path(&s->machine, path);
	session__sync_evsels(s);
	session__name_tracepoints(s);
	session__apply_build_ids(s, s->reader.feat[HEADER_BUILD_ID].data, s->reader.feat[HEADER_BUILD_ID].size);
	return s;
}

void perf_session__delete(struct perf_session *s)
{
	struct id_map *ids;

	if (!s)
		return;
	ids = s->ids;
	for (size_t i = 0; i < s->nr_evsels; i++)
		free(s->evsels[i].name);
	free(s->evsels);
	free(ids->slots);
	free(ids);
	if (s->tformats)
		trace_formats__delete(s->tformats);
	machine__exit(&s->machine);
	perf_data_reader__close(&s->reader);
	free(s);
}

struct evsel *perf_session__evsel_of(struct perf_session *s, const union perf_event *ev)
{
	uint64_t id;
	int idx;

	if (s->nr_evsels == 0)
		return NULL;
	if (s->one_evsel)
		return &s->evsels[0];
	if (!perf_event__read_id(s->evsels[0].attr.sample_type, s->evsels[0].attr.sample_id_all, ev, &id))
		return &s->evsels[0];
	idx = id_map__find(s->ids, id);
	return idx >= 0 ? &s->evsels[idx] : &s->evsels[0];
}

/* ---- ordered delivery ---- */

struct queued {
	uint64_t time;
	uint64_t seq;
	union perf_event *ev;
	bool owned;
};

struct ordered_queue {
	struct queued *q;
	size_t nr, cap;
	uint64_t seq;
	uint64_t max_time;         /* newest time queued so far */
	uint64_t round_limit;      /* max_time at the previous FINISHED_ROUND */
};

static int cmp_queued(const void *a, const void *b)
{
	const struct queued *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int deliver(struct perf_session *s, struct perf_tool *tool, union perf_event *ev)
{
	struct evsel *evsel = perf_session__evsel_of(s, ev);
	struct perf_sample sample;

	if (!evsel || perf_sample__parse(&evsel->attr, ev, &sample) < 0) {
		pr_warning("Warning: skipping a %s record too short for its sample format\n",
			   perf_record_type__name(ev->header.type));
		return 0;
	}
	if (ev->header.type == PERF_RECORD_SAMPLE) {
		evsel->nr_samples++;
		evsel->total_period += sample.period;
		return tool->sample ? tool->sample(tool, s, ev, &sample, evsel) : 0;
	}
	machine__process_event(&s->machine, ev, &sample);
	if (ev->header.type == PERF_RECORD_LOST)
		s->nr_lost_events += ev->lost.lost;
	else if (ev->header.type == PERF_RECORD_LOST_SAMPLES)
		s->nr_lost_samples += ev->lost_samples.lost;
	return tool->other ? tool->other(tool, s, ev, &sample) : 0;
}

static int flush_queue(struct perf_session *s, struct perf_tool *tool, struct ordered_queue *oq,
		       uint64_t limit, bool all)
{
	size_t n = 0, i;
	int ret = 0;

	if (!oq->nr)
		return 0;
	qsort(oq->q, oq->nr, sizeof(*oq->q), cmp_queued);
	while (n < oq->nr && (all || oq->q[n].time <= limit))
		n++;
	for (i = 0; i < n; i++) {
		if (!ret)
			ret = deliver(s, tool, oq->q[i].ev);
		if (oq->q[i].owned)
			free(oq->q[i].ev);
	}
	memmove(oq->q, oq->q + n, (oq->nr - n) * sizeof(*oq->q));
	oq->nr -= n;
	return ret;
}

static uint64_t event_time(struct perf_session *s, const union perf_event *ev)
{
	struct evsel *evsel = perf_session__evsel_of(s, ev);
	struct perf_sample sample;

	if (!evsel || !(evsel->attr.sample_type & PERF_SAMPLE_TIME))
		return (uint64_t)-1;
	if (ev->header.type != PERF_RECORD_SAMPLE && !evsel->attr.sample_id_all)
		return (uint64_t)-1;
	if (perf_sample__parse(&evsel->attr, ev, &sample) < 0)
		return (uint64_t)-1;
	return sample.time;
}

int perf_session__process_events(struct perf_session *s, struct perf_tool *tool)
{
	struct ordered_queue oq = { 0 };
	union perf_event *ev;
	uint64_t offset;
	int ret = 0, r;
	/* records point into the mapped file; from a pipe or out of a COMPRESSED record they must be copied */
	bool copy = s->reader.is_pipe || s->reader.map == NULL;

	while ((r = perf_data_reader__next(&s->reader, &ev, &offset)) > 0) {
		uint32_t type = ev->header.type;

		if (type < PERF_RECORD_HEADER_MAX)
			s->nr_events[type]++;
		if (type >= PERF_RECORD_USER_TYPE_START) {
			switch (type) {
			case PERF_RECORD_HEADER_ATTR:
				session__sync_evsels(s);
				break;
			case PERF_RECORD_HEADER_FEATURE:
				session__refresh_names(s);
				break;
			case PERF_RECORD_HEADER_TRACING_DATA:
				s->tformats_tried = false;
				session__name_tracepoints(s);
				break;
			case PERF_RECORD_HEADER_BUILD_ID:
				session__apply_build_ids(s, ev, ev->header.size);
				break;
			case PERF_RECORD_FINISHED_ROUND:
				if (!tool->no_ordering)
					ret = flush_queue(s, tool, &oq, oq.round_limit, false);
				oq.round_limit = oq.max_time;
				break;
			default:
				break;
			}
			if (!ret && tool->other)
				ret = tool->other(tool, s, ev, NULL);
			if (ret)
				break;
			continue;
		}
		if (type >= PERF_RECORD_HEADER_MAX || type == 0) {
			s->nr_unknown++;
			if (s->nr_unknown == 1)
				pr_warning("Warning: unknown record type %u at offset %#llx, skipped\n",
					   type, (unsigned long long)offset);
			continue;
		}
		session__sync_evsels(s);
		uint64_t t = tool->no_ordering ? (uint64_t)-1 : event_time(s, ev);

		if (t == (uint64_t)-1) {
			/* untimed records cannot be ordered: deliver in file order */
			ret = deliver(s, tool, ev);
			if (ret)
				break;
			continue;
		}
		if (oq.nr == oq.cap) {
			oq.cap = oq.cap ? oq.cap * 2 : 4096;
			oq.q = xrealloc(oq.q, oq.cap * sizeof(*oq.q));
		}
		struct queued *q = &oq.q[oq.nr++];

		q->time = t;
		q->seq = oq.seq++;
		q->owned = copy || s->reader.ev_transient;
		if (q->owned) {
			q->ev = xmalloc(ev->header.size);
			memcpy(q->ev, ev, ev->header.size);
		} else
			q->ev = ev;
		if (t > oq.max_time)
			oq.max_time = t;
	}
	if (!ret)
		ret = flush_queue(s, tool, &oq, 0, true);
	/* the reader opened them up; counted as perf counts them */
	s->nr_events[PERF_RECORD_COMPRESSED] = s->reader.nr_compressed;
	for (size_t i = 0; i < oq.nr; i++)
		if (oq.q[i].owned)
			free(oq.q[i].ev);
	free(oq.q);
	if (r < 0)
		return -1;
	return ret;
}
