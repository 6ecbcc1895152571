// SPDX-License-Identifier: MIT
/* DWARF location expressions to uprobe fetchargs, and the types they fetch: see dwarf-loc.h. */
#include <dwarf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf-loc.h"
#include "strbuf.h"
#include "util.h"
#include "x86-regs.h"

static const char *reg_name(unsigned int n)
{
	return x86_reg__from_dwarf(n);
}

void dwarf_loc__exit(struct dwarf_loc *l)
{
	free(l->addr.fetch);
	free(l->value);
	for (size_t i = 0; i < l->npieces; i++)
		dwarf_loc__exit(&l->pieces[i].loc);
	free(l->pieces);
	memset(l, 0, sizeof(*l));
}

static struct dwarf_sv sv_dup(const struct dwarf_sv *v)
{
	struct dwarf_sv r = *v;

	r.fetch = v->fetch ? xstrdup(v->fetch) : NULL;
	return r;
}

/* the fetcharg reading memory at address @v */
char *dwarf_sv__deref(const struct dwarf_sv *v, uint64_t bias)
{
	switch (v->kind) {
	case DWARF_SV_REG:
		return xasprintf("%s%" PRId64 "(%%%s)", v->k >= 0 ? "+" : "", v->k, reg_name(v->reg));
	case DWARF_SV_FETCH:
		return xasprintf("%s%" PRId64 "(%s)", v->k >= 0 ? "+" : "", v->k, v->fetch);
	case DWARF_SV_FILE:
		return xasprintf("@+0x%" PRIx64, (uint64_t)v->k - bias);
	default:
		return NULL;
	}
}


static const char *op_name(unsigned int atom)
{
	const char *n = NULL;

	switch (atom) {
	case DW_OP_plus: n = "+"; break;
	case DW_OP_minus: n = "-"; break;
	case DW_OP_mul: n = "*"; break;
	case DW_OP_and: n = "&"; break;
	case DW_OP_or: n = "|"; break;
	case DW_OP_xor: n = "^"; break;
	case DW_OP_shl: n = "<<"; break;
	case DW_OP_shr: n = ">>"; break;
	case DW_OP_shra: n = ">>"; break;
	case DW_OP_div: n = "/"; break;
	case DW_OP_mod: n = "%"; break;
	}
	return n;
}

static char *sv_text(const struct dwarf_sv *v)
{
	switch (v->kind) {
	case DWARF_SV_REG:
		return v->k ? xasprintf("%%%s %c %" PRId64, reg_name(v->reg), v->k < 0 ? '-' : '+',
					v->k < 0 ? -v->k : v->k) : xasprintf("%%%s", reg_name(v->reg));
	case DWARF_SV_FETCH:
		return v->k ? xasprintf("%s + %" PRId64, v->fetch, v->k) : xstrdup(v->fetch);
	case DWARF_SV_FILE:
		return xasprintf("&0x%" PRIx64, (uint64_t)v->k);
	default:
		return xasprintf("%" PRId64, v->k);
	}
}

static int frame_base(struct dwarf_loc_ctx *c, struct dwarf_sv *out);

