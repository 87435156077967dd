/*
 * igraph.c -- the interference graph of one function, with the moves the
 * coalescer may remove, spill costs and register pressure.
 *
 * Two registers interfere when one is written where the other holds a
 * value some path still reads (Chaitin; Appel, "Modern Compiler
 * Implementation", 11.1): walking each block backward from its live-out
 * list (live_sets.c), every register an instruction writes gets an edge to
 * everything live after it, except, for a copy `mov d, s`, the source s
 * (so the copy can be coalesced).  The registers one instruction writes
 * also interfere with each other.  A guarded write (@p mov d, ...) kills
 * nothing, as in live.c.
 *
 * Liveness is per thread: each lane owns its copy of a register, so two
 * values interfere exactly when one thread may need both (the warp-level
 * variant of live_div.c would only add false edges).  It comes as sorted
 * lists per block (live_sets.c), and the walk keeps what is live in a
 * ScanSet, so the build costs what is live and the edges it adds, not
 * blocks or instructions times the function's registers.
 *
 * Undefined values.  Per-thread liveness treats a register read on some
 * path before any write as live all the way up to the entry: nvcc's PTX
 * does this when a value is set on one side of a branch and read under
 * the same condition later.  The value on the other paths is garbage, so
 * holding it costs nothing: a register is live here only where it is also
 * maybe-defined (some write reaches: live_sets.c's in_def), the refinement
 * LLVM and most register allocators make.  Without it such a register
 * would interfere with everything from the entry on.
 *
 * Reads held (RaOpts.hold, compiler.schedule=latency).  The GPU reads the
 * registers of memory and shuffle instructions late, through a scoreboard,
 * and ptxas does not rewrite such a register soon after (it would wait for
 * the read); it takes another.  So, for hold instructions after one of
 * those within its block, its registers interfere with what is written
 * (hold_edges), as ptxas's spread of store data and addresses over fresh
 * registers shows (saxpy's unrolled loop: 11 values live, R0..R21 used).
 *
 * Spill cost is the number of reads and writes, each weighted by 10 to the
 * power of its loop depth (Chaitin's estimate).  Pressure, per class, is
 * the most slots live at once counting an instruction's writes with what
 * is live after it: the target colouring aims for (regalloc.c).  kmin is
 * the most general slots a single instruction names; no cap below it can
 * be met by spilling.
 *
 * Edges.  The walk appends every pair it meets to one list, duplicates
 * included (cheaper than testing each pair in a bit matrix, whose random
 * accesses dominate on big functions), and the list becomes neighbour
 * arrays, deduplicated, at the end (CSR).  The coalescer then adds the
 * edges of merged nodes as per-node extras, and asks "do a and b
 * interfere" by scanning the shorter neighbour list through the
 * union-find.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ra_int.h"
#include "base/base.h"

int ra_reg_width(PtxType t)
{
	if (t == PT_PRED) return 0;
	int s = ptxtype_size(t);
	return s > 4 ? s / 4 : 1;
}

void ra_grow(Ra *ra, int32_t n)
{
	if (n <= ra->ncap) return;
	int32_t c = ra->ncap ? ra->ncap : 64;
	while (c < n) c *= 2;
	size_t o = (size_t)ra->ncap, k = (size_t)c;
	ra->regtype = xrealloc(ra->regtype, k);
	ra->cls = xrealloc(ra->cls, k);
	ra->wid = xrealloc(ra->wid, k);
	ra->temp = xrealloc(ra->temp, k);
	ra->spill = xrealloc(ra->spill, k);
	ra->cost = xrealloc(ra->cost, k * sizeof *ra->cost);
	ra->rep = xrealloc(ra->rep, k * sizeof *ra->rep);
	ra->colour = xrealloc(ra->colour, k * sizeof *ra->colour);
	ra->rank = xrealloc(ra->rank, k * sizeof *ra->rank);
	ra->adj = xrealloc(ra->adj, k * sizeof *ra->adj);
	memset(ra->temp + o, 0, k - o);
	memset(ra->adj + o, 0, (k - o) * sizeof *ra->adj);
	ra->ncap = c;
}

int32_t ra_new_reg(Ra *ra, PtxType t, int temp)
{
	int32_t r = ra->n;
	ra_grow(ra, r + 1);
	ra->regtype[r] = (uint8_t)t;
	ra->temp[r] = (uint8_t)temp;
	ra->cls[r] = CL_NONE;
	ra->wid[r] = (uint8_t)ra_reg_width(t);
	ra->spill[r] = 0;
	ra->cost[r] = 0;
	ra->rep[r] = r;
	ra->colour[r] = -1;
	ra->n = r + 1;
	ra->f->regtype = ra->regtype;
	ra->f->nreg = ra->n;
	return r;
}

/* ---- edges ---------------------------------------------------------------- */

