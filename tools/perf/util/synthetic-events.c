// SPDX-License-Identifier: MIT
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/bpf.h>
#include "debug.h"
#include "evlist.h"
#include "synthetic-events.h"
#include "util.h"

/* largest record we build: fixed part, a PATH_MAX name, the trailer */
#define SYNTH_BUF_SIZE (PATH_MAX + 256)

static int emit(const struct synth_target *t, void *rec, size_t body)
{
	union perf_event *ev = rec;

	memset((char *)rec + body, 0, t->id_hdr_size);
	ev->header.size = (uint16_t)(body + t->id_hdr_size);
	return t->process(t->arg, ev);
}

/* copies s NUL-terminated and padded to 8; returns the padded length */
static size_t put_string(char *dst, const char *s, size_t max)
{
	size_t n = strnlen(s, max - 1), padded = ALIGN_UP(n + 1, 8);

	memcpy(dst, s, n);
	memset(dst + n, 0, padded - n);
	return padded;
}

uint64_t kallsyms__symbol_address(const char *name)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	uint64_t addr = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type, sym[256];

		if (sscanf(line, "%llx %c %255s", &a, &type, sym) == 3 && !strcmp(sym, name)) {
			addr = a;
			break;
		}
	}
	fclose(f);
	return addr;
}

int perf_event__synthesize_kernel_mmap(const struct synth_target *t)
{
	uint64_t text = kallsyms__symbol_address("_text");
	uint64_t etext = kallsyms__symbol_address("_etext");
	unsigned char buf[256] __attribute__((aligned(8)));
	struct perf_record_mmap *ev = (void *)buf;
	size_t body;

	if (!text) {
		pr_warning("Couldn't find _text in /proc/kallsyms (kptr_restrict?): kernel samples will not resolve\n");
		return 0;
	}
	memset(buf, 0, sizeof(buf));
	ev->header.type = PERF_RECORD_MMAP;
	ev->header.misc = PERF_RECORD_MISC_KERNEL;
	ev->pid = (uint32_t)-1;
	ev->tid = 0;
	ev->start = text;
	ev->len = etext > text ? etext - text : 0;
	ev->pgoff = text;
	body = sizeof(*ev) + put_string(ev->filename, "[kernel.kallsyms]_text", 64);
	return emit(t, buf, body);
}

int perf_event__synthesize_comm(const struct synth_target *t, pid_t pid, pid_t tid, const char *comm, bool exec)
{
	unsigned char buf[128] __attribute__((aligned(8)));
	struct perf_record_comm *ev = (void *)buf;
	size_t body;

	ev->header.type = PERF_RECORD_COMM;
	ev->header.misc = exec ? PERF_RECORD_MISC_COMM_EXEC : 0;
	ev->pid = pid;
	ev->tid = tid;
	body = sizeof(*ev) + put_string(ev->comm, comm, 16);
	return emit(t, buf, body);
}

