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
#include <assert.h>
#include <stdio.h>

#include "base/base.h"
#include "func/exec_int.h"

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
	simt_push(w, (SimtEntry){.pc = x, .rpc = out, .mask = lanes, .call = -1,
	                         .func = R->func, .its = 1});
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

/* the lowest leaf path below the top -- other lanes, none of them in a path above it, so
 * nothing nested waits to reconverge into it -- that is no placeholder, above any foreign
 * entry; -1 if none.  *ncalls: the call entries above it, *outer: the lowest of them (the
 * call out of the leaf's frame) */
static int32_t yield_pick(const Warp *w, int32_t *ncalls, int32_t *outer)
{
	int32_t top = w->nstk - 1, pick = -1, calls = 0, last = -1;
	uint32_t mine = w->stk[top].mask;
	*ncalls = 0, *outer = -1;
	if (w->stk[top].call >= 0) calls = 1, last = top;
	for (int32_t j = top - 1; j >= 0 && w->stk[j].call != SIMT_FOREIGN; j--) {
		uint32_t m = w->stk[j].mask, above = 0;
		if (w->stk[j].call >= 0) {
			calls++, last = j;
			continue;
		}
		if (!m || (m & mine) || w->stk[j].pc == w->stk[j].rpc) continue;
		for (int32_t k = j + 1; k <= top; k++) above |= w->stk[k].mask;
		if (!(m & above)) pick = j, *ncalls = calls, *outer = last;
	}
	return pick;
}

/* leaf path `pick` (yield_pick) moves to the top and runs next; one in a caller's frame
 * runs in that frame, as a foreign entry holding the frame to go back to (SimtEntry.rotate:
 * whether it goes back when it waits) */
static void run_leaf(Warp *w, int32_t pick, int32_t ncalls, int32_t outer, int rotate)
{
	int32_t top = w->nstk - 1;
	SimtEntry e = w->stk[pick];
	if (ncalls) {
		const SimtEntry *c = &w->stk[outer];  /* the call out of the leaf's frame */
		e.call = SIMT_FOREIGN;
		e.rotate = rotate;
		e.rbase = w->rbase, e.pbase = w->pbase, e.lbase = w->lbase;
		e.cmask = (uint32_t)ncalls;
		w->rbase = c->rbase, w->pbase = c->pbase, w->lbase = c->lbase;
		w->depth -= ncalls;
	}
	memmove(&w->stk[pick], &w->stk[pick + 1], (size_t)(top - pick) * sizeof e);
	w->stk[top] = e;
}

/* foreign entry F, on top, run for a path waiting at a warp-synchronous instruction
 * (SimtEntry.rotate), waits in turn (it spins, sleeps, or an mbarrier wait failed): it goes
 * back to its frame as a pending path, right below the path that made the calls out of
 * that frame, so the waiting path tries its instruction again and, still missing lanes,
 * runs the frame's other leaves, lower than F now, before F: a lane that waits for another
 * pending lane does not spin for ever.  F's reconvergence entry lay below where F was,
 * which was below that path.  A foreign entry run for an mbarrier wait keeps running: the
 * path it was run for polls in a loop of its own, with back-off, and would only slow it. */
static void foreign_back(Warp *w)
{
	int32_t top = w->nstk - 1, k = (int32_t)w->stk[top].cmask, n = 0, c = top;
	if (!w->stk[top].rotate) return;
	while (n < k && --c >= 1) {
		if (w->stk[c].call == SIMT_FOREIGN) return;
		n += w->stk[c].call >= 0;
	}
	if (n < k || c < 1 || w->stk[c - 1].call != -1) return;
	SimtEntry e = w->stk[top];
	w->rbase = e.rbase, w->pbase = e.pbase, w->lbase = e.lbase;
	w->depth += k;
	e.call = -1, e.cmask = 0, e.rbase = e.pbase = 0, e.lbase = 0, e.rotate = 0;
	memmove(&w->stk[c], &w->stk[c - 1], (size_t)(top - c + 1) * sizeof e);
	w->stk[c - 1] = e;
}

/* the top path waits for other lanes (an mbarrier wait that failed, a nanosleep): the
 * lowest leaf path below it (yield_pick) moves to the top and runs first.  Every entry
 * keeps its reconvergence entry below it, so the paths reconverge as before; taking the
 * lowest leaf each time visits all of them in turn.  A leaf in a caller's frame (the
 * waiting lanes are in a called function: a -G build's barrier.wait()) runs in that
 * frame: it becomes a foreign entry (call = SIMT_FOREIGN) holding the frame to return to
 * when it pops, and waits no further itself (but see foreign_back). */
