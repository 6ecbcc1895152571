/* SPDX-License-Identifier: MIT */
/*
 * signal=SIG: a signal the user names switches the agent on and off, for
 * JVMs profiled without perf record --jit. JVMTI cannot be called from a
 * signal handler, so the handler only writes a byte to a pipe; a thread of
 * ours, attached to the JVM as a daemon, reads it and calls back.
 */
#ifndef PERF_JVMTI_TOGGLE_SIGNAL_H
#define PERF_JVMTI_TOGGLE_SIGNAL_H

#include <jni.h>

/* "USR1", "SIGUSR1", "RTMIN+2", "10": the signal number, or -1 after a warning */
int toggle_signal_parse(const char *name);
/*
 * Installs the handler (refusing signals the JVM uses, and any that already
 * has a handler): from now on the signal is queued, never fatal. 0 or -1
 * after a warning.
 */
int toggle_signal_install(int signo);
/* Starts the thread that calls toggle() once per signal; needs a live VM. 0 or -1. */
int toggle_signal_start(JavaVM *vm, void (*toggle)(void));

#endif
