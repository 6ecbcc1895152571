// SPDX-License-Identifier: MIT
/*
 * The address-space model (util/machine.c): overlapping maps replace what
 * they cover; KSYMBOL records: a registered range (BPF program, trampoline)
 * resolves to a DSO and symbol of its name, a later registration over it
 * replaces it, an UNREGISTER hands the range back to the kernel map, and
 * short or empty records change nothing.
 */
#include <stdlib.h>
#include <string.h>
#include "tests/tests.h"
#include "util/machine.h"
#include "util/symbol.h"
#include "util/util.h"
#define KBASE 0xffffffff81000000ull
#define BPF1  0xffffffffc0001000ull

static struct map *mk(struct machine *m, uint64_t start, uint64_t end, uint64_t pgoff, const char *name)
{
	struct map *map = xzalloc(sizeof(*map));

	map->start = start;
	map->end = end;
	map->pgoff = pgoff;
	map->refcnt = 1;
	map->dso = dsos__findnew(&m->dsos, name);
	return map;
}

static int test__maps_overlap(void)
{
	struct machine m;
	struct thread *t;
	struct map *x;

	machine__init(&m);
	t = machine__findnew_thread(&m, 10, 10);
	maps__insert(t->maps, mk(&m, 0x1000, 0x5000, 0, "/a"));
	maps__insert(t->maps, mk(&m, 0x2000, 0x3000, 0, "/b"));
	TEST_ASSERT_EQUAL("maps after split", t->maps->nr, 3);
	x = maps__find(t->maps, 0x1800);
	TEST_ASSERT_VAL("front piece is /a", x && !strcmp(x->dso->long_name, "/a") && x->end == 0x2000);
	x = maps__find(t->maps, 0x2800);
	TEST_ASSERT_VAL("middle is /b", x && !strcmp(x->dso->long_name, "/b"));
	x = maps__find(t->maps, 0x4000);
	TEST_ASSERT_VAL("tail piece is /a", x && !strcmp(x->dso->long_name, "/a"));
	TEST_ASSERT_EQUAL("tail keeps its file offset", x->pgoff, 0x2000);
	/* a map covering everything replaces all of it */
	maps__insert(t->maps, mk(&m, 0x0, 0x10000, 0, "/c"));
	TEST_ASSERT_EQUAL("one map left", t->maps->nr, 1);
	TEST_ASSERT_VAL("nothing outside", maps__find(t->maps, 0x10000) == NULL);
	/* threads of one process share maps */
	struct thread *t2 = machine__findnew_thread(&m, 10, 11);
	TEST_ASSERT_VAL("thread shares maps", t2->maps == t->maps);
	machine__exit(&m);
	return TEST_OK;
}
DEFINE_SUITE("Maps: a new mapping replaces what it overlaps", test__maps_overlap);

#define KBASE 0xffffffff81000000ull
#define BPF1  0xffffffffc0001000ull

static union perf_event *ksym(uint64_t addr, uint32_t len, uint16_t flags, const char *name, size_t *sz)
{
	size_t n = ALIGN_UP(sizeof(struct perf_record_ksymbol) + strlen(name) + 1, 8);
	union perf_event *ev = xzalloc(n);

	ev->ksymbol.header.type = PERF_RECORD_KSYMBOL;
	ev->ksymbol.header.misc = PERF_RECORD_MISC_KERNEL;
	ev->ksymbol.header.size = (uint16_t)n;
	ev->ksymbol.addr = addr;
	ev->ksymbol.len = len;
	ev->ksymbol.ksym_type = PERF_RECORD_KSYMBOL_TYPE_BPF;
	ev->ksymbol.flags = flags;
	strcpy(ev->ksymbol.name, name);
	*sz = n;
	return ev;
}

static void feed(struct machine *m, uint64_t addr, uint32_t len, uint16_t flags, const char *name)
{
	size_t n;
	union perf_event *ev = ksym(addr, len, flags, name, &n);

	machine__process_event(m, ev, NULL);
	free(ev);
}

