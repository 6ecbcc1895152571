// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dump-file.h"
#include "toggle-signal.h"

static int toggle_pipe[2] = { -1, -1 };
static int toggle_signo;
static JavaVM *toggle_vm;
static void (*toggle_fn)(void);
static bool thread_started;

static const struct {
	const char *name;
	int signo;
} signal_names[] = {
	{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT }, { "ILL", SIGILL },
	{ "TRAP", SIGTRAP }, { "ABRT", SIGABRT }, { "BUS", SIGBUS }, { "FPE", SIGFPE },
	{ "KILL", SIGKILL }, { "USR1", SIGUSR1 }, { "SEGV", SIGSEGV }, { "USR2", SIGUSR2 },
	{ "PIPE", SIGPIPE }, { "ALRM", SIGALRM }, { "TERM", SIGTERM }, { "CHLD", SIGCHLD },
	{ "CONT", SIGCONT }, { "STOP", SIGSTOP }, { "TSTP", SIGTSTP }, { "TTIN", SIGTTIN },
	{ "TTOU", SIGTTOU }, { "URG", SIGURG }, { "XCPU", SIGXCPU }, { "XFSZ", SIGXFSZ },
	{ "VTALRM", SIGVTALRM }, { "PROF", SIGPROF }, { "WINCH", SIGWINCH }, { "IO", SIGIO },
	{ "PWR", SIGPWR }, { "SYS", SIGSYS },
};

int toggle_signal_parse(const char *name)
{
	const char *s = name;
	char *end;
	long n;

	if (!strncmp(s, "SIG", 3))
		s += 3;
	for (size_t i = 0; i < sizeof(signal_names) / sizeof(signal_names[0]); i++)
		if (!strcmp(s, signal_names[i].name))
			return signal_names[i].signo;
	if (!strncmp(s, "RTMIN+", 6) || !strncmp(s, "RTMAX-", 6)) {
		n = strtol(s + 6, &end, 10);
		if (*end || end == s + 6 || n < 0)
			goto bad;
		n = s[3] == 'I' ? SIGRTMIN + n : SIGRTMAX - n;
		if (n >= SIGRTMIN && n <= SIGRTMAX)
			return (int)n;
		goto bad;
	}
	n = strtol(s, &end, 10);
	if (!*end && end != s && n > 0 && n < NSIG)
		return (int)n;
bad:
	agent_warn("signal=%s: not a signal name or number (USR1, RTMIN+2, 10, ...)", name);
	return -1;
}

/* the JVM's own signals, some of them installed only after Agent_OnLoad */
static const char *jvm_signal(int signo)
{
	const char *sr = getenv("_JAVA_SR_SIGNUM");

	switch (signo) {
	case SIGSEGV: case SIGBUS: case SIGFPE: case SIGILL: case SIGTRAP: case SIGPIPE: case SIGXFSZ:
		return "the JVM uses it for its own traps";
	case SIGQUIT:
		return "the JVM uses it for thread dumps and to start its attach listener";
	case SIGHUP: case SIGINT: case SIGTERM:
		return "the JVM runs its shutdown hooks on it";
	case SIGKILL: case SIGSTOP:
		return "it cannot be caught";
	case SIGCHLD:
		return "Process.waitFor relies on it";
	}
	if (sr && *sr ? atoi(sr) == signo : signo == SIGUSR2)
		return "HotSpot suspends and resumes threads with it (_JAVA_SR_SIGNUM)";
	return NULL;
}

static void on_toggle_signal(int signo)
{
	int e = errno;
	char c = 1;

	/* async-signal-safe; a full pipe drops the byte (toggles are already pending) */
	if (write(toggle_pipe[1], &c, 1) < 0)
		errno = e;
	errno = e;
}

int toggle_signal_install(int signo)
{
	struct sigaction sa, old;
	const char *why = jvm_signal(signo);

	if (why) {
		agent_warn("signal %d (%s) refused: %s (try signal=USR1)", signo, strsignal(signo), why);
		return -1;
	}
	if (sigaction(signo, NULL, &old) == 0 && old.sa_handler != on_toggle_signal &&
	    ((old.sa_flags & SA_SIGINFO) || (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN))) {
		agent_warn("signal %d (%s) refused: the process already handles it", signo, strsignal(signo));
		return -1;
	}
	if (toggle_pipe[0] < 0 && pipe2(toggle_pipe, O_CLOEXEC)) {
		agent_warn("signal: pipe: %s", strerror(errno));
		return -1;
	}
	fcntl(toggle_pipe[1], F_SETFL, O_NONBLOCK);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_toggle_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(signo, &sa, NULL)) {
		agent_warn("signal=%d: %s", signo, strerror(errno));
		return -1;
	}
	toggle_signo = signo;
	return 0;
}

static void *toggle_thread(void *arg)
{
	JavaVMAttachArgs args = { JNI_VERSION_1_2, "perf-jvmti signal", NULL };
	JNIEnv *jni = NULL;
	char c;

	/* JVMTI wants a thread the VM knows; daemon so that it never keeps the JVM up */
	if ((*toggle_vm)->AttachCurrentThreadAsDaemon(toggle_vm, (void **)&jni, &args) != JNI_OK) {
		agent_warn("signal: cannot attach a thread to the JVM; the signal does nothing");
		return NULL;
	}
	for (;;) {
		ssize_t n = read(toggle_pipe[0], &c, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		toggle_fn();
	}
	return NULL;
}

int toggle_signal_start(JavaVM *vm, void (*toggle)(void))
{
	pthread_attr_t attr;
	pthread_t t;
	int err;

	if (!toggle_signo || thread_started)
		return 0;
	toggle_vm = vm;
	toggle_fn = toggle;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* the attach gives it the signal mask HotSpot wants for its threads */
	err = pthread_create(&t, &attr, toggle_thread, NULL);
	pthread_attr_destroy(&attr);
	if (err) {
		agent_warn("signal: cannot start a thread: %s", strerror(err));
		return -1;
	}
	thread_started = true;
	return 0;
}
