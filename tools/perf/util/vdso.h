/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_VDSO_H
#define PERF_UTIL_VDSO_H

#include <stddef.h>
#include <stdint.h>

/*
 * The vDSO image of this process (getauxval(AT_SYSINFO_EHDR)); its size
 * covers the program and section headers. NULL when there is none. The
 * kernel maps the same image into every process, so it describes the
 * [vdso] of the processes we profile (checked by build-id when known).
 */
const void *vdso__image(size_t *size);

/* That image's build-id (from its PT_NOTE): size, or -1. */
int vdso__build_id(uint8_t *id, size_t max);

#endif
