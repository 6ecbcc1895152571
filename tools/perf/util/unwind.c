// SPDX-License-Identifier: MIT
/*
 * DWARF CFI unwinding of user stack copies; see unwind.h for the design and
 * why libdw's CFI interface is used rather than libdwfl or libunwind.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "debug.h"
#include "unwind.h"
#include "util.h"

/* DWARF register numbers of x86-64 (psABI) */
enum {
	DW_RAX, DW_RDX, DW_RCX, DW_RBX, DW_RSI, DW_RDI, DW_RBP, DW_RSP,
	DW_R8, DW_R9, DW_R10, DW_R11, DW_R12, DW_R13, DW_R14, DW_R15,
	DW_RIP, DW_NREGS
};

/* PERF_REG_X86_* index of each DWARF register */
static const int dwarf_to_perf[DW_NREGS] = {
	0 /* AX */, 3 /* DX */, 2 /* CX */, 1 /* BX */, 4 /* SI */, 5 /* DI */, 6 /* BP */, 7 /* SP */,
	16, 17, 18, 19, 20, 21, 22, 23 /* R8..R15 */, 8 /* IP */,
};
#define PERF_REG_SP 7
#define PERF_REG_IP 8

/* The registers a caller's frame needs back: the callee-saved ones and the
 * return address. Caller-saved registers are dead across a call anyway. */
static const int tracked_regs[] = { DW_RBX, DW_RBP, DW_R12, DW_R13, DW_R14, DW_R15, DW_RIP };
#define NR_TRACKED ARRAY_SIZE(tracked_regs)

struct regs {
	uint64_t v[DW_NREGS];
	uint32_t valid;              /* bit per DWARF register */
};

/* What is known about the stack: the copy starts at the sampled SP. */
struct stack_copy {
	uint64_t base;
	const unsigned char *data;
	uint64_t len;
};

enum rule_kind {
	RULE_UNDEF,                  /* not recoverable */
	RULE_SAME,                   /* unchanged by this frame */
	RULE_AT_CFA,                 /* saved at CFA + off */
	RULE_VAL_CFA,                /* value is CFA + off */
	RULE_REG,                    /* value is another register */
};

/* The CFI row at one address, reduced to what the walk needs. */
struct frame_rules {
	uint64_t addr;               /* lookup key (DSO address) */
	bool present;                /* the DSO has CFI for addr */
	bool complex;                /* DWARF expressions: evaluate each time */
	uint8_t cfa_reg;
	int64_t cfa_off;
	struct { uint8_t kind, reg; int64_t off; } reg[NR_TRACKED];
};

struct cfi_source {
	int fd;
	Elf *elf;
	Dwarf *dwarf;
	Dwarf_CFI *eh;               /* .eh_frame (dwarf_getcfi_elf) */
	Dwarf_CFI *debug;            /* .debug_frame (dwarf_getcfi) */
};

/* per DSO, on the DSO (dso__priv): freed with it, so never confused with a later one */
struct dso_unwind {
	struct dso *dso;
	struct cfi_source file, debuginfo;
	bool opened;
	struct frame_rules *rules;   /* open-addressing cache by address */
	size_t nrules, rules_cap;
};

static void cfi_source__open(struct cfi_source *src, const char *path)
{
	memset(src, 0, sizeof(*src));
	src->fd = -1;
	if (!path)
		return;
	src->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (src->fd < 0)
		return;
	elf_version(EV_CURRENT);
	src->elf = elf_begin(src->fd, ELF_C_READ_MMAP, NULL);
	if (!src->elf || elf_kind(src->elf) != ELF_K_ELF) {
		if (src->elf)
			elf_end(src->elf);
		src->elf = NULL;
		close(src->fd);
		src->fd = -1;
		return;
	}
	src->eh = dwarf_getcfi_elf(src->elf);
	src->dwarf = dwarf_begin_elf(src->elf, DWARF_C_READ, NULL);
	if (src->dwarf)
		src->debug = dwarf_getcfi(src->dwarf);
}

