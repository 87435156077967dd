/*
 * loop.c -- natural loops, reducibility and Hecht intervals.
 *
 * Natural loops.  An edge u->h whose target dominates its source is a back
 * edge; the natural loop of header h is h plus every reachable block that
 * reaches one of h's back-edge sources without passing through h (found by
 * a backward walk from the latches).  Back edges sharing a header make one
 * loop.  Loops are listed in RPO of their headers, so an enclosing loop
 * (whose header dominates the inner header) comes first; the innermost
 * loop of a block is the last one listed that contains it, and a loop's
 * parent is the innermost loop containing its header.  Natural loops with
 * different headers are disjoint or nested (Aho, Lam, Sethi, Ullman 9.6.6),
 * so this is the whole nesting forest.  An irreducible cycle -- one entered
 * at two places, so neither entry dominates the other -- has no back edge
 * and therefore no natural loop here, as in LLVM's LoopInfo; it is
 * reported through `reducible` and `nirredge` instead.
 *
 * Reducibility.  A flow graph is reducible iff every retreating edge of a
 * depth-first spanning tree is a back edge (Hecht and Ullman, 1974).  The
 * check uses the RPO of dom.c and counts the offenders.  Unreachable
 * blocks take no part: they are not in the flow graph.
 *
 * Intervals.  The classic partition (Allen and Cocke, "A program data flow
 * analysis procedure", CACM 1976; Hecht, "Flow Analysis of Computer
 * Programs", 1977): the interval I(h) of header h is the largest set that
 * contains h and every node all of whose predecessors are already in I(h),
 * so h is its only entry.  Start with the entry as the only header; once
 * I(h) is closed, every unassigned node with a predecessor in it becomes a
 * header.  Each node keeps a count of its predecessors inside the interval
 * being formed and joins when the count reaches its predecessor count, so
 * the partition is linear.  Headers are taken first-in first-out, so
 * interval ids follow the order headers are discovered.  Loop headers
 * always head an interval (a back edge comes from inside their loop).
 * The virtual exit is not part of the graph (ivl_of[exit] = -1).  Blocks
 * unreachable from the entry get intervals of their own afterwards, seeded
 * from the unreachable part of rpo; edges from unreachable blocks into
 * reachable ones are ignored when counting predecessors.
 *
 * Derived sequence.  Collapsing each interval of the reachable graph to a
 * node (an edge I->J whenever a block of I reaches the header of J != I)
 * gives the interval graph G1; repeating gives G2, G3, ... until a graph
 * is its own interval graph.  The limit is a single node iff the graph is
 * reducible, which the tests check against the dominance test.  LTRF's
 * register-interval formation (ltrf-asplos18, section 4, Algorithms 1 and
 * 2) is a register-constrained version of these two steps and lives in its
 * own pass; here only the block-level partition is kept, with the length
 * of the sequence and the size of its limit.
 */
#include "analysis/cfg.h"

#include <assert.h>
#include <stdlib.h>

#include "base/base.h"

/* ---- natural loops ------------------------------------------------------ */

static int reachable(const Cfg *c, int32_t b) { return c->rpo_index[b] < c->nreach; }

static int is_header(const Cfg *c, int32_t h)
{
	const Block *b = &c->blocks[h];
	for (int32_t k = 0; k < b->npred; k++)
		if (reachable(c, b->pred[k]) && cfg_dominates(c, h, b->pred[k])) return 1;
	return 0;
}

static void set_bit(uint64_t *s, int32_t b) { s[b >> 6] |= (uint64_t)1 << (b & 63); }
static int get_bit(const uint64_t *s, int32_t b) { return (int)(s[b >> 6] >> (b & 63) & 1); }

/* body of the loop headed by l->header, walking back from its latches: its
   blocks into mem[0 .. l->nbody), a bit set over lo .. hi into l->body
   (mark: scratch bits over every block, left clear) */
