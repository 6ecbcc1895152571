// SPDX-License-Identifier: MIT
/*
 * perf test: the C suites linked into this binary, then the shell tests in
 * tests/shell/ beside the source tree. Each test runs in its own child so a
 * crash is a failure of that test, not of the runner.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "builtin.h"
#include "tests/tests.h"
#include "util/debug.h"
#include "util/parse-options.h"
#include "util/strbuf.h"
#include "util/util.h"

extern const struct test_suite *__start_perf_test_suites[];
extern const struct test_suite *__stop_perf_test_suites[];

/* keeps the section alive even when no suite is linked in */
static const struct test_suite *none __attribute__((used, section("perf_test_suites"),
						     aligned(sizeof(void *))));

struct test_entry {
	const char *desc;
	const struct test_suite *suite;  /* C suite, or NULL */
	char *script;                    /* shell test path */
};

static const char *tmpdir_for_test;

const char *test_tmpdir(void)
{
	return tmpdir_for_test;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct test_entry *)a)->desc, ((const struct test_entry *)b)->desc);
}

static char *shell_desc(const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");
	char *desc = NULL;

	if (!f)
		return NULL;
	/* like perf: the description is the comment on the second line */
	for (int n = 0; n < 2 && fgets(line, sizeof(line), f); n++) {
		if (n == 1 && line[0] == '#') {
			char *s = line + 1;

			while (*s == ' ')
				s++;
			s[strcspn(s, "\n")] = 0;
			desc = xstrdup(s);
		}
	}
	fclose(f);
	return desc;
}

static char *source_root(void)
{
	/* the binary lives at <root>/tools/perf/perf */
	char *p = xstrdup(perf_exec_path), *s;

	for (int i = 0; i < 3 && (s = strrchr(p, '/')); i++)
		*s = 0;
	return p;
}

static size_t collect(struct test_entry **out, const char *root)
{
	size_t n = 0, cap = 0;
	struct test_entry *e = NULL;
	char *dir = xasprintf("%s/tools/perf/tests/shell", root);
	struct dirent **names;
	int nn;
	size_t nsuites = 0;

	for (const struct test_suite **s = __start_perf_test_suites; s < __stop_perf_test_suites; s++) {
		if (!*s)
			continue;
		*ARRAY_PUSH(e, n, cap) = (struct test_entry){ (*s)->desc, *s, NULL };
	}
	nsuites = n;
	qsort(e, nsuites, sizeof(*e), cmp_entry);

	nn = scandir(dir, &names, NULL, alphasort);
	for (int i = 0; i < nn; i++) {
		char *path, *desc;

		if (str_ends_with(names[i]->d_name, ".sh")) {
			path = xasprintf("%s/%s", dir, names[i]->d_name);
			desc = shell_desc(path);
			if (desc)
				*ARRAY_PUSH(e, n, cap) = (struct test_entry){ desc, NULL, path };
			else
				free(path);
		}
		free(names[i]);
	}
	if (nn >= 0)
		free(names);
	free(dir);
	*out = e;
	return n;
}

static volatile sig_atomic_t child_pid;

static void on_alarm(int sig)
{
	(void)sig;
	if (child_pid > 0)
		kill(-child_pid, SIGKILL);
}

