/*
 * regalloc.c -- register allocation by graph colouring: PTX's virtual
 * registers become architected registers R0..R(n-1) and P0..P(k-1).
 *
 * Method: Chaitin-Briggs (Briggs, Cooper and Torczon, "Improvements to
 * graph coloring register allocation", TOPLAS 1994), one round at a time:
 *   build     the interference graph, moves, spill costs (igraph.c)
 *   coalesce  each move d <- s whose ends do not interfere, most frequent
 *             first, if Briggs's conservative test says the merged node
 *             is still colourable (fewer than K significant neighbours)
 *   simplify  remove nodes of degree < K; when none is left, remove the
 *             one of least cost/degree optimistically
 *   select    pop and give each node the lowest free register, trying
 *             first the register of a move partner (biased colouring,
 *             which removes some moves that coalescing refused)
 *   spill     if a node found no register within the cap, rewrite the
 *             code (spill.c) and start the next round
 * Predicates form their own class with K = compiler.pred_regs; predicates
 * that do not fit are kept in general registers, which then take part in
 * the general colouring.  Graph colouring rather than linear scan because
 * nvcc's PTX is near-SSA and loop-heavy: the graph sees exactly which
 * values overlap, and coalescing removes the copies nvcc leaves at loop
 * back edges.
 *
 * Register count.  Simplify runs with K = the register pressure (the most
 * 32-bit registers live at once; igraph.c), not the cap, so the
 * simplification order is the one that fits the smallest register file,
 * and select takes the lowest free register: the count comes out at or
 * just above the pressure, as a production allocator's does.  A value
 * wider than 32 bits takes aligned slots (a 64-bit pair starts at an even
 * register, a 128-bit quad at a multiple of 4); for the degree test a
 * neighbour of width w blocks max(1, w / width) of a node's positions
 * (Smith, Ramsey and Holloway, PLDI 2004).  The cap is then only a limit
 * for select.  A second select order, greedy in order of first definition
 * (optimal on the chordal graphs of SSA code), is tried when the first
 * lands above the pressure, and kept if it needs fewer registers.
 * Instructions that ptxas expands into sequences needing registers of
 * their own (integer division, IEEE division and square root) get that
 * many scratch nodes (igraph.c), so counts compare with `ptxas -v`.
 *
 * The cap.  Whatever pass.c derives (sm.max_regs_per_thread, maxrregcount,
 * .maxnreg, launch bounds), raised to the registers a single instruction
 * names at once (below that no amount of spilling helps; ptxas raises a
 * too-small -maxrregcount the same way).  If a spill temporary itself
 * finds no register (possible near that minimum), its neighbours are
 * spilled instead, or as a last resort the cap grows by two.
 *
 * Big functions.  A round whose graph would pass RA_EDGE_BUDGET edges --
 * thousands of values live at once make it nearly a clique, growing as the
 * square -- builds none: it spills, wherever more than the cap is live, the
 * cheapest values read furthest ahead (igraph_prespill), as a linear-scan
 * allocator would, and the next round colours what is left.  Time and
 * memory stay near-linear in the code; no kernel of the corpus comes near
 * the budget, so their allocation is Chaitin-Briggs' alone.
 *
 * Output (assign): each register id of the result names one architected
 * register of one width: %rN (32-bit, R N), %rdN (64-bit, R N:N+1), %rsN
 * (16-bit values, in R N), %rcN (8-bit), %rqN (128-bit), %pN; Func.phys
 * holds N.  Moves whose two sides got the same register are deleted.
 *
 * Left out: live-range splitting, rematerialisation beyond single
 * instructions without register operands (spill.c), instruction
 * scheduling (schedule.c runs first; under compiler.schedule=latency the
 * graph also holds memory instructions' reads a few instructions longer,
 * igraph.c), and functions declaring vector registers (.reg .v2; nvcc
 * never emits them), which stay virtual (st->skipped).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/ra_int.h"
#include "base/base.h"

enum { MAXCAP = 255, MAXROUNDS = 64 };

/* ---- coalescing ------------------------------------------------------------ */