void simt_yield(Warp *w)
{
	int32_t top = w->nstk - 1, ncalls, outer;
	if (top < 1) return;
	if (w->stk[top].call == SIMT_FOREIGN) {
		foreign_back(w);
		return;
	}
	int32_t pick = yield_pick(w, &ncalls, &outer);
	if (pick < 0)
		simt_release(w);
	else
		run_leaf(w, pick, ncalls, outer, 0);
}

/* ---- warp-synchronous instructions in called functions ---------------------------- *
 *
 * Lanes let go past a spinning path (simt_release) that call a function and reach a
 * warp-synchronous instruction or a CTA barrier in it -- a -G build's __syncwarp, which
 * is a call; a __noinline__ function that shuffles -- wait there for the spinning lanes,
 * as they would in the caller's frame (simt_syncwait).  The waiting path P cannot become
 * the reconvergence entry of paths in another frame, so it waits as a failed mbarrier
 * wait does: a leaf path below it runs, in its own frame (simt_callwait, run_leaf).  When
 * the lanes of such a foreign entry F make the same calls from the same call sites and
 * reach P's instruction in the same frame, they join P's lanes (simt_join): F's lanes are
 * added to each of P's frames -- the call entries and the paths the lanes return through
 * -- and F and its calls are dropped, so the lanes run the instruction together, return
 * together and, where F and P's caller path meet at the same point, go on together.  If
 * F waits in turn (it spins again), it goes back to its frame and P tries again, so the
 * frame's other pending paths get their turn (foreign_back).  Lanes that get there by
 * other calls, or diverge in the function first, run it without the others, as before. */

/* the top path, in a called function, reached a warp-synchronous instruction whose member
 * mask names `missing` lanes of its warp that are on paths pending below it, some of them
 * below a call entry (in a caller's frame), where one of the entries down to them spun
 * and was let go on or let lanes go (SimtEntry.its): it waits there, without running the
 * instruction, and a leaf path below it runs first (yield_pick).  1 if it now waits; 0
 * where the lanes are elsewhere or nothing spun (it runs the instruction without them, as
 * a pre-Volta warp does). */
int simt_callwait(Warp *w, uint32_t missing)
{
	int32_t top = w->nstk - 1, calls = 0, its = 0, ncalls, outer;
	uint32_t have = 0, far = 0, mine = w->stk[top].mask;
	if (w->stk[top].call == SIMT_FOREIGN) return 0;
	for (int32_t j = top; j >= 0 && have != missing; j--) {
		const SimtEntry *e = &w->stk[j];
		if (e->call == SIMT_FOREIGN) return 0;
		its |= e->its;
		if (e->call >= 0) {
			calls++;
		} else if (!(e->mask & mine) && e->pc != e->rpc) {
			have |= e->mask & missing;
			if (calls) far |= e->mask & missing;
		}
	}
	if (have != missing || !far || !its) return 0;
	int32_t pick = yield_pick(w, &ncalls, &outer);
	if (pick < 0) return 0;
	run_leaf(w, pick, ncalls, outer, 1);
	return 1;
}

/* the entries of frame level i of the path at stack index x, as simt_join matches them:
 * the index of the frame's call entry (the nearest at or below x), -1 if a foreign entry
 * or the stack's bottom comes first, or if the frame's entries hold any of `lanes` or a
 * mask that neither holds nor misses all of x's lanes (lanes that would not flow back
 * into its reconvergence entries).  With apply, `lanes` join x and every entry that x's
 * lanes flow back into, the call entry included. */
static int32_t join_frame(Warp *w, int32_t x, uint32_t lanes, int apply)
{
	uint32_t xm = w->stk[x].mask & ~w->exited;
	for (int32_t j = x; j >= 0; j--) {
		SimtEntry *e = &w->stk[j];
		uint32_t m = e->mask & ~w->exited;
		if (e->call == SIMT_FOREIGN || (m & lanes) || ((m & xm) && (m & xm) != xm))
			return -1;
		if (apply && (m & xm)) e->mask |= lanes;
		if (e->call >= 0) {
			if (apply) e->cmask |= lanes;
			return j;
		}
	}
	return -1;
}

/* match (apply = 0) or join (apply = 1) foreign entry f's call chain, the entries above
 * it, with the frames of the path below it, frame by frame (simt_join); the index of that
 * path's caller-frame path, -1 if they differ */
