// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse-options.h"

static void print_usage(FILE *f, const char *const usagestr[], const struct option *opts)
{
	const struct option *o;

	fprintf(f, "\n Usage: %s\n", usagestr[0]);
	for (int i = 1; usagestr[i]; i++)
		fprintf(f, "    or: %s\n", usagestr[i]);
	fputc('\n', f);
	for (o = opts; o->type != OPTION_END; o++) {
		char buf[128];
		int n = 0;

		if (o->type == OPTION_GROUP) {
			fprintf(f, "\n%s\n", o->help);
			continue;
		}
		n += snprintf(buf + n, sizeof(buf) - n, "    ");
		if (o->short_name)
			n += snprintf(buf + n, sizeof(buf) - n, "-%c", o->short_name);
		if (o->short_name && o->long_name)
			n += snprintf(buf + n, sizeof(buf) - n, ", ");
		if (o->long_name)
			n += snprintf(buf + n, sizeof(buf) - n, "--%s", o->long_name);
		if (o->argh && !(o->flags & PARSE_OPT_NOARG))
			n += snprintf(buf + n, sizeof(buf) - n,
				      (o->flags & PARSE_OPT_OPTARG) ? "[=<%s>]" : " <%s>", o->argh);
		if (n < 0 || (size_t)n >= sizeof(buf))
			n = sizeof(buf) - 1;
		fprintf(f, "%-26s %s\n", buf, o->help ? o->help : "");
	}
	fputc('\n', f);
}

void usage_with_options(const char *const usagestr[], const struct option *opts)
{
	print_usage(stderr, usagestr, opts);
	exit(129);
}

