/*
 * rm_check.c -- an independent check of RegMutex's output (regmutex.c,
 * rm_plan.c), run on every kernel the pass transforms: what the hardware
 * of regmutex.md section III-B relies on, recomputed from the code alone.
 *
 *   modes     a forward dataflow over the new CFG: released at entry,
 *             rfsim.acquire makes a path acquired, rfsim.release released.
 *             Every point must have one mode on all paths into it; an
 *             acquire must find the path released and a release acquired
 *             (no nesting, no path releasing twice).
 *   registers at every point not acquired, no register read or written, nor
 *             live per thread, occupies a slot at or above |Bs|.
 *   releases  nothing live at warp level (divergence-aware liveness of
 *             the new code) sits in the extended set at an rfsim.release,
 *             and a divergent branch whose region holds a release is taken
 *             released, and every edge from its region to its
 *             reconvergence point leaves released.  Together with the
 *             per-thread rule this is the warp-level one: the hardware's
 *             mode is per warp and a release drops the extended set of
 *             every lane, so while lanes run a release, the lanes waiting
 *             (at the start of their path, or at the reconvergence point)
 *             must sit released, their values in the base set.  A region
 *             without a release may be entered and left acquired: an
 *             acquire there finds the warp either released or holding the
 *             set another path took, and does nothing then (section III),
 *             and released code runs unchanged on an acquired warp.
 *   barriers  no CTA barrier inside an acquired region (deadlock rule 2).
 *
 * Registers live at the first instruction are live undefined (read before
 * any write on some path); an acquire there is not checked against them.
 * A divergent region (guarded bra without .uni up to its reconvergence
 * point) holding a CTA barrier is taken as uniform, as CUDA requires of
 * every __syncthreads, and as the placement does.
 * It shares nothing with the placement but the liveness and CFG modules.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/ra_int.h"
#include "analysis/regmutex.h"
#include "base/base.h"

enum { M_TOP, M_REL, M_ACQ, M_MIXED };

static int meet(int a, int b)
{
	if (a == M_TOP) return b;
	if (b == M_TOP) return a;
	return a == b ? a : M_MIXED;
}

static int step(const Ins *in, int m, int32_t i, int *bad, FILE *out)
{
	if (in->op == OP_RF_ACQUIRE) {
		if (m != M_REL && out) fprintf(out, "regmutex check: %d: acquire on a path not released\n", i);
		*bad += m != M_REL;
		return M_ACQ;
	}
	if (in->op == OP_RF_RELEASE) {
		if (m != M_ACQ && out) fprintf(out, "regmutex check: %d: release on a path not acquired\n", i);
		*bad += m != M_ACQ;
		return M_REL;
	}
	return m;
}

static int over(const Func *f, int32_t r, int32_t bs)
{
	int w = ra_reg_width((PtxType)f->regtype[r]);
	return w && f->phys[r] + w > bs;
}

static int check_regs(const Func *f, const Live *lt, const Live *lw, int32_t i, int32_t bs,
                      FILE *out)
{
	int32_t regs[RA_MAXSLOT], bad = 0;
	for (int k = 0; k < 2; k++) {
		const Live *l = k ? lw : lt;
		if (!l) continue;
		const uint64_t *li = live_in(l, i), *lo = live_out(l, i);
		for (int32_t r = 0; r < f->nreg; r++)
			if ((live_has(li, r) || live_has(lo, r)) && over(f, r, bs)) {
				if (out) fprintf(out, "regmutex check: %d: R%d (%s) live\n", i, f->phys[r],
				                 k ? "warp" : "thread");
				bad++;
			}
	}
	int n = live_uses(f, &f->ins[i], regs, RA_MAXSLOT);
	for (int j = 0; j < n && j < RA_MAXSLOT; j++) bad += over(f, regs[j], bs);
	n = live_defs(f, &f->ins[i], regs, RA_MAXSLOT);
	for (int j = 0; j < n && j < RA_MAXSLOT; j++) bad += over(f, regs[j], bs);
	if (bad && out)
		fprintf(out, "regmutex check: %d: %d extended-register operands or live values "
		        "outside an acquired region\n", i, bad);
	return bad;
}

/* inreg[x]: x lies in a divergent region; 2 if in one holding a CTA barrier */
static void regions(const Cfg *c, uint8_t *inreg)
{
	const Func *f = c->f;
	int32_t nb = c->nblock, *stk = xmalloc(sizeof(int32_t) * ((size_t)nb * 4 + 8));
	uint8_t *mark = xmalloc((size_t)nb + 1);
	memset(inreg, 0, (size_t)nb + 1);
	for (int32_t b = 0; b < nb; b++) {
		const Block *bb = &c->blocks[b];
		if (bb->term < 0 || bb->nsucc < 2 || c->ipdom[b] < 0) continue;
		const Ins *t = &f->ins[bb->term];
		if (t->op != OP_BRA || t->guard < 0 || (t->mods & MOD_UNI)) continue;
		int32_t sp = 0, bar = 0;
		memset(mark, 0, (size_t)nb + 1);
		for (int32_t k = 0; k < bb->nsucc; k++) stk[sp++] = bb->succ[k];
		while (sp) {
			int32_t x = stk[--sp];
			if (x == c->ipdom[b] || x == c->exit || mark[x]) continue;
			mark[x] = 1;
			for (int32_t i = c->blocks[x].first; i <= c->blocks[x].last; i++)
				bar |= rm_cta_wait(&f->ins[i]);
			for (int32_t k = 0; k < c->blocks[x].nsucc; k++) stk[sp++] = c->blocks[x].succ[k];
		}
		for (int32_t x = 0; x < nb; x++)
			if (mark[x] && inreg[x] < 1 + bar) inreg[x] = (uint8_t)(1 + bar);
	}
	free(stk);
	free(mark);
}

