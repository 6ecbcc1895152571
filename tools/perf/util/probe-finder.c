// SPDX-License-Identifier: MIT
/*
 * DWARF (libdw) to uprobe places and fetchargs: see probe-finder.h. Where
 * a variable is and how a uprobe reads it is dwarf-loc.c's; this file finds
 * the places (functions, inline copies, lines) and the variables in scope.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug.h"
#include "debuginfo.h"
#include "probe-finder.h"
#include "dwarf-lines.h"
#include "dwarf-loc.h"
#include "strbuf.h"
#include "symbol-elf.h"
#include "util.h"
#include "x86-regs.h"

/* x86-64 DWARF register numbers to uprobe register names */
static const char *reg_name(unsigned int n)
{
	return x86_reg__from_dwarf(n);
}

/* ---- the debug session ---- */

struct pf_session {
	const char *binary;
	char *debugfile;
	int dfd;
	Dwarf *dw;
	struct symsrc ss;            /* the binary: segments, .eh_frame */
	bool ss_open;
	Dwarf_CFI *cfi_debug, *cfi_eh;
	struct dso_segment *segs;
	size_t nsegs;
};

static void session__close(struct pf_session *s)
{
	/* .eh_frame's CFI is ours to free; .debug_frame's belongs to the Dwarf */
	if (s->cfi_eh)
		dwarf_cfi_end(s->cfi_eh);
	if (s->dw)
		dwarf_end(s->dw);
	if (s->dfd >= 0)
		close(s->dfd);
	if (s->ss_open)
		symsrc__close(&s->ss);
	free(s->segs);
	free(s->debugfile);
}

static int session__open(struct pf_session *s, const char *binary)
{
	memset(s, 0, sizeof(*s));
	s->dfd = -1;
	s->binary = binary;
	if (symsrc__open(&s->ss, binary) < 0) {
		pr_err("%s: cannot open as ELF\n", binary);
		return -1;
	}
	s->ss_open = true;
	s->nsegs = symsrc__read_segments(&s->ss, &s->segs);
	s->debugfile = debuginfo__find(binary);
	if (!s->debugfile) {
		pr_err("Error: no debuginfo for %s (looked in the binary, /usr/lib/debug/.build-id, "
		       ".gnu_debuglink, %s.debug and the build-id cache); a probe cached with "
		       "--cache where debuginfo exists can be used with %%NAME\n", binary, binary);
		session__close(s);
		return -1;
	}
	s->dfd = open(s->debugfile, O_RDONLY | O_CLOEXEC);
	if (s->dfd >= 0)
		s->dw = dwarf_begin(s->dfd, DWARF_C_READ);
	if (!s->dw) {
		pr_err("%s: cannot read DWARF: %s\n", s->debugfile, dwarf_errmsg(-1));
		session__close(s);
		return -1;
	}
	s->cfi_debug = dwarf_getcfi(s->dw);
	s->cfi_eh = dwarf_getcfi_elf(s->ss.elf);
	return 0;
}

/* file offset of a virtual address in an executable segment-relative way */
static int session__offset(const struct pf_session *s, uint64_t addr, uint64_t *off)
{
	for (size_t i = 0; i < s->nsegs; i++)
		if (addr >= s->segs[i].vaddr && addr - s->segs[i].vaddr < s->segs[i].filesz) {
			*off = addr - s->segs[i].vaddr + s->segs[i].offset;
			return 0;
		}
	return -1;
}

/* vaddr - file offset of the segment holding @addr: @+OFF fetches are relative to it */
static int session__bias(const struct pf_session *s, uint64_t addr, uint64_t *bias)
{
	for (size_t i = 0; i < s->nsegs; i++)
		if (addr >= s->segs[i].vaddr && addr - s->segs[i].vaddr < s->segs[i].filesz) {
			*bias = s->segs[i].vaddr - s->segs[i].offset;
			return 0;
		}
	return -1;
}

/* ---- function instances ---- */

struct instance {
	Dwarf_Die die, cu;
	uint64_t entry;
	bool inlined;
	int decl_line;
	const char *decl_file;
};

struct instances {
	struct instance *v;
	size_t nr, cap;
};

/* a source path of @cu made absolute with its DW_AT_comp_dir (malloc'ed) */
static char *abs_src(Dwarf_Die *cu, const char *file)
{
	Dwarf_Attribute a;
	const char *dir;

	if (!file)
		return NULL;
	if (file[0] == '/' || !dwarf_attr(cu, DW_AT_comp_dir, &a) || !(dir = dwarf_formstring(&a)))
		return xstrdup(file);
	return xasprintf("%s/%s", dir, file);
}

static bool die_has_pc(Dwarf_Die *d)
{
	return dwarf_hasattr(d, DW_AT_low_pc) || dwarf_hasattr(d, DW_AT_ranges) ||
	       dwarf_hasattr(d, DW_AT_entry_pc);
}

static void collect(Dwarf_Die *parent, Dwarf_Die *cu, const char *func, const char *file,
		    struct instances *out)
{
	Dwarf_Die child;

	if (dwarf_child(parent, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		const char *name;

		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine &&
		    tag != DW_TAG_lexical_block && tag != DW_TAG_namespace)
			continue;
		name = dwarf_diename(&child);
		if ((tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) && name &&
		    (!func || !strcmp(name, func)) && die_has_pc(&child) &&
		    dwarf_src__matches(dwarf_decl_file(&child), file)) {
			struct instance in = { .die = child, .cu = *cu };
			Dwarf_Addr e;

			if (dwarf_entrypc(&child, &e) == 0) {
				in.entry = e;
				in.inlined = tag == DW_TAG_inlined_subroutine;
				dwarf_decl_line(&child, &in.decl_line);
				in.decl_file = dwarf_decl_file(&child);
				*ARRAY_PUSH(out->v, out->nr, out->cap) = in;
			}
		}
		collect(&child, cu, func, file, out);
	} while (dwarf_siblingof(&child, &child) == 0);
}

static void find_instances(struct pf_session *s, const char *func, const char *file,
			   struct instances *out)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	memset(out, 0, sizeof(*out));
	while (dwarf_nextcu(s->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(s->dw, off + hsize, &cu))
			collect(&cu, &cu, func, file, out);
		off = next;
	}
}

