/* SPDX-License-Identifier: MIT */
#ifndef PERF_TESTS_TRACE_EVENT_PERF61_H
#define PERF_TESTS_TRACE_EVENT_PERF61_H

/* Helpers shared by the trace-event-*.c tests (see trace-event-perf61.c). */
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#define TP_MAX_ATTRS 16
#define TP_MAX_IDS 256

struct tp_attr {
	struct perf_event_attr attr;
	uint64_t ids[TP_MAX_IDS];
	size_t nr_ids;
};

struct tp_data {
	unsigned char *buf;
	size_t size;
	struct tp_attr attrs[TP_MAX_ATTRS];
	size_t nr_attrs;
	const unsigned char *data;
	uint64_t data_size, pos;
	const unsigned char *tracing_data;
	uint64_t tracing_data_size;
};

int tp_data__load_file(struct tp_data *d, const char *path);
int tp_data__next_raw(struct tp_data *d, const struct tp_attr **attr, const void **raw, uint32_t *raw_size,
		      uint64_t *time);
void tp_data__free(struct tp_data *d);
int tp_run(const char *cmd);
int tp_compare_with_script(const char *data, const char *script_out, int *mismatches);

#endif