static void ivec_push(IVec *v, int32_t x)
{
	VEC_RESERVE(v->v, v->cap, (size_t)v->n + 1);
	v->v[v->n++] = x;
}

/* do reps a and b interfere?  Scans the smaller neighbour list */
int igraph_edge(Ra *ra, int32_t a, int32_t b)
{
	if (a == b) return 0;
	if (igraph_degree(ra, a) > igraph_degree(ra, b)) {
		int32_t t = a;
		a = b, b = t;
	}
	int32_t n = igraph_degree(ra, a);
	for (int32_t i = 0; i < n; i++)
		if (ra_find(ra, igraph_nb(ra, a, i)) == b) return 1;
	return 0;
}

void igraph_add(Ra *ra, int32_t a, int32_t b)
{
	if (a == b) return;
	if (ra->aoff) {          /* after the build: per-node extras */
		ivec_push(&ra->adj[a], b);
		ivec_push(&ra->adj[b], a);
		return;
	}
	if (ra->elist.n >= 2 * RA_EDGE_BUDGET && !ra->unbounded) {
		ra->over = 1;        /* igraph_build gives up: see igraph_prespill */
		return;
	}
	VEC_RESERVE(ra->elist.v, ra->elist.cap, (size_t)ra->elist.n + 2);
	ra->elist.v[ra->elist.n++] = a;
	ra->elist.v[ra->elist.n++] = b;
}

/* the edge list of the build, duplicates and all, as deduplicated
   neighbour arrays (CSR) */
static void finish(Ra *ra)
{
	int32_t n = ra->n;
	int32_t *off = xcalloc((size_t)n + 2, sizeof(int32_t));
	int32_t *nb = xmalloc(sizeof(int32_t) * ((size_t)ra->elist.n + 1));
	for (int32_t i = 0; i < ra->elist.n; i++) off[ra->elist.v[i] + 2]++;
	for (int32_t x = 0; x < n; x++) off[x + 2] += off[x + 1];
	for (int32_t i = 0; i < ra->elist.n; i += 2) {
		int32_t a = ra->elist.v[i], b = ra->elist.v[i + 1];
		nb[off[a + 1]++] = b;
		nb[off[b + 1]++] = a;
	}
	free(ra->elist.v);
	ra->elist = (IVec){0};
	int32_t *stamp = xmalloc(sizeof(int32_t) * ((size_t)n + 1)), m = 0;
	for (int32_t x = 0; x < n; x++) stamp[x] = -1;
	for (int32_t x = 0; x < n; x++) {            /* deduplicate in place */
		int32_t lo = off[x], hi = off[x + 1];
		off[x] = m;
		for (int32_t i = lo; i < hi; i++)
			if (stamp[nb[i]] != x) stamp[nb[i]] = x, nb[m++] = nb[i];
	}
	off[n] = m;
	free(stamp);
	ra->aoff = off;
	ra->anb = nb;
	ra->ncsr = n;
	ra->nedge = (uint32_t)(m / 2);
}

