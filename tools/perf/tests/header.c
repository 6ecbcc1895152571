// SPDX-License-Identifier: MIT
/*
 * Feature payload encoders/decoders (util/header.c): the layouts of
 * Documentation/formats/perf-data.md section 5 (perf strings and string
 * lists, BUILD_ID records, EVENT_DESC), encoded, decoded and refused when cut.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "util/build-id.h"
#include "util/header.h"
#include "util/util.h"

static int test__perf_strings(void)
{
	struct feat_buf b = { 0 };
	uint32_t len;
	char s63[64], s64[65];
	const char *list[] = { "/usr/bin/perf", "record", "" };
	struct feat_cursor c;
	const char **got;
	uint32_t nr = 0;

	/* "vm": u32 64, then "vm", then 62 NULs (OBS-F hostname) */
	feat_buf__put_string(&b, "vm");
	TEST_ASSERT_EQUAL("size of \"vm\"", b.len, 68);
	memcpy(&len, b.data, 4);
	TEST_ASSERT_EQUAL("len field", len, 64);
	TEST_ASSERT_VAL("text", !memcmp(b.data + 4, "vm\0", 3));
	for (size_t i = 6; i < 68; i++)
		TEST_ASSERT_VAL("NUL padding", b.data[i] == 0);
	TEST_ASSERT_EQUAL("perf_string__size", perf_string__size("vm"), 68);
	feat_buf__release(&b);

	/* 63 chars + NUL fill 64 exactly; 64 chars need a second block */
	memset(s63, 'a', 63); s63[63] = 0;
	memset(s64, 'b', 64); s64[64] = 0;
	TEST_ASSERT_EQUAL("63 chars", perf_string__size(s63), 68);
	TEST_ASSERT_EQUAL("64 chars", perf_string__size(s64), 132);
	TEST_ASSERT_EQUAL("empty", perf_string__size(""), 68);

	feat_buf__put_string_list(&b, list, 3);
	TEST_ASSERT_EQUAL("list size", b.len, 4 + 3 * 68);
	memcpy(&len, b.data, 4);
	TEST_ASSERT_EQUAL("list count", len, 3);
	feat_cursor__init(&c, b.data, b.len);
	got = feat_cursor__string_list(&c, &nr);
	TEST_ASSERT_VAL("decode list", got && !c.error);
	TEST_ASSERT_EQUAL("decoded count", nr, 3);
	TEST_ASSERT_VAL("item 0", !strcmp(got[0], "/usr/bin/perf"));
	TEST_ASSERT_VAL("item 1", !strcmp(got[1], "record"));
	TEST_ASSERT_VAL("item 2", !strcmp(got[2], ""));
	TEST_ASSERT_EQUAL("all consumed", c.pos, b.len);
	free(got);

	/* truncated list: the cursor must refuse, not read past the end */
	feat_cursor__init(&c, b.data, b.len - 1);
	got = feat_cursor__string_list(&c, &nr);
	TEST_ASSERT_VAL("truncated list rejected", !got && c.error);
	/* a string whose length runs past the payload */
	len = 1000;
	memcpy(b.data + 4, &len, 4);
	feat_cursor__init(&c, b.data, b.len);
	got = feat_cursor__string_list(&c, &nr);
	TEST_ASSERT_VAL("overlong string rejected", !got);
	/* a string without NUL inside its length */
	feat_buf__release(&b);
	feat_buf__put_u32(&b, 4);
	feat_buf__put(&b, "abcd", 4);
	feat_cursor__init(&c, b.data, b.len);
	TEST_ASSERT_VAL("unterminated string rejected", !feat_cursor__string(&c) && c.error);
	feat_buf__release(&b);
	return TEST_OK;
}
DEFINE_SUITE("perf.data features: perf strings and string lists", test__perf_strings);

