// SPDX-License-Identifier: MIT
#include <string.h>
#include "sample.h"

static unsigned popcount64(uint64_t v)
{
	return __builtin_popcountll(v);
}

unsigned int sample_id_hdr__size(uint64_t t)
{
	unsigned n = 0;

	if (t & PERF_SAMPLE_TID)
		n += 8;
	if (t & PERF_SAMPLE_TIME)
		n += 8;
	if (t & PERF_SAMPLE_ID)
		n += 8;
	if (t & PERF_SAMPLE_STREAM_ID)
		n += 8;
	if (t & PERF_SAMPLE_CPU)
		n += 8;
	if (t & PERF_SAMPLE_IDENTIFIER)
		n += 8;
	return n;
}

static void sample_init(struct perf_sample *s, const union perf_event *ev)
{
	memset(s, 0, sizeof(*s));
	s->pid = s->tid = (uint32_t)-1;
	s->cpu = (uint32_t)-1;
	s->misc = ev->header.misc;
	s->cpumode = ev->header.misc & PERF_MISC_CPUMODE_MASK;
	s->period = 1;
}

/* a bounds-checked cursor over the record; records are 8-byte aligned so u64 loads are safe */
struct cursor {
	const unsigned char *p, *end;
};

static int take_u64(struct cursor *c, uint64_t *v)
{
	if (c->end - c->p < 8)
		return -1;
	memcpy(v, c->p, 8);
	c->p += 8;
	return 0;
}

static int take_u32x2(struct cursor *c, uint32_t *a, uint32_t *b)
{
	if (c->end - c->p < 8)
		return -1;
	memcpy(a, c->p, 4);
	if (b)
		memcpy(b, c->p + 4, 4);
	c->p += 8;
	return 0;
}

static int parse_id_hdr(uint64_t t, const union perf_event *ev, struct perf_sample *s)
{
	unsigned sz = sample_id_hdr__size(t);
	struct cursor c;

	if (ev->header.size < sizeof(ev->header) + sz)
		return -1;
	c.p = (const unsigned char *)ev + ev->header.size - sz;
	c.end = (const unsigned char *)ev + ev->header.size;
	if ((t & PERF_SAMPLE_TID) && take_u32x2(&c, &s->pid, &s->tid))
		return -1;
	if ((t & PERF_SAMPLE_TIME) && take_u64(&c, &s->time))
		return -1;
	if ((t & PERF_SAMPLE_ID) && take_u64(&c, &s->id))
		return -1;
	if ((t & PERF_SAMPLE_STREAM_ID) && take_u64(&c, &s->stream_id))
		return -1;
	if ((t & PERF_SAMPLE_CPU) && take_u32x2(&c, &s->cpu, NULL))
		return -1;
	if ((t & PERF_SAMPLE_IDENTIFIER) && take_u64(&c, &s->id))
		return -1;
	return 0;
}

static unsigned read_format_size(uint64_t rf)
{
	unsigned n = 8;  /* value, or nr for groups */

	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		n += 8;
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		n += 8;
	if (!(rf & PERF_FORMAT_GROUP)) {
		if (rf & PERF_FORMAT_ID)
			n += 8;
		if (rf & (1u << 4))  /* PERF_FORMAT_LOST */
			n += 8;
	}
	return n;
}

int perf_sample__parse(const struct perf_event_attr *attr, const union perf_event *ev,
		       struct perf_sample *s)
{
	uint64_t t = attr->sample_type;
	struct cursor c;
	uint64_t v;

	sample_init(s, ev);
	if (ev->header.type != PERF_RECORD_SAMPLE) {
		if (!attr->sample_id_all || ev->header.type >= PERF_RECORD_USER_TYPE_START)
			return 0;
		return parse_id_hdr(t, ev, s);
	}
	c.p = (const unsigned char *)ev + sizeof(ev->header);
	c.end = (const unsigned char *)ev + ev->header.size;

