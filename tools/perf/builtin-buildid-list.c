// SPDX-License-Identifier: MIT
/*
 * perf buildid-list: the build-ids a perf.data file carries, one
 * "<hex build-id> <dso name>" line each, as perf 6.1 prints them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "util/build-id.h"
#include "util/data.h"
#include "util/debug.h"
#include "util/header.h"
#include "util/parse-options.h"
#include "util/session.h"
#include "util/strbuf.h"
#include "util/util.h"

struct bid_list {
	struct build_id_entry *v;
	size_t nr, cap;
};

/* one line per (machine, dso): a later record for the same dso replaces the id in place */
static void bid_list__add(struct bid_list *l, const struct build_id_entry *e)
{
	for (size_t i = 0; i < l->nr; i++)
		if (l->v[i].pid == e->pid && !strcmp(l->v[i].filename, e->filename)) {
			memcpy(l->v[i].build_id, e->build_id, sizeof(e->build_id));
			l->v[i].size = e->size;
			return;
		}
	if (l->nr == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 32;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->nr] = *e;
	l->v[l->nr].filename = xstrdup(e->filename);
	l->nr++;
}

static void bid_list__add_all(struct bid_list *l, const void *data, size_t size, const char *path)
{
	struct build_id_entry *v;
	size_t nr;

	if (build_id__decode(data, size, &v, &nr)) {
		pr_warning("%s: malformed build-id data ignored\n", path);
		return;
	}
	for (size_t i = 0; i < nr; i++)
		bid_list__add(l, &v[i]);
	build_id__free_entries(v, nr);
}

/* the host machine (pid -1) first, then guests in pid order, each in file order */
static void bid_list__print(const struct bid_list *l)
{
	char hex[2 * BUILD_ID_MAX + 1];
	int32_t prev = INT32_MIN;

	for (;;) {
		int32_t next = INT32_MAX;
		bool found = false;

		for (size_t i = 0; i < l->nr; i++) {
			int32_t key = l->v[i].pid == -1 ? INT32_MIN + 1 : l->v[i].pid;

			if (key > prev && key <= next) {
				next = key;
				found = true;
			}
		}
		if (!found)
			return;
		for (size_t i = 0; i < l->nr; i++) {
			int32_t key = l->v[i].pid == -1 ? INT32_MIN + 1 : l->v[i].pid;

			if (key == next)
				printf("%s %s\n", build_id__sprintf(l->v[i].build_id, l->v[i].size, hex),
				       l->v[i].filename);
		}
		if (next == INT32_MAX)
			return;
		prev = next;
	}
}

/* --with-hits: the DSOs of a session in the order their maps appeared */
struct hits {
	struct perf_tool tool;
	struct dso **order;
	size_t nr, cap;
};

static int mark_hit(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
		    struct perf_sample *sample, struct evsel *evsel)
{
	struct addr_location al;

	(void)tool;
	(void)ev;
	(void)evsel;
	/* resolving the sampled address marks its DSO hit (no symbols needed) */
	machine__resolve(&s->machine, sample->pid, sample->tid, sample->cpumode, sample->ip, &al, true);
	return 0;
}

static int note_map(struct perf_tool *tool, struct perf_session *s, union perf_event *ev,
		    struct perf_sample *sample)
{
	struct hits *h = (struct hits *)tool;
	struct thread *t;
	struct map *map;
	uint64_t start;

	(void)sample;
	if (ev->header.type == PERF_RECORD_MMAP) {
		t = machine__findnew_thread(&s->machine, ev->mmap.pid, ev->mmap.tid);
		start = ev->mmap.start;
	} else if (ev->header.type == PERF_RECORD_MMAP2) {
		t = machine__findnew_thread(&s->machine, ev->mmap2.pid, ev->mmap2.tid);
		start = ev->mmap2.start;
	} else
		return 0;
	map = machine__find_map(&s->machine, t, ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK, start);
	if (!map || !map->dso)
		return 0;
	for (size_t i = 0; i < h->nr; i++)
		if (h->order[i] == map->dso)
			return 0;
	*ARRAY_PUSH(h->order, h->nr, h->cap) = map->dso;
	return 0;
}

/*
 * --with-hits (what perf archive reads): the binaries that got samples. Those
 * the file has build-ids for come first, in its order; then the other hit
 * ones in the order their maps appeared, with an empty build-id when none is
 * known, as perf 6.1 lists them. Guests (no model of their maps) get none.
 */
