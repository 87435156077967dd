/*
 * live_div.c -- divergence-aware (warp-level) liveness: per-thread
 * liveness (live.c) widened by what the other lanes of a diverged warp
 * still hold.
 *
 * A register of a SIMT machine holds one value per lane, and a warp that
 * diverges runs one side of a branch while the lanes that took the other
 * side wait, at the start of that side or at the reconvergence point (the
 * branch block's immediate post-dominator).  Their values must survive
 * the side being run, so at warp level a register is live in the region
 * between a divergent branch and its reconvergence point when any lane
 * may still need it.  RegMutex (regmutex.md, section III-A1) states the
 * rule its compiler uses: a value live into the branches stays live in
 * all of them, and a value defined in one branch and read at or after
 * the post-dominator is live in the others too; "the immediate
 * post-dominator instruction of the branches [is] the first candidate
 * for considering the architected register dead".
 *
 * Here, for each divergent branch (a guarded bra without .uni; uniformity
 * analysis is left out, as RegMutex leaves it out) in block b with
 * immediate post-dominator p, the region is every block reachable from
 * b's successors without passing through p, and every point of the
 * region gets, on top of its per-thread set,
 *     live_in(p)                 lanes that have reached p wait there;
 *   U live_in(s), s a successor  lanes waiting at the start of a side;
 *       of b other than p        counted only when two or more sides
 *                                hold code (otherwise no lane waits
 *                                there while another side runs).
 * A side that is the exit (a guarded ret) holds no lanes that need
 * anything, and p = exit contributes nothing.  Nested regions add up.
 * The extension is the same for every point of a block, so it is kept per
 * block (ext) and folded into the Live's per-block and per-instruction
 * sets; a read of a register in its block's extension is not a last use
 * and has LIVE_MORE remaining uses.
 *
 * Who uses which.  Register allocation uses per-thread liveness (each
 * lane owns its registers, so per-lane interference is exact); RegMutex's
 * acquire/release placement and the live-register profile of `rfsim
 * analyze` ("warp" columns) use this variant, and so must any model whose
 * storage is shared by the lanes of a warp and that drops dead values
 * (register file caches with dead-value elision).
 */
#include "analysis/live.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"

static int divergent(const Cfg *c, int32_t b)
{
	const Block *bb = &c->blocks[b];
	if (bb->term < 0 || bb->nsucc < 2) return 0;
	const Ins *in = &c->f->ins[bb->term];
	return in->op == OP_BRA && in->guard >= 0 && !(in->mods & MOD_UNI);
}

static void or_set(uint64_t *d, const uint64_t *s, int32_t w)
{
	for (int32_t j = 0; j < w; j++) d[j] |= s[j];
}

/* the registers the region of branch block b must keep, into L */
static void region_keep(const Live *l, int32_t b, uint64_t *L)
{
	const Cfg *c = l->c;
	const Block *bb = &c->blocks[b];
	int32_t p = c->ipdom[b], w = l->words, sides = 0;
	memset(L, 0, sizeof(uint64_t) * (size_t)w);
	if (p >= 0 && p != c->exit) or_set(L, l->blk_in + (size_t)p * (size_t)w, w);
	for (int32_t k = 0; k < bb->nsucc; k++)
		sides += bb->succ[k] != p && bb->succ[k] != c->exit;
	if (sides < 2) return;
	for (int32_t k = 0; k < bb->nsucc; k++)
		if (bb->succ[k] != p && bb->succ[k] != c->exit)
			or_set(L, l->blk_in + (size_t)bb->succ[k] * (size_t)w, w);
}

typedef struct Stack { int32_t *blk; uint64_t *bits; size_t n, cap; } Stack;

static void push(Stack *st, int32_t b, uint64_t bits)
{
	if (st->n == st->cap) {
		st->cap = st->cap ? 2 * st->cap : 256;
		st->blk = xrealloc(st->blk, sizeof(int32_t) * st->cap);
		st->bits = xrealloc(st->bits, sizeof(uint64_t) * st->cap);
	}
	st->blk[st->n] = b, st->bits[st->n++] = bits;
}

/* bits of word j that block s has not seen yet join its ext and go on */
static void reach(Stack *st, int32_t s, uint64_t bits, int32_t j, int32_t w, uint64_t *ext,
                  uint64_t *seen)
{
	uint64_t nb = bits & ~seen[s];
	if (!nb) return;
	seen[s] |= nb;
	ext[(size_t)s * (size_t)w + (size_t)j] |= nb;
	push(st, s, nb);
}

/* ext[x] word j |= bits for every block x of the region of branch block b,
   except where a region met before (with a reconvergence point at least as
   far up the post-dominator tree) already brought that bit (seen) */
