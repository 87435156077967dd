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
	const Image *img = c->L->img;
	const CallInfo *ci = &img->calls[e->call];
	const int32_t *src = ci->callee >= 0 ? ci->ret_src : img->funcs[e->func].ret_off;
	uint32_t lanes = e->cmask & ~w->exited;
	for (int32_t i = 0; i < ci->nrets; i++)
		LANES(lanes, l) {
			uint8_t *base = w->local + (size_t)l * w->local_bytes;
			memcpy(base + e->lbase + ci->ret_dst[i], base + w->lbase + src[i],
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
		if (e.call == SIMT_FOREIGN) {     /* back to the frame it was run from */
			w->rbase = e.rbase, w->pbase = e.pbase, w->lbase = e.lbase;
			w->depth += (int32_t)e.cmask;
		}
	}
	w->state = W_DONE;
	c->live_warps--;
	cluster_warp_exited(c);        /* a cluster barrier may no longer wait for it */
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
		if (w->stk[i].call >= 0 || w->stk[i].call == SIMT_FOREIGN) break;
	}
	simt_settle(c, w);
}

/* the top path waits for lanes of its warp that wait at its reconvergence point X (it
 * spins, and simt_yield found no other path to run): those lanes go on past X now, as
 * independent thread scheduling lets them.  R, the entry they wait in, moves to its own
 * reconvergence point; the paths above it that were to meet at X meet there instead,
 * placeholders waiting at X are dropped, and the waiting lanes get an entry of their own
 * from X, on top.  Where R is a call's entry, the lanes let go run to the function's
 * return and wait there for the call's other lanes: a call's lanes return together, so a
 * lock taken in a called function still waits for ever.  1 if lanes were let go. */
static int simt_release(Warp *w)
{
	int32_t top = w->nstk - 1, r;
	const SimtEntry *t = &w->stk[top];
	int32_t x = t->rpc;
	if (t->call != -1 || x < 0) return 0;
	for (r = top - 1; r >= 0; r--) {
		const SimtEntry *e = &w->stk[r];
		if (e->call == SIMT_FOREIGN) return 0;
		if (e->pc == x && e->rpc != x) break;
		if (e->call >= 0) return 0;
	}
	if (r < 0) return 0;
	uint32_t busy = 0;
	for (int32_t j = r + 1; j <= top; j++)
		if (w->stk[j].pc != x || w->stk[j].rpc != x) busy |= w->stk[j].mask;
	SimtEntry *R = &w->stk[r];
	uint32_t lanes = R->mask & ~busy & ~w->exited;
	if (!lanes) return 0;
	int32_t out = R->rpc, n = r + 1;
	for (int32_t j = r + 1; j <= top; j++) {
		SimtEntry e = w->stk[j];
		if (e.pc == x && e.rpc == x) continue;
		if (e.rpc == x) e.rpc = out, e.its = 1;
		w->stk[n++] = e;
	}
	w->nstk = n;
	R = &w->stk[r];
	R->pc = out;
	simt_push(w, (SimtEntry){x, out, lanes, -1, 0, 0, 0, 0, R->func, 1});
	return 1;
}

/* the top path P reached a warp-synchronous instruction (bar.warp.sync, shfl.sync, ...) or
 * a CTA barrier whose member mask names lanes `missing` that are on other paths which meet
 * P where P meets them (at P's reconvergence entry R), where one of those paths spun and
 * simt_release let lanes go on (SimtEntry.its).  P waits for them there: it becomes the
 * reconvergence entry, at its pc, of its siblings that hold missing lanes, below every
 * path that will reach R, and they run until they reach it, as Volta's convergence would
 * have them.  1 if P now waits; 0 where the lanes are elsewhere or no path was released
 * (P then runs the instruction without them, as a pre-Volta warp does).
 *
 * The paths above R are P's siblings (reconvergence pc P.rpc) and the paths nested in
 * them, whose own reconvergence entries are siblings or other nested paths.  simt_yield
 * may have reordered them (it moves a leaf to the top), so they need not be contiguous
 * siblings of P: all of them move above P, in their order, so each nested path keeps its
 * reconvergence entry below it. */
