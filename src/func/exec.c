/*
 * exec.c -- the functional core: executes decoded PTX one warp instruction
 * at a time, 32 lanes at once, with SIMT divergence and reconvergence.
 *
 * This file owns the step loop and everything but memory and the SIMT
 * stack: reading sources, writing destinations, special registers,
 * warp-level exchange (shfl, vote, match, redux), barriers, and the
 * arithmetic dispatch.  The arithmetic of each (op, type, modifiers) lives
 * in eval.c, which the general case calls per lane; the hottest unmodified
 * integer and floating-point forms are expanded here (DIns.fast), so a
 * typical instruction costs one switch and one tight loop over the active
 * lanes.  Memory instructions and fault reports are in exec_mem.c, the
 * reconvergence stack, calls and returns in simt.c; warp.h has the rules.
 */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "func/alu.h"
#include "func/eval.h"
#include "func/exec_int.h"

/* ---- special registers --------------------------------------------------- */

static uint64_t sreg_value(const Cta *c, const Warp *w, uint32_t l, int sr, int comp)
{
	const Launch *L = c->L;
	uint32_t t[3];
	const uint32_t *nt = &L->block.x, *ci = &c->id.x, *nc = &L->grid.x;
	int k = comp ? comp - 1 : 0;
	uint64_t clk = c->clock ? (uint64_t)*c->clock : w->ninsts;
	switch ((SReg)sr) {
	case SR_TID: exec_thread_of(L, w, l, t); return t[k];
	case SR_NTID: return nt[k];
	case SR_CTAID: return ci[k];
	case SR_NCTAID: return nc[k];
	case SR_LANEID: return l;
	case SR_WARPID: return (uint32_t)w->widx;
	case SR_NWARPID: return (uint32_t)c->nwarps;
	case SR_SMID: return (uint32_t)c->smid;
	case SR_NSMID: return (uint32_t)L->nsm;
	case SR_GRIDID: return 1;
	case SR_LANEMASK_EQ: return 1u << l;
	case SR_LANEMASK_LE: return (uint32_t)((2ull << l) - 1);
	case SR_LANEMASK_LT: return (1u << l) - 1;
	case SR_LANEMASK_GE: return ~((1u << l) - 1);
	case SR_LANEMASK_GT: return ~(uint32_t)((2ull << l) - 1);
	/* the SM's cycle in timing mode; functionally, the warp's instruction count */
	case SR_CLOCK: return (uint32_t)clk;
	case SR_CLOCK_HI: return (uint32_t)(clk >> 32);
	case SR_CLOCK64: return clk;
	case SR_GLOBALTIMER: return (uint64_t)(clk / L->clock_ghz);
	case SR_GLOBALTIMER_LO: return (uint32_t)(uint64_t)(clk / L->clock_ghz);
	case SR_GLOBALTIMER_HI: return (uint32_t)((uint64_t)(clk / L->clock_ghz) >> 32);
	case SR_DYNAMIC_SMEM_SIZE: return L->dyn_shmem;
	case SR_TOTAL_SMEM_SIZE: return c->shared_bytes;
	case SR_AGGR_SMEM_SIZE: return img_reserved_begin(L->img, L->dyn_shmem) + IMG_RESERVED_SMEM;
	case SR_RSMEM_BEGIN: case SR_RSMEM_0: case SR_RSMEM_1:
		return img_reserved_begin(L->img, L->dyn_shmem);
	case SR_RSMEM_END: return img_reserved_begin(L->img, L->dyn_shmem) + IMG_RESERVED_SMEM_USED;
	case SR_RSMEM_CAP: return img_reserved_begin(L->img, L->dyn_shmem) + IMG_RESERVED_SMEM;
	/* clusters: a launch that asked for none has clusters of one CTA */
	case SR_CLUSTERID: return ci[k] / (&L->cluster.x)[k];
	case SR_NCLUSTERID: return nc[k] / (&L->cluster.x)[k];
	case SR_CLUSTER_CTAID: return ci[k] % (&L->cluster.x)[k];
	case SR_CLUSTER_NCTAID: return (&L->cluster.x)[k];
	case SR_CLUSTER_CTARANK: return (uint32_t)c->rank;
	case SR_CLUSTER_NCTARANK: return L->csize;
	case SR_IS_EXPLICIT_CLUSTER: return L->explicit_cluster;
	/* what the driver puts in the environment registers: only the grid
	   workspace that cooperative_groups' grid.sync() reads as
	   (%envreg1 << 32 | %envreg2) and spins on; 0 outside cooperative launches,
	   on which grid.sync() traps, as on NVIDIA's GPUs */
	case SR_ENVREG:
		return comp == 1 ? L->grid_ws >> 32 : comp == 2 ? (uint32_t)L->grid_ws : 0;
	case SR_PM: return 0;
	case NSREG: break;
	}
	return 0;
}

/* ---- warp-level exchange ---------------------------------------------------- */

