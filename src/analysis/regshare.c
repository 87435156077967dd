/*
 * regshare.c -- register sharing between thread blocks (Jatala, Anantpur
 * and Karkare, "The More We Share, The More We Have: Improving GPU
 * Performance through Register Sharing", HPDC 2016; the specification is
 * ../shared/papers/register-sharing-jatala.md): the compile-time half.
 *
 * Launch (§4, §4.1).  A register-limited SM holds g = floor(R / R_tb)
 * CTAs and wastes R mod R_tb registers.  With sharing, a pair of CTAs gets
 * R_tb (1 + t) registers instead of 2 R_tb: each warp of the pair keeps
 * R_w t registers of its own (unshared) and the two warps take turns, under
 * a lock, at the other R_w (1 - t) (shared).  To keep as many CTAs
 * guaranteed to progress as without sharing, S shared pairs and U unshared
 * CTAs satisfy
 *     (1)  S + U = g                 (one CTA of each pair always runs)
 *     (2)  U R_tb + S R_tb (1 + t) <= R
 *     (3)  M = U + 2S
 * so S <= (R - g R_tb) / (t R_tb) and S <= g (U >= 0), and
 *     (4)  M = (R - g R_tb (1 - t)) / (t R_tb)  = g + (R - g R_tb) / (t R_tb).
 * The SM then holds min(M, the thread, CTA-slot and shared-memory limits)
 * CTAs; when that cap is below g + S the extra CTAs are fewer, S = M - g
 * and U = g - S, and when it is at or below g nothing is shared.  R_tb and
 * g are those of the occupancy arithmetic (occupancy.c: allocation unit
 * and warp granularity), so the result without sharing is exactly
 * occupancy_compute's.  The unit tests reproduce Table 5 (all 48 entries)
 * and the example of §4 (35K registers, 10K per CTA, t = 0.5: 4 CTAs).
 *
 * Which registers are shared.  The hardware (Figure 4) tests RegNo
 * against R_w t; rfsim numbers registers per thread, so a thread's
 * registers R0..R(u-1), u = floor(regs t), are unshared and R(u).. are
 * shared: per warp 32u unshared registers (R_w t rounded down to whole
 * per-thread registers, so a pair never exceeds R_w (1 + t)) and
 * R_w - 32u shared.  A 64-bit pair R(2k):R(2k+1) touches the shared part
 * if its high half does.  Predicates are a file of their own (P0..P6) and
 * take no part, as they take none in occupancy.
 *
 * Reordering (§5.2, "unrolling and reordering of register declarations").
 * A non-owner warp stops at its first shared register, so the registers
 * a kernel touches first should be the unshared ones.  The paper reorders
 * PTXPlus declarations so that registers are declared in order of first
 * use; rfsim does the same on the allocated code as a renaming of the
 * architected registers.  First use is defined on the reverse-postorder
 * linearisation of the CFG: blocks in reverse postorder (reachable ones
 * first, cfg.h), the executable (non-pseudo) instructions of each block
 * in order, numbered 0, 1, ...; a register's first use is the smallest
 * number of an instruction that reads or writes it (guards and address
 * bases count).  RPO puts every block after its dominators and a loop's
 * body after its header, so the order approximates the dynamic order of
 * first touches without depending on branch outcomes.  Registers are
 * moved in units: an aligned quad if the code names it as a 128-bit
 * value, else an aligned pair if named as 64-bit, else one register.
 * Units in order of first use (ties, and never-used registers, by old
 * number) take the lowest free aligned place from which the units still
 * to come can all be placed within the same nphys registers -- quads in
 * free aligned quads, then pairs, then singles, which succeeds iff the
 * counts fit, because aligned blocks nest.  So the register count, and
 * with it occupancy, never changes, and pairs stay aligned.  The renaming
 * is applied to every function with a body (a callee's frame is its own
 * in rfsim's functional core); the figure of merit,
 * regshare_first_touch, is the RPO position of the first instruction that
 * names a shared register -- the same for every warp of the kernel, since
 * they all run its code from the entry.
 *
 * Hardware cost (§6): per SM, one sharing-mode bit, a sharer CTA id per
 * CTA slot (T ceil(log2(T+1)) bits, -1 encodes "none"), a shared bit and
 * an owner bit per warp (2W), and a lock holding a warp id per possible
 * warp pair (floor(W/2) ceil(log2 W)).  T = 8, W = 48 (Table 1) gives
 * 1 + 32 + 96 + 144 = 273 bits, the paper's figure.
 *
 * Left out: the lock, the deadlock-avoidance rule, ownership hand-over,
 * owner-warp-first scheduling and dynamic warp execution (the timing
 * model's), and any change of instruction order (only names change).
 */