static int move_cmp(const void *a, const void *b)
{
	const Move *x = a, *y = b;
	if (x->weight != y->weight) return x->weight > y->weight ? -1 : 1;
	return x->dst != y->dst ? x->dst - y->dst : x->src - y->src;
}

static int blocked(const Ra *ra, int32_t x, int32_t y)
{
	int b = ra->wid[y] / (ra->wid[x] ? ra->wid[x] : 1);
	return b > 1 ? b : 1;
}

static int32_t target(const Ra *ra, int cl)
{
	int32_t k = cl == CL_PRED ? ra->o->npred : ra->cap;
	int32_t p = ra->pressure[cl];
	return p > 0 && p < k ? p : k;
}

/* Briggs: fewer than K/width neighbours of significant degree */
static int briggs(Ra *ra, int32_t a, int32_t b, int32_t *stamp, int32_t mark)
{
	int cl = ra->cls[a], w = cl == CL_GEN ? ra->wid[a] : 1;
	int32_t k = target(ra, cl), sig = 0;
	for (int pass = 0; pass < 2; pass++) {
		int32_t x = pass ? b : a, n = igraph_degree(ra, x);
		for (int32_t i = 0; i < n; i++) {
			int32_t t = ra_find(ra, igraph_nb(ra, x, i));
			if (stamp[t] == mark || t == a || t == b) continue;
			stamp[t] = mark;
			int tw = cl == CL_GEN ? ra->wid[t] : 1;
			if (igraph_degree(ra, t) >= k / tw) sig += blocked(ra, a, t);
		}
	}
	return sig < k / w;
}

static void merge(Ra *ra, int32_t a, int32_t b)
{
	ra->rep[b] = a;
	ra->cost[a] += ra->cost[b];
	ra->temp[a] |= ra->temp[b];
	int32_t n = igraph_degree(ra, b);
	for (int32_t i = 0; i < n; i++) {
		int32_t t = ra_find(ra, igraph_nb(ra, b, i));
		if (t != a) igraph_add(ra, a, t);
	}
}

static void coalesce(Ra *ra)
{
	if (ra->nmv) qsort(ra->mv, (size_t)ra->nmv, sizeof *ra->mv, move_cmp);
	int32_t *stamp = xmalloc(sizeof(int32_t) * ((size_t)ra->n + 1));
	for (int32_t r = 0; r < ra->n; r++) stamp[r] = -1;
	for (int32_t i = 0; i < ra->nmv; i++) {
		int32_t a = ra_find(ra, ra->mv[i].dst), b = ra_find(ra, ra->mv[i].src);
		if (a == b || ra->cls[a] != ra->cls[b] || ra->wid[a] != ra->wid[b]) continue;
		if (ra->temp[a] != ra->temp[b]) continue;    /* keep long ranges spillable */
		if (igraph_edge(ra, a, b) || !briggs(ra, a, b, stamp, i)) continue;
		if (b < a) {
			int32_t t = a;
			a = b, b = t;
		}
		merge(ra, a, b);
	}
	free(stamp);
}

/* ---- simplify and select ------------------------------------------------------ */

typedef struct Col {         /* the colouring of one class */
	int cl;
	int32_t k;               /* registers available: the cap */
	int32_t kt;              /* what simplify aims for: min(pressure, k) */
	int32_t *node, nnode;    /* the class's reps */
	int32_t *idx;            /* register id -> node index, -1 */
	int32_t *off, *nb;       /* deduplicated neighbours (CSR over node indexes) */
	int32_t *moff, *mnb;     /* move partners (CSR) */
	int32_t *wdeg;           /* positions blocked by neighbours not yet removed */
	uint8_t *w;              /* width of each node (1 for predicates) */
	int32_t *avail;          /* kt / width: positions simplify assumes */
	uint8_t *gone;
	int32_t *stack, nstack;
	double *hkey;            /* heap of spill candidates: cost per blocked position when */
	int32_t *hnode, nheap;   /*   pushed (it only grows as neighbours go), and the node */
	int32_t nspill;          /* nodes select found no register for */
} Col;