static int print_hits(struct bid_list *l, const char *path)
{
	struct hits h = { .tool = { .sample = mark_hit, .other = note_map } };
	struct perf_session *s = perf_session__open(path);
	size_t n = 0;

	if (!s)
		return -1;
	if (perf_session__process_events(s, &h.tool) < 0)
		pr_warning("%s: the samples could not all be read; hits may be missing\n", path);
	for (size_t i = 0; i < l->nr; i++) {
		struct dso *dso = l->v[i].pid == -1 ? dsos__find(&s->machine.dsos, l->v[i].filename) : NULL;

		if (dso && dso->hit)
			l->v[n++] = l->v[i];
		else
			free(l->v[i].filename);
	}
	l->nr = n;
	bid_list__print(l);
	for (size_t i = 0; i < h.nr; i++) {
		struct dso *dso = h.order[i];
		char hex[2 * BUILD_ID_MAX + 1] = "";
		bool listed = false;

		for (size_t j = 0; j < l->nr && !listed; j++)
			listed = l->v[j].pid == -1 && !strcmp(l->v[j].filename, dso->long_name);
		if (!dso->hit || listed)
			continue;
		if (dso->build_id_size)
			build_id__sprintf(dso->build_id, dso->build_id_size, hex);
		printf("%-40s %s\n", hex, dso->long_name);
	}
	free(h.order);
	perf_session__delete(s);
	return 0;
}

static int list_file(const char *path, bool with_hits)
{
	struct perf_data_reader r;
	struct bid_list l = { 0 };
	int ret = 0;

	/* standard input cannot be read twice: the session alone gives the
	 * build-ids its records carry */
	if (with_hits && !strcmp(path, "-"))
		return print_hits(&l, path);
	if (perf_data_reader__open(&r, path))
		return -1;
	if (perf_data_reader__has_feat(&r, HEADER_BUILD_ID))
		bid_list__add_all(&l, r.feat[HEADER_BUILD_ID].data, r.feat[HEADER_BUILD_ID].size, path);
	/* a pipe stream carries its build-ids as records */
	if (r.is_pipe) {
		union perf_event *ev;
		uint64_t off;

		while ((ret = perf_data_reader__next(&r, &ev, &off)) > 0) {
			if (ev->header.type != PERF_RECORD_HEADER_BUILD_ID)
				continue;
			bid_list__add_all(&l, ev, ev->header.size, path);
		}
	}
	perf_data_reader__close(&r);
	if (ret >= 0 && with_hits)
		ret = print_hits(&l, path);
	else if (ret >= 0)
		bid_list__print(&l);
	build_id__free_entries(l.v, l.nr);
	return ret < 0 ? -1 : 0;
}

/* the running kernel's id, from the ELF notes the kernel exports */
static int print_kernel_build_id(void)
{
	size_t size;
	char *notes = read_file("/sys/kernel/notes", &size);
	uint8_t id[BUILD_ID_MAX];
	char hex[2 * BUILD_ID_MAX + 1];
	int n;

	if (!notes) {
		pr_err("/sys/kernel/notes: %s\n", strerror(errno));
		return -1;
	}
	n = build_id__from_notes(notes, size, id, sizeof(id));
	free(notes);
	if (n < 0) {
		pr_err("/sys/kernel/notes: no build-id note\n");
		return -1;
	}
	printf("%s\n", build_id__sprintf(id, (size_t)n, hex));
	return 0;
}

int cmd_buildid_list(int argc, const char **argv)
{
	const char *input = "perf.data";
	bool force = false, with_hits = false, kernel = false, kernel_maps = false;
	const char *const usage[] = { "perf buildid-list [<options>]", NULL };
	const struct option options[] = {
		OPT_BOOLEAN('H', "with-hits", &with_hits, "Show only DSOs with hits"),
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		OPT_BOOLEAN('k', "kernel", &kernel, "Show current kernel build id"),
		OPT_BOOLEAN('m', "kernel-maps", &kernel_maps, "Show build id of current kernel + modules"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_END()
	};

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc)
		usage_with_options_msg(usage, options, "unexpected argument '%s'", argv[0]);
	if (kernel)
		return print_kernel_build_id() ? 1 : 0;
	if (kernel_maps) {
		pr_err("perf buildid-list: --kernel-maps is not supported yet\n");
		return 1;
	}
	return list_file(input, with_hits) ? 1 : 0;
}
