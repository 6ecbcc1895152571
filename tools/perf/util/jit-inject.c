// SPDX-License-Identifier: MIT
/*
 * perf inject --jit (see jit-inject.h for the processing model and
 * Documentation/formats/jitdump.md for the rules followed).
 *
 * Cost per jitted function: one ELF built in a reused buffer and written
 * with openat/write/fstat/close through a descriptor of the dump's
 * directory; nothing is re-read, and the build-id cache is only touched when
 * asked for. That is what separates this from perf 6.1 (about 105 syscalls
 * per function, most of them linking every file into ~/.debug).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "jit-inject.h"
#include "build-id.h"
#include "build-id-cache.h"
#include "debug.h"
#include "genelf.h"
#include "header.h"
#include "jit-save.h"
#include "jitdump.h"
#include "namespaces.h"
#include "sample.h"
#include "strbuf.h"
#include "util.h"

/* an ELF written for one JIT_CODE_LOAD */
struct jit_elf {
	char *path;               /* <dump dir>/jitted-<pid>-<index>.so, as put in the MMAP2 */
	uint32_t pid;
	uint32_t maj, min;
	uint64_t ino;
	uint8_t build_id[GENELF_BUILD_ID_SIZE];
	bool hit;
	bool bad;                 /* a shared file that could not be finished */
};

/* where a LOAD's code went: for MOVE */
struct jit_load {
	uint32_t elf;
	uint64_t pgoff, code_size;
};

/* an MMAP2 waiting for its time */
struct jit_pending {
	uint64_t time;
	uint64_t start, len, pgoff;
	uint32_t pid, tid;
	uint32_t elf;
	uint32_t dump;            /* which trailer layout */
	uint64_t seq;             /* keeps the dump's order for equal times */
};

struct jit_dump {
	char *path;
	uint32_t pid;             /* of the marker record: its anon maps get dropped */
	uint64_t sample_type;     /* of the marker's event: layout of our trailers */
	bool sample_id_all;
	uint64_t id;
};

/* what the live code map holds, for the BUILD_ID of sampled ELFs */
struct jit_live {
	uint32_t pid;
	uint64_t start, end;
	uint32_t elf;
};

struct id_attr {
	uint64_t id;
	size_t attr;
};

struct jit_inject {
	const struct perf_data_reader *in;
	struct perf_data_writer *out;
	struct jit_inject_opts opts;

	struct jit_elf *elfs;
	size_t nr_elfs, cap_elfs;
	struct jit_load *loads;
	size_t nr_loads, cap_loads;
	struct jit_pending *pend;
	size_t nr_pend, cap_pend, pend_pos;
	uint64_t seq;
	struct jit_dump *dumps;
	size_t nr_dumps, cap_dumps;

	/* (pid, code_index) -> elf index + 1, for MOVE */
	uint64_t *idx_keys;
	uint32_t *idx_pids;
	uint32_t *idx_vals;
	size_t idx_cap, idx_n;

	void *live;               /* tsearch tree of struct jit_live */

	/* event id -> attr, when the file has several attrs */
	struct id_attr *ids;
	size_t nr_ids, ids_for_attrs;

	struct perf_record_time_conv time_conv;
	bool have_time_conv;

	struct genelf_image img;
	struct genelf_line *lines;
	size_t cap_lines;
	struct genelf_inline_pc *pcs;
	size_t cap_pcs;
	struct genelf_frame *frames;
	size_t cap_frames;
	struct jitdump_frame *raw_frames;

	unsigned char *evbuf;
	size_t evbuf_cap;

	struct jit_inject_stats st;

	/* dumps of processes in other namespaces (open_marker) */
	struct jit_saved *saved;  /* what record saved beside the input */
	bool saved_loaded;
	char *ns_elf_dir;         /* where their ELFs go, on our side */
	bool ns_elf_dir_tried;
};

long jit_inject__dump_number(const char *filename)
{
	const char *base = strrchr(filename, '/');
	const char *p;
	uint64_t n = 0;

	if (!base || !str_starts_with(base + 1, "jit-"))
		return -1;
	p = base + 5;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (uint64_t)(*p - '0');
		if (n > UINT32_MAX)
			return -1;
	}
	if (strcmp(p, ".dump"))
		return -1;
	return (long)n;
}

bool jit_inject__is_marker(const char *filename, uint32_t pid)
{
	long n = jit_inject__dump_number(filename);

	return n >= 0 && (pid == 0 || (uint32_t)n == pid);
}

struct jit_inject *jit_inject__new(const struct perf_data_reader *in, struct perf_data_writer *out,
				   const struct jit_inject_opts *opts)
{
	struct jit_inject *ji = xzalloc(sizeof(*ji));

	ji->in = in;
	ji->out = out;
	if (opts)
		ji->opts = *opts;
	return ji;
}

/* ---- event -> attr -> time ---- */