static void exec_shfl(Warp *w, const Image *img, const DIns *d, uint32_t act)
{
	const uint32_t *a = srcp(w, img, d->s[0]), *b = srcp(w, img, d->s[1]);
	const uint32_t *cc = srcp(w, img, d->s[2]);
	uint32_t out[32], ok = 0;
	LANES(act, l) {
		uint32_t bv = b[l] & 31, cv = cc[l] & 31, seg = (cc[l] >> 8) & 31;
		uint32_t maxl = (l & seg) | (cv & ~seg), minl = l & seg;
		int32_t j;
		int p;
		switch (d->mode) {
		case MODE_UP: j = (int32_t)l - (int32_t)bv; p = j >= (int32_t)maxl; break;
		case MODE_DOWN: j = (int32_t)(l + bv); p = j <= (int32_t)maxl; break;
		case MODE_BFLY: j = (int32_t)(l ^ bv); p = j <= (int32_t)maxl; break;
		default: j = (int32_t)(minl | (bv & ~seg)); p = j <= (int32_t)maxl; break;
		}
		if (!p) j = (int32_t)l;
		out[l] = a[j & 31];
		ok |= (uint32_t)p << l;
	}
	uint32_t *dp = dstp(w, d->d[0]);
	LANES(act, l) dp[l] = out[l];
	if (d->nd > 1 && d->d[1] >= 0) set_pred(w, d->d[1], act, ok);
}

/* the lanes lane l exchanges with: its membermask operand (source ms of a
 * .sync form; the active lanes when the instruction has none) among the
 * active lanes.  Lanes of one warp may name different masks -- the tiles
 * of cooperative_groups::tiled_partition do -- and each gets the result
 * over its own group */
static uint32_t member_mask(const Warp *w, const Image *img, const DIns *d, int ms,
                            uint32_t act, uint32_t l)
{
	if (d->ns <= ms) return act;
	return srcp(w, img, d->s[ms])[l] & act;
}

static void exec_vote(Warp *w, const Image *img, const DIns *d, uint32_t act)
{
	uint32_t p = src_pred(w, img, d, 0) & act;
	uint32_t *dp = d->mode == MODE_BALLOT ? dstp(w, d->d[0]) : NULL, res = 0;
	LANES(act, l) {
		uint32_t m = member_mask(w, img, d, 1, act, l), q = p & m;
		if (dp) {
			dp[l] = q;
			continue;
		}
		uint32_t r = d->mode == MODE_ALL ? (q == m) : d->mode == MODE_ANY ? (q != 0)
		           : (q == 0 || q == m);
		res |= r << l;
	}
	if (!dp) set_pred(w, d->d[0], act, res);
}

static void exec_match(Warp *w, const Image *img, const DIns *d, uint32_t act)
{
	const uint32_t *a = srcp(w, img, d->s[0]);
	int wide = d->sw[0] > 1;
	uint32_t res[32], allp = 0;
	LANES(act, l) {
		uint32_t m = member_mask(w, img, d, 1, act, l), eq = 0;
		LANES(m, k) eq |= (uint32_t)(rdw(a, k, wide + 1) == rdw(a, l, wide + 1)) << k;
		if (d->mode == MODE_MATCH_ALL) {
			int all = eq == m;
			res[l] = all ? m : 0;
			allp |= (uint32_t)all << l;
		} else {
			res[l] = eq;
		}
	}
	uint32_t *dp = dstp(w, d->d[0]);
	LANES(act, l) dp[l] = res[l];
	if (d->mode == MODE_MATCH_ALL && d->nd > 1 && d->d[1] >= 0) set_pred(w, d->d[1], act, allp);
}

/* elect.sync d|p, membermask: the leader is the lowest lane of the members
 * that run it -- the same lane for the same mask every time, as the ISA
 * asks; d is its lane id in every member, p true in it alone */
static void exec_elect(Warp *w, const Image *img, const DIns *d, uint32_t act)
{
	uint32_t *dp = d->d[0] >= 0 ? dstp(w, d->d[0]) : NULL, leaders = 0;
	LANES(act, l) {
		uint32_t m = member_mask(w, img, d, 0, act, l);
		uint32_t lead = m ? (uint32_t)__builtin_ctz(m) : l;
		if (dp) dp[l] = lead;
		leaders |= (uint32_t)(lead == l) << l;
	}
	if (d->nd > 1 && d->d[1] >= 0) set_pred(w, d->d[1], act, leaders);
}

static uint32_t redux_over(const DIns *d, const uint32_t *a, uint32_t m)
{
	int sgn = (d->flags & DF_SIGNED) != 0, first = 1;
	uint32_t r = 0;
	LANES(m, l) {
		uint32_t v = a[l];
		if (first) { r = v; first = 0; continue; }
		switch (d->aop) {
		case AOP_ADD: r += v; break;
		case AOP_AND: r &= v; break;
		case AOP_OR: r |= v; break;
		case AOP_XOR: r ^= v; break;
		case AOP_MIN: r = sgn ? ((int32_t)v < (int32_t)r ? v : r) : (v < r ? v : r); break;
		case AOP_MAX: r = sgn ? ((int32_t)v > (int32_t)r ? v : r) : (v > r ? v : r); break;
		default: break;
		}
	}
	return r;
}

static void exec_redux(Warp *w, const Image *img, const DIns *d, uint32_t act)
{
	const uint32_t *a = srcp(w, img, d->s[0]);
	uint32_t res[32], last_m = 0, last_r = 0;
	int have = 0;
	LANES(act, l) {             /* lanes usually share a mask: reduce once per mask */
		uint32_t m = member_mask(w, img, d, 1, act, l);
		if (!have || m != last_m) last_r = redux_over(d, a, m), last_m = m, have = 1;
		res[l] = last_r;
	}
	uint32_t *dp = dstp(w, d->d[0]);
	LANES(act, l) dp[l] = res[l];
}

/* ---- barriers ------------------------------------------------------------------ */

