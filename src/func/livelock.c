/*
 * livelock.c -- the functional core's half of the livelock watchdog
 * (src/timing/livelock.c has the argument, and the timing model's half):
 * the hash of everything that decides what a warp does next, memory apart,
 * and functional mode's test of a quiet CTA.
 *
 * Functional mode (gpu.c runs one CTA at a time, each warp a slice of
 * instructions in turn) uses the same argument through livelock_cta: after
 * two whole rounds of slices in which the CTA wrote no memory and no warp
 * finished, each ready warp runs on one instruction at a time, at most
 * LL_STEPS of them and LL_TRIES returns to its starting pc, until it is
 * back at that pc and state; if every
 * ready warp gets there with still nothing written (the others wait at a
 * barrier only the ready ones could complete), the CTA never ends.  The
 * stepping is the CTA's own execution, so a false alarm costs nothing but
 * the hashing, and only quiet rounds pay it.  A cooperative grid (gpu.c)
 * runs all its CTAs in rounds, and a CTA spinning at grid.sync() waits for
 * writes by other CTAs: there the quiet rounds are counted over the whole
 * grid and the grid is stuck only if every CTA with ready warps is.
 */
#include "func/warp.h"

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

/* everything that decides what the warp does next, memory apart */
uint64_t warp_state_hash(const Warp *w, const Image *img)
{
	uint64_t h = mix(0, (uint64_t)w->nstk);
	size_t nr = (size_t)(img->max_slots + 1) * 32;
	for (size_t i = 0; i + 1 < nr; i += 2) h = mix(h, w->regs[i] | (uint64_t)w->regs[i + 1] << 32);
	for (int32_t i = 0; i < img->max_preds; i++) h = mix(h, w->preds[i]);
	for (int32_t i = 0; i < w->nstk; i++) {
		const SimtEntry *e = &w->stk[i];
		h = mix(h, (uint64_t)(uint32_t)e->pc << 32 | (uint32_t)e->rpc);
		h = mix(h, (uint64_t)e->mask << 32 | e->cmask);
		h = mix(h, (uint64_t)(uint32_t)e->call << 32 | (uint32_t)e->func);
		h = mix(h, (uint64_t)(uint32_t)e->rbase << 32 | (uint32_t)e->pbase);
		h = mix(h, e->lbase);
	}
	h = mix(h, (uint64_t)(uint32_t)w->rbase << 32 | (uint32_t)w->pbase);
	h = mix(h, (uint64_t)w->lbase << 32 | (uint32_t)w->depth);
	h = mix(h, (uint64_t)w->cc << 32 | w->exited);
	return mix(h, w->state);
}

enum { LL_STEPS = 1 << 14 };

uint64_t cta_writes(const Cta *c)
{
	uint64_t n = 0;
	for (int32_t i = 0; i < c->nwarps; i++) n += c->warps[i].nwrites;
	return n;
}

int livelock_cta(Cta *c, int64_t *budget)
{
	const Image *img = c->L->img;
	uint64_t writes = cta_writes(c);
	int any = 0;
	for (int32_t i = 0; i < c->nwarps; i++) {
		Warp *w = &c->warps[i];
		if (w->state != W_READY) continue;
		int32_t pc = warp_pc(w);
		uint64_t h = warp_state_hash(w, img), before = w->ninsts;
		int back = 0, tries = 0;
		for (int k = 0; k < LL_STEPS && !back && tries < LL_TRIES; k++) {
			int r = exec_run(c, w, 1);
			if (r != EX_OK || w->state != W_READY || cta_writes(c) != writes) {
				*budget -= (int64_t)(w->ninsts - before);
				return r == EX_FAULT ? -1 : 0;    /* it moved on: a barrier, an exit */
			}
			if (warp_pc(w) == pc) back = warp_state_hash(w, img) == h, tries++;
		}
		*budget -= (int64_t)(w->ninsts - before);
		if (!back) return 0;
		any = 1;
	}
	return any;
}
