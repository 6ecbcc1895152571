// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "header.h"
#include "record-features.h"
#include "util.h"

static void set_buf_feature(struct perf_data_writer *w, int feat, struct feat_buf *b)
{
	perf_data_writer__set_feature(w, feat, b->data, b->len);
	feat_buf__release(b);
}

static void set_string_feature(struct perf_data_writer *w, int feat, const char *s)
{
	struct feat_buf b = { 0 };

	if (!s)
		return;
	feat_buf__put_string(&b, s);
	set_buf_feature(w, feat, &b);
}

int record_features__env(struct perf_data_writer *w, const char *perf_path, const char *version,
			 int argc, const char **argv)
{
	struct utsname uts;
	struct feat_buf b = { 0 };
	char *s;
	long avail = sysconf(_SC_NPROCESSORS_CONF), online = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t mem;
	const char **cmdline;

	if (uname(&uts) == 0) {
		set_string_feature(w, HEADER_HOSTNAME, uts.nodename);
		set_string_feature(w, HEADER_OSRELEASE, uts.release);
		set_string_feature(w, HEADER_ARCH, uts.machine);
	}
	set_string_feature(w, HEADER_VERSION, version);
	if (avail > 0 && online > 0) {
		header__encode_nrcpus(&b, (uint32_t)avail, (uint32_t)online);
		set_buf_feature(w, HEADER_NRCPUS, &b);
	}
	s = header__cpudesc_string();
	set_string_feature(w, HEADER_CPUDESC, s);
	free(s);
	s = header__cpuid_string();
	set_string_feature(w, HEADER_CPUID, s);
	free(s);
	mem = header__total_mem_kb();
	if (mem) {
		feat_buf__put_u64(&b, mem);
		set_buf_feature(w, HEADER_TOTAL_MEM, &b);
	}
	cmdline = xmalloc((argc + 1) * sizeof(*cmdline));
	cmdline[0] = perf_path ? perf_path : "perf";
	for (int i = 0; i < argc; i++)
		cmdline[i + 1] = argv[i];
	feat_buf__put_string_list(&b, cmdline, argc + 1);
	free(cmdline);
	set_buf_feature(w, HEADER_CMDLINE, &b);
	return 0;
}

int record_features__clock(struct perf_data_writer *w, int clockid)
{
	struct timespec res, now_clk, now_wall;
	struct feat_buf b = { 0 };

	if (clock_getres(clockid, &res) == 0) {
		feat_buf__put_u64(&b, (uint64_t)res.tv_sec * 1000000000ull + res.tv_nsec);
		set_buf_feature(w, HEADER_CLOCKID, &b);
	}
	if (clock_gettime(CLOCK_REALTIME, &now_wall) == 0 && clock_gettime(clockid, &now_clk) == 0) {
		feat_buf__put_u32(&b, 1);   /* version */
		feat_buf__put_u32(&b, (uint32_t)clockid);
		feat_buf__put_u64(&b, (uint64_t)now_wall.tv_sec * 1000000000ull + now_wall.tv_nsec);
		feat_buf__put_u64(&b, (uint64_t)now_clk.tv_sec * 1000000000ull + now_clk.tv_nsec);
		set_buf_feature(w, HEADER_CLOCK_DATA, &b);
	}
	return 0;
}

int record_features__sample_time(struct perf_data_writer *w, uint64_t first, uint64_t last)
{
	struct feat_buf b = { 0 };

	feat_buf__put_u64(&b, first);
	feat_buf__put_u64(&b, last);
	set_buf_feature(w, HEADER_SAMPLE_TIME, &b);
	return 0;
}
