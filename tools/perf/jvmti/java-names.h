/* SPDX-License-Identifier: MIT */
/*
 * Turning JVM descriptors into the names the dump carries. Pure string
 * work, no JVMTI: callers pass what GetClassSignature / GetMethodName gave.
 */
#ifndef PERF_JVMTI_JAVA_NAMES_H
#define PERF_JVMTI_JAVA_NAMES_H

#include <stddef.h>

/*
 * "Ljava/util/HashMap;", "putVal", "(ILjava/lang/Object;Z)Ljava/lang/Object;"
 *   -> "java.util.HashMap::putVal(int, Object, boolean)"
 * malloc'ed, NULL when out of memory.
 */
char *java_readable_name(const char *class_sig, const char *method, const char *method_sig);

/* The form perf's own agent writes: class_sig + method + method_sig, verbatim. */
char *java_raw_name(const char *class_sig, const char *method, const char *method_sig);

/*
 * Source path the way perf's agent spells it: the package directory of the
 * class followed by the SourceFile attribute ("Ljava/lang/String;" +
 * "String.java" -> "java/lang/String.java").
 */
char *java_source_path(const char *class_sig, const char *source_file);

#endif