uint32_t cluster_rank_of(const Launch *L, Dim3 id)
{
	const Dim3 *k = &L->cluster;
	return id.x % k->x + id.y % k->y * k->x + id.z % k->z * k->x * k->y;
}

/* the cluster's phase is complete when every live warp of it arrived: the
 * waiting warps go on (each member's owner is told, in the timing model) */
static void cluster_check(Cluster *cl)
{
	int32_t live = 0;
	for (int32_t r = 0; r < cl->n; r++) live += cl->cta[r]->live_warps;
	if (!cl->arrived || cl->arrived < live) return;
	cl->arrived = 0;
	cl->phase++;
	for (int32_t r = 0; r < cl->n; r++) {
		Cta *m = cl->cta[r];
		int woke = 0;
		for (int32_t i = 0; i < m->nwarps; i++) {
			Warp *w = &m->warps[i];
			if (w->state != W_BARRIER || w->bar_id != CLUSTER_BAR) continue;
			w->state = W_READY;
			woke = 1;
		}
		if (woke && cl->wake) cl->wake(m);
	}
}

void cluster_warp_exited(Cta *c)
{
	if (c->cl && c->cl->n > 1) cluster_check(c->cl);
}

/* barrier.cluster.arrive / .wait: the warp counts once per phase, as at bar.sync
 * (.aligned or not: rfsim's barriers count warps); a wait whose phase is not
 * over parks the warp until it is */
static int exec_clbar(Cta *c, Warp *w, const DIns *d)
{
	Cluster *cl = c->cl;
	if (d->mode == MODE_ARRIVE) {
		w->cl_phase = cl->phase;
		cl->arrived++;
		cluster_check(cl);
		return EX_OK;
	}
	if (w->cl_phase != cl->phase) return EX_OK;     /* the phase it arrived in is over */
	w->state = W_BARRIER;
	w->bar_id = CLUSTER_BAR;
	w->bar_pc = w->stk[w->nstk - 1].pc;
	w->bar_mask = w->stk[w->nstk - 1].mask;
	return EX_BARRIER;
}

static int exec_bar(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	const Image *img = c->L->img;
	uint32_t first = (uint32_t)__builtin_ctz(act);
	uint32_t id = d->ns ? srcp(w, img, d->s[0])[first] & 15 : 0;
	Barrier *b = &c->bars[id];
	int nsrc = d->ns - (d->mode == MODE_RED);
	if (nsrc > 1) {
		uint32_t cnt = srcp(w, img, d->s[1])[first];
		b->expected = (int32_t)((cnt + 31) / 32);
	}
	if (d->mode == MODE_RED) {
		uint32_t p = src_pred(w, img, d, d->ns - 1) & act;
		b->red_popc += (uint32_t)__builtin_popcount(p);
		b->red_and &= p == act;
		b->red_or |= p != 0;
	}
	b->arrived++;
	if (d->mode == MODE_ARRIVE) return EX_OK;
	w->state = W_BARRIER;
	w->bar_id = (uint8_t)id;
	w->bar_pc = w->stk[w->nstk - 1].pc;
	w->bar_mask = act;
	return EX_BARRIER;
}

void cta_release_barriers(Cta *c)
{
	for (int id = 0; id < 16; id++) {
		Barrier *b = &c->bars[id];
		int32_t need = b->expected ? b->expected : c->live_warps;
		if (!b->arrived || b->arrived < need) continue;
		for (int32_t i = 0; i < c->nwarps; i++) {
			Warp *w = &c->warps[i];
			if (w->state != W_BARRIER || w->bar_id != id) continue;
			w->state = W_READY;
			const DIns *d = &c->L->img->code[w->bar_pc];
			if (!d->nd || d->d[0] < 0) continue;
			if (d->flags & DF_PRED_DST) {
				uint32_t v = d->aop == AOP_AND ? b->red_and : b->red_or;
				set_pred(w, d->d[0], w->bar_mask, v ? ~0u : 0);
			} else {
				uint32_t *dp = dstp(w, d->d[0]);
				LANES(w->bar_mask, l) dp[l] = b->red_popc;
			}
		}
		*b = (Barrier){0, 0, 0, 1, 0};
	}
}

/* ---- the general ALU path ---------------------------------------------------------- */

static void exec_alu(Warp *w, const Image *img, const DIns *d, uint32_t act)
{
	const uint32_t *sp[DINS_MAXS];
	for (int i = 0; i < d->ns; i++)
		sp[i] = (d->spred >> i) & 1 ? NULL : srcp(w, img, d->s[i]);
	uint64_t v[DINS_MAXS];
	uint32_t res_pred = 0, cc = w->cc;
	uint32_t *dp = (d->flags & DF_PRED_DST) || d->d[0] < 0 ? NULL : dstp(w, d->d[0]);
	LANES(act, l) {
		for (int i = 0; i < d->ns; i++) {
			if (sp[i]) {
				v[i] = rdw(sp[i], l, d->sw[i]);
			} else {
				v[i] = (pred(w, d->s[i]) >> l) & 1;
				v[i] ^= (d->sneg >> i) & 1;
			}
		}
		uint32_t c1 = (cc >> l) & 1;
		uint64_t r = sim_eval(d, v, &c1);
		if (d->mods & MOD_CC) cc = (cc & ~(1u << l)) | (c1 << l);
		if (dp) wrw(dp, l, d->dw[0], r);
		else res_pred |= (uint32_t)(r & 1) << l;
	}
	w->cc = cc;
	if (d->flags & DF_PRED_DST) set_pred(w, d->d[0], act, res_pred);
}

