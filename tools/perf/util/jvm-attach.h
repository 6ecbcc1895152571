/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_JVM_ATTACH_H
#define PERF_UTIL_JVM_ATTACH_H

/*
 * Loading our JVMTI agent into a running HotSpot JVM, as `jcmd PID
 * JVMTI.agent_load` does, without JDK tools: the attach listener's UNIX
 * socket /tmp/.java_pid<nspid> in the JVM's own root, started with a
 * trigger file and SIGQUIT (facts in ../shared/specs/jvm-attach.md).
 * The work that touches the JVM's files runs in a child process with the
 * JVM's uid/gid (the listener only accepts its own user, and files we make
 * are then its). A JVM in a container gets a copy of the agent in its
 * /tmp (created O_EXCL inside its root, removed by jvm_attach__stop).
 */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct jvm_attach {
	pid_t pid;
	char agent_inner[256];        /* the agent's path as the JVM sees it */
	bool agent_copied;            /* agent_inner is our copy in its /tmp */
	bool loaded;
};

/* The agent next to this perf (jvmti/ or ../lib/), or $PERF_JVMTI_AGENT; NULL if none. */
char *jvm_attach__find_agent(void);

/*
 * Loads agent (a host path) into pid with options; the agent replays what
 * is already compiled. 0, or -1 with the reason in err (the JVM unharmed:
 * nothing is sent to a process that is not a HotSpot JVM accepting attach).
 */
int jvm_attach__start(struct jvm_attach *ja, pid_t pid, const char *agent, const char *options,
		      char *err, size_t errlen);

/* Tells the agent to stop writing and close its dump; removes our agent copy. 0 or -1 + err. */
int jvm_attach__stop(struct jvm_attach *ja, char *err, size_t errlen);

/*
 * perf record --jit -p: loads the agent into each pid (errors printed);
 * NULL when none took it. The array ends with pid -1.
 */
struct jvm_attach *jvm_attach__many(const pid_t *pids, int nr, const char *options);
/* stops each agent (the dumps are then complete), removes the copies, frees *many */
void jvm_attach__stop_many(struct jvm_attach **many);

#endif
