/*
 * tins.c -- the timing view of a kernel's decoded instructions (TIns).
 *
 * Built once per launch from the Image, so the scheduler, the scoreboard
 * and the operand collectors never look at a DIns on the hot path.  What
 * it decides:
 *
 *   unit   ops.def's unit class, with double precision (an f64 type or
 *          second type) sent to the DP unit, as the table's comment says
 *          decode leaves to the timing model.  bra/call/ret use the branch
 *          unit; exit, trap, bar, membar, fence, prefetch, nanosleep and
 *          the implicit ret decode adds at a function's end complete at
 *          issue (TU_NONE), as do cp.async.commit_group/wait_group/wait_all
 *          (TIns.cpa: the scheduler holds a wait, async.c) and the
 *          compiler's register-file pseudo-ops
 *          (rfsim.prefetch, .acquire, .release: TIns.pseudo), which reach
 *          the register-file model through its issue hook.
 *          mma.sync keeps its tensor unit busy for pipe.tc.ii scaled by its
 *          multiply-adds relative to m16n16k16's 4096 (TIns.ii_shift).
 *          Under compiler.schedule=latency a load of a kernel parameter
 *          stands for the constant-bank operand SASS reads it as
 *          (c[0x0][0x160]; remat.c copies it to every block that reads it):
 *          it issues to the SP unit like the MOV R, c[0x0][..] ptxas emits
 *          at most, not through the constant cache (DF_CBANK), so the
 *          copies do not put cc.lat on every use's path.
 *   regs   reads: each register source, the address base, the source
 *          fragments of wmma, mma and stmatrix (Image.mma), predicate
 *          sources and the guard; writes: each destination.  A 64-bit
 *          operand is two slots, a 128-bit one four (the main register
 *          file is 32 bits wide per lane, so each slot is one warp-wide
 *          register access).  Duplicates are removed: an instruction
 *          reads r5 once however many operands name it.
 */
#include "timing/tins.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

static int is_f64(const DIns *d)
{
	return d->type == PT_F64 || d->type2 == PT_F64;
}

static uint8_t unit_of(const DIns *d, uint8_t *flags)
{
	const OpInfo *oi = &op_info[d->op];
	if (d->flags & DF_INTERNAL && d->op == OP_RET) {
		*flags |= TF_NOREGS;
		return TU_NONE;
	}
	switch (oi->unit) {
	case UNIT_ALU: return is_f64(d) ? TU_DP : TU_SP;
	case UNIT_SFU: return is_f64(d) ? TU_DP : TU_SFU;
	case UNIT_DP: return TU_DP;
	case UNIT_TENSOR: return TU_TC;
	case UNIT_LDST:
		if (d->op == OP_PREFETCH) return TU_NONE;
		if (d->flags & DF_CBANK) return TU_SP;     /* MOV R, c[0x0][..] at most */
		*flags |= TF_MEM;
		if (oi->flags & OPF_LOAD && d->nd && d->d[0] >= 0) {
			*flags |= TF_LOAD;
			if (d->space != XS_SHARED && d->space != XS_KPARAM && d->space != XS_CONST)
				*flags |= TF_LONGLAT;
		}
		if (oi->flags & OPF_STORE) *flags |= TF_STORE;
		if (oi->flags & OPF_ATOMIC) *flags |= TF_ATOMIC;
		return TU_LDST;
	case UNIT_BRANCH:
		if (d->op == OP_BRA || d->op == OP_CALL || d->op == OP_RET) {
			*flags |= TF_BRANCH;
			return TU_BR;
		}
		return TU_NONE;
	case UNIT_SYNC:
		if (oi->flags & OPF_BARRIER) *flags |= TF_BARRIER;
		return TU_NONE;
	default:
		return TU_NONE;
	}
}

typedef struct RegList { int32_t v[64]; int n; } RegList;

static void add(RegList *l, int32_t v)
{
	for (int i = 0; i < l->n; i++)
		if (l->v[i] == v) return;
	assert(l->n < 64);
	l->v[l->n++] = v;
}

static void add_slots(RegList *l, int32_t s, int w)
{
	for (int k = 0; k < (w ? w : 1); k++) add(l, s + k);
}

/* register slots first, then predicates (encoded -(p+1)); returns the slot count */
static int order(RegList *l)
{
	RegList o = {.n = 0};
	for (int i = 0; i < l->n; i++)
		if (l->v[i] >= 0) o.v[o.n++] = l->v[i];
	int nreg = o.n;
	for (int i = 0; i < l->n; i++)
		if (l->v[i] < 0) o.v[o.n++] = l->v[i];
	*l = o;
	return nreg;
}