int synthesize_namespaces(const struct synth_target *t, pid_t pid, pid_t tid)
{
	/* the kernel's order (Documentation/formats/perf-data-records-2.md) */
	static const char *const ns[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
	uint64_t buf[2 + 2 * 7 + 8];
	uint32_t *ids = (uint32_t *)&buf[1];

	if (!t->namespaces)
		return 0;
	memset(buf, 0, sizeof(buf));
	((struct perf_event_header *)buf)->type = PERF_RECORD_NAMESPACES;
	ids[0] = (uint32_t)pid;
	ids[1] = (uint32_t)tid;
	buf[2] = 7;
	for (size_t i = 0; i < 7; i++) {
		char path[96];
		struct stat st;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/ns/%s", (int)pid, (int)tid, ns[i]);
		if (stat(path, &st) == 0) {
			buf[3 + 2 * i] = st.st_dev;
			buf[4 + 2 * i] = st.st_ino;
		}
	}
	return emit(t, buf, (3 + 2 * 7) * sizeof(uint64_t));
}

static int synthesize_fork(const struct synth_target *t, pid_t pid, pid_t tid)
{
	unsigned char buf[128] __attribute__((aligned(8)));
	struct perf_record_fork *ev = (void *)buf;

	memset(buf, 0, sizeof(buf));
	ev->header.type = PERF_RECORD_FORK;
	ev->pid = pid;
	ev->ppid = pid;
	ev->tid = tid;
	ev->ptid = pid;
	return emit(t, buf, sizeof(*ev));
}

static char *read_comm(pid_t pid, pid_t tid)
{
	char path[64], *s;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	s = read_file(path, NULL);
	if (s)
		s[strcspn(s, "\n")] = 0;
	return s;
}

static int synthesize_mmaps(const struct synth_target *t, pid_t pid)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	unsigned char *buf = xmalloc(SYNTH_BUF_SIZE);
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	if (!f) {
		free(buf);
		return 0;
	}
	while (getline(&line, &cap, f) > 0) {
		struct perf_record_mmap2 *ev = (void *)buf;
		unsigned long long start, end, off, ino;
		unsigned maj, min;
		char perms[8];
		int name_at = 0;
		const char *name;
		size_t body;

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &off, &maj, &min,
			   &ino, &name_at) < 7)
			continue;
		/* only code matters for symbol resolution */
		if (perms[2] != 'x')
			continue;
		name = line + name_at;
		line[strcspn(line, "\n")] = 0;
		if (!strcmp(name, "[vsyscall]"))
			continue;
		if (!*name)
			name = "//anon";
		memset(ev, 0, sizeof(*ev));
		ev->header.type = PERF_RECORD_MMAP2;
		ev->header.misc = PERF_RECORD_MISC_USER;
		ev->pid = pid;
		ev->tid = pid;
		ev->start = start;
		ev->len = end - start;
		ev->pgoff = off;
		ev->maj = maj;
		ev->min = min;
		ev->ino = ino;
		ev->prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) | PROT_EXEC;
		ev->flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		body = sizeof(*ev) + put_string(ev->filename, name, PATH_MAX);
		ret = emit(t, buf, body);
		if (ret)
			break;
	}
	free(line);
	fclose(f);
	free(buf);
	return ret;
}

int perf_event__synthesize_thread(const struct synth_target *t, pid_t pid)
{
	int nr = 0, ret = 0;
	pid_t *tids = thread_list__from_pid(pid, &nr);

	if (!tids)
		return 0;
	for (int i = 0; i < nr && !ret; i++) {
		char *comm = read_comm(pid, tids[i]);

		if (!comm)
			continue;
		ret = perf_event__synthesize_comm(t, pid, tids[i], comm, false);
		if (!ret && tids[i] != pid)
			ret = synthesize_fork(t, pid, tids[i]);
		if (!ret)
			ret = synthesize_namespaces(t, pid, tids[i]);
		free(comm);
	}
	if (!ret)
		ret = synthesize_mmaps(t, pid);
	free(tids);
	return ret;
}

int perf_event__synthesize_all_threads(const struct synth_target *t)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int ret = 0;

	if (!d) {
		pr_err("cannot open /proc: existing threads will show as unknown\n");
		return 0;
	}
	while (!ret && (de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || end == de->d_name)
			continue;
		ret = perf_event__synthesize_thread(t, (pid_t)pid);
	}
	closedir(d);
	return ret;
}

