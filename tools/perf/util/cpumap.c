// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cpumap.h"
#include "strbuf.h"
#include "util.h"

static void cpu_map__push(struct cpu_map *map, size_t *cap, int cpu)
{
	*ARRAY_PUSH(map->cpus, map->nr, *cap) = cpu;
}

struct cpu_map *cpu_map__parse(const char *list)
{
	struct cpu_map *map = xzalloc(sizeof(*map));
	const char *p = list;
	size_t cap = 0;

	while (*p && *p != '\n') {
		char *end;
		long lo, hi;

		if (!isdigit((unsigned char)*p))
			goto bad;
		lo = strtol(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				goto bad;
			hi = strtol(p, &end, 10);
			p = end;
		}
		if (hi < lo || hi > 65535)
			goto bad;
		for (long c = lo; c <= hi; c++)
			cpu_map__push(map, &cap, (int)c);
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto bad;
	}
	if (map->nr == 0)
		goto bad;
	return map;
bad:
	cpu_map__delete(map);
	return NULL;
}

static struct cpu_map *cpu_map__from_sysfs(const char *file)
{
	char *text = read_file(file, NULL);
	struct cpu_map *map;

	if (!text)
		return NULL;
	map = cpu_map__parse(text);
	free(text);
	return map;
}

struct cpu_map *cpu_map__new_online(void)
{
	struct cpu_map *map = cpu_map__from_sysfs("/sys/devices/system/cpu/online");

	if (!map) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		size_t cap = 0;

		map = xzalloc(sizeof(*map));
		for (long c = 0; c < (n > 0 ? n : 1); c++)
			cpu_map__push(map, &cap, (int)c);
	}
	return map;
}

struct cpu_map *cpu_map__new_any(void)
{
	struct cpu_map *map = xzalloc(sizeof(*map));

	map->nr = 1;
	map->cpus = xmalloc(sizeof(int));
	map->cpus[0] = -1;
	return map;
}

int cpu_map__nr_possible(void)
{
	struct cpu_map *map = cpu_map__from_sysfs("/sys/devices/system/cpu/possible");
	int nr;

	if (!map)
		return (int)sysconf(_SC_NPROCESSORS_CONF);
	nr = map->cpus[map->nr - 1] + 1;
	cpu_map__delete(map);
	return nr;
}

void cpu_map__delete(struct cpu_map *map)
{
	if (!map)
		return;
	free(map->cpus);
	free(map);
}