static int cmp_id_attr(const void *a, const void *b)
{
	const struct id_attr *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static const struct perf_event_attr *attr_of(struct jit_inject *ji, const union perf_event *ev,
					     size_t *attr_idx)
{
	const struct perf_data_reader *in = ji->in;
	struct id_attr key, *hit;
	uint64_t id;

	if (!in->nr_attrs)
		return NULL;
	*attr_idx = 0;
	if (in->nr_attrs == 1)
		return &in->attrs[0].attr;
	if (ji->ids_for_attrs != in->nr_attrs) {
		size_t n = 0;

		for (size_t i = 0; i < in->nr_attrs; i++)
			n += in->attrs[i].nr_ids;
		ji->ids = xrealloc(ji->ids, (n ? n : 1) * sizeof(*ji->ids));
		ji->nr_ids = 0;
		for (size_t i = 0; i < in->nr_attrs; i++)
			for (uint32_t k = 0; k < in->attrs[i].nr_ids; k++)
				ji->ids[ji->nr_ids++] = (struct id_attr){ in->attrs[i].ids[k], i };
		qsort(ji->ids, ji->nr_ids, sizeof(*ji->ids), cmp_id_attr);
		ji->ids_for_attrs = in->nr_attrs;
	}
	/* all attrs of a file share the position of the id (perf requires it) */
	if (!perf_event__read_id(in->attrs[0].attr.sample_type, in->attrs[0].attr.sample_id_all, ev, &id))
		return &in->attrs[0].attr;
	key.id = id;
	hit = bsearch(&key, ji->ids, ji->nr_ids, sizeof(*ji->ids), cmp_id_attr);
	if (hit)
		*attr_idx = hit->attr;
	return &in->attrs[*attr_idx].attr;
}

/* ---- output ---- */

static void *evbuf(struct jit_inject *ji, size_t n)
{
	GROW_ARRAY(ji->evbuf, n, ji->evbuf_cap);
	memset(ji->evbuf, 0, n);
	return ji->evbuf;
}

static int cmp_live(const void *a, const void *b)
{
	const struct jit_live *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->end <= y->start)
		return -1;
	if (x->start >= y->end)
		return 1;
	return 0;
}

static void live_map(struct jit_inject *ji, uint32_t pid, uint64_t start, uint64_t len, uint32_t elf)
{
	struct jit_live key = { pid, start, start + len, elf }, *n;
	void *p;

	if (!len)
		return;
	while ((p = tfind(&key, &ji->live, cmp_live))) {
		struct jit_live *old = *(struct jit_live **)p;

		tdelete(old, &ji->live, cmp_live);
		free(old);
	}
	n = xmalloc(sizeof(*n));
	*n = key;
	tsearch(n, &ji->live, cmp_live);
}

static int emit_mmap2(struct jit_inject *ji, const struct jit_pending *pe)
{
	const struct jit_dump *d = &ji->dumps[pe->dump];
	const struct jit_elf *e = &ji->elfs[pe->elf];
	size_t name = ALIGN_UP(strlen(e->path) + 1, 8);
	unsigned id_size = d->sample_id_all ? sample_id_hdr__size(d->sample_type) : 0;
	size_t size = sizeof(struct perf_record_mmap2) + name + id_size;
	struct perf_record_mmap2 *m;

	if (e->bad)
		return 0;
	if (size > UINT16_MAX) {
		pr_warning("jit: %s: path too long for a record, skipped\n", e->path);
		return 0;
	}
	m = evbuf(ji, size);
	m->header.type = PERF_RECORD_MMAP2;
	m->header.misc = PERF_RECORD_MISC_USER;
	m->header.size = (uint16_t)size;
	m->pid = pe->pid;
	m->tid = pe->tid;
	m->start = pe->start;
	m->len = pe->len;
	m->pgoff = pe->pgoff;
	m->maj = e->maj;
	m->min = e->min;
	m->ino = e->ino;
	m->ino_generation = 1;
	m->prot = PROT_READ | PROT_EXEC;
	m->flags = MAP_SHARED;
	strcpy(m->filename, e->path);
	if (id_size) {
		struct perf_sample s = {
			.pid = pe->pid, .tid = pe->tid, .time = pe->time, .id = d->id,
			.stream_id = d->id, .cpu = 0,
		};

		perf_sample__write_id_hdr(d->sample_type, &s, (unsigned char *)m + size - id_size);
	}
	live_map(ji, pe->pid, pe->start, pe->len, pe->elf);
	ji->st.mmaps_emitted++;
	return perf_data_writer__write(ji->out, m, size);
}

static int emit_upto(struct jit_inject *ji, uint64_t time)
{
	while (ji->pend_pos < ji->nr_pend && ji->pend[ji->pend_pos].time <= time) {
		if (emit_mmap2(ji, &ji->pend[ji->pend_pos]))
			return -1;
		ji->pend_pos++;
	}
	if (ji->pend_pos == ji->nr_pend)
		ji->pend_pos = ji->nr_pend = 0;
	return 0;
}

/* ---- reading a dump ---- */

static uint64_t idx_hash(uint32_t pid, uint64_t index)
{
	uint64_t h = (index ^ ((uint64_t)pid << 40)) * 0x9e3779b97f4a7c15ull;

	return h ^ (h >> 29);
}