void igraph_free(Ra *ra)
{
	for (int32_t r = 0; r < ra->ncap; r++) {
		free(ra->adj[r].v);
		ra->adj[r] = (IVec){0};
	}
	free(ra->aoff);
	free(ra->anb);
	free(ra->elist.v);
	ra->aoff = ra->anb = NULL;
	ra->elist = (IVec){0};
	ra->ncsr = 0;
	ra->nedge = 0;
	ra->nmv = 0;
}

/* ---- building ---------------------------------------------------------------- */

typedef struct Walk {        /* the backward walk over one block */
	ScanSet cur;              /* live (and maybe-defined) after the current point */
	int32_t *mem;            /* scratch: cur's members */
	int32_t *mdstamp;        /* block whose entry some write of the register reaches */
	int32_t *fdef;           /* first write of each register in the block */
	int32_t *fstamp;         /* block that fdef belongs to */
	int32_t blk;
	int32_t first;           /* the block's first instruction */
	int32_t nscratch;        /* scratch nodes handed out this round */
	int32_t weight[3];       /* slots in cur per class */
	int32_t *buf;            /* reads and writes of one instruction */
} Walk;

/* is r maybe-defined just before instruction i of the walk's block?  Asked
   only of registers live into the block or written in it before i, for
   which live_sets.c's in_def says it */
static int maydef(const Walk *w, int32_t r, int32_t i)
{
	return w->mdstamp[r] == w->blk || (w->fstamp[r] == w->blk && w->fdef[r] < i);
}

static void cur_set(Ra *ra, Walk *w, int32_t r, int on)
{
	if (scanset_has(&w->cur, r) == on) return;
	if (on) scanset_add(&w->cur, r);
	else scanset_del(&w->cur, r);
	int c = ra->cls[r], wt = c == CL_GEN ? ra->wid[r] : 1;
	w->weight[c] += on ? wt : -wt;
}

static int is_move(const Ra *ra, const Ins *in)
{
	if (in->op != OP_MOV || in->guard >= 0 || in->nd != 1 || in->ns != 1) return 0;
	const Operand *d = &in->o[0], *s = &in->o[1];
	if (d->kind != OPK_REG || s->kind != OPK_REG || (s->flags & OPDF_NEG)) return 0;
	return ra->cls[d->reg] == ra->cls[s->reg] && ra->wid[d->reg] == ra->wid[s->reg];
}

static double depth_weight(const Cfg *c, int32_t b)
{
	int d = c->loop_depth[b] < 6 ? c->loop_depth[b] : 6;
	double w = 1;
	while (d-- > 0) w *= 10;
	return w;
}

/*
 * Scratch registers of macro-instructions.  ptxas expands some PTX
 * instructions into SASS sequences that need registers of their own while
 * they run (integer division by Newton-Raphson on the reciprocal, IEEE
 * float division and square root with their fix-up paths).  Those
 * registers count toward ptxas's total, so each such instruction gets that
 * many scratch nodes interfering with everything it reads, writes or keeps
 * live across it; nothing in the code names them.  The numbers are the
 * extra registers ptxas 13.0 (sm_90) used for the instruction with 14
 * other values live, over a plain add/mul of the same type.
 */
int ra_scratch(const Ins *in)
{
	PtxType t = (PtxType)in->type;
	int sz = ptxtype_size(t), isf = ptxtype_is_float(t), ieee = in->rnd != RND_NONE;
	switch ((Op)in->op) {
	case OP_DIV: case OP_REM:
		if (!isf) return sz == 8 ? 9 : ptxtype_is_signed(t) ? 7 : 5;
		if (t == PT_F64) return 4;
		return t == PT_F32 && ieee ? 7 : 0;
	case OP_RCP:
		if (t == PT_F64) return ieee ? 7 : 0;
		return t == PT_F32 ? (ieee ? 6 : (in->mods & MOD_FTZ) ? 0 : 1) : 0;
	case OP_SQRT:
		if (t == PT_F64) return ieee ? 11 : 0;
		return t == PT_F32 && ieee ? 2 : 0;
	case OP_RSQRT:
		return t == PT_F64 ? 7 : 0;
	default:
		return 0;
	}
}

