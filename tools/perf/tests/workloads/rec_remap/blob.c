// SPDX-License-Identifier: MIT
/* A leaf loop with no calls and no globals, so its code runs unchanged
 * wherever its file page is mapped. BLOB_NAME names it per library. */
#include <stdint.h>

void BLOB_NAME(volatile uint64_t *sink, unsigned n);

void BLOB_NAME(volatile uint64_t *sink, unsigned n)
{
	uint64_t x = *sink;

	for (unsigned i = 0; i < n; i++)
		x = x * BLOB_MUL + 1;
	*sink = x;
}