static void exec_setp(Warp *w, const Image *img, const DIns *d, uint32_t act)
{
	const uint32_t *a = srcp(w, img, d->s[0]), *b = srcp(w, img, d->s[1]);
	uint32_t t = 0, hi = 0;                     /* the comparison; q's before BoolOp */
	int wd = d->sw[0];
	PtxType ty = (PtxType)d->type;
	if (wd == 1 && (ty == PT_S32 || ty == PT_U32 || ty == PT_B32)) {
		int sg = ty == PT_S32;
		LANES(act, l) {
			uint32_t x = a[l], y = b[l];
			int r;
			switch (d->cmp) {
			case CMP_EQ: r = x == y; break;
			case CMP_NE: r = x != y; break;
			case CMP_LT: r = sg ? (int32_t)x < (int32_t)y : x < y; break;
			case CMP_LE: r = sg ? (int32_t)x <= (int32_t)y : x <= y; break;
			case CMP_GT: r = sg ? (int32_t)x > (int32_t)y : x > y; break;
			case CMP_GE: r = sg ? (int32_t)x >= (int32_t)y : x >= y; break;
			default: r = alu_cmp((Cmp)d->cmp, ty, x, y); break;
			}
			t |= (uint32_t)r << l;
		}
		hi = ~t;
	} else if (ty == PT_F16X2 || ty == PT_BF16X2) {   /* p the low halves, q the high */
		LANES(act, l) {
			int r = sim_cmp_halves(d, ty, a[l], b[l]);
			t |= (uint32_t)(r & 1) << l;
			hi |= (uint32_t)(r >> 1) << l;
		}
	} else {
		int ftz = (d->mods & MOD_FTZ) && ptxtype_is_float(ty);
		LANES(act, l) {
			uint64_t x = rdw(a, l, wd), y = rdw(b, l, wd);
			if (ftz) x = alu_fflush(ty, x), y = alu_fflush(ty, y);
			t |= (uint32_t)alu_cmp((Cmp)d->cmp, ty, x, y) << l;
		}
		hi = ~t;
	}
	uint32_t p = t, q = hi;
	if (d->bop) {
		uint32_t cpred = src_pred(w, img, d, 2);
		switch (d->bop) {
		case BOP_AND: p &= cpred; q &= cpred; break;
		case BOP_OR: p |= cpred; q |= cpred; break;
		default: p ^= cpred; q ^= cpred; break;
		}
	}
	if (d->d[0] >= 0) set_pred(w, d->d[0], act, p);
	if (d->nd > 1 && d->d[1] >= 0) set_pred(w, d->d[1], act, q);
}

static void exec_mov(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	const Image *img = c->L->img;
	if (d->flags & DF_PRED_DST) {           /* mov.pred */
		set_pred(w, d->d[0], act, src_pred(w, img, d, 0));
		return;
	}
	if (d->flags & DF_FRAMEADDR) {          /* address of a .local variable */
		uint32_t *dp = dstp(w, d->d[0]);
		LANES(act, l) wrw(dp, l, d->dw[0], (uint64_t)d->imm + w->lbase);
		return;
	}
	if (d->nd > 1) {                        /* unpack: mov.b64 {a,b}, x */
		const uint32_t *sp = srcp(w, img, d->s[0]);
		int e = d->elt;
		LANES(act, l) {
			uint64_t v = rdw(sp, l, d->sw[0]);
			for (int i = 0; i < d->nd; i++)
				if (d->d[i] >= 0)
					wrw(dstp(w, d->d[i]), l, d->dw[i], extend(v >> (8 * e * i), e, 0));
		}
		return;
	}
	if (d->ns > 1) {                        /* pack: mov.b64 x, {a,b} */
		uint32_t *dp = dstp(w, d->d[0]);
		int e = d->elt;
		LANES(act, l) {
			uint64_t v = 0;
			for (int i = d->ns - 1; i >= 0; i--)
				v = (v << (8 * e)) | extend(rdw(srcp(w, img, d->s[i]), l, d->sw[i]), e, 0);
			wrw(dp, l, d->dw[0], v);
		}
		return;
	}
	if (d->spred & 1) {                     /* mov.u32 r, p is not PTX, but selp-like */
		uint32_t *dp = dstp(w, d->d[0]);
		uint32_t p = pred(w, d->s[0]);
		LANES(act, l) wrw(dp, l, d->dw[0], (p >> l) & 1);
		return;
	}
	const uint32_t *sp = srcp(w, img, d->s[0]);
	uint32_t *dp = dstp(w, d->d[0]);
	int sz = ptxtype_size((PtxType)d->type);
	LANES(act, l) wrw(dp, l, d->dw[0], extend(rdw(sp, l, d->sw[0]), sz ? sz : 8, 0));
}

static void exec_sreg(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	uint32_t *dp = dstp(w, d->d[0]);
	LANES(act, l) wrw(dp, l, d->dw[0], sreg_value(c, w, l, (int)d->imm, d->aux));
}