#include "analysis/regshare.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cfg.h"
#include "base/base.h"
#include "base/models.h"
#include "base/rftech.h"

/* ---- launch arithmetic (§4.1) and hardware cost (§6) ---------------------------- */

/* floor(x) for an x that is mathematically an integer or a ratio of integers;
   the slack absorbs the rounding of t (0.1 * 10 must count as 1) */
static int64_t floor_exact(double x)
{
	return (int64_t)floor(x + 1e-9);
}

int32_t regshare_unshared_regs(int32_t regs, double t)
{
	return regs > 0 ? (int32_t)floor_exact((double)regs * t) : 0;
}

static int32_t min32(int32_t a, int32_t b) { return a < b ? a : b; }

void regshare_launch(const Config *c, const Occupancy *o, double t, RsLaunch *l)
{
	assert(t > 0 && t <= 1);
	memset(l, 0, sizeof *l);
	l->t = t;
	l->regs_per_cta = o->regs_per_cta;
	l->regs_per_warp = o->warps_per_cta ? o->regs_per_cta / o->warps_per_cta : 0;
	l->g = o->by[OCC_REGISTERS];
	l->cap = min32(min32(o->by[OCC_THREADS], o->by[OCC_CTAS]), o->by[OCC_SHARED]);
	l->base_ctas = min32(l->g, l->cap);
	assert(l->base_ctas == o->ctas_per_sm);
	int64_t extra = 0;          /* (R - g R_tb) / (t R_tb), floored */
	if (o->regs_per_cta > 0) {
		int64_t rem = rftech_registers(c) - (int64_t)l->g * o->regs_per_cta;
		if (rem > 0) extra = floor_exact((double)rem / (t * (double)o->regs_per_cta));
	}
	l->m_eq4 = (int32_t)(l->g + extra);
	int32_t s = (int32_t)(extra < l->g ? extra : l->g);       /* (1): U = g - S >= 0 */
	int32_t m = min32(l->g + s, l->cap);
	l->pairs = m > l->g ? m - l->g : 0;
	l->unshared = m > l->g ? l->g - l->pairs : m;
	l->ctas = l->unshared + 2 * l->pairs;
	assert(l->ctas == m && l->ctas >= l->base_ctas);
	l->unshared_regs = regshare_unshared_regs(o->regs, t);
	l->warp_unshared = 32 * l->unshared_regs;
	l->warp_shared = l->regs_per_warp - l->warp_unshared;
	if (l->warp_shared < 0) l->warp_shared = 0;
}

void regshare_launch_at(const Config *c, int32_t warps_per_cta, int32_t regs, int32_t by_other,
                        double t, RsLaunch *l)
{
	Occupancy o;
	occupancy_compute(c, warps_per_cta * 32, regs, 0, &o);
	o.by[OCC_THREADS] = o.by[OCC_CTAS] = o.by[OCC_SHARED] = by_other;
	o.ctas_per_sm = min32(o.by[OCC_REGISTERS], by_other);
	regshare_launch(c, &o, t, l);
}

int regshare_on(const Config *c)
{
	return c->regshare_enable || (model_passes((int)c->rf_model) & MP_REGSHARE);
}

static int64_t ceil_log2(int64_t v)
{
	int64_t b = 0;
	while ((1ll << b) < v) b++;
	return b;
}

int64_t regshare_hw_bits(int32_t max_ctas, int32_t max_warps)
{
	int64_t T = max_ctas, W = max_warps;
	return 1 + T * ceil_log2(T + 1) + 2 * W + W / 2 * ceil_log2(W);
}

/* ---- register references --------------------------------------------------------- */

/* 32-bit slots of a general register, 0 for a predicate */
static int width_of(const Func *f, int32_t r)
{
	PtxType t = (PtxType)f->regtype[r];
	if (t == PT_PRED) return 0;
	int sz = ptxtype_size(t);
	return sz == 16 ? 4 : sz == 8 ? 2 : 1;
}

typedef void (*RefFn)(void *ctx, const Func *f, int32_t reg);

static void ref_opd(const Operand *o, const Func *f, RefFn fn, void *ctx)
{
	if (o->kind == OPK_REG) fn(ctx, f, o->reg);
	else if (o->kind == OPK_ADDR && !(o->flags & OPDF_SYMBASE) && o->reg >= 0)
		fn(ctx, f, o->reg);
}

