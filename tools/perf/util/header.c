// SPDX-License-Identifier: MIT
/* Feature section payloads (Documentation/formats/perf-data.md section 5). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "header.h"
#include "debug.h"
#include "strbuf.h"
#include "util.h"

/* ---- encoding ---- */

void feat_buf__put(struct feat_buf *b, const void *p, size_t n)
{
	GROW_ARRAY(b->data, b->len + n, b->cap);
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
}

void feat_buf__put_zeros(struct feat_buf *b, size_t n)
{
	static const unsigned char zeros[64];

	while (n) {
		size_t k = MIN(n, sizeof(zeros));

		feat_buf__put(b, zeros, k);
		n -= k;
	}
}

void feat_buf__put_u32(struct feat_buf *b, uint32_t v)
{
	feat_buf__put(b, &v, sizeof(v));
}

void feat_buf__put_u64(struct feat_buf *b, uint64_t v)
{
	feat_buf__put(b, &v, sizeof(v));
}

size_t perf_string__size(const char *s)
{
	return 4 + ALIGN_UP(strlen(s) + 1, (size_t)PERF_STRING_ALIGN);
}

void feat_buf__put_string(struct feat_buf *b, const char *s)
{
	size_t n = strlen(s) + 1;
	size_t padded = ALIGN_UP(n, (size_t)PERF_STRING_ALIGN);

	feat_buf__put_u32(b, (uint32_t)padded);
	feat_buf__put(b, s, n);
	feat_buf__put_zeros(b, padded - n);
}

void feat_buf__put_string_list(struct feat_buf *b, const char *const *s, size_t nr)
{
	feat_buf__put_u32(b, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++)
		feat_buf__put_string(b, s[i]);
}

void feat_buf__release(struct feat_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

/* ---- decoding ---- */

void feat_cursor__init(struct feat_cursor *c, const void *p, size_t size)
{
	c->p = p;
	c->size = size;
	c->pos = 0;
	c->error = false;
}

const void *feat_cursor__bytes(struct feat_cursor *c, size_t n)
{
	const void *p;

	if (c->error || n > c->size - c->pos) {
		c->error = true;
		return NULL;
	}
	p = c->p + c->pos;
	c->pos += n;
	return p;
}

uint32_t feat_cursor__u32(struct feat_cursor *c)
{
	const void *p = feat_cursor__bytes(c, 4);
	uint32_t v = 0;

	if (p)
		memcpy(&v, p, 4);
	return v;
}

uint64_t feat_cursor__u64(struct feat_cursor *c)
{
	const void *p = feat_cursor__bytes(c, 8);
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, 8);
	return v;
}

const char *feat_cursor__string(struct feat_cursor *c)
{
	uint32_t len = feat_cursor__u32(c);
	const char *s = feat_cursor__bytes(c, len);

	if (!s || !len || !memchr(s, 0, len)) {
		c->error = true;
		return NULL;
	}
	return s;
}

const char **feat_cursor__string_list(struct feat_cursor *c, uint32_t *nr)
{
	uint32_t n = feat_cursor__u32(c);
	const char **list;

	/* every string takes at least 5 bytes: reject counts the payload cannot hold */
	if (c->error || n > (c->size - c->pos) / 5) {
		c->error = true;
		return NULL;
	}
	list = xzalloc((n + 1) * sizeof(*list));
	for (uint32_t i = 0; i < n; i++) {
		list[i] = feat_cursor__string(c);
		if (!list[i]) {
			free(list);
			return NULL;
		}
	}
	*nr = n;
	return list;
}

/* ---- BUILD_ID ---- */

#define BUILD_ID_RECORD_FIXED 36  /* header 8, pid 4, id 20, size 1, reserved 3 */

