/*
 * interval.c -- register-intervals: LTRF's prefetch subgraphs (paper
 * ltrf-asplos18 §3.3, Algorithms 1 and 2), formed on allocated code.
 *
 * A register-interval is a single-entry subgraph of the CFG whose working
 * set (interval.h: registers read or written, 64-bit pairs counting 2) has
 * at most N registers, so one PREFETCH at its entry brings in everything it
 * touches.  Unlike strands (strand.c), loops and other back edges may lie
 * inside one.  Formation implements the algorithms as the paper states
 * them; the authors' public code loses CFG edges and merges wrongly in pass
 * 2, and ivl_check() (edges re-derived from the CFG, single entry, sizes)
 * is the guard against both.
 *
 * Pass 1 (Algorithm 1) grows intervals from the function's entry.  Taking
 * a header from the work queue, TRAVERSE walks its instructions adding
 * each one's registers to the interval's working set; where the next
 * instruction would take it past N, the block is cut (lines 30-37) and
 * the rest becomes a new interval header.  Then the interval admits any
 * unassigned piece all of whose predecessors are already in it (line 13),
 * provided its first instruction still fits, and traverses it in turn;
 * candidates are tried in instruction order.  When none is left, every
 * unassigned successor becomes a new header (lines 18-24).  The paper's
 * line 13 bounds the union of the predecessors' register lists along each
 * path; here the bound is the interval's whole working set, because the
 * PREFETCH bit-vector is that union and must fit the warp's N cache slots.
 * Calls: "each function call becomes a separate register-interval" -- a
 * block is cut before and after a call, the call alone is an interval, and
 * that interval admits nothing and is never merged (the callee's own
 * PREFETCHes replace the cache contents, so the code after the call needs
 * its own).  Blocks no path from the entry reaches are seeded as headers
 * once the queue runs dry, so every instruction gets an interval.
 *
 * Pass 2 (Algorithm 2) works on the graph of intervals (edges between
 * different intervals only: a loop inside an interval is no predecessor of
 * it) the same way without cutting: starting from the entry interval, a
 * next-level interval absorbs an interval all of whose predecessor
 * intervals it already holds, while the union of working sets stays <= N
 * (the paper's lines 12-14 and prose: "the union of their register
 * working-sets still fits").  The pass repeats until an application
 * merges nothing: each round folds one more level of a loop nest into its
 * parent (Figure 6).  Merging keeps a single entry: every edge into an
 * absorbed interval comes from the absorbing one.
 *
 * Irreducible CFGs need nothing special: a block of a multi-entry loop has
 * a predecessor outside any interval being grown from one of the entries,
 * so each entry heads its own interval -- the single-entry rule is what
 * intervals are.  The exception to <= N (an instruction naming more than N
 * registers by itself) gets a one-instruction interval.
 */
#include "analysis/interval.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/live.h"
#include "base/base.h"

enum { MAXSLOT = 1 + INS_MAXOPD * 256 };

/* ---- register sets ------------------------------------------------------ */

int regset_count(const RegSet *s)
{
	int n = 0;
	for (int i = 0; i < 4; i++) n += __builtin_popcountll(s->w[i]);
	return n;
}

static void regset_or(RegSet *d, const RegSet *s)
{
	for (int i = 0; i < 4; i++) d->w[i] |= s->w[i];
}

static int regset_meets(const RegSet *a, const RegSet *b)
{
	for (int i = 0; i < 4; i++)
		if (a->w[i] & b->w[i]) return 1;
	return 0;
}

static int union_count(const RegSet *a, const RegSet *b)
{
	int n = 0;
	for (int i = 0; i < 4; i++) n += __builtin_popcountll(a->w[i] | b->w[i]);
	return n;
}

/* the architected slots of registers reg[0..n) into *s */
static void add_slots(const Func *f, const int32_t *reg, int n, RegSet *s)
{
	for (int k = 0; k < n; k++) {
		PtxType t = (PtxType)f->regtype[reg[k]];
		if (t == PT_PRED) continue;
		int sz = ptxtype_size(t), w = sz > 4 ? sz / 4 : 1;
		for (int j = 0; j < w; j++) {
			int32_t slot = f->phys[reg[k]] + j;
			assert(slot >= 0 && slot < 256);
			s->w[slot >> 6] |= 1ull << (slot & 63);
		}
	}
}