/* Evaluates one piece-free expression. 0, or -1 with c->why. */
static int eval_simple(struct dwarf_loc_ctx *c, Dwarf_Op *ops, size_t n, struct dwarf_loc *out)
{
	struct dwarf_sv st[16];
	size_t sp = 0;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (n == 0) {
		out->kind = DWARF_LOC_NONE;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned int a = ops[i].atom;

		if (sp >= ARRAY_SIZE(st) - 1) {
			c->why = xstrdup("a DWARF expression too deep");
			goto out;
		}
		if ((a >= DW_OP_reg0 && a <= DW_OP_reg31) || a == DW_OP_regx) {
			unsigned int r = a == DW_OP_regx ? (unsigned int)ops[i].number : a - DW_OP_reg0;

			if (!reg_name(r)) {
				c->why = xasprintf("in DWARF register %u, which uprobes cannot read", r);
				goto out;
			}
			if (i + 1 != n) {
				c->why = xstrdup("a register location followed by more DWARF operations");
				goto out;
			}
			out->kind = DWARF_LOC_REG;
			out->reg = (int)r;
			ret = 0;
			goto out;
		}
		if ((a >= DW_OP_breg0 && a <= DW_OP_breg31) || a == DW_OP_bregx) {
			unsigned int r = a == DW_OP_bregx ? (unsigned int)ops[i].number : a - DW_OP_breg0;
			int64_t k = (int64_t)(a == DW_OP_bregx ? ops[i].number2 : ops[i].number);

			if (!reg_name(r)) {
				c->why = xasprintf("based on DWARF register %u, which uprobes cannot read", r);
				goto out;
			}
			st[sp++] = (struct dwarf_sv){ .kind = DWARF_SV_REG, .reg = (int)r, .k = k };
			continue;
		}
		if (a >= DW_OP_lit0 && a <= DW_OP_lit31) {
			st[sp++] = (struct dwarf_sv){ .kind = DWARF_SV_CONST, .k = a - DW_OP_lit0 };
			continue;
		}
		switch (a) {
		case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u: case DW_OP_const8u:
		case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s: case DW_OP_const8s:
		case DW_OP_constu: case DW_OP_consts:
			st[sp++] = (struct dwarf_sv){ .kind = DWARF_SV_CONST, .k = (int64_t)ops[i].number };
			continue;
		case DW_OP_addr:
			st[sp++] = (struct dwarf_sv){ .kind = DWARF_SV_FILE, .k = (int64_t)ops[i].number };
			continue;
		case DW_OP_fbreg: {
			struct dwarf_sv fb;

			if (frame_base(c, &fb) < 0)
				goto out;
			fb.k += (int64_t)ops[i].number;
			st[sp++] = fb;
			continue;
		}
		case DW_OP_call_frame_cfa:
			if (frame_base(c, &st[sp]) < 0)
				goto out;
			sp++;
			continue;
		case DW_OP_plus_uconst:
			if (!sp)
				break;
			st[sp - 1].k += (int64_t)ops[i].number;
			continue;
		case DW_OP_deref: {
			char *f;

			if (!sp || st[sp - 1].kind == DWARF_SV_CONST) {
				c->why = xstrdup("read through a constant address");
				goto out;
			}
			f = dwarf_sv__deref(&st[sp - 1], c->bias);
			free(st[sp - 1].fetch);
			st[sp - 1] = (struct dwarf_sv){ .kind = DWARF_SV_FETCH, .fetch = f };
			continue;
		}
		case DW_OP_plus:
		case DW_OP_minus:
			if (sp < 2)
				break;
			if (st[sp - 1].kind == DWARF_SV_CONST ||
			    (a == DW_OP_plus && st[sp - 2].kind == DWARF_SV_CONST)) {
				struct dwarf_sv x = st[sp - 2], y = st[sp - 1];

				if (x.kind == DWARF_SV_CONST) {
					struct dwarf_sv t = x;

					x = y;
					y = t;
				}
				x.k += a == DW_OP_plus ? y.k : -y.k;
				sp -= 2;
				st[sp++] = x;
				continue;
			}
			/* two run-time values */
			/* fall through */
		default: {
			const char *on = op_name(a);

			if (a == DW_OP_entry_value || a == DW_OP_GNU_entry_value) {
				c->why = xstrdup("known only as its value at function entry "
						 "(DW_OP_entry_value), which uprobes cannot fetch here");
			} else if (a == DW_OP_GNU_parameter_ref) {
				c->why = xstrdup("known only through the caller (DW_OP_GNU_parameter_ref)");
			} else if (on && sp >= 2) {
				char *x = sv_text(&st[sp - 2]), *y = sv_text(&st[sp - 1]);

				c->why = xasprintf("computed as (%s %s %s), which uprobes cannot evaluate",
						   x, on, y);
				free(x);
				free(y);
			} else {
				c->why = xasprintf("computed by DWARF operation 0x%x, which uprobes cannot "
						   "evaluate", a);
			}
			goto out;
		}
		}
		c->why = xasprintf("a malformed DWARF expression (op 0x%x)", a);
		goto out;
	}
	if (!sp) {
		c->why = xstrdup("an empty DWARF expression");
		goto out;
	}
	ret = 0;
	{
		struct dwarf_sv *top = &st[sp - 1];

		out->kind = DWARF_LOC_MEM;
		out->addr = sv_dup(top);
	}
out:
	for (size_t i = 0; i < sp; i++)
		free(st[i].fetch);
	return ret;
}