static void idx_put(struct jit_inject *ji, uint32_t pid, uint64_t index, uint32_t elf)
{
	size_t i;

	if ((ji->idx_n + 1) * 2 > ji->idx_cap) {
		size_t ocap = ji->idx_cap, cap = ocap ? ocap * 2 : 1024;
		uint64_t *ok = ji->idx_keys;
		uint32_t *op = ji->idx_pids, *ov = ji->idx_vals;

		ji->idx_keys = xmalloc(cap * sizeof(*ji->idx_keys));
		ji->idx_pids = xmalloc(cap * sizeof(*ji->idx_pids));
		ji->idx_vals = xzalloc(cap * sizeof(*ji->idx_vals));
		ji->idx_cap = cap;
		ji->idx_n = 0;
		for (size_t k = 0; k < ocap; k++)
			if (ov[k])
				idx_put(ji, op[k], ok[k], ov[k] - 1);
		free(ok);
		free(op);
		free(ov);
	}
	i = idx_hash(pid, index) & (ji->idx_cap - 1);
	while (ji->idx_vals[i] && !(ji->idx_keys[i] == index && ji->idx_pids[i] == pid))
		i = (i + 1) & (ji->idx_cap - 1);
	if (!ji->idx_vals[i])
		ji->idx_n++;
	ji->idx_keys[i] = index;
	ji->idx_pids[i] = pid;
	ji->idx_vals[i] = elf + 1;
}

static int idx_get(const struct jit_inject *ji, uint32_t pid, uint64_t index)
{
	size_t i;

	if (!ji->idx_cap)
		return -1;
	i = idx_hash(pid, index) & (ji->idx_cap - 1);
	while (ji->idx_vals[i]) {
		if (ji->idx_keys[i] == index && ji->idx_pids[i] == pid)
			return (int)ji->idx_vals[i] - 1;
		i = (i + 1) & (ji->idx_cap - 1);
	}
	return -1;
}

/* jitdump time -> perf time (identity unless the dump uses the arch counter) */
static uint64_t convert_time(const struct jit_inject *ji, bool arch, uint64_t cyc)
{
	const struct perf_record_time_conv *tc = &ji->time_conv;
	uint64_t quot, rem;

	if (!arch)
		return cyc;
	if (tc->header.size >= sizeof(*tc)) {
		if (tc->cap_user_time_short)
			cyc = tc->time_cycles + ((cyc - tc->time_cycles) & tc->time_mask);
		if (!tc->cap_user_time_zero)
			return 0;
	}
	quot = tc->time_shift < 64 ? cyc >> tc->time_shift : 0;
	rem = tc->time_shift < 64 ? cyc & ((1ull << tc->time_shift) - 1) : cyc;
	return tc->time_zero + quot * tc->time_mult + ((rem * tc->time_mult) >> tc->time_shift);
}

static void add_pending(struct jit_inject *ji, uint64_t time, uint32_t pid, uint32_t tid,
			uint64_t start, uint64_t len, uint64_t pgoff, uint32_t elf, uint32_t dump)
{
	*ARRAY_PUSH(ji->pend, ji->nr_pend, ji->cap_pend) = (struct jit_pending){ time, start, len, pgoff, pid, tid, elf, dump, ji->seq++ };
}