static void region_mark(const Cfg *c, int32_t b, uint64_t bits, int32_t j, int32_t w,
                        uint64_t *ext, uint64_t *seen, Stack *st)
{
	int32_t p = c->ipdom[b];
	const Block *bb = &c->blocks[b];
	st->n = 0;
	for (int32_t k = 0; k < bb->nsucc; k++)
		if (bb->succ[k] != p && bb->succ[k] != c->exit)
			reach(st, bb->succ[k], bits, j, w, ext, seen);
	while (st->n) {
		st->n--;
		int32_t x = st->blk[st->n];
		uint64_t m = st->bits[st->n];
		const Block *xb = &c->blocks[x];
		for (int32_t k = 0; k < xb->nsucc; k++)
			if (xb->succ[k] != p && xb->succ[k] != c->exit)
				reach(st, xb->succ[k], m, j, w, ext, seen);
	}
}

/* the divergent branch blocks with a reconvergence point, those nearest the
   post-dominator tree's root first (ties by block id); returns how many */
static int32_t branches(const Cfg *c, int32_t *br)
{
	int32_t n = c->nblock + 1, nbr = 0;
	const int32_t *depth = c->pdom_depth;
	int32_t *cnt = xcalloc((size_t)n + 1, sizeof(int32_t));
	for (int32_t b = 0; b < c->nblock; b++)
		if (divergent(c, b) && c->ipdom[b] >= 0) cnt[depth[c->ipdom[b]] + 1]++;
	for (int32_t d = 0; d < n; d++) cnt[d + 1] += cnt[d];
	for (int32_t b = 0; b < c->nblock; b++)
		if (divergent(c, b) && c->ipdom[b] >= 0) br[cnt[depth[c->ipdom[b]]]++] = b, nbr++;
	free(cnt);
	return nbr;
}

/* fold ext into l's sets and per-read facts */
static void widen(Live *l, const uint64_t *ext)
{
	const Cfg *c = l->c;
	int32_t w = l->words;
	l->maxlive = 0;
	for (int32_t b = 0; b < c->nblock; b++) {
		const uint64_t *e = ext + (size_t)b * (size_t)w;
		or_set(l->blk_in + (size_t)b * (size_t)w, e, w);
		or_set(l->blk_out + (size_t)b * (size_t)w, e, w);
		for (int32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++) {
			uint64_t *in = l->ins_in + (size_t)i * (size_t)w;
			or_set(in, e, w);
			int n = live_count(l, in);
			if (n > l->maxlive) l->maxlive = n;
			for (int32_t s = l->use_start[i]; s < l->use_start[i + 1]; s++) {
				if (!live_has(e, l->use_reg[s])) continue;
				l->use_last[s] = 0;
				l->use_remain[s] |= LIVE_MORE;
			}
		}
	}
}

/*
 * The regions, without walking each one.  Nested regions make the sum of
 * their sizes quadratic (20,000 nested ifs: 200 million block visits).
 * But every block x of b's region is post-dominated by b's reconvergence
 * point p (a path from x to the exit that missed p would give one from b),
 * so the reconvergence points of the regions holding x lie on one chain of
 * the post-dominator tree, and the region of a point higher on that chain
 * reaches from x everything that one lower reaches.  So the regions are
 * marked highest point first, one 64-register word of the sets at a time,
 * and a search stops at a block that already has the bits it carries: each
 * block takes each register at most once, and the work is the size of ext.
 */
Live *live_compute_div(const Cfg *c)
{
	Live *l = live_compute(c);
	int32_t w = l->words, n = c->nblock + 1;
	uint64_t *ext = xcalloc((size_t)n * (size_t)w, sizeof(uint64_t));
	int32_t *br = xmalloc(sizeof(int32_t) * (size_t)n);
	int32_t nbr = branches(c, br);
	uint64_t *keep = xmalloc(sizeof(uint64_t) * ((size_t)nbr * (size_t)w + 1));
	uint64_t *seen = xmalloc(sizeof(uint64_t) * (size_t)n);
	Stack st = {0};
	for (int32_t k = 0; k < nbr; k++) region_keep(l, br[k], keep + (size_t)k * (size_t)w);
	for (int32_t j = 0; j < w; j++) {
		memset(seen, 0, sizeof(uint64_t) * (size_t)n);
		for (int32_t k = 0; k < nbr; k++) {
			uint64_t bits = keep[(size_t)k * (size_t)w + (size_t)j];
			if (bits) region_mark(c, br[k], bits, j, w, ext, seen, &st);
		}
	}
	widen(l, ext);
	l->warp = 1;
	free(ext), free(br), free(keep), free(seen), free(st.blk), free(st.bits);
	return l;
}
