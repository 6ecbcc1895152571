// SPDX-License-Identifier: MIT
/*
 * perf.data reader and writer, file mode and pipe mode
 * (Documentation/formats/perf-data.md sections 1, 3, 4.3, 5, 6).
 *
 * The reader maps regular files and hands out records in place, so reading
 * a large file costs about one page fault per page. Pipes are read through
 * a read-ahead buffer. The writer buffers everything and issues one write
 * per buffer fill.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "compress.h"
#include "data.h"
#include "header.h"
#include "debug.h"
#include "strbuf.h"
#include "util.h"

#define PERF_MAGIC        "PERFILE2"
#define PERF_MAGIC_SWAP   "2ELIFREP"
#define PERF_MAGIC_V1     "PERFFILE"
#define FILE_HEADER_SIZE  104
#define FILE_HEADER_SIZE_NOFEAT 72     /* older writers: no feature bitmap */
#define PIPE_HEADER_SIZE  16
#define ATTR_DISK_SIZE    128          /* PERF_ATTR_SIZE_VER7: what perf 6.1 reads and writes */
#define ATTR_SIZE_VER0    64
#define READ_AHEAD        (256 * 1024)
#define WRITE_BUFFER      (512 * 1024)

struct file_section {
	uint64_t offset, size;
};

struct file_header {
	char magic[8];
	uint64_t size;
	uint64_t attr_size;
	struct file_section attrs, data, event_types;
	uint64_t adds_features[4];
};

static bool bit_test(const uint64_t *bits, int n)
{
	return bits[n / 64] & (1ull << (n % 64));
}

static void bit_set(uint64_t *bits, int n)
{
	bits[n / 64] |= 1ull << (n % 64);
}

/* ------------------------------------------------------------------ reader */