static void cfi_source__close(struct cfi_source *src)
{
	if (src->eh)
		dwarf_cfi_end(src->eh);
	if (src->dwarf)
		dwarf_end(src->dwarf);
	if (src->elf)
		elf_end(src->elf);
	if (src->fd >= 0)
		close(src->fd);
	memset(src, 0, sizeof(*src));
	src->fd = -1;
}

static void dso_unwind__free(void *data)
{
	struct dso_unwind *u = data;

	cfi_source__close(&u->file);
	cfi_source__close(&u->debuginfo);
	free(u->rules);
	free(u);
}

static const struct dso_priv_key unwind_key = { "unwind", dso_unwind__free };

static struct dso_unwind *dso_unwind__get(struct dso *dso)
{
	struct dso_unwind *u = dso__priv(dso, &unwind_key);

	if (u)
		return u;
	u = xzalloc(sizeof(*u));
	u->dso = dso;
	u->file.fd = u->debuginfo.fd = -1;
	dso__set_priv(dso, &unwind_key, u);
	return u;
}

static void dso_unwind__open(struct dso_unwind *u)
{
	struct dso *dso = u->dso;

	if (u->opened)
		return;
	u->opened = true;
	if (dso->kind == DSO_KIND_ELF)
		cfi_source__open(&u->file, dso->long_name);
	/* separate debuginfo / build-id cache copy: .debug_frame, or the
	 * .eh_frame of a file that is gone from its path */
	if (dso->symsrc && (dso->kind != DSO_KIND_ELF || strcmp(dso->symsrc, dso->long_name)))
		cfi_source__open(&u->debuginfo, dso->symsrc);
	pr_debug("unwind: %s: eh_frame %s, debug_frame %s\n", dso->long_name,
		 u->file.eh || u->debuginfo.eh ? "yes" : "no",
		 u->file.debug || u->debuginfo.debug ? "yes" : "no");
}

/* The CFI row for addr: the first table that covers it. Caller frees *frame. */
static bool dso_unwind__frame(struct dso_unwind *u, uint64_t addr, Dwarf_Frame **frame)
{
	Dwarf_CFI *tables[] = { u->file.eh, u->file.debug, u->debuginfo.eh, u->debuginfo.debug };

	for (size_t i = 0; i < ARRAY_SIZE(tables); i++)
		if (tables[i] && dwarf_cfi_addrframe(tables[i], addr, frame) == 0)
			return true;
	return false;
}

static bool is_breg(const Dwarf_Op *op, uint8_t *reg, int64_t *off)
{
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*reg = op->atom - DW_OP_breg0;
		*off = (int64_t)op->number;
		return *reg < DW_NREGS;
	}
	if (op->atom == DW_OP_bregx && op->number < DW_NREGS) {
		*reg = op->number;
		*off = (int64_t)op->number2;
		return true;
	}
	return false;
}

static bool is_reg(const Dwarf_Op *op, uint8_t *reg)
{
	if (op->atom >= DW_OP_reg0 && op->atom <= DW_OP_reg31)
		*reg = op->atom - DW_OP_reg0;
	else if (op->atom == DW_OP_regx)
		*reg = op->number;
	else
		return false;
	return *reg < DW_NREGS;
}

/* Reduces a CFI row to frame_rules; complex when an expression is not one
 * of the forms compilers emit for ordinary code. */