/* registers instruction in reads (*rd) and writes (*wr) */
void ivl_ins_rw(const Func *f, const Ins *in, RegSet *rd, RegSet *wr)
{
	int32_t r[MAXSLOT];
	memset(rd, 0, sizeof *rd);
	memset(wr, 0, sizeof *wr);
	int n = live_uses(f, in, r, MAXSLOT);
	add_slots(f, r, n < MAXSLOT ? n : MAXSLOT, rd);
	n = live_defs(f, in, r, MAXSLOT);
	add_slots(f, r, n < MAXSLOT ? n : MAXSLOT, wr);
}

int ivl_ins_regs(const Func *f, const Ins *in, RegSet *s)
{
	RegSet wr;
	ivl_ins_rw(f, in, s, &wr);
	regset_or(s, &wr);
	return regset_count(s);
}

/* ---- pieces ------------------------------------------------------------- */

static void edge_add(Part *p, int32_t u, int32_t v)
{
	Piece *a = &p->pc[u], *b = &p->pc[v];
	VEC_RESERVE(a->succ, a->capsucc, a->nsucc + 1);
	a->succ[a->nsucc++] = v;
	VEC_RESERVE(b->pred, b->cappred, b->npred + 1);
	b->pred[b->npred++] = u;
}

static int32_t piece_new(Part *p, int32_t first, int32_t last, int32_t block)
{
	VEC_RESERVE(p->pc, p->cappiece, p->npiece + 1);
	Piece *q = &p->pc[p->npiece];
	memset(q, 0, sizeof *q);
	q->first = first, q->last = last, q->block = block, q->ivl = -1;
	return p->npiece++;
}

/* cut piece u before instruction k: the tail [k, last] becomes a new piece
   that takes over u's successors; u falls through into it */
static int32_t cut(Part *p, int32_t u, int32_t k)
{
	assert(k > p->pc[u].first && k <= p->pc[u].last);
	int32_t v = piece_new(p, k, p->pc[u].last, p->pc[u].block);
	Piece *a = &p->pc[u], *b = &p->pc[v];
	b->succ = a->succ, b->nsucc = a->nsucc, b->capsucc = a->capsucc;
	b->exits = a->exits;
	a->succ = NULL, a->nsucc = a->capsucc = 0, a->exits = 0;
	a->last = k - 1;
	for (int32_t i = 0; i < b->nsucc; i++) {
		Piece *w = &p->pc[b->succ[i]];
		for (int32_t j = 0; j < w->npred; j++)
			if (w->pred[j] == u) w->pred[j] = v;
	}
	edge_add(p, u, v);
	p->cuts++;
	return v;
}

static int32_t ivl_new(Part *p, int32_t entry)
{
	VEC_RESERVE(p->iv, p->capivl, p->nivl + 1);
	memset(&p->iv[p->nivl], 0, sizeof p->iv[p->nivl]);
	p->iv[p->nivl].entry = entry;
	if (entry >= 0) p->pc[entry].ivl = p->nivl;
	return p->nivl++;
}

/* ---- candidates ----------------------------------------------------------- */

/*
 * Both passes grow a subgraph by repeatedly admitting one successor of its
 * members: pass 1 the one that starts earliest in the code, pass 2 the one
 * met first in a scan of the members' successor lists.  Rescanning every
 * member for each admission is quadratic in the subgraph's size (an
 * if-chain of 20,000 blocks that fits in one interval: seconds), so the
 * candidates wait in a min-heap by that rank instead.  A candidate that
 * cannot join now is dropped: the working set only grows, so one that does
 * not fit never will, and one still waiting for a predecessor is pushed
 * again when that predecessor joins (it is that member's successor).
 */
typedef struct Heap { int64_t *key; int32_t *id; int32_t n, cap; } Heap;

static void heap_push(Heap *h, int64_t key, int32_t id)
{
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 64;
		h->key = xrealloc(h->key, sizeof(int64_t) * (size_t)h->cap);
		h->id = xrealloc(h->id, sizeof(int32_t) * (size_t)h->cap);
	}
	int32_t i = h->n++;
	for (; i > 0 && h->key[(i - 1) / 2] > key; i = (i - 1) / 2)
		h->key[i] = h->key[(i - 1) / 2], h->id[i] = h->id[(i - 1) / 2];
	h->key[i] = key, h->id[i] = id;
}