static int32_t scratch_node(Ra *ra, Walk *w)
{
	assert(w->nscratch < ra->pool.n);     /* made by igraph_build */
	int32_t r = ra->pool.v[w->nscratch++];
	ra->cls[r] = CL_GEN;
	ra->wid[r] = 1;
	ra->rep[r] = r;
	ra->colour[r] = -1;
	ra->spill[r] = 0;
	ra->cost[r] = 0;
	return r;
}

/* s scratch nodes for instruction in: interfering with what is live after
   it (w->cur), what it reads and writes, and each other */
static void add_scratch(Ra *ra, Walk *w, const Ins *in, int s, int32_t *press)
{
	int32_t base = w->nscratch, buf[RA_MAXSLOT], extra = 0;
	int n = live_defs(ra->f, in, buf, RA_MAXSLOT);
	n += live_uses(ra->f, in, buf + n, RA_MAXSLOT - n);
	for (int k = 0; k < s; k++) {
		int32_t x = scratch_node(ra, w), nm = scanset_members(&w->cur, w->mem);
		for (int32_t j = 0; j < nm; j++)
			if (ra->cls[w->mem[j]] == CL_GEN) igraph_add(ra, x, w->mem[j]);
		for (int q = 0; q < n; q++)
			if (ra->cls[buf[q]] == CL_GEN) igraph_add(ra, x, buf[q]);
		for (int32_t q = base; q < w->nscratch - 1; q++) igraph_add(ra, x, ra->pool.v[q]);
	}
	for (int q = 0; q < n; q++) {
		int dup = scanset_has(&w->cur, buf[q]);
		for (int p = 0; p < q && !dup; p++) dup = buf[p] == buf[q];
		if (!dup && ra->cls[buf[q]] == CL_GEN) extra += ra->wid[buf[q]];
	}
	if (w->weight[CL_GEN] + extra + s > press[CL_GEN])
		press[CL_GEN] = w->weight[CL_GEN] + extra + s;
}

/* 1 if in reads its registers late, through a scoreboard (memory, shuffles) */
static int late_reader(const Ins *in)
{
	return op_info[in->op].unit == UNIT_LDST || (op_info[in->op].flags & OPF_WARP);
}

/* the registers that memory and shuffle instructions up to ra->o->hold
   before i in its block read interfere with i's writes: the GPU reads
   them late, through a scoreboard, and ptxas does not rewrite a register
   an outstanding instruction has yet to read, it takes another.  press[]
   counts those held and not live after i */
static void hold_edges(Ra *ra, Walk *w, int32_t i, int nd, int32_t *press)
{
	const Func *f = ra->f;
	int32_t buf[RA_MAXSLOT], from = i - ra->o->hold > w->first ? i - ra->o->hold : w->first;
	for (int32_t j = from; j < i; j++) {
		if (!late_reader(&f->ins[j])) continue;
		int nu = live_uses(f, &f->ins[j], buf, RA_MAXSLOT);
		for (int q = 0; q < nu && q < RA_MAXSLOT; q++) {
			int32_t u = buf[q], fresh = !scanset_has(&w->cur, u);
			if (ra->cls[u] != CL_GEN) continue;
			for (int k = 0; k < nd; k++)
				if (w->buf[k] != u && ra->cls[w->buf[k]] == CL_GEN) igraph_add(ra, w->buf[k], u);
				else if (w->buf[k] == u) fresh = 0;
			for (int p = 0; p < q && fresh; p++) fresh = buf[p] != u;
			if (fresh) press[CL_GEN] += ra->wid[u];
		}
	}
}

