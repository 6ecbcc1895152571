// SPDX-License-Identifier: MIT
/*
 * perf archive [FILE]: FILE.tar.bz2 (or .tar.zst) with the build-id cache
 * entries of every object FILE's samples hit (util/archive.c), to unpack
 * into ~/.debug on the machine where the report is read. perf 6.1 ships
 * this as a script over `buildid-list --with-hits`.
 */
#include <stdio.h>
#include <stdlib.h>

#include "builtin.h"
#include "util/archive.h"
#include "util/build-id.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/util.h"

int cmd_archive(int argc, const char **argv)
{
	static const char *const usage[] = {
		"perf archive [<options>] [<file>]",
		NULL,
	};
	bool zstd = false;
	const char *output = NULL;
	const struct option options[] = {
		OPT_BOOLEAN(0, "zstd", &zstd, "compress with zstd (FILE.tar.zst) instead of bzip2"),
		OPT_STRING('o', "output", &output, "file", "archive name (default FILE.tar.bz2 / FILE.tar.zst)"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_BOOLEAN('q', "quiet", &quiet, "print only errors and warnings"),
		OPT_END(),
	};
	struct archive_object *objs;
	struct archive_stats st;
	const char *input = "perf.data";
	char *root, *out;
	int nr, ret;

	argc = parse_options(argc, argv, options, usage, 0);
	if (argc > 1)
		usage_with_options_msg(usage, options, "unexpected argument '%s'", argv[1]);
	if (argc == 1)
		input = argv[0];
	nr = archive__hit_objects(input, &objs);
	if (nr < 0)
		return 1;
	if (nr == 0) {
		pr_err("perf archive: no build-ids found\n");
		return 1;
	}
	root = bidcache__default_root();
	out = output ? xstrdup(output) : xasprintf("%s.tar.%s", input, zstd ? "zst" : "bz2");
	ret = archive__write(root, objs, nr, out, zstd ? ARCHIVE_ZSTD : ARCHIVE_BZIP2, &st);
	if (!ret) {
		pr_debug("perf archive: %zu objects, %zu files, %llu bytes before compression, %zu missing\n",
			 st.objects, st.files, st.bytes, st.missing);
		if (!quiet)
			printf("Now please run:\n\n$ tar xvf %s -C ~/.debug\n\nwherever you need to run 'perf report' on.\n",
			       out);
	}
	archive__objects_free(objs, nr);
	free(root);
	free(out);
	return ret ? 1 : 0;
}