/* the id of least key, removed; -1 if empty */
static int32_t heap_pop(Heap *h)
{
	if (!h->n) return -1;
	int32_t top = h->id[0], i = 0, n = --h->n;
	int64_t key = h->key[n];
	for (int32_t c; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && h->key[c + 1] < h->key[c]) c++;
		if (h->key[c] >= key) break;
		h->key[i] = h->key[c], h->id[i] = h->id[c];
	}
	h->key[i] = key, h->id[i] = h->id[n];
	return top;
}

static void heap_free(Heap *h)
{
	free(h->key), free(h->id);
	memset(h, 0, sizeof *h);
}

/* ---- pass 1 (Algorithm 1) ---------------------------------------------- */

typedef struct P1 {
	Part *p;
	const Func *f;
	int32_t *work; int32_t head, nwork, capwork;   /* FIFO of header pieces */
	Heap cand;               /* successors of the growing interval's members, by
	                            their first instruction */
} P1;

static void push(P1 *s, int32_t piece)
{
	VEC_RESERVE(s->work, s->capwork, s->nwork + 1);
	s->work[s->nwork++] = piece;
}

static int is_call(const Ins *in) { return (op_info[in->op].flags & OPF_CALL) != 0; }

/* a new interval headed by the tail of u cut before k, queued */
static void cut_new(P1 *s, int32_t u, int32_t k)
{
	int32_t v = cut(s->p, u, k);
	ivl_new(s->p, v);
	push(s, v);
}

/* Algorithm 1's TRAVERSE: add piece u's instructions to its interval,
   cutting where one does not fit (or a call, or a strand's wait, begins) */
static void traverse(P1 *s, int32_t u)
{
	Part *p = s->p;
	int32_t i = p->pc[u].ivl;
	for (int32_t k = p->pc[u].first; k <= p->pc[u].last; k++) {
		const Ins *in = &s->f->ins[k];
		Ivl *v = &p->iv[i];
		int lead = u == v->entry && k == p->pc[u].first;
		RegSet rd, wr;
		ivl_ins_rw(s->f, in, &rd, &wr);
		regset_or(&wr, &rd);
		int over = union_count(&v->regs, &wr) > p->n;
		int wait = p->kind == PART_STRAND && (regset_meets(&rd, &v->pend) || strand_waits(in));
		if (!lead && (is_call(in) || over || wait)) {
			cut_new(s, u, k);
			return;
		}
		regset_or(&v->regs, &wr);
		if (p->kind == PART_STRAND && strand_long_latency(in)) {
			RegSet d;
			ivl_ins_rw(s->f, in, &rd, &d);
			regset_or(&v->pend, &d);
		}
		if (is_call(in)) {
			v->call = 1;
			if (k < p->pc[u].last) cut_new(s, u, k + 1);
			return;
		}
	}
}

/* may piece u join interval i (line 13)? */
static int admits(const P1 *s, int32_t i, int32_t u)
{
	const Part *p = s->p;
	const Piece *q = &p->pc[u];
	const Ivl *v = &p->iv[i];
	if (q->ivl != -1 || v->call || q->npred == 0) return 0;
	for (int32_t j = 0; j < q->npred; j++)
		if (p->pc[q->pred[j]].ivl != i) return 0;
	const Ins *in = &s->f->ins[q->first];
	RegSet rd, wr;
	ivl_ins_rw(s->f, in, &rd, &wr);
	if (is_call(in)) return 0;
	if (p->kind == PART_STRAND && (regset_meets(&rd, &v->pend) || strand_waits(in))) return 0;
	regset_or(&wr, &rd);
	return union_count(&v->regs, &wr) <= p->n;
}

/* piece u joined: its successors become candidates */
static void p1_offer(P1 *s, int32_t u)
{
	const Piece *q = &s->p->pc[u];
	for (int32_t k = 0; k < q->nsucc; k++)
		if (s->p->pc[q->succ[k]].ivl == -1) heap_push(&s->cand, s->p->pc[q->succ[k]].first,
		                                              q->succ[k]);
}

/* lines 10-24 for the interval headed by h: the next piece to join is the
   admissible successor of a member that starts earliest */
