/*
 * spill.c -- spill code: what happens to the registers that colouring
 * could not place (regalloc.c marks them in Ra.spill).
 *
 * Three kinds, each "spill everywhere" (Chaitin): every read gets a fresh
 * temporary loaded just before the instruction, every write a fresh
 * temporary stored just after it, so the long live range becomes many
 * one-instruction ones that the next round colours easily.  Temporaries
 * are never spilled again (Ra.temp).
 *
 *   memory   a general register gets a slot in the function's
 *            `.local .align 8 .b8 __rfsim_spill[N]` (added to its locals,
 *            so the functional core's frame layout places it and
 *            [__rfsim_spill+off] decodes as a frame access): ld.local
 *            before reads, st.local after writes.  A guarded write is
 *            stored under the same guard, so a false guard leaves the old
 *            value in memory; if the instruction also writes its own guard
 *            the old value is loaded first and stored back unguarded.
 *   remat    a general register with a single write that reads no
 *            register and whose result never changes -- ld.param of a
 *            kernel parameter, mov of an immediate, of a symbol's address
 *            or of a constant special register (%tid, %ctaid, %ntid, ...)
 *            -- is recomputed before each read instead, and its write is
 *            deleted (Briggs, Cooper and Torczon's rematerialisation, in
 *            its simplest form; ptxas reads parameters straight from the
 *            constant bank, so this is also closer to what it emits).
 *   predicate  a predicate becomes one bit of a general register that
 *            all spilled predicates share (32 to a register), as ptxas
 *            packs the predicate file into an R register (P2R/R2P):
 *            after each write `@p or.b32 g, g, bit; @!p and.b32 g, g,
 *            ~bit`, before each read `and.b32 t, g, bit; setp.ne.u32 p,
 *            t, 0`.  A guarded write first restores the old value.  The
 *            general register may itself be spilled later.
 *
 * Inserted instructions carry the PTX line of the instruction they serve.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ra_int.h"
#include "base/base.h"

enum { SP_MEM = 1, SP_REMAT, SP_PREDREG };

typedef struct Plan {        /* per register id of the input */
	uint8_t how;             /* SP_* (via its rep), 0 = stays */
	int32_t off;             /* SP_MEM: byte offset in __rfsim_spill */
	int32_t greg;            /* SP_PREDREG: the general register holding it ... */
	uint32_t bit;            /* ... as this bit */
	int32_t def;             /* SP_REMAT: the instruction that computes it */
} Plan;

typedef struct Fix {         /* the temporaries of one instruction */
	int32_t reg[RA_MAXSLOT], use[RA_MAXSLOT], def[RA_MAXSLOT];
	int n;
} Fix;

static int sreg_constant(int sr)
{
	switch ((SReg)sr) {
	case SR_TID: case SR_NTID: case SR_CTAID: case SR_NCTAID: case SR_LANEID: case SR_NSMID:
	case SR_GRIDID: case SR_LANEMASK_EQ: case SR_LANEMASK_LE: case SR_LANEMASK_LT:
	case SR_LANEMASK_GE: case SR_LANEMASK_GT: case SR_DYNAMIC_SMEM_SIZE:
	case SR_TOTAL_SMEM_SIZE: case SR_AGGR_SMEM_SIZE: case SR_RSMEM_BEGIN: case SR_RSMEM_END:
	case SR_RSMEM_CAP: case SR_RSMEM_0: case SR_RSMEM_1: case SR_CLUSTERID:
	case SR_NCLUSTERID: case SR_CLUSTER_CTAID:
	case SR_CLUSTER_NCTAID: case SR_CLUSTER_CTARANK: case SR_CLUSTER_NCTARANK:
	case SR_IS_EXPLICIT_CLUSTER: case SR_ENVREG:
		return 1;
	case SR_WARPID: case SR_NWARPID: case SR_SMID: case SR_CLOCK: case SR_CLOCK_HI:
	case SR_CLOCK64: case SR_GLOBALTIMER: case SR_GLOBALTIMER_LO: case SR_GLOBALTIMER_HI:
	case SR_PM: case NSREG:
		return 0;
	}
	return 0;
}