static void loop_body(const Cfg *c, Loop *l, uint64_t *mark, int32_t *mem)
{
	int32_t h = l->header, n = 0;
	set_bit(mark, h);
	mem[n++] = h;
	const Block *hb = &c->blocks[h];
	for (int32_t k = 0; k < hb->npred; k++) {
		int32_t p = hb->pred[k];
		if (!reachable(c, p) || !cfg_dominates(c, h, p) || get_bit(mark, p)) continue;
		set_bit(mark, p);
		mem[n++] = p;
	}
	for (int32_t q = 1; q < n; q++) {
		const Block *b = &c->blocks[mem[q]];
		for (int32_t k = 0; k < b->npred; k++) {
			int32_t p = b->pred[k];
			if (!reachable(c, p) || get_bit(mark, p)) continue;
			set_bit(mark, p);
			mem[n++] = p;
		}
	}
	l->nbody = n;
	l->lo = l->hi = h;
	for (int32_t q = 0; q < n; q++) {
		if (mem[q] < l->lo) l->lo = mem[q];
		if (mem[q] > l->hi) l->hi = mem[q];
	}
	int32_t base = l->lo >> 6;
	l->body = arena_alloc(c->arena, sizeof(uint64_t) * (size_t)((l->hi >> 6) - base + 1));
	for (int32_t q = 0; q < n; q++) {
		l->body[(mem[q] >> 6) - base] |= (uint64_t)1 << (mem[q] & 63);
		mark[mem[q] >> 6] = 0;
	}
}

static void find_loops(Cfg *c)
{
	int32_t n = c->nblock + 1;
	c->loop_of = arena_alloc(c->arena, sizeof(int32_t) * (size_t)n);
	c->loop_depth = arena_alloc(c->arena, sizeof(int32_t) * (size_t)n);
	c->nloop = 0;
	for (int32_t i = 0; i < c->nreach; i++) c->nloop += is_header(c, c->rpo[i]);
	c->loops = arena_alloc(c->arena, sizeof(Loop) * (size_t)c->nloop);
	int32_t *mem = xmalloc(sizeof(int32_t) * (size_t)n);
	uint64_t *mark = xcalloc((size_t)(n + 63) / 64, sizeof(uint64_t));
	for (int32_t v = 0; v < n; v++) c->loop_of[v] = -1;
	for (int32_t i = 0, id = 0; i < c->nreach; i++) {
		int32_t h = c->rpo[i];
		if (!is_header(c, h)) continue;
		Loop *l = &c->loops[id];
		l->header = h;
		l->parent = c->loop_of[h];
		l->depth = l->parent < 0 ? 1 : c->loops[l->parent].depth + 1;
		loop_body(c, l, mark, mem);
		for (int32_t q = 0; q < l->nbody; q++) c->loop_of[mem[q]] = id;
		id++;
	}
	for (int32_t v = 0; v < n; v++)
		c->loop_depth[v] = c->loop_of[v] < 0 ? 0 : c->loops[c->loop_of[v]].depth;
	free(mem);
	free(mark);
}

static void check_reducible(Cfg *c)
{
	c->nirredge = 0;
	for (int32_t i = 0; i < c->nreach; i++) {
		int32_t u = c->rpo[i];
		const Block *b = &c->blocks[u];
		for (int32_t k = 0; k < b->nsucc; k++) {
			int32_t v = b->succ[k];
			if (c->rpo_index[v] <= i && !cfg_dominates(c, v, u)) c->nirredge++;
		}
	}
	c->reducible = c->nirredge == 0;
}

/* ---- intervals ----------------------------------------------------------- */

typedef struct Graph {       /* successor and predecessor lists, CSR */
	int32_t n;
	int32_t *soff, *sadj;    /* succ of v: sadj[soff[v] .. soff[v + 1]) */
	int32_t *poff, *padj;
} Graph;

typedef struct Part {        /* an interval partition of a Graph */
	int32_t nivl;
	int32_t nreach_ivl;      /* intervals 0 .. nreach_ivl-1 are the reachable ones */
	int32_t *of;             /* n: interval of each node */
	int32_t *header;         /* n (nivl used) */
	int32_t *start;          /* n + 1 (nivl + 1 used) */
	int32_t *members;        /* n */
} Part;