void usage_with_options_msg(const char *const usagestr[], const struct option *opts,
			    const char *fmt, ...)
{
	va_list ap;

	fputs("  Error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage_with_options(usagestr, opts);
}

static int opt_error(const struct option *o, const char *what, bool is_short)
{
	if (is_short)
		fprintf(stderr, "  Error: switch `%c' %s\n", o->short_name, what);
	else
		fprintf(stderr, "  Error: option `%s' %s\n", o->long_name, what);
	return -1;
}

/*
 * Applies one option. arg is the inline argument (after '=' or the rest of a
 * short cluster) or NULL; *consumed tells the caller we used the next argv.
 */
static int apply(const struct option *o, const char *arg, int unset, bool is_short,
		 const char *next, int *consumed)
{
	bool takes_arg = o->type == OPTION_INTEGER || o->type == OPTION_U64 ||
			 o->type == OPTION_STRING ||
			 (o->type == OPTION_CALLBACK && !(o->flags & PARSE_OPT_NOARG));
	char *end;

	if (takes_arg && !arg && !unset) {
		if ((o->flags & PARSE_OPT_OPTARG) && next && o->next_arg && o->next_arg(next)) {
			arg = next;
			*consumed = 1;
		} else if (o->flags & PARSE_OPT_OPTARG)
			arg = o->defval;
		else if (next) {
			arg = next;
			*consumed = 1;
		} else
			return opt_error(o, "requires a value", is_short);
	}
	if (!takes_arg && arg && o->type != OPTION_CALLBACK)
		return opt_error(o, "takes no value", is_short);

	switch (o->type) {
	case OPTION_BOOLEAN:
		*(bool *)o->value = !unset;
		return 0;
	case OPTION_INCR:
		*(int *)o->value = unset ? 0 : *(int *)o->value + 1;
		return 0;
	case OPTION_INTEGER:
		if (unset) {
			*(int *)o->value = 0;
			return 0;
		}
		errno = 0;
		*(int *)o->value = strtol(arg, &end, 0);
		if (*end || errno || end == arg)
			return opt_error(o, "expects a numerical value", is_short);
		return 0;
	case OPTION_U64:
		if (unset) {
			*(uint64_t *)o->value = 0;
			return 0;
		}
		errno = 0;
		*(uint64_t *)o->value = strtoull(arg, &end, 0);
		if (*end || errno || end == arg || *arg == '-')
			return opt_error(o, "expects a numerical value", is_short);
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = unset ? NULL : arg;
		return 0;
	case OPTION_CALLBACK:
		return o->callback(o, unset ? NULL : arg, unset) ? -1 : 0;
	default:
		return -1;
	}
}

static const struct option *find_long(const struct option *opts, const char *name, size_t len,
				      int *unset, bool *ambiguous)
{
	const struct option *o, *abbrev = NULL;
	int abbrev_unset = 0, nabbrev = 0;

	*ambiguous = false;
	/* an exact name wins over a negation: --no-children may be its own option */
	for (o = opts; o->type != OPTION_END; o++)
		if (o->long_name && strlen(o->long_name) == len && !strncmp(o->long_name, name, len)) {
			*unset = 0;
			return o;
		}
	for (o = opts; o->type != OPTION_END; o++) {
		if (!o->long_name)
			continue;
		if (len > 3 && !strncmp(name, "no-", 3) && strlen(o->long_name) == len - 3 &&
		    !strncmp(o->long_name, name + 3, len - 3)) {
			*unset = 1;
			return o;
		}
		if (!strncmp(o->long_name, name, len)) {
			abbrev = o;
			abbrev_unset = 0;
			nabbrev++;
		}
	}
	if (nabbrev == 1) {
		*unset = abbrev_unset;
		return abbrev;
	}
	*ambiguous = nabbrev > 1;
	return NULL;
}

int parse_options(int argc, const char **argv, const struct option *opts,
		  const char *const usagestr[], int flags)
{
	int out = 0, i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;
		int consumed = 0;

		if (a[0] != '-' || a[1] == 0) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION) {
				while (i < argc)
					argv[out++] = argv[i++];
				break;
			}
			argv[out++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			if (flags & PARSE_OPT_KEEP_DASHDASH)
				argv[out++] = a;
			for (i++; i < argc; i++)
				argv[out++] = argv[i];
			break;
		}
		if (a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			const struct option *o;
			int unset = 0;
			bool ambiguous;

			if (len == 4 && !strncmp(name, "help", 4)) {
				print_usage(stdout, usagestr, opts);
				exit(0);
			}
			o = find_long(opts, name, len, &unset, &ambiguous);
			if (!o) {
				fprintf(stderr, "  Error: %s option `%.*s'\n",
					ambiguous ? "ambiguous" : "unknown", (int)len, name);
				usage_with_options(usagestr, opts);
			}
			if (unset && o->type != OPTION_BOOLEAN && o->type != OPTION_INCR &&
			    o->type != OPTION_CALLBACK && o->type != OPTION_STRING) {
				fprintf(stderr, "  Error: option `%s' isn't available\n", name);
				usage_with_options(usagestr, opts);
			}
			if (apply(o, eq ? eq + 1 : NULL, unset, false, eq ? NULL : next, &consumed))
				usage_with_options(usagestr, opts);
			i += consumed;
			continue;
		}
		/* a cluster of short options: -ag, -F99, -o file */
		for (const char *p = a + 1; *p; p++) {
			const struct option *o;

			if (*p == 'h') {
				for (o = opts; o->type != OPTION_END && o->short_name != 'h'; o++)
					;
				if (o->type == OPTION_END) {
					print_usage(stdout, usagestr, opts);
					exit(0);
				}
			}
			for (o = opts; o->type != OPTION_END; o++)
				if (o->type != OPTION_GROUP && o->short_name == *p)
					break;
			if (o->type == OPTION_END) {
				fprintf(stderr, "  Error: unknown switch `%c'\n", *p);
				usage_with_options(usagestr, opts);
			}
			bool takes_arg = o->type == OPTION_INTEGER || o->type == OPTION_U64 ||
					 o->type == OPTION_STRING ||
					 (o->type == OPTION_CALLBACK && !(o->flags & PARSE_OPT_NOARG));
			if (takes_arg) {
				const char *inl = p[1] ? p + 1 : NULL;

				if (apply(o, inl, 0, true, inl ? NULL : next, &consumed))
					usage_with_options(usagestr, opts);
				i += consumed;
				break;
			}
			if (apply(o, NULL, 0, true, NULL, &consumed))
				usage_with_options(usagestr, opts);
		}
	}
	argv[out] = NULL;
	return out;
}