static void grow(P1 *s, int32_t h)
{
	Part *p = s->p;
	int32_t i = p->pc[h].ivl, *mem = NULL, nmem = 0, capmem = 0;
	traverse(s, h);
	VEC_RESERVE(mem, capmem, 1);
	mem[nmem++] = h;
	s->cand.n = 0;
	p1_offer(s, h);
	for (;;) {
		int32_t best;
		while ((best = heap_pop(&s->cand)) >= 0 && !admits(s, i, best)) {}
		if (best < 0) break;
		p->pc[best].ivl = i;
		traverse(s, best);
		VEC_RESERVE(mem, capmem, nmem + 1);
		mem[nmem++] = best;
		p1_offer(s, best);
	}
	for (int32_t m = 0; m < nmem; m++)
		for (int32_t k = 0; k < p->pc[mem[m]].nsucc; k++) {
			int32_t c = p->pc[mem[m]].succ[k];
			if (p->pc[c].ivl == -1) ivl_new(p, c), push(s, c);
		}
	free(mem);
}

Part *ivl_pass1(const Func *f, const Cfg *c, int32_t n, int kind)
{
	assert(f->phys && n >= 1);
	Part *p = xcalloc(1, sizeof *p);
	p->kind = kind, p->n = n, p->nins = f->nins;
	for (int32_t b = 0; b < c->nblock; b++)
		piece_new(p, c->blocks[b].first, c->blocks[b].last, b);
	for (int32_t b = 0; b < c->nblock; b++)
		for (int32_t k = 0; k < c->blocks[b].nsucc; k++) {
			int32_t t = c->blocks[b].succ[k];
			if (t == c->exit) p->pc[b].exits = 1;
			else edge_add(p, b, t);
		}
	P1 s = {p, f, NULL, 0, 0, 0, {0}};
	for (int32_t seed = 0; seed < p->npiece;) {
		if (p->pc[seed].ivl != -1) { seed++; continue; }
		ivl_new(p, seed);    /* the entry first, then what no path reaches */
		push(&s, seed);
		while (s.head < s.nwork) grow(&s, s.work[s.head++]);
	}
	free(s.work);
	heap_free(&s.cand);
	p->nivl_pass1 = p->nivl;
	return p;
}

/* ---- pass 2 (Algorithm 2) ---------------------------------------------- */

typedef struct IGraph {      /* edges between different intervals */
	int32_t *pstart, *pred;  /* CSR: predecessors of each interval */
	int32_t *sstart, *succ;  /* CSR: successors */
} IGraph;

static void csr(int32_t nv, int32_t ne, const int32_t *from, const int32_t *to,
                int32_t **start, int32_t **adj)
{
	*start = xcalloc((size_t)nv + 1, sizeof(int32_t));
	*adj = xmalloc(sizeof(int32_t) * ((size_t)ne + 1));
	for (int32_t e = 0; e < ne; e++) (*start)[from[e] + 1]++;
	for (int32_t v = 0; v < nv; v++) (*start)[v + 1] += (*start)[v];
	int32_t *fill = xmalloc(sizeof(int32_t) * ((size_t)nv + 1));
	memcpy(fill, *start, sizeof(int32_t) * (size_t)nv);
	for (int32_t e = 0; e < ne; e++) (*adj)[fill[from[e]]++] = to[e];
	free(fill);
}

static void igraph_of(const Part *p, IGraph *g)
{
	int32_t ne = 0, *a = NULL, *b = NULL, cap = 0, capb = 0;
	for (int32_t u = 0; u < p->npiece; u++)
		for (int32_t k = 0; k < p->pc[u].nsucc; k++) {
			int32_t x = p->pc[u].ivl, y = p->pc[p->pc[u].succ[k]].ivl;
			if (x == y) continue;
			VEC_RESERVE(a, cap, ne + 1);
			VEC_RESERVE(b, capb, ne + 1);
			a[ne] = x, b[ne++] = y;
		}
	csr(p->nivl, ne, b, a, &g->pstart, &g->pred);
	csr(p->nivl, ne, a, b, &g->sstart, &g->succ);
	free(a);
	free(b);
}

static void igraph_free(IGraph *g)
{
	free(g->pstart), free(g->pred), free(g->sstart), free(g->succ);
}