static int test__build_id_records(void)
{
	struct build_id_entry e[2] = {
		{ .cpumode = PERF_RECORD_MISC_KERNEL, .pid = -1, .size = 20, .filename = "[kernel.kallsyms]" },
		{ .cpumode = PERF_RECORD_MISC_USER, .pid = -1, .size = 16, .filename = "/usr/lib/libx.so" },
	};
	struct feat_buf b = { 0 };
	struct build_id_entry *got;
	size_t nr;
	struct perf_record_header_build_id rec;
	char hex[41];

	for (int i = 0; i < 20; i++)
		e[0].build_id[i] = (uint8_t)(0xa0 + i);
	for (int i = 0; i < 16; i++)
		e[1].build_id[i] = (uint8_t)i;
	build_id__encode(&b, &e[0], 0);
	build_id__encode(&b, &e[1], 0);
	TEST_ASSERT_EQUAL("two records of 100 bytes", b.len, 200);
	memcpy(&rec, b.data, sizeof(rec));
	TEST_ASSERT_EQUAL("type 0 in the feature", rec.header.type, 0);
	TEST_ASSERT_EQUAL("misc 0x8000|KERNEL", rec.header.misc, 0x8001);
	TEST_ASSERT_EQUAL("size 36 + 64", rec.header.size, 100);
	TEST_ASSERT_EQUAL("pid -1", rec.pid, -1);
	TEST_ASSERT_EQUAL("id size", rec.size, 20);
	TEST_ASSERT_VAL("name at 36", !strcmp((char *)b.data + 36, "[kernel.kallsyms]"));
	memcpy(&rec, b.data + 100, sizeof(rec));
	TEST_ASSERT_EQUAL("misc 0x8000|USER", rec.header.misc, 0x8002);
	TEST_ASSERT_EQUAL("md5 size", rec.size, 16);
	TEST_ASSERT_VAL("id zero-filled after size", rec.build_id[16] == 0 && rec.build_id[19] == 0);

	TEST_ASSERT_VAL("decode", build_id__decode(b.data, b.len, &got, &nr) == 0);
	TEST_ASSERT_EQUAL("decoded nr", nr, 2);
	TEST_ASSERT_VAL("name 1", !strcmp(got[1].filename, "/usr/lib/libx.so"));
	TEST_ASSERT_EQUAL("cpumode 1", got[1].cpumode, PERF_RECORD_MISC_USER);
	TEST_ASSERT_EQUAL("size 1", got[1].size, 16);
	TEST_ASSERT_VAL("hex", !strcmp(build_id__sprintf(got[1].build_id, got[1].size, hex),
				       "000102030405060708090a0b0c0d0e0f"));
	build_id__free_entries(got, nr);

	/* a record claiming more bytes than there are */
	TEST_ASSERT_VAL("truncated rejected", build_id__decode(b.data, b.len - 1, &got, &nr) < 0);
	/* the type-67 record form */
	feat_buf__release(&b);
	build_id__encode(&b, &e[0], PERF_RECORD_HEADER_BUILD_ID);
	memcpy(&rec, b.data, sizeof(rec));
	TEST_ASSERT_EQUAL("record type 67", rec.header.type, 67);
	feat_buf__release(&b);
	return TEST_OK;
}
DEFINE_SUITE("perf.data features: BUILD_ID records", test__build_id_records);

static int test__event_desc(void)
{
	uint64_t ids0[] = { 8, 9 }, ids1[] = { 10 };
	struct perf_file_attr a[2];
	struct feat_buf b = { 0 };
	struct event_desc *d;
	size_t nr;
	uint32_t u;

	memset(a, 0, sizeof(a));
	a[0].attr.type = PERF_TYPE_SOFTWARE;
	a[0].attr.sample_type = 0x107;
	a[0].ids = ids0; a[0].nr_ids = 2; a[0].name = "cpu-clock";
	a[1].attr.type = PERF_TYPE_TRACEPOINT;
	a[1].attr.config = 321;
	a[1].ids = ids1; a[1].nr_ids = 1; a[1].name = "sched:sched_switch";
	event_desc__encode(&b, a, 2);
	memcpy(&u, b.data, 4);
	TEST_ASSERT_EQUAL("nr", u, 2);
	memcpy(&u, b.data + 4, 4);
	TEST_ASSERT_EQUAL("attr size", u, 128);
	TEST_ASSERT_EQUAL("total", b.len, 8 + (128 + 4 + 68 + 16) + (128 + 4 + 68 + 8));
	TEST_ASSERT_VAL("decode", event_desc__decode(b.data, b.len, &d, &nr) == 0);
	TEST_ASSERT_EQUAL("nr decoded", nr, 2);
	TEST_ASSERT_VAL("name 0", !strcmp(d[0].name, "cpu-clock"));
	TEST_ASSERT_VAL("name 1", !strcmp(d[1].name, "sched:sched_switch"));
	TEST_ASSERT_EQUAL("attr size written", d[0].attr.size, 128);
	TEST_ASSERT_EQUAL("config", d[1].attr.config, 321);
	TEST_ASSERT_EQUAL("ids", d[0].nr_ids, 2);
	TEST_ASSERT_EQUAL("id 1", d[0].ids[1], 9);
	event_desc__free(d, nr);
	TEST_ASSERT_VAL("truncated rejected", event_desc__decode(b.data, b.len - 1, &d, &nr) < 0);
	feat_buf__release(&b);
	return TEST_OK;
}
DEFINE_SUITE("perf.data features: EVENT_DESC", test__event_desc);