static void exec_cvta(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	const uint32_t *sp = srcp(w, c->L->img, d->s[0]);
	uint32_t *dp = dstp(w, d->d[0]);
	uint64_t win = 0;
	switch (d->space) {
	case SP_SHARED: case SP_SHARED_CLUSTER: win = GPU_SHARED_WIN; break;
	case SP_LOCAL: win = GPU_LOCAL_WIN; break;
	case SP_CONST: win = GPU_CONST_WIN; break;
	case SP_PARAM: win = GPU_PARAM_WIN; break;
	default: break;
	}
	LANES(act, l) {
		uint64_t a = rdw(sp, l, d->sw[0]);
		if (win && (d->mods & MOD_TO)) a -= win;
		else if (win) a += win;
		wrw(dp, l, d->dw[0], d->dw[0] > 1 ? a : (uint32_t)a);
	}
}

static void exec_isspacep(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	const uint32_t *sp = srcp(w, c->L->img, d->s[0]);
	uint32_t r = 0;
	LANES(act, l) {
		uint64_t a = rdw(sp, l, d->sw[0]);
		int in;
		switch (d->space) {
		case SP_SHARED: in = a - GPU_SHARED_WIN < (1ull << CLUSTER_RANK_SHIFT); break;
		case SP_SHARED_CLUSTER: in = a - GPU_SHARED_WIN < GPU_WIN_SIZE; break;
		case SP_LOCAL: in = a - GPU_LOCAL_WIN < GPU_WIN_SIZE; break;
		case SP_CONST: in = a - GPU_CONST_WIN < GPU_WIN_SIZE; break;
		case SP_PARAM: in = a - GPU_PARAM_WIN < GPU_WIN_SIZE; break;
		default: in = a >= GPU_GLOBAL_BASE && a < GPU_GLOBAL_END; break;
		}
		r |= (uint32_t)in << l;
	}
	set_pred(w, d->d[0], act, r);
}

/* mapa{.shared::cluster}.u32|u64 d, a, rank: the address, in CTA `rank` of the
 * cluster, of what a names in this CTA's shared memory (a shared::cta or
 * shared::cluster address, or with no space a generic one); getctarank: the
 * rank of the CTA whose shared memory a names.  A rank outside the cluster, or
 * an address outside shared memory, is a fault. */
static int exec_mapa(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	const Image *img = c->L->img;
	const uint32_t *sp = srcp(w, img, d->s[0]);
	const uint32_t *rp = d->op == OP_MAPA ? srcp(w, img, d->s[1]) : NULL;
	uint32_t *dp = dstp(w, d->d[0]);
	int generic = d->space != SP_SHARED_CLUSTER;
	LANES(act, l) {
		uint64_t a = rdw(sp, l, d->sw[0]);
		uint64_t off = generic ? a - GPU_SHARED_WIN : a;
		if (off >= ((uint64_t)CLUSTER_MAX + 1) << CLUSTER_RANK_SHIFT) {
			char m[160];
			snprintf(m, sizeof m, "%s of address 0x%llx, which is not in shared memory",
			         d->op == OP_MAPA ? "mapa" : "getctarank", (unsigned long long)a);
			exec_fault(c, w, l, d, FAULT_ADDRESS, m);
			return EX_FAULT;
		}
		uint32_t have = (uint32_t)(off >> CLUSTER_RANK_SHIFT);
		uint32_t own = have ? have - 1 : (uint32_t)c->rank;
		uint64_t r;
		if (d->op == OP_GETCTARANK) {
			r = own;
		} else {
			uint32_t rank = rp[l];
			if (rank >= c->L->csize) {
				char m[160];
				snprintf(m, sizeof m, "mapa to CTA rank %u of a cluster of %u", rank,
				         c->L->csize);
				exec_fault(c, w, l, d, FAULT_ADDRESS, m);
				return EX_FAULT;
			}
			off &= (1ull << CLUSTER_RANK_SHIFT) - 1;
			if (rank != (uint32_t)c->rank) off |= (uint64_t)(rank + 1) << CLUSTER_RANK_SHIFT;
			r = generic ? off + GPU_SHARED_WIN : off;
		}
		wrw(dp, l, d->dw[0], d->dw[0] > 1 ? r : (uint32_t)r);
	}
	return EX_OK;
}

/* ---- fast paths ------------------------------------------------------------------- */

static inline uint32_t canon_f32(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return (u & 0x7fffffffu) > 0x7f800000u ? 0x7fffffffu : u;
}

static inline float as_f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* r[l] = expr for the lanes of gm: for a full warp, one loop over all 32 lanes into a
 * local array, which the compiler vectorises (the destination may be a source, so the
 * results go to r only once every lane is computed); else lane by lane */
#define LANEWISE(expr) do { \
	if (gm == ~0u) { \
		uint32_t t_[32]; \
		for (uint32_t l = 0; l < 32; l++) t_[l] = (expr); \
		memcpy(r, t_, sizeof t_); \
	} else { \
		LANES(gm, l) r[l] = (expr); \
	} } while (0)
#define FAST2(expr) do { const uint32_t *a = srcp(w, img, d->s[0]), *b = srcp(w, img, d->s[1]); \
	uint32_t *r = dstp(w, d->d[0]); LANEWISE(expr); } while (0)
#define FAST3(expr) do { const uint32_t *a = srcp(w, img, d->s[0]), *b = srcp(w, img, d->s[1]); \
	const uint32_t *cc = srcp(w, img, d->s[2]); uint32_t *r = dstp(w, d->d[0]); \
	LANEWISE(expr); } while (0)
#define FAST64(expr) do { const uint32_t *a = srcp(w, img, d->s[0]), *b = srcp(w, img, d->s[1]); \
	uint32_t *r = dstp(w, d->d[0]); LANES(gm, l) wrw(r, l, 2, (expr)); } while (0)

