/*
 * rm_home.c -- RegMutex index compaction (regmutex.md section III-A4): a
 * home in the base set for every value of an extended register that lives
 * at a released point.
 *
 * The unit is a piece of a web -- a stretch of released points inside one
 * basic block, between acquired instructions -- not the register:
 * after allocation one architected register holds many unrelated values,
 * and a single home for all of them would have to avoid everything any of
 * them meets; a value live through a whole kernel likewise meets too much
 * for one home.  Pieces of one web (its group) try the same home first, so
 * moves between blocks (rm_plan.c's edge code) are needed only where the
 * home changes.  Webs are found with a
 * union-find over program points (rm_int.h) per extended register, each
 * time the modes change: the point before a released instruction joins
 * the point after it when the register is live across and not written
 * unconditionally there (for groups, acquired instructions too); the point after
 * joins the next point where the register is live (for groups, also the
 * entries of the successor blocks).  A read belongs to the web of the point before, a
 * write to the web of the point after.
 *
 * Constraints come from per-thread liveness (each lane owns its registers)
 * at every point of a released instruction: a web may not share a slot
 * with a base register live there, nor with another web live there
 * (writes count as live after the instruction).  Homes are picked greedily
 * -- widest first, then most constrained -- at the lowest aligned slot
 * range that fits below |Bs|.  Section III-A4's example: |Bs| = 6 and live
 * {2, 4, 5, 9} before a release moves 9 to 0, 1 or 3 -- here to 0.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rm_int.h"
#include "base/base.h"

static int32_t find(int32_t *par, int32_t x)
{
	while (par[x] != x) x = par[x] = par[par[x]];
	return x;
}

static void join(int32_t *par, int32_t a, int32_t b)
{
	a = find(par, a), b = find(par, b);
	if (a != b) par[a < b ? b : a] = a < b ? a : b;
}

static int names(const Func *f, const Ins *in, int32_t r, int defs)
{
	int32_t regs[RA_MAXSLOT];
	int n = defs ? live_defs(f, in, regs, RA_MAXSLOT) : live_uses(f, in, regs, RA_MAXSLOT);
	for (int j = 0; j < n && j < RA_MAXSLOT; j++)
		if (regs[j] == r) return 1;
	return 0;
}

/* the points of register r: nodes where it is live or named */
static int at(const Plan *p, int32_t r, int32_t node)
{
	int32_t i = node >> 1;
	if (node & 1) return live_has(live_out(p->lt, i), r) || names(p->f, &p->f->ins[i], r, 1);
	return live_has(live_in(p->lt, i), r) || names(p->f, &p->f->ins[i], r, 0);
}

static void webs_of(Plan *p, int32_t r, int32_t *par, int cross)
{
	const Func *f = p->f;
	const Cfg *c = p->c;
	int32_t n2 = 2 * f->nins;
	for (int32_t k = 0; k < n2; k++) par[k] = k;
	for (int32_t b = 0; b < c->nblock; b++) {
		const Block *bb = &c->blocks[b];
		for (int32_t i = bb->first; i <= bb->last; i++) {
			const Ins *in = &f->ins[i];
			int through = live_has(live_in(p->lt, i), r) && live_has(live_out(p->lt, i), r);
			if (through && (cross || !p->M[i]) && (in->guard >= 0 || !names(f, in, r, 1)))
				join(par, 2 * i, 2 * i + 1);
			if (i < bb->last && live_has(live_out(p->lt, i), r)) join(par, 2 * i + 1, 2 * i + 2);
		}
		for (int32_t k = 0; cross && k < bb->nsucc; k++) {
			int32_t s = bb->succ[k];
			if (s != c->exit && live_has(p->lt->blk_in + (size_t)s * (size_t)p->lt->words, r))
				join(par, 2 * bb->last + 1, 2 * c->blocks[s].first);
		}
	}
}

