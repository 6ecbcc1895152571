// SPDX-License-Identifier: MIT
/*
 * Signed uprobe fetchargs: a uprobe on tp_signed_args() of the tp_signed
 * workload with :s8/:s16/:s32/:s64 args, recorded by perf 6.1, decoded by
 * us. We must print the negative values the workload passes; perf 6.1
 * prints s8/s16 as unsigned (a bug we do not copy), so for those the check
 * against perf 6.1 is "same value modulo 2^8 / 2^16"; every other field must
 * be equal.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests.h"
#include "trace-event-perf61.h"
#include "util/trace-event.h"
#include "util/tracefs.h"
#include "util/util.h"

#define REF_PERF "/usr/bin/perf"

/* the repository root: $TOP, else the perf binary's <root>/tools/perf/perf */
static char *repo_root(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *p;

	if (getenv("TOP"))
		return xstrdup(getenv("TOP"));
	if (n <= 0)
		return NULL;
	exe[n] = 0;
	p = strstr(exe, "/tools/perf/perf");
	if (!p)
		return NULL;
	*p = 0;
	return xstrdup(exe);
}

/* file offset of a function symbol (what uprobe_events wants) */
static long func_file_offset(const char *path, const char *func)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	uint64_t vaddr = 0;
	long off = -1;
	size_t nph;

	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && (scn = elf_nextscn(e, scn)) && !vaddr) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(d, i, &sym))
				continue;
			name = elf_strptr(e, sh.sh_link, sym.st_name);
			if (name && !strcmp(name, func) && GELF_ST_TYPE(sym.st_info) == STT_FUNC) {
				vaddr = sym.st_value;
				break;
			}
		}
	}
	if (e && vaddr && !elf_getphdrnum(e, &nph)) {
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(e, i, &ph) && ph.p_type == PT_LOAD && vaddr >= ph.p_vaddr &&
			    vaddr < ph.p_vaddr + ph.p_filesz)
				off = (long)(vaddr - ph.p_vaddr + ph.p_offset);
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return off;
}

static int write_uprobe_events(const char *line)
{
	char *path = tracefs__path("uprobe_events");
	int fd, ret = -1;

	if (!path)
		return -1;
	/* O_APPEND: O_TRUNC would delete every user's uprobes */
	fd = open(path, O_WRONLY | O_APPEND);
	free(path);
	if (fd < 0)
		return -1;
	if (write(fd, line, strlen(line)) == (ssize_t)strlen(line))
		ret = 0;
	else
		fprintf(stderr, "uprobe_events '%s': %s\n", line, strerror(errno));
	close(fd);
	return ret;
}

/* "name=value" of @text as a long long; false when missing */
static bool arg_value(const char *text, const char *name, long long *v)
{
	char key[32];
	const char *p;

	snprintf(key, sizeof(key), " %s=", name);
	p = strstr(text, key);
	if (!p)
		return false;
	*v = strtoll(p + strlen(key), NULL, 0);
	return true;
}