static inline double as_f64(uint64_t u)
{
	double f;
	memcpy(&f, &u, 8);
	return f;
}

/* f64 add/sub/mul/fma with .rn: the host FPU's result, except a NaN, whose
 * payload NVIDIA derives from the operands (alu.h) */
static void exec_fast_f64(Warp *w, const Image *img, const DIns *d, uint32_t gm)
{
	const uint32_t *a = srcp(w, img, d->s[0]), *b = srcp(w, img, d->s[1]);
	const uint32_t *cc = d->ns > 2 ? srcp(w, img, d->s[2]) : a;
	uint32_t *r = dstp(w, d->d[0]);
	LANES(gm, l) {
		uint64_t x = rd64(a, l), y = rd64(b, l), z = rd64(cc, l), v;
		double q;
		switch (d->fast) {
		case FAST_ADD_F64: q = as_f64(x) + as_f64(y); break;
		case FAST_SUB_F64: q = as_f64(x) - as_f64(y); break;
		case FAST_MUL_F64: q = as_f64(x) * as_f64(y); break;
		default: q = __builtin_fma(as_f64(x), as_f64(y), as_f64(z)); break;
		}
		if (q != q) {
			uint64_t vv[3] = {x, y, z};
			uint32_t c0 = 0;
			v = sim_eval(d, vv, &c0);
		} else {
			memcpy(&v, &q, 8);
		}
		wrw(r, l, 2, v);
	}
}

SIMD_CLONES
static int exec_fast(Warp *w, const Image *img, const DIns *d, uint32_t gm)
{
	switch (d->fast) {
	case FAST_ADD_I32: FAST2(a[l] + b[l]); break;
	case FAST_SUB_I32: FAST2(a[l] - b[l]); break;
	case FAST_MUL_LO32: FAST2(a[l] * b[l]); break;
	case FAST_MAD_LO32: FAST3(a[l] * b[l] + cc[l]); break;
	case FAST_AND_B32: FAST2(a[l] & b[l]); break;
	case FAST_OR_B32: FAST2(a[l] | b[l]); break;
	case FAST_XOR_B32: FAST2(a[l] ^ b[l]); break;
	case FAST_SHL_B32: FAST2(b[l] > 31 ? 0 : a[l] << b[l]); break;
	case FAST_SHR_U32: FAST2(b[l] > 31 ? 0 : a[l] >> b[l]); break;
	case FAST_SHR_S32: FAST2((uint32_t)((int32_t)a[l] >> (b[l] > 31 ? 31 : b[l]))); break;
	case FAST_ADD_I64: FAST64(rd64(a, l) + rd64(b, l)); break;
	case FAST_MUL_WIDE_S32: FAST64((uint64_t)((int64_t)(int32_t)a[l] * (int32_t)b[l])); break;
	case FAST_MUL_WIDE_U32: FAST64((uint64_t)a[l] * b[l]); break;
	case FAST_ADD_F32: FAST2(canon_f32(as_f32(a[l]) + as_f32(b[l]))); break;
	case FAST_SUB_F32: FAST2(canon_f32(as_f32(a[l]) - as_f32(b[l]))); break;
	case FAST_MUL_F32: FAST2(canon_f32(as_f32(a[l]) * as_f32(b[l]))); break;
	case FAST_FMA_F32: FAST3(canon_f32(__builtin_fmaf(as_f32(a[l]), as_f32(b[l]),
	                                                  as_f32(cc[l])))); break;
	case FAST_ADD_F64: case FAST_SUB_F64: case FAST_MUL_F64: case FAST_FMA_F64:
		exec_fast_f64(w, img, d, gm);
		break;
	case FAST_MOV32: {
		const uint32_t *a = srcp(w, img, d->s[0]);
		uint32_t *r = dstp(w, d->d[0]);
		LANES(gm, l) r[l] = a[l];
		break;
	}
	case FAST_MOV64: {
		const uint32_t *a = srcp(w, img, d->s[0]);
		uint32_t *r = dstp(w, d->d[0]);
		LANES(gm, l) { r[l] = a[l]; r[l + 32] = a[l + 32]; }
		break;
	}
	case FAST_SELP32: {
		const uint32_t *a = srcp(w, img, d->s[0]), *b = srcp(w, img, d->s[1]);
		uint32_t p = pred(w, d->s[2]), *r = dstp(w, d->d[0]);
		if (d->sneg & 4) p = ~p;
		LANES(gm, l) r[l] = (p >> l) & 1 ? a[l] : b[l];
		break;
	}
	case FAST_CVT_U64_U32: {
		const uint32_t *a = srcp(w, img, d->s[0]);
		uint32_t *r = dstp(w, d->d[0]);
		LANES(gm, l) { r[l] = a[l]; r[l + 32] = 0; }
		break;
	}
	case FAST_CVT_S64_S32: {
		const uint32_t *a = srcp(w, img, d->s[0]);
		uint32_t *r = dstp(w, d->d[0]);
		LANES(gm, l) { r[l] = a[l]; r[l + 32] = (uint32_t)((int32_t)a[l] >> 31); }
		break;
	}
	default:
		return 0;
	}
	return 1;
}

/* ---- the step loop ----------------------------------------------------------------- */

/* a register-file pseudo-op of the compiler's mechanism passes: issued, not counted */
static inline int rf_pseudo(const DIns *d)
{
	return d->op == OP_RF_PREFETCH || d->op == OP_RF_ACQUIRE || d->op == OP_RF_RELEASE;
}