/* fill in predecessor lists from the successor lists (sorted by source) */
static void graph_preds(Graph *g)
{
	int32_t n = g->n, ne = g->soff[n];
	g->poff = xcalloc((size_t)n + 1, sizeof(int32_t));
	g->padj = xmalloc(sizeof(int32_t) * (size_t)(ne ? ne : 1));
	for (int32_t e = 0; e < ne; e++) g->poff[g->sadj[e] + 1]++;
	for (int32_t v = 0; v < n; v++) g->poff[v + 1] += g->poff[v];
	int32_t *fill = xmalloc(sizeof(int32_t) * (size_t)(n ? n : 1));
	for (int32_t v = 0; v < n; v++) fill[v] = g->poff[v];
	for (int32_t u = 0; u < n; u++)
		for (int32_t e = g->soff[u]; e < g->soff[u + 1]; e++)
			g->padj[fill[g->sadj[e]]++] = u;
	free(fill);
}

static void graph_free(Graph *g)
{
	free(g->soff);
	free(g->sadj);
	free(g->poff);
	free(g->padj);
}

/* the blocks without the virtual exit */
static void block_graph(const Cfg *c, Graph *g)
{
	int32_t n = c->nblock, ne = 0;
	g->n = n;
	g->soff = xmalloc(sizeof(int32_t) * ((size_t)n + 1));
	for (int32_t b = 0; b < n; b++) ne += c->blocks[b].nsucc;
	g->sadj = xmalloc(sizeof(int32_t) * (size_t)(ne ? ne : 1));
	ne = 0;
	for (int32_t b = 0; b < n; b++) {
		g->soff[b] = ne;
		for (int32_t k = 0; k < c->blocks[b].nsucc; k++)
			if (c->blocks[b].succ[k] != c->exit) g->sadj[ne++] = c->blocks[b].succ[k];
	}
	g->soff[n] = ne;
	graph_preds(g);
}

/* does the edge u->v count towards v's predecessors? */
static int counted(const uint8_t *reach, int32_t u, int32_t v)
{
	return !reach || reach[u] || !reach[v];
}

/* close the interval of p->header[id] (see the essay) */
static void grow(const Graph *g, const uint8_t *reach, const int32_t *need, int32_t *cnt,
                 const uint8_t *hdr, Part *p, int32_t id, int32_t *nm)
{
	for (int32_t k = p->start[id]; k < *nm; k++) {
		int32_t x = p->members[k];
		for (int32_t e = g->soff[x]; e < g->soff[x + 1]; e++) {
			int32_t s = g->sadj[e];
			if (!counted(reach, x, s) || p->of[s] >= 0 || hdr[s]) continue;
			if (++cnt[s] == need[s]) {
				p->of[s] = id;
				p->members[(*nm)++] = s;
			}
		}
	}
}

/* interval partition of g from node 0; then from the seeds not yet covered */
static void partition(const Graph *g, const uint8_t *reach, const int32_t *seeds,
                      int32_t nseed, Part *p)
{
	int32_t n = g->n, nm = 0, qh = 0, qt = 0, next = 0;
	int32_t *need = xcalloc((size_t)n + 1, sizeof(int32_t) * 3), *cnt = need + n;
	int32_t *hq = cnt + n;
	uint8_t *hdr = xcalloc((size_t)n + 1, 1);
	for (int32_t v = 0; v < n; v++) {
		p->of[v] = -1;
		for (int32_t e = g->poff[v]; e < g->poff[v + 1]; e++)
			need[v] += counted(reach, g->padj[e], v);
	}
	p->nivl = 0;
	if (n) hdr[hq[qt++] = 0] = 1;
	for (;;) {
		while (qh == qt && next < nseed) {
			int32_t v = seeds[next++];
			if (v < n && p->of[v] < 0 && !hdr[v]) hdr[hq[qt++] = v] = 1;
		}
		if (qh == qt) break;
		int32_t h = hq[qh++], id = p->nivl++;
		p->header[id] = h;
		p->start[id] = nm;
		p->of[h] = id;
		p->members[nm++] = h;
		grow(g, reach, need, cnt, hdr, p, id, &nm);
		for (int32_t k = p->start[id]; k < nm; k++) {
			int32_t x = p->members[k];
			for (int32_t e = g->soff[x]; e < g->soff[x + 1]; e++) {
				int32_t s = g->sadj[e];
				if (counted(reach, x, s) && p->of[s] < 0 && !hdr[s])
					hdr[hq[qt++] = s] = 1;
			}
		}
	}
	assert(nm == n);
	p->start[p->nivl] = nm;
	p->nreach_ivl = 0;
	while (p->nreach_ivl < p->nivl && (!reach || reach[p->header[p->nreach_ivl]]))
		p->nreach_ivl++;
	free(need);
	free(hdr);
}