static int wd(const Ra *ra, const Col *g, int32_t x)
{
	(void)ra;
	return g->w[x];
}

/* positions of x that neighbour y blocks: max(1, width y / width x) */
static int blk(const Ra *ra, const Col *g, int32_t x, int32_t y)
{
	(void)ra;
	return g->w[y] > g->w[x] ? g->w[y] >> (g->w[x] >> 1) : 1;
}

static void nbr_lists(Ra *ra, Col *g)
{
	int32_t *stamp = xmalloc(sizeof(int32_t) * ((size_t)g->nnode + 1));
	IVec all = {0};
	g->off = xmalloc(sizeof(int32_t) * ((size_t)g->nnode + 1));
	for (int32_t x = 0; x < g->nnode; x++) stamp[x] = -1;
	for (int32_t x = 0; x < g->nnode; x++) {
		g->off[x] = all.n;
		int32_t r = g->node[x], n = igraph_degree(ra, r);
		for (int32_t i = 0; i < n; i++) {
			int32_t y = g->idx[ra_find(ra, igraph_nb(ra, r, i))];
			if (y < 0 || y == x || stamp[y] == x) continue;
			stamp[y] = x;
			VEC_RESERVE(all.v, all.cap, (size_t)all.n + 1);
			all.v[all.n++] = y;
		}
	}
	g->off[g->nnode] = all.n;
	g->nb = all.v;
	free(stamp);
}

static void move_lists(Ra *ra, Col *g)
{
	g->moff = xcalloc((size_t)g->nnode + 2, sizeof(int32_t));
	g->mnb = xmalloc(sizeof(int32_t) * ((size_t)ra->nmv * 2 + 1));
	for (int pass = 0; pass < 2; pass++) {
		for (int32_t i = 0; i < ra->nmv; i++) {
			int32_t a = g->idx[ra_find(ra, ra->mv[i].dst)];
			int32_t b = g->idx[ra_find(ra, ra->mv[i].src)];
			if (a < 0 || b < 0 || a == b) continue;
			if (!pass) {
				g->moff[a + 2]++, g->moff[b + 2]++;
				continue;
			}
			g->mnb[g->moff[a + 1]++] = b;
			g->mnb[g->moff[b + 1]++] = a;
		}
		if (!pass)
			for (int32_t x = 0; x < g->nnode; x++) g->moff[x + 2] += g->moff[x + 1];
	}
}

static void col_init(Ra *ra, Col *g, int cl, int32_t k)
{
	memset(g, 0, sizeof *g);
	g->cl = cl;
	g->k = k;
	g->kt = target(ra, cl) < k ? target(ra, cl) : k;
	g->idx = xmalloc(sizeof(int32_t) * (size_t)ra->n);
	g->node = xmalloc(sizeof(int32_t) * (size_t)ra->n);
	for (int32_t r = 0; r < ra->n; r++) {
		g->idx[r] = -1;
		if (ra->cls[r] != cl || ra_find(ra, r) != r) continue;
		g->idx[r] = g->nnode;
		g->node[g->nnode++] = r;
	}
	nbr_lists(ra, g);
	move_lists(ra, g);
	size_t nn = (size_t)g->nnode + 1;
	g->wdeg = xcalloc(nn, sizeof(int32_t));
	g->w = xmalloc(nn);
	g->avail = xmalloc(nn * sizeof(int32_t));
	for (int32_t x = 0; x < g->nnode; x++) {
		g->w[x] = cl == CL_GEN ? ra->wid[g->node[x]] : 1;
		g->avail[x] = g->kt / g->w[x];
	}
	g->gone = xcalloc(nn, 1);
	g->stack = xmalloc(sizeof(int32_t) * nn);
	g->hkey = xmalloc(sizeof(double) * nn);
	g->hnode = xmalloc(sizeof(int32_t) * nn);
}

