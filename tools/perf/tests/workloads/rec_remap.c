// SPDX-License-Identifier: MIT
/*
 * Time-aware maps: runs the code of LIB_A's SYM_A, then LIB_B's SYM_B, from
 * the SAME address, each mapped there MAP_FIXED from its file for MS
 * milliseconds. A sample must resolve to the library mapped at its time.
 * Prints "ADDR 0x..." (the shared address) and "SWITCH <mono ns>".
 * usage: rec_remap LIB_A SYM_A LIB_B SYM_B [MS]
 */
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

typedef void (*blob_fn)(volatile uint64_t *sink, unsigned n);

static volatile uint64_t sink;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct seg_query {
	uintptr_t base, vaddr;     /* in */
	uint64_t fileoff;          /* out: file offset of vaddr */
	int found;
};

static int find_seg(struct dl_phdr_info *info, size_t size __attribute__((unused)), void *arg)
{
	struct seg_query *q = arg;

	if (info->dlpi_addr != q->base)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && q->vaddr >= ph->p_vaddr &&
		    q->vaddr < ph->p_vaddr + ph->p_memsz) {
			q->fileoff = q->vaddr - ph->p_vaddr + ph->p_offset;
			q->found = 1;
			return 1;
		}
	}
	return 0;
}

/* maps the page of lib holding sym at addr; returns the function there */
static blob_fn map_at(void *addr, const char *lib, const char *sym)
{
	void *h = dlopen(lib, RTLD_NOW), *f;
	struct link_map *lm;
	Dl_info di;
	struct seg_query q = { 0 };
	long page = sysconf(_SC_PAGESIZE);
	uint64_t mapoff;
	int fd;

	if (!h || !(f = dlsym(h, sym)) || !dladdr1(f, &di, (void **)&lm, RTLD_DL_LINKMAP)) {
		fprintf(stderr, "rec_remap: cannot load %s:%s: %s\n", lib, sym, dlerror());
		exit(1);
	}
	q.base = lm->l_addr;
	q.vaddr = (uintptr_t)f - lm->l_addr;
	dl_iterate_phdr(find_seg, &q);
	if (!q.found) {
		fprintf(stderr, "rec_remap: no code segment for %s\n", sym);
		exit(1);
	}
	mapoff = q.fileoff & ~(uint64_t)(page - 1);
	fd = open(lib, O_RDONLY);
	if (fd < 0 || mmap(addr, 2 * page, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED, fd, (off_t)mapoff) != addr) {
		perror("rec_remap: mmap");
		exit(1);
	}
	close(fd);
	return (blob_fn)((char *)addr + (q.fileoff - mapoff));
}

static void run(blob_fn fn, uint64_t ms)
{
	uint64_t end = now_ns() + ms * 1000000ull;

	while (now_ns() < end)
		fn(&sink, 100000);
}

int main(int argc, char **argv)
{
	uint64_t ms = argc > 5 ? strtoull(argv[5], NULL, 10) : 300;
	void *addr;
	blob_fn fn;

	if (argc < 5) {
		fprintf(stderr, "usage: rec_remap LIB_A SYM_A LIB_B SYM_B [MS]\n");
		return 2;
	}
	addr = mmap(NULL, 4 * sysconf(_SC_PAGESIZE), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (addr == MAP_FAILED)
		return 1;
	fn = map_at(addr, argv[1], argv[2]);
	printf("ADDR %p\n", addr);
	run(fn, ms);
	fn = map_at(addr, argv[3], argv[4]);
	printf("SWITCH %llu\n", (unsigned long long)now_ns());
	run(fn, ms);
	return 0;
}
