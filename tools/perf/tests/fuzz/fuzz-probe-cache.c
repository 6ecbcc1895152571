// SPDX-License-Identifier: MIT
/*
 * The probe cache (util/probe-cache.c): parse a `probes` file, validate
 * every uprobe_events line the way the kernel would read it, match and
 * remove by glob, and round-trip: what we write must parse again to the
 * same entries (a cache we wrote must never be one we then refuse).
 */
#include <dirent.h>
#include "fuzz-util.h"
#include "util/probe-cache.h"

static volatile uint64_t sink;
static int dirfd_out = -1;
static char dir_out[] = "/tmp/fuzz-probe-cache.XXXXXX";

static void cleanup(void)
{
	unlinkat(dirfd_out, "probes", 0);
	rmdir(dir_out);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (!mkdtemp(dir_out))
		abort();
	dirfd_out = open(dir_out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd_out < 0)
		abort();
	atexit(cleanup);
	return 0;
}

static int count(const struct probe_cache_entry *e, void *arg)
{
	(*(size_t *)arg)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size);
	struct probe_cache pc = { 0 }, again = { 0 };
	size_t n = 0;

	if (probe_cache__parse(text, "fuzz", &pc) == 0) {
		bool all_valid = true;

		for (size_t i = 0; i < pc.nr; i++)
			for (size_t j = 0; j < pc.v[i].nr_tevs; j++) {
				const char *why = NULL;

				if (probe_cache__validate_tev(pc.v[i].tevs[j], &why) < 0) {
					if (!why)
						abort();
					all_valid = false;
				}
			}
		probe_cache__for_each_match(&pc, "sdt_*", NULL, count, &n);
		probe_cache__for_each_match(&pc, NULL, "*a*", count, &n);
		sink += n;
		if (all_valid && probe_cache__write_at(&pc, dirfd_out, "probes") == 0) {
			int fd = openat(dirfd_out, "probes", O_RDONLY | O_CLOEXEC);

			if (fd >= 0) {
				char buf[1 << 16];
				ssize_t len = read(fd, buf, sizeof(buf) - 1);

				close(fd);
				if (len >= 0 && len < (ssize_t)sizeof(buf) - 1) {
					buf[len] = 0;
					if (probe_cache__parse(buf, "fuzz-again", &again) != 0 || again.nr != pc.nr)
						abort();
					probe_cache__exit(&again);
				}
			}
		}
		sink += probe_cache__remove(&pc, NULL, "*");
		if (pc.nr)
			abort();
		probe_cache__exit(&pc);
	}
	free(text);
	return 0;
}
