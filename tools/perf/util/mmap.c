// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include "debug.h"
#include "mmap.h"
#include "strbuf.h"
#include "util.h"

int perf_mmap__open(struct perf_mmap *m, int fd, int cpu, size_t data_pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	memset(m, 0, sizeof(*m));
	if (!data_pages || (data_pages & (data_pages - 1))) {
		pr_err("ring buffer size must be a power of two pages (got %zu)\n", data_pages);
		return -1;
	}
	m->map_len = (data_pages + 1) * page;
	m->base = mmap(NULL, m->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m->base == MAP_FAILED) {
		m->base = NULL;
		return -1;
	}
	m->data = (unsigned char *)m->base + page;
	m->mask = data_pages * page - 1;
	m->fd = fd;
	m->cpu = cpu;
	return 0;
}

void perf_mmap__close(struct perf_mmap *m)
{
	if (m->base)
		munmap(m->base, m->map_len);
	free(m->copy);
	memset(m, 0, sizeof(*m));
}

uint64_t perf_mmap__read_init(struct perf_mmap *m)
{
	struct perf_event_mmap_page *pc = m->base;

	/* the acquire pairs with the kernel's store of data_head after the
	 * record bytes: everything below head is visible once we see head */
	m->end = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	m->start = pc->data_tail;
	return m->end - m->start;
}

union perf_event *perf_mmap__read_event(struct perf_mmap *m)
{
	uint64_t avail = m->end - m->start, off, size;
	struct perf_event_header *h;

	if (avail < sizeof(*h))
		return NULL;
	off = m->start & m->mask;
	/* records are 8-aligned and the ring is a multiple of 8: a header
	 * never straddles the end */
	h = (struct perf_event_header *)(m->data + off);
	size = h->size;
	if (size < sizeof(*h) || size > avail) {
		/* corrupt ring: drop the rest of this round */
		pr_warning("perf ring buffer: bad record size %llu, skipping %llu bytes\n",
			   (unsigned long long)size, (unsigned long long)avail);
		m->start = m->end;
		return NULL;
	}
	m->start += size;
	if (off + size <= m->mask + 1)
		return (union perf_event *)h;

	GROW_ARRAY(m->copy, size, m->copy_cap);
	{
		size_t first = m->mask + 1 - off;

		memcpy(m->copy, h, first);
		memcpy(m->copy + first, m->data, size - first);
	}
	return (union perf_event *)m->copy;
}

void perf_mmap__read_done(struct perf_mmap *m)
{
	struct perf_event_mmap_page *pc = m->base;

	/* release: our reads of the records complete before the kernel may
	 * overwrite them */
	__atomic_store_n(&pc->data_tail, m->start, __ATOMIC_RELEASE);
}
