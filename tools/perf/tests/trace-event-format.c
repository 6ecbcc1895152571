// SPDX-License-Identifier: MIT
/*
 * Format files and TRACING_DATA without perf 6.1 or tracefs: the uprobe
 * example of uprobes-tracefs.md §5 (format text, a raw record, and the text
 * perf 6.1 printed for it), and malformed payloads that must be refused
 * cleanly.
 */
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "util/trace-event.h"
#include "util/util.h"

static const char spec_format[] =
	"name: getattr\n"
	"ID: 2330\n"
	"format:\n"
	UPROBE_FORMAT_HEAD
	"\tfield:u64 obj;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 name;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] comm;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"(%lx) obj=0x%Lx name=%Lu comm=\\\"%s\\\"\", REC->__probe_ip, REC->obj, REC->name, __get_str(comm)\n";

static const unsigned char spec_raw[52] = {
	0x1a, 0x09, 0x00, 0x01, 0x0d, 0x2c, 0x00, 0x00,
	0xe0, 0xe4, 0x51, 0x00, 0x00, 0x00, 0x00, 0x00,
	0xc0, 0xe0, 0x43, 0x0b, 0x32, 0x7f, 0x00, 0x00,
	0xc0, 0xd0, 0x98, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x24, 0x00, 0x0b, 0x00,
	'p', 'y', 't', 'h', 'o', 'n', '3', '.', '1', '1', 0,
};

static int test__spec_format(void)
{
	struct trace_format *fmt = trace_format__parse(spec_format, strlen(spec_format), "specchk");
	const struct trace_field *f;
	char out[256];
	int n;

	TEST_ASSERT_VAL("parse", fmt);
	TEST_ASSERT_EQUAL("id", fmt->id, 2330);
	TEST_ASSERT_VAL("name", !strcmp(fmt->name, "getattr"));
	TEST_ASSERT_EQUAL("fields", fmt->nr_fields, 8);
	f = trace_format__field(fmt, "comm");
	TEST_ASSERT_VAL("comm", f && f->is_data_loc && f->is_string && f->offset == 32 && f->size == 4);
	f = trace_format__field(fmt, "common_pid");
	TEST_ASSERT_VAL("common_pid", f && f->is_common && f->is_signed);
	TEST_ASSERT_VAL("print fmt parsed", fmt->pf);

	/* what perf 6.1 printed for this record (spec §5) */
	n = trace_format__print_raw(fmt, spec_raw, sizeof(spec_raw), out, sizeof(out));
	fprintf(stderr, "%s\n", out);
	TEST_ASSERT_VAL("text", !strcmp(out, "(51e4e0) obj=0x7f320b43e0c0 name=10014912 comm=\"python3.11\""));
	TEST_ASSERT_EQUAL("length", n, strlen(out));

	/* snprintf semantics: truncated, NUL-terminated, full length returned */
	TEST_ASSERT_EQUAL("truncated length", trace_format__print_raw(fmt, spec_raw, sizeof(spec_raw), out, 8), n);
	TEST_ASSERT_EQUAL("truncated", strlen(out), 7);

	/* a record shorter than the fields is refused; a bad __data_loc falls back to fields */
	TEST_ASSERT_EQUAL("short", trace_format__print_raw(fmt, spec_raw, 20, out, sizeof(out)), -1);
	{
		unsigned char bad[sizeof(spec_raw)];

		memcpy(bad, spec_raw, sizeof(bad));
		bad[33] = 0x7f;     /* offset far outside the record */
		trace_format__print_raw(fmt, bad, sizeof(bad), out, sizeof(out));
		fprintf(stderr, "%s\n", out);
		TEST_ASSERT_VAL("bad data_loc", strstr(out, "comm=?"));
	}
	trace_format__delete(fmt);
	return TEST_OK;
}

