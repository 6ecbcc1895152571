// SPDX-License-Identifier: MIT
/*
 * cg_nofp's call tree with frame pointers but no CFI at all (cg_nocfi.mk: no
 * .eh_frame, no .debug_frame), like JIT code whose runtime keeps frame
 * pointers but wrote no unwinding info: the unwinder has to fall back to the
 * rbp chain, and to the return address on the stack top for the frameless leaf.
 */
#include "cg_nofp.c"
