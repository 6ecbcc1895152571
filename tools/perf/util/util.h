/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_UTIL_H
#define PERF_UTIL_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a) (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#endif

/* Allocation that cannot fail: out of memory is fatal for a command-line tool. */
void *xmalloc(size_t n);
void *xzalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Full reads/writes that retry on EINTR and short counts. -1 on error. */
ssize_t readn(int fd, void *buf, size_t n);   /* returns bytes read (< n only at EOF) */
ssize_t writen(int fd, const void *buf, size_t n);
ssize_t preadn(int fd, void *buf, size_t n, off_t off);

/* Whole file into a NUL-terminated malloc'ed buffer; NULL + errno on error. */
char *read_file(const char *path, size_t *size);

/* mkdir -p with the given mode for created directories. */
int mkdir_p(const char *path, mode_t mode);

bool str_starts_with(const char *s, const char *prefix);
bool str_ends_with(const char *s, const char *suffix);

/* CLOCK_MONOTONIC in ns */
uint64_t monotonic_ns(void);

#endif
