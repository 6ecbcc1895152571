/* SPDX-License-Identifier: MIT */
#ifndef PERF_UTIL_CPUMAP_H
#define PERF_UTIL_CPUMAP_H

/* The CPUs perf record opens events on. */
struct cpu_map {
	int nr;
	int *cpus;
};

/* Online CPUs from /sys/devices/system/cpu/online (falls back to
 * sysconf(_SC_NPROCESSORS_ONLN) when sysfs is missing). */
struct cpu_map *cpu_map__new_online(void);

/* A map with the single pseudo-CPU -1: "any CPU", for per-thread events. */
struct cpu_map *cpu_map__new_any(void);

/* Parses a list like "0-3,5"; NULL on malformed input. */
struct cpu_map *cpu_map__parse(const char *list);

/* Number of possible CPUs (for the NRCPUS feature). */
int cpu_map__nr_possible(void);

void cpu_map__delete(struct cpu_map *map);

#endif