static void rules_from_frame(Dwarf_Frame *frame, struct frame_rules *r)
{
	Dwarf_Op *ops, mem[3];
	size_t nops;

	r->present = true;
	if (dwarf_frame_cfa(frame, &ops, &nops) || nops != 1 || !is_breg(&ops[0], &r->cfa_reg, &r->cfa_off))
		r->complex = true;
	for (size_t i = 0; i < NR_TRACKED; i++) {
		int64_t off = 0;
		uint8_t reg;

		r->reg[i].kind = RULE_UNDEF;
		if (dwarf_frame_register(frame, tracked_regs[i], mem, &ops, &nops)) {
			continue;
		}
		if (nops == 0) {
			r->reg[i].kind = ops ? RULE_UNDEF : RULE_SAME;
			continue;
		}
		if (ops[0].atom != DW_OP_call_frame_cfa) {
			if (nops == 1 && is_reg(&ops[0], &reg)) {
				r->reg[i].kind = RULE_REG;
				r->reg[i].reg = reg;
			} else {
				r->complex = true;
			}
			continue;
		}
		size_t k = 1;
		if (k < nops && ops[k].atom == DW_OP_plus_uconst)
			off = (int64_t)ops[k++].number;
		else if (k + 1 < nops && ops[k].atom == DW_OP_consts && ops[k + 1].atom == DW_OP_plus) {
			off = (int64_t)ops[k].number;
			k += 2;
		}
		if (k == nops) {
			r->reg[i].kind = RULE_AT_CFA;
		} else if (k + 1 == nops && ops[k].atom == DW_OP_stack_value) {
			r->reg[i].kind = RULE_VAL_CFA;
		} else {
			r->complex = true;
			continue;
		}
		r->reg[i].off = off;
	}
}

static struct frame_rules *dso_unwind__rules(struct dso_unwind *u, uint64_t addr)
{
	struct frame_rules *r;
	Dwarf_Frame *frame = NULL;
	size_t mask, h;