static int reader_error(struct perf_data_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int reader_error(struct perf_data_reader *r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_err("%s: %s\n", r->path, msg);
	return -1;
}

/* fd input: up to n bytes through the read-ahead buffer; < n only at EOF, -1 on error */
static ssize_t fd_read(struct perf_data_reader *r, void *dst, size_t n)
{
	size_t done = 0;

	while (done < n) {
		size_t avail = r->inbuf_len - r->inbuf_pos, k;

		if (!avail) {
			ssize_t got;

			if (n - done >= r->inbuf_cap) {
				got = readn(r->fd, (char *)dst + done, n - done);
				if (got < 0)
					return -1;
				r->pos += got;
				return done + got;
			}
			do
				got = read(r->fd, r->inbuf, r->inbuf_cap);
			while (got < 0 && errno == EINTR);
			if (got < 0)
				return -1;
			if (got == 0)
				break;
			r->inbuf_pos = 0;
			r->inbuf_len = got;
			continue;
		}
		k = MIN(avail, n - done);
		memcpy((char *)dst + done, r->inbuf + r->inbuf_pos, k);
		r->inbuf_pos += k;
		done += k;
		r->pos += k;
	}
	return done;
}

static void ensure_buf(struct perf_data_reader *r, size_t n)
{
	if (r->buf_cap < n) {
		free(r->buf);
		r->buf_cap = MAX(n, (size_t)65536);
		r->buf = xmalloc(r->buf_cap);
	}
}

static int check_section(struct perf_data_reader *r, const char *what, uint64_t off, uint64_t size)
{
	if (off > r->file_size || size > r->file_size - off)
		return reader_error(r, "corrupt header: %s section (offset %#llx, size %#llx) lies outside the file (size %#llx)",
				    what, (unsigned long long)off, (unsigned long long)size,
				    (unsigned long long)r->file_size);
	return 0;
}

/* attr from its on-disk form; -1 if its size is unsupported */
static int load_attr(struct perf_data_reader *r, struct perf_event_attr *dst, const void *src,
		     size_t avail, uint32_t *on_disk_size)
{
	uint32_t size;

	if (avail < ATTR_SIZE_VER0)
		return reader_error(r, "event attribute truncated (%zu bytes)", avail);
	memcpy(&size, (const char *)src + 4, 4);
	if (size == 0)
		size = ATTR_SIZE_VER0;
	if (size > ATTR_DISK_SIZE)
		return reader_error(r, "event attribute size %u is larger than %u: file from a newer perf ABI, not supported",
				    size, ATTR_DISK_SIZE);
	if (size < ATTR_SIZE_VER0 || size > avail)
		return reader_error(r, "event attribute size %u does not fit its %zu-byte slot", size, avail);
	memset(dst, 0, sizeof(*dst));
	memcpy(dst, src, MIN((size_t)size, sizeof(*dst)));
	*on_disk_size = size;
	return 0;
}

static void add_reader_attr(struct perf_data_reader *r, const struct perf_event_attr *attr,
			    const void *ids, uint32_t nr_ids)
{
	struct perf_file_attr *a;

	a = ARRAY_PUSH(r->attrs, r->nr_attrs, r->cap_attrs);
	memset(a, 0, sizeof(*a));
	a->attr = *attr;
	a->nr_ids = nr_ids;
	a->ids = xmalloc(nr_ids * sizeof(uint64_t));
	if (nr_ids)
		memcpy(a->ids, ids, nr_ids * sizeof(uint64_t));
}

/* names from EVENT_DESC; entries are in attr order */
static void apply_event_desc(struct perf_data_reader *r)
{
	struct event_desc *d;
	size_t nr;

	if (event_desc__decode(r->feat[HEADER_EVENT_DESC].data, r->feat[HEADER_EVENT_DESC].size, &d, &nr)) {
		pr_warning("%s: ignoring malformed EVENT_DESC feature\n", r->path);
		return;
	}
	for (size_t i = 0; i < nr && i < r->nr_attrs; i++) {
		free(r->attrs[i].name);
		r->attrs[i].name = d[i].name[0] ? xstrdup(d[i].name) : NULL;
	}
	event_desc__free(d, nr);
}

static void store_feature(struct perf_data_reader *r, int feat, const void *data, uint64_t size)
{
	free(r->feat[feat].data);
	r->feat[feat].data = xmalloc(size);
	if (size)
		memcpy(r->feat[feat].data, data, size);
	r->feat[feat].size = size;
	bit_set(r->adds_features, feat);
	if (feat == HEADER_TRACING_DATA) {
		r->tracing_data = r->feat[feat].data;
		r->tracing_data_size = size;
	}
	if (feat == HEADER_EVENT_DESC)
		apply_event_desc(r);
}

static int read_file_header(struct perf_data_reader *r, const unsigned char *m)
{
	struct file_header h;
	uint64_t nr_attrs, table, nr_feat = 0;
	int feat;

	memset(&h, 0, sizeof(h));
	memcpy(&h, m, MIN((size_t)FILE_HEADER_SIZE, (size_t)r->file_size));
	if (h.size != FILE_HEADER_SIZE && h.size != FILE_HEADER_SIZE_NOFEAT)
		return reader_error(r, "corrupt header: unsupported header size %llu", (unsigned long long)h.size);
	if (r->file_size < h.size)
		return reader_error(r, "truncated header (%llu of %llu bytes)",
				    (unsigned long long)r->file_size, (unsigned long long)h.size);
	if (h.size == FILE_HEADER_SIZE_NOFEAT)
		memset(h.adds_features, 0, sizeof(h.adds_features));
	if (h.attr_size == 0)
		return reader_error(r, "corrupt header: attr_size is 0");
	if (h.attr_size < ATTR_SIZE_VER0 + sizeof(struct file_section) || h.attr_size > 4096)
		return reader_error(r, "corrupt header: attr_size %llu", (unsigned long long)h.attr_size);
	if (check_section(r, "attrs", h.attrs.offset, h.attrs.size))
		return -1;
	if (h.attrs.size % h.attr_size)
		return reader_error(r, "corrupt header: attrs section size %llu is not a multiple of attr_size %llu",
				    (unsigned long long)h.attrs.size, (unsigned long long)h.attr_size);
	nr_attrs = h.attrs.size / h.attr_size;
	if (!nr_attrs)
		return reader_error(r, "no event attributes in the header");

	for (uint64_t i = 0; i < nr_attrs; i++) {
		const unsigned char *e = m + h.attrs.offset + i * h.attr_size;
		struct perf_event_attr attr;
		struct file_section ids;
		uint32_t asize;

		if (load_attr(r, &attr, e, h.attr_size - sizeof(ids), &asize))
			return -1;
		memcpy(&ids, e + h.attr_size - sizeof(ids), sizeof(ids));
		if (check_section(r, "ids", ids.offset, ids.size))
			return -1;
		if (ids.size % 8)
			return reader_error(r, "corrupt header: ids section size %llu of attr %llu is not a multiple of 8",
					    (unsigned long long)ids.size, (unsigned long long)i);
		add_reader_attr(r, &attr, m + ids.offset, ids.size / 8);
	}

	if (h.data.offset > r->file_size)
		return reader_error(r, "corrupt header: data offset %#llx is past the end of the file (size %#llx)",
				    (unsigned long long)h.data.offset, (unsigned long long)r->file_size);
	if (h.data.size > r->file_size - h.data.offset)
		return reader_error(r, "truncated data section: it ends at %#llx but the file has %#llx bytes",
				    (unsigned long long)(h.data.offset + h.data.size),
				    (unsigned long long)r->file_size);
	if (h.data.size == 0)
		pr_warning("%s: data size field is 0 (perf record did not finish?)\n", r->path);
	r->data_offset = h.data.offset;
	r->data_size = h.data.size;
	r->data_end = h.data.offset + h.data.size;
	r->pos = h.data.offset;

	memcpy(r->adds_features, h.adds_features, sizeof(r->adds_features));
	for (feat = 0; feat < HEADER_FEAT_BITS; feat++)
		nr_feat += bit_test(h.adds_features, feat);
	table = r->data_end;
	if (nr_feat && check_section(r, "feature table", table, nr_feat * sizeof(struct file_section)))
		return -1;
	for (feat = 0; feat < HEADER_FEAT_BITS; feat++) {
		struct file_section s;
		char what[40];

		if (!bit_test(h.adds_features, feat))
			continue;
		memcpy(&s, m + table, sizeof(s));
		table += sizeof(s);
		snprintf(what, sizeof(what), "feature %d (%s)", feat, perf_feature__name(feat));
		if (check_section(r, what, s.offset, s.size))
			return -1;
		/* EVENT_DESC names attrs, so it is applied once all attrs exist (here) */
		store_feature(r, feat, m + s.offset, s.size);
	}
	return 0;
}

int perf_data_reader__open(struct perf_data_reader *r, const char *path)
{
	unsigned char head[PIPE_HEADER_SIZE];
	struct stat st;
	uint64_t hsize;

	memset(r, 0, sizeof(*r));
	r->path = xstrdup(path);
	r->fd = -1;
	if (!strcmp(path, "-"))
		r->fd = STDIN_FILENO;
	else
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		reader_error(r, "%s", strerror(errno));
		goto fail;
	}
	if (fstat(r->fd, &st)) {
		reader_error(r, "%s", strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		reader_error(r, "is a directory (directory-format perf.data is not supported)");
		goto fail;
	}
	if (S_ISREG(st.st_mode)) {
		r->file_size = st.st_size;
		if (r->file_size == 0) {
			reader_error(r, "empty file, not a perf.data file");
			goto fail;
		}
		r->map_size = r->file_size;
		r->map = mmap(NULL, r->map_size, PROT_READ, MAP_PRIVATE, r->fd, 0);
		if (r->map == MAP_FAILED) {
			r->map = NULL;
			reader_error(r, "cannot map the file: %s", strerror(errno));
			goto fail;
		}
		madvise(r->map, r->map_size, MADV_SEQUENTIAL);
		if (r->file_size < PIPE_HEADER_SIZE) {
			reader_error(r, "file too short (%llu bytes) for a perf.data header",
				     (unsigned long long)r->file_size);
			goto fail;
		}
		memcpy(head, r->map, sizeof(head));
	} else {
		ssize_t got;

		r->inbuf_cap = READ_AHEAD;
		r->inbuf = xmalloc(r->inbuf_cap);
		got = fd_read(r, head, sizeof(head));
		if (got < 0) {
			reader_error(r, "read error: %s", strerror(errno));
			goto fail;
		}
		if (got == 0) {
			reader_error(r, "empty input, not a perf.data stream");
			goto fail;
		}
		if (got < (ssize_t)sizeof(head)) {
			reader_error(r, "input too short (%zd bytes) for a perf.data header", got);
			goto fail;
		}
	}

	if (!memcmp(head, PERF_MAGIC_SWAP, 8)) {
		reader_error(r, "written on a machine of the other byte order; such files are not supported");
		goto fail;
	}
	if (!memcmp(head, PERF_MAGIC_V1, 8)) {
		reader_error(r, "old perf.data version 1 format, not supported");
		goto fail;
	}
	if (memcmp(head, PERF_MAGIC, 8)) {
		reader_error(r, "not a perf.data file (bad magic)");
		goto fail;
	}
	memcpy(&hsize, head + 8, 8);
	if (hsize == PIPE_HEADER_SIZE) {
		r->is_pipe = true;
		r->data_offset = PIPE_HEADER_SIZE;
		r->pos = PIPE_HEADER_SIZE;
		if (r->map) {
			r->data_end = r->file_size;
			r->data_size = r->file_size - PIPE_HEADER_SIZE;
		} else
			r->data_end = UINT64_MAX;
		return 0;
	}
	if (!r->map) {
		reader_error(r, "file-mode perf.data (header size %llu) cannot be read from a pipe",
			     (unsigned long long)hsize);
		goto fail;
	}
	if (read_file_header(r, r->map))
		goto fail;
	return 0;
fail:
	perf_data_reader__close(r);
	return -1;
}

/* pipe-mode header records fill attrs / feat as they go by */
static int absorb_pipe_record(struct perf_data_reader *r, const union perf_event *ev)
{
	const unsigned char *p = (const unsigned char *)ev;
	uint32_t size = ev->header.size;

	switch (ev->header.type) {
	case PERF_RECORD_HEADER_ATTR: {
		struct perf_event_attr attr;
		uint32_t asize;
		size_t ids_bytes;

		if (load_attr(r, &attr, p + 8, size - 8, &asize))
			return -1;
		ids_bytes = size - 8 - asize;
		if (ids_bytes % 8)
			pr_warning("%s: HEADER_ATTR record has %zu stray bytes after its ids\n", r->path, ids_bytes % 8);
		add_reader_attr(r, &attr, p + 8 + asize, ids_bytes / 8);
		if (r->feat[HEADER_EVENT_DESC].data)
			apply_event_desc(r);
		break;
	}
	case PERF_RECORD_HEADER_FEATURE: {
		uint64_t id;

		if (size < 16) {
			pr_warning("%s: HEADER_FEATURE record of %u bytes ignored\n", r->path, size);
			break;
		}
		memcpy(&id, p + 8, 8);
		if (id == HEADER_LAST_FEATURE || id == HEADER_RESERVED || id >= HEADER_FEAT_BITS)
			break;
		store_feature(r, (int)id, p + 16, size - 16);
		break;
	}
	case PERF_RECORD_HEADER_TRACING_DATA:
		store_feature(r, HEADER_TRACING_DATA, r->tail_buf, r->tail_size);
		break;
	default:
		break;
	}
	return 0;
}

static void warn_truncated(struct perf_data_reader *r, uint64_t off, const char *why)
{
	pr_warning("%s: %s at offset %#llx, stopping (truncated file?)\n", r->path, why,
		   (unsigned long long)off);
}

static void drop_tail(struct perf_data_reader *r)
{
	if (r->tail_owned)
		free(r->tail_buf);
	r->tail_buf = NULL;
	r->tail_owned = false;
	r->tail_size = 0;
}

static uint32_t tracing_payload_size(const union perf_event *ev)
{
	return ev->header.size >= sizeof(struct perf_record_header_tracing_data) ? ev->tracing_data.size : 0;
}

/* returns 1 record, 0 end, -1 error; *skip set for records to drop */
static int next_mapped(struct perf_data_reader *r, union perf_event **ev, uint64_t *offset)
{
	struct perf_event_header h;
	uint64_t rem;
	unsigned char *p;

	if (r->pos >= r->data_end)
		return 0;
	rem = r->data_end - r->pos;
	if (rem < sizeof(h)) {
		warn_truncated(r, r->pos, "partial record header");
		r->pos = r->data_end;
		return 0;
	}
	p = r->map + r->pos;
	memcpy(&h, p, sizeof(h));
	if (h.size < sizeof(h)) {
		pr_warning("%s: record at offset %#llx has size %u < 8, stopping\n", r->path,
			   (unsigned long long)r->pos, h.size);
		r->pos = r->data_end;
		return 0;
	}
	if (h.size > rem) {
		warn_truncated(r, r->pos, "record runs past the end of the data");
		r->pos = r->data_end;
		return 0;
	}
	/* records are 8-byte multiples, but pipe-mode header records are not */
	if ((uintptr_t)p & 7) {
		ensure_buf(r, h.size);
		memcpy(r->buf, p, h.size);
		p = r->buf;
	}
	*ev = (union perf_event *)p;
	*offset = r->pos;
	r->pos += h.size;
	if (h.type == PERF_RECORD_HEADER_TRACING_DATA) {
		uint32_t tsz = tracing_payload_size(*ev);

		if (tsz > r->data_end - r->pos) {
			warn_truncated(r, *offset, "tracing data runs past the end of the data");
			r->pos = r->data_end;
			return 0;
		}
		r->tail_buf = r->map + r->pos;
		r->tail_size = tsz;
		r->pos += tsz;
	}
	return 1;
}

static int next_fd(struct perf_data_reader *r, union perf_event **ev, uint64_t *offset)
{
	struct perf_event_header h;
	uint64_t start = r->pos;
	ssize_t got;

	if (r->at_eof)
		return 0;
	got = fd_read(r, &h, sizeof(h));
	if (got < 0)
		return reader_error(r, "read error: %s", strerror(errno));
	if (got == 0) {
		r->at_eof = true;
		return 0;
	}
	if (got < (ssize_t)sizeof(h)) {
		warn_truncated(r, start, "partial record header");
		r->at_eof = true;
		return 0;
	}
	if (h.size < sizeof(h)) {
		pr_warning("%s: record at offset %#llx has size %u < 8, stopping\n", r->path,
			   (unsigned long long)start, h.size);
		r->at_eof = true;
		return 0;
	}
	ensure_buf(r, h.size);
	memcpy(r->buf, &h, sizeof(h));
	got = fd_read(r, r->buf + sizeof(h), h.size - sizeof(h));
	if (got < 0)
		return reader_error(r, "read error: %s", strerror(errno));
	if ((size_t)got < h.size - sizeof(h)) {
		warn_truncated(r, start, "record runs past the end of the input");
		r->at_eof = true;
		return 0;
	}
	*ev = (union perf_event *)r->buf;
	*offset = start;
	if (h.type == PERF_RECORD_HEADER_TRACING_DATA) {
		uint32_t tsz = tracing_payload_size(*ev);
		size_t have = 0, cap = 1;

		/* the buffer grows with the bytes that really arrive: a size
		 * field from a pipe must not make us allocate 4 GiB up front */
		r->tail_buf = xmalloc(cap);
		r->tail_owned = true;
		while (have < tsz) {
			size_t want = tsz - have < (1u << 20) ? tsz - have : (1u << 20);

			if (have + want > cap) {
				cap = have + want > 2 * cap ? have + want : 2 * cap;
				cap = cap < tsz ? cap : tsz;
				r->tail_buf = xrealloc(r->tail_buf, cap);
			}
			got = fd_read(r, r->tail_buf + have, want);
			if (got < 0)
				return reader_error(r, "read error: %s", strerror(errno));
			have += (size_t)got;
			if ((size_t)got < want)
				break;
		}
		if (have < tsz) {
			warn_truncated(r, start, "tracing data runs past the end of the input");
			r->at_eof = true;
			return 0;
		}
		r->tail_size = tsz;
	}
	return 1;
}

/* a decompressed record fed to us in one piece must not outgrow this (zip bombs) */
#define DECOMP_LIMIT_MIN (64ul << 20)

static int compressed_error(struct perf_data_reader *r, const char *what)
{
	return reader_error(r, "corrupt compressed data in the COMPRESSED record at offset %#llx: %s",
			    (unsigned long long)r->zoffset, what);
}

/* a COMPRESSED record's payload goes behind what is left of the previous one */
static int feed_compressed(struct perf_data_reader *r, const union perf_event *ev, uint64_t offset)
{
	struct perf_comp_feature f;
	size_t limit = DECOMP_LIMIT_MIN;
	char err[160];

	r->nr_compressed++;
	r->zoffset = offset;
	if (!r->zd) {
		if (perf_data_reader__has_feat(r, HEADER_COMPRESSED) &&
		    !perf_comp_feature__decode(&f, r->feat[HEADER_COMPRESSED].data, r->feat[HEADER_COMPRESSED].size) &&
		    f.type != PERF_COMP_ZSTD)
			return reader_error(r, "compression type %u is not supported (only 1, zstd)", f.type);
		r->zd = perf_decompressor__new();
		if (!r->zd)
			return -1;
	}
	/* perf sizes its buffer by the ring (mmap_len); allow that much at least */
	if (perf_data_reader__has_feat(r, HEADER_COMPRESSED) &&
	    !perf_comp_feature__decode(&f, r->feat[HEADER_COMPRESSED].data, r->feat[HEADER_COMPRESSED].size))
		limit = MAX(limit, 2ul * f.mmap_len);
	if (r->zpos) {
		memmove(r->zbuf, r->zbuf + r->zpos, r->zlen - r->zpos);
		r->zlen -= r->zpos;
		r->zpos = 0;
	}
	if (perf_decompressor__feed(r->zd, (const unsigned char *)ev + sizeof(ev->header),
				    ev->header.size - sizeof(ev->header), &r->zbuf, &r->zlen, &r->zcap,
				    limit, err, sizeof(err)) < 0)
		return compressed_error(r, err);
	return 0;
}

/* 1: a whole record from the decompressed bytes; 0: none (yet); -1: corrupt */
static int take_decompressed(struct perf_data_reader *r, union perf_event **ev, uint64_t *offset)
{
	struct perf_event_header h;
	unsigned char *p;

	if (r->zlen - r->zpos < sizeof(h))
		return 0;
	p = r->zbuf + r->zpos;
	memcpy(&h, p, sizeof(h));
	if (h.size < sizeof(h)) {
		char what[64];

		snprintf(what, sizeof(what), "a record inside has size %u < 8", h.size);
		return compressed_error(r, what);
	}
	if (h.type == PERF_RECORD_COMPRESSED)
		return compressed_error(r, "a COMPRESSED record inside a COMPRESSED record");
	if (h.size > r->zlen - r->zpos)
		return 0;   /* it continues in the next COMPRESSED record */
	if ((uintptr_t)p & 7) {
		ensure_buf(r, h.size);
		memcpy(r->buf, p, h.size);
		p = r->buf;
	}
	r->zpos += h.size;
	*ev = (union perf_event *)p;
	*offset = r->zoffset;
	return 1;
}

/* the next record of the stream with COMPRESSED records opened up */
static int next_record(struct perf_data_reader *r, union perf_event **ev, uint64_t *offset)
{
	for (;;) {
		int ret = take_decompressed(r, ev, offset);

		if (ret) {
			r->ev_transient = true;
			return ret;
		}
		drop_tail(r);
		ret = r->map ? next_mapped(r, ev, offset) : next_fd(r, ev, offset);
		if (ret <= 0) {
			if (!ret && r->zlen > r->zpos)
				pr_warning("%s: the compressed data ends inside a record (%zu bytes left over), truncated file?\n",
					   r->path, r->zlen - r->zpos);
			r->zpos = r->zlen = 0;
			return ret;
		}
		if ((*ev)->header.type == PERF_RECORD_COMPRESSED) {
			if (feed_compressed(r, *ev, *offset))
				return -1;
			continue;
		}
		r->ev_transient = !r->map || (unsigned char *)*ev == r->buf;
		return 1;
	}
}

int perf_data_reader__next(struct perf_data_reader *r, union perf_event **ev, uint64_t *offset)
{
	for (;;) {
		int ret = next_record(r, ev, offset);

		if (ret <= 0)
			return ret;
		if ((*ev)->header.type >= PERF_RECORD_HEADER_MAX) {
			if (!r->nr_unknown_skipped++ || verbose)
				pr_warning("%s: skipping record of unknown type %u at offset %#llx\n",
					   r->path, (*ev)->header.type, (unsigned long long)*offset);
			continue;
		}
		if (r->is_pipe && absorb_pipe_record(r, *ev))
			return -1;
		return 1;
	}
}

void perf_data_reader__close(struct perf_data_reader *r)
{
	drop_tail(r);
	if (r->map)
		munmap(r->map, r->map_size);
	if (r->fd > STDIN_FILENO)
		close(r->fd);
	for (size_t i = 0; i < r->nr_attrs; i++) {
		free(r->attrs[i].ids);
		free(r->attrs[i].name);
	}
	free(r->attrs);
	for (int i = 0; i < HEADER_FEAT_BITS; i++)
		free(r->feat[i].data);
	free(r->buf);
	free(r->inbuf);
	free(r->zbuf);
	perf_decompressor__delete(r->zd);
	free((char *)r->path);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

bool perf_data_reader__has_feat(const struct perf_data_reader *r, int feat)
{
	return feat >= 0 && feat < HEADER_FEAT_BITS && bit_test(r->adds_features, feat);
}

/* ------------------------------------------------------------------ writer */

static void writer_flush(struct perf_data_writer *w)
{
	if (w->buf_len && !w->failed && writen(w->fd, w->buf, w->buf_len) < 0) {
		pr_err("%s: write failed: %s\n", w->path, strerror(errno));
		w->failed = true;
	}
	w->buf_len = 0;
}

static void wput(struct perf_data_writer *w, const void *p, size_t n)
{
	w->file_pos += n;
	if (w->failed)
		return;
	if (w->buf_len + n > w->buf_cap)
		writer_flush(w);
	if (n >= w->buf_cap) {
		if (!w->failed && writen(w->fd, p, n) < 0) {
			pr_err("%s: write failed: %s\n", w->path, strerror(errno));
			w->failed = true;
		}
		return;
	}
	memcpy(w->buf + w->buf_len, p, n);
	w->buf_len += n;
}

static void wzeros(struct perf_data_writer *w, size_t n)
{
	static const unsigned char zeros[64];

	while (n) {
		size_t k = MIN(n, sizeof(zeros));

		wput(w, zeros, k);
		n -= k;
	}
}

int perf_data_writer__open(struct perf_data_writer *w, const char *path, bool pipe)
{
	memset(w, 0, sizeof(*w));
	w->path = xstrdup(path);
	if (!strcmp(path, "-")) {
		w->fd = STDOUT_FILENO;
		w->is_pipe = true;
	} else {
		/* never write through a symlink someone planted at the output path */
		w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (w->fd < 0) {
			if (errno == ELOOP)
				pr_err("%s: is a symbolic link, not overwriting it\n", path);
			else
				pr_err("%s: cannot create: %s\n", path, strerror(errno));
			free(w->path);
			w->path = NULL;
			return -1;
		}
		w->own_fd = true;
		w->is_pipe = pipe;
	}
	w->buf_cap = WRITE_BUFFER;
	w->buf = xmalloc(w->buf_cap);
	return 0;
}

static void put_attr_raw(struct perf_data_writer *w, const struct perf_event_attr *attr)
{
	unsigned char raw[ATTR_DISK_SIZE] = { 0 };
	struct perf_event_attr a = *attr;

	a.size = ATTR_DISK_SIZE;
	memcpy(raw, &a, MIN(sizeof(a), sizeof(raw)));
	wput(w, raw, sizeof(raw));
}

static void emit_attr_record(struct perf_data_writer *w, const struct perf_file_attr *a)
{
	struct perf_event_header h = {
		.type = PERF_RECORD_HEADER_ATTR,
		.size = (uint16_t)(sizeof(h) + ATTR_DISK_SIZE + a->nr_ids * 8),
	};

	wput(w, &h, sizeof(h));
	put_attr_raw(w, &a->attr);
	wput(w, a->ids, a->nr_ids * 8);
}

static void emit_end_marker(struct perf_data_writer *w)
{
	struct perf_record_header_feature f = {
		.header = { .type = PERF_RECORD_HEADER_FEATURE, .size = sizeof(f) },
		.feat_id = HEADER_LAST_FEATURE,
	};

	wput(w, &f, sizeof(f));
	w->end_marker_written = true;
}

/* pipe mode: a feature as the record(s) perf 6.1 expects for it */
static void emit_feature(struct perf_data_writer *w, int feat)
{
	const unsigned char *data = w->feat[feat].data;
	uint64_t size = w->feat[feat].size;

	if (feat == HEADER_TRACING_DATA) {
		struct perf_record_header_tracing_data t = {
			.header = { .type = PERF_RECORD_HEADER_TRACING_DATA, .size = sizeof(t) },
		};
		uint64_t padded = ALIGN_UP(size, 8ull);

		if (padded > UINT32_MAX) {
			pr_warning("%s: tracing data of %llu bytes too large for a pipe, dropped\n", w->path,
				   (unsigned long long)size);
			return;
		}
		if (!w->end_marker_written)
			emit_end_marker(w);
		t.size = (uint32_t)padded;
		wput(w, &t, sizeof(t));
		wput(w, data, size);
		wzeros(w, padded - size);
	} else if (feat == HEADER_BUILD_ID) {
		/* perf sends build-ids as HEADER_BUILD_ID records, not as a feature */
		uint64_t pos = 0;

		if (!w->end_marker_written)
			emit_end_marker(w);
		while (pos + sizeof(struct perf_event_header) <= size) {
			struct perf_event_header h;

			memcpy(&h, data + pos, sizeof(h));
			if (h.size < sizeof(h) || h.size > size - pos) {
				pr_warning("%s: malformed BUILD_ID feature, %llu bytes not sent\n", w->path,
					   (unsigned long long)(size - pos));
				break;
			}
			h.type = PERF_RECORD_HEADER_BUILD_ID;
			wput(w, &h, sizeof(h));
			wput(w, data + pos + sizeof(h), h.size - sizeof(h));
			pos += h.size;
		}
	} else {
		struct perf_record_header_feature f = {
			.header = { .type = PERF_RECORD_HEADER_FEATURE },
			.feat_id = (uint64_t)feat,
		};

		if (size > 0xffff - sizeof(f)) {
			pr_warning("%s: feature %s (%llu bytes) too large for a pipe record, dropped\n", w->path,
				   perf_feature__name(feat), (unsigned long long)size);
			return;
		}
		f.header.size = (uint16_t)(sizeof(f) + size);
		wput(w, &f, sizeof(f));
		wput(w, data, size);
	}
}

int perf_data_writer__add_attr(struct perf_data_writer *w, const struct perf_event_attr *attr,
			       const uint64_t *ids, size_t nr_ids, const char *name)
{
	struct perf_file_attr *a;

	if (nr_ids > (0xffff - 8 - ATTR_DISK_SIZE) / 8 && w->is_pipe) {
		pr_err("%s: %zu ids do not fit a HEADER_ATTR record\n", w->path, nr_ids);
		return -1;
	}
	a = ARRAY_PUSH(w->attrs, w->nr_attrs, w->cap_attrs);
	memset(a, 0, sizeof(*a));
	memcpy(&a->attr, attr, MIN(sizeof(*attr), (size_t)ATTR_DISK_SIZE));
	a->nr_ids = (uint32_t)nr_ids;
	a->ids = xmalloc(nr_ids * sizeof(uint64_t));
	if (nr_ids)
		memcpy(a->ids, ids, nr_ids * sizeof(uint64_t));
	a->name = name ? xstrdup(name) : NULL;
	if (w->started) {
		if (w->is_pipe)
			emit_attr_record(w, a);
		else
			w->attrs_late = true;
	}
	return 0;
}

int perf_data_writer__set_feature(struct perf_data_writer *w, int feat, const void *data, size_t size)
{
	if (feat <= HEADER_RESERVED || feat >= HEADER_FEAT_BITS) {
		pr_err("%s: feature id %d out of range\n", w->path, feat);
		return -1;
	}
	free(w->feat[feat].data);
	w->feat[feat].data = xmalloc(size);
	if (size)
		memcpy(w->feat[feat].data, data, size);
	w->feat[feat].size = size;
	if (w->started && w->is_pipe && feat != HEADER_LAST_FEATURE)
		emit_feature(w, feat);
	return 0;
}

/* EVENT_DESC from the attrs' names, unless the caller supplied one */
static void make_event_desc(struct perf_data_writer *w)
{
	struct feat_buf b = { 0 };

	if (w->feat[HEADER_EVENT_DESC].data || !w->nr_attrs)
		return;
	for (size_t i = 0; i < w->nr_attrs; i++)
		if (!w->attrs[i].name)
			return;
	event_desc__encode(&b, w->attrs, w->nr_attrs);
	w->feat[HEADER_EVENT_DESC].data = b.data;
	w->feat[HEADER_EVENT_DESC].size = b.len;
}

/* ids arrays, then the attrs section pointing at them */
static void write_attrs_section(struct perf_data_writer *w)
{
	uint64_t *ids_off = xmalloc((w->nr_attrs + 1) * sizeof(*ids_off));

	for (size_t i = 0; i < w->nr_attrs; i++) {
		ids_off[i] = w->file_pos;
		wput(w, w->attrs[i].ids, w->attrs[i].nr_ids * 8ul);
	}
	w->attrs_offset = w->file_pos;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		struct file_section s = { ids_off[i], w->attrs[i].nr_ids * 8ul };

		put_attr_raw(w, &w->attrs[i].attr);
		wput(w, &s, sizeof(s));
	}
	w->attrs_written = true;
	free(ids_off);
}

int perf_data_writer__start(struct perf_data_writer *w)
{
	if (w->started)
		return 0;
	w->started = true;
	if (w->is_pipe) {
		uint64_t hsize = PIPE_HEADER_SIZE;

		wput(w, PERF_MAGIC, 8);
		wput(w, &hsize, 8);
		for (size_t i = 0; i < w->nr_attrs; i++)
			emit_attr_record(w, &w->attrs[i]);
		make_event_desc(w);
		for (int feat = HEADER_TRACING_DATA; feat < HEADER_FEAT_BITS; feat++)
			if (w->feat[feat].data && feat != HEADER_TRACING_DATA && feat != HEADER_BUILD_ID &&
			    feat != HEADER_LAST_FEATURE)
				emit_feature(w, feat);
		/* tracing data and build-ids are records that follow the end marker */
		if (w->feat[HEADER_TRACING_DATA].data)
			emit_feature(w, HEADER_TRACING_DATA);
		if (w->feat[HEADER_BUILD_ID].data)
			emit_feature(w, HEADER_BUILD_ID);
		w->data_offset = w->file_pos;
	} else {
		wzeros(w, FILE_HEADER_SIZE);
		if (w->nr_attrs)
			write_attrs_section(w);
		w->data_offset = w->file_pos;
	}
	return w->failed ? -1 : 0;
}

int perf_data_writer__write(struct perf_data_writer *w, const void *buf, size_t size)
{
	if (!w->started && perf_data_writer__start(w))
		return -1;
	if (w->is_pipe && !w->end_marker_written)
		emit_end_marker(w);
	wput(w, buf, size);
	return w->failed ? -1 : 0;
}

static void writer_free(struct perf_data_writer *w)
{
	for (size_t i = 0; i < w->nr_attrs; i++) {
		free(w->attrs[i].ids);
		free(w->attrs[i].name);
	}
	free(w->attrs);
	for (int i = 0; i < HEADER_FEAT_BITS; i++)
		free(w->feat[i].data);
	free(w->buf);
	free(w->path);
	memset(w, 0, sizeof(*w));
	w->fd = -1;
}

static void write_file_tail(struct perf_data_writer *w)
{
	struct file_header h;
	struct file_section *table;
	uint64_t off;
	int nr = 0;

	w->data_size = w->file_pos - w->data_offset;
	make_event_desc(w);
	memset(&h, 0, sizeof(h));
	for (int feat = 1; feat < HEADER_FEAT_BITS; feat++)
		if (w->feat[feat].data) {
			bit_set(h.adds_features, feat);
			nr++;
		}
	/* the table sits at data.offset + data.size; payloads follow it */
	table = xzalloc((nr + 1) * sizeof(*table));
	off = w->file_pos + nr * sizeof(*table);
	nr = 0;
	for (int feat = 1; feat < HEADER_FEAT_BITS; feat++)
		if (w->feat[feat].data) {
			table[nr].offset = off;
			table[nr].size = w->feat[feat].size;
			off += w->feat[feat].size;
			nr++;
		}
	wput(w, table, nr * sizeof(*table));
	for (int feat = 1; feat < HEADER_FEAT_BITS; feat++)
		if (w->feat[feat].data)
			wput(w, w->feat[feat].data, w->feat[feat].size);
	free(table);
	if (!w->attrs_written || w->attrs_late)
		write_attrs_section(w);
	writer_flush(w);

	memcpy(h.magic, PERF_MAGIC, 8);
	h.size = FILE_HEADER_SIZE;
	h.attr_size = ATTR_DISK_SIZE + sizeof(struct file_section);
	h.attrs.offset = w->attrs_offset;
	h.attrs.size = w->nr_attrs * h.attr_size;
	h.data.offset = w->data_offset;
	h.data.size = w->data_size;
	if (!w->failed && pwrite(w->fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h)) {
		pr_err("%s: cannot rewrite the header: %s\n", w->path, strerror(errno));
		w->failed = true;
	}
}

int perf_data_writer__close(struct perf_data_writer *w)
{
	int ret;

	if (!w->path)
		return -1;
	if (!w->started)
		perf_data_writer__start(w);
	if (w->is_pipe) {
		if (!w->end_marker_written)
			emit_end_marker(w);
		w->data_size = w->file_pos - w->data_offset;
		writer_flush(w);
	} else
		write_file_tail(w);
	if (w->own_fd && close(w->fd) && !w->failed) {
		pr_err("%s: close failed: %s\n", w->path, strerror(errno));
		w->failed = true;
	}
	ret = w->failed ? -1 : 0;
	writer_free(w);
	return ret;
}
