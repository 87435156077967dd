/*
 * simt.c -- the SIMT reconvergence stack: divergent branches, calls,
 * returns and exits (the rules are in warp.h's essay).
 *
 * A path entry is popped when its pc reaches its reconvergence pc or its
 * lanes have all left; popping a call entry copies the callee's return
 * parameters back to the caller's frame and restores the caller's frame
 * bases.  A path that would start at its own reconvergence point gets no
 * entry: its lanes simply wait in the reconvergence entry.
 */
#include <stdio.h>

#include "base/base.h"
#include "sim/exec_int.h"

/* ---- SIMT stack --------------------------------------------------------- */

void simt_push(Warp *w, SimtEntry e)
{
	VEC_RESERVE(w->stk, w->capstk, (size_t)w->nstk + 1);
	w->stk[w->nstk++] = e;
}

/* copy a finished call's return values back and restore the caller's frame */
static void call_return(Cta *c, Warp *w, const SimtEntry *e)
{
	const CallInfo *ci = &c->L->img->calls[e->call];
	uint32_t lanes = e->cmask & ~w->exited;
	for (int32_t i = 0; i < ci->nrets; i++)
		LANES(lanes, l) {
			uint8_t *base = w->local + (size_t)l * w->local_bytes;
			memcpy(base + e->lbase + ci->ret_dst[i], base + w->lbase + ci->ret_src[i],
			       (size_t)ci->ret_size[i]);
		}
	w->rbase = e->rbase;
	w->pbase = e->pbase;
	w->lbase = e->lbase;
	w->depth--;
}

/* pop finished entries: reached reconvergence, or no live lanes left */
void simt_settle(Cta *c, Warp *w)
{
	while (w->nstk) {
		SimtEntry *t = &w->stk[w->nstk - 1];
		if ((t->mask & ~w->exited) && t->pc != t->rpc) return;
		SimtEntry e = *t;
		w->nstk--;
		if (e.call >= 0) call_return(c, w, &e);
	}
	w->state = W_DONE;
	c->live_warps--;
}

/* lanes leave the kernel */
void simt_exit(Cta *c, Warp *w, uint32_t lanes)
{
	w->exited |= lanes;
	for (int32_t i = 0; i < w->nstk; i++) w->stk[i].mask &= ~lanes;
	simt_settle(c, w);
}

/* lanes return from the current function */
void simt_ret(Cta *c, Warp *w, uint32_t lanes)
{
	for (int32_t i = w->nstk - 1; i >= 0; i--) {
		w->stk[i].mask &= ~lanes;
		if (w->stk[i].call >= 0) break;
	}
	simt_settle(c, w);
}

void simt_branch(Cta *c, Warp *w, const DIns *d, uint32_t act, uint32_t taken)
{
	SimtEntry *t = &w->stk[w->nstk - 1];
	if (taken == act) {
		t->pc = d->target;
	} else if (!taken) {
		t->pc++;
	} else {
		/* the top entry becomes the reconvergence entry; a path that starts at
		 * the reconvergence point needs no entry of its own */
		int32_t fall = t->pc + 1, func = t->func;
		t->pc = d->reconv;
		if (fall != d->reconv)
			simt_push(w, (SimtEntry){fall, d->reconv, act & ~taken, -1, 0, 0, 0, 0, func});
		if (d->target != d->reconv)
			simt_push(w, (SimtEntry){d->target, d->reconv, taken, -1, 0, 0, 0, 0, func});
	}
	simt_settle(c, w);
}

int simt_call(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	const Image *img = c->L->img;
	const CallInfo *ci = &img->calls[d->aux];
	const ImgFunc *caller = &img->funcs[d->func], *callee = &img->funcs[ci->callee];
	int32_t rb = w->rbase + caller->nslot, pb = w->pbase + caller->npred;
	uint32_t lb = w->lbase + (uint32_t)caller->frame_bytes;
	if (rb + callee->nslot > img->max_slots || pb + callee->npred > img->max_preds ||
	    lb + (uint32_t)callee->frame_bytes > w->local_bytes) {
		char msg[128];
		snprintf(msg, sizeof msg, "call stack overflow at call depth %d", w->depth + 1);
		exec_fault(c, w, (uint32_t)__builtin_ctz(act), d, FAULT_STACK, msg);
		return EX_FAULT;
	}
	for (int32_t i = 0; i < ci->nargs; i++)
		LANES(act, l) {
			uint8_t *base = w->local + (size_t)l * w->local_bytes;
			memcpy(base + lb + ci->arg_dst[i], base + w->lbase + ci->arg_src[i],
			       (size_t)ci->arg_size[i]);
		}
	SimtEntry *t = &w->stk[w->nstk - 1];
	t->pc++;
	SimtEntry e = {callee->entry, -1, act, d->aux, act, w->rbase, w->pbase, w->lbase,
	               ci->callee};
	simt_push(w, e);
	w->rbase = rb;
	w->pbase = pb;
	w->lbase = lb;
	w->depth++;
	return EX_OK;
}