/* cvta, isspacep, mapa, getctarank (KIND_ADDR); nonzero: a fault */
static int exec_space(Cta *c, Warp *w, const DIns *d, uint32_t gm)
{
	switch ((Op)d->op) {
	case OP_CVTA: exec_cvta(c, w, d, gm); return 0;
	case OP_ISSPACEP: exec_isspacep(c, w, d, gm); return 0;
	case OP_MAPA: case OP_GETCTARANK: return exec_mapa(c, w, d, gm);
	default: die("exec_space: %s", op_info[d->op].name);
	}
}

/* wmma, mma, ldmatrix, stmatrix (KIND_TENSOR); nonzero: a fault */
static int exec_tensor(Cta *c, Warp *w, const DIns *d, uint32_t gm)
{
	const Image *img = c->L->img;
	switch ((Op)d->op) {
	case OP_WMMA_LOAD: return exec_wmma_load(c, w, d, gm);
	case OP_WMMA_STORE: return exec_wmma_store(c, w, d, gm);
	case OP_WMMA_MMA: exec_wmma_mma(w, img, d, gm); return 0;
	case OP_MMA: exec_mma_sync(w, img, d, gm); return 0;
	case OP_LDMATRIX: return exec_ldmatrix(c, w, d, gm);
	case OP_STMATRIX: return exec_stmatrix(c, w, d, gm);
	default: die("exec_tensor: %s", op_info[d->op].name);
	}
}

/* shfl, vote, match, redux, elect, activemask (KIND_WARP) */
static void exec_warp(Warp *w, const Image *img, const DIns *d, uint32_t act, uint32_t gm)
{
	switch ((Op)d->op) {
	case OP_SHFL: exec_shfl(w, img, d, gm); return;
	case OP_VOTE: exec_vote(w, img, d, gm); return;
	case OP_MATCH: exec_match(w, img, d, gm); return;
	case OP_REDUX: exec_redux(w, img, d, gm); return;
	case OP_ELECT: exec_elect(w, img, d, gm); return;
	case OP_ACTIVEMASK: {
		uint32_t *dp = dstp(w, d->d[0]);
		LANES(gm, l) dp[l] = act;
		return;
	}
	default: die("exec_warp: %s", op_info[d->op].name);
	}
}

/* a warp-synchronous instruction (bar.warp.sync, shfl.sync, vote.sync, match.sync,
 * redux.sync) whose member masks name live lanes outside the path, or a CTA barrier the
 * warp's other live lanes have not reached: if those lanes spun in a loop and the path
 * went on without them (simt_release), the path waits here for them (simt_syncwait) and
 * the instruction runs when they come.  In a called function it waits while they run in
 * their own frame (simt_callwait), and they join it when they reach it by the same calls
 * (simt_join). */
static int sync_waits(Warp *w, const Image *img, const DIns *d, uint32_t act, uint32_t gm)
{
	int ms;                                    /* the member mask's source */
	switch ((Op)d->op) {
	case OP_BAR: case OP_BARRIER: ms = d->mods & MOD_WARP ? 0 : -2; break;
	case OP_SHFL: ms = 3; break;
	case OP_VOTE: case OP_MATCH: case OP_REDUX: ms = 1; break;
	case OP_ELECT: ms = 0; break;
	case OP_CLBAR: ms = -2; break;
	default: return 0;
	}
	uint32_t want = ~0u;                       /* a CTA barrier (-2): every lane */
	if (ms >= 0) {
		if (d->ns <= ms) return 0;
		const uint32_t *m = srcp(w, img, d->s[ms]);
		want = 0;
		LANES(gm, l) want |= m[l];
	}
	want &= ~act & ~w->exited & w->valid;
	if (!want) return 0;
	if (simt_syncwait(w, want)) return 1;
	return w->depth && (simt_join(w, want) || simt_callwait(w, want));
}