void build_id__encode(struct feat_buf *b, const struct build_id_entry *e, uint32_t type)
{
	size_t n = strlen(e->filename) + 1;
	size_t padded = ALIGN_UP(n, (size_t)PERF_STRING_ALIGN);
	struct perf_record_header_build_id rec;

	memset(&rec, 0, sizeof(rec));
	rec.header.type = type;
	rec.header.misc = PERF_MISC_BUILD_ID_SIZE | (e->cpumode & PERF_MISC_CPUMODE_MASK);
	rec.header.size = (uint16_t)(BUILD_ID_RECORD_FIXED + padded);
	rec.pid = e->pid;
	memcpy(rec.build_id, e->build_id, MIN((size_t)e->size, sizeof(rec.build_id)));
	rec.size = MIN(e->size, BUILD_ID_MAX);
	feat_buf__put(b, &rec, BUILD_ID_RECORD_FIXED);
	feat_buf__put(b, e->filename, n);
	feat_buf__put_zeros(b, padded - n);
}

int build_id__decode(const void *data, size_t size, struct build_id_entry **entries, size_t *nr)
{
	const unsigned char *p = data;
	struct build_id_entry *v = NULL;
	size_t n = 0, cap = 0, pos = 0;

	while (pos < size) {
		struct perf_record_header_build_id rec;
		const char *name;
		size_t name_len;

		if (size - pos < BUILD_ID_RECORD_FIXED)
			goto bad;
		memcpy(&rec, p + pos, BUILD_ID_RECORD_FIXED);
		if (rec.header.size < BUILD_ID_RECORD_FIXED + 1 || rec.header.size > size - pos)
			goto bad;
		name = (const char *)p + pos + BUILD_ID_RECORD_FIXED;
		name_len = rec.header.size - BUILD_ID_RECORD_FIXED;
		if (!memchr(name, 0, name_len))
			goto bad;
		GROW_ARRAY(v, n + 1, cap);
		v[n].cpumode = rec.header.misc & PERF_MISC_CPUMODE_MASK;
		v[n].pid = rec.pid;
		memcpy(v[n].build_id, rec.build_id, BUILD_ID_MAX);
		/* without the size flag the id is a SHA1 (older perf) */
		v[n].size = (rec.header.misc & PERF_MISC_BUILD_ID_SIZE) ? MIN(rec.size, BUILD_ID_MAX)
									 : BUILD_ID_MAX;
		v[n].filename = xstrdup(name);
		n++;
		pos += rec.header.size;
	}
	*entries = v;
	*nr = n;
	return 0;
bad:
	pr_debug("malformed build-id record at offset %zu of the BUILD_ID feature\n", pos);
	build_id__free_entries(v, n);
	return -1;
}

void build_id__free_entries(struct build_id_entry *entries, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(entries[i].filename);
	free(entries);
}

/* ---- EVENT_DESC ---- */

#define ATTR_SIZE_ON_DISK 128   /* PERF_ATTR_SIZE_VER7, what perf 6.1 reads and writes */

void event_desc__encode(struct feat_buf *b, const struct perf_file_attr *attrs, size_t nr)
{
	feat_buf__put_u32(b, (uint32_t)nr);
	feat_buf__put_u32(b, ATTR_SIZE_ON_DISK);
	for (size_t i = 0; i < nr; i++) {
		unsigned char raw[ATTR_SIZE_ON_DISK] = { 0 };
		struct perf_event_attr a = attrs[i].attr;

		a.size = ATTR_SIZE_ON_DISK;
		memcpy(raw, &a, MIN(sizeof(a), sizeof(raw)));
		feat_buf__put(b, raw, sizeof(raw));
		feat_buf__put_u32(b, attrs[i].nr_ids);
		feat_buf__put_string(b, attrs[i].name ? attrs[i].name : "");
		feat_buf__put(b, attrs[i].ids, attrs[i].nr_ids * sizeof(uint64_t));
	}
}