/* mode after block b's instructions, from its entry mode */
static int out_mode(const Cfg *c, const int *min, int32_t b)
{
	int m = min[b], dummy = 0;
	for (int32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++)
		m = step(&c->f->ins[i], m, i, &dummy, NULL);
	return m;
}

/* a divergent branch whose region (no CTA barrier in it) holds a release:
   taken released, and every edge from the region to the reconvergence
   point leaves released */
static int check_divergent(const Cfg *c, const int *min, FILE *out)
{
	const Func *f = c->f;
	int32_t nb = c->nblock, *stk = xmalloc(sizeof(int32_t) * ((size_t)nb * 4 + 8)), bad = 0;
	uint8_t *mark = xmalloc((size_t)nb + 1);
	for (int32_t b = 0; b < nb; b++) {
		const Block *bb = &c->blocks[b];
		int32_t pd = c->ipdom[b];
		if (bb->term < 0 || bb->nsucc < 2 || pd < 0 || min[b] == M_TOP) continue;
		const Ins *t = &f->ins[bb->term];
		if (t->op != OP_BRA || t->guard < 0 || (t->mods & MOD_UNI)) continue;
		int32_t sp = 0, bar = 0, dir = 0;
		memset(mark, 0, (size_t)nb + 1);
		for (int32_t k = 0; k < bb->nsucc; k++) stk[sp++] = bb->succ[k];
		while (sp) {
			int32_t x = stk[--sp];
			if (x == pd || x == c->exit || mark[x]) continue;
			mark[x] = 1;
			for (int32_t i = c->blocks[x].first; i <= c->blocks[x].last; i++) {
				bar |= rm_cta_wait(&f->ins[i]);
				dir |= f->ins[i].op == OP_RF_RELEASE;
			}
			for (int32_t k = 0; k < c->blocks[x].nsucc; k++) stk[sp++] = c->blocks[x].succ[k];
		}
		if (bar || !dir) continue;
		if (out_mode(c, min, b) != M_REL) {
			if (out) fprintf(out, "regmutex check: %d: divergent branch taken acquired over "
			                 "an acquire or release\n", bb->term);
			bad++;
		}
		for (int32_t x = 0; x < nb && pd != c->exit; x++) {
			if (!mark[x] || min[x] == M_TOP) continue;
			for (int32_t k = 0; k < c->blocks[x].nsucc; k++)
				if (c->blocks[x].succ[k] == pd && out_mode(c, min, x) != M_REL) {
					if (out) fprintf(out, "regmutex check: %d: a path reaches the "
					                 "reconvergence point of %d acquired\n",
					                 c->blocks[x].last, bb->term);
					bad++;
				}
		}
	}
	free(stk);
	free(mark);
	return bad;
}

int regmutex_check(const Func *f, int32_t bs, FILE *out)
{
	Cfg *c = cfg_build(f);
	Live *lt = live_compute(c), *lw = live_compute_div(c);
	int32_t nb = c->nblock;
	int *min = xcalloc((size_t)nb + 2, sizeof(int)), bad = 0, dummy = 0;
	uint8_t *inreg = xmalloc((size_t)nb + 1);
	regions(c, inreg);
	if (nb) min[0] = M_REL;
	for (int changed = 1; changed;) {
		changed = 0;
		for (int32_t k = 0; k < c->nreach; k++) {
			int32_t b = c->rpo[k];
			if (b == c->exit || min[b] == M_TOP) continue;
			int m = min[b];
			for (int32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++)
				m = step(&f->ins[i], m, i, &dummy, NULL);
			for (int32_t s = 0; s < c->blocks[b].nsucc; s++) {
				int32_t x = c->blocks[b].succ[s];
				if (x == c->exit) continue;
				int nm = meet(min[x], m);
				if (nm != min[x]) min[x] = nm, changed = 1;
			}
		}
	}
	for (int32_t b = 0; b < nb; b++) {
		int m = min[b];
		if (m == M_TOP) continue;
		for (int32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++) {
			const Ins *in = &f->ins[i];
			if (m == M_MIXED) {
				if (out) fprintf(out, "regmutex check: %d: acquired on some paths only\n", i);
				bad++;
			}
			int mb = m;
			m = step(in, m, i, &bad, out);
			if (rm_cta_wait(in) && m != M_REL) {
				if (out) fprintf(out, "regmutex check: %d: CTA barrier while acquired\n", i);
				bad++;
			}
			if ((mb != M_ACQ || m != M_ACQ) && !(i == 0 && in->op == OP_RF_ACQUIRE))
				bad += check_regs(f, lt, in->op == OP_RF_RELEASE && inreg[b] != 2 ? lw : NULL, i,
				                  bs, out);
		}
	}
	bad += check_divergent(c, min, out);
	free(min);
	free(inreg);
	live_free(lt);
	live_free(lw);
	cfg_free(c);
	return bad;
}