/* interference of instruction i's writes; updates w->cur to before i */
static void walk_ins(Ra *ra, Walk *w, int32_t i, double wt)
{
	const Func *f = ra->f;
	const Ins *in = &f->ins[i];
	int32_t *buf = w->buf;
	int nd = live_defs(f, in, buf, RA_MAXSLOT);
	int32_t src = is_move(ra, in) ? in->o[1].reg : -1;
	if (src >= 0) {
		VEC_RESERVE(ra->mv, ra->capmv, (size_t)ra->nmv + 1);
		ra->mv[ra->nmv++] = (Move){in->o[0].reg, src, wt};
	}
	int32_t press[3] = {w->weight[0], w->weight[1], w->weight[2]};
	for (int k = 0; k < nd; k++) {
		int32_t d = buf[k];
		int cl = ra->cls[d];
		ra->cost[d] += wt;
		if (!scanset_has(&w->cur, d)) press[cl] += cl == CL_GEN ? ra->wid[d] : 1;
		int32_t nm = scanset_members(&w->cur, w->mem);
		for (int32_t j = 0; j < nm; j++) {
			int32_t r = w->mem[j];
			if (r != d && r != src && ra->cls[r] == cl) igraph_add(ra, d, r);
		}
		for (int q = 0; q < k; q++)
			if (ra->cls[buf[q]] == cl) igraph_add(ra, d, buf[q]);
	}
	if (ra->o->hold > 0 && nd) hold_edges(ra, w, i, nd, press);
	int s = ra_scratch(in);
	if (s) add_scratch(ra, w, in, s, press);
	for (int cl = CL_GEN; cl <= CL_PRED; cl++)
		if (press[cl] > ra->pressure[cl]) ra->pressure[cl] = press[cl];
	nd = live_defs(f, in, buf, RA_MAXSLOT);
	for (int k = 0; k < nd; k++)
		if (in->guard < 0 || !maydef(w, buf[k], i)) cur_set(ra, w, buf[k], 0);
	int nu = live_uses(f, in, buf, RA_MAXSLOT);
	for (int k = 0; k < nu; k++) {
		ra->cost[buf[k]] += wt;
		if (maydef(w, buf[k], i)) cur_set(ra, w, buf[k], 1);
	}
}

/* slots of general registers instruction in names (each once) */
static int32_t ins_slots(const Ra *ra, const Func *f, const Ins *in, int32_t *buf)
{
	int n = live_defs(f, in, buf, RA_MAXSLOT);
	n += live_uses(f, in, buf + n, RA_MAXSLOT - n);
	int32_t s = 0;
	for (int k = 0; k < n; k++) {
		int dup = 0;
		for (int q = 0; q < k && !dup; q++) dup = buf[q] == buf[k];
		if (!dup && ra->cls[buf[k]] == CL_GEN) s += ra->wid[buf[k]];
	}
	return s + ra_scratch(in);
}

static void classify(Ra *ra)
{
	const Func *f = ra->f;
	int32_t *buf = xmalloc(sizeof(int32_t) * RA_MAXSLOT * 2);
	memset(ra->cls, CL_NONE, (size_t)ra->n);
	for (int32_t i = 0; i < f->nins; i++) {
		int n = live_defs(f, &f->ins[i], buf, RA_MAXSLOT);
		n += live_uses(f, &f->ins[i], buf + n, RA_MAXSLOT);
		for (int k = 0; k < n; k++) {
			int32_t r = buf[k];
			ra->cls[r] = ra->regtype[r] == PT_PRED ? CL_PRED : CL_GEN;
			ra->wid[r] = (uint8_t)ra_reg_width((PtxType)ra->regtype[r]);
		}
	}
	ra->kmin = 1;
	for (int32_t i = 0; i < f->nins; i++) {
		int32_t s = ins_slots(ra, f, &f->ins[i], buf);
		if (s > ra->kmin) ra->kmin = s;
	}
	free(buf);
}

/* Ra.rank: registers in order of their first write, blocks in reverse
   postorder; scratch nodes rank at their instruction */
