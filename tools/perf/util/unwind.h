/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_UNWIND_H
#define PERF_UTIL_UNWIND_H

/*
 * DWARF unwinding of a sample's user stack copy (PERF_SAMPLE_REGS_USER +
 * PERF_SAMPLE_STACK_USER, x86-64) into the user call chain.
 *
 * The CFI of every DSO (.eh_frame, else .debug_frame of the file or its
 * separate debuginfo, jitted-*.so files from perf inject --jit included) is
 * looked up with elfutils' libdw (dwarf_getcfi_elf / dwarf_cfi_addrframe)
 * and its register rules are evaluated here, against the thread's maps at
 * the sample time from our machine model. Why not libdwfl's
 * dwfl_thread_getframes: it wants every module of a process reported up
 * front into its own Dwfl, while the maps of a JIT process change with every
 * injected function (thousands of jitted ELFs appear one at a time); and why
 * not libunwind: libdw is already linked and already parses these files for
 * symbols and srclines. Per DSO the ELF handle and its CFI are opened once
 * and kept on the DSO (plus a per-address cache of the evaluated rules)
 * until the DSO is freed, so a 50 MB recording unwinds without re-reading
 * any file.
 *
 * Where a code address has no CFI (a jitted ELF without .eh_frame, perf-PID.map
 * JIT code), the walk falls back to the frame pointer (rbp chain), which a
 * runtime that keeps frame pointers maintains. At the sampled frame itself,
 * a leaf function that set up no frame is detected by the return address on
 * the stack top when it follows a direct call to the function the sample is
 * in (the only case where that is safe to assume).
 */
#include <stddef.h>
#include <stdint.h>
#include "machine.h"
#include "sample.h"

/*
 * The user-space frames of sample s of thread t: ips[0] is the sampled user
 * ip, then the callers' return addresses minus one (the call instruction,
 * like perf 6.1 prints them). Returns the number written (<= max); 0 when the
 * sample carries no registers / stack copy.
 */
size_t unwind__user_frames(struct machine *m, struct thread *t, const struct perf_sample *s,
			   uint64_t *ips, size_t max);

/* true when s has what unwind__user_frames needs */
static inline int unwind__can_unwind(const struct perf_sample *s)
{
	return s->user_regs && s->user_stack && s->user_stack_size;
}

#endif