/* returns TEST_OK/FAIL/SKIP; output goes to logfd */
static int run_one(const struct test_entry *t, int logfd, const char *root, int timeout,
		   char **skip_reason)
{
	/*
	 * Not "/tmp/perf-...": perf 6.1 reads any DSO whose path starts with
	 * /tmp/perf- as a perf-PID.map text file, so binaries a test builds in
	 * its cwd and hands to perf 6.1 would get garbage symbols.
	 */
	char tmpl[] = "/tmp/perftest-XXXXXX";
	char *tmp = mkdtemp(tmpl);
	int status, ret;
	pid_t pid;

	if (!tmp)
		return TEST_FAIL;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return TEST_FAIL;
	if (pid == 0) {
		setpgid(0, 0);
		dup2(logfd, 1);
		dup2(logfd, 2);
		if (chdir(tmp) < 0)
			_exit(1);
		setenv("PERF_TEST_TMP", tmp, 1);
		setenv("PERF", perf_exec_path, 1);
		setenv("TOP", root, 1);
		tmpdir_for_test = tmp;
		if (t->suite) {
			int r = t->suite->func();

			fflush(stdout);
			fflush(stderr);
			_exit(r == TEST_OK ? 0 : r == TEST_SKIP ? 2 : 1);
		}
		if (access("/usr/bin/perf", X_OK) == 0 && !getenv("PERF_REF"))
			setenv("PERF_REF", "/usr/bin/perf", 1);
		execl("/bin/bash", "bash", t->script, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	child_pid = pid;
	signal(SIGALRM, on_alarm);
	alarm(timeout);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	alarm(0);
	child_pid = 0;
	/* a test that leaves background processes must not leave them running */
	kill(-pid, SIGKILL);

	if (WIFEXITED(status))
		ret = WEXITSTATUS(status) == 0 ? TEST_OK : WEXITSTATUS(status) == 2 ? TEST_SKIP : TEST_FAIL;
	else {
		dprintf(logfd, "test killed by signal %d%s\n", WTERMSIG(status),
			WTERMSIG(status) == SIGKILL ? " (timeout?)" : "");
		ret = TEST_FAIL;
	}
	if (ret == TEST_SKIP) {
		/* the last line that starts with SKIP: says why */
		char buf[8192];
		ssize_t len = pread(logfd, buf, sizeof(buf) - 1, 0);
		off_t end = lseek(logfd, 0, SEEK_END);

		if (end > (off_t)sizeof(buf) - 1)
			len = pread(logfd, buf, sizeof(buf) - 1, end - (sizeof(buf) - 1));
		if (len > 0) {
			char *s, *last = NULL;

			buf[len] = 0;
			for (s = buf; (s = strstr(s, "SKIP")); s += 4)
				last = s;
			if (last) {
				last[strcspn(last, "\n")] = 0;
				*skip_reason = xstrdup(last);
			}
		}
	}
	char *cmd = xasprintf("rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		pr_debug("could not remove %s\n", tmp);
	free(cmd);
	return ret;
}

static void dump_log(int fd, int maxlines)
{
	char buf[65536];
	off_t end = lseek(fd, 0, SEEK_END), start = end > (off_t)sizeof(buf) - 1 ? end - (off_t)(sizeof(buf) - 1) : 0;
	ssize_t len = pread(fd, buf, sizeof(buf) - 1, start);
	char *s;
	int lines = 0;

	if (len <= 0)
		return;
	buf[len] = 0;
	for (s = buf + len; s > buf; s--)
		if (s[-1] == '\n' && ++lines > maxlines)
			break;
	fputs(s, stdout);
	if (len && buf[len - 1] != '\n')
		fputc('\n', stdout);
}

static const char *const test_usage[] = {
	"perf test [<options>] [{list <test-name-fragment>|[<test-name-fragments>|<test-numbers>]}]",
	NULL
};

int cmd_test(int argc, const char **argv)
{
	bool list = false, skip_shell = false, only_shell = false;
	int timeout = 600;
	const struct option options[] = {
		OPT_INCR('v', "verbose", &verbose, "be more verbose (show output of the tests)"),
		OPT_BOOLEAN(0, "list", &list, "list the tests"),
		OPT_BOOLEAN(0, "no-shell", &skip_shell, "run only the C suites"),
		OPT_BOOLEAN(0, "shell-only", &only_shell, "run only the shell tests"),
		OPT_INTEGER(0, "timeout", &timeout, "seconds before a test is killed (default 600)"),
		OPT_END()
	};
	struct test_entry *tests;
	char *root = source_root();
	size_t n = collect(&tests, root);
	int passed = 0, failed = 0, skipped = 0;

	argc = parse_options(argc, argv, options, test_usage, 0);
	/*
	 * PERF_TEST_TIMES=FILE: seconds per test, one line each, so the slow
	 * ones can be found without -v's whole logs (make test keeps the 30-min budget).
	 */
	const char *times_path = getenv("PERF_TEST_TIMES");
	FILE *times = times_path && !list ? fopen(times_path, "w") : NULL;

	if (argc > 0 && !strcmp(argv[0], "list")) {
		list = true;
		argc--, argv++;
	}
	for (size_t i = 0; i < n; i++) {
		bool match = argc == 0;
		const struct test_entry *t = &tests[i];

		for (int a = 0; a < argc && !match; a++) {
			char *end;
			long num = strtol(argv[a], &end, 10);

			if (*end == 0)
				match = num == (long)i + 1;
			else
				match = strcasestr(t->desc, argv[a]) != NULL ||
					(t->script && strstr(t->script, argv[a]));
		}
		if (!match || (skip_shell && t->script) || (only_shell && !t->script))
			continue;
		if (list) {
			printf("%3zu: %s\n", i + 1, t->desc);
			continue;
		}
		printf("%3zu: %-60s:", i + 1, t->desc);
		fflush(stdout);

		char logname[] = "/tmp/perf-test-log-XXXXXX";
		int logfd = mkstemp(logname);
		char *skip_reason = NULL;
		time_t t0 = time(NULL);
		int r;

		if (logfd < 0) {
			printf(" FAILED (no log file)\n");
			failed++;
			continue;
		}
		unlink(logname);
		r = run_one(t, logfd, root, timeout, &skip_reason);
		if (r == TEST_OK) {
			printf(" Ok");
			passed++;
		} else if (r == TEST_SKIP) {
			printf(" Skip%s%s%s", skip_reason ? " (" : "", skip_reason ? skip_reason : "",
			       skip_reason ? ")" : "");
			skipped++;
		} else {
			printf(" FAILED!");
			failed++;
		}
		if (verbose)
			printf(" [%lds]", (long)(time(NULL) - t0));
		if (times)
			fprintf(times, "%ld\t%zu\t%s\n", (long)(time(NULL) - t0), i + 1, t->desc);
		printf("\n");
		if (verbose || r == TEST_FAIL)
			dump_log(logfd, verbose ? 100000 : 40);
		free(skip_reason);
		close(logfd);
	}
	if (times)
		fclose(times);
	if (!list)
		printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	for (size_t i = 0; i < n; i++)
		if (tests[i].script) {
			free((char *)tests[i].desc);
			free(tests[i].script);
		}
	free(tests);
	free(root);
	return failed ? 1 : 0;
}