static void rank_defs(Ra *ra, const Cfg *c, int32_t *buf)
{
	const Func *f = ra->f;
	int32_t next = 0;
	for (int32_t r = 0; r < ra->n; r++) ra->rank[r] = INT32_MAX;
	for (int32_t k = 0; k < c->nblock + 1; k++) {
		int32_t b = c->rpo[k];
		if (b == c->exit) continue;
		for (int32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++) {
			int n = live_defs(f, &f->ins[i], buf, RA_MAXSLOT);
			for (int j = 0; j < n; j++)
				if (ra->rank[buf[j]] == INT32_MAX) ra->rank[buf[j]] = next++;
		}
	}
	for (int32_t r = 0; r < ra->n; r++)
		if (ra->rank[r] == INT32_MAX && ra->cls[r]) ra->rank[r] = next++;
}

/* the scratch nodes this code needs, made once and reused every round */
static void make_pool(Ra *ra)
{
	int32_t need = 0;
	for (int32_t i = 0; i < ra->f->nins; i++) need += ra_scratch(&ra->f->ins[i]);
	while (ra->pool.n < need) {
		int32_t r = ra_new_reg(ra, PT_B32, 1);
		VEC_RESERVE(ra->pool.v, ra->pool.cap, (size_t)ra->pool.n + 1);
		ra->pool.v[ra->pool.n++] = r;
	}
}

/* the walk set up at the end of block b: its first writes, what is maybe
   defined on entry, cur = its live-out list (maybe-defined there) */
static void walk_begin(Ra *ra, Walk *w, const Cfg *c, const LiveSets *l, int32_t b)
{
	const Func *f = ra->f;
	const Block *bb = &c->blocks[b];
	w->blk = b;
	w->first = bb->first;
	for (int32_t i = bb->last; i >= bb->first; i--) {   /* first writes */
		int n = live_defs(f, &f->ins[i], w->buf, RA_MAXSLOT);
		for (int k = 0; k < n; k++) {
			w->fstamp[w->buf[k]] = b;
			w->fdef[w->buf[k]] = i;
		}
	}
	for (int32_t k = l->in_start[b]; k < l->in_start[b + 1]; k++)
		if (l->in_def[k]) w->mdstamp[l->in[k]] = b;
	scanset_clear(&w->cur);
	memset(w->weight, 0, sizeof w->weight);
	for (int32_t k = l->out_start[b]; k < l->out_start[b + 1]; k++) {
		int32_t r = l->out[k];
		if (ra->cls[r] && maydef(w, r, bb->last + 1)) cur_set(ra, w, r, 1);
	}
}

static void walk_init(Walk *w, int32_t n0)
{
	size_t nr = (size_t)n0 + 1;
	memset(w, 0, sizeof *w);
	w->buf = xmalloc(sizeof(int32_t) * RA_MAXSLOT);
	scanset_init(&w->cur, n0 + 1);
	w->mem = xmalloc(sizeof(int32_t) * nr);
	w->fdef = xmalloc(sizeof(int32_t) * nr * 3);
	w->fstamp = w->fdef + nr, w->mdstamp = w->fstamp + nr;
	for (size_t r = 0; r < nr; r++) w->fstamp[r] = w->mdstamp[r] = -1;
}

static void walk_free(Walk *w)
{
	free(w->buf), free(w->mem), free(w->fdef);
	scanset_free(&w->cur);
}

/* the per-round state every register starts from */
static void build_init(Ra *ra)
{
	classify(ra);
	for (int32_t r = 0; r < ra->n; r++) {
		ra->rep[r] = r;
		ra->cost[r] = 0;
		ra->colour[r] = -1;
		ra->spill[r] = 0;
	}
	memset(ra->pressure, 0, sizeof ra->pressure);
	make_pool(ra);
}

