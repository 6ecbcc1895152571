// SPDX-License-Identifier: MIT
/*
 * HotSpot dynamic attach (see jvm-attach.h and ../shared/specs/jvm-attach.md).
 * Everything that touches the JVM (trigger file, SIGQUIT, socket, agent
 * copy) runs in a forked child that took the JVM's uid/gid first: the
 * listener checks its peer's credentials, files come out owned right, and
 * a container's symlinks cannot make root write anywhere.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/openat2.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "debug.h"
#include "jvm-attach.h"
#include "namespaces.h"
#include "util.h"

char *jvm_attach__find_agent(void)
{
	const char *env = getenv("PERF_JVMTI_AGENT");
	const char *rel[] = { "jvmti/libperf-jvmti.so", "../lib/libperf-jvmti.so" };
	char exe[4096], *slash;
	ssize_t n;

	if (env && *env)
		return access(env, R_OK) ? NULL : realpath(env, NULL);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	slash[1] = 0;
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		char *p = xasprintf("%s%s", exe, rel[i]), *r = realpath(p, NULL);

		free(p);
		if (r)
			return r;
	}
	return NULL;
}

/* HotSpot, attach not disabled: SIGQUIT is safe to send */
static int check_hotspot(pid_t pid, char *err, size_t errlen)
{
	char path[64], *maps, *cmd;
	size_t len = 0;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	maps = read_file(path, NULL);
	if (!maps) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	if (!strstr(maps, "/libjvm.so\n")) {
		snprintf(err, errlen, "process %d is not a HotSpot JVM (no libjvm.so mapped): nothing sent to it", (int)pid);
		ret = -1;
	}
	free(maps);
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	cmd = ret ? NULL : read_file(path, &len);
	for (size_t off = 0; cmd && off < len; off += strlen(cmd + off) + 1) {
		if (!strcmp(cmd + off, "-Xrs") || !strcmp(cmd + off, "-XX:+DisableAttachMechanism")) {
			snprintf(err, errlen, "JVM %d runs with %s: it does not accept an attach (nothing sent)", (int)pid,
				 cmd + off);
			ret = -1;
			break;
		}
	}
	free(cmd);
	return ret;
}