/*
 * Where the body of a function starts: the first row after the entry
 * whose line differs from the entry's (the opening brace at -O0); the
 * entry itself when that row is at the entry address (optimised code).
 */
static uint64_t after_prologue(struct instance *in)
{
	Dwarf_Lines *lines;
	size_t n;
	int entry_line = -1;
	uint64_t end = in->entry;

	if (dwarf_getsrclines(&in->cu, &lines, &n) != 0)
		return in->entry;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		int ln;

		if (!l || dwarf_lineaddr(l, &a) || dwarf_lineno(l, &ln) || a < in->entry)
			continue;
		if (!dwarf_die__has_addr(&in->die, a))
			break;
		if (entry_line < 0) {
			if (a != in->entry)
				break;
			entry_line = ln;
			continue;
		}
		if (ln != entry_line) {
			end = a;
			break;
		}
	}
	return end;
}

/* ---- argument expressions ---- */

struct val {
	struct dwarf_loc loc;
	Dwarf_Die type;         /* unstripped */
	bool has_type;
};

struct arg_out {
	char *fetch;             /* "+8(%di)" */
	char *type;              /* "s64", "string", user's cast */
	char *name;              /* default name: the last member/variable name */
};

static bool find_var(Dwarf_Die *scopes, int nscopes, int fn_idx, const char *name, Dwarf_Die *out)
{
	for (int i = 0; i < nscopes; i++) {
		Dwarf_Die c;

		if (i > fn_idx && i != nscopes - 1)
			continue;       /* the caller's scopes of an inlined copy, up to the CU */
		if (dwarf_child(&scopes[i], &c) != 0)
			continue;
		do {
			int tag = dwarf_tag(&c);
			const char *n;

			if (tag != DW_TAG_variable && tag != DW_TAG_formal_parameter)
				continue;
			n = dwarf_diename(&c);
			if (n && !strcmp(n, name)) {
				*out = c;
				return true;
			}
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	return false;
}

/* a global declared here but defined elsewhere: find a definition with a location */
static bool find_global_def(struct pf_session *s, const char *name, Dwarf_Die *out)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(s->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, c;

		if (dwarf_offdie(s->dw, off + hsize, &cu) && dwarf_child(&cu, &c) == 0) {
			do {
				const char *n;

				if (dwarf_tag(&c) != DW_TAG_variable || !dwarf_hasattr(&c, DW_AT_location))
					continue;
				n = dwarf_diename(&c);
				if (n && !strcmp(n, name)) {
					*out = c;
					return true;
				}
			} while (dwarf_siblingof(&c, &c) == 0);
		}
		off = next;
	}
	return false;
}

struct site_ctx {
	struct pf_session *s;
	uint64_t addr;
	Dwarf_Die *scopes;
	int nscopes, fn_idx;     /* fn_idx: the function instance in scopes */
	Dwarf_Die *frame_fn;
	const char *where;       /* "compute+0x4" */
	bool retprobe;
	Dwarf_Die *func;         /* instance DIE */
};

static bool valid_cast(const char *t)
{
	static const char *const ok[] = { "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
					  "x8", "x16", "x32", "x64", "string", "ustring", NULL };

	for (int i = 0; ok[i]; i++)
		if (!strcmp(t, ok[i]))
			return true;
	return t[0] == 'b' && strchr(t, '@') && strchr(t, '/');
}

/*
 * VAR[->F|.F|[N]]... at the site. Fills @o; -1 with a message naming the
 * expression.
 */
static int resolve_expr(struct site_ctx *sc, const char *expr, const char *cast, struct arg_out *o)
{
	char name[256];
	const char *p = expr;
	size_t nl = strcspn(p, "-.[");
	Dwarf_Die var;
	struct dwarf_loc_ctx ec = { .cfi = { sc->s->cfi_debug, sc->s->cfi_eh }, .addr = sc->addr, .frame_fn = sc->frame_fn };
	struct dwarf_loc l;
	Dwarf_Die type, tb, *t;
	bool has_type;
	char *why = NULL, *f = NULL;
	const char *last = NULL;
	int size = 8, err = -EINVAL;   /* perf 6.1: -ENOENT for what is missing, else -EINVAL */
	const char *st;

	if (nl == 0 || nl >= sizeof(name)) {
		pr_err("Error: '%s' is not a variable expression\n", expr);
		return -EINVAL;
	}
	memcpy(name, p, nl);
	name[nl] = '\0';
	p += nl;
	if (sc->retprobe) {
		pr_err("Error: '%s' at a return probe: only $retval is known when a function returns\n",
		       expr);
		return -EINVAL;
	}
	if (!find_var(sc->scopes, sc->nscopes, sc->fn_idx, name, &var)) {
		pr_err("Error: no variable '%s' at %s\n", name, sc->where);
		return -ENOENT;
	}
	if (!dwarf_hasattr(&var, DW_AT_location) && !dwarf_hasattr(&var, DW_AT_const_value) &&
	    dwarf_hasattr(&var, DW_AT_declaration))
		find_global_def(sc->s, name, &var);
	session__bias(sc->s, sc->addr, &ec.bias);
	if (dwarf_loc__of_var(&ec, &var, &l) < 0) {
		pr_err("Error: variable '%s' at %s is %s\n", name, sc->where, ec.why);
		free(ec.why);
		return -EINVAL;
	}
	if (l.kind == DWARF_LOC_NONE) {
		pr_err("Error: variable '%s' is optimised out at %s\n", name, sc->where);
		return -ENOENT;
	}
	has_type = dwarf_type__of(&var, &type);
	last = name;
	while (*p) {
		char field[256];
		Dwarf_Die mem;
		uint64_t off;
		bool arrow = p[0] == '-' && p[1] == '>';

		t = has_type ? dwarf_type__strip_cv(&type, &tb) : NULL;
		if (!t) {
			pr_err("Error: '%s': %s has no type to look into\n", expr, last);
			goto fail;
		}
		if (*p == '[') {
			char *end;
			long idx = strtol(p + 1, &end, 0);
			Dwarf_Die et;
			int esz;

			if (*end != ']' || end == p + 1) {
				pr_err("Error: bad index in '%s'\n", expr);
				goto fail;
			}
			p = end + 1;
			if (dwarf_tag(t) != DW_TAG_pointer_type && dwarf_tag(t) != DW_TAG_array_type) {
				pr_err("Error: '%s': %s is neither an array nor a pointer\n", expr, last);
				goto fail;
			}
			if (!dwarf_type__of(t, &et)) {
				pr_err("Error: '%s': element type unknown\n", expr);
				goto fail;
			}
			{
				Dwarf_Die eb, *es = dwarf_type__strip_cv(&et, &eb);

				esz = es ? dwarf_bytesize(es) : -1;
				if (es && esz < 0 && dwarf_tag(es) == DW_TAG_pointer_type)
					esz = 8;
			}
			if (esz <= 0) {
				pr_err("Error: '%s': element size unknown\n", expr);
				goto fail;
			}
			if (dwarf_tag(t) == DW_TAG_pointer_type) {
				f = dwarf_loc__value(&l, ec.bias, &why, last);
				if (!f)
					goto fail_why;
				dwarf_loc__exit(&l);
				l.kind = DWARF_LOC_MEM;
				l.addr = (struct dwarf_sv){ .kind = DWARF_SV_FETCH, .fetch = f, .k = idx * esz };
				f = NULL;
			} else if (dwarf_loc__advance(&l, (uint64_t)(idx * esz), (uint64_t)esz, last, &why) < 0) {
				goto fail_why;
			}
			type = et;
			continue;
		}
		if (arrow)
			p += 2;
		else if (*p == '.')
			p++;
		else {
			pr_err("Error: bad expression '%s'\n", expr);
			goto fail;
		}
		nl = strcspn(p, "-.[");
		if (!nl || nl >= sizeof(field)) {
			pr_err("Error: bad member name in '%s'\n", expr);
			goto fail;
		}
		memcpy(field, p, nl);
		field[nl] = '\0';
		p += nl;
		if (arrow) {
			Dwarf_Die pt;

			if (dwarf_tag(t) != DW_TAG_pointer_type || !dwarf_type__of(t, &pt)) {
				pr_err("Error: '%s': %s is not a pointer (use '.')\n", expr, last);
				goto fail;
			}
			f = dwarf_loc__value(&l, ec.bias, &why, last);
			if (!f)
				goto fail_why;
			dwarf_loc__exit(&l);
			l.kind = DWARF_LOC_MEM;
			l.addr = (struct dwarf_sv){ .kind = DWARF_SV_FETCH, .fetch = f };
			f = NULL;
			type = pt;
			t = dwarf_type__strip_cv(&type, &tb);
		} else if (dwarf_tag(t) == DW_TAG_pointer_type) {
			pr_err("Error: '%s': %s is a pointer (use '->')\n", expr, last);
			goto fail;
		}
		if (!t || (dwarf_tag(t) != DW_TAG_structure_type && dwarf_tag(t) != DW_TAG_union_type)) {
			pr_err("Error: '%s': %s is not a struct or union\n", expr, last);
			goto fail;
		}
		{
			int r = dwarf_type__member(t, field, &mem, &off);
			Dwarf_Die mt, mb, *ms;
			int msz;

			if (r == -2) {
				pr_err("Error: '%s': %s is a bitfield (not supported)\n", expr, field);
				goto fail;
			}
			if (r < 0) {
				pr_err("Error: '%s': no member '%s' in %s\n", expr, field, last);
				goto fail;
			}
			if (!dwarf_type__of(&mem, &mt)) {
				pr_err("Error: '%s': member %s has no type\n", expr, field);
				goto fail;
			}
			ms = dwarf_type__strip_cv(&mt, &mb);
			msz = ms ? dwarf_bytesize(ms) : -1;
			if (ms && msz < 0 && dwarf_tag(ms) == DW_TAG_pointer_type)
				msz = 8;
			if (msz < 0)
				msz = 1;
			last = dwarf_diename(&mem);
			if (dwarf_loc__advance(&l, off, (uint64_t)msz, field, &why) < 0)
				goto fail_why;
			type = mt;
		}
	}
	o->name = xstrdup(last);
	t = has_type ? dwarf_type__strip_cv(&type, &tb) : NULL;
	if (cast && (!strcmp(cast, "string") || !strcmp(cast, "ustring"))) {
		bool arr = t && dwarf_tag(t) == DW_TAG_array_type;

		if (arr && l.kind == DWARF_LOC_MEM) {
			/* the string is read at the array's own address */
			o->fetch = dwarf_sv__deref(&l.addr, ec.bias);
		} else if (t && dwarf_tag(t) == DW_TAG_pointer_type) {
			f = dwarf_loc__value(&l, ec.bias, &why, last);
			if (!f)
				goto fail_why;
			o->fetch = xasprintf("+0(%s)", f);
			free(f);
		} else {
			pr_err("Error: '%s' is not a char pointer or array: cannot fetch it as a string\n",
			       expr);
			goto fail;
		}
		o->type = xstrdup(cast);
		dwarf_loc__exit(&l);
		return 0;
	}
	st = t ? dwarf_type__fetch(t, &size) : NULL;
	if (!st && !cast) {
		char *tn = dwarf_type__name(t);

		pr_err("Error: '%s' is a %s: name a member (or cast it, e.g. :x64)\n", expr, tn);
		free(tn);
		goto fail;
	}
	if (cast)
		st = cast;
	switch (l.kind) {
	case DWARF_LOC_MEM:
		o->fetch = dwarf_sv__deref(&l.addr, ec.bias);
		break;
	case DWARF_LOC_REG:
		o->fetch = xasprintf("%%%s", reg_name(l.reg));
		if (l.bitoff) {
			int bits = size * 8;

			if (st[0] == 's' && !cast) {
				pr_err("Error: '%s' is a signed %d-bit value in bits %d-%d of %%%s; uprobes fetch "
				       "such bits unsigned only: add :u%d to fetch them anyway\n", expr, bits,
				       l.bitoff, l.bitoff + bits - 1, reg_name(l.reg), bits);
				goto fail;
			}
			o->type = xasprintf("b%d@%d/64", bits, l.bitoff);
			dwarf_loc__exit(&l);
			return 0;
		}
		break;
	case DWARF_LOC_VALUE:
		o->fetch = xstrdup(l.value);
		break;
	case DWARF_LOC_IMM:
		o->fetch = xasprintf("\\%" PRIu64, (uint64_t)(size < 8 ? l.imm & ((1ULL << (size * 8)) - 1) : l.imm));
		break;
	default:
		pr_err("Error: '%s' is optimised out at %s\n", expr, sc->where);
		err = -ENOENT;
		goto fail;
	}
	o->type = xstrdup(st);
	dwarf_loc__exit(&l);
	return 0;
fail_why:
	pr_err("Error: '%s' at %s: %s\n", expr, sc->where, why);
	free(why);
fail:
	dwarf_loc__exit(&l);
	return err;
}

static bool raw_fetcharg(const char *e)
{
	return e[0] == '%' || e[0] == '@' || e[0] == '+' || (e[0] == '-' && e[1] >= '0' && e[1] <= '9') ||
	       !strncmp(e, "$stack", 6) || !strcmp(e, "$comm") || e[0] == '\\';
}

static void append(char **s, const char *name, const char *fetch, const char *type)
{
	char *n = xasprintf("%s%s%s%s%s%s", *s, **s ? " " : "", name ? name : "", name ? "=" : "",
			    fetch, type ? ":" : "");
	free(*s);
	*s = xasprintf("%s%s", n, type ? type : "");
	free(n);
}

/* names perf gives: [A-Za-z0-9_] of the expression's last component */
static bool arg_name_ok(const char *n)
{
	if (!n || !*n || (*n >= '0' && *n <= '9'))
		return false;
	for (; *n; n++)
		if (!(*n == '_' || (*n >= '0' && *n <= '9') || ((*n | 0x20) >= 'a' && (*n | 0x20) <= 'z')))
			return false;
	return true;
}

/*
 * The field name perf 6.1 gives an unnamed argument: a variable's name with
 * "_TYPE" when cast ("a:x32" -> a_x32), or the last member of a member or
 * element access without it ("r->name:string" -> name). Scripts read fields
 * by these names. NULL lets the kernel name it (argN).
 */
static char *default_arg_name(const char *expr, const char *cast, struct arg_out *o)
{
	if (!arg_name_ok(o->name))
		return NULL;
	if (cast && !strpbrk(expr, "-.[")) {
		char *n = xasprintf("%s_%s", o->name, cast);

		free(o->name);
		o->name = n;
	}
	return o->name;
}

/* all params ($params) or all variables ($vars) of the site that can be fetched */
static char *var_why(struct site_ctx *sc, Dwarf_Die *d);
/* var_why's reason for a variable without any location at the place */
static const char OPTIMISED_OUT[] = "optimised out";

static void each_var(struct site_ctx *sc, bool params_only, const char *expr, char **args)
{
	for (int i = 0; i <= sc->fn_idx && i < sc->nscopes; i++) {
		Dwarf_Die c;

		if (params_only && i != sc->fn_idx)
			continue;
		if (dwarf_child(&sc->scopes[i], &c) != 0)
			continue;
		do {
			int tag = dwarf_tag(&c);
			const char *n;
			struct arg_out o = { 0 };
			char *why;

			if (tag != DW_TAG_formal_parameter && (params_only || tag != DW_TAG_variable))
				continue;
			n = dwarf_diename(&c);
			if (!n)
				continue;
			why = var_why(sc, &c);
			if (!why) {
				Dwarf_Die t;
				int size;

				if (!dwarf_type__of(&c, &t) || !dwarf_type__fetch(&t, &size))
					why = xstrdup("not a scalar (name its members)");
			}
			if (why) {
				pr_warning("Warning: %s %s not fetched at %s: %s\n", expr, n, sc->where, why);
				free(why);
			} else if (resolve_expr(sc, n, NULL, &o) == 0) {
				append(args, n, o.fetch, o.type);
			}
			free(o.fetch);
			free(o.type);
			free(o.name);
		} while (dwarf_siblingof(&c, &c) == 0);
	}
}

static int build_args(struct site_ctx *sc, char *const *args, size_t nargs, char **out)
{
	*out = xstrdup("");
	for (size_t i = 0; i < nargs; i++) {
		char *a = xstrdup(args[i]), *expr = a, *cast, *eq, *name = NULL;
		struct arg_out o = { 0 };
		int r = 0;

		eq = strchr(a, '=');
		if (eq) {
			*eq = '\0';
			name = a;
			expr = eq + 1;
			if (!arg_name_ok(name)) {
				pr_err("Error: bad argument name '%s'\n", name);
				r = -EINVAL;
			}
		}
		cast = NULL;
		if (!r) {
			/* ':TYPE' at the end (a fetcharg has no other ':') */
			cast = strrchr(expr, ':');
			if (cast) {
				*cast++ = '\0';
				if (!valid_cast(cast)) {
					pr_err("Error: unknown type '%s' in '%s'\n", cast, args[i]);
					r = -EINVAL;
				}
			}
		}
		if (r) {
		} else if (!strcmp(expr, "$params") || !strcmp(expr, "$vars")) {
			if (sc->retprobe) {
				pr_err("Error: %s at a return probe: only $retval is known\n", expr);
				r = -EINVAL;
			} else {
				each_var(sc, expr[1] == 'p', expr, out);
			}
		} else if (!strcmp(expr, "$retval")) {
			if (!sc->retprobe) {
				pr_err("Error: $retval needs a return probe (FUNC%%return)\n");
				r = -EINVAL;
			} else {
				Dwarf_Die rt;
				int size;
				const char *st = NULL;

				if (dwarf_type__of(sc->func, &rt))
					st = dwarf_type__fetch(&rt, &size);
				append(out, name, "$retval", cast ? cast : st);
			}
		} else if (raw_fetcharg(expr)) {
			append(out, name, expr, cast);
		} else {
			r = resolve_expr(sc, expr, cast, &o);
		}
		if (!r && o.fetch)
			append(out, name ? name : default_arg_name(expr, cast, &o), o.fetch, o.type);
		free(o.fetch);
		free(o.type);
		free(o.name);
		free(a);
		if (r) {
			free(*out);
			*out = NULL;
			return r;
		}
	}
	return 0;
}

/* the out-of-line function of @cu whose code is at @addr (its frame base serves inlined code) */
static bool out_of_line(Dwarf_Die *cu, uint64_t addr, Dwarf_Die *out)
{
	Dwarf_Die c;

	if (dwarf_child(cu, &c) != 0)
		return false;
	do {
		if (dwarf_tag(&c) == DW_TAG_subprogram && dwarf_hasattr(&c, DW_AT_frame_base) &&
		    dwarf_die__has_addr(&c, addr)) {
			*out = c;
			return true;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return false;
}

/* scopes at @addr inside instance @in; *fn_idx = the instance, *frame = out-of-line function */
static int site_scopes(struct instance *in, uint64_t addr, Dwarf_Die **scopes, int *fn_idx,
		       int *frame_idx)
{
	int n = dwarf_getscopes(&in->cu, addr, scopes);

	*fn_idx = -1;
	*frame_idx = -1;
	for (int i = 0; i < n; i++) {
		int tag = dwarf_tag(&(*scopes)[i]);

		if (*fn_idx < 0 && (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine))
			*fn_idx = i;
		if (*frame_idx < 0 && tag == DW_TAG_subprogram &&
		    dwarf_hasattr(&(*scopes)[i], DW_AT_frame_base))
			*frame_idx = i;
	}
	if (n <= 0 || *fn_idx < 0) {
		free(*scopes);
		*scopes = NULL;
		return -1;
	}
	return n;
}

void probe_sites__exit(struct probe_sites *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		free(s->v[i].func);
		free(s->v[i].args);
	}
	free(s->v);
	free(s->event);
	free(s->debugfile);
	memset(s, 0, sizeof(*s));
}

struct cand {
	uint64_t addr;
	struct instance *in;
};

/* source line @ln of @file, or NULL */
static char *source_line(const char *file, int ln)
{
	FILE *f = fopen(file, "r");
	char *line = NULL;
	size_t cap = 0;
	int cur = 0;

	if (!f)
		return NULL;
	while (getline(&line, &cap, f) >= 0)
		if (++cur == ln) {
			fclose(f);
			return line;
		}
	free(line);
	fclose(f);
	return NULL;
}

/* the last line of an instance in its file (the highest row line in its ranges) */
static int last_line(struct instance *in)
{
	Dwarf_Lines *lines;
	size_t n;
	int max = in->decl_line;

	if (dwarf_getsrclines(&in->cu, &lines, &n) != 0)
		return max;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		int ln;

		if (l && !dwarf_lineaddr(l, &a) && !dwarf_lineno(l, &ln) && ln > max &&
		    dwarf_src__matches(dwarf_linesrc(l, NULL, NULL), in->decl_file) && dwarf_die__has_addr(&in->die, a))
			max = ln;
	}
	return max;
}

/*
 * A probe on a function itself (FUNC, FUNC:0, its declaration line): its
 * entry, or the end of its prologue when arguments are fetched (at -O0 they
 * are read from frame slots the prologue fills), as perf 6.1 places it.
 */
static uint64_t func_site(struct instance *in, size_t nargs)
{
	return nargs && !in->inlined ? after_prologue(in) : in->entry;
}

/*
 * The row at the entry of a function with a prologue belongs to its
 * declaration line (perf 6.1 and -L number it so): no line probe lands
 * there, before the prologue has stored the arguments. Optimised code
 * without a prologue keeps its entry row (perf 6.1 refuses that line).
 */
static bool entry_row(struct instance *in, uint64_t addr)
{
	return in && !in->inlined && addr == in->entry && after_prologue(in) != in->entry;
}

static void add_cand(struct cand **v, size_t *n, size_t *cap, uint64_t addr, struct instance *in)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].addr == addr)
			return;
	*ARRAY_PUSH(*v, *n, *cap) = (struct cand){ addr, in };
}

