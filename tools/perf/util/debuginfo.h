/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_DEBUGINFO_H
#define PERF_UTIL_DEBUGINFO_H

/*
 * Finding the DWARF of a binary. Places tried, in order:
 *  1. the binary itself (a .debug_info with contents),
 *  2. <debuginfo root>/.build-id/xx/rest.debug (root: $PERF_DEBUGINFO_DIR,
 *     default /usr/lib/debug),
 *  3. the .gnu_debuglink name in the binary's directory, in its .debug/
 *     subdirectory and in <debuginfo root>/<directory>/ (CRC checked),
 *  4. BINARY.debug beside it,
 *  5. the build-id cache's `debug` file of the binary's build-id.
 * A candidate is used only when it has DWARF and, if both carry one, the
 * same build-id as the binary.
 */

/* malloc'ed path of the file holding the DWARF, or NULL (no message). */
char *debuginfo__find(const char *binary);

/* Does @path hold a .debug_info section with contents? */
int debuginfo__has_dwarf(const char *path);

#endif
