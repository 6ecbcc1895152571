// SPDX-License-Identifier: MIT
/*
 * /tmp/perf-PID.map: how JITs without an ELF image (V8, LuaJIT, perf-map-
 * agent, ...) name their code. One symbol per line; names are kept as
 * written (perf 6.1 does not demangle them either).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "debug.h"
#include "perf-map.h"
#include "util.h"

int perf_map__pid(const char *path)
{
	const char *p = path + strlen("/tmp/perf-");
	char *end;
	long pid;

	if (!str_starts_with(path, "/tmp/perf-") || !str_ends_with(path, ".map"))
		return -1;
	pid = strtol(p, &end, 10);
	if (end == p || strcmp(end, ".map") || pid < 0)
		return -1;
	return (int)pid;
}

static bool parse_hex(char **pp, uint64_t *val)
{
	char *p = *pp, *end;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (!((*p >= '0' && *p <= '9') || ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')))
		return false;
	errno = 0;
	*val = strtoull(p, &end, 16);
	if (errno || (*end != ' ' && *end != '\t'))
		return false;
	while (*end == ' ' || *end == '\t')
		end++;
	*pp = end;
	return true;
}

int perf_map__load(const char *path, struct symtab *t)
{
	struct stat st;
	char *buf, *p, *end;
	size_t size;
	int fd, added = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		pr_debug("%s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (st.st_uid != 0 && st.st_uid != geteuid())) {
		pr_warning("%s not owned by current user or root, ignoring it\n", path);
		close(fd);
		return -1;
	}
	/* read through the descriptor we checked, not the name again */
	size = 0;
	buf = xmalloc((size_t)st.st_size + 4096);
	for (size_t cap = (size_t)st.st_size + 4096;;) {
		ssize_t n = read(fd, buf + size, cap - size - 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		size += (size_t)n;
		if (cap - size - 1 == 0) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
	}
	close(fd);
	buf[size] = '\0';
	end = buf + size;
	for (p = buf; p < end;) {
		char *eol = memchr(p, '\n', (size_t)(end - p)), *q = p;
		uint64_t start, len;

		if (!eol)
			eol = end;
		*eol = '\0';
		if (eol > p && eol[-1] == '\r')
			eol[-1] = '\0';
		if (parse_hex(&q, &start) && parse_hex(&q, &len) && *q)
			symtab__add(t, start, len, STB_GLOBAL, STT_FUNC, q), added++;
		else if (*p)
			pr_debug("%s: skipping bad line: %.60s\n", path, p);
		p = eol + 1;
	}
	free(buf);
	return added;
}