/* every register instruction in names (guard, operands, vector elements) */
static void each_ref(const Func *f, const Ins *in, RefFn fn, void *ctx)
{
	if (in->guard >= 0) fn(ctx, f, in->guard);
	for (int k = 0; k < in->nd + in->ns; k++) {
		const Operand *o = &in->o[k];
		if (o->kind != OPK_VEC) ref_opd(o, f, fn, ctx);
		else for (int j = 0; j < o->n; j++) ref_opd(&f->vops[o->reg + j], f, fn, ctx);
	}
}

/* pos[i]: RPO position of instruction i (the essay's first-use order), -1
   for pseudo instructions; returns the number of positions */
static int32_t rpo_positions(const Func *f, int32_t *pos)
{
	Cfg *c = cfg_build(f);
	int32_t n = 0;
	for (int32_t i = 0; i < f->nins; i++) pos[i] = -1;
	for (int32_t k = 0; k <= c->nblock; k++) {
		const Block *b = &c->blocks[c->rpo[k]];
		for (int32_t i = b->first; i <= b->last; i++)
			if (!(op_info[f->ins[i].op].flags & OPF_PSEUDO)) pos[i] = n++;
	}
	cfg_free(c);
	return n;
}

/* ---- planning ------------------------------------------------------------------------ */

typedef struct Scan {        /* what the code says about each slot */
	int32_t n;               /* slots: Func.nphys */
	uint8_t *unitw;          /* widest value named starting at each slot */
	int32_t *first;          /* first-use position of each slot, INT32_MAX if none */
	int32_t at;              /* position of the instruction being scanned */
} Scan;

static void scan_ref(void *ctx, const Func *f, int32_t r)
{
	Scan *s = ctx;
	int w = width_of(f, r);
	if (!w) return;
	int32_t p = f->phys[r];
	assert(p >= 0 && p + w <= s->n && p % w == 0);
	if (w > s->unitw[p]) s->unitw[p] = (uint8_t)w;
	for (int i = 0; i < w; i++)
		if (s->at < s->first[p + i]) s->first[p + i] = s->at;
}

typedef struct Unit {
	int32_t start, w;        /* old slots [start, start + w) */
	int32_t first;           /* earliest first use of its slots */
} Unit;

static int unit_cmp(const void *a, const void *b)
{
	const Unit *x = a, *y = b;
	if (x->first != y->first) return x->first < y->first ? -1 : 1;
	return x->start - y->start;
}

/* can need[w] units of widths 4, 2, 1 still be placed in the free slots? */
static int feasible(const uint8_t *used, int32_t n, const int32_t need[5])
{
	int32_t f4 = 0, f2 = 0, f1 = 0;
	for (int32_t p = 0; p < n; p++) {
		f1 += !used[p];
		if (p % 2 == 0 && p + 2 <= n) f2 += !used[p] && !used[p + 1];
		if (p % 4 == 0 && p + 4 <= n)
			f4 += !used[p] && !used[p + 1] && !used[p + 2] && !used[p + 3];
	}
	return need[4] <= f4 && need[2] <= f2 - 2 * need[4] &&
	       need[1] <= f1 - 4 * need[4] - 2 * need[2];
}

static int free_at(const uint8_t *used, int32_t p, int32_t w)
{
	for (int32_t i = 0; i < w; i++)
		if (used[p + i]) return 0;
	return 1;
}

/* units of the scan: quads, then pairs, then single slots, covering 0..n-1 */
static int32_t make_units(const Scan *s, Unit *u)
{
	int32_t nu = 0;
	for (int32_t p = 0; p < s->n;) {
		int32_t w = p % 4 == 0 && s->unitw[p] == 4 ? 4 : p % 2 == 0 && s->unitw[p] == 2 ? 2 : 1;
		Unit x = {p, w, INT32_MAX};
		for (int i = 0; i < w; i++)
			if (s->first[p + i] < x.first) x.first = s->first[p + i];
		u[nu++] = x;
		p += w;
	}
	return nu;
}

