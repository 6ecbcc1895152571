// SPDX-License-Identifier: MIT
/*
 * System features (util/record-features.c) against a file perf 6.1 records
 * here: our builders must produce its HOSTNAME ... TOTAL_MEM payloads byte
 * for byte, and re-encoding its BUILD_ID records and EVENT_DESC (header.c)
 * must give its bytes back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "tests.h"
#include "builtin.h"
#include "util/build-id.h"
#include "util/data.h"
#include "util/header.h"
#include "util/record-features.h"
#include "util/util.h"
#define REF_PERF "/usr/bin/perf"

/* payload our writer would store for feat, through a file written and read back */
static int our_env_features(struct perf_data_reader *out, int argc, const char **argv)
{
	struct perf_data_writer w;
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .size = 128 };
	struct perf_event_header round = { .type = PERF_RECORD_FINISHED_ROUND, .size = 8 };

	if (perf_data_writer__open(&w, "ours.data", false))
		return -1;
	perf_data_writer__add_attr(&w, &attr, NULL, 0, "cpu-clock");
	record_features__env(&w, perf_exec_path, perf_version_string, argc, argv);
	perf_data_writer__write(&w, &round, sizeof(round));
	if (perf_data_writer__close(&w))
		return -1;
	return perf_data_reader__open(out, "ours.data");
}