static int kernel_param(const Func *f, int32_t sym)
{
	if (!(f->attr & ATTR_ENTRY)) return 0;
	for (int32_t i = 0; i < f->nparam; i++)
		if (f->params[i] == sym) return 1;
	return 0;
}

static int remat_ok(const Ra *ra, const Ins *in)
{
	if (in->guard >= 0 || in->nd != 1 || in->ns != 1 || in->o[0].kind != OPK_REG) return 0;
	const Operand *s = &in->o[1];
	if (in->op == OP_MOV)
		return s->kind == OPK_IMM || (s->kind == OPK_SREG && sreg_constant(s->reg)) ||
		       (s->kind == OPK_SYM && ra->m->syms[s->reg].kind == SYM_VAR);
	return in->op == OP_LD && in->space == SP_PARAM && !in->vec && s->kind == OPK_ADDR &&
	       (s->flags & OPDF_SYMBASE) && kernel_param(ra->f, s->reg);
}

/* ---- the spill area ------------------------------------------------------------ */

static void swap_opd(Operand *o, int32_t a, int32_t b)
{
	if (o->kind != OPK_SYM && !(o->kind == OPK_ADDR && (o->flags & OPDF_SYMBASE))) return;
	if (o->reg == a) o->reg = b;
	else if (o->reg == b) o->reg = a;
}

/* exchange symbols a and b, both f's locals: the printer writes a body's
   declarations in id order around its nested blocks, so the spill area,
   declared last, takes the id of the first symbol of a nested block and is
   written before any use */
static void swap_ids(Ra *ra, int32_t a, int32_t b)
{
	Module *m = ra->m;
	Func *f = ra->f;
	Sym t = m->syms[a];
	m->syms[a] = m->syms[b];
	m->syms[b] = t;
	for (int32_t i = 0; i < f->nlocal; i++)
		f->locals[i] = f->locals[i] == a ? b : f->locals[i] == b ? a : f->locals[i];
	for (int32_t i = 0; i < f->nins; i++)
		for (int k = 0; k < f->ins[i].nd + f->ins[i].ns; k++) swap_opd(&f->ins[i].o[k], a, b);
	for (int32_t i = 0; i < f->nvop; i++) swap_opd(&f->vops[i], a, b);
	for (int32_t k = a; k != -1; k = k == a ? b : -1)
		if (m->syms[k].kind == SYM_PROTO) m->funcs[m->syms[k].func].sym = k;
	ra->spill_sym = a;
}

static void ensure_sym(Ra *ra)
{
	if (ra->spill_sym >= 0) return;
	Module *m = ra->m;
	Func *f = ra->f;
	Sym *syms = arena_alloc(m->arena, sizeof(Sym) * ((size_t)m->nsym + 1));
	memcpy(syms, m->syms, sizeof(Sym) * (size_t)m->nsym);
	Sym *s = &syms[m->nsym];
	s->name = ir_intern(m, "__rfsim_spill", 13);
	s->kind = SYM_VAR;
	s->space = SP_LOCAL;
	s->type = PT_B8;
	s->align = 8;
	s->func = ra->fi;
	s->scope = -1;
	s->line = f->line, s->col = f->col;
	m->syms = syms;
	ra->spill_sym = m->nsym++;
	int32_t *loc = arena_alloc(m->arena, sizeof(int32_t) * ((size_t)f->nlocal + 1));
	if (f->nlocal) memcpy(loc, f->locals, sizeof(int32_t) * (size_t)f->nlocal);
	loc[f->nlocal++] = ra->spill_sym;
	f->locals = loc;
	int32_t first = -1;      /* the first symbol declared in a nested { } block */
	for (int32_t i = 0; i < f->nlocal; i++)
		if (m->syms[f->locals[i]].scope >= 0 && (first < 0 || f->locals[i] < first))
			first = f->locals[i];
	if (first >= 0) swap_ids(ra, first, ra->spill_sym);
}