int simt_syncwait(Warp *w, uint32_t missing)
{
	int32_t top = w->nstk - 1, r;
	SimtEntry p = w->stk[top];
	uint32_t have = 0;
	int32_t its = p.its;
	if (p.call != -1) return 0;
	for (r = top - 1; r >= 0; r--) {           /* R: below P, at P's reconvergence pc */
		const SimtEntry *e = &w->stk[r];
		if (e->call != -1) return 0;
		if (e->pc == p.rpc && (e->rpc != p.rpc || p.rpc < 0)) break;
		have |= e->mask & missing;
		its |= e->its;
	}
	if (have != missing || !its) return 0;
	for (int32_t j = r + 1; j < top; j++) {
		SimtEntry *e = &w->stk[j];
		if (e->rpc == p.rpc && (e->mask & missing)) {
			p.mask |= e->mask;
			e->rpc = p.pc;
		}
	}
	memmove(&w->stk[r + 2], &w->stk[r + 1], (size_t)(top - r - 1) * sizeof p);
	w->stk[r + 1] = p;
	while (w->stk[w->nstk - 1].pc == w->stk[w->nstk - 1].rpc) w->nstk--;   /* placeholders */
	return 1;
}

/* back edges of a polling loop (DF_SPIN) before the path's state is compared, and
 * back edges in a row without a write after which its waiting lanes go on anyway */
enum { SIMT_SPIN_SNAP = 8, SIMT_SPIN_LONG = 256 };

/* the top path's registers and predicates in its frame, lanes act */
static uint64_t path_hash(const Cta *c, const Warp *w, uint32_t act)
{
	const ImgFunc *f = &c->L->img->funcs[w->stk[w->nstk - 1].func];
	const uint32_t *r = w->regs + ((size_t)w->rbase << 5);
	uint64_t h = 0xcbf29ce484222325u;
	for (int32_t s = 0; s < f->nslot; s++, r += 32)
		LANES(act, l) h = (h ^ r[l]) * 0x100000001b3u;
	for (int32_t p = 0; p < f->npred; p++)
		h = (h ^ (w->preds[w->pbase + p] & act)) * 0x100000001b3u;
	return h;
}

/* the whole top path took the back edge of a polling loop (DF_SPIN): if an iteration left
 * its registers and predicates as they were with nothing written, or it has gone round
 * SIMT_SPIN_LONG times writing nothing, it waits for other lanes: let them run
 * (simt_yield, simt_release) */
void simt_spin(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	int32_t pc = (int32_t)(d - c->L->img->code);
	if (w->nstk < 2) return;
	uint64_t writes = w->nwrites - w->nlocal;
	if (w->spin_pc != pc || w->spin_writes != writes) {
		w->spin_pc = pc;
		w->spin_n = 0;
		w->spin_writes = writes;
	}
	uint32_t n = ++w->spin_n;
	if (n < SIMT_SPIN_SNAP) return;
	if (n == SIMT_SPIN_SNAP) {
		w->spin_hash = path_hash(c, w, act);
		return;
	}
	if (n < SIMT_SPIN_LONG && (n > SIMT_SPIN_SNAP + 1 || path_hash(c, w, act) != w->spin_hash))
		return;
	w->spin_n = 0;
	simt_yield(w);
}

/* the top path waits for other lanes (an mbarrier wait that failed, a nanosleep): the
 * lowest leaf path
 * below it -- other lanes, none of them in a path above it, so nothing nested waits to
 * reconverge into it -- moves to the top and runs first.  Every entry keeps its
 * reconvergence entry below it, so the paths reconverge as before; taking the lowest leaf
 * each time visits all of them in turn.  A leaf in a caller's frame (the waiting lanes
 * are in a called function: a -G build's barrier.wait()) runs in that frame: it becomes
 * a foreign entry (call = SIMT_FOREIGN) holding the frame to return to when it pops,
 * and waits no further itself. */