/* frame base of c->frame_fn at c->addr as "register + k" */
static int frame_base(struct dwarf_loc_ctx *c, struct dwarf_sv *out)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;

	if (!c->frame_fn || !dwarf_attr(c->frame_fn, DW_AT_frame_base, &a) ||
	    dwarf_getlocation_addr(&a, c->addr, &ops, &n, 1) <= 0 || n != 1) {
		c->why = xstrdup("relative to a frame base that is unknown here");
		return -1;
	}
	if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg15) {
		*out = (struct dwarf_sv){ .kind = DWARF_SV_REG, .reg = ops[0].atom - DW_OP_breg0,
				    .k = (int64_t)ops[0].number };
		return 0;
	}
	if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg15) {
		*out = (struct dwarf_sv){ .kind = DWARF_SV_REG, .reg = ops[0].atom - DW_OP_reg0 };
		return 0;
	}
	if (ops[0].atom == DW_OP_call_frame_cfa) {
		for (int i = 0; i < 2; i++) {
			Dwarf_Frame *fr;
			Dwarf_Op *cops;
			size_t cn;

			if (!c->cfi[i] || dwarf_cfi_addrframe(c->cfi[i], c->addr, &fr) != 0)
				continue;
			/* libdw gives a register + offset rule as DW_OP_bregx REG OFF */
			if (dwarf_frame_cfa(fr, &cops, &cn) == 0 && cn == 1 &&
			    ((cops[0].atom >= DW_OP_breg0 && cops[0].atom <= DW_OP_breg15) ||
			     (cops[0].atom == DW_OP_bregx && reg_name((unsigned int)cops[0].number)))) {
				bool x = cops[0].atom == DW_OP_bregx;

				*out = (struct dwarf_sv){ .kind = DWARF_SV_REG,
						    .reg = x ? (int)cops[0].number : cops[0].atom - DW_OP_breg0,
						    .k = (int64_t)(x ? cops[0].number2 : cops[0].number) };
				free(fr);
				return 0;
			}
			free(fr);
		}
		c->why = xstrdup("relative to the CFA, which the CFI does not give as register + offset here");
		return -1;
	}
	c->why = xstrdup("relative to a frame base expression uprobes cannot evaluate");
	return -1;
}

/* value-producing expressions end with DW_OP_stack_value */
static int eval_expr(struct dwarf_loc_ctx *c, Dwarf_Op *ops, size_t n, struct dwarf_loc *out)
{
	bool value = n && ops[n - 1].atom == DW_OP_stack_value;

	if (eval_simple(c, ops, value ? n - 1 : n, out) < 0)
		return -1;
	if (value && out->kind == DWARF_LOC_REG) {
		c->why = xstrdup("a malformed DWARF expression (register then DW_OP_stack_value)");
		dwarf_loc__exit(out);
		return -1;
	}
	if (!value || out->kind != DWARF_LOC_MEM)
		return 0;
	{
		struct dwarf_sv v = out->addr;

		out->addr.fetch = NULL;
		dwarf_loc__exit(out);
		if (v.kind == DWARF_SV_CONST) {
			out->kind = DWARF_LOC_IMM;
			out->imm = (uint64_t)v.k;
		} else if (v.kind == DWARF_SV_REG && v.k == 0) {
			out->kind = DWARF_LOC_REG;
			out->reg = v.reg;
		} else if (v.kind == DWARF_SV_FETCH && v.k == 0) {
			out->kind = DWARF_LOC_VALUE;
			out->value = v.fetch;
			v.fetch = NULL;
		} else {
			char *t = sv_text(&v);

			c->why = v.kind == DWARF_SV_FILE ?
				xasprintf("the address 0x%" PRIx64 " itself (a constant pointer), which uprobes "
					  "cannot relocate", (uint64_t)v.k) :
				xasprintf("computed as (%s), which uprobes cannot evaluate", t);
			free(t);
			free(v.fetch);
			return -1;
		}
		free(v.fetch);
	}
	return 0;
}