static int32_t join_chain(Warp *w, int32_t f, uint32_t lanes, int apply)
{
	int32_t x = f - 1, k = (int32_t)w->stk[f].cmask;
	for (int32_t i = k; i >= 1; i--) {
		const SimtEntry *t = &w->stk[f + i];
		if (x < 0 || w->stk[x].pc != t->pc || w->stk[x].func != t->func) return -1;
		int32_t c = join_frame(w, x, lanes, apply);
		if (c < 1) return -1;
		const SimtEntry *s = &w->stk[c];
		if (s->call != t->call || s->rbase != t->rbase || s->pbase != t->pbase ||
		    s->lbase != t->lbase)
			return -1;
		x = c - 1;              /* the path that made the call, in the frame below */
	}
	return x;
}

/* the top path, at a warp-synchronous instruction whose member mask names `missing` lanes,
 * is the last of a chain of calls that foreign entry F made, with no path of its lanes
 * pending: if the path that yielded to F, right below it, waits at the same instruction
 * with missing lanes, with the same call sites and frames, F's lanes join its frames and F
 * and its calls go.  In F's own frame, they join the path that made the calls if both go
 * on to the same reconvergence point and the entry they flow into there holds F's lanes;
 * otherwise F returns as a path of its own, from the call, to its own reconvergence
 * point.  1 if they joined (the instruction runs when the joined path next issues). */
int simt_join(Warp *w, uint32_t missing)
{
	int32_t top = w->nstk - 1, f = top;
	while (f > 0 && w->stk[f].call != SIMT_FOREIGN) f--;
	if (f < 1 || w->stk[f].call != SIMT_FOREIGN || !(w->stk[f - 1].mask & missing) ||
	    top - f != (int32_t)w->stk[f].cmask)
		return 0;
	SimtEntry F = w->stk[f];
	uint32_t lanes = F.mask & ~w->exited;
	for (int32_t j = f + 1; j <= top; j++)
		if (w->stk[j].call < 0 || (w->stk[j].mask & ~w->exited) != lanes) return 0;
	int32_t x = join_chain(w, f, lanes, 0);
	if (x < 0 || w->stk[x].call != -1 || w->stk[x].pc != F.pc || w->stk[x].func != F.func ||
	    (w->stk[x].mask & lanes))
		return 0;
	join_chain(w, f, lanes, 1);
	assert(w->rbase == F.rbase && w->pbase == F.pbase && w->lbase == F.lbase);
	w->nstk = f;
	SimtEntry *X = &w->stk[x];
	int32_t a = x - 1;            /* the entry X's lanes flow into when it pops */
	while (a >= 0 && !(w->stk[a].mask & X->mask & ~w->exited)) a--;
	if (F.rpc == X->rpc && a >= 0 && w->stk[a].call != SIMT_FOREIGN &&
	    (w->stk[a].mask & lanes) == lanes) {
		int32_t b = x - 1;    /* no entry in between holds F's lanes */
		while (b > a && !(w->stk[b].mask & lanes)) b--;
		if (b == a) {
			X->mask |= lanes;
			return 1;
		}
	}
	/* F's reconvergence entry lies below where F was, which is below X */
	F.call = -1, F.cmask = 0, F.rbase = F.pbase = 0, F.lbase = 0, F.rotate = 0;
	simt_push(w, F);
	memmove(&w->stk[x + 1], &w->stk[x], (size_t)(w->nstk - 1 - x) * sizeof F);
	w->stk[x] = F;
	return 1;
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
			simt_push(w, (SimtEntry){.pc = fall, .rpc = d->reconv,
			                         .mask = act & ~taken, .call = -1, .func = func});
		if (d->target != d->reconv)
			simt_push(w, (SimtEntry){.pc = d->target, .rpc = d->reconv,
			                         .mask = taken, .call = -1, .func = func});
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
		simt_push(w, (SimtEntry){.pc = pc, .rpc = pc + 1, .mask = *act & ~same,
		                         .call = -1, .func = func});
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
	SimtEntry e = {.pc = callee->entry, .rpc = -1, .mask = act, .call = d->aux, .cmask = act,
	               .rbase = w->rbase, .pbase = w->pbase, .lbase = w->lbase, .func = f};
	simt_push(w, e);
	w->rbase = rb;
	w->pbase = pb;
	w->lbase = lb;
	w->depth++;
	return EX_OK;
}
