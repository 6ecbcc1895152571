// SPDX-License-Identifier: MIT
/*
 * Adding and removing uprobe events. A multi-probe add is all-or-nothing:
 * perf 6.1 leaves the events it managed to add when a later one fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug.h"
#include "probe-cache.h"
#include "probe-event.h"
#include "tracefs.h"
#include "util.h"

int probe_line__names(const char *line, char **group, char **event)
{
	const char *p = line + 2, *slash, *sp;

	if (strlen(line) < 4 || line[1] != ':')
		return -1;
	slash = strchr(p, '/');
	sp = strchr(p, ' ');
	if (!slash || (sp && slash > sp))
		return -1;
	if (!sp)
		sp = p + strlen(p);
	*group = xasprintf("%.*s", (int)(slash - p), p);
	*event = xasprintf("%.*s", (int)(sp - slash - 1), slash + 1);
	return 0;
}

char *probe_line__rename(const char *line, const char *group, const char *event)
{
	const char *sp = strchr(line, ' ');

	return xasprintf("%c:%s/%s%s", line[0], group, event, sp ? sp : "");
}

static void parse_place(struct probe_event *ev, const char *place, size_t len)
{
	char *s = xasprintf("%.*s", (int)len, place), *colon = strrchr(s, ':'), *lp;

	if (colon) {
		*colon = '\0';
		ev->path = xstrdup(s);
		ev->offset = strtoull(colon + 1, NULL, 0);
		lp = strchr(colon + 1, '(');
		if (lp)
			ev->ref_ctr = strtoull(lp + 1, NULL, 0);
	} else {
		ev->path = xstrdup(s);
	}
	free(s);
}

int probe_events__list(struct probe_event **evs)
{
	char *text = tracefs__read("uprobe_events", NULL), *line, *save = NULL;
	int nr = 0;

	*evs = NULL;
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct probe_event ev = { .type = line[0] };
		const char *place, *end;

		if (probe_line__names(line, &ev.group, &ev.event) < 0)
			continue;
		place = strchr(line, ' ');
		place = place ? place + 1 : line + strlen(line);
		end = strchr(place, ' ');
		if (!end)
			end = place + strlen(place);
		parse_place(&ev, place, (size_t)(end - place));
		ev.args = xstrdup(*end ? end + 1 : "");
		*evs = xrealloc(*evs, (size_t)(nr + 1) * sizeof(**evs));
		(*evs)[nr++] = ev;
	}
	free(text);
	return nr;
}

void probe_events__free(struct probe_event *evs, int nr)
{
	for (int i = 0; i < nr; i++) {
		free(evs[i].group);
		free(evs[i].event);
		free(evs[i].path);
		free(evs[i].args);
	}
	free(evs);
}

bool probe_event__exists(const char *group, const char *event)
{
	struct probe_event *evs;
	int nr = probe_events__list(&evs);
	bool found = false;

	for (int i = 0; i < nr && !found; i++)
		found = !strcmp(evs[i].group, group) && !strcmp(evs[i].event, event);
	probe_events__free(evs, nr);
	return found;
}

char *probe_event__free_name(const char *group, const char *event)
{
	char *name = xstrdup(event);

	for (int i = 1; probe_event__exists(group, name) && i < 1000; i++) {
		free(name);
		name = xasprintf("%s_%d", event, i);
	}
	return name;
}

void probe_names__exit(struct probe_names *n)
{
	for (size_t i = 0; i < n->nr; i++)
		free(n->v[i]);
	free(n->v);
	n->v = NULL;
	n->nr = 0;
}

static int open_uprobe_events(void)
{
	char *path = tracefs__path("uprobe_events");
	int fd;

	if (!path) {
		pr_err("tracefs is not available (mount -t tracefs nodev /sys/kernel/tracing)\n");
		return -1;
	}
	/* never O_TRUNC: that would delete every uprobe of every user */
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		pr_err("%s: %s\n", path, strerror(errno));
	free(path);
	return fd;
}

/* the last line of error_log, for the kernel's reason */
static char *kernel_reason(void)
{
	char *log = tracefs__read("error_log", NULL), *last = NULL, *p;

	if (!log)
		return NULL;
	for (p = strtok(log, "\n"); p; p = strtok(NULL, "\n"))
		if (strstr(p, "error:"))
			last = p;
	p = last ? xstrdup(strstr(last, "error:") + 7) : NULL;
	free(log);
	return p;
}