/* A full location expression, pieces included. */
static int eval_location(struct dwarf_loc_ctx *c, Dwarf_Attribute *attr, Dwarf_Op *ops, size_t n,
			 struct dwarf_loc *out)
{
	size_t start = 0;
	bool has_piece = false;

	for (size_t i = 0; i < n; i++)
		if (ops[i].atom == DW_OP_piece || ops[i].atom == DW_OP_bit_piece)
			has_piece = true;
	if (!has_piece) {
		if (n >= 1 && ops[0].atom == DW_OP_implicit_value) {
			Dwarf_Block b;

			memset(out, 0, sizeof(*out));
			if (dwarf_getlocation_implicit_value(attr, &ops[0], &b) != 0 || b.length > 8) {
				c->why = xstrdup("an implicit value larger than 8 bytes");
				return -1;
			}
			out->kind = DWARF_LOC_IMM;
			for (size_t i = 0; i < b.length; i++)
				out->imm |= (uint64_t)b.data[i] << (8 * i);
			return 0;
		}
		return eval_expr(c, ops, n, out);
	}
	memset(out, 0, sizeof(*out));
	out->kind = DWARF_LOC_PIECES;
	for (size_t i = 0; i < n; i++) {
		struct dwarf_piece p = { 0 };

		if (ops[i].atom != DW_OP_piece && ops[i].atom != DW_OP_bit_piece)
			continue;
		if (ops[i].atom == DW_OP_bit_piece) {
			c->why = xstrdup("split into bit pieces");
			dwarf_loc__exit(out);
			return -1;
		}
		p.size = ops[i].number;
		if (i - start >= 1 && ops[start].atom == DW_OP_implicit_value) {
			Dwarf_Block b;

			p.loc.kind = DWARF_LOC_IMM;
			if (dwarf_getlocation_implicit_value(attr, &ops[start], &b) == 0 && b.length <= 8)
				for (size_t j = 0; j < b.length; j++)
					p.loc.imm |= (uint64_t)b.data[j] << (8 * j);
			else
				p.loc.kind = DWARF_LOC_NONE;
		} else if (eval_expr(c, ops + start, i - start, &p.loc) < 0) {
			/* an unusable piece only matters if it is read */
			free(c->why);
			c->why = NULL;
			p.loc.kind = DWARF_LOC_NONE;
		}
		*ARRAY_PUSH(out->pieces, out->npieces, out->cap_pieces) = p;
		start = i + 1;
	}
	return 0;
}

/* The location of variable @var at c->addr; DWARF_LOC_NONE when optimised out. */
int dwarf_loc__of_var(struct dwarf_loc_ctx *c, Dwarf_Die *var, struct dwarf_loc *out)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;
	int r;

	memset(out, 0, sizeof(*out));
	if (dwarf_attr(var, DW_AT_const_value, &a)) {
		Dwarf_Word u;
		Dwarf_Sword sv;
		Dwarf_Block b;

		out->kind = DWARF_LOC_IMM;
		if (dwarf_whatform(&a) == DW_FORM_sdata && dwarf_formsdata(&a, &sv) == 0)
			out->imm = (uint64_t)sv;
		else if (dwarf_formudata(&a, &u) == 0)
			out->imm = u;
		else if (dwarf_formblock(&a, &b) == 0 && b.length <= 8)
			for (size_t i = 0; i < b.length; i++)
				out->imm |= (uint64_t)b.data[i] << (8 * i);
		else {
			c->why = xstrdup("a constant larger than 8 bytes");
			return -1;
		}
		return 0;
	}
	if (!dwarf_attr(var, DW_AT_location, &a)) {
		out->kind = DWARF_LOC_NONE;
		return 0;
	}
	r = dwarf_getlocation_addr(&a, c->addr, &ops, &n, 1);
	if (r < 0) {
		c->why = xasprintf("a location libdw cannot read: %s", dwarf_errmsg(-1));
		return -1;
	}
	if (r == 0 || n == 0) {
		out->kind = DWARF_LOC_NONE;
		return 0;
	}
	return eval_location(c, &a, ops, n, out);
}

