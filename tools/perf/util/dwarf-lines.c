// SPDX-License-Identifier: MIT
/*
 * DWARF line-table queries for probe points (dwarf-lines.h), out of
 * probe-finder.c, which finds functions and variables.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <string.h>

#include "dwarf-lines.h"
#include "strbuf.h"
#include "util.h"

bool dwarf_src__matches(const char *path, const char *want)
{
	size_t lp, lw;

	if (!want)
		return true;
	if (!path)
		return false;
	lp = strlen(path);
	lw = strlen(want);
	if (lp < lw || strcmp(path + lp - lw, want))
		return false;
	return lp == lw || want[0] == '/' || path[lp - lw - 1] == '/';
}

bool dwarf_die__has_addr(Dwarf_Die *die, uint64_t addr)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t o = 0;

	while ((o = dwarf_ranges(die, o, &base, &start, &end)) > 0)
		if (addr >= start && addr < end)
			return true;
	return false;
}

/*
 * The addresses where a statement of FILE:LINE starts, within @die's ranges
 * (any function when NULL): the first is_stmt row of each run of rows of
 * that line. Several rows of one line in a row (views, column changes) are
 * one execution.
 */
size_t dwarf_lines__stmt_addrs(Dwarf_Die *cu, Dwarf_Die *die, const char *file, int line,
			 uint64_t **addrs)
{
	Dwarf_Lines *lines;
	size_t n, nr = 0, alloc = 0;
	bool in_run = false, run_has_stmt = false, have_fallback = false;
	uint64_t first_any = 0, fallback = 0;

	*addrs = NULL;
	if (dwarf_getsrclines(cu, &lines, &n) != 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		int ln;
		bool stmt = false, endseq = false, match;
		const char *src;

		if (!l || dwarf_lineaddr(l, &a) || dwarf_lineno(l, &ln))
			continue;
		dwarf_linebeginstatement(l, &stmt);
		dwarf_lineendsequence(l, &endseq);
		src = dwarf_linesrc(l, NULL, NULL);
		match = !endseq && ln == line && dwarf_src__matches(src, file) &&
			(!die || dwarf_die__has_addr(die, a));
		if (!match) {
			if (in_run && !run_has_stmt && !have_fallback) {
				have_fallback = true;
				fallback = first_any;
			}
			in_run = false;
			continue;
		}
		if (!in_run) {
			in_run = true;
			run_has_stmt = false;
			first_any = a;
		}
		if (stmt && !run_has_stmt) {
			run_has_stmt = true;
			if (!nr || (*addrs)[nr - 1] != a) {
				*ARRAY_PUSH(*addrs, nr, alloc) = a;
			}
		}
	}
	if (in_run && !run_has_stmt && !have_fallback) {
		have_fallback = true;
		fallback = first_any;
	}
	/* a line whose rows are none is_stmt (scheduled code): its first address */
	if (!nr && have_fallback) {
		*addrs = xmalloc(sizeof(**addrs));
		(*addrs)[nr++] = fallback;
	}
	return nr;
}
