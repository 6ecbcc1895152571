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
#include "strbuf.h"
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

struct pm_entry {
	uint64_t start, end;
	const char *name;
	size_t line;                  /* later lines win */
};

static int cmp_start(const void *a, const void *b)
{
	const struct pm_entry *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* max-heap of entries by line, for the sweep */
static void heap_push(struct pm_entry **h, size_t *n, struct pm_entry *e)
{
	size_t i = (*n)++;

	while (i && h[(i - 1) / 2]->line < e->line) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = e;
}

static void heap_pop(struct pm_entry **h, size_t *n)
{
	struct pm_entry *last = h[--(*n)];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= *n)
			break;
		if (c + 1 < *n && h[c + 1]->line > h[c]->line)
			c++;
		if (h[c]->line <= last->line)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = last;
}

/*
 * Writers append, so where entries overlap (code freed and reused) the
 * later line describes what is there now: each address goes to the last
 * line covering it. A sweep over the sorted starts with the covering
 * entries in a heap by line; pieces of one entry stay one symbol each.
 */
static size_t add_resolved(struct pm_entry *e, size_t n, struct symtab *t, const char *path)
{
	struct pm_entry **heap;
	size_t nh = 0, i = 0, added = 0, shadowed = 0;
	uint64_t pos;

	qsort(e, n, sizeof(*e), cmp_start);
	for (size_t k = 1; k < n; k++)
		if (e[k].start < e[k - 1].end)
			shadowed++;
	if (!shadowed) {
		for (size_t k = 0; k < n; k++)
			symtab__add(t, e[k].start, e[k].end - e[k].start, STB_GLOBAL, STT_FUNC, e[k].name);
		return n;
	}
	pr_debug("%s: %zu entries overlap others (reused memory): the later line wins, "
		 "the addresses they share are ambiguous\n", path, shadowed);
	heap = xmalloc(n * sizeof(*heap));
	pos = e[0].start;
	while (i < n || nh) {
		uint64_t next;
		struct pm_entry *top;

		/* drop what ended, take what started */
		while (nh && heap[0]->end <= pos)
			heap_pop(heap, &nh);
		if (!nh) {
			if (i >= n)
				break;
			/* never back: an entry starting inside covered ground keeps only its tail */
			if (e[i].start > pos)
				pos = e[i].start;
		}
		while (i < n && e[i].start <= pos)
			heap_push(heap, &nh, &e[i++]);
		while (nh && heap[0]->end <= pos)
			heap_pop(heap, &nh);
		if (!nh)
			continue;
		top = heap[0];
		/* top owns [pos, next): until it ends or a later line starts */
		next = top->end;
		for (size_t k = i; k < n && e[k].start < next; k++)
			if (e[k].line > top->line) {
				next = e[k].start;
				break;
			}
		if (next > pos) {
			symtab__add(t, pos, next - pos, STB_GLOBAL, STT_FUNC, top->name);
			added++;
		}
		pos = next;
	}
	free(heap);
	return added;
}

int perf_map__load(const char *path, struct symtab *t)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK), n;

	if (fd < 0) {
		if (errno == ELOOP)
			pr_warning("%s is a symlink, ignoring it (a map is read only from the file itself)\n", path);
		else
			pr_debug("%s: %s\n", path, strerror(errno));
		return -1;
	}
	n = perf_map__load_fd(fd, path, (uid_t)-1, t);
	close(fd);
	return n;
}

int perf_map__load_fd(int fd, const char *path, uid_t owner, struct symtab *t)
{
	struct stat st;
	struct pm_entry *ents = NULL;
	size_t nr = 0, cap = 0, lineno = 0, nr_sized0 = 0;
	struct strbuf sb = STRBUF_INIT;
	char *p, *end;
	int added;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (st.st_uid != 0 && st.st_uid != geteuid() && st.st_uid != owner)) {
		pr_warning("%s not owned by current user or root, ignoring it\n", path);
		return -1;
	}
	/*
	 * Read through the descriptor we checked, not the name again, from
	 * offset 0 whatever the descriptor's position; writers may still append.
	 */
	strbuf_grow(&sb, (size_t)st.st_size + 4096);
	for (;;) {
		ssize_t n = pread(fd, sb.buf + sb.len, sb.alloc - sb.len - 1, (off_t)sb.len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		sb.len += (size_t)n;
		strbuf_grow(&sb, 1);
	}
	strbuf_setlen(&sb, sb.len);     /* the NUL after the text */
	end = sb.buf + sb.len;
	for (p = sb.buf; p < end; lineno++) {
		char *eol = memchr(p, '\n', (size_t)(end - p)), *q = p;
		uint64_t start, len;
		bool ok;

		if (!eol)
			eol = end;
		*eol = '\0';
		if (eol > p && eol[-1] == '\r')
			eol[-1] = '\0';
		ok = parse_hex(&q, &start) && parse_hex(&q, &len) && *q;

		if (ok && !len) {
			/* no size: it reaches the next symbol (symtab__finish) */
			symtab__add(t, start, 0, STB_GLOBAL, STT_FUNC, q);
			nr_sized0++;
		} else if (ok && start + len > start) {
			*ARRAY_PUSH(ents, nr, cap) = (struct pm_entry){ start, start + len, q, lineno };
		} else if (*p) {
			pr_debug("%s: skipping bad line: %.60s\n", path, p);
		}
		p = eol + 1;
	}
	added = (int)((nr ? add_resolved(ents, nr, t, path) : 0) + nr_sized0);
	free(ents);
	strbuf_release(&sb);
	return added;
}
