/* SPDX-License-Identifier: MIT */
/*
 * What the dump needs to know about a Java method, looked up through JVMTI
 * once and kept: the same methods show up again and again in inline stacks,
 * and every JVMTI round trip is time a compiler thread waits for us.
 * HotSpot never reuses a jmethodID for another method, so the id is a safe key.
 */
#ifndef PERF_JVMTI_METHOD_CACHE_H
#define PERF_JVMTI_METHOD_CACHE_H

#include <jvmti.h>
#include <stdbool.h>

struct line_entry {
	jlocation bci;
	jint line;
};

struct method_info {
	jmethodID id;
	char *name;           /* readable or raw, as configured */
	char *file;           /* package path + SourceFile, "" if unknown; interned:
	                         equal paths are the same pointer */
	int nr_lines;
	struct line_entry *lines;   /* sorted by bci */
};

void method_cache_init(bool raw_names, bool want_lines);
/* never NULL: a method JVMTI cannot describe gets placeholder fields */
const struct method_info *method_cache_get(jvmtiEnv *env, jmethodID m);
/* line of bci in m, 0 when unknown; bci -1 (method entry) gives the line of bci 0 */
jint method_line(const struct method_info *mi, jint bci);

#endif
