// SPDX-License-Identifier: MIT
/*
 * perf inject --jit on a hostile jitdump (util/jit-inject.c, util/genelf.c):
 * the input is written as jit-PID.dump into a private tmpfs directory, a
 * minimal `perf record -k mono` stream names it with an MMAP2, and inject
 * builds the ELFs
 * (names, line tables, inline chains, unwinding info all come from the
 * dump) and the MMAP2 records. The first input byte picks perf 6.1's
 * one-ELF-per-function layout or ours; the rest is the dump.
 */
#include <dirent.h>
#include <time.h>
#include "fuzz-util.h"
#include "util/data.h"
#include "util/event.h"
#include "util/jit-inject.h"
#include "util/util.h"

#define FUZZ_PID 4242

static char dir[] = "/dev/shm/fuzz-jit-inject.XXXXXX";
static char in_path[128], dump_path[128], out_path[128];
static volatile uint64_t sink;

static void clean_dir(bool all)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (all || strcmp(de->d_name, "in.data"))
			unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
}

static void cleanup(void)
{
	clean_dir(true);
	rmdir(dir);
}

static void put(struct perf_data_writer *w, const void *ev)
{
	if (perf_data_writer__write(w, ev, ((const struct perf_event_header *)ev)->size))
		abort();
}

/* the recording: an attr on CLOCK_MONOTONIC, the dump's MMAP2 marker */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(attr), .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1000, .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
		.sample_id_all = 1, .use_clockid = 1, .clockid = CLOCK_MONOTONIC,
	};
	struct perf_data_writer w;
	struct perf_record_mmap2 m = { 0 };
	unsigned char buf[256] = { 0 };
	uint32_t ids[2] = { FUZZ_PID, FUZZ_PID };
	uint64_t t = 1;
	size_t nlen, off;

	if (!mkdtemp(dir))
		abort();
	atexit(cleanup);
	snprintf(in_path, sizeof(in_path), "%s/in.data", dir);
	snprintf(dump_path, sizeof(dump_path), "%s/jit-%d.dump", dir, FUZZ_PID);
	snprintf(out_path, sizeof(out_path), "%s/out.data", dir);
	if (perf_data_writer__open(&w, in_path, false) ||
	    perf_data_writer__add_attr(&w, &attr, NULL, 0, "cpu-clock") || perf_data_writer__start(&w))
		abort();
	/* the marker: MMAP2 of the dump, name padded to 8, then its sample_id (tid, time) */
	nlen = ALIGN_UP(strlen(dump_path) + 1, 8);
	off = sizeof(m) + nlen;
	if (off + 16 > sizeof(buf))
		abort();
	m.header.type = PERF_RECORD_MMAP2;
	m.header.misc = PERF_RECORD_MISC_USER;
	m.header.size = (uint16_t)(off + 16);
	m.pid = m.tid = FUZZ_PID;
	m.start = 0x7f0000000000ull;
	m.len = 4096;
	m.prot = 1;
	m.flags = 2;
	memcpy(buf, &m, sizeof(m));
	memcpy(buf + sizeof(m), dump_path, strlen(dump_path));
	memcpy(buf + off, ids, 8);
	memcpy(buf + off + 8, &t, 8);
	put(&w, buf);
	if (perf_data_writer__close(&w))
		abort();
	return 0;
}

static int copy_stream(struct perf_data_reader *r, struct perf_data_writer *w, struct jit_inject *ji)
{
	union perf_event *ev;
	uint64_t off;
	int ret;

	while ((ret = perf_data_reader__next(r, &ev, &off)) > 0) {
		int k = jit_inject__process(ji, ev);

		if (k < 0)
			return -1;
		if (k == 0)
			put(w, ev);
	}
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jit_inject_opts opts = { 0 };
	struct perf_data_reader r;
	struct perf_data_writer w;
	struct jit_inject *ji;
	struct jit_inject_stats st;
	int fd;

	if (size < 1)
		return 0;
	opts.elf_per_function = data[0] & 1;
	fd = open(dump_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || writen(fd, data + 1, size - 1) != (ssize_t)(size - 1))
		abort();
	close(fd);
	if (perf_data_reader__open(&r, in_path))
		abort();
	if (perf_data_writer__open(&w, out_path, false))
		abort();
	for (size_t i = 0; i < r.nr_attrs; i++)
		perf_data_writer__add_attr(&w, &r.attrs[i].attr, r.attrs[i].ids, r.attrs[i].nr_ids, r.attrs[i].name);
	perf_data_writer__start(&w);
	ji = jit_inject__new(&r, &w, &opts);
	if (ji) {
		if (copy_stream(&r, &w, ji) >= 0)
			jit_inject__finish(ji);
		jit_inject__stats(ji, &st);
		sink += st.loads + st.elfs_written;
		if (getenv("FUZZ_VERBOSE"))
			fprintf(stderr, "loads %llu elfs %llu mmaps %llu\n", (unsigned long long)st.loads,
				(unsigned long long)st.elfs_written, (unsigned long long)st.mmaps_emitted);
		jit_inject__delete(ji);
	}
	perf_data_writer__close(&w);
	perf_data_reader__close(&r);
	clean_dir(false);
	return 0;
}
