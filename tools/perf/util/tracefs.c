// SPDX-License-Identifier: MIT
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debug.h"
#include "strbuf.h"
#include "tracefs.h"
#include "util.h"


/* An "events" directory is what every later lookup needs, so that is the test. */
static bool looks_like_tracefs(const char *dir)
{
	char *ev = xasprintf("%s/events", dir);
	struct stat st;
	bool ok = stat(ev, &st) == 0 && S_ISDIR(st.st_mode);

	free(ev);
	return ok;
}

const char *tracefs__mountpoint(void)
{
	static const char *const candidates[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

	/*
	 * Not cached: a stat is cheap next to the file access that follows,
	 * and no answer outlives a mount or umount done meanwhile.
	 */
	for (size_t i = 0; i < ARRAY_SIZE(candidates); i++)
		if (looks_like_tracefs(candidates[i]))
			return candidates[i];
	/* Not mounted: as root we can mount it ourselves at the preferred place. */
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) == 0 &&
	    looks_like_tracefs("/sys/kernel/tracing")) {
		pr_debug("mounted tracefs at /sys/kernel/tracing\n");
		return candidates[0];
	}
	pr_debug("tracefs not found and cannot be mounted: %s\n", strerror(errno));
	return NULL;
}

char *tracefs__path(const char *rel)
{
	const char *root = tracefs__mountpoint();

	if (!root) {
		errno = ENOENT;
		return NULL;
	}
	return xasprintf("%s/%s", root, rel);
}

char *tracefs__read(const char *rel, size_t *size)
{
	char *path = tracefs__path(rel), *buf;
	int e;

	if (!path)
		return NULL;
	buf = read_file(path, size);
	e = errno;
	free(path);
	errno = e;
	return buf;
}

/* Event and system names become path components: refuse anything that could escape events/. */
static bool valid_name(const char *s)
{
	return s && *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

int tracefs__event_id(const char *sys, const char *event)
{
	char *rel, *txt, *end;
	long id;

	if (!valid_name(sys) || !valid_name(event))
		return -1;
	rel = xasprintf("events/%s/%s/id", sys, event);
	txt = tracefs__read(rel, NULL);
	free(rel);
	if (!txt)
		return -1;
	errno = 0;
	id = strtol(txt, &end, 10);
	if (errno || end == txt || id < 0 || id > 0x7fffffff)
		id = -1;
	free(txt);
	return (int)id;
}

char *tracefs__event_format(const char *sys, const char *event, size_t *size)
{
	char *rel, *txt;

	if (!valid_name(sys) || !valid_name(event))
		return NULL;
	rel = xasprintf("events/%s/%s/format", sys, event);
	txt = tracefs__read(rel, size);
	free(rel);
	return txt;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the subdirectories of @dir; NULL on error. */
static char **list_subdirs(const char *dir, size_t *nr)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;

	*nr = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		*ARRAY_PUSH(names, n, cap) = xstrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	else
		names = xzalloc(sizeof(*names));     /* empty, but not NULL (NULL means error) */
	*nr = n;
	return names;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int tracefs__for_each_event(tracefs_event_cb cb, void *arg)
{
	return tracefs__for_each_event_in(NULL, cb, arg);
}

int tracefs__for_each_event_in(const char *sys_glob, tracefs_event_cb cb, void *arg)
{
	char *events = tracefs__path("events");
	char **systems;
	size_t nsys;
	int ret = 0;

	if (!events)
		return -1;
	systems = list_subdirs(events, &nsys);
	if (!systems) {
		pr_debug("cannot read %s: %s\n", events, strerror(errno));
		free(events);
		return -1;
	}
	for (size_t i = 0; i < nsys && !ret; i++) {
		char *sysdir, **evs;
		size_t nev;

		if (sys_glob && fnmatch(sys_glob, systems[i], 0))
			continue;
		sysdir = xasprintf("%s/%s", events, systems[i]);
		evs = list_subdirs(sysdir, &nev);

		for (size_t j = 0; evs && j < nev && !ret; j++) {
			char *idp = xasprintf("%s/%s/id", sysdir, evs[j]);

			if (access(idp, R_OK) == 0)
				ret = cb(systems[i], evs[j], arg);
			free(idp);
		}
		if (evs)
			free_names(evs, nev);
		free(sysdir);
	}
	free_names(systems, nsys);
	free(events);
	return ret;
}

struct id_search {
	uint64_t id;
	char *sys, *event;
};

static int match_id(const char *sys, const char *event, void *arg)
{
	struct id_search *s = arg;
	int id = tracefs__event_id(sys, event);

	if (id < 0 || (uint64_t)id != s->id)
		return 0;
	s->sys = xstrdup(sys);
	s->event = xstrdup(event);
	return 1;
}

int tracefs__event_by_id(uint64_t id, char **sys, char **event)
{
	struct id_search s = { .id = id };

	if (tracefs__for_each_event(match_id, &s) != 1)
		return -1;
	*sys = s.sys;
	*event = s.event;
	return 0;
}
