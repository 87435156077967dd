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
 * The functional core's half (functional mode) is src/func/livelock.c;
 * the state hash and LL_TRIES are shared with it (func/warp.h).
 */
#include "timing/sm.h"

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
	w->ll_repeat = w->ll_hash == warp_state_hash(w->fw, s->L->img);
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
			w->ll_hash = warp_state_hash(w->fw, tg->L->img);
			w->ll_insts = w->fw->ninsts + w->fw->npseudo;
		}
	return 0;
}
