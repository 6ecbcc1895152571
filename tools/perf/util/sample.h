/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_SAMPLE_H
#define PERF_UTIL_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include "event.h"

struct evsel;

struct ip_callchain {
	uint64_t nr;
	uint64_t ips[];
};

/* A decoded SAMPLE, or the sample_id trailer of another record. Pointers
 * point into the record. Fields absent from sample_type are 0 / -1 / NULL. */
struct perf_sample {
	uint64_t ip;
	uint32_t pid, tid;            /* -1 when absent */
	uint64_t time;
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;                 /* -1 when absent */
	uint64_t period;
	uint16_t cpumode;             /* header.misc & 7 */
	uint16_t misc;
	const struct ip_callchain *callchain;
	uint32_t raw_size;
	const void *raw_data;
	uint64_t user_regs_abi, user_regs_mask;
	const uint64_t *user_regs;
	uint64_t user_stack_size;     /* bytes copied */
	const void *user_stack;
	uint64_t user_stack_dyn_size; /* bytes that were valid */
};

/* Size of the sample_id trailer that sample_type implies (sample_id_all). */
unsigned int sample_id_hdr__size(uint64_t sample_type);

/*
 * Decodes a SAMPLE (type 9) against its attr, or the sample_id trailer of
 * any other kernel record when attr->sample_id_all. Returns 0, or -1 if the
 * record is too short for what sample_type promises.
 */
int perf_sample__parse(const struct perf_event_attr *attr, const union perf_event *ev,
		       struct perf_sample *s);

/* Writes a sample_id trailer for sample_type into buf (id_hdr_size bytes). */
void perf_sample__write_id_hdr(uint64_t sample_type, const struct perf_sample *s, void *buf);

/* The id of a record: SAMPLE via IDENTIFIER/ID; others via the trailer. */
bool perf_event__read_id(uint64_t sample_type, bool sample_id_all, const union perf_event *ev,
			 uint64_t *id);

#endif
