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
#include "live.h"

#include <stdlib.h>
#include <string.h>

#include "base.h"

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

/* ext[x] |= L for every block x of the region of branch block b */
static void region_mark(const Cfg *c, int32_t b, const uint64_t *L, int32_t w, uint64_t *ext,
                        int32_t *stk, int32_t *seen, int32_t stamp)
{
	int32_t p = c->ipdom[b], sp = 0;
	const Block *bb = &c->blocks[b];
	for (int32_t k = 0; k < bb->nsucc; k++) {
		int32_t s = bb->succ[k];
		if (s == p || s == c->exit || seen[s] == stamp) continue;
		seen[s] = stamp;
		stk[sp++] = s;
	}
	while (sp) {
		int32_t x = stk[--sp];
		or_set(ext + (size_t)x * (size_t)w, L, w);
		const Block *xb = &c->blocks[x];
		for (int32_t k = 0; k < xb->nsucc; k++) {
			int32_t s = xb->succ[k];
			if (s == p || s == c->exit || seen[s] == stamp) continue;
			seen[s] = stamp;
			stk[sp++] = s;
		}
	}
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

Live *live_compute_div(const Cfg *c)
{
	Live *l = live_compute(c);
	int32_t w = l->words, n = c->nblock + 1;
	uint64_t *ext = xcalloc((size_t)n * (size_t)w, sizeof(uint64_t));
	uint64_t *L = xmalloc(sizeof(uint64_t) * (size_t)w);
	int32_t *stk = xmalloc(sizeof(int32_t) * (size_t)n * 2), *seen = stk + n;
	for (int32_t x = 0; x < n; x++) seen[x] = -1;
	for (int32_t b = 0; b < c->nblock; b++) {
		if (!divergent(c, b) || c->ipdom[b] < 0) continue;
		region_keep(l, b, L);
		if (live_count(l, L)) region_mark(c, b, L, w, ext, stk, seen, b);
	}
	widen(l, ext);
	l->warp = 1;
	free(ext);
	free(L);
	free(stk);
	return l;
}