static int test__features_vs_perf61(void)
{
	const char *argv[] = { "record", "-q", "-e", "cpu-clock", "-o", "ref.data", "--", "ls" };
	const int same[] = { HEADER_HOSTNAME, HEADER_OSRELEASE, HEADER_ARCH, HEADER_NRCPUS,
			     HEADER_CPUDESC, HEADER_CPUID, HEADER_TOTAL_MEM };
	struct perf_data_reader ref, ours;
	struct build_id_entry *bids;
	struct event_desc *d;
	struct feat_buf b = { 0 };
	struct feat_cursor c;
	const char **cmdline;
	uint32_t nr_cmd;
	size_t nr;
	char cmd[512];

	if (access(REF_PERF, X_OK))
		return printf("SKIP: perf 6.1 not installed\n"), TEST_SKIP;
	snprintf(cmd, sizeof(cmd), "HOME=$PWD %s %s %s %s %s %s %s %s %s >/dev/null 2>&1", REF_PERF,
		 argv[0], argv[1], argv[2], argv[3], argv[4], argv[5], argv[6], argv[7]);
	if (system(cmd))
		return printf("SKIP: perf 6.1 cannot record here\n"), TEST_SKIP;
	TEST_ASSERT_VAL("open perf 6.1 file", perf_data_reader__open(&ref, "ref.data") == 0);
	TEST_ASSERT_VAL("open our file", our_env_features(&ours, ARRAY_SIZE(argv), argv) == 0);

	for (size_t i = 0; i < ARRAY_SIZE(same); i++) {
		int f = same[i];

		if (!perf_data_reader__has_feat(&ref, f))
			continue;
		TEST_ASSERT_VAL(perf_feature__name(f), perf_data_reader__has_feat(&ours, f));
		if (ref.feat[f].size != ours.feat[f].size ||
		    memcmp(ref.feat[f].data, ours.feat[f].data, ref.feat[f].size)) {
			fprintf(stderr, "feature %s differs from perf 6.1's\n", perf_feature__name(f));
			return TEST_FAIL;
		}
	}
	/* CMDLINE: perf's own path, then the subcommand's argv */
	TEST_ASSERT_VAL("CMDLINE", perf_data_reader__has_feat(&ref, HEADER_CMDLINE));
	feat_cursor__init(&c, ref.feat[HEADER_CMDLINE].data, ref.feat[HEADER_CMDLINE].size);
	cmdline = feat_cursor__string_list(&c, &nr_cmd);
	TEST_ASSERT_VAL("CMDLINE decodes", cmdline);
	TEST_ASSERT_EQUAL("CMDLINE count", nr_cmd, ARRAY_SIZE(argv) + 1);
	TEST_ASSERT_VAL("CMDLINE[0]", !strcmp(cmdline[0], REF_PERF));
	for (size_t i = 0; i < ARRAY_SIZE(argv); i++)
		TEST_ASSERT_VAL("CMDLINE arg", !strcmp(cmdline[i + 1], argv[i]));
	free(cmdline);
	feat_cursor__init(&c, ours.feat[HEADER_CMDLINE].data, ours.feat[HEADER_CMDLINE].size);
	cmdline = feat_cursor__string_list(&c, &nr_cmd);
	TEST_ASSERT_VAL("our CMDLINE", cmdline && nr_cmd == ARRAY_SIZE(argv) + 1 && !strcmp(cmdline[1], "record"));
	free(cmdline);

	/* EVENT_DESC: names the attr, ids are the attr's */
	TEST_ASSERT_VAL("attr named from EVENT_DESC", ref.attrs[0].name && !strcmp(ref.attrs[0].name, "cpu-clock"));
	TEST_ASSERT_VAL("EVENT_DESC decodes",
			event_desc__decode(ref.feat[HEADER_EVENT_DESC].data, ref.feat[HEADER_EVENT_DESC].size,
					   &d, &nr) == 0);
	TEST_ASSERT_EQUAL("EVENT_DESC nr", nr, ref.nr_attrs);
	TEST_ASSERT_EQUAL("EVENT_DESC ids", d[0].nr_ids, ref.attrs[0].nr_ids);
	for (uint32_t i = 0; i < d[0].nr_ids; i++)
		TEST_ASSERT_EQUAL("EVENT_DESC id", d[0].ids[i], ref.attrs[0].ids[i]);
	event_desc__free(d, nr);
	/* our encoder from the same attrs gives perf's bytes back */
	event_desc__encode(&b, ref.attrs, ref.nr_attrs);
	TEST_ASSERT_VAL("EVENT_DESC re-encodes identically",
			b.len == ref.feat[HEADER_EVENT_DESC].size &&
			!memcmp(b.data, ref.feat[HEADER_EVENT_DESC].data, b.len));
	feat_buf__release(&b);

	/* BUILD_ID: decode perf's records and re-encode them byte for byte */
	TEST_ASSERT_VAL("BUILD_ID present", perf_data_reader__has_feat(&ref, HEADER_BUILD_ID));
	TEST_ASSERT_VAL("BUILD_ID decodes",
			build_id__decode(ref.feat[HEADER_BUILD_ID].data, ref.feat[HEADER_BUILD_ID].size,
					 &bids, &nr) == 0);
	TEST_ASSERT_VAL("some build-ids", nr > 0);
	for (size_t i = 0; i < nr; i++) {
		TEST_ASSERT_EQUAL("host pid", bids[i].pid, -1);
		if (!strcmp(bids[i].filename, "[kernel.kallsyms]"))
			TEST_ASSERT_EQUAL("kernel cpumode", bids[i].cpumode, PERF_RECORD_MISC_KERNEL);
		else
			TEST_ASSERT_EQUAL("user cpumode", bids[i].cpumode, PERF_RECORD_MISC_USER);
	}
	for (size_t i = 0; i < nr; i++)
		build_id__encode(&b, &bids[i], 0);
	TEST_ASSERT_VAL("BUILD_ID re-encodes identically",
			b.len == ref.feat[HEADER_BUILD_ID].size &&
			!memcmp(b.data, ref.feat[HEADER_BUILD_ID].data, b.len));
	feat_buf__release(&b);
	build_id__free_entries(bids, nr);
	perf_data_reader__close(&ref);
	perf_data_reader__close(&ours);
	return TEST_OK;
}
DEFINE_SUITE("perf.data features: our system features equal perf 6.1's", test__features_vs_perf61);