static void col_free(Col *g)
{
	free(g->idx), free(g->node), free(g->off), free(g->nb), free(g->moff), free(g->mnb);
	free(g->wdeg), free(g->gone), free(g->stack), free(g->hkey), free(g->hnode);
	free(g->w), free(g->avail);
}

/* heap order: least key, then least node */
static int heap_less(const Col *g, int32_t a, int32_t b)
{
	return g->hkey[a] < g->hkey[b] || (g->hkey[a] == g->hkey[b] && g->hnode[a] < g->hnode[b]);
}

static void heap_swap(Col *g, int32_t a, int32_t b)
{
	double k = g->hkey[a];
	int32_t x = g->hnode[a];
	g->hkey[a] = g->hkey[b], g->hnode[a] = g->hnode[b];
	g->hkey[b] = k, g->hnode[b] = x;
}

static void heap_push(Col *g, double key, int32_t x)
{
	int32_t i = g->nheap++;
	g->hkey[i] = key, g->hnode[i] = x;
	for (; i > 0 && heap_less(g, i, (i - 1) / 2); i = (i - 1) / 2) heap_swap(g, i, (i - 1) / 2);
}

static void heap_pop(Col *g)
{
	int32_t i = 0, n = --g->nheap;
	heap_swap(g, 0, n);
	for (int32_t c; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && heap_less(g, c + 1, c)) c++;
		if (!heap_less(g, c, i)) break;
		heap_swap(g, i, c);
	}
}

static double spill_key(const Ra *ra, const Col *g, int32_t x)
{
	return ra->cost[g->node[x]] / (g->wdeg[x] + 1);
}

/* the node to remove when every one left has significant degree: least
   cost per blocked position (Chaitin), the lowest node among equals.  A
   removal only lowers its neighbours' wdeg, so keys only grow: a node whose
   key grew since it was pushed goes back in with the new one (each node is
   in the heap at most once) */
static int32_t pick_spill(const Ra *ra, Col *g)
{
	while (g->nheap) {
		int32_t x = g->hnode[0];
		double k = g->hkey[0], now = spill_key(ra, g, x);
		heap_pop(g);
		if (g->gone[x]) continue;
		if (now != k) {
			heap_push(g, now, x);
			continue;
		}
		return x;
	}
	return -1;
}

static void simplify(Ra *ra, Col *g)
{
	int32_t *low = xmalloc(sizeof(int32_t) * ((size_t)g->nnode + 1)), nlow = 0;
	for (int32_t x = 0; x < g->nnode; x++) {
		for (int32_t i = g->off[x]; i < g->off[x + 1]; i++) g->wdeg[x] += blk(ra, g, x, g->nb[i]);
		if (g->wdeg[x] < g->avail[x]) low[nlow++] = x;
	}
	for (int32_t x = 0; x < g->nnode; x++) heap_push(g, spill_key(ra, g, x), x);
	for (int32_t left = g->nnode; left > 0; left--) {
		int32_t x = nlow ? low[--nlow] : pick_spill(ra, g);
		g->gone[x] = 1;
		g->stack[g->nstack++] = x;
		for (int32_t i = g->off[x]; i < g->off[x + 1]; i++) {
			int32_t y = g->nb[i], av = g->avail[y];
			if (g->gone[y]) continue;
			int was = g->wdeg[y] >= av;
			g->wdeg[y] -= blk(ra, g, y, x);
			if (was && g->wdeg[y] < av) low[nlow++] = y;
		}
	}
	free(low);
}