typedef struct P2 {          /* one application of Algorithm 2 */
	Part *p;
	IGraph g;
	int32_t *next;           /* interval -> next-level interval, -1 Unknown */
	Ivl *niv;                /* next-level intervals */
	int32_t nnew;
	int32_t *work, head, nwork;      /* queue of intervals heading next-level ones */
	int32_t *mem, nmem;      /* intervals of the next-level interval being grown */
	int64_t nscan;           /* entries of the members' successor lists so far */
	int64_t *pos;            /* interval -> its first entry in them, this growth */
	int32_t *posof;          /* interval -> the growth pos belongs to, -1 */
	int32_t ngrow;
	Heap cand;               /* candidates by first entry: the order of a scan */
} P2;

/* a next-level interval seeded by interval i, queued (lines 6-7, 18-19) */
static void p2_new(P2 *s, int32_t i)
{
	s->next[i] = s->nnew;
	s->niv[s->nnew++] = s->p->iv[i];
	s->work[s->nwork++] = i;
}

/* may interval h join next-level interval ii (line 12)?  All of h's
   predecessor intervals are already in ii, and the union fits. */
static int absorbs(const P2 *s, int32_t ii, int32_t h)
{
	const Part *p = s->p;
	if (s->next[h] != -1 || p->iv[h].call || s->niv[ii].call) return 0;
	for (int32_t q = s->g.pstart[h]; q < s->g.pstart[h + 1]; q++)
		if (s->next[s->g.pred[q]] != ii) return 0;
	return union_count(&s->niv[ii].regs, &p->iv[h].regs) <= p->n;
}

/* member m joined: its successors become candidates, each ranked by where
   a scan of the members' successor lists would first meet it */
static void p2_offer(P2 *s, int32_t m)
{
	for (int32_t k = s->g.sstart[m]; k < s->g.sstart[m + 1]; k++, s->nscan++) {
		int32_t h = s->g.succ[k];
		if (s->posof[h] != s->ngrow) s->posof[h] = s->ngrow, s->pos[h] = s->nscan;
		if (s->next[h] == -1) heap_push(&s->cand, s->pos[h], h);
	}
}

/* lines 9-21 for the next-level interval that interval i heads: the next to
   join is the first absorbable successor in the members' lists */
static void p2_grow(P2 *s, int32_t i)
{
	int32_t ii = s->next[i], h;
	s->nmem = 0;
	s->mem[s->nmem++] = i;
	s->ngrow++, s->nscan = 0, s->cand.n = 0;
	p2_offer(s, i);
	for (;;) {                                           /* lines 12-15 */
		while ((h = heap_pop(&s->cand)) >= 0 && !absorbs(s, ii, h)) {}
		if (h < 0) break;
		s->next[h] = ii;
		regset_or(&s->niv[ii].regs, &s->p->iv[h].regs);
		s->mem[s->nmem++] = h;
		p2_offer(s, h);
	}
	for (int32_t m = 0; m < s->nmem; m++)                /* lines 16-21 */
		for (int32_t k = s->g.sstart[s->mem[m]]; k < s->g.sstart[s->mem[m] + 1]; k++)
			if (s->next[s->g.succ[k]] == -1) p2_new(s, s->g.succ[k]);
}

/* one application of Algorithm 2; returns 1 if it merged anything */
static int pass2_once(Part *p)
{
	int32_t nv = p->nivl;
	P2 s = {.p = p};
	igraph_of(p, &s.g);
	s.next = xmalloc(sizeof(int32_t) * (size_t)nv);
	s.work = xmalloc(sizeof(int32_t) * (size_t)nv);
	s.mem = xmalloc(sizeof(int32_t) * (size_t)nv);
	s.niv = xcalloc((size_t)nv, sizeof *s.niv);
	s.pos = xmalloc(sizeof(int64_t) * (size_t)nv);
	s.posof = xmalloc(sizeof(int32_t) * (size_t)nv);
	for (int32_t v = 0; v < nv; v++) s.next[v] = s.posof[v] = -1;
	for (int32_t t = -1; t < nv; t++) {      /* the entry first, then the unreached */
		int32_t i = t < 0 ? p->pc[0].ivl : t;
		if (s.next[i] != -1) continue;
		p2_new(&s, i);
		while (s.head < s.nwork) p2_grow(&s, s.work[s.head++]);
	}
	int merged = s.nnew < nv;
	for (int32_t u = 0; u < p->npiece; u++) p->pc[u].ivl = s.next[p->pc[u].ivl];
	free(p->iv);
	p->iv = s.niv, p->nivl = p->capivl = s.nnew;
	free(s.next), free(s.work), free(s.mem), free(s.pos), free(s.posof);
	heap_free(&s.cand);
	igraph_free(&s.g);
	return merged;
}

