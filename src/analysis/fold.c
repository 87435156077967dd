/*
 * fold.c -- constant address offsets folded into the memory operand, as
 * ptxas folds them ([R2.64+0x8]), before latency scheduling
 * (compiler.schedule = latency; pass.c).
 *
 * PTX steps a pointer with `add.s64 %rd5, %rd4, 4` between accesses
 * (hand-written PTX everywhere, nvcc in unrolled loops and structure
 * accesses); SASS has a 24-bit signed offset in every address operand, so
 * ptxas keeps one base register and writes [R2.64+0x4], [R2.64+0x8], ...
 * A scheduler that overlaps such accesses in rfsim would hold one 64-bit
 * pointer per access where ptxas holds one in all.  This pass gives each
 * register set by a chain of 64-bit additions of constants to a root
 * register its (root, offset), rewrites every address [%rd5+k] to
 * [root+offset+k] and every addition in the chain to add the total to the
 * root directly, and deletes the additions no instruction reads any more.
 *
 * Only values with one write in the function take part (the root too), so
 * the root's value is the same wherever the chain's values are read: the
 * root's write dominates the additions, which dominate their reads.
 * rename.c gives the values of hand-written code their own registers
 * first.  Offsets stay within SASS's 24-bit range.
 */
#include "analysis/fold.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/live.h"
#include "analysis/ra_int.h"
#include "base/base.h"

enum { MAXOPR = 1 + INS_MAXOPD * 256, MAXOFF = 1 << 23 };

typedef struct Fold {
	int32_t *ndef;           /* nreg: writes of each register */
	int32_t *root;           /* nreg: the register it is root + off of, -1 */
	int64_t *off;
	int32_t *nread;          /* nreg: reads left */
} Fold;

/* the constant it adds to a register, if in is `add.{s,u,b}64 d, s, imm` or
   `sub.. d, s, imm` (either order for add), unguarded: 1 and *src, *k */
static int step(const Ins *in, int32_t *src, int64_t *k)
{
	if ((in->op != OP_ADD && in->op != OP_SUB) || in->guard >= 0 || in->nd != 1 ||
	    in->ns != 2 || in->o[0].kind != OPK_REG || ptxtype_size((PtxType)in->type) != 8 ||
	    (in->mods & (MOD_CC | MOD_SAT)) || ptxtype_is_float((PtxType)in->type))
		return 0;
	const Operand *a = &in->o[1], *b = &in->o[2];
	if (a->kind == OPK_REG && b->kind == OPK_IMM) *src = a->reg, *k = b->imm;
	else if (in->op == OP_ADD && a->kind == OPK_IMM && b->kind == OPK_REG)
		*src = b->reg, *k = a->imm;
	else
		return 0;
	if (in->op == OP_SUB) *k = -*k;
	return 1;
}

static int32_t count_defs(const Func *f, Fold *x)
{
	int32_t buf[MAXOPR], n = 0;
	for (int32_t i = 0; i < f->nins; i++) {
		int d = live_defs(f, &f->ins[i], buf, MAXOPR);
		for (int q = 0; q < d && d <= MAXOPR; q++) x->ndef[buf[q]]++;
		int u = live_uses(f, &f->ins[i], buf, MAXOPR);
		for (int q = 0; q < u && u <= MAXOPR; q++) x->nread[buf[q]]++;
		n += d > MAXOPR;
	}
	return n;
}

/* roots and offsets of the chains, in program order (a chain's additions
   come after the write of their source, which dominates them) */
static void chains(const Func *f, Fold *x)
{
	for (int32_t i = 0; i < f->nins; i++) {
		int32_t s, d;
		int64_t k;
		if (!step(&f->ins[i], &s, &k)) continue;
		d = f->ins[i].o[0].reg;
		if (x->ndef[d] != 1 || x->ndef[s] != 1 || d == s) continue;
		int32_t r = x->root[s] >= 0 ? x->root[s] : s;
		int64_t o = (x->root[s] >= 0 ? x->off[s] : 0) + k;
		if (o <= -MAXOFF || o >= MAXOFF) continue;
		x->root[d] = r, x->off[d] = o;
	}
}

/* in's address operands and chain sources rewritten to the roots */
static void rewrite(Func *f, Fold *x, Ins *in)
{
	int32_t s;
	int64_t k;
	if (step(in, &s, &k) && x->root[in->o[0].reg] >= 0 && x->root[s] >= 0) {
		int a = in->o[1].kind == OPK_REG ? 1 : 2;
		x->nread[s]--, x->nread[x->root[s]]++;
		in->op = OP_ADD;
		in->o[a].reg = x->root[s];
		in->o[3 - a].imm = x->off[in->o[0].reg];
		return;
	}
	for (int j = 0; j < in->nd + in->ns; j++) {
		Operand *o = &in->o[j];
		if (o->kind != OPK_ADDR || (o->flags & OPDF_SYMBASE) || o->reg < 0) continue;
		int32_t b = o->reg;
		if (x->root[b] < 0 || o->imm + x->off[b] <= -MAXOFF || o->imm + x->off[b] >= MAXOFF)
			continue;
		x->nread[b]--, x->nread[x->root[b]]++;
		o->imm += x->off[b];
		o->reg = x->root[b];
	}
}

int32_t fold_func(Module *m, Func *f)
{
	if (f->nins < 2) return 0;
	size_t n = (size_t)f->nreg + 1;
	Fold x;
	x.ndef = xcalloc(n, sizeof(int32_t)), x.nread = xcalloc(n, sizeof(int32_t));
	x.root = xmalloc(sizeof(int32_t) * n), x.off = xcalloc(n, sizeof(int64_t));
	for (size_t g = 0; g < n; g++) x.root[g] = -1;
	int32_t gone = 0;
	if (!count_defs(f, &x)) {
		chains(f, &x);
		for (int32_t i = 0; i < f->nins; i++) rewrite(f, &x, &f->ins[i]);
		Edit e;                      /* the additions nothing reads any more */
		edit_begin(&e, m, f);
		int32_t nold = f->nins;
		for (int32_t i = 0; i < nold; i++) {
			Ins in = f->ins[i];
			int32_t s;
			int64_t k;
			edit_mark(&e, i);
			if (step(&in, &s, &k) && x.root[in.o[0].reg] >= 0 && !x.nread[in.o[0].reg]) {
				gone++;
				continue;
			}
			edit_keep(&e, &in);
		}
		edit_end(&e);
	}
	free(x.ndef), free(x.nread), free(x.root), free(x.off);
	return gone;
}