int perf_event__synthesize_id_index(const struct synth_target *t, const struct evlist *el)
{
	size_t n = 0, k = 0, size;
	struct perf_record_id_index *ev;
	int ret;

	for (size_t i = 0; i < el->nr; i++)
		for (size_t j = 0; j < el->entries[i].nr_ids; j++)
			n += el->entries[i].fds[j] >= 0;
	/* a record's size is 16 bits: large -a runs get no index (optional) */
	size = sizeof(*ev) + n * sizeof(ev->entries[0]);
	if (size + t->id_hdr_size > 0xffff)
		return 0;
	ev = xzalloc(size + t->id_hdr_size);
	ev->header.type = PERF_RECORD_ID_INDEX;
	ev->nr = n;
	for (size_t i = 0; i < el->nr; i++) {
		const struct evsel *e = &el->entries[i];

		for (int c = 0; c < el->cpus->nr; c++)
			for (int th = 0; th < el->nr_threads; th++) {
				size_t j = (size_t)c * el->nr_threads + th;

				if (e->fds[j] < 0)
					continue;
				ev->entries[k].id = e->ids[j];
				ev->entries[k].idx = i;
				ev->entries[k].cpu = (uint64_t)(int64_t)el->cpus->cpus[c];
				ev->entries[k].tid = (uint64_t)(int64_t)el->threads[th];
				k++;
			}
	}
	/* user records carry no sample_id trailer */
	ev->header.size = (uint16_t)size;
	ret = t->process(t->arg, (union perf_event *)ev);
	free(ev);
	return ret;
}

int perf_event__synthesize_thread_map(const struct synth_target *t, const struct evlist *el)
{
	size_t size = sizeof(struct perf_event_header) + 8 + (size_t)el->nr_threads * 24;
	unsigned char *buf;
	int ret;

	if (size > 0xffff)
		return 0;
	buf = xzalloc(size);
	((struct perf_event_header *)buf)->type = PERF_RECORD_THREAD_MAP;
	((struct perf_event_header *)buf)->size = (uint16_t)size;
	*(uint64_t *)(buf + 8) = el->nr_threads;
	for (int i = 0; i < el->nr_threads; i++) {
		unsigned char *ent = buf + 16 + (size_t)i * 24;
		uint64_t pid = (uint64_t)(int64_t)el->threads[i];

		memcpy(ent, &pid, 8);
		if (el->threads[i] > 0) {
			char *comm = read_comm(el->threads[i], el->threads[i]);

			if (comm) {
				strncpy((char *)ent + 8, comm, 15);
				free(comm);
			}
		}
	}
	ret = t->process(t->arg, (union perf_event *)buf);
	free(buf);
	return ret;
}

int perf_event__synthesize_cpu_map(const struct synth_target *t, const struct evlist *el)
{
	const struct cpu_map *cm = el->cpus;
	bool range = cm->nr > 0 && cm->cpus[0] >= 0;
	unsigned char *buf;
	size_t size;
	int ret;

	for (int i = 1; i < cm->nr && range; i++)
		range = cm->cpus[i] == cm->cpus[i - 1] + 1;
	if (range)
		size = 16;
	else
		size = ALIGN_UP(sizeof(struct perf_event_header) + 4 + 2 * (size_t)cm->nr, 8);
	if (size > 0xffff)
		return 0;
	buf = xzalloc(size);
	((struct perf_event_header *)buf)->type = PERF_RECORD_CPU_MAP;
	((struct perf_event_header *)buf)->size = (uint16_t)size;
	if (range) {
		uint16_t v[4] = { 2, 0, (uint16_t)cm->cpus[0], (uint16_t)cm->cpus[cm->nr - 1] };

		memcpy(buf + 8, v, sizeof(v));
	} else {
		uint16_t *v = (uint16_t *)(buf + 8);

		v[0] = 0;
		v[1] = (uint16_t)cm->nr;
		for (int i = 0; i < cm->nr; i++)
			v[2 + i] = (uint16_t)cm->cpus[i];
	}
	ret = t->process(t->arg, (union perf_event *)buf);
	free(buf);
	return ret;
}

int perf_event__synthesize_empty(const struct synth_target *t, uint32_t type)
{
	struct perf_event_header h = { .type = type, .misc = 0, .size = sizeof(h) };

	return t->process(t->arg, (union perf_event *)&h);
}

