// SPDX-License-Identifier: MIT
#include <string.h>
#include "tests/tests.h"
#include "util/sample.h"

/* Field order of PERF_RECORD_SAMPLE per the UAPI header, including CALLCHAIN and RAW. */
static int test__sample_parse(void)
{
	struct perf_event_attr attr = { 0 };
	uint64_t buf[32] = { 0 };
	union perf_event *ev = (void *)buf;
	struct perf_sample s;
	unsigned char *p = (unsigned char *)buf + 8;
	uint64_t v;
	uint32_t u;

	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			   PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW;
#define PUT64(x) do { v = (x); memcpy(p, &v, 8); p += 8; } while (0)
#define PUT32(x) do { u = (x); memcpy(p, &u, 4); p += 4; } while (0)
	PUT64(99);                    /* identifier */
	PUT64(0x1234);                /* ip */
	PUT32(5); PUT32(6);           /* pid, tid */
	PUT64(1000);                  /* time */
	PUT32(1); PUT32(0);           /* cpu, res */
	PUT64(250000);                /* period */
	PUT64(2); PUT64(PERF_CONTEXT_USER); PUT64(0x1234);   /* callchain */
	PUT32(4); PUT32(0xdeadbeef);  /* raw: size 4 + 4 bytes = 8 */
	ev->header.type = PERF_RECORD_SAMPLE;
	ev->header.misc = PERF_RECORD_MISC_USER;
	ev->header.size = p - (unsigned char *)buf;
	TEST_ASSERT_VAL("parses", perf_sample__parse(&attr, ev, &s) == 0);
	TEST_ASSERT_EQUAL("id", s.id, 99);
	TEST_ASSERT_EQUAL("ip", s.ip, 0x1234);
	TEST_ASSERT_EQUAL("pid", s.pid, 5);
	TEST_ASSERT_EQUAL("tid", s.tid, 6);
	TEST_ASSERT_EQUAL("time", s.time, 1000);
	TEST_ASSERT_EQUAL("cpu", s.cpu, 1);
	TEST_ASSERT_EQUAL("period", s.period, 250000);
	TEST_ASSERT_VAL("callchain", s.callchain && s.callchain->nr == 2 && s.callchain->ips[1] == 0x1234);
	TEST_ASSERT_EQUAL("raw size", s.raw_size, 4);
	TEST_ASSERT_VAL("id via fast path", perf_event__read_id(attr.sample_type, true, ev, &v) && v == 99);
	/* a record shorter than its sample_type promises is refused, not over-read */
	ev->header.size -= 16;
	TEST_ASSERT_VAL("short record refused", perf_sample__parse(&attr, ev, &s) < 0);

	/* the sample_id trailer of a non-sample record round-trips */
	struct perf_sample in = { .pid = 3, .tid = 4, .time = 77, .id = 8, .cpu = 1 };
	uint64_t rec[64] = { 0 };
	union perf_event *c = (void *)rec;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU;
	c->header.type = PERF_RECORD_COMM;
	c->header.size = 8 + 16 + sample_id_hdr__size(attr.sample_type);
	perf_sample__write_id_hdr(attr.sample_type, &in, (unsigned char *)rec + 24);
	TEST_ASSERT_VAL("trailer parses", perf_sample__parse(&attr, c, &s) == 0);
	TEST_ASSERT_VAL("trailer fields", s.pid == 3 && s.tid == 4 && s.time == 77 && s.id == 8 && s.cpu == 1);
	TEST_ASSERT_VAL("trailer id", perf_event__read_id(attr.sample_type, true, c, &v) && v == 8);
	return TEST_OK;
}
DEFINE_SUITE("Sample parsing: every field in UAPI order, short records refused", test__sample_parse);