static int write_line(int fd, const char *line)
{
	size_t len = strlen(line);
	char *buf = xasprintf("%s\n", line);
	ssize_t n = write(fd, buf, len + 1);
	int e = errno;

	free(buf);
	errno = e;
	return n == (ssize_t)(len + 1) ? 0 : -1;
}

static bool names_has(const struct probe_names *n, const char *ge)
{
	for (size_t i = 0; i < n->nr; i++)
		if (!strcmp(n->v[i], ge))
			return true;
	return false;
}

int probe_events__add(char **lines, size_t nr, struct probe_names *added)
{
	struct probe_names mine = { 0 };
	int fd, ret = 0;

	for (size_t i = 0; i < nr; i++) {
		const char *why = NULL;
		char *g, *e;

		if (probe_cache__validate_tev(lines[i], &why) < 0) {
			pr_err("Invalid probe definition '%s': %s; nothing added\n", lines[i], why);
			return -1;
		}
		if (probe_line__names(lines[i], &g, &e) == 0) {
			char *ge = xasprintf("%s/%s", g, e);

			if (!names_has(&mine, ge)) {
				if (probe_event__exists(g, e)) {
					pr_err("Error: event \"%s:%s\" already exists; nothing added "
					       "(use -f to add it under a new name, or delete it first)\n", g, e);
					free(g);
					free(e);
					free(ge);
					probe_names__exit(&mine);
					return -1;
				}
				mine.v = xrealloc(mine.v, (mine.nr + 1) * sizeof(*mine.v));
				mine.v[mine.nr++] = ge;
			} else {
				free(ge);
			}
			free(g);
			free(e);
		}
	}
	fd = open_uprobe_events();
	if (fd < 0) {
		probe_names__exit(&mine);
		return -1;
	}
	for (size_t i = 0; i < nr; i++) {
		if (write_line(fd, lines[i]) < 0) {
			int e = errno;
			char *why = kernel_reason();

			pr_err("Failed to add '%s': %s%s%s\n", lines[i], strerror(e),
			       why ? ": " : "", why ? why : "");
			free(why);
			ret = -1;
			break;
		}
	}
	close(fd);
	if (ret < 0) {
		if (mine.nr)
			pr_err("Rolling back the %zu event(s) this command was adding\n", mine.nr);
		probe_names__del_all(&mine);
	} else if (added) {
		for (size_t i = 0; i < mine.nr; i++) {
			added->v = xrealloc(added->v, (added->nr + 1) * sizeof(*added->v));
			added->v[added->nr++] = mine.v[i];
		}
		free(mine.v);
		mine.v = NULL;
		mine.nr = 0;
	}
	probe_names__exit(&mine);
	return ret;
}

int probe_event__del(const char *group, const char *event)
{
	int fd = open_uprobe_events(), ret = 0;
	char *line;

	if (fd < 0)
		return -1;
	line = xasprintf("-:%s/%s", group, event);
	if (write_line(fd, line) < 0) {
		if (errno == EBUSY) {
			pr_warning("Warning: %s:%s is in use by someone else; kept\n", group, event);
			ret = 1;
		} else {
			pr_err("Failed to delete %s:%s: %s\n", group, event, strerror(errno));
			ret = -1;
		}
	}
	free(line);
	close(fd);
	return ret;
}

void probe_names__del_all(struct probe_names *names)
{
	for (size_t i = names->nr; i-- > 0;) {
		char *slash = strchr(names->v[i], '/');

		if (!slash)
			continue;
		*slash = '\0';
		probe_event__del(names->v[i], slash + 1);
		*slash = '/';
	}
}

int probe_events__del_glob(const char *group_glob, const char *event_glob,
			   void (*cb)(const char *group, const char *event, int result, void *arg), void *arg)
{
	struct probe_event *evs;
	int nr = probe_events__list(&evs), n = 0;

	if (nr < 0) {
		pr_err("tracefs is not available\n");
		return -1;
	}
	for (int i = 0; i < nr; i++) {
		int r;

		if (fnmatch(group_glob, evs[i].group, 0) || fnmatch(event_glob, evs[i].event, 0))
			continue;
		/* multi-probe events are listed once per probe: delete once */
		if (i && !strcmp(evs[i].group, evs[i - 1].group) && !strcmp(evs[i].event, evs[i - 1].event))
			continue;
		r = probe_event__del(evs[i].group, evs[i].event);
		if (cb)
			cb(evs[i].group, evs[i].event, r, arg);
		if (r >= 0)
			n++;
	}
	probe_events__free(evs, nr);
	return n;
}