static void part_alloc(Part *p, int32_t n)
{
	p->of = xmalloc(sizeof(int32_t) * ((size_t)n * 4 + 1));
	p->header = p->of + n;
	p->start = p->header + n;
	p->members = p->start + n + 1;
}

/* the interval graph of the reachable intervals of p over g */
static void derive(const Graph *g, const Part *p, Graph *out)
{
	int32_t m = p->nreach_ivl, ne = 0;
	size_t cap = 0;
	int32_t *stamp = xmalloc(sizeof(int32_t) * (size_t)(m ? m : 1));
	out->n = m;
	out->soff = xmalloc(sizeof(int32_t) * ((size_t)m + 1));
	out->sadj = NULL;
	for (int32_t i = 0; i < m; i++) stamp[i] = -1;
	for (int32_t i = 0; i < m; i++) {
		out->soff[i] = ne;
		stamp[i] = i;                /* no self edges */
		for (int32_t k = p->start[i]; k < p->start[i + 1]; k++) {
			int32_t x = p->members[k];
			for (int32_t e = g->soff[x]; e < g->soff[x + 1]; e++) {
				int32_t j = p->of[g->sadj[e]];
				if (j >= m || stamp[j] == i) continue;
				stamp[j] = i;
				VEC_RESERVE(out->sadj, cap, ne + 1);
				out->sadj[ne++] = j;
			}
		}
	}
	out->soff[m] = ne;
	if (!out->sadj) out->sadj = xmalloc(sizeof(int32_t));
	free(stamp);
	graph_preds(out);
}

/* does a reachable block branch to itself?  Then G1 differs from G0 even
   if every block is its own interval: interval graphs have no self loops */
static int self_loop(const Cfg *c)
{
	for (int32_t i = 0; i < c->nreach; i++) {
		const Block *b = &c->blocks[c->rpo[i]];
		for (int32_t k = 0; k < b->nsucc; k++)
			if (b->succ[k] == c->rpo[i]) return 1;
	}
	return 0;
}

/* derived sequence of the reachable graph, from its first partition p0 */
static void derived_sequence(Cfg *c, const Graph *g0, const Part *p0)
{
	int32_t size = c->nreach - reachable(c, c->exit);   /* reachable real blocks */
	const Graph *g = g0;
	const Part *p = p0;
	Graph gi = {0};
	Part pi = {0};
	c->nderived = 1;
	for (int more = p0->nreach_ivl < size || self_loop(c); more;) {
		Graph gn;
		derive(g, p, &gn);
		if (g != g0) graph_free(&gi);
		gi = gn;
		g = &gi;
		size = gi.n;
		c->nderived++;
		free(pi.of);
		part_alloc(&pi, gi.n);
		partition(&gi, NULL, NULL, 0, &pi);
		p = &pi;
		more = pi.nivl < gi.n;
	}
	c->limit_size = size;
	if (g != g0) graph_free(&gi);
	free(pi.of);
}

static void intervals(Cfg *c)
{
	int32_t n = c->nblock;
	Graph g;
	Part p;
	block_graph(c, &g);
	part_alloc(&p, n);
	uint8_t *reach = xmalloc((size_t)n + 1);
	for (int32_t b = 0; b < n; b++) reach[b] = reachable(c, b);
	partition(&g, reach, c->rpo, n + 1, &p);
	Arena *a = c->arena;
	c->nivl = p.nivl;
	c->ivl_of = arena_alloc(a, sizeof(int32_t) * ((size_t)n + 1));
	for (int32_t b = 0; b < n; b++) c->ivl_of[b] = p.of[b];
	c->ivl_of[c->exit] = -1;
	c->ivl_header = arena_dup(a, p.header, sizeof(int32_t) * (size_t)p.nivl);
	c->ivl_start = arena_dup(a, p.start, sizeof(int32_t) * ((size_t)p.nivl + 1));
	c->ivl_blocks = arena_dup(a, p.members, sizeof(int32_t) * (size_t)n);
	derived_sequence(c, &g, &p);
	free(reach);
	free(p.of);
	graph_free(&g);
}

void loop_compute(Cfg *c)
{
	find_loops(c);
	check_reducible(c);
	intervals(c);
}