/* ---- BPF programs loaded before the start ---- */

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return (int)syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static int synthesize_ksymbol(const struct synth_target *t, uint64_t addr, uint32_t len, const char *name)
{
	/* name: at most 127 bytes (bpf_prog_ + tag + _ + 16-byte program name) */
	unsigned char buf[sizeof(struct perf_record_ksymbol) + 128 + 64] __attribute__((aligned(8)));
	struct perf_record_ksymbol *ev = (void *)buf;

	memset(ev, 0, sizeof(*ev));
	ev->header.type = PERF_RECORD_KSYMBOL;
	ev->addr = addr;
	ev->len = len;
	ev->ksym_type = PERF_RECORD_KSYMBOL_TYPE_BPF;
	return emit(t, buf, sizeof(*ev) + put_string(ev->name, name, strlen(name) + 1));
}

/* KSYMBOL for each JITed function of one program, then its BPF_EVENT PROG_LOAD */
static int synthesize_bpf_prog(const struct synth_target *t, int fd)
{
	struct bpf_prog_info info;
	union bpf_attr attr;
	uint64_t addrs[64], tags[64];
	uint32_t lens[64];
	unsigned char buf[sizeof(struct perf_record_bpf_event) + 64] __attribute__((aligned(8)));
	struct perf_record_bpf_event *ev = (void *)buf;
	int ret = 0;

	memset(&info, 0, sizeof(info));
	info.nr_jited_ksyms = ARRAY_SIZE(addrs);
	info.jited_ksyms = (uintptr_t)addrs;
	info.nr_jited_func_lens = ARRAY_SIZE(lens);
	info.jited_func_lens = (uintptr_t)lens;
	info.nr_prog_tags = ARRAY_SIZE(tags);
	info.prog_tags = (uintptr_t)tags;
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uintptr_t)&info;
	/* not JITed (or hidden from us): nothing a sample could land in */
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr) || !info.nr_jited_ksyms)
		return 0;
	for (uint32_t i = 0; i < info.nr_jited_ksyms && i < ARRAY_SIZE(addrs) && !ret; i++) {
		const uint8_t *tag = i < info.nr_prog_tags ? (const uint8_t *)&tags[i] : info.tag;
		char name[128];
		size_t n = snprintf(name, sizeof(name), "bpf_prog_");

		for (int k = 0; k < BPF_TAG_SIZE; k++)
			n += snprintf(name + n, sizeof(name) - n, "%02x", tag[k]);
		/* the kernel's name for the main function; subprograms have BTF names perf reads, we do not */
		if (info.name[0])
			snprintf(name + n, sizeof(name) - n, "_%.*s", (int)sizeof(info.name), info.name);
		if (i < info.nr_jited_func_lens && i < ARRAY_SIZE(lens))
			ret = synthesize_ksymbol(t, addrs[i], lens[i], name);
	}
	if (ret)
		return ret;
	memset(buf, 0, sizeof(buf));
	ev->header.type = PERF_RECORD_BPF_EVENT;
	ev->type = PERF_BPF_EVENT_PROG_LOAD;
	ev->id = info.id;
	memcpy(ev->tag, info.tag, sizeof(ev->tag));
	return emit(t, buf, sizeof(*ev));
}

int perf_event__synthesize_bpf_events(const struct synth_target *t)
{
	union bpf_attr attr;
	uint32_t id = 0;
	int ret = 0;

	for (;;) {
		int fd;

		memset(&attr, 0, sizeof(attr));
		attr.start_id = id;
		/* the end of the list, or no permission to walk it: what we have is it */
		if (sys_bpf(BPF_PROG_GET_NEXT_ID, &attr))
			return ret;
		id = attr.next_id;
		memset(&attr, 0, sizeof(attr));
		attr.prog_id = id;
		fd = sys_bpf(BPF_PROG_GET_FD_BY_ID, &attr);
		if (fd < 0)
			continue;   /* unloaded meanwhile */
		ret = synthesize_bpf_prog(t, fd);
		close(fd);
		if (ret)
			return ret;
	}
}