/* innermost function instance containing addr among @all */
static struct instance *owner(struct instances *all, uint64_t addr)
{
	struct instance *best = NULL;
	Dwarf_Die *scopes;
	int n = -1;

	for (size_t i = 0; i < all->nr; i++) {
		if (!dwarf_die__has_addr(&all->v[i].die, addr))
			continue;
		if (!best) {
			best = &all->v[i];
			n = dwarf_getscopes(&best->cu, addr, &scopes);
			if (n > 0) {
				for (int k = 0; k < n; k++) {
					int tag = dwarf_tag(&scopes[k]);

					if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
						for (size_t j = 0; j < all->nr; j++)
							if (dwarf_dieoffset(&all->v[j].die) ==
							    dwarf_dieoffset(&scopes[k])) {
								best = &all->v[j];
								break;
							}
						break;
					}
				}
				free(scopes);
			}
			break;
		}
	}
	return best;
}

int probe_finder__find(const char *binary, const struct probe_point *pp,
		       char *const *args, size_t nargs, struct probe_sites *out)
{
	struct pf_session s;
	struct instances ins;
	struct cand *cands = NULL;
	size_t nc = 0, cap_cands = 0;
	int ret = -ENOENT;   /* what is asked for is not there, as perf 6.1 says */

	memset(out, 0, sizeof(*out));
	if (session__open(&s, binary) < 0)
		return -ENOENT;
	find_instances(&s, pp->function, pp->function ? pp->file : NULL, &ins);
	if (pp->function && !ins.nr) {
		pr_err("Error: function '%s'%s%s not found in the DWARF of %s\n", pp->function,
		       pp->file ? " in " : "", pp->file ? pp->file : "", s.debugfile);
		goto out;
	}
	if (!pp->function) {
		/* FILE:LINE: rows of that line in any function */
		Dwarf_Off off = 0, next;
		size_t hsize;

		while (dwarf_nextcu(s.dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
			Dwarf_Die cu;
			uint64_t *a;
			size_t n;

			if (dwarf_offdie(s.dw, off + hsize, &cu)) {
				n = dwarf_lines__stmt_addrs(&cu, NULL, pp->file, pp->line, &a);
				for (size_t i = 0; i < n; i++) {
					struct instance *in = owner(&ins, a[i]);

					if (!in) {
						struct instances more;

						find_instances(&s, NULL, NULL, &more);
						free(ins.v);
						ins = more;
						in = owner(&ins, a[i]);
					}
					if (in && !entry_row(in, a[i]))
						add_cand(&cands, &nc, &cap_cands, a[i], in);
				}
				free(a);
			}
			off = next;
		}
		for (size_t i = 0; i < ins.nr; i++)
			if (!ins.v[i].inlined && ins.v[i].decl_line == pp->line &&
			    dwarf_src__matches(ins.v[i].decl_file, pp->file))
				add_cand(&cands, &nc, &cap_cands, func_site(&ins.v[i], nargs), &ins.v[i]);
		if (!nc) {
			pr_err("Error: no code for %s:%d in %s (see perf probe -L)\n", pp->file, pp->line,
			       s.debugfile);
			goto out;
		}
	} else {
		for (size_t i = 0; i < ins.nr; i++) {
			struct instance *in = &ins.v[i];

			if (pp->rel_line >= 0 || pp->lazy) {
				int from = in->decl_line + (pp->rel_line >= 0 ? pp->rel_line : 0);
				int to = pp->rel_line >= 0 ? from : last_line(in);

				for (int ln = from; ln <= to; ln++) {
					uint64_t *a;
					size_t n;

					if (pp->lazy) {
						char *path = abs_src(&in->cu, in->decl_file);
						char *src = source_line(path, ln);
						char *pat = xasprintf("*%s*", pp->lazy);
						bool m = src && fnmatch(pat, src, 0) == 0;

						free(pat);
						free(src);
						free(path);
						if (!m)
							continue;
					}
					n = dwarf_lines__stmt_addrs(&in->cu, &in->die, in->decl_file, ln, &a);
					if (ln == in->decl_line)
						add_cand(&cands, &nc, &cap_cands, func_site(in, nargs), in);
					for (size_t k = 0; k < n; k++) {
						struct instance *own = owner(&ins, a[k]);

						/* rows of code inlined into it belong to that inline */
						if ((!own || own == in) && !entry_row(in, a[k]))
							add_cand(&cands, &nc, &cap_cands, a[k], in);
					}
					free(a);
				}
			} else if (pp->has_offset || pp->retprobe || in->inlined) {
				if (pp->retprobe && in->inlined) {
					pr_warning("Warning: %s is inlined at 0x%" PRIx64 ": no return to probe there\n",
						   pp->function, in->entry);
					continue;
				}
				add_cand(&cands, &nc, &cap_cands, in->entry + pp->offset, in);
			} else {
				add_cand(&cands, &nc, &cap_cands, func_site(in, nargs), in);
			}
		}
		if (!nc) {
			if (pp->rel_line >= 0)
				pr_err("Error: no code for line %d of %s (%s:%d) in %s (see perf probe -L %s)\n",
				       pp->rel_line, pp->function, ins.v[0].decl_file,
				       ins.v[0].decl_line + pp->rel_line, s.debugfile, pp->function);
			else if (pp->lazy)
				pr_err("Error: no line of %s matches '%s'\n", pp->function, pp->lazy);
			else
				pr_err("Error: nothing to probe for %s (all copies inlined?)\n", pp->function);
			goto out;
		}
	}
	for (size_t i = 0; i < nc; i++) {
		struct instance *in = cands[i].in;
		struct probe_site site = { .addr = cands[i].addr, .inlined = in->inlined };
		struct site_ctx sc = { .s = &s, .addr = cands[i].addr, .retprobe = pp->retprobe,
				       .func = &in->die };
		Dwarf_Die frame_die;
		int frame_idx;
		char where[300];

		site.func = xstrdup(dwarf_diename(&in->die));
		site.func_off = site.addr - in->entry;
		if (session__offset(&s, site.addr, &site.offset) < 0) {
			pr_err("Error: 0x%" PRIx64 " is not in a loaded segment of %s\n", site.addr, binary);
			free(site.func);
			goto out;
		}
		snprintf(where, sizeof(where), "%s+%" PRIu64, site.func, site.func_off);
		sc.where = where;
		sc.nscopes = site_scopes(in, site.addr, &sc.scopes, &sc.fn_idx, &frame_idx);
		if (sc.nscopes < 0) {
			pr_err("Error: no DWARF scope at 0x%" PRIx64 "\n", site.addr);
			free(site.func);
			goto out;
		}
		sc.frame_fn = frame_idx >= 0 ? &sc.scopes[frame_idx] : NULL;
		if (!sc.frame_fn && out_of_line(&in->cu, site.addr, &frame_die))
			sc.frame_fn = &frame_die;
		ret = build_args(&sc, args, nargs, &site.args);
		if (ret < 0) {
			free(sc.scopes);
			free(site.func);
			goto out;
		}
		ret = -ENOENT;
		free(sc.scopes);
		*ARRAY_PUSH(out->v, out->nr, out->cap) = site;
	}
	{
		const char *fn = pp->function ? pp->function : out->v[0].func;
		size_t n = strcspn(fn, ".@");

		if (pp->retprobe)
			out->event = xasprintf("%.*s__return", (int)n, fn);
		else if (pp->rel_line > 0)   /* FUNC:0 is FUNC, named so by perf 6.1 */
			out->event = xasprintf("%.*s_L%d", (int)n, fn, pp->rel_line);
		else
			out->event = xasprintf("%.*s", (int)n, fn);
	}
	out->debugfile = xstrdup(s.debugfile);
	ret = 0;
out:
	if (ret)
		probe_sites__exit(out);
	free(cands);
	free(ins.v);
	session__close(&s);
	return ret;
}

/* ---- -L ---- */

void probe_lines__exit(struct probe_lines *l)
{
	free(l->file);
	free(l->func);
	free(l->ok);
	memset(l, 0, sizeof(*l));
}

/* rows of @file in @cu with line in [from, to] and address in @die (any when NULL) */
/* a file listing numbers a function's entry row by its declaration line, as perf 6.1 does */
static int entry_decl_line(Dwarf_Die *cu, uint64_t addr, int ln)
{
	Dwarf_Die c;
	Dwarf_Addr lo;
	int decl;

	if (dwarf_child(cu, &c) != 0)
		return ln;
	do {
		if (dwarf_tag(&c) == DW_TAG_subprogram && dwarf_lowpc(&c, &lo) == 0 && lo == addr &&
		    dwarf_decl_line(&c, &decl) == 0)
			return decl;
	} while (dwarf_siblingof(&c, &c) == 0);
	return ln;
}

static void mark_lines(Dwarf_Die *cu, Dwarf_Die *die, uint64_t entry, int decl, const char *file,
		       struct probe_lines *out)
{
	Dwarf_Lines *lines;
	size_t n;

	uint64_t prev = UINT64_MAX;

	if (dwarf_getsrclines(cu, &lines, &n) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		int ln;
		bool endseq = false, stmt = false, first;

		if (!l || dwarf_lineaddr(l, &a) || dwarf_lineno(l, &ln))
			continue;
		dwarf_lineendsequence(l, &endseq);
		dwarf_linebeginstatement(l, &stmt);
		/* as perf lists: a line counts where it is the first statement of an address */
		first = a != prev;
		if (stmt)
			prev = a;
		if (endseq || !stmt || !first || !dwarf_src__matches(dwarf_linesrc(l, NULL, NULL), file))
			continue;
		if (die && !dwarf_die__has_addr(die, a))
			continue;
		/* the row at an out-of-line entry is where FUNC (line 0) probes */
		if (die && a == entry && dwarf_tag(die) == DW_TAG_subprogram)
			ln = decl;
		else if (!die)
			ln = entry_decl_line(cu, a, ln);
		if (ln >= out->start && ln <= out->end)
			out->ok[ln - out->start] = true;
	}
}

/* the number of lines of source @path (at least @min), for FILE:START listings */
static int source_lines(const char *path, int min)
{
	FILE *f = path ? fopen(path, "r") : NULL;
	int n = 0, c, last = '\n';

	if (!f)
		return min;
	while ((c = getc(f)) != EOF) {
		if (c == '\n')
			n++;
		last = c;
	}
	fclose(f);
	if (last != '\n')
		n++;
	return n > min ? n : min;
}

int probe_finder__lines(const char *binary, const char *spec, struct probe_lines *out)
{
	struct pf_session s;
	struct instances ins = { 0 };
	char *copy = xstrdup(spec), *colon = strchr(copy, ':'), *at;
	int from = -1, to = -1, ret = -1;

	memset(out, 0, sizeof(*out));
	if (colon) {
		char *end;

		*colon = '\0';
		from = (int)strtol(colon + 1, &end, 10);
		if (*end == '-')
			to = (int)strtol(end + 1, &end, 10);
		else if (*end == '+')
			to = from + (int)strtol(end + 1, &end, 10);
		else
			to = *end ? -1 : -2;
		if (*end || from < 0 || (to != -2 && to < from)) {
			pr_err("Error: bad line range '%s'\n", spec);
			free(copy);
			return -1;
		}
	}
	if (session__open(&s, binary) < 0) {
		free(copy);
		return -1;
	}
	at = strchr(copy, '@');
	if (at)
		*at++ = '\0';   /* FUNC@FILE: the function of that source file */
	if (!at && (strchr(copy, '.') || strchr(copy, '/'))) {
		/* FILE:START[-END] */
		Dwarf_Off off = 0, next;
		size_t hsize;

		if (from <= 0) {
			pr_err("Error: a file range needs FILE:START[-END]\n");
			goto out;
		}
		char *abs = NULL;

		out->start = from;
		while (dwarf_nextcu(s.dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
			Dwarf_Die cu;
			Dwarf_Files *files;
			size_t nf;

			if (dwarf_offdie(s.dw, off + hsize, &cu) && dwarf_getsrcfiles(&cu, &files, &nf) == 0)
				for (size_t i = 0; i < nf; i++) {
					const char *f = dwarf_filesrc(files, i, NULL, NULL);

					if (f && dwarf_src__matches(f, copy) && !out->file) {
						out->file = xstrdup(f);
						abs = abs_src(&cu, f);
					}
				}
			if (out->file && !out->ok) {
				/* FILE:START alone runs to the end of the file, as perf 6.1 lists it */
				out->end = to == -2 ? source_lines(abs, from) : to;
				out->show_end = out->end;
				out->ok = xzalloc((size_t)(out->end - out->start + 1) * sizeof(bool));
			}
			if (out->file)
				mark_lines(&cu, NULL, 0, 0, out->file, out);
			off = next;
		}
		if (!out->file) {
			pr_err("Error: source file %s not in the DWARF of %s\n", copy, s.debugfile);
			goto out;
		}
		free(out->file);
		out->file = abs;
		ret = 0;
		goto out;
	}
	find_instances(&s, copy, at, &ins);
	{
		struct instance *in = NULL;

		for (size_t i = 0; i < ins.nr && !in; i++)
			if (!ins.v[i].inlined)
				in = &ins.v[i];
		if (!in && ins.nr)
			in = &ins.v[0];
		if (!in) {
			pr_err("Error: function '%s' not found in the DWARF of %s\n", copy, s.debugfile);
			goto out;
		}
		out->func = xstrdup(copy);
		out->file = xstrdup(in->decl_file ? in->decl_file : "?");
		out->base = in->decl_line;
		out->start = in->decl_line + (from > 0 ? from : 0);
		/* FUNC:START alone runs to the function's end, as perf 6.1 lists it */
		out->end = to >= 0 ? in->decl_line + to : last_line(in);
		if (out->end < out->start)
			out->end = out->start;
		out->ok = xzalloc((size_t)(out->end - out->start + 1) * sizeof(bool));
		/* every copy of the function (out-of-line and inlined) */
		for (size_t i = 0; i < ins.nr; i++)
			mark_lines(&ins.v[i].cu, &ins.v[i].die, ins.v[i].entry, ins.v[i].decl_line,
				   out->file, out);
		/* like perf, a whole-function listing shows 3 lines after the last probe-able one */
		out->show_end = out->end;
		if (to < 0) {
			for (int ln = out->end; ln >= out->start; ln--)
				if (out->ok[ln - out->start]) {
					out->show_end = ln + 3;
					break;
				}
		}
		{
			char *f = abs_src(&in->cu, out->file);

			free(out->file);
			out->file = f;
		}
	}
	ret = 0;
out:
	if (ret)
		probe_lines__exit(out);
	free(ins.v);
	free(copy);
	session__close(&s);
	return ret;
}

/* ---- -V ---- */

void probe_vars__exit(struct probe_vars *v)
{
	for (size_t i = 0; i < v->nr; i++) {
		for (size_t k = 0; k < v->sites[i].nr; k++) {
			free(v->sites[i].v[k].type);
			free(v->sites[i].v[k].name);
			free(v->sites[i].v[k].why);
		}
		free(v->sites[i].v);
		free(v->sites[i].where);
	}
	free(v->sites);
	free(v->point);
	memset(v, 0, sizeof(*v));
}

static int var_cmp(const void *a, const void *b)
{
	const struct probe_var *x = a, *y = b;
	int c = strcmp(x->type, y->type);

	return c ? c : strcmp(x->name, y->name);
}

/* Is variable @d fetchable at the site? NULL or the reason (malloc'ed). */
static char *var_why(struct site_ctx *sc, Dwarf_Die *d)
{
	struct dwarf_loc_ctx ec = { .cfi = { sc->s->cfi_debug, sc->s->cfi_eh }, .addr = sc->addr, .frame_fn = sc->frame_fn };
	struct dwarf_loc l;
	char *why = NULL;

	session__bias(sc->s, sc->addr, &ec.bias);
	if (dwarf_loc__of_var(&ec, d, &l) < 0)
		return ec.why;
	if (l.kind == DWARF_LOC_NONE)
		why = xstrdup(OPTIMISED_OUT);
	dwarf_loc__exit(&l);
	return why;
}

static void vars_of(struct site_ctx *sc, Dwarf_Die *scope, bool globals, struct probe_vars_site *vs)
{
	Dwarf_Die c;

	if (dwarf_child(scope, &c) != 0)
		return;
	do {
		int tag = dwarf_tag(&c);
		const char *n;
		Dwarf_Die t;
		struct probe_var v;

		if (tag != DW_TAG_variable && tag != DW_TAG_formal_parameter)
			continue;
		n = dwarf_diename(&c);
		if (!n)
			continue;
		if (globals && !dwarf_hasattr(&c, DW_AT_location) && !dwarf_hasattr(&c, DW_AT_const_value) &&
		    !find_global_def(sc->s, n, &c))
			continue;
		v.why = var_why(sc, &c);
		if (v.why && !strcmp(v.why, OPTIMISED_OUT)) {
			/* no value at this place at all: perf 6.1 leaves it out too */
			free(v.why);
			continue;
		}
		v.name = xstrdup(n);
		v.type = dwarf_type__name(dwarf_type__of(&c, &t) ? &t : NULL);
		*ARRAY_PUSH(vs->v, vs->nr, vs->cap) = v;
	} while (dwarf_siblingof(&c, &c) == 0);
}

int probe_finder__vars(const char *binary, const struct probe_point *pp, bool externs,
		       struct probe_vars *out)
{
	struct probe_sites sites;
	struct pf_session s;
	struct instances ins;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	/* the sites first (no arguments), then the scopes at each */
	if (probe_finder__find(binary, pp, NULL, 0, &sites) < 0)
		return -1;
	if (session__open(&s, binary) < 0) {
		probe_sites__exit(&sites);
		return -1;
	}
	find_instances(&s, NULL, NULL, &ins);
	for (size_t i = 0; i < sites.nr; i++) {
		struct probe_vars_site vs = { 0 };
		struct instance *in = owner(&ins, sites.v[i].addr);
		struct site_ctx sc = { .s = &s, .addr = sites.v[i].addr };
		Dwarf_Die frame_die;
		Dwarf_Addr outer_entry;
		int frame_idx;

		if (!in)
			continue;
		/* the site's own instance when the probe is on an inlined copy */
		for (size_t k = 0; k < ins.nr; k++)
			if (ins.v[k].entry == sites.v[i].addr - sites.v[i].func_off &&
			    !strcmp(dwarf_diename(&ins.v[k].die), sites.v[i].func) &&
			    dwarf_die__has_addr(&ins.v[k].die, sites.v[i].addr))
				in = &ins.v[k];
		/* named as perf does: an inlined copy by its place in the caller, FUNC[+OFF] by the request */
		if (sites.v[i].inlined && out_of_line(&in->cu, sc.addr, &frame_die) &&
		    dwarf_entrypc(&frame_die, &outer_entry) == 0)
			vs.where = xasprintf("%s+%" PRIu64, dwarf_diename(&frame_die), sc.addr - outer_entry);
		else if (pp->function && pp->rel_line < 0 && !pp->lazy)
			vs.where = xasprintf("%s+%" PRIu64, sites.v[i].func, pp->offset);
		else
			vs.where = xasprintf("%s+%" PRIu64, sites.v[i].func, sites.v[i].func_off);
		sc.where = vs.where;
		sc.nscopes = site_scopes(in, sc.addr, &sc.scopes, &sc.fn_idx, &frame_idx);
		if (sc.nscopes > 0) {
			sc.frame_fn = frame_idx >= 0 ? &sc.scopes[frame_idx] : NULL;
			if (!sc.frame_fn && out_of_line(&in->cu, sc.addr, &frame_die))
				sc.frame_fn = &frame_die;
			if (!pp->retprobe)
				for (int k = 0; k <= sc.fn_idx; k++)
					vars_of(&sc, &sc.scopes[k], false, &vs);
			if (externs)
				vars_of(&sc, &sc.scopes[sc.nscopes - 1], true, &vs);
			free(sc.scopes);
		}
		if (vs.nr)
			qsort(vs.v, vs.nr, sizeof(*vs.v), var_cmp);
		*ARRAY_PUSH(out->sites, out->nr, out->cap) = vs;
	}
	out->point = xstrdup(pp->function ? pp->function : pp->file);
	ret = 0;
	free(ins.v);
	session__close(&s);
	probe_sites__exit(&sites);
	return ret;
}
