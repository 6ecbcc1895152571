/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_PARSE_OPTIONS_H
#define PERF_UTIL_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

enum parse_opt_type {
	OPTION_END,
	OPTION_GROUP,     /* a heading in the usage text */
	OPTION_BOOLEAN,   /* bool *; --no-X clears */
	OPTION_INCR,      /* int *; each use adds one (-v -v) */
	OPTION_INTEGER,   /* int * */
	OPTION_U64,       /* uint64_t * */
	OPTION_STRING,    /* const char ** */
	OPTION_CALLBACK,  /* cb(opt, arg, unset) */
};

/* flags */
#define PARSE_OPT_OPTARG   1  /* argument optional; as --opt=ARG or -oARG, or as the
                                 next word when the option's next_arg() accepts it */
#define PARSE_OPT_NOARG    2  /* callback that takes no argument */

struct option {
	enum parse_opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;
	const char *help;
	int (*callback)(const struct option *opt, const char *arg, int unset);
	int flags;
	const char *defval;        /* for OPTARG options given without an argument */
	/*
	 * OPTARG only: is the next word of the command line this option's
	 * argument (perf report -g caller)? NULL: never, it must be attached.
	 */
	bool (*next_arg)(const char *word);
};

#define OPT_END()                 { .type = OPTION_END }
#define OPT_GROUP(h)              { .type = OPTION_GROUP, .help = (h) }
#define OPT_BOOLEAN(s, l, v, h)   { .type = OPTION_BOOLEAN, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_INCR(s, l, v, h)      { .type = OPTION_INCR, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_INTEGER(s, l, v, h)   { .type = OPTION_INTEGER, .short_name = (s), .long_name = (l), .value = (v), .argh = "n", .help = (h) }
#define OPT_U64(s, l, v, h)       { .type = OPTION_U64, .short_name = (s), .long_name = (l), .value = (v), .argh = "n", .help = (h) }
#define OPT_STRING(s, l, v, a, h) { .type = OPTION_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_STRING_OPTARG(s, l, v, a, h, d) { .type = OPTION_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .flags = PARSE_OPT_OPTARG, .defval = (d) }
#define OPT_CALLBACK(s, l, v, a, h, f) { .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (f) }
#define OPT_CALLBACK_NOOPT(s, l, v, h, f) { .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .help = (h), .callback = (f), .flags = PARSE_OPT_NOARG }
#define OPT_CALLBACK_OPTARG(s, l, v, a, h, f, d) { .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (f), .flags = PARSE_OPT_OPTARG, .defval = (d) }
/* an optional argument that may also be the next word, when next(word) says so */
#define OPT_CALLBACK_OPTARG_NEXT(s, l, v, a, h, f, d, next) { .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (f), .flags = PARSE_OPT_OPTARG, .defval = (d), .next_arg = (next) }

/* parse flags */
#define PARSE_OPT_STOP_AT_NON_OPTION 1  /* `perf record CMD -x`: -x belongs to CMD */
#define PARSE_OPT_KEEP_DASHDASH      2

/*
 * Parses argv[1..] in place; returns the number of remaining (non-option)
 * arguments, moved to argv[0..]. -h/--help prints the usage and exits 0;
 * an unknown or malformed option prints an error plus usage and exits 129,
 * as perf does.
 */
int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const usagestr[], int flags);

void usage_with_options(const char *const usagestr[], const struct option *opts)
	__attribute__((noreturn));
void usage_with_options_msg(const char *const usagestr[], const struct option *opts,
			    const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));

#endif