static int test__uprobe_signed(void)
{
	char *root = repo_root(), *work = NULL, def[PATH_MAX + 256], cmd[PATH_MAX + 256], group[64];
	char *del = NULL;
	long off;
	int ret = TEST_FAIL, defined = 0;
	struct tp_data d;
	FILE *ref = NULL;
	char line[1024];
	int nsamples = 0;
	/* what tp_signed passes with argument 2, in call order */
	static const long long want_a[] = { -5, -6, -128, 127 }, want_b[] = { -300, -301, -32768, 32767 };
	static const long long want_c[] = { -70000, -70001, -2147483648LL, 2147483647 };
	static const long long want_d[] = { -5000000000LL, -5000000001LL, -9223372036854775807LL - 1,
					    9223372036854775807LL };

	memset(&d, 0, sizeof(d));
	if (access(REF_PERF, X_OK)) {
		fprintf(stderr, "SKIP: perf 6.1 not installed\n");
		ret = TEST_SKIP;
		goto out;
	}
	if (!tracefs__mountpoint() || !root) {
		fprintf(stderr, "SKIP: no tracefs%s\n", root ? "" : " / repository root");
		ret = TEST_SKIP;
		goto out;
	}
	work = xasprintf("%s/build/workloads/tp_signed", root);
	off = func_file_offset(work, "tp_signed_args");
	if (off < 0) {
		fprintf(stderr, "SKIP: %s not built (make build-tests)\n", work);
		ret = TEST_SKIP;
		goto out;
	}
	snprintf(group, sizeof(group), "probe_tpsig%d", (int)getpid());
	snprintf(def, sizeof(def), "p:%s/args %s:0x%lx a=%%di:s8 b=%%si:s16 c=%%dx:s32 d=%%cx:s64 "
		 "ua=%%di:u8 xa=%%di:x8", group, work, off);
	if (write_uprobe_events(def)) {
		fprintf(stderr, "SKIP: cannot define a uprobe\n");
		ret = TEST_SKIP;
		goto out;
	}
	defined = 1;
	del = xasprintf("-:%s/args", group);

	snprintf(cmd, sizeof(cmd), REF_PERF " record -q -o u.data -e %s:args -- %s 2 >/dev/null 2>&1",
		 group, work);
	if (tp_run(cmd)) {
		fprintf(stderr, "perf 6.1 record failed: %s\n", cmd);
		goto out;
	}
	/* perf has exited, so the event is no longer busy: remove it now */
	if (!write_uprobe_events(del))
		defined = 0;
	if (tp_run(REF_PERF " script -i u.data -F trace > u.txt 2>/dev/null"))
		goto out;
	ref = fopen("u.txt", "r");
	if (!ref)
		goto out;
	{
		const struct tp_attr *a;
		const void *raw;
		uint32_t rsz;
		uint64_t t;
		struct trace_formats *tf;
		int r;

		/* the sample walker of the perf 6.1 comparison tests */
		if (tp_data__load_file(&d, "u.data") || !d.tracing_data)
			goto out;
		tf = trace_formats__parse(d.tracing_data, d.tracing_data_size);
		if (!tf)
			goto out;
		while ((r = tp_data__next_raw(&d, &a, &raw, &rsz, &t)) == 1) {
			const struct trace_format *fmt = trace_formats__find(tf, a->attr.config);
			char ours[1024];
			long long v, pv;
			size_t len;

			if (!fmt || nsamples >= 4 || !fgets(line, sizeof(line), ref))
				break;
			len = strlen(line);
			while (len && (line[len - 1] == '\n' || line[len - 1] == ' '))
				line[--len] = 0;
			trace_formats__print_raw(tf, fmt, raw, rsz, ours, sizeof(ours));
			fprintf(stderr, "perf 6.1: %s\nours:     %s\n", line + strspn(line, " "), ours);
			if (!arg_value(ours, "a", &v) || v != want_a[nsamples] ||
			    !arg_value(ours, "b", &v) || v != want_b[nsamples] ||
			    !arg_value(ours, "c", &v) || v != want_c[nsamples] ||
			    !arg_value(ours, "d", &v) || v != want_d[nsamples] ||
			    !arg_value(ours, "ua", &v) || v != (want_a[nsamples] & 0xff) ||
			    !arg_value(ours, "xa", &v) || v != (want_a[nsamples] & 0xff)) {
				fprintf(stderr, "sample %d: wrong values\n", nsamples);
				break;
			}
			/* perf 6.1 agrees modulo its s8/s16 bug, and exactly elsewhere */
			if (!arg_value(line, "a", &pv) || !arg_value(ours, "a", &v) || ((pv - v) & 0xff) ||
			    !arg_value(line, "b", &pv) || !arg_value(ours, "b", &v) || ((pv - v) & 0xffff) ||
			    strcmp(strstr(line, " c="), strstr(ours, " c=")) ||
			    strncmp(line + strspn(line, " "), ours, strcspn(ours, " "))) {
				fprintf(stderr, "sample %d: differs from perf 6.1 beyond the s8/s16 bug\n", nsamples);
				break;
			}
			nsamples++;
		}
		trace_formats__delete(tf);
	}
	if (nsamples == 4)
		ret = TEST_OK;
	else
		fprintf(stderr, "%d of 4 samples checked\n", nsamples);
out:
	if (defined && write_uprobe_events(del))
		fprintf(stderr, "could not remove uprobe %s\n", del);
	if (ref)
		fclose(ref);
	tp_data__free(&d);
	free(del);
	free(work);
	free(root);
	return ret;
}

DEFINE_SUITE("Tracepoint formats: uprobe s8/s16/s32/s64 args printed signed", test__uprobe_signed);