/* A minimal TRACING_DATA (perf-data.md §5.2) holding spec_format. */
static void *spec_payload(size_t *size)
{
	unsigned char *p = xmalloc(4096), *q = p;
	uint64_t sz = strlen(spec_format);
	uint32_t n;

	memcpy(q, "\027\010Dtracing", 10), q += 10;
	memcpy(q, "0.6", 4), q += 4;
	*q++ = 0;
	*q++ = 8;
	n = 4096, memcpy(q, &n, 4), q += 4;
	memcpy(q, "header_page", 12), q += 12;
	memset(q, 0, 8), q += 8;
	memcpy(q, "header_event", 13), q += 13;
	memset(q, 0, 8), q += 8;
	n = 0, memcpy(q, &n, 4), q += 4;           /* ftrace */
	n = 1, memcpy(q, &n, 4), q += 4;           /* systems */
	memcpy(q, "specchk", 8), q += 8;
	n = 1, memcpy(q, &n, 4), q += 4;
	memcpy(q, &sz, 8), q += 8;
	memcpy(q, spec_format, sz), q += sz;
	n = 0, memcpy(q, &n, 4), q += 4;           /* kallsyms */
	n = 0, memcpy(q, &n, 4), q += 4;           /* printk */
	sz = 11, memcpy(q, &sz, 8), q += 8;
	memcpy(q, "4242 hello\n", 11), q += 11;
	*size = q - p;
	return p;
}

static int test__payload_robust(void)
{
	size_t size;
	unsigned char *p = spec_payload(&size);
	struct trace_formats *tf = trace_formats__parse(p, size);
	const struct trace_format *fmt;
	char comm[16];

	TEST_ASSERT_VAL("parse", tf);
	fmt = trace_formats__find(tf, 2330);
	TEST_ASSERT_VAL("find", fmt && !strcmp(fmt->system, "specchk"));
	TEST_ASSERT_VAL("no other id", !trace_formats__find(tf, 2331));
	TEST_ASSERT_VAL("comm", trace_formats__comm(tf, 4242, comm, sizeof(comm)) && !strcmp(comm, "hello"));
	TEST_ASSERT_VAL("comm truncated", trace_formats__comm(tf, 4242, comm, 3) && !strcmp(comm, "he"));
	trace_formats__delete(tf);

	/* every truncation before the saved_cmdlines must be refused, never read past the end */
	for (size_t len = 0; len + 8 + 11 < size; len++) {
		unsigned char *cut = xmalloc(len ? len : 1);

		memcpy(cut, p, len);
		tf = trace_formats__parse(cut, len);
		free(cut);
		if (tf) {
			fprintf(stderr, "accepted a payload cut at %zu of %zu\n", len, size);
			trace_formats__delete(tf);
			free(p);
			return TEST_FAIL;
		}
	}
	/* a huge event size must not be trusted */
	{
		size_t off = 10 + 4 + 2 + 4 + 12 + 8 + 13 + 8 + 4 + 4 + 8 + 4;

		memset(p + off, 0xff, 8);
		TEST_ASSERT_VAL("huge size refused", !trace_formats__parse(p, size));
	}
	free(p);

	/* hostile print fmts: deep nesting is refused (fields printed), not a stack overflow */
	for (int kind = 0; kind < 3; kind++) {
		const size_t depth = 100000;
		char *t = xmalloc(strlen(spec_format) + 2 * depth + 64), *q;
		struct trace_format *fmt;
		char out[256];

		q = t + sprintf(t, "%.*s", (int)(strstr(spec_format, "print fmt:") - spec_format), spec_format);
		q += sprintf(q, "print fmt: \"%%d\", ");
		for (size_t i = 0; i < depth; i++)
			*q++ = kind == 0 ? '(' : kind == 1 ? '-' : '!';
		*q++ = '1';
		for (size_t i = 0; kind == 0 && i < depth; i++)
			*q++ = ')';
		strcpy(q, "\n");
		fmt = trace_format__parse(t, strlen(t), "specchk");
		free(t);
		TEST_ASSERT_VAL("nested format parsed", fmt);
		TEST_ASSERT_VAL("nested print fmt refused", !fmt->pf);
		trace_format__print_raw(fmt, spec_raw, sizeof(spec_raw), out, sizeof(out));
		TEST_ASSERT_VAL("fields printed", strstr(out, "comm=python3.11"));
		trace_format__delete(fmt);
	}
	return TEST_OK;
}

DEFINE_SUITE("Tracepoint formats: spec uprobe format decoded as perf 6.1 printed it", test__spec_format);
DEFINE_SUITE("Tracepoint formats: malformed TRACING_DATA refused", test__payload_robust);