int event_desc__decode(const void *data, size_t size, struct event_desc **descs, size_t *nr)
{
	struct feat_cursor c;
	struct event_desc *v;
	uint32_t n, attr_size;

	feat_cursor__init(&c, data, size);
	n = feat_cursor__u32(&c);
	attr_size = feat_cursor__u32(&c);
	/* each entry holds at least the attr, nr_ids and a 5-byte string */
	if (c.error || attr_size < 64 || n > (size - c.pos) / (attr_size + 9)) {
		pr_debug("malformed EVENT_DESC feature (nr %u, attr size %u)\n", n, attr_size);
		return -1;
	}
	v = xzalloc((n ? n : 1) * sizeof(*v));
	for (uint32_t i = 0; i < n; i++) {
		const void *raw = feat_cursor__bytes(&c, attr_size);
		const char *name;
		const void *ids;
		uint32_t nr_ids;

		if (raw)
			memcpy(&v[i].attr, raw, MIN((size_t)attr_size, MIN(sizeof(v[i].attr), (size_t)ATTR_SIZE_ON_DISK)));
		nr_ids = feat_cursor__u32(&c);
		name = feat_cursor__string(&c);
		if (c.error || nr_ids > (size - c.pos) / 8) {
			pr_debug("malformed EVENT_DESC entry %u\n", i);
			event_desc__free(v, i);
			return -1;
		}
		ids = feat_cursor__bytes(&c, nr_ids * 8ul);
		v[i].name = xstrdup(name);
		v[i].nr_ids = nr_ids;
		v[i].ids = xmalloc(nr_ids * 8ul);
		memcpy(v[i].ids, ids, nr_ids * 8ul);
	}
	*descs = v;
	*nr = n;
	return 0;
}

void event_desc__free(struct event_desc *descs, size_t nr)
{
	if (!descs)
		return;
	for (size_t i = 0; i < nr; i++) {
		free(descs[i].name);
		free(descs[i].ids);
	}
	free(descs);
}

/* ---- system description ---- */

void header__encode_string(struct feat_buf *b, const char *s)
{
	feat_buf__put_string(b, s);
}

void header__encode_nrcpus(struct feat_buf *b, uint32_t avail, uint32_t online)
{
	feat_buf__put_u32(b, avail);
	feat_buf__put_u32(b, online);
}

/* value of the first "key<spaces>: value" line of /proc/cpuinfo, malloc'ed */
static char *cpuinfo_value(const char *key)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[1024];
	size_t klen = strlen(key);
	char *res = NULL;

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char *p, *e;

		if (strncmp(line, key, klen) || (line[klen] != '\t' && line[klen] != ' ' && line[klen] != ':'))
			continue;
		p = strchr(line, ':');
		if (!p)
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		e = p + strlen(p);
		while (e > p && isspace((unsigned char)e[-1]))
			*--e = 0;
		res = xstrdup(p);
		break;
	}
	fclose(f);
	return res;
}

char *header__cpudesc_string(void)
{
	char *s = cpuinfo_value("model name");
	char *r, *w;

	if (!s)
		s = cpuinfo_value("cpu model");   /* some non-x86 kernels */
	if (!s)
		return NULL;
	/* squeeze runs of blanks, as the string is meant for one header line */
	for (r = w = s; *r; r++) {
		if (isspace((unsigned char)*r)) {
			if (w > s && w[-1] == ' ')
				continue;
			*w++ = ' ';
		} else
			*w++ = *r;
	}
	*w = 0;
	return s;
}

char *header__cpuid_string(void)
{
	char *vendor = cpuinfo_value("vendor_id");
	char *family = cpuinfo_value("cpu family");
	char *model = cpuinfo_value("model");
	char *stepping = cpuinfo_value("stepping");
	char *res = NULL;

	if (vendor && family && model && stepping)
		res = xasprintf("%s,%s,%s,%s", vendor, family, model, stepping);
	free(vendor);
	free(family);
	free(model);
	free(stepping);
	return res;
}

uint64_t header__total_mem_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}