static int is_free(const uint64_t *forb, int32_t c, int w)
{
	for (int j = 0; j < w; j++)
		if (forb[(c + j) >> 6] >> ((c + j) & 63) & 1) return 0;
	return 1;
}

/* the register for node x given its coloured neighbours; -1 if none fits */
static int32_t pick_reg(const Ra *ra, const Col *g, int32_t x)
{
	int32_t w = wd(ra, g, x);
	uint64_t forb[4] = {0};
	for (int32_t i = g->off[x]; i < g->off[x + 1]; i++) {
		int32_t y = g->nb[i], c = ra->colour[g->node[y]];
		for (int j = 0; c >= 0 && j < wd(ra, g, y); j++)
			forb[(c + j) >> 6] |= (uint64_t)1 << ((c + j) & 63);
	}
	for (int32_t i = g->moff[x]; i < g->moff[x + 1]; i++) {
		int32_t c = ra->colour[g->node[g->mnb[i]]];
		if (c >= 0 && c % w == 0 && c + w <= g->k && is_free(forb, c, w)) return c;
	}
	for (int32_t c = 0; c + w <= g->k; c += w)
		if (is_free(forb, c, w)) return c;
	return -1;
}

/* colour the nodes in order[0..n); returns registers used, -1 if some node
   found none (and, with mark, marks those for spilling) */
static int32_t select_regs(Ra *ra, Col *g, const int32_t *order, int32_t n, int mark)
{
	int32_t top = 0, failed = 0;
	for (int32_t x = 0; x < g->nnode; x++) ra->colour[g->node[x]] = -1;
	for (int32_t k = 0; k < n; k++) {
		int32_t x = order[k], c = pick_reg(ra, g, x);
		if (c >= 0) {
			ra->colour[g->node[x]] = c;
			if (c + wd(ra, g, x) > top) top = c + wd(ra, g, x);
			continue;
		}
		failed = 1;
		if (mark) {
			ra->spill[g->node[x]] = 1;
			g->nspill++;
		}
	}
	return failed ? -1 : top;
}

/* by the first-definition rank per register (qsort_r's context) */
static int rank_cmp(const void *a, const void *b, void *rank)
{
	const int32_t *by_rank = rank;
	int32_t x = by_rank[*(const int32_t *)a], y = by_rank[*(const int32_t *)b];
	return x != y ? (x > y) - (x < y) : *(const int32_t *)a - *(const int32_t *)b;
}

/* the other select order: greedy in order of first definition (reverse
   postorder), optimal for the chordal graphs of SSA code; kept if it
   needs fewer registers than the Chaitin-Briggs order */
static void try_def_order(Ra *ra, Col *g, int32_t have)
{
	int32_t *order = xmalloc(sizeof(int32_t) * ((size_t)g->nnode + 1));
	int32_t *rank = xmalloc(sizeof(int32_t) * ((size_t)g->nnode + 1));
	int32_t *save = xmalloc(sizeof(int32_t) * ((size_t)g->nnode + 1));
	for (int32_t x = 0; x < g->nnode; x++) {
		order[x] = x;
		rank[x] = INT32_MAX;
		save[x] = ra->colour[g->node[x]];
	}
	for (int32_t r = 0; r < ra->n; r++) {
		int32_t x = g->idx[ra_find(ra, r)];
		if (x >= 0 && ra->rank[r] < rank[x]) rank[x] = ra->rank[r];
	}
	qsort_r(order, (size_t)g->nnode, sizeof *order, rank_cmp, rank);
	int32_t got = select_regs(ra, g, order, g->nnode, 0);
	if (got < 0 || got >= have)
		for (int32_t x = 0; x < g->nnode; x++) ra->colour[g->node[x]] = save[x];
	free(order);
	free(rank);
	free(save);
}

/* a spill temporary found no register: spill its neighbours instead;
   returns 1 if some temporary has none to spill */
