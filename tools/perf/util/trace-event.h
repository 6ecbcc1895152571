/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_TRACE_EVENT_H
#define PERF_UTIL_TRACE_EVENT_H

/*
 * Tracepoint formats: the TRACING_DATA payload of perf.data (feature 1 /
 * pipe record 66, ../shared/specs/perf-data.md §5.2), the tracefs format
 * files it carries, and decoding of PERF_SAMPLE_RAW payloads into the text
 * `perf script` prints for a tracepoint.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct trace_field {
	char *type;             /* C type as in the format file: "unsigned short", "char[16]", "__data_loc char[]" */
	char *name;
	unsigned int offset;
	unsigned int size;      /* whole field (for arrays: all elements) */
	bool is_signed;
	bool is_common;         /* common_* header field */
	bool is_data_loc;       /* u32: low 16 bits offset in the record, high 16 bits length */
	bool is_rel_loc;        /* __rel_loc: offset relative to the end of the field */
	bool is_array;          /* fixed array "type name[N]" */
	bool is_string;         /* char array or __data_loc char[] */
	bool is_pointer;
	unsigned int array_len; /* fixed arrays: N */
	unsigned int elem_size; /* arrays: size of one element; else == size */
};

struct print_fmt;               /* parsed "print fmt:" line (private) */
struct kallsyms;

/* returns the kernel symbol containing @addr and sets *offset, or NULL */
typedef const char *(*trace_ksym_resolver_t)(uint64_t addr, uint64_t *offset, void *arg);

struct trace_format {
	uint64_t id;
	char *system;
	char *name;
	struct trace_field *fields;
	size_t nr_fields, fields_cap;
	char *print_fmt;        /* raw text after "print fmt: ", NULL if absent */
	struct print_fmt *pf;   /* parsed form; NULL if it could not be parsed */
	char *text;             /* the whole format file */
	size_t text_size;
};

struct trace_formats {
	bool big_endian;        /* of the recorded machine */
	unsigned int long_size;
	unsigned int page_size;
	char *version;
	struct trace_format **formats;
	size_t nr_formats, formats_cap;
	/* saved_cmdlines "pid comm" pairs, for a later `comm` lookup */
	char *cmdlines;
	size_t cmdlines_size;
	/* %pS/%ps (trace_formats__set_ksym_resolver) */
	trace_ksym_resolver_t ksym_resolver;
	void *ksym_arg;
	struct kallsyms *kallsyms;   /* the default resolver's table, loaded on first use */
};

/* ---- building (perf record) ---- */

/*
 * Builds the TRACING_DATA payload for the tracepoints with the given ids
 * (attr.config of PERF_TYPE_TRACEPOINT events), in perf 6.1's layout:
 * systems and events in first-seen order of @tp_ids, duplicates dropped,
 * `ftrace` events go to the ftrace section. *buf is malloc'ed, *size is
 * its length (not padded). 0 on success, -1 (pr_err) on error.
 */
int trace_event__build_tracing_data(const uint64_t *tp_ids, size_t n, void **buf, size_t *size);

/* The same from "sys:event" names (avoids the id scan of tracefs). */
int trace_event__build_tracing_data_names(const char *const *sys_event, size_t n,
					  void **buf, size_t *size);

/* ---- parsing (perf script/report) ---- */

/*
 * Parses a TRACING_DATA payload (perf 6.1's or ours). NULL with a one-line
 * pr_err on malformed input. Copies what it keeps; @data may be freed after.
 */
struct trace_formats *trace_formats__parse(const void *data, size_t size);
void trace_formats__delete(struct trace_formats *tf);

/* The format whose ID matches attr.config, or NULL. */
const struct trace_format *trace_formats__find(const struct trace_formats *tf, uint64_t id);

/* The comm saved for @pid in saved_cmdlines, copied into @comm (truncated to @size), or NULL. */
const char *trace_formats__comm(const struct trace_formats *tf, int pid, char *comm, size_t size);

/* Parses one tracefs format file. NULL (pr_err) when it is malformed. */
struct trace_format *trace_format__parse(const char *text, size_t size, const char *system);
void trace_format__delete(struct trace_format *fmt);

const struct trace_field *trace_format__field(const struct trace_format *fmt, const char *name);

/*
 * Integer value of a field of a raw record (sign-extended when signed:1,
 * one element for arrays: @idx). false when the field is outside @size.
 */
bool trace_field__value(const struct trace_field *f, const void *raw, size_t size,
			unsigned int idx, bool big_endian, uint64_t *val);

/*
 * Decodes a PERF_SAMPLE_RAW payload into the text perf 6.1 `perf script`
 * prints after "sys:event: " (the print fmt evaluated; when it cannot be
 * evaluated, "field=value" for each non-common field). Always
 * NUL-terminates @out (when @outsz > 0); returns the length the full text
 * would have (like snprintf), or -1 when @raw is too short for the format.
 */
int trace_format__print_raw(const struct trace_format *fmt, const void *raw, size_t size,
			    char *out, size_t outsz);
int trace_format__fprint_raw(const struct trace_format *fmt, const void *raw, size_t size, FILE *fp);

/* The same, with the byte order / long size of a parsed TRACING_DATA. */
int trace_formats__print_raw(const struct trace_formats *tf, const struct trace_format *fmt,
			     const void *raw, size_t size, char *out, size_t outsz);

/*
 * Kernel symbol lookup for %pS/%ps in print formats. By default a parsed
 * TRACING_DATA resolves against the running kernel's /proc/kallsyms, read on
 * the first such lookup (perf 6.1 script does the same); the owner of tf may
 * set another resolver (fn NULL: addresses print in hex). Formats printed
 * without a trace_formats (trace_format__print_raw) print addresses in hex.
 */
void trace_formats__set_ksym_resolver(struct trace_formats *tf, trace_ksym_resolver_t fn, void *arg);

#endif