void rm_webs(Plan *p)
{
	const Func *f = p->f;
	rm_webs_free(p);
	int32_t n2 = 2 * f->nins;
	p->xid = xmalloc(sizeof(int32_t) * ((size_t)f->nreg + 1));
	p->nx = 0;
	for (int32_t r = 0; r < f->nreg; r++) p->xid[r] = p->ext[r] ? p->nx++ : -1;
	p->web = xmalloc(sizeof(int32_t) * ((size_t)p->nx * (size_t)n2 + 1));
	int32_t *par = xmalloc(sizeof(int32_t) * ((size_t)n2 + 1));
	int32_t *gpar = xmalloc(sizeof(int32_t) * ((size_t)n2 + 1));
	int32_t *id = xmalloc(sizeof(int32_t) * ((size_t)n2 + 1)), cap = 64, ngrp = 0;
	int32_t *gid = xmalloc(sizeof(int32_t) * ((size_t)n2 + 1));
	p->wreg = xmalloc(sizeof(int32_t) * (size_t)cap);
	p->wgrp = xmalloc(sizeof(int32_t) * (size_t)cap);
	p->nweb = 0;
	for (int32_t r = 0; r < f->nreg; r++) {
		if (p->xid[r] < 0) continue;
		int32_t *w = p->web + (size_t)p->xid[r] * (size_t)n2;
		webs_of(p, r, par, 0);
		webs_of(p, r, gpar, 1);
		for (int32_t k = 0; k < n2; k++) id[k] = gid[k] = -1;
		for (int32_t k = 0; k < n2; k++) {
			w[k] = -1;
			if (!at(p, r, k)) continue;
			int32_t root = find(par, k), groot = find(gpar, k);
			if (gid[groot] < 0) gid[groot] = ngrp++;
			if (id[root] < 0) {
				if (p->nweb == cap) {
					cap *= 2;
					p->wreg = xrealloc(p->wreg, sizeof(int32_t) * (size_t)cap);
					p->wgrp = xrealloc(p->wgrp, sizeof(int32_t) * (size_t)cap);
				}
				p->wreg[p->nweb] = r;
				p->wgrp[p->nweb] = gid[groot];
				id[root] = p->nweb++;
			}
			w[k] = id[root];
		}
	}
	p->home = xmalloc(sizeof(int32_t) * ((size_t)p->nweb + 1));
	free(par), free(gpar), free(id), free(gid);
}

int32_t rm_home_at(const Plan *p, int32_t r, int32_t node)
{
	if (p->xid[r] < 0) return -1;
	int32_t w = p->web[(size_t)p->xid[r] * 2 * (size_t)p->f->nins + (size_t)node];
	return w < 0 ? -1 : p->home[w];
}

void rm_webs_free(Plan *p)
{
	free(p->xid), free(p->web), free(p->home), free(p->wreg), free(p->wgrp);
	p->xid = p->web = p->home = p->wreg = p->wgrp = NULL;
}

/* ---- constraints and homes ------------------------------------------------------ */

typedef struct Conf {
	uint64_t (*forbid)[RM_SW];  /* nweb: slots a home may not touch */
	IVec *adj;               /* nweb: webs live beside it at a released point */
	uint8_t *used;           /* nweb: lives at a released point */
} Conf;

static int32_t web_at(const Plan *p, int32_t r, int32_t node)
{
	return p->web[(size_t)p->xid[r] * 2 * (size_t)p->f->nins + (size_t)node];
}

static void push(IVec *v, int32_t x)
{
	VEC_RESERVE(v->v, v->cap, (size_t)v->n + 1);
	v->v[v->n++] = x;
}

/* point node of a released instruction: everything in set, plus the writes */
static void conf_point(const Plan *p, Conf *k, int32_t node, const uint64_t *set)
{
	const Func *f = p->f;
	int32_t lst[RA_MAXSLOT + RM_MAXSLOT], n = 0, regs[RA_MAXSLOT];
	for (int32_t r = 0; r < f->nreg && n < RM_MAXSLOT; r++)
		if (live_has(set, r) && rm_wid(f, r)) lst[n++] = r;
	if (node & 1) {
		int nd = live_defs(f, &f->ins[node >> 1], regs, RA_MAXSLOT);
		for (int j = 0; j < nd && j < RA_MAXSLOT; j++)
			if (rm_wid(f, regs[j]) && !live_has(set, regs[j])) lst[n++] = regs[j];
	}
	for (int i = 0; i < n; i++) {
		if (!p->ext[lst[i]]) continue;
		int32_t w = web_at(p, lst[i], node);
		assert(w >= 0);
		k->used[w] = 1;
		for (int j = 0; j < n; j++) {
			int32_t s = lst[j];
			if (j == i) continue;
			if (p->ext[s]) { push(&k->adj[w], web_at(p, s, node)); continue; }
			for (int q = 0; q < rm_wid(f, s); q++) {
				int32_t sl = f->phys[s] + q;
				k->forbid[w][sl >> 6] |= 1ull << (sl & 63);
			}
		}
	}
}

