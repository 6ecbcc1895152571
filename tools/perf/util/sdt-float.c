// SPDX-License-Identifier: MIT
/*
 * The floating-point arguments of SDT probe sites, per DSO (sdt-float.h).
 */
#include <stdlib.h>
#include <string.h>

#include "dso.h"
#include "sdt.h"
#include "sdt-arg.h"
#include "sdt-float.h"
#include "strbuf.h"
#include "util.h"

struct site_float {
	uint64_t addr;
	struct sdt_float_arg a;
};

/* every floating-point argument of the DSO's notes; scanned once */
struct dso_floats {
	struct site_float *v;
	size_t nr, alloc;
};

static void dso_floats__free(void *data)
{
	struct dso_floats *df = data;

	if (df)
		free(df->v);
	free(df);
}

static const struct dso_priv_key floats_key = { "sdt-float", dso_floats__free };

static void add_note(struct dso_floats *df, const struct sdt_note *n, enum sdt_arch arch)
{
	int nr = 0;
	char **v = sdt_args__split(n->args, arch, &nr);

	for (int i = 0; v && i < nr; i++) {
		unsigned int size = sdt_arg__float_size(v[i]);

		if (!size)
			continue;
		*ARRAY_PUSH(df->v, df->nr, df->alloc) = (struct site_float){ n->addr, { (unsigned int)i + 1, size } };
	}
	sdt_args__free(v);
}

static struct dso_floats *dso_floats(struct dsos *d, struct dso *dso)
{
	struct dso_floats *df = dso__priv(dso, &floats_key);
	struct sdt_notes notes;
	const char *path;

	if (df)
		return df;
	df = xzalloc(sizeof(*df));
	dso__set_priv(dso, &floats_key, df);
	/* the file symbols come from is the one whose build-id matched the recording */
	dso__load(d, dso);
	path = dso->symsrc ? dso->symsrc : dso->long_name;
	if (sdt__scan_file(path, &notes) < 0)
		return df;
	for (size_t i = 0; i < notes.nr; i++)
		add_note(df, &notes.v[i], notes.arch);
	sdt_notes__exit(&notes);
	return df;
}

int sdt_float__site_args(struct dsos *d, struct dso *dso, uint64_t addr,
			 struct sdt_float_arg *out, int max)
{
	struct dso_floats *df;
	int n = 0;

	if (!dso || dso->kind != DSO_KIND_ELF)
		return 0;
	df = dso_floats(d, dso);
	for (size_t i = 0; i < df->nr && n < max; i++)
		if (df->v[i].addr == addr)
			out[n++] = df->v[i].a;
	return n;
}
