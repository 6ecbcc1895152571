// SPDX-License-Identifier: MIT
#include <stdio.h>
#include "debug.h"

int verbose;
int quiet;

void pr_msg(int level, const char *fmt, ...)
{
	va_list ap;

	/* errors always show: a user who asked for -q still needs to know why we failed */
	if (level >= 0 && (quiet || verbose < level))
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}