	if ((t & PERF_SAMPLE_IDENTIFIER) && take_u64(&c, &s->id))
		return -1;
	if ((t & PERF_SAMPLE_IP) && take_u64(&c, &s->ip))
		return -1;
	if ((t & PERF_SAMPLE_TID) && take_u32x2(&c, &s->pid, &s->tid))
		return -1;
	if ((t & PERF_SAMPLE_TIME) && take_u64(&c, &s->time))
		return -1;
	if ((t & PERF_SAMPLE_ADDR) && take_u64(&c, &s->addr))
		return -1;
	if ((t & PERF_SAMPLE_ID) && take_u64(&c, &s->id))
		return -1;
	if ((t & PERF_SAMPLE_STREAM_ID) && take_u64(&c, &s->stream_id))
		return -1;
	if ((t & PERF_SAMPLE_CPU) && take_u32x2(&c, &s->cpu, NULL))
		return -1;
	if ((t & PERF_SAMPLE_PERIOD) && take_u64(&c, &s->period))
		return -1;
	if (t & PERF_SAMPLE_READ) {
		uint64_t rf = attr->read_format;

		if (rf & PERF_FORMAT_GROUP) {
			uint64_t nr;
			unsigned per = 8 + ((rf & PERF_FORMAT_ID) ? 8 : 0) + ((rf & (1u << 4)) ? 8 : 0);

			if (take_u64(&c, &nr))
				return -1;
			if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED && take_u64(&c, &v))
				return -1;
			if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING && take_u64(&c, &v))
				return -1;
			if (nr > (uint64_t)(c.end - c.p) / per)
				return -1;
			c.p += nr * per;
		} else {
			unsigned n = read_format_size(rf);

			if ((unsigned)(c.end - c.p) < n)
				return -1;
			c.p += n;
		}
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		const struct ip_callchain *cc = (const void *)c.p;

		if (take_u64(&c, &v) || v > (uint64_t)(c.end - c.p) / 8)
			return -1;
		s->callchain = cc;
		c.p += v * 8;
	}
	if (t & PERF_SAMPLE_RAW) {
		uint32_t sz;

		if (c.end - c.p < 4)
			return -1;
		memcpy(&sz, c.p, 4);
		if (sz > (uint64_t)(c.end - c.p) - 4)
			return -1;
		s->raw_size = sz;
		s->raw_data = c.p + 4;
		/* the u32 size plus data is padded to 8 bytes */
		c.p += ((4 + (uint64_t)sz + 7) & ~7ull);
		if (c.p > c.end)
			return -1;
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		uint64_t nr;

		if (take_u64(&c, &nr))
			return -1;
		if (attr->branch_sample_type & (1u << 17) /* HW_INDEX */ && take_u64(&c, &v))
			return -1;
		if (nr > (uint64_t)(c.end - c.p) / 24)
			return -1;
		c.p += nr * 24;
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		if (take_u64(&c, &s->user_regs_abi))
			return -1;
		if (s->user_regs_abi) {
			unsigned n = popcount64(attr->sample_regs_user);

			if ((uint64_t)(c.end - c.p) < n * 8ull)
				return -1;
			s->user_regs_mask = attr->sample_regs_user;
			s->user_regs = (const uint64_t *)c.p;
			c.p += n * 8;
		}
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		if (take_u64(&c, &s->user_stack_size))
			return -1;
		if (s->user_stack_size) {
			if (s->user_stack_size > (uint64_t)(c.end - c.p))
				return -1;
			s->user_stack = c.p;
			c.p += s->user_stack_size;
			if (take_u64(&c, &s->user_stack_dyn_size))
				return -1;
			if (s->user_stack_dyn_size > s->user_stack_size)
				s->user_stack_dyn_size = s->user_stack_size;
		}
	}
	/* later fields (weight, data_src, ...) are not needed by our tools */
	return 0;
}

void perf_sample__write_id_hdr(uint64_t t, const struct perf_sample *s, void *buf)
{
	unsigned char *p = buf;
	uint32_t res = 0;

#define PUT(x) do { memcpy(p, &(x), sizeof(x)); p += sizeof(x); } while (0)
	if (t & PERF_SAMPLE_TID) {
		PUT(s->pid);
		PUT(s->tid);
	}
	if (t & PERF_SAMPLE_TIME)
		PUT(s->time);
	if (t & PERF_SAMPLE_ID)
		PUT(s->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		PUT(s->stream_id);
	if (t & PERF_SAMPLE_CPU) {
		PUT(s->cpu);
		PUT(res);
	}
	if (t & PERF_SAMPLE_IDENTIFIER)
		PUT(s->id);
#undef PUT
}

bool perf_event__read_id(uint64_t t, bool sample_id_all, const union perf_event *ev, uint64_t *id)
{
	const unsigned char *base = (const unsigned char *)ev;
	unsigned off;

	if (ev->header.type == PERF_RECORD_SAMPLE) {
		if (t & PERF_SAMPLE_IDENTIFIER) {
			if (ev->header.size < 16)
				return false;
			memcpy(id, base + 8, 8);
			return true;
		}
		if (!(t & PERF_SAMPLE_ID))
			return false;
		off = 8;
		off += (t & PERF_SAMPLE_IP) ? 8 : 0;
		off += (t & PERF_SAMPLE_TID) ? 8 : 0;
		off += (t & PERF_SAMPLE_TIME) ? 8 : 0;
		off += (t & PERF_SAMPLE_ADDR) ? 8 : 0;
		if (ev->header.size < off + 8)
			return false;
		memcpy(id, base + off, 8);
		return true;
	}
	if (!sample_id_all || ev->header.type >= PERF_RECORD_USER_TYPE_START)
		return false;
	if (t & PERF_SAMPLE_IDENTIFIER) {
		if (ev->header.size < 16)
			return false;
		memcpy(id, base + ev->header.size - 8, 8);
		return true;
	}
	if (!(t & PERF_SAMPLE_ID))
		return false;
	/* ID sits before STREAM_ID and CPU at the end of the trailer */
	off = 8 + ((t & PERF_SAMPLE_STREAM_ID) ? 8 : 0) + ((t & PERF_SAMPLE_CPU) ? 8 : 0);
	if (ev->header.size < off + 8)
		return false;
	memcpy(id, base + ev->header.size - off, 8);
	return true;
}