static int unblock_temps(Ra *ra, const Col *g)
{
	int stuck = 0;
	for (int32_t x = 0; x < g->nnode; x++) {
		int32_t r = g->node[x];
		if (!ra->spill[r] || !ra->temp[r]) continue;
		ra->spill[r] = 0;
		int found = 0;
		for (int32_t i = g->off[x]; i < g->off[x + 1]; i++) {
			int32_t y = g->node[g->nb[i]];
			if (!ra->temp[y]) ra->spill[y] = 1, found = 1;
		}
		stuck |= !found;
	}
	return stuck;
}

/* colour class cl within k registers: 0 done, 1 spill code needed, -1 stuck */
static int colour_class(Ra *ra, int cl, int32_t k)
{
	Col g;
	col_init(ra, &g, cl, k);
	simplify(ra, &g);
	for (int32_t i = 0, j = g.nstack - 1; i < j; i++, j--) {   /* pop order */
		int32_t t = g.stack[i];
		g.stack[i] = g.stack[j];
		g.stack[j] = t;
	}
	int32_t have = select_regs(ra, &g, g.stack, g.nstack, 1);
	if (have > g.kt) try_def_order(ra, &g, have);    /* kt is a lower bound */
	int rc = g.nspill ? 1 : 0;
	if (g.nspill && unblock_temps(ra, &g)) rc = -1;
	col_free(&g);
	return rc;
}

/* ---- assignment --------------------------------------------------------------- */

enum { K_PRED, K_B8, K_B16, K_B32, K_B64, K_B128, NKIND };

static const struct { const char *name; PtxType type; } kinds[NKIND] = {
	[K_PRED] = {"%p", PT_PRED}, [K_B8] = {"%rc", PT_B8}, [K_B16] = {"%rs", PT_B16},
	[K_B32] = {"%r", PT_B32}, [K_B64] = {"%rd", PT_B64}, [K_B128] = {"%rq", PT_B128},
};

static int kind_of(PtxType t)
{
	switch (ptxtype_size(t)) {
	case 1: return K_B8;
	case 2: return K_B16;
	case 8: return K_B64;
	case 16: return K_B128;
	default: return t == PT_PRED ? K_PRED : K_B32;
	}
}

typedef struct Assign {
	int32_t *map;            /* old register id -> new id */
	int32_t base[NKIND], count[NKIND];
	int32_t nreg, regs, preds;
} Assign;

static int32_t map_reg(void *ctx, int32_t r, int is_def)
{
	(void)is_def;
	return ((const Assign *)ctx)->map[r];
}

static void plan(Ra *ra, Assign *a)
{
	memset(a, 0, sizeof *a);
	a->map = xmalloc(sizeof(int32_t) * ((size_t)ra->n + 1));
	uint8_t present[NKIND] = {0};
	for (int32_t r = 0; r < ra->n; r++) {
		if (!ra->cls[r]) continue;
		int32_t c = ra->colour[ra_find(ra, r)];
		if (c < 0) die("regalloc: register %d has no colour", r);
		present[kind_of((PtxType)ra->regtype[r])] = 1;
		if (ra->cls[r] == CL_PRED && c + 1 > a->preds) a->preds = c + 1;
		if (ra->cls[r] == CL_GEN && c + ra->wid[r] > a->regs) a->regs = c + ra->wid[r];
	}
	for (int k = 0; k < NKIND; k++) {
		if (!present[k]) continue;
		a->base[k] = a->nreg;
		a->count[k] = k == K_PRED ? a->preds : a->regs;
		a->nreg += a->count[k];
	}
	for (int32_t r = 0; r < ra->n; r++)
		a->map[r] = ra->cls[r] ? a->base[kind_of((PtxType)ra->regtype[r])] +
		                         ra->colour[ra_find(ra, r)] : 0;
}