static int32_t slot_for(Ra *ra, int32_t r)
{
	int sz = ptxtype_size((PtxType)ra->regtype[r]);
	if (sz < 4) sz = 4;
	ensure_sym(ra);
	int32_t off = (ra->spill_bytes + sz - 1) / sz * sz;
	ra->spill_bytes = off + sz;
	ra->m->syms[ra->spill_sym].count = (ra->spill_bytes + 7) / 8 * 8;
	ra->st->spill_bytes = (int32_t)ra->m->syms[ra->spill_sym].count;
	return off;
}

/* ---- planning ------------------------------------------------------------------ */

static void dump_plan(Ra *ra, int32_t r, const Plan *p)
{
	FILE *out = ra->o->dump_spill;
	char buf[64];
	if (r < ra->nreg0) ir_regname(ra->m, ra->f, r, buf, sizeof buf);
	else snprintf(buf, sizeof buf, "%%t%d", r);
	fprintf(out, "spill round %d: %s (cost %g) ", ra->st->rounds, buf,
	        ra->cost[ra_find(ra, r)]);
	if (p->how == SP_MEM) fprintf(out, "to [__rfsim_spill+%d]\n", p->off);
	else if (p->how == SP_REMAT) fprintf(out, "rematerialised from line %u\n",
	                                     ra->f->ins[p->def].line);
	else fprintf(out, "kept in bit %d of %%t%d\n", __builtin_ctz(p->bit), p->greg);
}

/* how each marked register is spilled: one plan per rep, shared by members;
   *np = registers planned (new ones come after) */
static Plan *plan(Ra *ra, int32_t *np)
{
	const Func *f = ra->f;
	int32_t n = *np = ra->n;
	Plan *p = xcalloc((size_t)n + 1, sizeof *p);
	int32_t *ndef = xcalloc((size_t)n + 1, sizeof(int32_t)), buf[RA_MAXSLOT];
	for (int32_t r = 0; r < n; r++) p[r].def = -1;
	for (int32_t i = 0; i < f->nins; i++) {
		int k = live_defs(f, &f->ins[i], buf, RA_MAXSLOT);
		for (int j = 0; j < k; j++) {
			int32_t rep = ra_find(ra, buf[j]);
			if (!ra->spill[rep]) continue;
			ndef[rep]++;
			p[rep].def = i;
		}
	}
	for (int32_t r = 0; r < n; r++) {
		if (!ra->cls[r] || ra_find(ra, r) != r || !ra->spill[r]) continue;
		if (ra->cls[r] == CL_PRED) {
			if (ra->pack_reg < 0 || ra->pack_bits == 32) {
				ra->pack_reg = ra_new_reg(ra, PT_B32, 0);
				ra->pack_bits = 0;
			}
			p[r].how = SP_PREDREG;
			p[r].greg = ra->pack_reg;
			p[r].bit = 1u << ra->pack_bits++;
			ra->st->pred_spilled++;
		} else if (ndef[r] == 1 && remat_ok(ra, &f->ins[p[r].def])) {
			p[r].how = SP_REMAT;
			ra->st->remat++;
		} else {
			p[r].how = SP_MEM;
			p[r].off = slot_for(ra, r);
			ra->st->spilled++;
		}
	}
	for (int32_t r = 0; r < n; r++) {
		if (!ra->cls[r]) continue;
		p[r] = p[ra_find(ra, r)];
		if (p[r].how && ra->o->dump_spill) dump_plan(ra, r, &p[r]);
	}
	free(ndef);
	return p;
}

/* ---- instructions ---------------------------------------------------------------- */