static int open_in_root(pid_t pid, const char *path, int flags, mode_t mode)
{
	struct open_how how = { .flags = (uint64_t)(flags | O_CLOEXEC | O_NOFOLLOW), .mode = mode,
				.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS };
	char root[64];
	int rootfd, fd, e;

	snprintf(root, sizeof(root), "/proc/%d/root", (int)pid);
	rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -1;
	fd = (int)syscall(SYS_openat2, rootfd, path, &how, sizeof(how));
	e = errno;
	close(rootfd);
	errno = e;
	return fd;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* the child: as the JVM's user, start the listener if needed and send one request */
static int child_request(const struct ns_proc *p, const char *agent_inner, const char *options, int agent_fd,
			 const char *copy_to, int out)
{
	char sock[108], trig[128], req[4096], resp[1024];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	size_t rl = 0;
	ssize_t n;
	int s, tfd = -1;

	if (setgroups(0, NULL) && errno != EPERM)
		return 10;
	if (setresgid(p->gid, p->gid, p->gid) || setresuid(p->uid, p->uid, p->uid))
		return 11;
	if (copy_to) {
		/* the agent inside its root, new, as its user */
		int cfd = open_in_root(p->pid, copy_to, O_WRONLY | O_CREAT | O_EXCL, 0755);
		char buf[65536];
		off_t off = 0;

		if (cfd < 0)
			return 12;
		while ((n = pread(agent_fd, buf, sizeof(buf), off)) > 0) {
			if (writen(cfd, buf, (size_t)n) < 0)
				return 12;
			off += n;
		}
		if (close(cfd) || n < 0)
			return 12;
	}
	if (snprintf(sock, sizeof(sock), "/proc/%d/root/tmp/.java_pid%d", (int)p->pid, (int)p->nspid) >=
	    (int)sizeof(sock))
		return 13;
	if (stat(sock, &st)) {
		/* no listener yet: trigger file in its cwd (else its /tmp), then SIGQUIT */
		snprintf(trig, sizeof(trig), "/proc/%d/cwd/.attach_pid%d", (int)p->pid, (int)p->nspid);
		tfd = open(trig, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (tfd < 0) {
			snprintf(trig, sizeof(trig), "/proc/%d/root/tmp/.attach_pid%d", (int)p->pid, (int)p->nspid);
			tfd = open(trig, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		}
		if (tfd < 0)
			return 14;
		close(tfd);
		if (kill(p->pid, SIGQUIT)) {
			unlink(trig);
			return 15;
		}
		for (long ms = 20, waited = 0; waited < 6000 && stat(sock, &st); waited += ms, ms = ms * 3 / 2)
			sleep_ms(ms);
		unlink(trig);
		if (stat(sock, &st))
			return 16;
	}
	memcpy(sa.sun_path, sock, strlen(sock) + 1);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof(sa)))
		return 17;
	/* protocol 1, "load", path, absolute?, options: each NUL-terminated */
	rl = (size_t)snprintf(req, sizeof(req), "1%cload%c%s%ctrue%c%s%c", 0, 0, agent_inner, 0, 0, options, 0);
	if (rl >= sizeof(req) || writen(s, req, rl) < 0)
		return 18;
	rl = 0;
	while (rl < sizeof(resp) - 1 && (n = read(s, resp + rl, sizeof(resp) - 1 - rl)) > 0)
		rl += (size_t)n;
	close(s);
	if (writen(out, resp, rl) < 0)
		return 19;
	return 0;
}

static const char *child_error(int code)
{
	switch (code) {
	case 10: case 11: return "cannot take the JVM's uid/gid";
	case 12: return "cannot put a copy of the agent in its /tmp";
	case 13: return "its /proc path is too long for a socket";
	case 14: return "cannot create the attach trigger file in its cwd or /tmp";
	case 15: return "cannot signal it";
	case 16: return "no attach listener appeared within 6 s (attach disabled, or not HotSpot?)";
	case 17: return "cannot connect to its attach socket";
	case 18: case 19: return "the request could not be sent";
	default: return "the attach helper failed";
	}
}

/* one request in a child; resp gets the JVM's answer */
static int request(const struct ns_proc *p, const char *agent_inner, const char *options, int agent_fd,
		   const char *copy_to, char *resp, size_t resplen, char *err, size_t errlen)
{
	int pfd[2], status;
	size_t rl = 0;
	ssize_t n;
	pid_t c;

	sigset_t chld, old, pending;
	bool was_pending;

	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	/*
	 * Our helper's exit must not look like the caller's workload ending
	 * (perf record stops at SIGCHLD): the SIGCHLD it raises is taken back,
	 * unless one was already pending for someone else.
	 */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	sigpending(&pending);
	was_pending = sigismember(&pending, SIGCHLD);
	c = fork();
	if (c < 0) {
		close(pfd[0]);
		close(pfd[1]);
		sigprocmask(SIG_SETMASK, &old, NULL);
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	if (c == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(pfd[0]);
		_exit(child_request(p, agent_inner, options, agent_fd, copy_to, pfd[1]));
	}
	close(pfd[1]);
	while (rl < resplen - 1 && (n = read(pfd[0], resp + rl, resplen - 1 - rl)) > 0)
		rl += (size_t)n;
	resp[rl] = 0;
	close(pfd[0]);
	while (waitpid(c, &status, 0) < 0 && errno == EINTR)
		;
	if (!was_pending) {
		struct timespec zero = { 0, 0 };

		sigtimedwait(&chld, NULL, &zero);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(err, errlen, "JVM %d: %s", (int)p->pid,
			 child_error(WIFEXITED(status) ? WEXITSTATUS(status) : -1));
		return -1;
	}
	/* "0\n" = request done; for load, then the agent's own result */
	if (strncmp(resp, "0\n", 2) || (strstr(resp, "return code:") && !strstr(resp, "return code: 0"))) {
		char *nl;

		while ((nl = strchr(resp, '\n')))
			*nl = ' ';
		snprintf(err, errlen, "JVM %d refused the agent: %s", (int)p->pid, resp);
		return -1;
	}
	return 0;
}

int jvm_attach__start(struct jvm_attach *ja, pid_t pid, const char *agent, const char *options,
		      char *err, size_t errlen)
{
	struct ns_proc p;
	char resp[1024];
	int afd, ret;

	memset(ja, 0, sizeof(*ja));
	ja->pid = pid;
	if (ns_proc__read(pid, &p)) {
		snprintf(err, errlen, "process %d: %s", (int)pid, strerror(errno));
		return -1;
	}
	if (check_hotspot(pid, err, errlen))
		return -1;
	afd = open(agent, O_RDONLY | O_CLOEXEC);
	if (afd < 0) {
		snprintf(err, errlen, "%s: %s", agent, strerror(errno));
		return -1;
	}
	if (p.other_mntns) {
		/* it cannot see our files: a copy in its /tmp, unique, removed at stop */
		snprintf(ja->agent_inner, sizeof(ja->agent_inner), "/tmp/.perf-jvmti-%d-%lx.so", (int)getpid(),
			 (unsigned long)monotonic_ns());
		ja->agent_copied = true;
	} else {
		snprintf(ja->agent_inner, sizeof(ja->agent_inner), "%s", agent);
	}
	ret = request(&p, ja->agent_inner, options, afd, ja->agent_copied ? ja->agent_inner : NULL, resp,
		      sizeof(resp), err, errlen);
	close(afd);
	ja->loaded = !ret;
	if (ret && ja->agent_copied)
		jvm_attach__stop(ja, resp, sizeof(resp));
	return ret;
}

int jvm_attach__stop(struct jvm_attach *ja, char *err, size_t errlen)
{
	struct ns_proc p;
	char resp[1024];
	int ret = 0;

	err[0] = 0;
	if (ns_proc__read(ja->pid, &p))
		return 0;       /* it exited: its dump is closed */
	if (ja->loaded) {
		ret = request(&p, ja->agent_inner, "stop", -1, NULL, resp, sizeof(resp), err, errlen);
		ja->loaded = false;
	}
	if (ja->agent_copied) {
		/* as root, but only inside its root and never through a symlink */
		int tmp = open_in_root(ja->pid, "/tmp", O_RDONLY | O_DIRECTORY, 0);

		if (tmp >= 0) {
			unlinkat(tmp, strrchr(ja->agent_inner, '/') + 1, 0);
			close(tmp);
		}
		ja->agent_copied = false;
	}
	return ret;
}

struct jvm_attach *jvm_attach__many(const pid_t *pids, int nr, const char *options)
{
	struct jvm_attach *ja = xzalloc((size_t)(nr + 1) * sizeof(*ja));
	char *agent = jvm_attach__find_agent(), err[1024];
	int ok = 0;

	if (!agent) {
		pr_err("perf record --jit: libperf-jvmti.so not found next to perf (set PERF_JVMTI_AGENT)\n");
		free(ja);
		return NULL;
	}
	for (int i = 0; i < nr; i++) {
		if (jvm_attach__start(&ja[i], pids[i], agent, options, err, sizeof(err)))
			pr_err("perf record --jit: %s\n", err);
		else
			ok++;
	}
	free(agent);
	if (!ok) {
		free(ja);
		return NULL;
	}
	ja[nr].pid = -1;
	return ja;
}

void jvm_attach__stop_many(struct jvm_attach **many)
{
	char err[1024];

	for (struct jvm_attach *ja = *many; ja && ja->pid != -1; ja++)
		if ((ja->loaded || ja->agent_copied) && jvm_attach__stop(ja, err, sizeof(err)))
			pr_warning("perf record --jit: stopping the agent: %s\n", err);
	free(*many);
	*many = NULL;
}