static int step(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	const Image *img = c->L->img;
	uint32_t gm = act;
	if (d->guard >= 0) {
		uint32_t p = pred(w, d->guard);
		gm &= d->guard_neg ? ~p : p;
	}
	SimtEntry *t = &w->stk[w->nstk - 1];
	int r = EX_OK;
	if (w->nstk > 1 && gm && sync_waits(w, img, d, act, gm)) return EX_OK;
	switch ((OpKind)d->kind) {
	case KIND_BRA:
		simt_branch(c, w, d, act, gm);
		if ((d->flags & DF_SPIN) && gm == act) simt_spin(c, w, d, act);
		return EX_OK;
	case KIND_CALL:
		if (gm != act) {        /* a guarded call: run it for the guarded lanes */
			die("guarded call reached the executor (decode rejects it)");
		}
		if (d->flags & DF_BUILTIN) {
			if (exec_builtin(c, w, d, act)) return EX_FAULT;
			break;
		}
		return simt_call(c, w, d, act);
	case KIND_RET:                 /* ret, exit: lanes not leaving go on after it */
		if (!gm) break;
		t->pc++;
		if (d->op == OP_EXIT || w->depth == 0) simt_exit(c, w, gm);
		else simt_ret(c, w, gm);
		if (w->state != W_DONE) {
			t = &w->stk[w->nstk - 1];
			if (t->pc == t->rpc) simt_settle(c, w);
		}
		return EX_OK;
	case KIND_TRAP:
		if (!gm) break;
		exec_fault(c, w, (uint32_t)__builtin_ctz(gm), d, FAULT_TRAP, "trap instruction executed");
		return EX_FAULT;
	case KIND_BAR:
		if (!gm) break;
		if (d->op == OP_CLBAR) r = exec_clbar(c, w, d);
		else if (!(d->mods & MOD_WARP)) r = exec_bar(c, w, d, gm);
		/* bar.warp.sync: the lanes of a path run in lockstep here already */
		break;
	case KIND_ASYNC:
		if (gm && (d->op == OP_CP_BULK ? exec_cp_bulk : exec_cp_async)(c, w, d, gm))
			return EX_FAULT;
		break;
	case KIND_ADDR:
		if (gm && exec_space(c, w, d, gm)) return EX_FAULT;
		break;
	case KIND_LD:
		if (gm && exec_ld(c, w, d, gm)) return EX_FAULT;
		break;
	case KIND_ST:
		if (gm && exec_st(c, w, d, gm)) return EX_FAULT;
		break;
	case KIND_ATOM:
		if (gm && exec_atom(c, w, d, gm)) return EX_FAULT;
		break;
	case KIND_MBAR:
		if (gm && (r = exec_mbar(c, w, d, gm)) == EX_FAULT) return EX_FAULT;
		break;
	case KIND_TENSOR:
		if (gm && exec_tensor(c, w, d, gm)) return EX_FAULT;
		break;
	case KIND_TEX:
		if (gm && (d->op == OP_SULD || d->op == OP_SUST ? exec_surf : exec_tex)(c, w, d, gm))
			return EX_FAULT;
		break;
	case KIND_WAIT:           /* cp.async groups: copied at issue, no wait; nanosleep: */
		if (gm) r = EX_YIELD; /* the lanes wait, the warp's other paths may run (simt_yield) */
		break;
	case KIND_HINT: case KIND_RFOP: case KIND_PSEUDO:
		break;
	case KIND_WARP:
		if (gm) exec_warp(w, img, d, act, gm);
		break;
	case KIND_SETP: if (gm) exec_setp(w, img, d, gm); break;
	case KIND_MOV:
		if (!gm) break;
		if (d->flags & DF_SREG) exec_sreg(c, w, d, gm);
		else exec_mov(c, w, d, gm);
		break;
	case KIND_ARITH:
		if (gm && !exec_fast(w, img, d, gm)) exec_alu(w, img, d, gm);
		break;
	}
	t = &w->stk[w->nstk - 1];
	if (++t->pc == t->rpc) simt_settle(c, w);
	if (r == EX_YIELD && w->nstk) simt_yield(w);
	return r;
}

int exec_step(Cta *c, Warp *w)
{
	const DIns *code = c->L->img->code;
	for (;;) {
		const SimtEntry *t = &w->stk[w->nstk - 1];
		const DIns *d = &code[t->pc];
		uint32_t act = t->mask;
		StepTrace *tr = w->trace;
		if (tr && !(d->flags & DF_INTERNAL)) {
			tr->pc = t->pc;
			tr->active = act;
			tr->exec = act;
			if (d->guard >= 0) {
				uint32_t p = pred(w, d->guard);
				tr->exec &= d->guard_neg ? ~p : p;
			}
			tr->mem_lanes = tr->cp_src = tr->phase = tr->xrows = 0;
		}
		int internal = (d->flags & DF_INTERNAL) != 0;
		if (!internal && rf_pseudo(d)) {
			w->npseudo++;
		} else if (!internal) {
			w->ninsts++;
			w->nthread += (uint64_t)__builtin_popcount(act);
		}
		int r = step(c, w, d, act);
		if (r != EX_OK && r != EX_YIELD) return r;
		if (w->state == W_DONE) return EX_DONE;
		if (!internal) return r;
	}
}

int exec_run(Cta *c, Warp *w, int64_t budget)
{
	const DIns *code = c->L->img->code;
	while (budget-- > 0) {
		const SimtEntry *t = &w->stk[w->nstk - 1];
		const DIns *d = &code[t->pc];
		uint32_t act = t->mask;
		if (!(d->flags & DF_INTERNAL) && rf_pseudo(d)) {
			w->npseudo++;
		} else if (!(d->flags & DF_INTERNAL)) {
			w->ninsts++;
			w->nthread += (uint64_t)__builtin_popcount(act);
		}
		int r = step(c, w, d, act);
		if (r != EX_OK) return r == EX_YIELD ? EX_OK : r;
		if (w->state == W_DONE) return EX_DONE;
	}
	return EX_OK;
}

void warp_reset(Warp *w, const Cta *c, int32_t widx)
{
	const Launch *L = c->L;
	uint32_t first = (uint32_t)widx * 32;
	uint32_t n = L->nthreads - first < 32 ? L->nthreads - first : 32;
	w->nstk = 0;
	w->trace = NULL;
	w->valid = n == 32 ? ~0u : (1u << n) - 1;
	w->exited = ~w->valid;
	simt_push(w, (SimtEntry){.pc = L->img->funcs[0].entry, .rpc = -1, .mask = w->valid,
	                         .call = -1});
	w->rbase = w->pbase = 0;
	w->lbase = 0;
	w->depth = 0;
	w->cc = 0;
	w->state = W_READY;
	w->widx = widx;
	w->ninsts = w->nthread = w->npseudo = 0;
	w->mem_hint = 0;
	w->spin_pc = -1;
	w->spin_n = 0;
	memset(w->preds, 0, (size_t)L->img->max_preds * sizeof *w->preds);
}
