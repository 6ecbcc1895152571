/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_SCRIPT_OUTPUT_H
#define PERF_UTIL_SCRIPT_OUTPUT_H

/*
 * perf script's output: which fields each kind of event prints (-F, with
 * perf 6.1's defaults, "type:" prefixes and +field/-field edits), and the
 * text of one sample or side-band record (MMAP, COMM, FORK, SWITCH ...) in
 * perf 6.1's layout, written onto a FILE* the caller chooses.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "callchain.h"
#include "script-filter.h"
#include "session.h"

enum script_field {
	SF_COMM, SF_TID, SF_PID, SF_TIME, SF_CPU, SF_EVNAME, SF_TRACE, SF_IP, SF_SYM, SF_DSO,
	SF_ADDR, SF_SYMOFF, SF_SRCLINE, SF_PERIOD, SF_IREGS, SF_UREGS, SF_BRSTACK, SF_BRSTACKSYM,
	SF_FLAGS, SF_DATA_SRC, SF_WEIGHT, SF_BPF_OUTPUT, SF_BRSTACKINSN, SF_BRSTACKINSNLEN,
	SF_BRSTACKOFF, SF_CALLINDENT, SF_INSN, SF_INSNLEN, SF_SYNTH, SF_PHYS_ADDR, SF_METRIC,
	SF_MISC, SF_SRCCODE, SF_IPC, SF_TOD, SF_DATA_PAGE_SIZE, SF_CODE_PAGE_SIZE, SF_INS_LAT,
	SF_NR
};

#define SF(x) (1ull << (SF_##x))

/* the kinds of event -F distinguishes (perf_event_attr.type, and the rest) */
enum script_type {
	ST_HW, ST_SW, ST_TRACE, ST_HW_CACHE, ST_RAW, ST_BREAKPOINT, ST_SYNTH, ST_OTHER, ST_NR
};

/* which side-band records are printed (--show-*-events) */
enum {
	SHOW_MMAP = 1 << 0, SHOW_TASK = 1 << 1, SHOW_SWITCH = 1 << 2, SHOW_LOST = 1 << 3,
	SHOW_ROUND = 1 << 4, SHOW_NAMESPACE = 1 << 5, SHOW_CGROUP = 1 << 6, SHOW_BPF = 1 << 7,
};

#define SCRIPT_MAX_FRAMES 512

struct script_output {
	uint64_t fields[ST_NR];
	bool user_set[ST_NR];         /* -F gave this type a list of its own */
	bool touched[ST_NR];          /* -F changed this type at all */
	uint64_t named[ST_NR];        /* fields -F named (+field too): missing ones are errors */
	bool ns;                      /* --ns: nanoseconds */
	bool reltime, deltatime;
	bool hide_callchain;          /* -G */
	unsigned max_stack;           /* --max-stack: frames of a call chain printed */
	unsigned show;                /* SHOW_* */
	struct name_list stop_bt;     /* --stop-bt: a chain ends after these functions */
	int name_width;               /* widest event name: perf aligns them */
	uint64_t initial_time, previous_time;
	struct trace_printer *tp;
	struct callchain_resolver resolver;  /* set up by the caller on its session */
	struct hist_frame frames[SCRIPT_MAX_FRAMES];
};

void script_output__init(struct script_output *o);
void script_output__exit(struct script_output *o);

/*
 * Applies one -F argument ("comm,tid", "sw:ip,sym", "+pid,-dso", "trace:").
 * Returns 0, or -1 after a message (unknown field or type).
 */
int script_output__parse_fields(struct script_output *o, const char *arg);

/*
 * Settles the fields of every event of the session: defaults without what
 * the samples lack, and perf 6.1's refusals of what cannot be printed (-1
 * after its message, e.g. "do not have CPU attribute set").
 */
int script_output__setup(struct script_output *o, struct perf_session *s);

enum script_type evsel__script_type(const struct evsel *evsel);

/*
 * Resolves a sample's address (and its call chain when it will be printed)
 * into o->frames; returns how many. The thread is set as well.
 */
size_t script_output__resolve(struct script_output *o, struct perf_session *s,
			      const struct perf_sample *sample, const struct evsel *evsel,
			      struct thread **thread);

/* one sample, after script_output__resolve gave its n frames and thread */
void script_output__sample(struct script_output *o, FILE *f, struct perf_session *s,
			   const struct perf_sample *sample, const struct evsel *evsel,
			   const struct thread *thread, size_t n);

/*
 * A side-band record when its --show-*-events asks for it. sample is the
 * record's sample_id trailer (NULL for records without one).
 */
void script_output__event(struct script_output *o, FILE *f, struct perf_session *s,
			  const union perf_event *ev, const struct perf_sample *sample);

#endif