/* ---- the result ---------------------------------------------------------- */

static int by_first(const void *a, const void *b, void *part)
{
	const Part *sort_part = part;
	int32_t x = sort_part->pc[*(const int32_t *)a].first;
	int32_t y = sort_part->pc[*(const int32_t *)b].first;
	return (x > y) - (x < y);
}

/* renumber pieces in instruction order and intervals in entry order */
static void renumber(Part *p)
{
	int32_t np = p->npiece, nv = p->nivl;
	int32_t *ord = xmalloc(sizeof(int32_t) * ((size_t)np + 1));
	int32_t *pnew = xmalloc(sizeof(int32_t) * ((size_t)np + 1));
	int32_t *vnew = xmalloc(sizeof(int32_t) * ((size_t)nv + 1));
	for (int32_t u = 0; u < np; u++) ord[u] = u;
	qsort_r(ord, (size_t)np, sizeof *ord, by_first, p);
	for (int32_t k = 0; k < np; k++) pnew[ord[k]] = k;
	Piece *pc = xmalloc(sizeof *pc * ((size_t)np + 1));
	for (int32_t k = 0; k < np; k++) {
		pc[k] = p->pc[ord[k]];
		for (int32_t j = 0; j < pc[k].nsucc; j++) pc[k].succ[j] = pnew[pc[k].succ[j]];
		for (int32_t j = 0; j < pc[k].npred; j++) pc[k].pred[j] = pnew[pc[k].pred[j]];
	}
	for (int32_t v = 0; v < nv; v++) vnew[v] = -1;
	int32_t nn = 0;
	for (int32_t k = 0; k < np; k++)
		if (p->iv[pc[k].ivl].entry == ord[k]) vnew[pc[k].ivl] = nn++;
	assert(nn == nv);
	Ivl *iv = xmalloc(sizeof *iv * ((size_t)nv + 1));
	for (int32_t v = 0; v < nv; v++) {
		iv[vnew[v]] = p->iv[v];
		iv[vnew[v]].entry = pnew[p->iv[v].entry];
	}
	for (int32_t k = 0; k < np; k++) pc[k].ivl = vnew[pc[k].ivl];
	free(p->pc), free(p->iv);
	p->pc = pc, p->cappiece = np + 1;
	p->iv = iv, p->capivl = nv + 1;
	free(ord), free(pnew), free(vnew);
}

/* the shared tail of interval and strand formation */
static void finish(Part *p)
{
	renumber(p);
	for (int32_t v = 0; v < p->nivl; v++) {
		p->iv[v].nregs = regset_count(&p->iv[v].regs);
		p->wide += p->iv[v].nregs > p->n;
	}
}

Part *ivl_form(const Func *f, const Cfg *c, int32_t n)
{
	Part *p = ivl_pass1(f, c, n, PART_INTERVAL);
	if (p->nivl > 1)
		do p->rounds++; while (pass2_once(p));
	finish(p);
	return p;
}

void ivl_finish(Part *p)
{
	finish(p);
}

void ivl_free(Part *p)
{
	if (!p) return;
	for (int32_t u = 0; u < p->npiece; u++) free(p->pc[u].succ), free(p->pc[u].pred);
	free(p->pc);
	free(p->iv);
	free(p);
}

/* ---- invariants ----------------------------------------------------------- */

#define BAD(...) do { snprintf(why->s, sizeof why->s, __VA_ARGS__); return why->s; } while (0)

