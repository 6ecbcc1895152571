// SPDX-License-Identifier: MIT
/*
 * Writing the dump. Every group of records goes out in one write(2) under a
 * mutex, with timestamps and the code index filled in under that mutex, so
 * file order, time order and index order agree and a kill -9 can cut at
 * most the last group. Any failure switches the dump off after one warning:
 * the JVM must not notice us.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "dump-file.h"
#include "util/jitdump.h"

static pthread_mutex_t dump_lock = PTHREAD_MUTEX_INITIALIZER;
static int dump_fd = -1;
static bool dump_failed;           /* a write failed: stay quiet and off */
static void *marker;
static size_t marker_len;
static bool arch_timestamp;
static uint64_t next_code_index = 1;
static char path[4096];

void agent_warn(const char *fmt, ...)
{
	va_list ap;
	char msg[1024];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* one write so lines from several threads stay whole */
	dprintf(STDERR_FILENO, "perf-jvmti: warning: %s\n", msg);
}

static uint64_t timestamp_now(void)
{
	struct timespec ts;

#if defined(__x86_64__) || defined(__i386__)
	if (arch_timestamp)
		return __builtin_ia32_rdtsc();
#endif
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

void rec_buf_init(struct rec_buf *b)
{
	memset(b, 0, sizeof(*b));
}

void rec_buf_free(struct rec_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

void *rec_buf_put(struct rec_buf *b, const void *data, size_t n)
{
	void *dst;

	if (b->oom)
		return NULL;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 512;
		unsigned char *p;

		while (cap < b->len + n)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->oom = true;
			return NULL;
		}
		b->p = p;
		b->cap = cap;
	}
	dst = b->p + b->len;
	if (data)
		memcpy(dst, data, n);
	else
		memset(dst, 0, n);
	b->len += n;
	return dst;
}

size_t rec_buf_begin(struct rec_buf *b, uint32_t id)
{
	struct jitdump_record_prefix pre = { .id = id };
	size_t start = b->len;

	rec_buf_put(b, &pre, sizeof(pre));
	if (b->nr_rec < (int)(sizeof(b->rec_start) / sizeof(b->rec_start[0])))
		b->rec_start[b->nr_rec++] = start;
	return start;
}

void rec_buf_end(struct rec_buf *b, size_t start)
{
	uint64_t size = b->len - start;
	uint32_t size32 = (uint32_t)size;

	if (b->oom)
		return;
	if (size > UINT32_MAX) {
		b->oom = true;   /* cannot be described; drop the group */
		return;
	}
	memcpy(b->p + start + offsetof(struct jitdump_record_prefix, total_size), &size32,
	       sizeof(size32));
}

/* e_machine of the running executable, like a native toolchain would see it */
static uint32_t host_elf_machine(void)
{
	unsigned char ehdr[EI_NIDENT + 4];
	uint16_t mach;
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	ssize_t n = -1;

	if (fd >= 0) {
		n = pread(fd, ehdr, sizeof(ehdr), 0);
		close(fd);
	}
	if (n == (ssize_t)sizeof(ehdr) && !memcmp(ehdr, ELFMAG, SELFMAG)) {
		memcpy(&mach, ehdr + EI_NIDENT + 2, sizeof(mach));
		return mach;
	}
#if defined(__x86_64__)
	return EM_X86_64;
#elif defined(__aarch64__)
	return EM_AARCH64;
#else
	return EM_NONE;
#endif
}

static int mkdir_parents(const char *dir)
{
	char buf[4096];
	size_t n = strlen(dir);

	if (n >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, dir, n + 1);
	for (char *s = buf + 1; ; s++) {
		if (*s == '/' || *s == 0) {
			char c = *s;

			*s = 0;
			if (mkdir(buf, 0755) < 0 && errno != EEXIST)
				return -1;
			*s = c;
			if (!c)
				break;
		}
	}
	return 0;
}

static int base_dir(const char *dir_option, char *out, size_t len)
{
	const char *env = getenv("JITDUMPDIR"), *home;
	int n;

	if (dir_option && *dir_option)
		n = snprintf(out, len, "%s", dir_option);
	else if (env && *env)
		n = snprintf(out, len, "%s", env);
	else {
		home = getenv("HOME");
		if (!home || !*home) {
			struct passwd *pw = getpwuid(getuid());

			home = pw ? pw->pw_dir : NULL;
		}
		if (!home)
			return -1;
		n = snprintf(out, len, "%s/.debug/jit", home);
	}
	return n > 0 && (size_t)n < len ? 0 : -1;
}