/* moves an lvalue @byte bytes further (member, element) and narrows it */
int dwarf_loc__advance(struct dwarf_loc *l, uint64_t byte, uint64_t size, const char *what,
		       char **why)
{
	switch (l->kind) {
	case DWARF_LOC_MEM:
		l->addr.k += (int64_t)byte;
		return 0;
	case DWARF_LOC_REG:
		if (byte + size > 8) {
			*why = xasprintf("%s lies beyond the register holding it", what);
			return -1;
		}
		l->bitoff += (int)(byte * 8);
		return 0;
	case DWARF_LOC_IMM:
		l->imm >>= byte * 8;
		if (size < 8)
			l->imm &= (1ULL << (size * 8)) - 1;
		return 0;
	case DWARF_LOC_PIECES: {
		uint64_t at = 0;

		for (size_t i = 0; i < l->npieces; i++) {
			struct dwarf_piece *p = &l->pieces[i];

			if (byte >= at && byte + size <= at + p->size) {
				struct dwarf_loc sub = p->loc;

				if (sub.kind == DWARF_LOC_NONE) {
					*why = xasprintf("%s is optimised out here", what);
					return -1;
				}
				p->loc = (struct dwarf_loc){ .kind = DWARF_LOC_NONE };
				dwarf_loc__exit(l);
				*l = sub;
				return dwarf_loc__advance(l, byte - at, size, what, why);
			}
			at += p->size;
		}
		*why = xasprintf("%s is not in one piece of its register-held struct", what);
		return -1;
	}
	case DWARF_LOC_VALUE:
		if (byte == 0)
			return 0;
		*why = xasprintf("%s is part of a computed value uprobes cannot split", what);
		return -1;
	default:
		*why = xasprintf("%s is optimised out here", what);
		return -1;
	}
}

/* the fetcharg giving the value of a pointer-sized scalar location */
char *dwarf_loc__value(const struct dwarf_loc *l, uint64_t bias, char **why, const char *what)
{
	switch (l->kind) {
	case DWARF_LOC_MEM:
		return dwarf_sv__deref(&l->addr, bias);
	case DWARF_LOC_REG:
		if (l->bitoff) {
			*why = xasprintf("%s is a pointer in the upper bits of %%%s", what, reg_name(l->reg));
			return NULL;
		}
		return xasprintf("%%%s", reg_name(l->reg));
	case DWARF_LOC_VALUE:
		return xstrdup(l->value);
	case DWARF_LOC_IMM:
		*why = xasprintf("%s is the constant 0x%" PRIx64 ", not an address uprobes can follow",
				 what, l->imm);
		return NULL;
	default:
		*why = xasprintf("%s is optimised out here", what);
		return NULL;
	}
}

/* ---- types ---- */

Dwarf_Die *dwarf_type__strip_cv(Dwarf_Die *t, Dwarf_Die *buf)
{
	Dwarf_Attribute a;

	while (t) {
		int tag = dwarf_tag(t);

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
		    tag != DW_TAG_restrict_type && tag != DW_TAG_atomic_type)
			return t;
		if (!dwarf_attr_integrate(t, DW_AT_type, &a) || !dwarf_formref_die(&a, buf))
			return NULL;  /* void */
		t = buf;
	}
	return NULL;
}

bool dwarf_type__of(Dwarf_Die *d, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(d, DW_AT_type, &a) && dwarf_formref_die(&a, out);
}

