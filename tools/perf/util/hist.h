/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_HIST_H
#define PERF_UTIL_HIST_H

/*
 * Histogram of samples by sort keys (comm, pid, dso, sym, srcline), with
 * self and children (cumulative) periods and the call chains behind each
 * entry, as perf report aggregates them.
 */
#include <stdbool.h>
#include <stdint.h>
#include "machine.h"

enum sort_key {
	SORT_COMM,
	SORT_PID,
	SORT_DSO,
	SORT_SYM,
	SORT_SRCLINE,
	SORT_CPU,
	SORT_NR_KEYS,
};

#define MAX_SORT_KEYS 8

/* report -F: the columns besides the keys (numbered after them) */
enum hist_field {
	HF_CHILDREN = SORT_NR_KEYS,   /* overhead_children */
	HF_SELF,                      /* overhead */
	HF_SAMPLES,                   /* sample */
	HF_PERIOD,                    /* period */
	HF_NR,
};

#define MAX_FIELDS 16

/* a key or field name of --sort / -F; -1 if unknown */
int hist_field__parse(const char *name);

/* what report -F asks for: columns, row order and the keys entries are made by */
struct hist_fields {
	int cols[MAX_FIELDS + MAX_SORT_KEYS];
	int nr_cols;
	int sort_items[MAX_FIELDS + MAX_SORT_KEYS];
	int nr_sort_items;          /* 0: the default order */
	bool plus;                  /* "+a,b": the default columns and these */
	char keys[128];             /* for hists__init */
};

/*
 * fields: -F's list ("+a,b" adds to the default columns), sort: --sort or
 * NULL. As perf 6.1: without --sort the keys among the fields are the sort
 * keys; with it, its keys not among the fields are shown after them.
 */
int hist_fields__setup(struct hist_fields *hf, const char *fields, const char *sort, bool children,
		       bool nr_samples);

/* one resolved frame: what an address is, for display and for grouping */
struct hist_frame {
	struct dso *dso;
	struct symbol *sym;
	uint64_t addr;        /* DSO address (or raw ip without a map) */
	uint64_t ip;          /* the runtime address */
	bool kernel;
	bool inlined;         /* sym is a function inlined at addr (callchain --inline) */
};

/* a call-graph node's frame: a hist_frame without the runtime address */
struct chain_frame {
	struct dso *dso;
	struct symbol *sym;
	uint64_t addr;        /* the runtime address when there is no symbol */
	bool kernel;
	bool inlined;
};

/* millions of these in a big report: kept small (no hash link, no runtime ip) */
struct callchain_node {
	struct chain_frame frame;
	uint64_t period;          /* of all chains through this node */
	uint64_t self;            /* of chains ending here */
	uint64_t count;           /* samples through this node */
	/* children: most recently used first; prev makes moving one to the front O(1) */
	struct callchain_node *children, *next, *prev;
};

struct hist_entry {
	const char *comm;
	const char *thread_comm;  /* the thread's last comm: perf 6.1 shows it for "pid", sizes "comm" by it */
	int32_t pid;
	int32_t cpu;
	struct hist_frame frame;
	const char *srcline;
	uint64_t period;          /* self */
	uint64_t period_children; /* self + samples whose chain passes through */
	uint64_t nr_samples;
	struct callchain_node chain_root;
	struct hist_entry *hash_next;
	uint64_t hash;
	uint64_t last_sample;     /* hists.nr_samples when a sample last counted here */
	uint64_t seq;             /* creation order */
	int32_t tid;              /* of the sample that made it */
	uint32_t max_depth;       /* frames of its longest chain (children-mode ties) */
	bool filtered;            /* made by a sample a filter left out: hidden */
};