int igraph_build(Ra *ra, const Cfg *c, const LiveSets *l)
{
	build_init(ra);
	Walk w;
	walk_init(&w, ra->n);
	ra->over = 0;
	for (int32_t b = 0; b < c->nblock && !ra->over; b++) {
		walk_begin(ra, &w, c, l, b);
		double wt = depth_weight(c, b);
		for (int32_t i = c->blocks[b].last; i >= c->blocks[b].first && !ra->over; i--)
			walk_ins(ra, &w, i, wt);
	}
	if (ra->over) {
		walk_free(&w);
		free(ra->elist.v);
		ra->elist = (IVec){0};
		return 0;
	}
	for (int32_t r = 0; r < ra->n; r++)
		if (ra->temp[r] || (ra->cls[r] == CL_GEN && ra->wid[r] > 2)) ra->cost[r] = 1e300;
	rank_defs(ra, c, w.buf);
	finish(ra);
	walk_free(&w);
	return 1;
}

/* ---- pre-spilling ----------------------------------------------------------- */

/*
 * A function whose graph would pass RA_EDGE_BUDGET edges -- thousands of
 * values live at once, where the graph is nearly a clique and grows as its
 * square -- is first relieved: wherever more than the cap's slots are live
 * (more than compiler.pred_regs predicates), some of those values must live
 * in memory whatever the colouring does, so before any graph is built the
 * walk below marks, at each such point, the cheapest live values (spill
 * cost, then the one read furthest ahead, as Belady's rule and linear-scan
 * allocators choose), and spill.c rewrites them; the next round colours the
 * rest as usual.  The general limit leaves room under the cap for the
 * reloads of one instruction (kmin slots, but at least half the cap).  No
 * kernel of the corpus comes near the budget (the largest graph has some
 * 150,000 edges), so their allocation is Chaitin-Briggs' alone.
 */
typedef struct Cand { double cost; int64_t t; int32_t r; } Cand;
typedef struct CHeap { Cand *v; int32_t n, cap; } CHeap;

static int cand_less(const Cand *a, const Cand *b)
{
	if (a->cost != b->cost) return a->cost < b->cost;
	return a->t != b->t ? a->t < b->t : a->r < b->r;
}

static void cheap_push(CHeap *h, Cand c)
{
	VEC_RESERVE(h->v, h->cap, (size_t)h->n + 1);
	int32_t i = h->n++;
	for (; i > 0 && cand_less(&c, &h->v[(i - 1) / 2]); i = (i - 1) / 2)
		h->v[i] = h->v[(i - 1) / 2];
	h->v[i] = c;
}

static Cand cheap_pop(CHeap *h)
{
	Cand top = h->v[0], last = h->v[--h->n];
	int32_t i = 0;
	for (int32_t c; (c = 2 * i + 1) < h->n; i = c) {
		if (c + 1 < h->n && cand_less(&h->v[c + 1], &h->v[c])) c++;
		if (!cand_less(&h->v[c], &last)) break;
		h->v[i] = h->v[c];
	}
	if (h->n) h->v[i] = last;
	return top;
}

typedef struct Pre {
	int32_t lim[3];          /* slots a point may hold, per class */
	int32_t held[3];         /* slots in cur not marked for spilling */
	CHeap heap[3];           /* members of cur that may be spilled, cheapest first */
	int64_t *enter, step;    /* when each register last entered cur (a read) */
	int32_t nspill;
} Pre;

static int32_t slots(const Ra *ra, int32_t r) { return ra->cls[r] == CL_GEN ? ra->wid[r] : 1; }

static int spillable(const Ra *ra, int32_t r)
{
	return ra->cls[r] && !ra->temp[r] && !(ra->cls[r] == CL_GEN && ra->wid[r] > 2);
}

/* r joins cur (again): its next read is now the nearest */
static void pre_enter(Ra *ra, Walk *w, Pre *p, int32_t r)
{
	if (!scanset_has(&w->cur, r) && !ra->spill[r]) p->held[ra->cls[r]] += slots(ra, r);
	cur_set(ra, w, r, 1);
	p->enter[r] = ++p->step;
	if (spillable(ra, r) && !ra->spill[r])
		cheap_push(&p->heap[ra->cls[r]], (Cand){ra->cost[r], p->step, r});
}