static const char *sym_at(struct machine *m, uint64_t ip, const char **dso)
{
	struct addr_location al;

	machine__resolve(m, 1, 1, PERF_RECORD_MISC_KERNEL, ip, &al, false);
	*dso = al.dso ? al.dso->long_name : NULL;
	return al.sym ? al.sym->name : NULL;
}

static int test__ksymbol(void)
{
	struct {
		struct perf_record_mmap mm;
		char name[24];
	} kmap = { { { PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, sizeof(kmap) }, (uint32_t)-1, 0, KBASE,
		     ~0ull - KBASE, KBASE }, "[kernel.kallsyms]_text" };
	struct machine m;
	const char *dso, *sym;
	size_t n;
	union perf_event *ev;

	machine__init(&m);
	m.dsos.kallsyms_path = "/nonexistent";   /* the kernel map, without symbols */
	machine__process_event(&m, (union perf_event *)&kmap, NULL);

	feed(&m, BPF1, 0x40, 0, "bpf_prog_0123456789abcdef_sys_enter");
	sym = sym_at(&m, BPF1 + 0x10, &dso);
	TEST_ASSERT_VAL("named", sym && !strcmp(sym, "bpf_prog_0123456789abcdef_sys_enter"));
	TEST_ASSERT_VAL("DSO of the same name", dso && !strcmp(dso, "bpf_prog_0123456789abcdef_sys_enter"));
	sym = sym_at(&m, BPF1 + 0x40, &dso);
	TEST_ASSERT_VAL("past the end: the kernel", dso && !strcmp(dso, "[kernel.kallsyms]"));

	/* a trampoline registered over the second half */
	feed(&m, BPF1 + 0x20, 0x20, 0, "bpf_trampoline_42");
	sym = sym_at(&m, BPF1 + 0x30, &dso);
	TEST_ASSERT_VAL("replaced", sym && !strcmp(sym, "bpf_trampoline_42"));
	TEST_ASSERT_EQUAL("one map per registration", m.ksymbols->nr, 1);

	/* unregistration: the kernel map answers again */
	feed(&m, BPF1 + 0x20, 0x20, PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, "bpf_trampoline_42");
	TEST_ASSERT_EQUAL("none left", m.ksymbols->nr, 0);
	sym_at(&m, BPF1 + 0x30, &dso);
	TEST_ASSERT_VAL("back to the kernel", dso && !strcmp(dso, "[kernel.kallsyms]"));

	/* a record without a name, with len 0 or wrapping around: ignored */
	ev = ksym(BPF1, 0x40, 0, "x", &n);
	ev->header.size = sizeof(struct perf_record_ksymbol);
	machine__process_event(&m, ev, NULL);
	ev->header.size = (uint16_t)n;
	ev->ksymbol.len = 0;
	machine__process_event(&m, ev, NULL);
	ev->ksymbol.addr = ~0ull - 4;
	ev->ksymbol.len = 0x40;
	machine__process_event(&m, ev, NULL);
	free(ev);
	TEST_ASSERT_EQUAL("bad records ignored", m.ksymbols->nr, 0);
	/* a name without its NUL stays inside the record */
	ev = ksym(BPF1, 0x40, 0, "bpf_prog_abcdefgh", &n);
	memset(ev->ksymbol.name, 'A', n - sizeof(struct perf_record_ksymbol));
	machine__process_event(&m, ev, NULL);
	free(ev);
	sym = sym_at(&m, BPF1, &dso);
	TEST_ASSERT_VAL("unterminated name cut at the record's end",
			sym && strlen(sym) == n - sizeof(struct perf_record_ksymbol));
	machine__exit(&m);
	return TEST_OK;
}

DEFINE_SUITE("Session: KSYMBOL ranges name BPF code until unregistered", test__ksymbol);
