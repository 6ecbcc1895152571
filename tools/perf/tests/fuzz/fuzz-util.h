/* SPDX-License-Identifier: MIT */
#ifndef PERF_TESTS_FUZZ_UTIL_H
#define PERF_TESTS_FUZZ_UTIL_H

/*
 * Helpers shared by the libFuzzer targets. The parsers under test take
 * path names, so each input is put into a memfd and handed over as
 * /proc/self/fd/N: a real regular file (stat, mmap, pread all work) that
 * costs no disk and cannot be left behind.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "util/debug.h"

struct fuzz_file {
	int fd;
	char path[64];
};

/*
 * Bad input makes the parsers print one line each, thousands of times a
 * second. The targets link this pr_msg() instead of util/debug.c's: the
 * message is still formatted (a wrong argument still shows up under
 * ASan/UBSan) but only printed with FUZZ_VERBOSE set. Sanitizer reports
 * are not affected.
 */
int verbose;
int quiet = 1;

void pr_msg(int level, const char *fmt, ...)
{
	static int loud = -1;
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (loud < 0)
		loud = getenv("FUZZ_VERBOSE") != NULL;
	if (loud)
		fputs(buf, stderr);
}

static inline int fuzz_file__open(struct fuzz_file *f, const uint8_t *data, size_t size)
{
	size_t done = 0;

	f->fd = memfd_create("fuzz-input", MFD_CLOEXEC);
	if (f->fd < 0)
		abort();
	while (done < size) {
		ssize_t n = write(f->fd, data + done, size - done);

		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	lseek(f->fd, 0, SEEK_SET);
	snprintf(f->path, sizeof(f->path), "/proc/self/fd/%d", f->fd);
	return 0;
}

static inline void fuzz_file__close(struct fuzz_file *f)
{
	close(f->fd);
	f->fd = -1;
}

/* A NUL-terminated copy of the input, for text parsers. */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = 0;
	return s;
}

#endif
