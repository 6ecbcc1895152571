/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_RECORD_FEATURES_H
#define PERF_UTIL_RECORD_FEATURES_H

/*
 * The feature sections perf record fills from the running system, set on
 * a perf.data writer (encoded by header.c).
 */
#include <stdint.h>
#include "data.h"

/*
 * HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID, TOTAL_MEM and
 * CMDLINE (the perf binary's absolute path followed by the subcommand's
 * argv, "/usr/bin/perf" "record" "-e" ... as perf 6.1 records it).
 * Features that cannot be determined are left out. Returns 0.
 */
int record_features__env(struct perf_data_writer *w, const char *perf_path, const char *version,
			 int argc, const char **argv);
/* CLOCKID (resolution in ns) and CLOCK_DATA (wall clock and clockid time, now) */
int record_features__clock(struct perf_data_writer *w, int clockid);
int record_features__sample_time(struct perf_data_writer *w, uint64_t first, uint64_t last);

#endif
