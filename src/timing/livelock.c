/*
 * livelock.c -- the timing watchdog's second half: a kernel whose warps
 * keep issuing but can never finish (a spin on a flag nobody sets, a lock
 * nobody releases).  The deadlock watchdog of timing.c only sees warps that
 * stop issuing; without this, such a kernel runs forever.
 *
 * The test is exact, not a guess from a long quiet stretch (a long compute
 * loop that stores only at its end must not be stopped).  While no memory
 * changes, each warp is a closed deterministic system: what it does next
 * depends only on its own registers, predicates and SIMT stack and on
 * memory nobody writes.  So a warp that returns to the pc and the exact
 * state it had earlier, with no memory written anywhere in between, will
 * repeat that cycle for ever.  Every sim.hang_cycles cycles in which no CTA
 * finished, timing.c calls livelock_check: if, since the previous check,
 * no warp wrote memory (Warp.nwrites: stores, atomics that changed a value
 * -- a failed CAS does not -- and builtin calls) and every live warp either
 * came back to its snapshot (livelock_seen, at issue) or issued nothing at
 * all (a barrier only the spinning warps could complete), the kernel can
 * never end.  Then it snapshots every live warp afresh: pc and a 64-bit
 * hash of its state.  Loops that count (`while (!flag) n++`) never repeat a
 * state and are not caught; sim.max_cycles bounds them.  A warp compares
 * its state with the snapshot on its first LL_TRIES returns to the
 * snapshot's pc in a window, not on every one: hashing all its registers
 * each time round a long compute loop that progresses cost up to 10% of the
 * simulation rate, and a spin repeats its state within a few rounds (a
 * cycle longer than LL_TRIES rounds is caught only by sim.max_cycles).
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
#include "timing/sm.h"

enum { LL_TRIES = 8 };

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

/* everything that decides what the warp does next, memory apart */
static uint64_t state_hash(const Warp *w, const Image *img)
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

static int live(const TWarp *w)
{
	return w->cta >= 0 && w->npc >= 0 && w->fw->state != W_DONE;
}

void livelock_seen(const Sm *s, TWarp *w)
{
	/* its first issue after the snapshot starts from the snapshot: no cycle yet */
	if (w->ll_repeat || w->ll_tries >= LL_TRIES ||
	    w->fw->ninsts + w->fw->npseudo == w->ll_insts)
		return;
	w->ll_tries++;
	w->ll_repeat = w->ll_hash == state_hash(w->fw, s->L->img);
}

/* a live warp whose state is its snapshot's, or that has not issued since */
static int stuck(const TWarp *w)
{
	return w->ll_repeat || w->fw->ninsts + w->fw->npseudo == w->ll_insts;
}

int livelock_check(Timing *tg)
{
	uint64_t writes = 0;
	int32_t nrep = 0, all = 1;
	size_t nfw = (size_t)tg->nsm * (size_t)tg->ctas_per_sm * (size_t)tg->warps_per_cta;
	for (size_t i = 0; i < nfw; i++) writes += tg->fw[i].nwrites;
	int quiet = tg->ll_armed && writes == tg->ll_writes && tg->done_cta == tg->ll_done;
	for (int32_t i = 0; i < tg->nsm; i++)
		for (int32_t k = 0; k < tg->sm[i].nwarps; k++) {
			TWarp *w = &tg->sm[i].w[k];
			if (!live(w)) continue;
			nrep += w->ll_repeat;
			all &= stuck(w);
		}
	if (quiet && all && nrep) return 1;
	tg->ll_armed = tg->done_cta == tg->ll_done;   /* CTAs finishing: progress, skip hashing */
	tg->ll_writes = writes;
	tg->ll_done = tg->done_cta;
	for (int32_t i = 0; i < tg->nsm; i++)
		for (int32_t k = 0; k < tg->sm[i].nwarps; k++) {
			TWarp *w = &tg->sm[i].w[k];
			w->ll_pc = -1;
			w->ll_repeat = 0;
			w->ll_tries = 0;
			if (!tg->ll_armed || !live(w)) continue;
			w->ll_pc = w->npc;
			w->ll_hash = state_hash(w->fw, tg->L->img);
			w->ll_insts = w->fw->ninsts + w->fw->npseudo;
		}
	return 0;
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
		uint64_t h = state_hash(w, img), before = w->ninsts;
		int back = 0, tries = 0;
		for (int k = 0; k < LL_STEPS && !back && tries < LL_TRIES; k++) {
			int r = exec_run(c, w, 1);
			if (r != EX_OK || w->state != W_READY || cta_writes(c) != writes) {
				*budget -= (int64_t)(w->ninsts - before);
				return r == EX_FAULT ? -1 : 0;    /* it moved on: a barrier, an exit */
			}
			if (warp_pc(w) == pc) back = state_hash(w, img) == h, tries++;
		}
		*budget -= (int64_t)(w->ninsts - before);
		if (!back) return 0;
		any = 1;
	}
	return any;
}
