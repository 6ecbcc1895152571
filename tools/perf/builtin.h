/* SPDX-License-Identifier: MIT */
#ifndef PERF_BUILTIN_H
#define PERF_BUILTIN_H

/* One entry point per subcommand, each in builtin-<cmd>.c. */
#define BUILTIN(name) int cmd_##name(int argc, const char **argv)
BUILTIN(record);
BUILTIN(report);
BUILTIN(script);
BUILTIN(inject);
BUILTIN(buildid_cache);
BUILTIN(buildid_list);
BUILTIN(probe);
BUILTIN(list);
BUILTIN(test);
BUILTIN(annotate);
/* `perf script report NAME`, called by cmd_script */
BUILTIN(script_report);
#undef BUILTIN

extern const char perf_version_string[];
/* absolute path of the running perf binary (for CMDLINE, tests) */
extern const char *perf_exec_path;

#endif