static int cmp_pending(const void *a, const void *b)
{
	const struct jit_pending *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

struct dump_ctx {
	struct jit_inject *ji;
	struct jitdump *jd;
	const char *dir;
	int dirfd;
	uint32_t dump;
	bool arch;
	struct genelf_multi *multi;  /* the dump's shared ELF */
	uint32_t multi_elf;
	uint64_t multi_funcs;
	struct jitdump_record debug, inl, unwind;   /* apply to the next LOAD */
	bool have_debug, have_inl, have_unwind;
	uint64_t start_ns, last_progress_ns, nr_records;
	bool progress_shown;
};

static size_t collect_lines(struct dump_ctx *c)
{
	struct jit_inject *ji = c->ji;
	struct jitdump_cursor cur;
	struct jitdump_debug_line l;
	size_t n = 0, max;

	if (!c->have_debug)
		return 0;
	max = c->debug.debug.nr_entry;
	GROW_ARRAY(ji->lines, max, ji->cap_lines);
	jitdump_cursor__init(&cur, c->jd, &c->debug);
	while (n < max && jitdump_cursor__next_debug_line(&cur, &l) == 1)
		ji->lines[n++] = (struct genelf_line){ l.addr, l.lineno, l.file };
	return n;
}

#define MAX_INLINE_DEPTH 512

static size_t collect_pcs(struct dump_ctx *c)
{
	struct jit_inject *ji = c->ji;
	struct jitdump_cursor cur;
	size_t n = 0, nf = 0, max;
	uint64_t addr;
	uint32_t nr;

	if (!c->have_inl)
		return 0;
	max = c->inl.inl.nr_pc;
	GROW_ARRAY(ji->pcs, max, ji->cap_pcs);
	jitdump_cursor__init(&cur, c->jd, &c->inl);
	if (!ji->raw_frames)
		ji->raw_frames = xmalloc(MAX_INLINE_DEPTH * sizeof(*ji->raw_frames));
	for (;;) {
		const struct jitdump_frame *fr = ji->raw_frames;

		GROW_ARRAY(ji->frames, nf + MAX_INLINE_DEPTH, ji->cap_frames);
		if (n >= max ||
		    jitdump_cursor__next_inline_pc(&cur, &addr, &nr, ji->raw_frames, MAX_INLINE_DEPTH) != 1)
			break;
		if (nr > MAX_INLINE_DEPTH)
			nr = MAX_INLINE_DEPTH;   /* the outer frames are lost; deeper never seen in practice */
		for (uint32_t k = 0; k < nr; k++)
			ji->frames[nf + k] = (struct genelf_frame){
				fr[k].name ? fr[k].name : "", fr[k].file ? fr[k].file : "", fr[k].line };
		/* an index for now: frames may move while growing */
		ji->pcs[n++] = (struct genelf_inline_pc){ addr, nr, (const void *)(uintptr_t)nf };
		nf += nr;
	}
	for (size_t i = 0; i < n; i++)
		ji->pcs[i].frames = ji->frames + (uintptr_t)ji->pcs[i].frames;
	return n;
}

static struct jit_elf *new_elf(struct jit_inject *ji, const char *dir, const char *name, uint32_t pid,
			       const struct stat *st)
{
	struct jit_elf *e;

	e = ARRAY_PUSH(ji->elfs, ji->nr_elfs, ji->cap_elfs);
	memset(e, 0, sizeof(*e));
	e->path = xasprintf("%s/%s", dir, name);
	e->pid = pid;
	e->maj = major(st->st_dev);
	e->min = minor(st->st_dev);
	e->ino = st->st_ino;
	return e;
}

static void add_load(struct jit_inject *ji, struct dump_ctx *c, const struct jitdump_record *r,
		     uint32_t elf, uint64_t pgoff, uint64_t len)
{
	GROW_ARRAY(ji->loads, ji->nr_loads + 1, ji->cap_loads);
	ji->loads[ji->nr_loads] = (struct jit_load){ elf, pgoff, r->load.code_size };
	idx_put(ji, r->load.pid, r->load.code_index, (uint32_t)ji->nr_loads);
	ji->nr_loads++;
	add_pending(ji, convert_time(ji, c->arch, r->timestamp), r->load.pid, r->load.tid,
		    r->load.code_addr, len, pgoff, elf, c->dump);
}

static int do_load(struct dump_ctx *c, const struct jitdump_record *r)
{
	struct jit_inject *ji = c->ji;
	struct genelf_input in = {
		.name = r->load.name, .code = r->load.code, .code_size = r->load.code_size,
		.code_addr = r->load.code_addr,
	};
	struct jit_elf *e;
	struct stat st;
	uint64_t len = r->load.code_size;
	char name[64];
	int w;

	in.nr_lines = collect_lines(c);
	in.lines = ji->lines;
	in.nr_pcs = collect_pcs(c);
	in.pcs = ji->pcs;
	if (c->have_unwind) {
		in.unwind = c->unwind.unwind.data;
		in.unwind_size = c->unwind.unwind.unwinding_size;
		in.eh_frame_hdr_size = c->unwind.unwind.eh_frame_hdr_size;
		if (c->unwind.unwind.mapped_size)
			len = ALIGN_UP(len, 8) + c->unwind.unwind.mapped_size;
	}
	c->have_debug = c->have_inl = c->have_unwind = false;
	ji->st.loads++;
	if (!r->load.code_size)
		return 0;
	if (c->multi && !(in.unwind && in.unwind_size > in.eh_frame_hdr_size)) {
		/* no FDEs (V8 often sends a bare header): into the dump's shared file */
		uint64_t off = genelf_multi__add(c->multi, &in);

		if (!off)
			return 0;
		c->multi_funcs++;
		add_load(ji, c, r, c->multi_elf, off, len);
		return 0;
	}
	if (genelf__build(&in, &ji->img))
		return 0;
	snprintf(name, sizeof(name), "jitted-%" PRIu32 "-%" PRIu64 ".so", r->load.pid, r->load.code_index);
	w = genelf__write_at(c->dirfd, name, &ji->img, &st);
	if (w < 0) {
		if (errno == ENOSPC || errno == EDQUOT || errno == EROFS || errno == EACCES) {
			pr_err("jit: cannot write %s/%s: %s\n", c->dir, name, strerror(errno));
			return -1;
		}
		pr_warning("jit: %s/%s: %s%s; its code stays unresolved\n", c->dir, name, strerror(errno),
			   errno == ELOOP ? " (a symlink is there, refused)" : "");
		return 0;
	}
	if (w == 1)
		ji->st.elfs_reused++;
	else
		ji->st.elfs_written++;
	e = new_elf(ji, c->dir, name, r->load.pid, &st);
	memcpy(e->build_id, ji->img.build_id, sizeof(e->build_id));
	add_load(ji, c, r, (uint32_t)(e - ji->elfs), ji->img.text_offset, len);
	return 0;
}

static void do_move(struct dump_ctx *c, const struct jitdump_record *r)
{
	struct jit_inject *ji = c->ji;
	int load = idx_get(ji, r->move.pid, r->move.code_index);
	const struct jit_load *l;

	ji->st.moves++;
	if (load < 0) {
		pr_debug("jit: %s: MOVE at offset %" PRIu64 " of unknown code index %" PRIu64 "\n",
			 c->dir, r->offset, r->move.code_index);
		return;
	}
	l = &ji->loads[load];
	add_pending(ji, convert_time(ji, c->arch, r->timestamp), r->move.pid, r->move.tid,
		    r->move.new_code_addr, l->code_size, l->pgoff, l->elf, c->dump);
}

static void progress(struct dump_ctx *c, uint64_t offset, bool done)
{
	uint64_t now = monotonic_ns(), size = jitdump__file_size(c->jd);

	if (!done && (now - c->start_ns < 1000000000ull || now - c->last_progress_ns < 500000000ull))
		return;
	if (done && !c->progress_shown)
		return;
	c->last_progress_ns = now;
	c->progress_shown = true;
	pr_info("%s[ perf inject --jit: %" PRIu64 " records, %" PRIu64 " functions, %3u%% of %s ]%s",
		isatty(2) ? "\r" : "", c->nr_records, c->ji->st.loads,
		size ? (unsigned)(offset * 100 / size) : 100, c->dir, isatty(2) && !done ? "" : "\n");
}

/* clock check; -1 after the one-line error */
static int check_clock(struct jit_inject *ji, const char *path, bool arch)
{
	const struct perf_data_reader *in = ji->in;

	if (arch) {
		if (!ji->have_time_conv || !ji->time_conv.time_mult) {
			pr_err("error: %s uses arch timestamps but perf.data has no TIME_CONV record to convert them; "
			       "record with perf record -k mono and run the JIT without JITDUMP_USE_ARCH_TIMESTAMP\n",
			       path);
			return -1;
		}
		return 0;
	}
	for (size_t i = 0; i < in->nr_attrs; i++) {
		const struct perf_event_attr *a = &in->attrs[i].attr;

		if (!a->use_clockid || a->clockid != CLOCK_MONOTONIC) {
			pr_err("error: jitted code must be sampled on the jitdump's clock: record with `perf record -k mono`\n");
			return -1;
		}
	}
	return 0;
}

/*
 * Where a dump is read from and its ELFs go. A dump of the host: its path,
 * ELFs beside it. A container's: a copy or /proc/PID/root, ELFs on our side.
 */
struct dump_src {
	const char *key;          /* identifies the dump: mapped again = same key */
	const char *open_path;    /* what to open */
	const char *elf_dir;      /* NULL: the dump's directory */
	uint32_t nspid;           /* != 0: LOAD/MOVE pid as the container saw it, becomes pid */
};

/* 1 = marker consumed, 0 = keep the record (dump unusable), -1 = fatal */
static int open_dump(struct jit_inject *ji, const union perf_event *ev, const struct dump_src *src, uint32_t pid)
{
	const char *path = src->open_path;
	struct dump_ctx c = { .ji = ji };
	struct jitdump_record r;
	const struct perf_event_attr *attr;
	struct jit_dump *d;
	size_t attr_idx = 0, first_pend = ji->nr_pend;
	uint64_t tail;
	char *dir, *slash;
	int err, ret = 1;

	for (size_t i = 0; i < ji->nr_dumps; i++)
		if (!strcmp(ji->dumps[i].path, src->key))
			return 1;       /* the same dump mapped again */

	err = jitdump__open(path, &c.jd);
	if (err) {
		if (err == JITDUMP_ERR_IO)
			pr_warning("jit: cannot open %s: %s; its code stays unresolved\n", path, strerror(errno));
		else
			pr_warning("jit: %s: %s; its code stays unresolved\n", path, jitdump__strerror(err));
		return 0;
	}
	c.arch = jitdump__header(c.jd)->flags & JITDUMP_FLAGS_ARCH_TIMESTAMP;
	if (check_clock(ji, path, c.arch)) {
		jitdump__close(c.jd);
		return -1;
	}
	dir = xstrdup(src->elf_dir ? src->elf_dir : path);
	slash = strrchr(dir, '/');
	if (src->elf_dir)
		;
	else if (slash == dir)
		slash[1] = 0;
	else
		*slash = 0;
	c.dir = dir;
	c.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (src->elf_dir ? O_NOFOLLOW : 0));
	if (c.dirfd < 0) {
		pr_warning("jit: cannot open directory %s: %s; its code stays unresolved\n", dir, strerror(errno));
		jitdump__close(c.jd);
		free(dir);
		return 0;
	}

	attr = attr_of(ji, ev, &attr_idx);
	GROW_ARRAY(ji->dumps, ji->nr_dumps + 1, ji->cap_dumps);
	d = &ji->dumps[ji->nr_dumps];
	memset(d, 0, sizeof(*d));
	d->path = xstrdup(src->key);
	d->pid = pid ? pid : jitdump__header(c.jd)->pid;
	if (attr) {
		d->sample_type = attr->sample_type;
		d->sample_id_all = attr->sample_id_all;
		if (ji->in->attrs[attr_idx].nr_ids)
			d->id = ji->in->attrs[attr_idx].ids[0];
	}
	c.dump = (uint32_t)ji->nr_dumps++;
	ji->st.dumps++;
	if (!ji->opts.elf_per_function) {
		char name[64];
		struct stat st;

		unsigned same = 0;

		/* a second dump of the same pid (pid reuse, exec) must not replace the first's file */
		for (size_t i = 0; i + 1 < ji->nr_dumps; i++)
			same += ji->dumps[i].pid == d->pid;
		if (same)
			snprintf(name, sizeof(name), "jitted-%" PRIu32 ".%u.so", d->pid, same);
		else
			snprintf(name, sizeof(name), "jitted-%" PRIu32 ".so", d->pid);
		c.multi = genelf_multi__create(c.dirfd, name);
		if (!c.multi || genelf_multi__fstat(c.multi, &st)) {
			pr_warning("jit: cannot create a file in %s: %s; one file per function instead\n",
				   dir, strerror(errno));
			genelf_multi__discard(c.multi);
			c.multi = NULL;
		} else {
			c.multi_elf = (uint32_t)(new_elf(ji, dir, name, d->pid, &st) - ji->elfs);
		}
	}
	c.start_ns = monotonic_ns();

	while ((err = jitdump__next(c.jd, &r)) != 0) {
		c.nr_records++;
		if ((c.nr_records & 1023) == 0)
			progress(&c, r.offset, false);
		if (err < 0) {
			pr_warning("jit: %s: bad record at offset %" PRIu64 " skipped: %s\n", path, r.offset,
				   jitdump__record_error(c.jd));
			continue;
		}
		/* the container's pids become the host pid its samples carry */
		if (src->nspid && r.id == JIT_CODE_LOAD && r.load.pid == src->nspid)
			r.load.pid = r.load.tid = d->pid;
		else if (src->nspid && r.id == JIT_CODE_MOVE && r.move.pid == src->nspid)
			r.move.pid = r.move.tid = d->pid;
		switch (r.id) {
		case JIT_CODE_LOAD:
			if (do_load(&c, &r))
				ret = -1;
			break;
		case JIT_CODE_MOVE:
			do_move(&c, &r);
			break;
		case JIT_CODE_DEBUG_INFO:
			c.debug = r;
			c.have_debug = true;
			break;
		case JIT_CODE_INLINE_INFO:
			c.inl = r;
			c.have_inl = true;
			break;
		case JIT_CODE_UNWINDING_INFO:
			c.unwind = r;
			c.have_unwind = true;
			break;
		default:
			break;
		}
		if (ret < 0)
			break;
	}
	progress(&c, jitdump__file_size(c.jd), true);
	if (c.multi) {
		struct jit_elf *e = &ji->elfs[c.multi_elf];
		struct stat st;

		if (ret < 0 || !c.multi_funcs) {
			genelf_multi__discard(c.multi);
			e->bad = true;
		} else if (genelf_multi__finish(c.multi, &st, e->build_id)) {
			pr_warning("jit: cannot write %s: %s%s; its code stays unresolved\n", e->path, strerror(errno),
				   errno == ELOOP ? " (a symlink or other file is there, refused)" : "");
			e->bad = true;
		} else {
			ji->st.elfs_written++;
		}
	}
	if (ret > 0 && jitdump__partial_tail(c.jd, &tail))
		pr_warning("jit: %s is truncated at offset %" PRIu64 " (the JIT was killed or is still writing); "
			   "using the %" PRIu64 " complete records before it\n", path, tail, c.nr_records);

	/* merge the new records into what is still queued */
	if (ji->nr_pend > first_pend) {
		bool sorted = true;

		for (size_t i = first_pend + 1; i < ji->nr_pend && sorted; i++)
			sorted = cmp_pending(&ji->pend[i - 1], &ji->pend[i]) <= 0;
		if (!sorted || (first_pend > ji->pend_pos &&
				cmp_pending(&ji->pend[first_pend - 1], &ji->pend[first_pend]) > 0))
			qsort(ji->pend + ji->pend_pos, ji->nr_pend - ji->pend_pos, sizeof(*ji->pend), cmp_pending);
	}
	close(c.dirfd);
	jitdump__close(c.jd);
	free(dir);
	return ret;
}