static void pre_leave(Ra *ra, Walk *w, Pre *p, int32_t r)
{
	if (scanset_has(&w->cur, r) && !ra->spill[r]) p->held[ra->cls[r]] -= slots(ra, r);
	cur_set(ra, w, r, 0);
}

/* spill live values of class cl until press slots fit its limit */
static void relieve(Ra *ra, Walk *w, Pre *p, int cl, int32_t press)
{
	CHeap *h = &p->heap[cl];
	while (press > p->lim[cl] && h->n) {
		Cand c = cheap_pop(h);
		if (ra->spill[c.r] || p->enter[c.r] != c.t || !scanset_has(&w->cur, c.r)) continue;
		ra->spill[c.r] = 1;
		p->nspill++;
		p->held[cl] -= slots(ra, c.r);
		press -= slots(ra, c.r);
	}
}

static void pre_ins(Ra *ra, Walk *w, Pre *p, int32_t i)
{
	const Func *f = ra->f;
	const Ins *in = &f->ins[i];
	int32_t *buf = w->buf, press[3] = {p->held[0], p->held[1], p->held[2]};
	int32_t raw[3] = {w->weight[0], w->weight[1], w->weight[2]};
	int nd = live_defs(f, in, buf, RA_MAXSLOT);
	for (int k = 0; k < nd; k++) {
		int32_t d = buf[k];
		if (scanset_has(&w->cur, d)) continue;
		raw[ra->cls[d]] += slots(ra, d);
		if (!ra->spill[d]) press[ra->cls[d]] += slots(ra, d);
	}
	for (int cl = CL_GEN; cl <= CL_PRED; cl++) {
		if (raw[cl] > ra->pressure[cl]) ra->pressure[cl] = raw[cl];
		relieve(ra, w, p, cl, press[cl]);
	}
	for (int k = 0; k < nd; k++)
		if (in->guard < 0 || !maydef(w, buf[k], i)) pre_leave(ra, w, p, buf[k]);
	int nu = live_uses(f, in, buf, RA_MAXSLOT);
	for (int k = 0; k < nu; k++)
		if (maydef(w, buf[k], i)) pre_enter(ra, w, p, buf[k]);
}

int32_t igraph_prespill(Ra *ra, const Cfg *c, const LiveSets *l)
{
	const Func *f = ra->f;
	build_init(ra);
	Walk w;
	walk_init(&w, ra->n);
	int32_t room = ra->cap - ra->kmin > ra->cap / 2 ? ra->cap - ra->kmin : ra->cap / 2;
	Pre p = {.lim = {0, room, ra->o->npred}};
	p.enter = xcalloc((size_t)ra->n + 1, sizeof(int64_t));
	for (int32_t b = 0; b < c->nblock; b++) {          /* spill costs, as the build */
		double wt = depth_weight(c, b);
		for (int32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++)
			for (int use = 0; use < 2; use++) {
				const Ins *in = &f->ins[i];
				int n = use ? live_uses(f, in, w.buf, RA_MAXSLOT) :
				              live_defs(f, in, w.buf, RA_MAXSLOT);
				for (int k = 0; k < n; k++) ra->cost[w.buf[k]] += wt;
			}
	}
	for (int32_t b = 0; b < c->nblock; b++) {
		walk_begin(ra, &w, c, l, b);
		memset(p.held, 0, sizeof p.held);
		for (int cl = CL_GEN; cl <= CL_PRED; cl++) p.heap[cl].n = 0;
		int32_t nm = scanset_members(&w.cur, w.mem);
		for (int32_t k = 0; k < nm; k++) {
			int32_t r = w.mem[k];
			cur_set(ra, &w, r, 0);
			pre_enter(ra, &w, &p, r);
		}
		for (int32_t i = c->blocks[b].last; i >= c->blocks[b].first; i--) pre_ins(ra, &w, &p, i);
	}
	for (int cl = CL_GEN; cl <= CL_PRED; cl++) free(p.heap[cl].v);
	free(p.enter);
	walk_free(&w);
	return p.nspill;
}
