/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_FLAMEGRAPH_H
#define PERF_UTIL_FLAMEGRAPH_H

/*
 * Call stacks merged into a tree for flame graphs: one node per distinct
 * path of frame names (like perf's flamegraph.py, nodes are merged by name,
 * not by address), with the sample count ending there. Written as perf's
 * JSON ({"n","l","v","c"}), as folded lines (flamegraph.pl, speedscope) or,
 * by flamegraph-html.c, as a self-contained page.
 *
 * Frame names point into the session's symbols: write the tree before the
 * session is deleted.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "hist.h"

/* what a frame is, for colouring and for the legend of the page */
enum fg_kind {
	FG_KIND_ROOT,
	FG_KIND_COMM,         /* the command (and pid) a stack belongs to */
	FG_KIND_JAVA_JIT,     /* a JIT-compiled Java method */
	FG_KIND_JAVA_INLINED, /* a Java method the JIT inlined into its caller */
	FG_KIND_JVM_STUB,     /* interpreter, call stubs, adapters: JIT code that is no method */
	FG_KIND_NATIVE,       /* user-space code from a file (libjvm, libc, the program) */
	FG_KIND_KERNEL,
	FG_NR_KINDS,
};

struct flamegraph_opts {
	bool inline_frames;   /* Java methods the JIT inlined as frames of their own */
	bool srclines;        /* File.java:LINE of Java frames, for the page's tooltip */
};

#define FG_SRCLINES 3     /* most frequent source lines kept per node */

struct fg_srcline {
	const char *line;     /* owned by the DSO */
	uint64_t count;
};

struct fg_node {
	const char *name;
	uint32_t parent, first_child, last_child, next_sibling;
	uint64_t self;        /* samples whose stack ends here */
	uint64_t total;       /* samples whose stack passes through here */
	uint8_t kind;         /* enum fg_kind, of the first frame seen */
	bool kernel_lib;      /* perf's "l": "kernel" (a [kernel.kallsyms] or vmlinux frame) */
	const struct dso *dso;
	struct fg_srcline src[FG_SRCLINES];
	uint64_t src_other;   /* samples with a line not among src[] */
};

#define FG_NONE UINT32_MAX

struct flamegraph {
	struct flamegraph_opts opts;
	struct dsos *dsos;
	struct fg_node *nodes;        /* [0] is the root, "all" */
	size_t nr_nodes, cap_nodes;
	uint32_t *table;              /* (parent, name) -> node, open addressing */
	size_t table_cap;
	char **owned;                 /* command labels copied in */
	size_t nr_owned, cap_owned;
	void *inline_cache;           /* JIT address -> inline chain */
	struct fg_frame *path;        /* one sample's frames, outermost first */
	size_t path_cap;
	uint64_t nr_samples;
	size_t max_depth;
};

void flamegraph__init(struct flamegraph *fg, const struct flamegraph_opts *opts, struct dsos *dsos);
void flamegraph__exit(struct flamegraph *fg);

/*
 * One sample: frames[0] the sampled address, then its callers (as
 * sample__resolve_frames gives them, already cut to --max-stack). label is
 * the command node under the root ("java (1234)"), NULL for none;
 * label_kernel marks it as perf does for pid 0.
 */
void flamegraph__add_sample(struct flamegraph *fg, const char *label, bool label_kernel,
			    const struct hist_frame *frames, size_t n);

/* perf's flamegraph.py JSON: {"n": name, "l": "root"|"kernel"|"", "v": self, "c": [...]} */
int flamegraph__write_json(const struct flamegraph *fg, FILE *f);

/*
 * The page's data: the same tree, compact, with "k" (enum fg_kind),
 * "d" (index into the DSO names written by flamegraph__write_dsos) and "s"
 * ([[srcline, samples], ...]); <, >, & and the ':' of any URL scheme are
 * \u-escaped so that the text can sit in a <script> element and no link
 * appears in the page.
 */
int flamegraph__write_page_json(const struct flamegraph *fg, FILE *f);

/*
 * The page leaves out frames with fewer than 1/FG_PAGE_MIN_FRACTION of all
 * samples (0.07 pixel of a 1400 pixel graph): their samples stay in their
 * caller's width ("x" counts them). A 50 MB system-wide recording has ~180k
 * distinct frames, ~30k above this; the browser stays quick.
 */
#define FG_PAGE_MIN_FRACTION 100000

struct folded_opts {
	bool tidy_java;       /* "Lcom/Foo;bar(I)V" -> "com/Foo;bar": perf's --tidy-java */
	bool annotate_kernel; /* kernel frames get a "_[k]" suffix */
};

/* "a;b;c count" per distinct stack, sorted by stack, like perf's stackcollapse.py */
int flamegraph__write_folded(const struct flamegraph *fg, FILE *f, const struct folded_opts *o);

/* ---- the page (flamegraph-html.c) ---- */

struct flamegraph_page {
	const char *title;        /* <title> and heading: the command and when it was recorded */
	const char *info;         /* a line under it */
	const char *colorscheme;  /* "blue-green" (default) or "orange" */
	const char *libdir;       /* node_modules with d3 and d3-flame-graph (flamegraph__find_libs) */
};

/*
 * Where d3 and d3-flame-graph are installed: $PERF_FLAMEGRAPH_LIBS, else
 * tools/build/npm/node_modules of the tree perf was built in (found from
 * exec_path). malloc'ed; NULL after an error that says how to install them.
 */
char *flamegraph__find_libs(const char *exec_path);

/* One self-contained HTML file; -1 after an error message. */
int flamegraph__write_html(const struct flamegraph *fg, FILE *f, const struct flamegraph_page *p);

/* Writes s as a JSON string: non-ASCII as \uXXXX like Python's json.dumps;
 * html adds the escapes of flamegraph__write_page_json. */
void json__write_string(FILE *f, const char *s, bool html);

#endif
