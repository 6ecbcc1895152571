// SPDX-License-Identifier: MIT
/* What perf record saves for containers: the <data>.jit/index reader (good, bad and hostile
 * lines), and the /proc view of a process (ours: not contained, nspid == pid). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/tests.h"
#include "util/jit-save.h"
#include "util/namespaces.h"
#include "util/util.h"

static int test__jit_save_index(void)
{
	char dir[] = "/tmp/perftest-jsave-XXXXXX", *data, *jdir, *idx;
	const struct jit_saved_file *f;
	struct jit_saved *s;
	FILE *fp;

	TEST_ASSERT_VAL("mkdtemp", mkdtemp(dir));
	data = xasprintf("%s/perf.data", dir);
	jdir = xasprintf("%s/perf.data.jit", dir);
	idx = xasprintf("%s/index", jdir);
	fp = fopen(data, "w");
	TEST_ASSERT_VAL("data", fp);
	fclose(fp);
	TEST_ASSERT_VAL("no index: NULL", jit_saved__load(data) == NULL);
	TEST_ASSERT_VAL("mkdir", mkdir(jdir, 0755) == 0);
	fp = fopen(idx, "w");
	TEST_ASSERT_VAL("index", fp);
	fprintf(fp, "# comment\n"
		"proc 4242 1\n"
		"proc 77 12\n"
		"dump 4242 4242-0-jit-1.dump /tmp/java-jit-x/jit-1.dump\n"
		"map 77 77-perf-12.map\n"
		"dump 4242 ../escape.dump /tmp/jit-1.dump\n"   /* a name with a '/': refused */
		"dump 4242 rel.dump relative/jit-1.dump\n"     /* inner path not absolute */
		"map nonsense\n"
		"bogus line\n");
	fclose(fp);
	s = jit_saved__load(data);
	TEST_ASSERT_VAL("loaded", s);
	TEST_ASSERT_EQUAL("procs", s->nr_procs, 2);
	TEST_ASSERT_EQUAL("files (bad ones skipped)", s->nr_files, 2);
	TEST_ASSERT_EQUAL("nspid", jit_saved__nspid(s, 4242), 1);
	TEST_ASSERT_EQUAL("nspid 2", jit_saved__nspid(s, 77), 12);
	TEST_ASSERT_EQUAL("unknown pid", jit_saved__nspid(s, 5), -1);
	f = jit_saved__find(s, 4242, false, "/tmp/java-jit-x/jit-1.dump");
	TEST_ASSERT_VAL("dump found", f && !f->is_map);
	TEST_ASSERT_VAL("dump path in the dir", f && str_starts_with(f->path, s->dir) &&
			str_ends_with(f->path, "/4242-0-jit-1.dump"));
	TEST_ASSERT_VAL("other inner path", !jit_saved__find(s, 4242, false, "/tmp/jit-2.dump"));
	TEST_ASSERT_VAL("any dump", jit_saved__find(s, 4242, false, NULL) == f);
	f = jit_saved__find(s, 77, true, NULL);
	TEST_ASSERT_VAL("map found", f && f->is_map && str_ends_with(f->path, "/77-perf-12.map"));
	TEST_ASSERT_VAL("no map of 4242", !jit_saved__find(s, 4242, true, NULL));
	jit_saved__delete(s);
	unlink(idx);
	rmdir(jdir);
	unlink(data);
	rmdir(dir);
	free(idx);
	free(jdir);
	free(data);
	return TEST_OK;
}
DEFINE_SUITE("Containers: the saved JIT files' index, good and bad lines", test__jit_save_index);

static int test__ns_proc_self(void)
{
	struct ns_proc p;
	double start;
	int fd;

	TEST_ASSERT_EQUAL("read self", ns_proc__read(getpid(), &p), 0);
	TEST_ASSERT_EQUAL("nspid", p.nspid, getpid());
	TEST_ASSERT_VAL("not contained", !ns_proc__contained(&p));
	TEST_ASSERT_EQUAL("uid", p.uid, geteuid());
	TEST_ASSERT_VAL("start time", ns_proc__start_time(&p, &start) == 0 && start > 1e9);
	/* a file in our own root, and the refusals */
	fd = ns_proc__open(&p, "/proc/self/root/etc/hostname");
	TEST_ASSERT_VAL("magic link path refused", fd < 0);
	fd = ns_proc__open(&p, "/etc/hostname");
	if (fd >= 0)
		close(fd);
	TEST_ASSERT_VAL("regular file opened", fd >= 0 || access("/etc/hostname", R_OK));
	TEST_ASSERT_VAL("directory refused", ns_proc__open(&p, "/etc") < 0);
	TEST_ASSERT_VAL("gone", ns_proc__read(0x3fffffff, &p) < 0);
	return TEST_OK;
}
DEFINE_SUITE("Containers: a process's namespace pid and root-confined opens (self)", test__ns_proc_self);