/* the piece graph agrees with the CFG: nothing lost, nothing invented */
static const char *check_edges(const Func *f, const Part *p, const Cfg *c, IvlWhy *why)
{
	for (int32_t u = 0; u < p->npiece; u++) {
		const Piece *q = &p->pc[u];
		const Block *b = &c->blocks[q->block];
		if (q->last < b->last) {
			if (q->nsucc != 1 || q->succ[0] != u + 1 || q->exits)
				BAD("piece %d: a cut piece must only fall through", u);
			continue;
		}
		int32_t want = 0, ex = 0;
		for (int32_t k = 0; k < b->nsucc; k++) {
			if (b->succ[k] == c->exit) { ex = 1; continue; }
			want++;
			int found = 0;
			for (int32_t j = 0; j < q->nsucc; j++)
				found |= p->pc[q->succ[j]].first == c->blocks[b->succ[k]].first;
			if (!found) BAD("piece %d: lost the edge to block %d", u, b->succ[k]);
		}
		if (want != q->nsucc || ex != q->exits)
			BAD("piece %d: edges differ from the CFG", u);
	}
	(void)f;
	return NULL;
}

const char *ivl_check(const Func *f, const Part *p, IvlWhy *why)
{
	if (p->nins != f->nins)
		BAD("partition of %d instructions, function has %d", p->nins, f->nins);
	for (int32_t u = 0; u < p->npiece; u++) {
		const Piece *q = &p->pc[u];
		if (q->first != (u ? p->pc[u - 1].last + 1 : 0) || q->last < q->first)
			BAD("piece %d: instructions not covered once, in order", u);
		if (q->ivl < 0 || q->ivl >= p->nivl) BAD("piece %d: in no interval", u);
		for (int32_t k = 0; k < q->nsucc; k++) {
			int32_t v = q->succ[k];
			if (p->pc[v].ivl != q->ivl && p->iv[p->pc[v].ivl].entry != v)
				BAD("piece %d enters interval %d at piece %d, not its entry", u,
				    p->pc[v].ivl, v);
		}
	}
	if (p->npiece && p->pc[p->npiece - 1].last != f->nins - 1) BAD("instructions not covered");
	if (p->npiece && p->iv[p->pc[0].ivl].entry != 0) BAD("the function's entry is no entry");
	RegSet *ws = xcalloc((size_t)p->nivl + 1, sizeof *ws);
	int32_t *nin = xcalloc((size_t)p->nivl + 1, sizeof *nin);
	for (int32_t u = 0; u < p->npiece; u++)
		for (int32_t k = p->pc[u].first; k <= p->pc[u].last; k++) {
			RegSet s;
			ivl_ins_regs(f, &f->ins[k], &s);
			regset_or(&ws[p->pc[u].ivl], &s);
			nin[p->pc[u].ivl] += !(op_info[f->ins[k].op].flags & OPF_PSEUDO);
		}
	const char *r = NULL;
	for (int32_t v = 0; v < p->nivl && !r; v++) {
		const Ivl *iv = &p->iv[v];
		if (iv->entry < 0 || iv->entry >= p->npiece || p->pc[iv->entry].ivl != v)
			r = "an interval's entry piece is not in it";
		else if (memcmp(&ws[v], &iv->regs, sizeof ws[v]) ||
		         regset_count(&ws[v]) != iv->nregs)
			r = "an interval's register set is not its instructions' registers";
		else if (iv->nregs > p->n && nin[v] > 1)
			snprintf(why->s, sizeof why->s, "interval %d names %d registers, N = %d", v,
			         iv->nregs, p->n), r = why->s;
	}
	free(ws), free(nin);
	if (r) return r;
	Cfg *c = cfg_build(f);
	r = check_edges(f, p, c, why);
	cfg_free(c);
	return r;
}

/* the pairs (key[k], val[k]), keys below nkey and values below nval, as
   lists per key, values ascending, duplicates dropped */