struct hists {
	enum sort_key keys[MAX_SORT_KEYS];
	int nr_keys;
	bool children;            /* --children: cumulate callers */
	bool callchains;          /* collect chains for the graph */
	bool callee_order;        /* chains from the sampled function up to the root */
	struct hist_entry **buckets;
	size_t nbuckets, nr_entries;
	uint64_t total_period, nr_samples;
	/* total_period and nr_samples count the shown entries; these the hidden ones */
	uint64_t nr_filtered_period, nr_filtered_samples;
	uint64_t sample_seq;      /* samples added, shown or not */
	bool adding_filtered;     /* the sample being added was left out by a filter */
	struct dsos *dsos;        /* for srclines */
	void *strings;            /* interned comm / srcline strings */
	void *node_arena;         /* call-graph nodes, freed all at once */
	/* report -F: what rows are ordered by (keys and fields); none: the default */
	int sort_items[MAX_FIELDS + MAX_SORT_KEYS];
	int nr_sort_items;
	struct kid_index *kids;   /* the children of nodes with many, by (parent, frame) */
	const struct dso *dso_seen[64]; /* DSO name hashes by pointer: a DSO is keyed by name */
	uint64_t dso_hash[64];
};

/* keys: comma-separated ("comm,dso,sym"); -1 with a message on an unknown key */
int hists__init(struct hists *h, const char *keys, struct dsos *dsos);
void hists__exit(struct hists *h);

/*
 * Adds one sample. frames[0] is the sampled address, frames[1..n-1] its
 * callers, innermost first (n >= 1).
 */
void hists__add_sample(struct hists *h, const char *comm, int32_t pid, int32_t tid, int32_t cpu,
		       const struct hist_frame *frames, size_t n, uint64_t period);
/*
 * After the last sample, with a "pid" or "comm" key: each entry's thread comm becomes
 * comm_of(ctx, tid) (NULL: keep the sample's), as perf 6.1 shows a thread
 * under the name it ended with, not the one it had when sampled.
 */
void hists__set_thread_comms(struct hists *h, const char *(*comm_of)(void *ctx, int32_t tid), void *ctx);
/*
 * The same, but the chain is frames[skip..n-1] only: with --max-stack in
 * caller order perf keeps the outermost frames, not the sampled one's.
 */
void hists__add_sample_cut(struct hists *h, const char *comm, int32_t pid, int32_t tid, int32_t cpu,
			   const struct hist_frame *frames, size_t n, size_t skip, uint64_t period);
/*
 * A sample a filter (--comms, --dsos, ...) leaves out, as perf 6.1 counts
 * it: an entry is shown or hidden by the sample that made it, and every
 * later sample with its keys adds to it, left out or not. So a filtered
 * sample still counts in a shown entry (its keys do not tell the filtered
 * property apart), and a kept one is hidden in an entry a filtered one made.
 */
void hists__add_sample_filtered(struct hists *h, const char *comm, int32_t pid, int32_t tid,
				int32_t cpu, const struct hist_frame *frames, size_t n, size_t skip,
				uint64_t period, bool filtered);

/*
 * Which samples count (report --comms, --dsos, --symbols, --pid, --tid):
 * comma-separated lists, NULL for no restriction.
 */
struct hist_filter {
	char **comms, **dsos, **syms;
	int32_t *pids, *tids;
	size_t nr_comms, nr_dsos, nr_syms, nr_pids, nr_tids;
};

/* -1 with a message on a bad number in pids/tids */
int hist_filter__init(struct hist_filter *f, const char *comms, const char *dsos, const char *syms,
		      const char *pids, const char *tids);
void hist_filter__exit(struct hist_filter *f);
/* frame: the sampled address, what --dsos and --symbols look at */
bool hist_filter__match(const struct hist_filter *f, const char *comm, int32_t pid, int32_t tid,
			const struct hist_frame *frame);

/* entries sorted for output: by (children or self) period, then by the keys */
struct hist_entry **hists__sorted(struct hists *h, size_t *nr);

/* "[.] name", "[k] 0x..." etc. into buf */
const char *hist_frame__sym_name(const struct hist_frame *f, char *buf, size_t size);
const char *hist_frame__dso_name(const struct hist_frame *f);

bool hists__has_key(const struct hists *h, enum sort_key k);

/* entries by one key, as perf 6.1 orders them (name, then address) */
int hist_entry__cmp_key(enum sort_key k, const struct hist_entry *a, const struct hist_entry *b);

#endif
