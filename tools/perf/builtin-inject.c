// SPDX-License-Identifier: MIT
/*
 * perf inject: copies a perf.data stream from -i to -o, converting between
 * file and pipe format as the two ends require. Every record and feature is
 * carried over untouched; modes that change the stream (--jit, ...) plug in
 * through inject->record_hook.
 *
 * COMPRESSED records (perf record -z) come out of the reader opened up, and
 * the output carries the records inside them uncompressed, without the
 * COMPRESSED feature. perf 6.1 copies COMPRESSED records as they are
 * instead; that hides the MMAPs inside them from --jit (a -z Java recording
 * is never symbolized) and in pipe output gives a stream its own report
 * cannot decompress. The price is a larger output.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "builtin.h"
#include "util/data.h"
#include "util/debug.h"
#include "util/event.h"
#include "util/jit-inject.h"
#include "util/parse-options.h"

struct inject {
	const char *input;
	const char *output;
	struct perf_data_reader in;
	struct perf_data_writer out;
	/*
	 * Called for every record that is about to be copied (not for the
	 * header records HEADER_ATTR / HEADER_FEATURE / HEADER_TRACING_DATA,
	 * which the writer regenerates). Return 0 to have ev copied as is,
	 * 1 when the hook wrote its replacement itself (or drops it), -1 to
	 * abort. A hook may write extra records to inj->out itself.
	 */
	int (*record_hook)(struct inject *inj, union perf_event *ev, uint64_t offset);
	/* called once after the last record, before the output is closed */
	int (*finish_hook)(struct inject *inj);
	void *hook_priv;
};

/* file input: attrs and features are known up front */
static int copy_file_header(struct inject *inj)
{
	struct perf_data_reader *r = &inj->in;

	for (size_t i = 0; i < r->nr_attrs; i++) {
		const struct perf_file_attr *a = &r->attrs[i];

		if (perf_data_writer__add_attr(&inj->out, &a->attr, a->ids, a->nr_ids, a->name))
			return -1;
	}
	for (int feat = 1; feat < HEADER_FEAT_BITS; feat++)
		if (perf_data_reader__has_feat(r, feat) && feat != HEADER_COMPRESSED &&
		    perf_data_writer__set_feature(&inj->out, feat, r->feat[feat].data, r->feat[feat].size))
			return -1;
	return perf_data_writer__start(&inj->out);
}

/* header records of a pipe stream become writer state, so the output's format decides their form */
static int absorb_header_record(struct inject *inj, const union perf_event *ev)
{
	struct perf_data_reader *r = &inj->in;

	switch (ev->header.type) {
	case PERF_RECORD_HEADER_ATTR:
		if (!r->is_pipe)
			return 0;
		{
			const struct perf_file_attr *a = &r->attrs[r->nr_attrs - 1];

			return perf_data_writer__add_attr(&inj->out, &a->attr, a->ids, a->nr_ids, a->name) ? -1 : 1;
		}
	case PERF_RECORD_HEADER_FEATURE: {
		uint64_t id;

		if (!r->is_pipe || ev->header.size < sizeof(ev->feat))
			return 0;
		id = ev->feat.feat_id;
		if (id == HEADER_LAST_FEATURE || id == HEADER_RESERVED || id >= HEADER_FEAT_BITS)
			return 1;     /* the writer emits its own end marker */
		if (id == HEADER_COMPRESSED)
			return 1;     /* the output is not compressed (see the top of this file) */
		return perf_data_writer__set_feature(&inj->out, (int)id, ev->feat.data,
						     ev->header.size - sizeof(ev->feat)) ? -1 : 1;
	}
	case PERF_RECORD_HEADER_TRACING_DATA:
		return perf_data_writer__set_feature(&inj->out, HEADER_TRACING_DATA, r->tail_buf,
						     r->tail_size) ? -1 : 1;
	default:
		return 0;
	}
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, "-") || !strcmp(b, "-"))
		return 0;
	if (stat(a, &sa) || stat(b, &sb))
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int inject__run(struct inject *inj)
{
	union perf_event *ev;
	uint64_t offset;
	int ret;

	if (same_file(inj->input, inj->output)) {
		pr_err("%s: input and output are the same file\n", inj->output);
		return -1;
	}
	if (perf_data_reader__open(&inj->in, inj->input))
		return -1;
	if (perf_data_writer__open(&inj->out, inj->output, false)) {
		perf_data_reader__close(&inj->in);
		return -1;
	}
	ret = inj->in.is_pipe ? 0 : copy_file_header(inj);
	while (!ret && (ret = perf_data_reader__next(&inj->in, &ev, &offset)) > 0) {
		ret = absorb_header_record(inj, ev);
		if (ret) {
			ret = ret < 0 ? -1 : 0;
			continue;
		}
		if (inj->record_hook) {
			ret = inj->record_hook(inj, ev, offset);
			if (ret) {
				ret = ret < 0 ? -1 : 0;
				continue;
			}
		}
		ret = perf_data_writer__write(&inj->out, ev, ev->header.size);
	}
	if (!ret && inj->finish_hook)
		ret = inj->finish_hook(inj);
	perf_data_reader__close(&inj->in);
	if (perf_data_writer__close(&inj->out))
		ret = -1;
	return ret < 0 ? -1 : 0;
}

static int jit_record_hook(struct inject *inj, union perf_event *ev, uint64_t offset)
{
	return jit_inject__process(inj->hook_priv, ev);
}

static int jit_finish_hook(struct inject *inj)
{
	return jit_inject__finish(inj->hook_priv);
}

int cmd_inject(int argc, const char **argv)
{
	struct inject inj = { .input = "-", .output = "-" };
	struct jit_inject_opts jit_opts = { 0 };
	bool jit = false;
	const char *const usage[] = { "perf inject [<options>]", NULL };
	const struct option options[] = {
		OPT_STRING('i', "input", &inj.input, "file", "input file name"),
		OPT_STRING('o', "output", &inj.output, "file", "output file name"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose (show build ids, etc)"),
		OPT_BOOLEAN('j', "jit", &jit, "merge jitdumps: ELF per jitted function, MMAP2 records"),
		OPT_BOOLEAN(0, "jit-buildid-cache", &jit_opts.buildid_cache,
			    "with --jit: also add the sampled jitted ELFs to the build-id cache"),
		OPT_BOOLEAN(0, "jit-elf-per-function", &jit_opts.elf_per_function,
			    "with --jit: one ELF per function (jitted-<pid>-<index>.so, as perf 6.1)"),
		OPT_END()
	};
	struct jit_inject *ji = NULL;
	int ret;

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc)
		usage_with_options_msg(usage, options, "unexpected argument '%s'", argv[0]);
	if (jit) {
		ji = jit_inject__new(&inj.in, &inj.out, &jit_opts);
		inj.record_hook = jit_record_hook;
		inj.finish_hook = jit_finish_hook;
		inj.hook_priv = ji;
	}
	ret = inject__run(&inj) ? 1 : 0;
	jit_inject__delete(ji);
	return ret;
}