static IvlLists lists_of(int32_t nkey, int32_t nval, int32_t n, const int32_t *key,
                         const int32_t *val)
{
	IvlLists l;
	int32_t *cnt = xcalloc((size_t)nval + 2, sizeof(int32_t));
	int32_t *ord = xmalloc(sizeof(int32_t) * ((size_t)n + 1));
	int32_t *last = xmalloc(sizeof(int32_t) * ((size_t)nkey + 1));
	for (int32_t k = 0; k < n; k++) cnt[val[k] + 2]++;
	for (int32_t v = 0; v < nval; v++) cnt[v + 2] += cnt[v + 1];
	for (int32_t k = 0; k < n; k++) ord[cnt[val[k] + 1]++] = k;     /* by value */
	l.start = xcalloc((size_t)nkey + 1, sizeof(int32_t));
	l.item = xmalloc(sizeof(int32_t) * ((size_t)n + 1));
	for (int pass = 0; pass < 2; pass++) {          /* count, then fill */
		for (int32_t v = 0; v < nkey; v++) last[v] = -1;
		for (int32_t k = 0; k < n; k++) {
			int32_t a = key[ord[k]], b = val[ord[k]];
			if (last[a] == b) continue;
			last[a] = b;
			if (pass) l.item[cnt[a]++] = b;
			else l.start[a + 1]++;
		}
		for (int32_t v = 0; !pass && v < nkey; v++) l.start[v + 1] += l.start[v];
		if (!pass) memcpy(cnt, l.start, sizeof(int32_t) * (size_t)nkey);   /* fill cursors */
	}
	free(cnt), free(ord), free(last);
	return l;
}

IvlLists ivl_pred_lists(const Part *p)
{
	int32_t n = 0, ne = 0;
	for (int32_t u = 0; u < p->npiece; u++) ne += p->pc[u].nsucc;
	int32_t *key = xmalloc(sizeof(int32_t) * ((size_t)ne + 1));
	int32_t *val = xmalloc(sizeof(int32_t) * ((size_t)ne + 1));
	for (int32_t u = 0; u < p->npiece; u++)
		for (int32_t k = 0; k < p->pc[u].nsucc; k++) {
			int32_t w = p->pc[u].ivl, v = p->pc[p->pc[u].succ[k]].ivl;
			if (w != v) key[n] = v, val[n++] = w;
		}
	IvlLists l = lists_of(p->nivl, p->nivl, n, key, val);
	free(key), free(val);
	return l;
}

IvlLists ivl_member_lists(const Part *p)
{
	int32_t *key = xmalloc(sizeof(int32_t) * ((size_t)p->npiece + 1));
	int32_t *val = xmalloc(sizeof(int32_t) * ((size_t)p->npiece + 1));
	for (int32_t u = 0; u < p->npiece; u++) key[u] = p->pc[u].ivl, val[u] = u;
	IvlLists l = lists_of(p->nivl, p->npiece, p->npiece, key, val);
	free(key), free(val);
	return l;
}

void ivl_lists_free(IvlLists *l)
{
	free(l->start), free(l->item);
	l->start = l->item = NULL;
}

/* ---- dump ------------------------------------------------------------------ */

void ivl_dump(const Part *p, FILE *out)
{
	fprintf(out, "%s N=%d: %d pieces, %d %s (pass 1: %d, rounds %d), cuts %d, wide %d\n",
	        p->kind == PART_STRAND ? "strands" : "intervals", p->n, p->npiece, p->nivl,
	        p->kind == PART_STRAND ? "strands" : "intervals", p->nivl_pass1, p->rounds,
	        p->cuts, p->wide);
	for (int32_t u = 0; u < p->npiece; u++) {
		const Piece *q = &p->pc[u];
		fprintf(out, "p%d b%d [%d..%d] I%d ->", u, q->block, q->first, q->last, q->ivl);
		for (int32_t k = 0; k < q->nsucc; k++) fprintf(out, " p%d", q->succ[k]);
		fprintf(out, "%s\n", q->exits ? " exit" : "");
	}
	IvlLists mem = ivl_member_lists(p), pr = ivl_pred_lists(p);
	for (int32_t v = 0; v < p->nivl; v++) {
		const Ivl *iv = &p->iv[v];
		fprintf(out, "I%d entry p%d%s:", v, iv->entry, iv->call ? " call" : "");
		for (int32_t k = mem.start[v]; k < mem.start[v + 1]; k++)
			fprintf(out, " p%d", mem.item[k]);
		fprintf(out, " | %d regs", iv->nregs);
		for (int r = 0; r < 256; r++)
			if (regset_has(&iv->regs, r)) fprintf(out, " R%d", r);
		fprintf(out, " | preds");
		for (int32_t k = pr.start[v]; k < pr.start[v + 1]; k++) fprintf(out, " I%d", pr.item[k]);
		fprintf(out, "%s\n", pr.start[v] < pr.start[v + 1] ? "" : " -");
	}
	ivl_lists_free(&mem);
	ivl_lists_free(&pr);
}