static Operand reg_opd(int32_t r)
{
	return (Operand){.kind = OPK_REG, .reg = r};
}

static PtxType bits_of(PtxType t)
{
	switch (ptxtype_size(t)) {
	case 1: return PT_B8;
	case 2: return PT_B16;
	case 8: return PT_B64;
	default: return PT_B32;
	}
}

static Ins base_ins(const Ins *at, int op, PtxType t)
{
	Ins x = {0};
	x.op = (uint16_t)op;
	x.type = (uint8_t)t;
	x.guard = -1;
	x.line = at->line, x.col = at->col;
	return x;
}

static void emit_ldst(Edit *e, Ra *ra, const Ins *at, int32_t t, int32_t off, int store,
                      int32_t guard, int neg)
{
	Ins x = base_ins(at, store ? OP_ST : OP_LD, bits_of((PtxType)ra->regtype[t]));
	Operand a = {.kind = OPK_ADDR, .flags = OPDF_SYMBASE, .reg = ra->spill_sym, .imm = off};
	x.space = SP_LOCAL;
	x.guard = guard;
	x.guard_neg = (uint8_t)neg;
	x.nd = store ? 0 : 1;
	x.ns = store ? 2 : 1;
	x.o[0] = store ? a : reg_opd(t);
	x.o[1] = store ? reg_opd(t) : a;
	edit_emit(e, &x);
	if (store) ra->st->spill_stores++;
	else ra->st->spill_loads++;
}

static Operand imm_opd(uint32_t v)
{
	return (Operand){.kind = OPK_IMM, .flags = OPDF_HEXLIT, .imm = v};
}

/* predicate p from bit `bit` of g, through general temporary t */
static void emit_pred_load(Edit *e, const Ins *at, int32_t p, int32_t g, uint32_t bit,
                           int32_t t)
{
	Ins x = base_ins(at, OP_AND, PT_B32);
	x.nd = 1, x.ns = 2;
	x.o[0] = reg_opd(t);
	x.o[1] = reg_opd(g);
	x.o[2] = imm_opd(bit);
	edit_emit(e, &x);
	x = base_ins(at, OP_SETP, PT_U32);
	x.cmp = CMP_NE;
	x.nd = 1, x.ns = 2;
	x.o[0] = reg_opd(p);
	x.o[1] = reg_opd(t);
	x.o[2] = imm_opd(0);
	edit_emit(e, &x);
}

/* bit `bit` of g from predicate p */
static void emit_pred_store(Edit *e, const Ins *at, int32_t g, uint32_t bit, int32_t p)
{
	for (int neg = 0; neg < 2; neg++) {
		Ins x = base_ins(at, neg ? OP_AND : OP_OR, PT_B32);
		x.guard = p;
		x.guard_neg = (uint8_t)neg;
		x.nd = 1, x.ns = 2;
		x.o[0] = reg_opd(g);
		x.o[1] = reg_opd(g);
		x.o[2] = imm_opd(neg ? ~bit : bit);
		edit_emit(e, &x);
	}
}

/* the value of r into temporary t, before the instruction */
static void reload(Edit *e, Ra *ra, const Plan *p, const Ins *at, int32_t t)
{
	if (p->how == SP_MEM) {
		emit_ldst(e, ra, at, t, p->off, 0, -1, 0);
	} else if (p->how == SP_PREDREG) {
		emit_pred_load(e, at, t, p->greg, p->bit, ra_new_reg(ra, PT_B32, 1));
	} else {
		Ins x = ra->f->ins[p->def];
		x.o[0].reg = t;
		x.line = at->line, x.col = at->col;
		edit_emit(e, &x);
		ra->st->remat_ins++;
	}
}

static int32_t fix_map(void *ctx, int32_t r, int is_def)
{
	const Fix *fx = ctx;
	for (int k = 0; k < fx->n; k++)
		if (fx->reg[k] == r) return is_def ? fx->def[k] : fx->use[k];
	return r;
}