/* "int", "char*", "struct point", "const char*" for -V */
char *dwarf_type__name(Dwarf_Die *t)
{
	Dwarf_Die sub;
	const char *n;
	char *inner, *r;

	if (!t)
		return xstrdup("void");
	n = dwarf_diename(t);
	switch (dwarf_tag(t)) {
	case DW_TAG_pointer_type:
		inner = dwarf_type__name(dwarf_type__of(t, &sub) ? &sub : NULL);
		r = xasprintf("%s*", inner);
		free(inner);
		return r;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
		inner = dwarf_type__name(dwarf_type__of(t, &sub) ? &sub : NULL);
		r = xasprintf("%s %s", dwarf_tag(t) == DW_TAG_const_type ? "const" : "volatile", inner);
		free(inner);
		return r;
	case DW_TAG_structure_type:
		return xasprintf("struct %s", n ? n : "(anon)");
	case DW_TAG_union_type:
		return xasprintf("union %s", n ? n : "(anon)");
	case DW_TAG_enumeration_type:
		return xasprintf("enum %s", n ? n : "(anon)");
	case DW_TAG_array_type: {
		Dwarf_Die sr;
		Dwarf_Word cnt = 0;
		Dwarf_Attribute a;

		inner = dwarf_type__name(dwarf_type__of(t, &sub) ? &sub : NULL);
		if (dwarf_child(t, &sr) == 0 && dwarf_attr(&sr, DW_AT_upper_bound, &a) &&
		    dwarf_formudata(&a, &cnt) == 0)
			r = xasprintf("%s[%" PRIu64 "]", inner, (uint64_t)cnt + 1);
		else
			r = xasprintf("%s[]", inner);
		free(inner);
		return r;
	}
	default:
		return xstrdup(n ? n : "(unknown)");
	}
}

/* fetch type of a scalar: s32, u64 ...; NULL for aggregates */
const char *dwarf_type__fetch(Dwarf_Die *t, int *size)
{
	static const char *const st[] = { "s8", "s16", "s32", "s64" };
	static const char *const ut[] = { "u8", "u16", "u32", "u64" };
	Dwarf_Die buf;
	Dwarf_Attribute a;
	Dwarf_Word enc = 0;
	int sz, idx;

	t = dwarf_type__strip_cv(t, &buf);
	if (!t)
		return NULL;
	switch (dwarf_tag(t)) {
	case DW_TAG_pointer_type:
		*size = 8;
		return "x64";   /* addresses in hex, as perf 6.1 types them */
	case DW_TAG_base_type:
	case DW_TAG_enumeration_type:
		break;
	default:
		return NULL;
	}
	sz = dwarf_bytesize(t);
	switch (sz) {
	case 1: idx = 0; break;
	case 2: idx = 1; break;
	case 4: idx = 2; break;
	case 8: idx = 3; break;
	default: return NULL;
	}
	*size = sz;
	if (dwarf_attr_integrate(t, DW_AT_encoding, &a))
		dwarf_formudata(&a, &enc);
	if (dwarf_tag(t) == DW_TAG_enumeration_type)
		enc = DW_ATE_signed;
	if (enc == DW_ATE_float)
		return idx == 2 ? "x32" : idx == 3 ? "x64" : NULL;
	return enc == DW_ATE_signed || enc == DW_ATE_signed_char ? st[idx] : ut[idx];
}

/* ---- struct members ---- */

int dwarf_type__member(Dwarf_Die *st, const char *name, Dwarf_Die *mem, uint64_t *off)
{
	Dwarf_Die c;

	if (dwarf_child(st, &c) != 0)
		return -1;
	do {
		const char *n;
		Dwarf_Attribute a;
		Dwarf_Word o = 0;

		if (dwarf_tag(&c) != DW_TAG_member)
			continue;
		n = dwarf_diename(&c);
		if (!n) {
			/* anonymous struct/union member: look inside */
			Dwarf_Die t, tb, *tt;
			uint64_t inner;

			if (dwarf_type__of(&c, &t) && (tt = dwarf_type__strip_cv(&t, &tb)) &&
			    dwarf_type__member(tt, name, mem, &inner) == 0) {
				if (dwarf_attr(&c, DW_AT_data_member_location, &a))
					dwarf_formudata(&a, &o);
				*off = o + inner;
				return 0;
			}
			continue;
		}
		if (strcmp(n, name))
			continue;
		if (dwarf_hasattr(&c, DW_AT_bit_size))
			return -2;
		if (dwarf_attr(&c, DW_AT_data_member_location, &a) && dwarf_formudata(&a, &o) != 0)
			return -1;
		*mem = c;
		*off = o;
		return 0;
	} while (dwarf_siblingof(&c, &c) == 0);
	return -1;
}