static int is_scratch(const Ra *ra, int32_t r)
{
	for (int32_t i = 0; i < ra->pool.n; i++)
		if (ra->pool.v[i] == r) return 1;
	return 0;
}

static void dump_assign(Ra *ra, const Assign *a, int32_t nreg0)
{
	FILE *out = ra->o->dump;
	const RaStats *st = ra->st;
	char buf[64];
	fprintf(out, "regalloc %s: %d regs, %d preds; pressure %d, cap %d; spilled %d, remat %d, "
	        "preds in regs %d; moves %d, removed %d; rounds %d\n",
	        ir_str(ra->m, ra->m->syms[ra->f->sym].name), a->regs, a->preds, st->pressure,
	        ra->cap, st->spilled, st->remat, st->pred_spilled, st->moves,
	        st->moves_removed, st->rounds);
	for (int32_t r = 0; r < ra->n; r++) {
		if (!ra->cls[r]) continue;
		if (r < nreg0) ir_regname(ra->m, ra->f, r, buf, sizeof buf);
		else snprintf(buf, sizeof buf, "%%t%d%s", r, is_scratch(ra, r) ? " (scratch)" : "");
		int32_t c = ra->colour[ra_find(ra, r)];
		if (ra->cls[r] == CL_PRED) fprintf(out, "  %s P%d\n", buf, c);
		else if (ra->wid[r] == 1) fprintf(out, "  %s R%d\n", buf, c);
		else fprintf(out, "  %s R%d:R%d\n", buf, c, c + ra->wid[r] - 1);
	}
}

static int empty_move(const Ins *in)
{
	return in->op == OP_MOV && in->nd == 1 && in->ns == 1 && in->o[0].kind == OPK_REG &&
	       in->o[1].kind == OPK_REG && in->o[0].reg == in->o[1].reg &&
	       !(in->o[1].flags & OPDF_NEG);
}

/* rewrite f onto the architected registers */
static void assign(Ra *ra, int32_t nreg0)
{
	Func *f = ra->f;
	Module *m = ra->m;
	Assign a;
	plan(ra, &a);
	Edit e;
	edit_begin(&e, m, f);
	for (int32_t i = 0; i < f->nins; i++) {
		edit_mark(&e, i);
		Ins in = f->ins[i];
		edit_rename(f, &in, map_reg, &a);
		if (empty_move(&in)) ra->st->moves_removed++;
		else edit_keep(&e, &in);
	}
	edit_end(&e);
	if (ra->o->dump) dump_assign(ra, &a, nreg0);
	RegDecl *rd = arena_alloc(m->arena, sizeof(RegDecl) * NKIND);
	int32_t nrd = 0;
	f->regtype = arena_alloc(m->arena, (size_t)a.nreg + 1);
	f->phys = arena_alloc(m->arena, sizeof(int32_t) * ((size_t)a.nreg + 1));
	for (int k = 0; k < NKIND; k++) {
		if (!a.count[k]) continue;
		const char *nm = kinds[k].name;
		rd[nrd++] = (RegDecl){ir_intern(m, nm, strlen(nm)), (uint8_t)kinds[k].type, 0,
		                      a.base[k], a.count[k], -1};
		for (int32_t j = 0; j < a.count[k]; j++) {
			f->phys[a.base[k] + j] = j;
			f->regtype[a.base[k] + j] = (uint8_t)kinds[k].type;
		}
	}
	f->rdecl = rd;
	f->nrdecl = nrd;
	f->nreg = a.nreg;
	f->nphys = a.regs;
	f->nphys_pred = a.preds;
	f->regs_per_thread = a.regs;
	ra->st->regs = a.regs;
	ra->st->preds = a.preds;
	free(a.map);
}

/* ---- the driver --------------------------------------------------------------- */

static int has_vector_regs(const Func *f)
{
	for (int32_t i = 0; i < f->nrdecl; i++)
		if (f->rdecl[i].vec) return 1;
	return 0;
}