void simt_yield(Warp *w)
{
	int32_t top = w->nstk - 1, pick = -1, calls = 0, pick_calls = 0, last = -1, pick_c = -1;
	if (top < 1 || w->stk[top].call == SIMT_FOREIGN) return;
	uint32_t mine = w->stk[top].mask;
	if (w->stk[top].call >= 0) calls = 1, last = top;
	for (int32_t j = top - 1; j >= 0 && w->stk[j].call != SIMT_FOREIGN; j--) {
		uint32_t m = w->stk[j].mask, above = 0;
		if (w->stk[j].call >= 0) {
			calls++, last = j;
			continue;
		}
		if (!m || (m & mine) || w->stk[j].pc == w->stk[j].rpc) continue;
		for (int32_t k = j + 1; k <= top; k++) above |= w->stk[k].mask;
		if (!(m & above)) pick = j, pick_calls = calls, pick_c = last;
	}
	if (pick < 0) {
		simt_release(w);
		return;
	}
	SimtEntry e = w->stk[pick];
	if (pick_calls) {
		const SimtEntry *c = &w->stk[pick_c];  /* the call out of the leaf's frame */
		e.call = SIMT_FOREIGN;
		e.rbase = w->rbase, e.pbase = w->pbase, e.lbase = w->lbase;
		e.cmask = (uint32_t)pick_calls;
		w->rbase = c->rbase, w->pbase = c->pbase, w->lbase = c->lbase;
		w->depth -= pick_calls;
	}
	memmove(&w->stk[pick], &w->stk[pick + 1], (size_t)(top - pick) * sizeof e);
	w->stk[top] = e;
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
			simt_push(w, (SimtEntry){fall, d->reconv, act & ~taken, -1, 0, 0, 0, 0, func, 0});
		if (d->target != d->reconv)
			simt_push(w, (SimtEntry){d->target, d->reconv, taken, -1, 0, 0, 0, 0, func, 0});
	}
	simt_settle(c, w);
}

/* the Image function at the address an indirect call's lane l holds; -1 if
 * the address is no function of this kernel's program (or one it cannot
 * reach: a kernel, a function without a body) */
static int32_t callee_at(const Image *img, uint64_t a)
{
	uint64_t off = a - img->code_base;
	if (a < img->code_base || off % GPU_FUNC_STRIDE) return -1;
	uint64_t mf = off / GPU_FUNC_STRIDE;
	return mf < (uint64_t)img->nmfunc ? img->img_of_mfunc[mf] : -1;
}

/* an indirect call: the lanes of the lowest active lane's target call it
 * now; the others get an entry that runs the same call again when it
 * returns, and all reconverge after the call (as a divergent branch) */
static int indirect_target(Cta *c, Warp *w, const DIns *d, uint32_t *act, int *split)
{
	const Image *img = c->L->img;
	const CallInfo *ci = &img->calls[d->aux];
	const uint32_t *a = srcp(w, img, d->s[0]);
	uint32_t first = (uint32_t)__builtin_ctz(*act), same = 0;
	uint64_t target = rdw(a, first, 2);
	int32_t f = callee_at(img, target);
	const ImgFunc *cf = f >= 0 ? &img->funcs[f] : NULL;
	if (!cf || cf->nparam != ci->nargs || cf->nret != ci->nrets || f == 0) {
		char msg[160];
		snprintf(msg, sizeof msg, cf ? "indirect call to a function whose parameters differ "
		         "from the call's prototype (address 0x%llx)" : "indirect call to address "
		         "0x%llx, which is no device function of this program",
		         (unsigned long long)target);
		exec_fault(c, w, first, d, FAULT_ADDRESS, msg);
		return -1;
	}
	LANES(*act, l) same |= (uint32_t)(rdw(a, l, 2) == target) << l;
	*split = same != *act;
	if (*split) {
		SimtEntry *t = &w->stk[w->nstk - 1];
		int32_t pc = t->pc, func = t->func;
		t->pc = pc + 1;              /* every lane reconverges after the call */
		simt_push(w, (SimtEntry){pc, pc + 1, *act & ~same, -1, 0, 0, 0, 0, func, 0});
		*act = same;
	}
	return f;
}

int simt_call(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	const Image *img = c->L->img;
	const CallInfo *ci = &img->calls[d->aux];
	int32_t f = ci->callee;
	int split = 0;
	if (d->flags & DF_INDIRECT) {
		f = indirect_target(c, w, d, &act, &split);
		if (f < 0) return EX_FAULT;
	}
	const ImgFunc *caller = &img->funcs[d->func], *callee = &img->funcs[f];
	const int32_t *dst = ci->callee >= 0 ? ci->arg_dst : callee->param_off;
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
			memcpy(base + lb + dst[i], base + w->lbase + ci->arg_src[i],
			       (size_t)ci->arg_size[i]);
		}
	SimtEntry *t = &w->stk[w->nstk - 1];
	if (!split) t->pc++;        /* a split left its rest entry at the call */
	SimtEntry e = {callee->entry, -1, act, d->aux, act, w->rbase, w->pbase, w->lbase, f, 0};
	simt_push(w, e);
	w->rbase = rb;
	w->pbase = pb;
	w->lbase = lb;
	w->depth++;
	return EX_OK;
}