static void regs_of(const Image *img, const DIns *d, RegList *rd, RegList *wr)
{
	rd->n = wr->n = 0;
	if (d->op == OP_WMMA_STORE || d->op == OP_WMMA_MMA || d->op == OP_MMA ||
	    d->op == OP_STMATRIX) {                                /* fragments: decode.h */
		const MmaRegs *m = &img->mma[d->imm];
		for (int k = 0; k < 3; k++)
			for (int i = 0; i < m->n[k]; i++) add_slots(rd, m->r[k][i], m->w[k]);
	}
	for (int i = 0; i < d->ns; i++) {
		if (d->spred >> i & 1) add(rd, -(d->s[i] + 1));
		else if (d->s[i] >= 0) add_slots(rd, d->s[i], d->sw[i]);
	}
	if (op_info[d->op].flags & OPF_MEM && d->abase >= 0) add_slots(rd, d->abase, d->aw);
	if (d->guard >= 0) add(rd, -(d->guard + 1));
	for (int i = 0; i < d->nd; i++) {
		if (d->d[i] < 0) continue;
		if (d->dw[i] == 0) add(wr, -(d->d[i] + 1));   /* a predicate destination */
		else add_slots(wr, d->d[i], d->dw[i]);
	}
}

void tprog_build(TProg *tp, const Image *img)
{
	memset(tp, 0, sizeof *tp);
	tp->ins = xcalloc((size_t)img->ncode + 1, sizeof *tp->ins);
	tp->nslots = img->max_slots;
	tp->npreds = img->max_preds;
	tp->rm_bs = img->rm_bs;
	tp->rm_es = img->rm_es;
	size_t cap = 0, n = 0;
	for (int32_t pc = 0; pc < img->ncode; pc++) {
		const DIns *d = &img->code[pc];
		TIns *t = &tp->ins[pc];
		t->unit = unit_of(d, &t->flags);
		t->pseudo = d->op == OP_RF_PREFETCH ? TP_PREFETCH : d->op == OP_RF_ACQUIRE ? TP_ACQUIRE
		          : d->op == OP_RF_RELEASE ? TP_RELEASE : TP_NONE;
		t->arg = (int32_t)d->imm;
		RegList rd, wr;
		regs_of(img, d, &rd, &wr);
		t->cpa = d->op == OP_CP_ASYNC ? (d->mods & MOD_CG ? CPA_COPY_L2 : CPA_COPY)
		       : d->op == OP_CP_COMMIT ? CPA_COMMIT : d->op == OP_CP_WAIT ? CPA_WAIT
		       : d->op == OP_CP_WAITALL ? CPA_WAITALL : d->op == OP_CP_MBAR ? CPA_MBAR
		       : CPA_NONE;
		if (t->cpa == CPA_WAIT) t->arg = (int32_t)d->imm;
		t->tex = d->op == OP_TEX || d->op == OP_TLD4;
		t->poll = (t->flags & TF_LOAD) && ((d->mods & (MOD_VOLATILE | MOD_ACQUIRE | MOD_RELAXED)) ||
		                                   d->op == OP_MBAR_TEST || d->op == OP_MBAR_TRY);
		if (d->op == OP_MMA)                   /* pipe.tc.ii is per 16 * 16 * 16 */
			while ((mma_sync_macs(dins_shape(d)) << t->ii_shift) < 16 * 16 * 16) t->ii_shift++;
		if (t->flags & TF_NOREGS) rd.n = wr.n = 0;
		t->nrd_reg = (uint8_t)order(&rd);
		t->nwr_reg = (uint8_t)order(&wr);
		t->nrd = (uint8_t)rd.n;
		t->nwr = (uint8_t)wr.n;
		t->regs = (uint32_t)n;
		VEC_RESERVE(tp->regs, cap, n + (size_t)rd.n + (size_t)wr.n + 1);
		memcpy(tp->regs + n, rd.v, (size_t)rd.n * sizeof *rd.v);
		n += (size_t)rd.n;
		memcpy(tp->regs + n, wr.v, (size_t)wr.n * sizeof *wr.v);
		n += (size_t)wr.n;
	}
	if (!tp->regs) tp->regs = xcalloc(1, sizeof *tp->regs);
	tprog_annotate(tp, img);
}

void tprog_free(TProg *tp)
{
	free(tp->ins);
	free(tp->regs);
	free(tp->ann);
	free(tp->uses);
	free(tp->live);
	free(tp->llstall);
	memset(tp, 0, sizeof *tp);
}