static void ra_free(Ra *ra)
{
	igraph_free(ra);
	free(ra->regtype), free(ra->cls), free(ra->wid), free(ra->temp), free(ra->spill);
	free(ra->cost), free(ra->rep), free(ra->colour), free(ra->adj), free(ra->mv);
	free(ra->rank);
	free(ra->pool.v);
}

/* the graph of this round, or spill code where more than the cap is live if
   the graph would be too big (igraph.c): 1 graph built, 0 spill code written */
static int build(Ra *ra, Cfg *c)
{
	LiveSets *l = live_sets(c);
	int whole = igraph_build(ra, c, l);
	if (ra->cap < ra->kmin) ra->cap = ra->kmin;
	if (!whole && igraph_prespill(ra, c, l)) {
		if (ra->st->rounds++ == 0) ra->st->pressure = ra->pressure[CL_GEN];
		live_sets_free(l);
		spill_rewrite(ra, c);
		igraph_free(ra);
		return 0;
	}
	if (!whole) {            /* nothing to relieve: the graph as it is */
		ra->unbounded = 1;
		igraph_build(ra, c, l);
	}
	live_sets_free(l);
	if (ra->st->rounds++ == 0) ra->st->pressure = ra->pressure[CL_GEN];
	if (!ra->moves_seen) ra->moves_seen = 1, ra->st->moves = ra->nmv;
	return 1;
}

/* one build-coalesce-colour round: 0 allocated, 1 spill code written, -1 stuck */
static int round_once(Ra *ra)
{
	Cfg *c = cfg_build(ra->f);
	if (!build(ra, c)) {
		cfg_free(c);
		return 1;
	}
	coalesce(ra);
	int rp = colour_class(ra, CL_PRED, ra->o->npred);
	int rg = colour_class(ra, CL_GEN, ra->cap);
	if (rp < 0) {
		cfg_free(c);
		igraph_free(ra);
		return -1;
	}
	if (rg < 0) ra->cap = ra->cap + 2 <= MAXCAP ? ra->cap + 2 : MAXCAP + 1;
	if (rp || rg) {
		spill_rewrite(ra, c);
	} else {
		ra->st->cap = ra->cap;
		if (ra->o->verify) ra->st->conflicts = ra_check(ra);
		assign(ra, ra->nreg0);
	}
	cfg_free(c);
	igraph_free(ra);
	return rp || rg;
}

int regalloc_func(Module *m, int32_t fi, const RaOpts *o, RaStats *st)
{
	Func *f = &m->funcs[fi];
	memset(st, 0, sizeof *st);
	if (!f->has_body || f->phys) return RF_OK;
	if (has_vector_regs(f)) {
		st->skipped = 1;
		return RF_OK;
	}
	Ra ra = {.m = m, .f = f, .fi = fi, .o = o, .st = st, .spill_sym = -1, .pack_reg = -1};
	ra.cap = o->cap < MAXCAP ? o->cap : MAXCAP;
	ra.nreg0 = f->nreg;
	ra_grow(&ra, f->nreg + 1);
	if (f->nreg) memcpy(ra.regtype, f->regtype, (size_t)f->nreg);
	ra.n = f->nreg;
	f->regtype = ra.regtype;
	int rc;
	do rc = round_once(&ra);
	while (rc > 0 && ra.cap <= MAXCAP && st->rounds < MAXROUNDS);
	if (rc) {
		err_set("%s:%u:%u: register allocation of '%s' failed (%s)", m->filename, f->line,
		        f->col, ir_str(m, m->syms[f->sym].name),
		        rc < 0 ? "too few predicate registers: raise compiler.pred_regs"
		               : "no allocation within 255 registers");
		f->regtype = arena_dup(m->arena, ra.regtype, (size_t)ra.n + 1);
		ra_free(&ra);
		return RF_EINPUT;
	}
	ra_free(&ra);
	return RF_OK;
}