int32_t *regshare_plan(const Func *f)
{
	assert(f->phys);
	int32_t n = f->nphys;
	int32_t *perm = xmalloc(sizeof(int32_t) * ((size_t)n + 1));
	Scan s = {n, xcalloc((size_t)n + 1, 1), xmalloc(sizeof(int32_t) * ((size_t)n + 1)), 0};
	for (int32_t p = 0; p < n; p++) s.first[p] = INT32_MAX;
	int32_t *pos = xmalloc(sizeof(int32_t) * ((size_t)f->nins + 1));
	rpo_positions(f, pos);
	for (int32_t i = 0; i < f->nins; i++) {
		if (pos[i] < 0) continue;
		s.at = pos[i];
		each_ref(f, &f->ins[i], scan_ref, &s);
	}
	/* a quad may contain pairs named on their own: the quad wins */
	for (int32_t p = 0; p < n; p += 4)
		if (s.unitw[p] == 4)
			for (int i = 1; i < 4 && p + i < n; i++) s.unitw[p + i] = 0;
	Unit *u = xmalloc(sizeof(Unit) * ((size_t)n + 1));
	int32_t nu = make_units(&s, u);
	qsort(u, (size_t)nu, sizeof *u, unit_cmp);
	int32_t need[5] = {0};
	for (int32_t k = 0; k < nu; k++) need[u[k].w]++;
	uint8_t *used = xcalloc((size_t)n + 1, 1);
	for (int32_t k = 0; k < nu; k++) {
		int32_t w = u[k].w, p = 0;
		need[w]--;
		for (; p + w <= n; p += w) {
			if (!free_at(used, p, w)) continue;
			memset(used + p, 1, (size_t)w);
			if (feasible(used, n, need)) break;
			memset(used + p, 0, (size_t)w);
		}
		if (p + w > n) die("regshare: no place for R%d (width %d)", u[k].start, w);
		for (int32_t i = 0; i < w; i++) perm[u[k].start + i] = p + i;
	}
	free(used), free(u), free(pos), free(s.unitw), free(s.first);
	return perm;
}

/* ---- renaming ---------------------------------------------------------------------- */

static void rename_opd(Operand *o, const Func *f, const int32_t *perm)
{
	if (!(o->kind == OPK_REG || (o->kind == OPK_ADDR && !(o->flags & OPDF_SYMBASE) &&
	                             o->reg >= 0)))
		return;
	if (!width_of(f, o->reg)) return;
	int32_t p = f->phys[o->reg];
	o->reg = o->reg - p + perm[p];   /* same kind's table: ids base + slot */
}

void regshare_apply(Func *f, const int32_t *perm)
{
	assert(f->phys);
	/* regalloc.c's layout: each general kind's table is R0..R(nphys-1) in order */
	for (int32_t d = 0; d < f->nrdecl; d++) {
		const RegDecl *rd = &f->rdecl[d];
		if (rd->type == PT_PRED) continue;
		assert(rd->count == f->nphys);
		for (int32_t j = 0; j < rd->count; j++) assert(f->phys[rd->base + j] == j);
	}
	for (int32_t i = 0; i < f->nins; i++) {
		Ins *in = &f->ins[i];
		for (int k = 0; k < in->nd + in->ns; k++)
			if (in->o[k].kind != OPK_VEC) rename_opd(&in->o[k], f, perm);
	}
	/* vector elements once each, wherever they are named from */
	for (int32_t v = 0; v < f->nvop; v++) rename_opd(&f->vops[v], f, perm);
}

int32_t *regshare_reorder(const Module *m, Func *f, FILE *dump)
{
	if (!f->phys || !f->has_body) return NULL;
	int32_t *perm = regshare_plan(f);
	regshare_apply(f, perm);
	if (dump) {
		fprintf(dump, "regshare %s: %d registers renamed by first use",
		        ir_str(m, m->syms[f->sym].name), f->nphys);
		for (int32_t p = 0; p < f->nphys; p++)
			fprintf(dump, "%s R%d->R%d", p % 10 ? "" : "\n ", p, perm[p]);
		fputc('\n', dump);
	}
	return perm;
}

/* ---- the figure of merit ------------------------------------------------------------- */

typedef struct Touch {
	const int32_t *perm;
	int32_t u;
	int hit;
} Touch;

static void touch_ref(void *ctx, const Func *f, int32_t r)
{
	Touch *t = ctx;
	int w = width_of(f, r);
	if (!w) return;
	int32_t p = f->phys[r];
	int32_t hi = (t->perm ? t->perm[p] : p) + w - 1;
	if (hi >= t->u) t->hit = 1;
}

int32_t regshare_first_touch(const Func *f, const int32_t *perm, int32_t u)
{
	if (!f->phys) return -1;
	int32_t *pos = xmalloc(sizeof(int32_t) * ((size_t)f->nins + 1));
	rpo_positions(f, pos);
	int32_t best = -1;
	for (int32_t i = 0; i < f->nins; i++) {
		if (pos[i] < 0 || (best >= 0 && pos[i] >= best)) continue;
		Touch t = {perm, u, 0};
		each_ref(f, &f->ins[i], touch_ref, &t);
		if (t.hit) best = pos[i];
	}
	free(pos);
	return best;
}