	if (u->nrules * 2 >= u->rules_cap) {
		size_t cap = u->rules_cap ? u->rules_cap * 2 : 256;
		struct frame_rules *nr = xzalloc(cap * sizeof(*nr));

		for (size_t i = 0; i < u->rules_cap; i++) {
			if (!u->rules[i].addr)
				continue;
			h = (u->rules[i].addr * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
			while (nr[h].addr)
				h = (h + 1) & (cap - 1);
			nr[h] = u->rules[i];
		}
		free(u->rules);
		u->rules = nr;
		u->rules_cap = cap;
	}
	mask = u->rules_cap - 1;
	/* address 0 is the empty-slot marker; nothing real unwinds from there */
	if (!addr)
		addr = 1;
	h = (addr * 0x9e3779b97f4a7c15ull >> 20) & mask;
	while (u->rules[h].addr && u->rules[h].addr != addr)
		h = (h + 1) & mask;
	r = &u->rules[h];
	if (r->addr)
		return r;
	memset(r, 0, sizeof(*r));
	r->addr = addr;
	u->nrules++;
	dso_unwind__open(u);
	if (dso_unwind__frame(u, addr, &frame))
		rules_from_frame(frame, r);
	free(frame);
	return r;
}

static bool stack_read(const struct stack_copy *st, uint64_t addr, uint64_t *val)
{
	if (addr < st->base || addr - st->base > st->len || st->len - (addr - st->base) < 8)
		return false;
	memcpy(val, st->data + (addr - st->base), 8);
	return true;
}

static bool reg_get(const struct regs *rs, unsigned reg, uint64_t *v)
{
	if (reg >= DW_NREGS || !(rs->valid & (1u << reg)))
		return false;
	*v = rs->v[reg];
	return true;
}

/* A DWARF expression of the CFI (DW_CFA_def_cfa_expression, DW_CFA_expression
 * and the val_ forms), as PLT stubs and hand-written assembly use them. */
static bool eval_expr(const Dwarf_Op *ops, size_t nops, const struct regs *rs, const struct stack_copy *st,
		      uint64_t cfa, bool push_cfa, uint64_t *result, bool *is_value)
{
	uint64_t stack[32];
	size_t sp = 0;
	uint8_t reg;
	int64_t off;

	*is_value = false;
	if (push_cfa)
		stack[sp++] = cfa;
	for (size_t i = 0; i < nops; i++) {
		const Dwarf_Op *op = &ops[i];
		uint64_t a, b;

		if (sp >= ARRAY_SIZE(stack) - 1)
			return false;
		if (is_breg(op, &reg, &off)) {
			if (!reg_get(rs, reg, &a))
				return false;
			stack[sp++] = a + off;
			continue;
		}
		if (op->atom >= DW_OP_lit0 && op->atom <= DW_OP_lit31) {
			stack[sp++] = op->atom - DW_OP_lit0;
			continue;
		}
		switch (op->atom) {
		case DW_OP_const1u: case DW_OP_const1s: case DW_OP_const2u: case DW_OP_const2s:
		case DW_OP_const4u: case DW_OP_const4s: case DW_OP_const8u: case DW_OP_const8s:
		case DW_OP_constu: case DW_OP_consts:
			stack[sp++] = op->number;
			continue;
		case DW_OP_call_frame_cfa:
			stack[sp++] = cfa;
			continue;
		case DW_OP_dup:
			if (!sp)
				return false;
			stack[sp] = stack[sp - 1];
			sp++;
			continue;
		case DW_OP_over:
			if (sp < 2)
				return false;
			stack[sp] = stack[sp - 2];
			sp++;
			continue;
		case DW_OP_drop:
			if (!sp)
				return false;
			sp--;
			continue;
		case DW_OP_swap:
			if (sp < 2)
				return false;
			a = stack[sp - 1];
			stack[sp - 1] = stack[sp - 2];
			stack[sp - 2] = a;
			continue;
		case DW_OP_deref:
			if (!sp || !stack_read(st, stack[sp - 1], &stack[sp - 1]))
				return false;
			continue;
		case DW_OP_plus_uconst:
			if (!sp)
				return false;
			stack[sp - 1] += op->number;
			continue;
		case DW_OP_neg:
			if (!sp)
				return false;
			stack[sp - 1] = -stack[sp - 1];
			continue;
		case DW_OP_not:
			if (!sp)
				return false;
			stack[sp - 1] = ~stack[sp - 1];
			continue;
		case DW_OP_nop:
			continue;
		case DW_OP_stack_value:
			*is_value = true;
			continue;
		default:
			break;
		}
		if (sp < 2)
			return false;
		b = stack[--sp];
		a = stack[sp - 1];
		switch (op->atom) {
		case DW_OP_plus: a += b; break;
		case DW_OP_minus: a -= b; break;
		case DW_OP_mul: a *= b; break;
		case DW_OP_and: a &= b; break;
		case DW_OP_or: a |= b; break;
		case DW_OP_xor: a ^= b; break;
		case DW_OP_shl: a = b < 64 ? a << b : 0; break;
		case DW_OP_shr: a = b < 64 ? a >> b : 0; break;
		case DW_OP_shra: a = b < 64 ? (uint64_t)((int64_t)a >> b) : 0; break;
		case DW_OP_ge: a = (int64_t)a >= (int64_t)b; break;
		case DW_OP_gt: a = (int64_t)a > (int64_t)b; break;
		case DW_OP_le: a = (int64_t)a <= (int64_t)b; break;
		case DW_OP_lt: a = (int64_t)a < (int64_t)b; break;
		case DW_OP_eq: a = a == b; break;
		case DW_OP_ne: a = a != b; break;
		default:
			return false;
		}
		stack[sp - 1] = a;
	}
	if (!sp)
		return false;
	*result = stack[sp - 1];
	return true;
}

/* One step through a frame whose CFI needs full expression evaluation. */
static bool step_complex(struct dso_unwind *u, uint64_t addr, struct regs *rs, const struct stack_copy *st)
{
	Dwarf_Frame *frame = NULL;
	Dwarf_Op *ops, mem[3];
	size_t nops;
	uint64_t cfa, v;
	bool is_value, ok = false;
	struct regs out = { .valid = 0 };

	if (!dso_unwind__frame(u, addr, &frame))
		return false;
	if (dwarf_frame_cfa(frame, &ops, &nops) || !nops ||
	    !eval_expr(ops, nops, rs, st, 0, false, &cfa, &is_value))
		goto out;
	for (size_t i = 0; i < NR_TRACKED; i++) {
		int r = tracked_regs[i];
		uint8_t reg;

		if (dwarf_frame_register(frame, r, mem, &ops, &nops))
			continue;
		if (nops == 0) {
			if (!ops && reg_get(rs, r, &v)) {
				out.v[r] = v;
				out.valid |= 1u << r;
			}
			continue;
		}
		if (nops == 1 && is_reg(&ops[0], &reg)) {
			if (reg_get(rs, reg, &v)) {
				out.v[r] = v;
				out.valid |= 1u << r;
			}
			continue;
		}
		if (!eval_expr(ops, nops, rs, st, cfa, false, &v, &is_value))
			continue;
		if (!is_value && !stack_read(st, v, &v))
			continue;
		out.v[r] = v;
		out.valid |= 1u << r;
	}
	out.v[DW_RSP] = cfa;
	out.valid |= 1u << DW_RSP;
	*rs = out;
	ok = true;
out:
	free(frame);
	return ok;
}

/* One step with cached rules: rs becomes the caller's registers. */
static bool step_rules(const struct frame_rules *r, struct regs *rs, const struct stack_copy *st)
{
	struct regs out = { .valid = 0 };
	uint64_t cfa, v;

	if (!reg_get(rs, r->cfa_reg, &cfa))
		return false;
	cfa += r->cfa_off;
	for (size_t i = 0; i < NR_TRACKED; i++) {
		int reg = tracked_regs[i];
		bool ok = false;

		switch (r->reg[i].kind) {
		case RULE_SAME:
			ok = reg_get(rs, reg, &v);
			break;
		case RULE_AT_CFA:
			ok = stack_read(st, cfa + r->reg[i].off, &v);
			break;
		case RULE_VAL_CFA:
			v = cfa + r->reg[i].off;
			ok = true;
			break;
		case RULE_REG:
			ok = reg_get(rs, r->reg[i].reg, &v);
			break;
		default:
			break;
		}
		if (ok) {
			out.v[reg] = v;
			out.valid |= 1u << reg;
		}
	}
	out.v[DW_RSP] = cfa;
	out.valid |= 1u << DW_RSP;
	*rs = out;
	return true;
}

/* Reads len code bytes at runtime address ip from the file behind map. */
static bool read_code(const struct map *map, uint64_t ip, void *buf, size_t len)
{
	struct dso_unwind *u;

	if (!map || !map->dso || map->dso->kind != DSO_KIND_ELF || ip < map->start || ip + len > map->end)
		return false;
	u = dso_unwind__get(map->dso);
	dso_unwind__open(u);
	if (u->file.fd < 0)
		return false;
	return preadn(u->file.fd, buf, len, ip - map->start + map->pgoff) == (ssize_t)len;
}

/*
 * The sampled function set up no frame (a leaf at -O2 keeps rbp as its
 * caller's): the return address is on the stack top. Only trusted when the
 * bytes before it are a direct call whose target is at or before pc within
 * the sampled symbol, so an unrelated value on the stack is never taken.
 */
static bool leaf_return(struct machine *m, struct thread *t, const struct regs *rs,
			const struct stack_copy *st, uint64_t *ra)
{
	struct map *pc_map, *ra_map;
	unsigned char call[5];
	uint64_t pc = rs->v[DW_RIP], target, pc_addr, target_addr;
	int32_t rel;
	struct symbol *sym;

	if (!stack_read(st, rs->v[DW_RSP], ra))
		return false;
	ra_map = machine__find_map(m, t, PERF_RECORD_MISC_USER, *ra);
	pc_map = machine__find_map(m, t, PERF_RECORD_MISC_USER, pc);
	if (!ra_map || !pc_map || !(ra_map->prot & 4 /* PROT_EXEC */) || !read_code(ra_map, *ra - 5, call, 5))
		return false;
	if (call[0] != 0xe8)
		return false;
	memcpy(&rel, call + 1, 4);
	target = *ra + (int64_t)rel;
	if (target > pc || maps__find(t->maps, target) != pc_map || !pc_map->dso)
		return false;
	pc_addr = map__map_ip(pc_map, pc);
	target_addr = map__map_ip(pc_map, target);
	sym = dso__find_symbol(pc_map->dso, pc_addr);
	return sym && target_addr == sym->start;
}

/* The rbp chain, for code without CFI whose runtime keeps frame pointers. */
static bool step_frame_pointer(struct regs *rs, const struct stack_copy *st)
{
	uint64_t fp, next_fp, ra;

	if (!reg_get(rs, DW_RBP, &fp) || fp < rs->v[DW_RSP] || (fp & 7))
		return false;
	if (!stack_read(st, fp, &next_fp) || !stack_read(st, fp + 8, &ra))
		return false;
	rs->v[DW_RSP] = fp + 16;
	rs->v[DW_RBP] = next_fp;
	rs->v[DW_RIP] = ra;
	rs->valid = (1u << DW_RSP) | (1u << DW_RBP) | (1u << DW_RIP);
	return true;
}

size_t unwind__user_frames(struct machine *m, struct thread *t, const struct perf_sample *s,
			   uint64_t *ips, size_t max)
{
	struct regs rs = { .valid = 0 };
	struct stack_copy st;
	uint64_t mask = s->user_regs_mask;
	size_t n = 0;
	int idx = 0;
	uint64_t perf_regs[64];
	uint64_t perf_valid = 0;

	if (!unwind__can_unwind(s) || !t || !max)
		return 0;
	for (int b = 0; b < 64; b++) {
		if (!(mask & (1ull << b)))
			continue;
		perf_regs[b] = s->user_regs[idx++];
		perf_valid |= 1ull << b;
	}
	for (int r = 0; r < DW_NREGS; r++) {
		int p = dwarf_to_perf[r];

		if (perf_valid & (1ull << p)) {
			rs.v[r] = perf_regs[p];
			rs.valid |= 1u << r;
		}
	}
	if (!(rs.valid & (1u << DW_RIP)) || !(rs.valid & (1u << DW_RSP)))
		return 0;
	st.base = rs.v[DW_RSP];
	st.data = s->user_stack;
	st.len = s->user_stack_dyn_size ? s->user_stack_dyn_size : s->user_stack_size;

	ips[n++] = rs.v[DW_RIP];
	while (n < max) {
		uint64_t pc = rs.v[DW_RIP], sp = rs.v[DW_RSP];
		/* a return address points after the call: look up the call itself */
		uint64_t lookup = n == 1 ? pc : pc - 1;
		struct map *map = machine__find_map(m, t, PERF_RECORD_MISC_USER, lookup);
		struct frame_rules *r = NULL;
		struct dso_unwind *u = NULL;
		bool stepped = false;

		if (map && map->dso && (map->dso->kind == DSO_KIND_ELF || map->dso->kind == DSO_KIND_VDSO)) {
			u = dso_unwind__get(map->dso);
			r = dso_unwind__rules(u, map__map_ip(map, lookup));
		}
		if (r && r->present)
			stepped = r->complex ? step_complex(u, map__map_ip(map, lookup), &rs, &st)
					     : step_rules(r, &rs, &st);
		else if (map) {
			uint64_t ra;

			if (n == 1 && leaf_return(m, t, &rs, &st, &ra)) {
				rs.v[DW_RIP] = ra;
				rs.v[DW_RSP] = sp + 8;
				stepped = true;
			} else
				stepped = step_frame_pointer(&rs, &st);
		}
		if (!stepped || !(rs.valid & (1u << DW_RIP)) || rs.v[DW_RIP] == 0)
			break;
		/* the stack grows down: a caller's frame is never below its callee's */
		if (rs.v[DW_RSP] < sp || (rs.v[DW_RSP] == sp && rs.v[DW_RIP] == pc))
			break;
		if (!machine__find_map(m, t, PERF_RECORD_MISC_USER, rs.v[DW_RIP] - 1))
			break;
		ips[n++] = rs.v[DW_RIP] - 1;
	}
	return n;
}
