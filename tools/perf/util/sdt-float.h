/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_SDT_FLOAT_H
#define PERF_UTIL_SDT_FLOAT_H

/*
 * The floating-point arguments of an SDT probe site. Their uprobe fetches
 * the raw bits (u32/u64, the only types uprobes have, and what perf 6.1
 * writes too); the note's "4f@"/"8f@" is what tells perf script to show
 * the value as a float. Nothing about it is in perf.data, so the notes of
 * the DSO the sample hit are read (once per DSO).
 */
#include <stdint.h>

struct dso;
struct dsos;

struct sdt_float_arg {
	unsigned int arg;    /* 1-based: the uprobe field "argN" */
	unsigned int size;   /* 4 or 8 */
};

/*
 * Fills up to max floating-point arguments of the SDT site at addr (the
 * DSO's address space, as a sample's resolved address) and returns how
 * many; 0 when addr is no SDT site or it has none.
 */
int sdt_float__site_args(struct dsos *d, struct dso *dso, uint64_t addr,
			 struct sdt_float_arg *out, int max);

#endif