int dump_open(const char *dir_option)
{
	char base[3072], dir[3600];
	static const char alnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[2] = { 0 };
	struct jitdump_file_header hdr;
	struct tm tm;
	time_t now = time(NULL);
	long page = sysconf(_SC_PAGESIZE);
	int fd;

	arch_timestamp = getenv("JITDUMP_USE_ARCH_TIMESTAMP") != NULL;
#if !defined(__x86_64__) && !defined(__i386__)
	if (arch_timestamp) {
		agent_warn("JITDUMP_USE_ARCH_TIMESTAMP is not supported here, using CLOCK_MONOTONIC");
		arch_timestamp = false;
	}
#endif
	if (base_dir(dir_option, base, sizeof(base)) < 0) {
		agent_warn("no directory for the jitdump (set dir= or JITDUMPDIR)");
		return -1;
	}
	if (mkdir_parents(base) < 0) {
		agent_warn("cannot create %s: %s; not writing a jitdump", base, strerror(errno));
		return -1;
	}
	/* mkdtemp randomises six characters; two more of our own make the eight of the convention */
	if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd)) {
		rnd[0] = (unsigned char)getpid();
		rnd[1] = (unsigned char)now;
	}
	localtime_r(&now, &tm);
	snprintf(dir, sizeof(dir), "%s/java-jit-%04d%02d%02d.%c%cXXXXXX", base, tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, alnum[rnd[0] % 62], alnum[rnd[1] % 62]);
	if (!mkdtemp(dir)) {
		agent_warn("cannot create a directory in %s: %s; not writing a jitdump", base,
			   strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/jit-%d.dump", dir, (int)getpid());
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		agent_warn("cannot create %s: %s; not writing a jitdump", path, strerror(errno));
		rmdir(dir);
		return -1;
	}

	memset(&hdr, 0, sizeof(hdr));
	hdr.magic = JITDUMP_MAGIC;
	hdr.version = JITDUMP_VERSION;
	hdr.total_size = sizeof(hdr);
	hdr.elf_mach = host_elf_machine();
	hdr.pid = getpid();
	hdr.timestamp = timestamp_now();
	hdr.flags = arch_timestamp ? JITDUMP_FLAGS_ARCH_TIMESTAMP : 0;
	if (write(fd, &hdr, sizeof(hdr)) != (ssize_t)sizeof(hdr)) {
		agent_warn("cannot write %s: %s; not writing a jitdump", path, strerror(errno));
		close(fd);
		unlink(path);
		rmdir(dir);
		return -1;
	}
	/*
	 * The executable mapping is how perf record learns about the dump: it
	 * logs exec mmaps (with the file name), and inject looks for that name.
	 */
	marker_len = page > 0 ? (size_t)page : 4096;
	marker = mmap(NULL, marker_len, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (marker == MAP_FAILED) {
		marker = NULL;
		agent_warn("cannot map %s executable (%s; noexec mount?): perf record will not see "
			   "the dump", path, strerror(errno));
	}
	pthread_mutex_lock(&dump_lock);
	/* a new dump (the agent switched on again) starts without the last one's failure */
	__atomic_store_n(&dump_failed, false, __ATOMIC_RELAXED);
	__atomic_store_n(&dump_fd, fd, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&dump_lock);
	return 0;
}

const char *dump_path(void)
{
	return path;
}

bool dump_active(void)
{
	/* racy read on purpose: a stale true only costs one wasted assembly */
	return __atomic_load_n(&dump_fd, __ATOMIC_RELAXED) >= 0 &&
	       !__atomic_load_n(&dump_failed, __ATOMIC_RELAXED);
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			return -1;
		}
		p += w;
		n -= w;
	}
	return 0;
}

/* called with dump_lock held */
static void write_locked(struct rec_buf *b)
{
	uint64_t ts;

	if (dump_fd < 0 || dump_failed || b->oom || !b->len)
		return;
	ts = timestamp_now();
	for (int i = 0; i < b->nr_rec; i++)
		memcpy(b->p + b->rec_start[i] + offsetof(struct jitdump_record_prefix, timestamp), &ts,
		       sizeof(ts));
	if (b->code_index_at) {
		memcpy(b->p + b->code_index_at, &next_code_index, sizeof(next_code_index));
		next_code_index++;
	}
	if (write_all(dump_fd, b->p, b->len) < 0) {
		__atomic_store_n(&dump_failed, true, __ATOMIC_RELAXED);
		agent_warn("writing %s failed (%s); no more JIT code will be recorded", path,
			   strerror(errno));
	}
}

void dump_write(struct rec_buf *b)
{
	pthread_mutex_lock(&dump_lock);
	write_locked(b);
	pthread_mutex_unlock(&dump_lock);
}

void dump_close(void)
{
	struct rec_buf b;
	size_t start;

	rec_buf_init(&b);
	start = rec_buf_begin(&b, JIT_CODE_CLOSE);
	rec_buf_end(&b, start);
	pthread_mutex_lock(&dump_lock);
	if (dump_fd >= 0) {
		write_locked(&b);
		if (marker)
			munmap(marker, marker_len);
		marker = NULL;
		close(dump_fd);
		__atomic_store_n(&dump_fd, -1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&dump_lock);
	rec_buf_free(&b);
}