static int fix_find(const Fix *fx, int32_t r)
{
	for (int k = 0; k < fx->n; k++)
		if (fx->reg[k] == r) return k;
	return -1;
}

/* temporaries for the spilled registers instruction in reads and writes */
static void gather(Ra *ra, const Plan *p, const Ins *in, Fix *fx, int32_t *buf)
{
	const Func *f = ra->f;
	fx->n = 0;
	for (int pass = 0; pass < 2; pass++) {
		int n = pass ? live_defs(f, in, buf, RA_MAXSLOT) : live_uses(f, in, buf, RA_MAXSLOT);
		for (int j = 0; j < n; j++) {
			int32_t r = buf[j];
			if (!p[r].how) continue;
			int k = fix_find(fx, r);
			if (k < 0) {
				k = fx->n++;
				fx->reg[k] = r;
				fx->use[k] = fx->def[k] = -1;
			}
			int32_t *slot = pass ? &fx->def[k] : &fx->use[k];
			if (*slot >= 0) continue;
			*slot = fx->use[k] >= 0 ? fx->use[k] :
			        ra_new_reg(ra, (PtxType)ra->regtype[r], 1);
		}
	}
}

static int writes(int32_t reg, const int32_t *buf, int n)
{
	for (int j = 0; j < n; j++)
		if (buf[j] == reg) return 1;
	return 0;
}

/* instruction i with its reloads before and its stores after */
static void fix_ins(Edit *e, Ra *ra, const Plan *p, int32_t i, Fix *fx, int32_t *buf)
{
	const Ins *orig = &ra->f->ins[i];
	Ins in = *orig;
	gather(ra, p, orig, fx, buf);
	int nd = live_defs(ra->f, orig, buf, RA_MAXSLOT);
	int selfguard = orig->guard >= 0 && writes(orig->guard, buf, nd);
	for (int k = 0; k < fx->n; k++) {
		const Plan *pl = &p[fx->reg[k]];
		int32_t t = fx->use[k];
		int restore = fx->def[k] >= 0 && orig->guard >= 0 &&
		              (pl->how == SP_PREDREG || selfguard);
		if (t < 0 && restore) t = fx->use[k] = fx->def[k];
		if (t >= 0) reload(e, ra, pl, orig, t);
	}
	edit_rename(ra->f, &in, fix_map, fx);
	edit_keep(e, &in);
	for (int k = 0; k < fx->n; k++) {
		const Plan *pl = &p[fx->reg[k]];
		int32_t t = fx->def[k];
		if (t < 0) continue;
		if (pl->how == SP_PREDREG) {
			emit_pred_store(e, orig, pl->greg, pl->bit, t);
		} else if (pl->how == SP_MEM) {
			int guarded = orig->guard >= 0 && !selfguard;
			emit_ldst(e, ra, orig, t, pl->off, 1, guarded ? in.guard : -1,
			          guarded ? orig->guard_neg : 0);
		}
	}
}

void spill_rewrite(Ra *ra, const Cfg *c)
{
	(void)c;
	int32_t np;
	Plan *p = plan(ra, &np);
	Fix *fx = xmalloc(sizeof *fx);
	int32_t *buf = xmalloc(sizeof(int32_t) * RA_MAXSLOT);
	int32_t nold = ra->f->nins;
	uint8_t *gone = xcalloc((size_t)nold + 1, 1);
	for (int32_t r = 0; r < np; r++)
		if (p[r].how == SP_REMAT) gone[p[r].def] = 1;
	Edit e;
	edit_begin(&e, ra->m, ra->f);
	for (int32_t i = 0; i < nold; i++) {
		edit_mark(&e, i);
		if (!gone[i]) fix_ins(&e, ra, p, i, fx, buf);
	}
	edit_end(&e);
	free(gone);
	free(buf);
	free(fx);
	free(p);
}
