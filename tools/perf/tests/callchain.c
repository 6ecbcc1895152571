// SPDX-License-Identifier: MIT
/*
 * util/callchain: -g/--call-graph specs as perf 6.1 reads them (each word
 * may be abbreviated, the first keyword in its order wins; the first
 * number is the threshold) and the parse-options rule that lets -g take
 * its argument from the next word. Expected values: perf 6.1's behaviour
 * on the same words (report output compared in compat/report.tbl).
 */
#include <string.h>
#include "tests.h"
#include "util/callchain.h"
#include "util/parse-options.h"

static int spec(const char *s, struct callchain_param *p)
{
	callchain_param__init(p);
	return callchain_param__parse(p, s);
}

static int test_callchain_param(void)
{
	struct callchain_param p;

	TEST_ASSERT_EQUAL("default mode", (callchain_param__init(&p), p.mode), CHAIN_GRAPH_ABS);
	TEST_ASSERT_VAL("default threshold", p.min_percent == 0.5);
	TEST_ASSERT_EQUAL("caller", spec("caller", &p), 0);
	TEST_ASSERT_VAL("caller order", p.caller_order && p.order_set);
	TEST_ASSERT_EQUAL("callee", spec("callee", &p), 0);
	TEST_ASSERT_VAL("callee order", !p.caller_order && p.order_set);
	/* perf 6.1: "calle" and "c" are caller (the first match), "f" flat */
	TEST_ASSERT_VAL("calle", spec("calle", &p) == 0 && p.caller_order);
	TEST_ASSERT_VAL("c", spec("c", &p) == 0 && p.caller_order);
	TEST_ASSERT_VAL("f", spec("f", &p) == 0 && p.mode == CHAIN_FLAT);
	TEST_ASSERT_VAL("fo", spec("fo", &p) == 0 && p.mode == CHAIN_FOLDED);
	TEST_ASSERT_VAL("fr", spec("fr", &p) == 0 && p.mode == CHAIN_GRAPH_REL);
	TEST_ASSERT_VAL("n", spec("n", &p) == 0 && p.mode == CHAIN_NONE);
	TEST_ASSERT_VAL("co", spec("caller,co", &p) == 0 && p.value == CCVAL_COUNT);
	TEST_ASSERT_VAL("pe", spec("pe", &p) == 0 && p.value == CCVAL_PERCENT);
	TEST_ASSERT_VAL("period", spec("period", &p) == 0 && p.value == CCVAL_PERIOD);
	TEST_ASSERT_VAL("a", spec("a", &p) == 0 && p.address);
	TEST_ASSERT_VAL("threshold", spec("graph,5,caller", &p) == 0 && p.min_percent == 5 && p.caller_order);
	TEST_ASSERT_VAL("5%", spec("5%", &p) == 0 && p.min_percent == 5);
	TEST_ASSERT_VAL("1e1", spec("1e1", &p) == 0 && p.min_percent == 10);
	TEST_ASSERT_VAL("limit", spec("0.5,3", &p) == 0 && p.print_limit == 3);
	TEST_ASSERT_VAL("empty words", spec("caller,,0.5", &p) == 0 && p.caller_order);
	/* perf 6.1 refuses these (exit 129) */
	TEST_ASSERT_VAL("foo", spec("foo", &p) < 0);
	TEST_ASSERT_VAL("callerx", spec("callerx", &p) < 0);
	TEST_ASSERT_VAL("caller,foo", spec("caller,foo", &p) < 0);
	TEST_ASSERT_VAL("three numbers", spec("1,2,3", &p) < 0);
	return TEST_OK;
}
DEFINE_SUITE("callchain: -g specs parsed as perf 6.1 does (abbreviations, threshold, refusals)",
	     test_callchain_param);

static const char *seen_arg;
static int seen_calls;

static int record_arg(const struct option *opt, const char *arg, int unset)
{
	(void)opt;
	(void)unset;
	seen_arg = arg;
	seen_calls++;
	return 0;
}

static bool not_an_option(const char *word)
{
	return word[0] != '-';
}

static int parse(int argc, const char **argv, bool *q, int *left)
{
	const struct option opts[] = {
		OPT_CALLBACK_OPTARG_NEXT('g', "call-graph", NULL, "spec", "graph", record_arg, "graph",
					 not_an_option),
		OPT_BOOLEAN('q', "quiet", q, "quiet"),
		OPT_END()
	};
	static const char *const usage[] = { "test", NULL };

	seen_arg = NULL;
	seen_calls = 0;
	*q = false;
	*left = parse_options(argc, argv, opts, usage, 0);
	return 0;
}

static int test_optarg_next(void)
{
	bool q;
	int left;
	const char *a1[] = { "report", "-g", "caller", NULL };
	const char *a2[] = { "report", "-g", "-q", NULL };
	const char *a3[] = { "report", "-g", NULL };
	const char *a4[] = { "report", "--call-graph", "folded", NULL };
	const char *a5[] = { "report", "-gcallee", "sym", NULL };
	const char *a6[] = { "report", "--call-graph=none", "x", NULL };

	parse(3, a1, &q, &left);
	TEST_ASSERT_VAL("-g caller", seen_arg && !strcmp(seen_arg, "caller") && left == 0);
	parse(3, a2, &q, &left);
	TEST_ASSERT_VAL("-g -q: default, -q an option", seen_arg && !strcmp(seen_arg, "graph") && q && left == 0);
	parse(2, a3, &q, &left);
	TEST_ASSERT_VAL("-g at the end", seen_arg && !strcmp(seen_arg, "graph") && seen_calls == 1);
	parse(3, a4, &q, &left);
	TEST_ASSERT_VAL("--call-graph folded", seen_arg && !strcmp(seen_arg, "folded") && left == 0);
	parse(3, a5, &q, &left);
	TEST_ASSERT_VAL("-gcallee sym", seen_arg && !strcmp(seen_arg, "callee") && left == 1);
	parse(3, a6, &q, &left);
	TEST_ASSERT_VAL("--call-graph=none x", seen_arg && !strcmp(seen_arg, "none") && left == 1);
	return TEST_OK;
}
DEFINE_SUITE("parse-options: an optional argument taken from the next word when next_arg() accepts it",
	     test_optarg_next);
