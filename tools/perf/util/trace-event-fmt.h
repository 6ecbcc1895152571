/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_TRACE_EVENT_FMT_H
#define PERF_UTIL_TRACE_EVENT_FMT_H

/*
 * The parsed form of a tracepoint's "print fmt:", private to the parser
 * (trace-event-fmt-parse.c) and the evaluator (trace-event-print.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum node_kind {
	N_NUM, N_STR, N_FIELD, N_INDEX, N_UNARY, N_BINARY, N_TERNARY, N_CAST, N_CALL, N_PAIR,
	N_UNRESOLVED,
};

enum call_kind {
	C_GET_STR, C_GET_REL_STR, C_DYN_ARRAY, C_REL_DYN_ARRAY, C_DYN_ARRAY_LEN, C_BITMASK,
	C_FLAGS, C_SYMBOLIC, C_HEX, C_HEX_STR, C_ARRAY,
};

struct node {
	enum node_kind kind;
	int op;                  /* operator token, or call kind */
	uint64_t num;
	char *str;
	int field;               /* index into fmt->fields */
	unsigned int cast_size;  /* N_CAST: 0 = no truncation (pointer/unknown) */
	bool cast_signed;
	struct node **kids;
	size_t nr_kids, kids_cap;
};

struct print_fmt {
	char *format;
	struct node **args;
	size_t nr_args, args_cap;
};

/* operator tokens above the single characters; binary nodes keep them in op */
enum tok {
	T_END = 256, T_NUM, T_STR, T_IDENT,
	T_ARROW, T_SHL, T_SHR, T_LE, T_GE, T_EQ, T_NE, T_AND, T_OR,
	T_ERR,
};

#endif