static int fits(const Plan *p, const Conf *k, int32_t w, int32_t h)
{
	int ww = rm_wid(p->f, p->wreg[w]);
	for (int j = 0; j < ww; j++)
		if (k->forbid[w][(h + j) >> 6] >> ((h + j) & 63) & 1) return 0;
	for (int32_t i = 0; i < k->adj[w].n; i++) {
		int32_t v = k->adj[w].v[i], hv = p->home[v];
		if (v >= 0 && hv >= 0 && h < hv + rm_wid(p->f, p->wreg[v]) && hv < h + ww) return 0;
	}
	return 1;
}

typedef struct { const Conf *k; const Plan *p; } WebOrder;   /* qsort_r's context */

static int web_cmp(const void *a, const void *b, void *ctx)
{
	const Conf *sort_k = ((const WebOrder *)ctx)->k;
	const Plan *sort_p = ((const WebOrder *)ctx)->p;
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	int wx = rm_wid(sort_p->f, sort_p->wreg[x]), wy = rm_wid(sort_p->f, sort_p->wreg[y]);
	if (wx != wy) return wy - wx;
	if (sort_p->wgrp[x] != sort_p->wgrp[y]) return sort_p->wgrp[x] - sort_p->wgrp[y];
	if (sort_k->adj[x].n != sort_k->adj[y].n) return sort_k->adj[y].n - sort_k->adj[x].n;
	return x - y;
}

/* web w found no home: its released instructions become acquired */
static void promote(Plan *p, int32_t w)
{
	int32_t r = p->wreg[w];
	for (int32_t i = 0; i < p->f->nins; i++)
		if (!p->M[i] && (web_at(p, r, 2 * i) == w || web_at(p, r, 2 * i + 1) == w)) p->M[i] = 1;
}

int rm_homes(Plan *p)
{
	const Func *f = p->f;
	Conf k;
	rm_webs(p);
	k.forbid = xcalloc((size_t)p->nweb + 1, sizeof *k.forbid);
	k.adj = xcalloc((size_t)p->nweb + 1, sizeof *k.adj);
	k.used = xcalloc((size_t)p->nweb + 1, 1);
	for (int32_t i = 0; i < f->nins; i++) {
		if (p->M[i]) continue;
		conf_point(p, &k, 2 * i, live_in(p->lt, i));
		conf_point(p, &k, 2 * i + 1, live_out(p->lt, i));
	}
	int32_t *ord = xmalloc(sizeof(int32_t) * ((size_t)p->nweb + 1)), n = 0;
	for (int32_t w = 0; w < p->nweb; w++) {
		p->home[w] = -1;
		if (k.used[w]) ord[n++] = w;
	}
	qsort_r(ord, (size_t)n, sizeof *ord, web_cmp, &(WebOrder){&k, p});
	int ok = 1;
	for (int32_t i = 0, prev = -1; i < n; i++) {   /* a group's pieces share a home if
	                                                   they can: fewer moves between blocks */
		int32_t w = ord[i], ww = rm_wid(f, p->wreg[w]);
		if (i && p->wgrp[ord[i - 1]] != p->wgrp[w]) prev = -1;
		if (prev >= 0 && fits(p, &k, w, prev)) p->home[w] = prev;
		for (int32_t h = 0; h + ww <= p->bs && p->home[w] < 0; h += ww)
			if (fits(p, &k, w, h)) p->home[w] = h;
		if (p->home[w] >= 0 && prev < 0) prev = p->home[w];
		if (p->home[w] < 0) promote(p, w), ok = 0;
	}
	for (int32_t w = 0; w < p->nweb; w++) free(k.adj[w].v);
	free(ord), free(k.forbid), free(k.adj), free(k.used);
	return ok;
}