/*
 * The ELFs of a container's dump never go into the container: they go to
 * <output>.jit/ (<input>.jit/ when the output is a pipe), made if needed.
 * NULL after a message when there is no such place.
 */
static const char *ns_elf_dir(struct jit_inject *ji)
{
	const char *base = ji->out->path && strcmp(ji->out->path, "-") ? ji->out->path : ji->in->path;
	char *dir, *real;
	struct stat st;

	if (ji->ns_elf_dir_tried)
		return ji->ns_elf_dir;
	ji->ns_elf_dir_tried = true;
	if (!base || !strcmp(base, "-")) {
		pr_warning("jit: the ELFs of a container's jitdump need a directory on this side: "
			   "give inject -o FILE (they go to FILE.jit/)\n");
		return NULL;
	}
	dir = jit_saved__dir_of(base);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		pr_warning("jit: cannot create %s: %s\n", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	if (lstat(dir, &st) || !S_ISDIR(st.st_mode)) {
		pr_warning("jit: %s is not a directory (a symlink?): not writing the container's ELFs there\n", dir);
		free(dir);
		return NULL;
	}
	real = realpath(dir, NULL);
	free(dir);
	ji->ns_elf_dir = real;
	return real;
}

/*
 * A marker MMAP: the dump of the host process as perf 6.1 reads it, or of a
 * process in another namespace (a container), whose dump is named after its
 * pid there: from record's saved copy, else through /proc/PID/root while it
 * lives. Never silent when a dump cannot be had.
 */
static int open_marker(struct jit_inject *ji, const union perf_event *ev, const char *f, uint32_t pid)
{
	long n = jit_inject__dump_number(f);
	struct dump_src src = { .key = f, .open_path = f };
	const struct jit_saved_file *copy;
	struct ns_proc ns;
	bool live = false;
	pid_t nspid;
	char *key, fdpath[64];
	int fd = -1, ret;

	if (!ji->saved_loaded) {
		ji->saved_loaded = true;
		if (ji->in->path && strcmp(ji->in->path, "-"))
			ji->saved = jit_saved__load(ji->in->path);
	}
	nspid = jit_saved__nspid(ji->saved, (pid_t)pid);
	if (nspid < 0 && pid && !ns_proc__read((pid_t)pid, &ns) && ns_proc__contained(&ns) && ns.nspid == n) {
		nspid = ns.nspid;
		live = true;
	}
	if (nspid < 0 || nspid != n) {
		if (jit_inject__is_marker(f, pid))
			return open_dump(ji, ev, &src, pid);
		pr_warning("jit: pid %" PRIu32 " maps %s, the jitdump of a pid %ld: it ran in another pid namespace "
			   "(a container) and has exited, and %s.jit/ holds no copy: record it with this perf record "
			   "(it saves such dumps) or run inject while it runs; its JIT code stays unresolved\n",
			   pid, f, n, ji->in->path);
		return 0;
	}
	key = xasprintf("%" PRIu32 ":%s", pid, f);
	src.key = key;
	src.nspid = (uint32_t)nspid;
	copy = jit_saved__find(ji->saved, (pid_t)pid, false, f);
	if (copy) {
		src.open_path = copy->path;
	} else {
		if (!live && ns_proc__read((pid_t)pid, &ns) == 0 && ns.nspid == nspid)
			live = true;
		fd = live ? ns_proc__open(&ns, f) : -1;
		if (fd < 0 && live && errno == ENOENT) {
			/* a path in our view (perf synthesized it from /proc/PID/maps): the mapping itself */
			int err = errno;

			fd = ns_proc__open_mapped(&ns, ev->mmap.start, ev->mmap.start + ev->mmap.len,
						  strrchr(f, '/') + 1);
			if (fd < 0)
				errno = err;
		}
		if (fd < 0) {
			pr_warning("jit: pid %" PRIu32 " (pid %d in its container) maps %s, which cannot be read%s%s: "
				   "%s; its JIT code stays unresolved\n", pid, (int)nspid, f,
				   live ? " in its root: " : "", live ? strerror(errno) : "",
				   live ? (errno == ELOOP ? "a symlink there is refused" : "check the path")
					: "it has exited and the recording has no saved copy: record with this perf record");
			free(key);
			return 0;
		}
		snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
		src.open_path = fdpath;
	}
	src.elf_dir = ns_elf_dir(ji);
	ret = src.elf_dir ? open_dump(ji, ev, &src, pid) : 0;
	if (fd >= 0)
		close(fd);
	free(key);
	return ret;
}

static bool is_anon_name(const char *f)
{
	return str_starts_with(f, "//anon") || str_starts_with(f, "[anon:") || str_starts_with(f, "/memfd:");
}

static bool is_jit_pid(const struct jit_inject *ji, uint32_t pid)
{
	for (size_t i = 0; i < ji->nr_dumps; i++)
		if (ji->dumps[i].pid == pid)
			return true;
	return false;
}

/* the filename of an MMAP/MMAP2, NULL if the record is too short to hold one */
static const char *mmap_filename(const union perf_event *ev, uint32_t *pid)
{
	size_t off = ev->header.type == PERF_RECORD_MMAP ? sizeof(struct perf_record_mmap)
							 : sizeof(struct perf_record_mmap2);
	const char *f = (const char *)ev + off;

	if (ev->header.size <= off || !memchr(f, 0, ev->header.size - off))
		return NULL;
	*pid = ev->mmap.pid;
	return f;
}

static void note_sample(struct jit_inject *ji, const struct perf_sample *s)
{
	struct jit_live key;
	void *p;

	if (!ji->live || (s->cpumode != PERF_RECORD_MISC_USER) || !is_jit_pid(ji, s->pid))
		return;
	ji->st.samples_in_jit++;
	key = (struct jit_live){ s->pid, s->ip, s->ip + 1, 0 };
	p = tfind(&key, &ji->live, cmp_live);
	if (p) {
		ji->elfs[(*(struct jit_live **)p)->elf].hit = true;
		ji->st.samples_hit++;
	}
}

int jit_inject__process(struct jit_inject *ji, union perf_event *ev)
{
	uint32_t type = ev->header.type;
	struct perf_sample s;
	const struct perf_event_attr *attr;
	size_t attr_idx;
	bool have_sample = false;

	if (type == PERF_RECORD_FINISHED_ROUND)
		return 1;
	if (type == PERF_RECORD_TIME_CONV) {
		memset(&ji->time_conv, 0, sizeof(ji->time_conv));
		memcpy(&ji->time_conv, ev, MIN((size_t)ev->header.size, sizeof(ji->time_conv)));
		ji->have_time_conv = true;
		return 0;
	}
	if (type >= PERF_RECORD_USER_TYPE_START)
		return 0;

	attr = attr_of(ji, ev, &attr_idx);
	if (attr && (type == PERF_RECORD_SAMPLE || attr->sample_id_all) &&
	    !perf_sample__parse(attr, ev, &s)) {
		have_sample = true;
		if ((attr->sample_type & PERF_SAMPLE_TIME) && ji->nr_pend && emit_upto(ji, s.time))
			return -1;
	}

	if (type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2) {
		uint32_t pid;
		const char *f = mmap_filename(ev, &pid);

		if (!f)
			return 0;
		if (jit_inject__dump_number(f) >= 0) {
			int r = open_marker(ji, ev, f, pid);

			if (r < 0)
				return -1;
			if (r > 0) {
				ji->st.maps_dropped++;
				/* records of the dump older than the marker go right here */
				if (have_sample && (attr->sample_type & PERF_SAMPLE_TIME))
					return emit_upto(ji, s.time) ? -1 : 1;
				return 1;
			}
			return 0;
		}
		if (ji->nr_dumps && is_anon_name(f) && is_jit_pid(ji, pid)) {
			ji->st.maps_dropped++;
			return 1;
		}
		return 0;
	}
	if (type == PERF_RECORD_SAMPLE && have_sample && ji->nr_elfs)
		note_sample(ji, &s);
	return 0;
}

static void cache_elf(const struct jit_elf *e)
{
	char *root = bidcache__default_root();
	char bid[41];

	if (bidcache__add(root, e->path, bid) < 0)
		pr_warning("jit: could not add %s to the build-id cache %s\n", e->path, root);
	free(root);
}

int jit_inject__finish(struct jit_inject *ji)
{
	struct feat_buf b = { 0 };
	const struct perf_data_reader *in = ji->in;
	size_t nr_hit = 0;
	int ret;

	if (emit_upto(ji, UINT64_MAX))
		return -1;
	for (size_t i = 0; i < ji->nr_elfs; i++)
		nr_hit += ji->elfs[i].hit;
	if (!nr_hit)
		return 0;
	if (!in->is_pipe && perf_data_reader__has_feat(in, HEADER_BUILD_ID))
		feat_buf__put(&b, in->feat[HEADER_BUILD_ID].data, in->feat[HEADER_BUILD_ID].size);
	for (size_t i = 0; i < ji->nr_elfs; i++) {
		const struct jit_elf *e = &ji->elfs[i];
		struct build_id_entry be = {
			.cpumode = PERF_RECORD_MISC_USER, .pid = -1, .size = GENELF_BUILD_ID_SIZE,
			.filename = e->path,
		};

		if (!e->hit)
			continue;
		memcpy(be.build_id, e->build_id, GENELF_BUILD_ID_SIZE);
		build_id__encode(&b, &be, 0);
		if (ji->opts.buildid_cache)
			cache_elf(e);
	}
	ret = perf_data_writer__set_feature(ji->out, HEADER_BUILD_ID, b.data, b.len);
	feat_buf__release(&b);
	return ret;
}

void jit_inject__stats(const struct jit_inject *ji, struct jit_inject_stats *st)
{
	*st = ji->st;
}

static void free_node(void *p)
{
	free(p);
}

void jit_inject__delete(struct jit_inject *ji)
{
	if (!ji)
		return;
	for (size_t i = 0; i < ji->nr_elfs; i++)
		free(ji->elfs[i].path);
	for (size_t i = 0; i < ji->nr_dumps; i++)
		free(ji->dumps[i].path);
	tdestroy(ji->live, free_node);
	free(ji->elfs);
	free(ji->loads);
	free(ji->pend);
	free(ji->dumps);
	free(ji->idx_keys);
	free(ji->idx_pids);
	free(ji->idx_vals);
	free(ji->ids);
	free(ji->lines);
	free(ji->pcs);
	free(ji->frames);
	free(ji->raw_frames);
	free(ji->evbuf);
	jit_saved__delete(ji->saved);
	free(ji->ns_elf_dir);
	genelf__image_release(&ji->img);
	free(ji);
}
