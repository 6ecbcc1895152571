// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "debug.h"
#include "evlist.h"
#include "strbuf.h"
#include "target.h"
#include "util.h"

static pid_t tgid_of(pid_t tid)
{
	char path[64], *s, *p;
	pid_t tgid = tid;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	s = read_file(path, NULL);
	if (s && (p = strstr(s, "\nTgid:")))
		tgid = (pid_t)strtol(p + 6, NULL, 10);
	free(s);
	return tgid;
}

static int add_process(struct target *t, pid_t pid)
{
	int nt = 0;
	pid_t *tids = thread_list__from_pid(pid, &nt);

	if (!tids)
		return 0;   /* gone between the check and now: nothing to attach to */
	GROW_ARRAY(t->threads, (size_t)t->nr_threads + nt, t->alloc_threads);
	memcpy(t->threads + t->nr_threads, tids, nt * sizeof(pid_t));
	t->nr_threads += nt;
	free(tids);
	*ARRAY_PUSH(t->pids, t->nr_pids, t->alloc_pids) = pid;
	return 0;
}

static void add_thread(struct target *t, pid_t tid)
{
	pid_t tg = tgid_of(tid);

	*ARRAY_PUSH(t->threads, t->nr_threads, t->alloc_threads) = tid;
	for (int k = 0; k < t->nr_pids; k++)
		if (t->pids[k] == tg)
			return;
	*ARRAY_PUSH(t->pids, t->nr_pids, t->alloc_pids) = tg;
}

/* "1,2,3" -> ids; -1 on anything else */
static int parse_list(const char *list, pid_t **ids, int *nr)
{
	char *copy = xstrdup(list), *save = NULL, *tok;
	size_t alloc = 0;
	int ret = 0;

	*ids = NULL;
	*nr = 0;
	for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		char *end;
		long long v;

		errno = 0;
		v = strtoll(tok, &end, 0);
		if (errno || *end || v <= 0 || v > INT32_MAX || *tok == '-' || *tok == '+') {
			ret = -1;
			break;
		}
		*ARRAY_PUSH(*ids, *nr, alloc) = (pid_t)v;
	}
	free(copy);
	return ret || !*nr ? -1 : 0;
}

int target__resolve(struct target *t, const char *list, bool by_tid)
{
	pid_t *ids;
	int n, ret = 0;

	memset(t, 0, sizeof(*t));
	if (parse_list(list, &ids, &n)) {
		pr_err("invalid %s list '%s'\n", by_tid ? "--tid" : "--pid", list);
		free(ids);
		return -1;
	}
	for (int i = 0; i < n && !ret; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d", (int)ids[i]);
		if (access(path, F_OK)) {
			pr_err("The %s %d does not exist\n", by_tid ? "thread" : "process", (int)ids[i]);
			ret = -1;
		} else if (by_tid)
			add_thread(t, ids[i]);
		else
			ret = add_process(t, ids[i]);
	}
	free(ids);
	if (ret)
		target__exit(t);
	return ret;
}

void target__exit(struct target *t)
{
	free(t->threads);
	free(t->pids);
	memset(t, 0, sizeof(*t));
}
