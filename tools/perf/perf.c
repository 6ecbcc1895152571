// SPDX-License-Identifier: MIT
/* The `perf` command: picks the subcommand and hands it argv. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "util/debug.h"

const char perf_version_string[] = "6.1.0-clean";
const char *perf_exec_path;

struct cmd {
	const char *name;
	int (*fn)(int, const char **);
	const char *help;
};

static int cmd_version(int argc, const char **argv)
{
	(void)argc; (void)argv;
	printf("perf version %s\n", perf_version_string);
	return 0;
}

static int cmd_help(int argc, const char **argv);

static const struct cmd commands[] = {
	{ "annotate",      cmd_annotate,      "Read perf.data and display annotated code" },
	{ "archive",       cmd_archive,       "Create archive with object files with build-ids found in perf.data file" },
	{ "buildid-cache", cmd_buildid_cache, "Manage build-id cache." },
	{ "buildid-list",  cmd_buildid_list,  "List the buildids in a perf.data file" },
	{ "inject",        cmd_inject,        "Filter to augment the events stream with additional information" },
	{ "list",          cmd_list,          "List all symbolic event types" },
	{ "probe",         cmd_probe,         "Define new dynamic tracepoints" },
	{ "record",        cmd_record,        "Run a command and record its profile into perf.data" },
	{ "report",        cmd_report,        "Read perf.data (created by perf record) and display the profile" },
	{ "script",        cmd_script,        "Read perf.data (created by perf record) and display trace output" },
	{ "test",          cmd_test,          "Runs sanity tests." },
	{ "version",       cmd_version,       "display the version of perf binary" },
	{ "help",          cmd_help,          "display help" },
};

static int cmd_help(int argc, const char **argv)
{
	if (argc > 1) {
		char *page;

		if (asprintf(&page, "perf-%s", argv[1]) > 0)
			execlp("man", "man", page, (char *)NULL);
		fprintf(stderr, "perf: no man page for '%s'\n", argv[1]);
		return 1;
	}
	printf("\n usage: perf [--version] [--help] COMMAND [ARGS]\n\n"
	       " The most commonly used perf commands are:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (commands[i].fn && strcmp(commands[i].name, "help"))
			printf("   %-14s %s\n", commands[i].name, commands[i].help);
	printf("\n See 'perf help COMMAND' for more information on a specific command.\n\n");
	return 0;
}

int main(int argc, const char **argv)
{
	static char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n > 0) {
		self[n] = 0;
		perf_exec_path = self;
	} else
		perf_exec_path = argv[0];

	argc--, argv++;
	while (argc > 0 && argv[0][0] == '-') {
		if (!strcmp(argv[0], "--version") || !strcmp(argv[0], "-v"))
			return cmd_version(0, NULL);
		if (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))
			return cmd_help(0, NULL);
		if (!strcmp(argv[0], "--no-pager") || !strcmp(argv[0], "-P")) {
			argc--, argv++;
			continue;
		}
		fprintf(stderr, "Unknown option: %s\n", argv[0]);
		return 129;
	}
	if (argc == 0)
		return cmd_help(0, NULL);
	/* `perf --debug verbose=N` is not supported; -v of each command is */
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[0], commands[i].name))
			continue;
		if (!commands[i].fn) {
			fprintf(stderr, "perf: '%s' is not built into this perf yet\n", argv[0]);
			return 1;
		}
		return commands[i].fn(argc, argv);
	}
	fprintf(stderr, "perf: '%s' is not a perf-command. See 'perf --help'.\n", argv[0]);
	return 1;
}
