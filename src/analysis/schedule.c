/*
 * schedule.c -- list scheduling inside basic blocks, run before register
 * allocation (compiler.schedule, pass.c), in one of two modes.
 *
 * latency (the default): the order ptxas's scheduler gives, loads first and
 * long-latency work started early, so that registers per thread come out
 * as `ptxas -v` reports them (issue 21); sched_lat.c has the essay, the
 * memory dependences it adds and its choice of instruction.  This file
 * gives it the regions, their register dependences, exact peaks and the
 * forward live count, and bounds it: no region's order may hold more than
 * LAT_SLACK slots above the least peak the pressure heuristic below reaches
 * in the function's worst region (ptxas weighs registers against latency
 * too; unbounded, an unrolled body would take every load first).
 *
 * pressure: the order that lowers register pressure, described below.
 * nvcc writes PTX in an order that suits its own back end, and ptxas
 * reorders it again; allocating nvcc's order as it stands holds many
 * values live at once where a kernel unpacks all its operands before a
 * long chain consumes them (sad_search: 61 registers to ptxas's 40).  This
 * mode reorders each straight-line region so that consumers follow soon
 * after the values they kill, in the spirit of Goodman and Hsu's
 * integrated prepass scheduling (ICS 1988): below a register budget it
 * keeps nvcc's order; at the budget it prefers the ready instruction that
 * frees the most slots.  It is the allocation rfsim made before issue 21,
 * kept bit for bit.
 *
 * Regions.  A region is a run of instructions of one block between
 * labels, statement pragmas and pseudo instructions ({ } scopes, the
 * rfsim.* directives), without the block's control transfer (bra, ret,
 * exit, trap), which stays last.  Labels, pragmas and scope indices
 * therefore keep pointing at what they did.
 *
 * What may move (pressure mode).  Only pure ALU, SFU and conversion
 * instructions (op flags 0 in ops.def, not touching the carry flag, not
 * reading %clock or the global timer) move past one another within their
 * register and predicate dependences (read after write, write after read,
 * write after write; a guard is a read).  Every other instruction -- loads
 * and stores of any space, atomics, cp.async, wmma and mma, ldmatrix,
 * shuffles and votes, barriers, fences, calls, nanosleep, brkpt -- is
 * "ordered": the ordered instructions of a region form one chain that keeps
 * its relative order, and none moves to a later position than it had (each
 * is given that position as a deadline, propagated backwards to what it
 * depends on, and every choice is checked to leave a schedule meeting all
 * deadlines), so a load is never delayed and nvcc's spacing of loads from
 * their uses is kept or grown.
 *
 * Heuristic.  Each region's peak is measured exactly (backward liveness
 * over the region from the registers live after it, in 32-bit slots: a
 * 64-bit value takes two; what is live at the regions' ends comes from one
 * backward walk per block from live_sets.c's lists, kept as lists, so the
 * pass costs what is live there, not regions times registers).  First
 * every region is scheduled in pure pressure mode, giving the least peak
 * this heuristic finds; the function's budget is the largest region peak
 * once every region takes the better of its two orders (no region can
 * lower the register count below it).  Then every region whose nvcc peak
 * exceeds the budget is scheduled again with that budget: nvcc's order
 * until the next choice would pass the budget, the freeing choice from
 * there.  A region keeps its new order only if that lowers its peak
 * without raising its predicate peak above the predicate registers there
 * are; otherwise, and in every region already within the budget, nvcc's
 * order stands.
 *
 * Left out: moving instructions across blocks; in pressure mode, latency
 * modelling (nvcc's order is trusted for it) and memory disambiguation
 * (loads never pass stores, even ones that provably do not alias).
 */
#include "analysis/schedule.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cfg.h"
#include "analysis/live.h"
#include "analysis/ra_int.h"
#include "analysis/sched_int.h"
#include "base/base.h"

enum { MAXOPR = 64,          /* reads or writes of one instruction we handle */
       MAXREGION = 4096,     /* longer regions keep nvcc's order (quadratic choice) */
       LAT_SLACK = 4 };      /* latency mode: slots above the least peak it may use */

typedef struct Sched {       /* per-function scratch */
	uint8_t *wid;            /* nreg: 32-bit slots of each register (0: predicate) */
	int32_t *rem;            /* nreg: unscheduled reads within the region */
	int32_t *lastdef;        /* nreg: local index of the last write so far, -1 */
	int32_t *rdhead;         /* nreg: readers since that write (list into rdnode) */
	ScanSet live;             /* working register set */
	int32_t *outmark;        /* nreg: id of the region the register is live after */
	int32_t *bstart, *breg;  /* live before region k: breg[bstart[2k] ..), after it:
	                            breg[bstart[2k + 1] ..), bstart[2k + 2] entries in all */
	int32_t *mem;            /* nreg: scratch for a set's members */
	int mode;                /* SCHED_PRESSURE or SCHED_LATENCY */
} Sched;

static int clock_sreg(int32_t r)
{
	return r == SR_CLOCK || r == SR_CLOCK_HI || r == SR_CLOCK64 || r == SR_GLOBALTIMER ||
	       r == SR_GLOBALTIMER_LO || r == SR_GLOBALTIMER_HI || r == SR_PM;
}

/* 1 if in writes or reads the carry flag */
static int carry(const Ins *in)
{
	return (in->mods & MOD_CC) || in->op == OP_ADDC || in->op == OP_SUBC || in->op == OP_MADC;
}

/* 1 if in may move relative to other instructions (see the essay) */
static int movable(const Ins *in)
{
	const OpInfo *oi = &op_info[in->op];
	if (oi->flags) return 0;
	if (oi->unit != UNIT_ALU && oi->unit != UNIT_SFU && oi->unit != UNIT_DP) return 0;
	if (carry(in)) return 0;
	for (int k = 0; k < in->nd + in->ns; k++)
		if (in->o[k].kind == OPK_SREG && clock_sreg(in->o[k].reg)) return 0;
	return 1;
}

static void region_free(Region *r)
{
	free(r->ustart), free(r->ureg), free(r->dstart), free(r->dreg), free(r->guarded);
	free(r->sstart), free(r->succ), free(r->slat), free(r->npred), free(r->deadline);
	memset(r, 0, sizeof *r);
}

/* reads and writes of each instruction; 0 if one has too many to handle */
static int region_operands(Region *r)
{
	int32_t buf[MAXOPR], nu = 0, nd = 0;
	r->ustart = xmalloc(sizeof(int32_t) * ((size_t)r->n + 1));
	r->dstart = xmalloc(sizeof(int32_t) * ((size_t)r->n + 1));
	r->ureg = xmalloc(sizeof(int32_t) * ((size_t)r->n * MAXOPR + 1));
	r->dreg = xmalloc(sizeof(int32_t) * ((size_t)r->n * MAXOPR + 1));
	r->guarded = xmalloc((size_t)r->n + 1);
	for (int32_t i = 0; i < r->n; i++) {
		const Ins *in = &r->f->ins[r->s + i];
		int a = live_uses(r->f, in, buf, MAXOPR);
		if (a > MAXOPR) return 0;
		r->ustart[i] = nu;
		memcpy(r->ureg + nu, buf, sizeof(int32_t) * (size_t)a), nu += a;
		int b = live_defs(r->f, in, buf, MAXOPR);
		if (b > MAXOPR) return 0;
		r->dstart[i] = nd;
		memcpy(r->dreg + nd, buf, sizeof(int32_t) * (size_t)b), nd += b;
		r->guarded[i] = in->guard >= 0;
	}
	r->ustart[r->n] = nu, r->dstart[r->n] = nd;
	return 1;
}

void sched_edge(Edges *e, int32_t a, int32_t b, int32_t lat)
{
	if (a < 0) return;
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 256;
		e->from = xrealloc(e->from, sizeof(int32_t) * e->cap);
		e->to = xrealloc(e->to, sizeof(int32_t) * e->cap);
		e->lat = xrealloc(e->lat, sizeof(int32_t) * e->cap);
	}
	e->from[e->n] = a, e->to[e->n] = b, e->lat[e->n++] = lat;
}

/* an edge's latency: a read after a write waits for the write's result */
static int32_t raw_lat(const Region *r, const Sched *sc, int32_t from)
{
	return sc->mode == SCHED_LATENCY ? sched_lat_of(r->f, &r->f->ins[r->s + from]) : 1;
}

/* 1 if local instruction i keeps its place among the ordered ones */
static int ordered_in(const Region *r, const Sched *sc, int32_t i)
{
	const Ins *in = &r->f->ins[r->s + i];
	return !movable(in) && !(sc->mode == SCHED_LATENCY && sched_lat_movable(r->f, in));
}

/* the dependence graph's CSR arrays from its edge list */
static void region_csr(Region *r, Edges *e)
{
	r->sstart = xcalloc((size_t)r->n + 1, sizeof(int32_t));
	r->succ = xmalloc(sizeof(int32_t) * (e->n + 1));
	r->slat = xmalloc(sizeof(int32_t) * (e->n + 1));
	r->npred = xcalloc((size_t)r->n + 1, sizeof(int32_t));
	for (size_t k = 0; k < e->n; k++) r->sstart[e->from[k] + 1]++, r->npred[e->to[k]]++;
	for (int32_t i = 0; i < r->n; i++) r->sstart[i + 1] += r->sstart[i];
	int32_t *fill = xmalloc(sizeof(int32_t) * ((size_t)r->n + 1));
	memcpy(fill, r->sstart, sizeof(int32_t) * (size_t)r->n);
	for (size_t k = 0; k < e->n; k++) {
		assert(e->from[k] < e->to[k]);
		r->slat[fill[e->from[k]]] = e->lat[k];
		r->succ[fill[e->from[k]]++] = e->to[k];
	}
	free(fill), free(e->from), free(e->to), free(e->lat);
}

/* the address base register of a memory access, -1 if none */
static int32_t base_reg(const Ins *in)
{
	for (int k = 0; k < in->nd + in->ns; k++)
		if (in->o[k].kind == OPK_ADDR && !(in->o[k].flags & OPDF_SYMBASE)) return in->o[k].reg;
	return -1;
}

/* dependence edges: RAW, WAR, WAW on registers; the chain of ordered ones,
   or in latency mode the memory dependences of sched_lat.c and the chain of
   the instructions that touch the carry flag (a register the operands do
   not name: add.cc, addc, ... keep their order among themselves) */
static void region_deps(Region *r, Sched *sc)
{
	Edges e = {0};
	MemDeps md;
	int lat = sc->mode == SCHED_LATENCY;
	int32_t *rdnode = xmalloc(sizeof(int32_t) * 2 * ((size_t)r->ustart[r->n] + 1));
	int32_t nnode = 0, prev_ord = -1, prev_cc = -1;
	if (lat) sched_mem_init(&md, r->n);
	for (int32_t i = 0; i < r->n; i++) {
		if (lat) {
			int32_t g = base_reg(&r->f->ins[r->s + i]);
			md.ver[i] = g >= 0 ? sc->lastdef[g] : -1;
			sched_mem_edges(r, &md, i, &e);
			if (carry(&r->f->ins[r->s + i])) sched_edge(&e, prev_cc, i, 1), prev_cc = i;
		} else if (!movable(&r->f->ins[r->s + i])) {
			sched_edge(&e, prev_ord, i, 1), prev_ord = i;
		}
		for (int32_t k = r->ustart[i]; k < r->ustart[i + 1]; k++) {
			int32_t g = r->ureg[k];
			if (sc->lastdef[g] >= 0) sched_edge(&e, sc->lastdef[g], i, raw_lat(r, sc, sc->lastdef[g]));
			rdnode[2 * nnode] = i, rdnode[2 * nnode + 1] = sc->rdhead[g];
			sc->rdhead[g] = nnode++;
		}
		for (int32_t k = r->dstart[i]; k < r->dstart[i + 1]; k++) {
			int32_t g = r->dreg[k];
			sched_edge(&e, sc->lastdef[g], i, 1);
			for (int32_t q = sc->rdhead[g]; q >= 0; q = rdnode[2 * q + 1])
				if (rdnode[2 * q] != i) sched_edge(&e, rdnode[2 * q], i, 1);
		}
		for (int32_t k = r->dstart[i]; k < r->dstart[i + 1]; k++)
			sc->lastdef[r->dreg[k]] = i, sc->rdhead[r->dreg[k]] = -1;
	}
	for (int32_t i = 0; i < r->n; i++) {       /* reset the per-register scratch */
		for (int32_t k = r->ustart[i]; k < r->ustart[i + 1]; k++)
			sc->lastdef[r->ureg[k]] = -1, sc->rdhead[r->ureg[k]] = -1;
		for (int32_t k = r->dstart[i]; k < r->dstart[i + 1]; k++)
			sc->lastdef[r->dreg[k]] = -1, sc->rdhead[r->dreg[k]] = -1;
	}
	free(rdnode);
	if (lat) sched_mem_free(&md);
	region_csr(r, &e);
	r->deadline = xmalloc(sizeof(int32_t) * ((size_t)r->n + 1));
	for (int32_t i = r->n - 1; i >= 0; i--) {
		int32_t d = ordered_in(r, sc, i) ? i : r->n - 1;
		for (int32_t k = r->sstart[i]; k < r->sstart[i + 1]; k++)
			if (r->deadline[r->succ[k]] - 1 < d) d = r->deadline[r->succ[k]] - 1;
		assert(d >= i);
		r->deadline[i] = d;
	}
}

/* ---- pressure -------------------------------------------------------- */

typedef struct Peak { int32_t gen, pred; } Peak;

static void set_add(Sched *sc, int32_t g, int32_t w[2])
{
	if (scanset_has(&sc->live, g)) return;
	scanset_add(&sc->live, g);
	w[sc->wid[g] ? 0 : 1] += sc->wid[g] ? sc->wid[g] : 1;
}

static void set_del(Sched *sc, int32_t g, int32_t w[2])
{
	if (!scanset_has(&sc->live, g)) return;
	scanset_del(&sc->live, g);
	w[sc->wid[g] ? 0 : 1] -= sc->wid[g] ? sc->wid[g] : 1;
}

static int live_after(const Region *r, const Sched *sc, int32_t g)
{
	return sc->outmark[g] == r->id;
}

/* the exact peak of order ord: backward liveness from the registers live
   after the region; the point of an instruction counts its writes too.
   Leaves in sc->live the registers live before the region, which no legal
   order changes */
static Peak region_peak(const Region *r, Sched *sc, const int32_t *ord)
{
	int32_t w[2] = {0, 0};
	scanset_clear(&sc->live);
	for (int32_t j = 0; j < r->nout; j++) set_add(sc, r->out[j], w);
	Peak p = {w[0], w[1]};
	for (int32_t k = r->n - 1; k >= 0; k--) {
		int32_t i = ord[k], pt[2] = {w[0], w[1]};
		for (int32_t q = r->dstart[i]; q < r->dstart[i + 1]; q++) {
			int32_t g = r->dreg[q];
			int dup = scanset_has(&sc->live, g);
			for (int32_t z = r->dstart[i]; z < q && !dup; z++) dup = r->dreg[z] == g;
			if (!dup) pt[sc->wid[g] ? 0 : 1] += sc->wid[g] ? sc->wid[g] : 1;
		}
		if (pt[0] > p.gen) p.gen = pt[0];
		if (pt[1] > p.pred) p.pred = pt[1];
		for (int32_t q = r->dstart[i]; q < r->dstart[i + 1] && !r->guarded[i]; q++)
			set_del(sc, r->dreg[q], w);
		for (int32_t q = r->ustart[i]; q < r->ustart[i + 1]; q++) set_add(sc, r->ureg[q], w);
		if (w[0] > p.gen) p.gen = w[0];
		if (w[1] > p.pred) p.pred = w[1];
	}
	return p;            /* sc->live: live before the region, whatever the order */
}

/* ---- list scheduling --------------------------------------------------- */

typedef struct List {        /* state of one scheduling of a region */
	int32_t *left;           /* n: unscheduled dependence predecessors */
	int32_t *ready, nready;  /* instructions whose predecessors are all scheduled */
	int32_t *cnt;            /* n: unscheduled instructions of each deadline */
	int32_t cur;             /* general slots live now (forward, approximate) */
} List;

/* 1 if instruction i reads g for the last time in the region, and g dies */
static int ends(const Region *r, const Sched *sc, int32_t i, int32_t g)
{
	int32_t occ = 0;
	for (int32_t q = r->ustart[i]; q < r->ustart[i + 1]; q++) occ += r->ureg[q] == g;
	return occ && sc->rem[g] == occ && !live_after(r, sc, g) && scanset_has(&sc->live, g);
}

/* general slots instruction i would add to those live, less those it frees */
static int32_t delta(const Region *r, const Sched *sc, int32_t i)
{
	int32_t d = 0;
	for (int32_t q = r->ustart[i]; q < r->ustart[i + 1]; q++) {
		int32_t g = r->ureg[q], dup = 0;
		for (int32_t z = r->ustart[i]; z < q && !dup; z++) dup = r->ureg[z] == g;
		if (!dup && ends(r, sc, i, g)) d -= sc->wid[g];
	}
	for (int32_t q = r->dstart[i]; q < r->dstart[i + 1]; q++) {
		int32_t g = r->dreg[q], dup = 0;
		for (int32_t z = r->dstart[i]; z < q && !dup; z++) dup = r->dreg[z] == g;
		if (!dup && (!scanset_has(&sc->live, g) || ends(r, sc, i, g))) d += sc->wid[g];
	}
	return d;
}

/* 1 if scheduling x at position p still lets every instruction meet its
   deadline (unit-time tasks: EDF succeeds iff no deadline is overbooked) */
static int feasible(const Region *r, const List *ls, int32_t x, int32_t p)
{
	int32_t acc = 0;
	for (int32_t d = p; d < r->n; d++) {
		acc += ls->cnt[d] - (r->deadline[x] == d);
		if (acc > d - p) return 0;
	}
	return 1;
}

static int32_t choose(const Region *r, const Sched *sc, const List *ls, int32_t p, int32_t budget)
{
	int32_t edf = -1, org = -1;
	for (int32_t k = 0; k < ls->nready; k++) {
		int32_t x = ls->ready[k];
		if (edf < 0 || r->deadline[x] < r->deadline[edf] ||
		    (r->deadline[x] == r->deadline[edf] && x < edf))
			edf = x;
		if (org < 0 || x < org) org = x;
	}
	int32_t want = org;
	if (budget <= 0 || ls->cur + delta(r, sc, org) > budget) {
		int32_t bd = 0;
		want = -1;
		for (int32_t k = 0; k < ls->nready; k++) {
			int32_t x = ls->ready[k], d = delta(r, sc, x);
			if (want < 0 || d < bd || (d == bd && (r->deadline[x] < r->deadline[want] ||
			    (r->deadline[x] == r->deadline[want] && x < want))))
				want = x, bd = d;
		}
	}
	if (want != edf && !feasible(r, ls, want, p)) want = edf;
	return want;
}

/* x scheduled: the forward live set and counts follow */
static void retire(const Region *r, Sched *sc, List *ls, int32_t x)
{
	int32_t w[2] = {ls->cur, 0};
	for (int32_t q = r->ustart[x]; q < r->ustart[x + 1]; q++) sc->rem[r->ureg[q]]--;
	for (int32_t q = r->ustart[x]; q < r->ustart[x + 1]; q++) {
		int32_t g = r->ureg[q];
		if (!sc->rem[g] && !live_after(r, sc, g)) set_del(sc, g, w);
	}
	for (int32_t q = r->dstart[x]; q < r->dstart[x + 1]; q++) {
		int32_t g = r->dreg[q];
		if (sc->rem[g] || live_after(r, sc, g)) set_add(sc, g, w);
	}
	ls->cur = w[0];
	ls->cnt[r->deadline[x]]--;
	for (int32_t k = 0; k < ls->nready; k++)
		if (ls->ready[k] == x) ls->ready[k] = ls->ready[--ls->nready];
	for (int32_t k = r->sstart[x]; k < r->sstart[x + 1]; k++)
		if (!--ls->left[r->succ[k]]) ls->ready[ls->nready++] = r->succ[k];
}

/* a new order of the region into ord: nvcc's while the live slots stay
   within budget (<= 0: never), the one freeing the most slots beyond it */
static void list_init(const Region *r, Sched *sc, List *ls)
{
	memset(ls, 0, sizeof *ls);
	ls->left = xmalloc(sizeof(int32_t) * ((size_t)r->n + 1));
	ls->ready = xmalloc(sizeof(int32_t) * ((size_t)r->n + 1));
	ls->cnt = xcalloc((size_t)r->n + 1, sizeof(int32_t));
	memcpy(ls->left, r->npred, sizeof(int32_t) * (size_t)r->n);
	int32_t w[2] = {0, 0};
	scanset_clear(&sc->live);
	for (int32_t j = 0; j < r->nin; j++) set_add(sc, r->in[j], w);
	ls->cur = w[0];
	for (int32_t q = 0; q < r->ustart[r->n]; q++) sc->rem[r->ureg[q]]++;
	for (int32_t i = 0; i < r->n; i++) {
		ls->cnt[r->deadline[i]]++;
		if (!ls->left[i]) ls->ready[ls->nready++] = i;
	}
}

static void list_free(const Region *r, const Sched *sc, List *ls)
{
	for (int32_t q = 0; q < r->ustart[r->n]; q++) assert(!sc->rem[r->ureg[q]]);
	(void)sc;
	free(ls->left), free(ls->ready), free(ls->cnt);
}

/* a new order of the region into ord: nvcc's while the live slots stay
   within budget (<= 0: never), the one freeing the most slots beyond it */
static void region_order(const Region *r, Sched *sc, int32_t budget, int32_t *ord)
{
	List ls;
	list_init(r, sc, &ls);
	for (int32_t p = 0; p < r->n; p++) {
		assert(ls.nready > 0);
		int32_t x = choose(r, sc, &ls, p, budget);
		assert(r->deadline[x] >= p);
		ord[p] = x;
		retire(r, sc, &ls, x);
	}
	list_free(r, sc, &ls);
}

/* a latency-first order of the region into ord (sched_lat.c picks), the
   live slots kept within limit where the ready instructions allow */
static void region_order_lat(const Region *r, Sched *sc, int32_t limit, int32_t *ord)
{
	List ls;
	list_init(r, sc, &ls);
	LatState lt;
	sched_lat_init(&lt, r);
	for (int32_t p = 0; p < r->n; p++) {
		assert(ls.nready > 0);
		for (int32_t k = 0; k < ls.nready; k++)   /* operands cost nothing until read */
			lt.delta[ls.ready[k]] = sched_lat_operand(r, ls.ready[k]) ? 0
			                        : delta(r, sc, ls.ready[k]);
		int32_t x = sched_lat_pick(&lt, ls.ready, ls.nready, ls.cur, limit);
		ord[p] = x;
		sched_lat_issue(&lt, r, x);
		retire(r, sc, &ls, x);
	}
	sched_lat_free(&lt);
	list_free(r, sc, &ls);
	sched_lat_sink(r, ord);
}


/* ---- the pass ------------------------------------------------------------ */

/* the regions of f: [rs[k], re[k]); returns how many */
static int32_t regions_of(const Func *f, const Cfg *c, int32_t *rs, int32_t *re)
{
	uint8_t *brk = xcalloc((size_t)f->nins + 1, 1);
	for (int32_t k = 0; k < f->nlabel; k++)
		if (f->labels[k].ins >= 0 && f->labels[k].ins <= f->nins) brk[f->labels[k].ins] = 1;
	for (int32_t k = 0; k < f->nbpragma; k++)
		if (f->bpragmas[k].ins >= 0 && f->bpragmas[k].ins <= f->nins) brk[f->bpragmas[k].ins] = 1;
	int32_t nr = 0;
	for (int32_t b = 0; b < c->nblock; b++) {
		const Block *bk = &c->blocks[b];
		int32_t end = bk->last + 1;
		if (bk->term >= 0 &&
		    (op_info[f->ins[bk->term].op].flags & (OPF_BRANCH | OPF_RET | OPF_EXIT)))
			end = bk->term;
		int32_t s = bk->first;
		for (int32_t i = bk->first; i <= end; i++) {
			int cut = i == end || brk[i] ||
			          (op_info[f->ins[i].op].flags & (OPF_PSEUDO | OPF_RFOP));
			if (!cut) continue;
			if (i - s >= 2 && i - s <= MAXREGION) rs[nr] = s, re[nr++] = i;
			s = i < end && (op_info[f->ins[i].op].flags & (OPF_PSEUDO | OPF_RFOP)) ? i + 1 : i;
		}
	}
	free(brk);
	return nr;
}

static int region_init(Region *r, const Func *f, Sched *sc, int32_t k, int32_t s, int32_t e)
{
	memset(r, 0, sizeof *r);
	r->f = f, r->s = s, r->n = e - s, r->id = k;
	r->in = sc->breg + sc->bstart[2 * k];
	r->nin = sc->bstart[2 * k + 1] - sc->bstart[2 * k];
	r->out = sc->breg + sc->bstart[2 * k + 1];
	r->nout = sc->bstart[2 * k + 2] - sc->bstart[2 * k + 1];
	for (int32_t j = 0; j < r->nout; j++) sc->outmark[r->out[j]] = k;
	if (!region_operands(r)) return 0;
	region_deps(r, sc);
	return 1;
}

static void apply(Func *f, const Region *r, const int32_t *ord, SchedStats *st)
{
	Ins *tmp = xmalloc(sizeof(Ins) * (size_t)r->n);
	for (int32_t p = 0; p < r->n; p++) {
		tmp[p] = f->ins[r->s + ord[p]];
		st->moved += ord[p] != p;
	}
	memcpy(f->ins + r->s, tmp, sizeof(Ins) * (size_t)r->n);
	free(tmp);
	st->reordered++;
}

/* 1 if sc->live holds exactly the registers live before r: what any legal
   order leaves there */
static int live_before(const Region *r, Sched *sc)
{
	if (scanset_members(&sc->live, sc->mem) != r->nin) return 0;
	return !memcmp(sc->mem, r->in, sizeof(int32_t) * (size_t)r->nin);
}

typedef struct Pool { int32_t *v; size_t n, cap; } Pool;

/* the members of set into p; where they start */
static int32_t pool_put(Pool *p, const ScanSet *set, int32_t *len)
{
	VEC_RESERVE(p->v, p->cap, p->n + (size_t)set->words * 64);
	int32_t at = (int32_t)p->n;
	*len = scanset_members(set, p->v + p->n);
	p->n += (size_t)*len;
	return at;
}

/* sc->bstart, sc->breg: the registers live before and after each region
   [rs[k], re[k]), by a backward walk of each block from its live-out list
   (regions come in block order, ascending) with live.c's transfer: an
   unguarded write ends a value, a read starts one */
static void region_live(const Func *f, const Cfg *c, const LiveSets *ls, const int32_t *rs,
                        const int32_t *re, int32_t nr, Sched *sc)
{
	enum { MAXSLOT = 1 + INS_MAXOPD * 256 };
	int32_t *at = xmalloc(sizeof(int32_t) * ((size_t)nr * 4 + 1)), *len = at + 2 * nr;
	int32_t *buf = xmalloc(sizeof(int32_t) * MAXSLOT);
	Pool pool = {0};
	ScanSet *cur = &sc->live;
	for (int32_t b = 0, k = 0; b < c->nblock && k < nr; b++) {
		const Block *bb = &c->blocks[b];
		int32_t kb = k;
		while (k < nr && rs[k] <= bb->last) k++;
		scanset_clear(cur);
		for (int32_t q = ls->out_start[b]; q < ls->out_start[b + 1] && kb < k; q++)
			scanset_add(cur, ls->out[q]);
		for (int32_t i = bb->last, j = k - 1; j >= kb; i--) {
			if (i == re[j] - 1) at[2 * j + 1] = pool_put(&pool, cur, &len[2 * j + 1]);
			const Ins *in = &f->ins[i];
			int nd = in->guard < 0 ? live_defs(f, in, buf, MAXSLOT) : 0;
			for (int q = 0; q < nd; q++) scanset_del(cur, buf[q]);
			int nu = live_uses(f, in, buf, MAXSLOT);
			for (int q = 0; q < nu; q++) scanset_add(cur, buf[q]);
			if (i == rs[j]) at[2 * j] = pool_put(&pool, cur, &len[2 * j]), j--;
		}
	}
	sc->bstart = xmalloc(sizeof(int32_t) * ((size_t)nr * 2 + 1));
	sc->breg = xmalloc(sizeof(int32_t) * (pool.n + 1));
	sc->bstart[0] = 0;
	for (int32_t k = 0; k < 2 * nr; k++) {
		memcpy(sc->breg + sc->bstart[k], pool.v + at[k], sizeof(int32_t) * (size_t)len[k]);
		sc->bstart[k + 1] = sc->bstart[k] + len[k];
	}
	scanset_clear(cur);
	free(at), free(buf), free(pool.v);
}

/* the better order of region k: new peak into *got, 1 if it beats nvcc's */
static int better(const Region *r, Sched *sc, int32_t budget, Peak p0, int32_t npred,
                  int32_t *ord, Peak *got)
{
	region_order(r, sc, budget, ord);
	*got = region_peak(r, sc, ord);
	assert(live_before(r, sc));
	int32_t plim = p0.pred > npred ? p0.pred : npred;
	return got->gen < p0.gen && got->pred <= plim;
}

/* the least peak the pressure heuristic reaches in the worst region of f:
   what no order of this pass goes below */
static int32_t least_peak(Func *f, Sched *sc, const int32_t *rs, const int32_t *re, int32_t nr,
                          int32_t npred, int32_t *ord, const int32_t *id)
{
	int32_t budget = 0;
	for (int32_t k = 0; k < nr; k++) {
		Region r;
		Peak got;
		if (region_init(&r, f, sc, k, rs[k], re[k])) {
			Peak p0 = region_peak(&r, sc, id);
			int32_t least = better(&r, sc, 0, p0, npred, ord, &got) ? got.gen : p0.gen;
			if (least > budget) budget = least;
		}
		region_free(&r);
	}
	return budget;
}

/* latency mode: each region takes the latency-first order, within the
   function's least peak plus LAT_SLACK slots, unless that would hold more
   predicates live than there are and than nvcc's order does */
static void latency_pass(Func *f, Sched *sc, const int32_t *rs, const int32_t *re, int32_t nr,
                         int32_t npred, int32_t *ord, const int32_t *id, SchedStats *st)
{
	int32_t limit = least_peak(f, sc, rs, re, nr, npred, ord, id) + LAT_SLACK;
	for (int32_t k = 0; k < nr; k++) {
		Region r;
		if (!region_init(&r, f, sc, k, rs[k], re[k])) {
			region_free(&r);
			continue;
		}
		Peak p0 = region_peak(&r, sc, id), got = p0;
		region_order_lat(&r, sc, limit, ord);
		int same = 1;
		for (int32_t p = 0; p < r.n && same; p++) same = ord[p] == p;
		if (!same) {
			got = region_peak(&r, sc, ord);
			assert(live_before(&r, sc));
			if (got.pred <= (p0.pred > npred ? p0.pred : npred)) apply(f, &r, ord, st);
			else got = p0;
		}
		if (p0.gen > st->peak_before) st->peak_before = p0.gen;
		if (got.gen > st->peak_after) st->peak_after = got.gen;
		region_free(&r);
	}
}

/* pressure mode: the least peak the heuristic reaches in any region is the
   budget; every region above it is brought down to it (see the essay) */
static void pressure_pass(Func *f, Sched *sc, const int32_t *rs, const int32_t *re, int32_t nr,
                          int32_t npred, int32_t *ord, const int32_t *id, SchedStats *st)
{
	Peak *p0 = xcalloc((size_t)nr + 1, sizeof(Peak));
	int32_t budget = 0;
	/* pass 1: nvcc's peaks, and the least this heuristic reaches: the budget */
	for (int32_t k = 0; k < nr; k++) {
		Region r;
		Peak got;
		if (!region_init(&r, f, sc, k, rs[k], re[k])) {
			p0[k].gen = -1;         /* left alone: too many operands */
			region_free(&r);
			continue;
		}
		p0[k] = region_peak(&r, sc, id);
		int32_t least = better(&r, sc, 0, p0[k], npred, ord, &got) ? got.gen : p0[k].gen;
		if (least > budget) budget = least;
		if (p0[k].gen > st->peak_before) st->peak_before = p0[k].gen;
		region_free(&r);
	}
	/* pass 2: every region above the budget gets down to it */
	st->peak_after = 0;
	for (int32_t k = 0; k < nr; k++) {
		Region r;
		Peak got = p0[k];
		if (p0[k].gen > budget && region_init(&r, f, sc, k, rs[k], re[k])) {
			region_peak(&r, sc, id);
			if (better(&r, sc, budget, p0[k], npred, ord, &got) && got.gen <= budget)
				apply(f, &r, ord, st);
			else if (region_peak(&r, sc, id),
			         better(&r, sc, 0, p0[k], npred, ord, &got))
				apply(f, &r, ord, st);
			else
				got = p0[k];
			region_free(&r);
		}
		if (got.gen > st->peak_after) st->peak_after = got.gen;
	}
	free(p0);
}

void schedule_func(Func *f, int mode, int32_t npred, SchedStats *st)
{
	SchedStats z = {0};
	if (!st) st = &z;
	memset(st, 0, sizeof *st);
	if (f->nins < 2) return;
	Cfg *c = cfg_build(f);
	LiveSets *l = live_sets(c);
	Sched sc = {0};
	sc.mode = mode;
	size_t nreg = (size_t)f->nreg + 1;
	sc.wid = xmalloc(nreg);
	for (int32_t g = 0; g < f->nreg; g++) sc.wid[g] = (uint8_t)ra_reg_width(f->regtype[g]);
	sc.rem = xcalloc(nreg, sizeof(int32_t));
	sc.lastdef = xmalloc(sizeof(int32_t) * nreg);
	sc.rdhead = xmalloc(sizeof(int32_t) * nreg);
	for (size_t g = 0; g < nreg; g++) sc.lastdef[g] = sc.rdhead[g] = -1;
	scanset_init(&sc.live, f->nreg);
	sc.mem = xmalloc(sizeof(int32_t) * nreg);
	sc.outmark = xmalloc(sizeof(int32_t) * nreg);
	for (size_t g = 0; g < nreg; g++) sc.outmark[g] = -1;
	int32_t *rs = xmalloc(sizeof(int32_t) * ((size_t)f->nins + 1));
	int32_t *re = xmalloc(sizeof(int32_t) * ((size_t)f->nins + 1));
	int32_t nr = regions_of(f, c, rs, re);
	region_live(f, c, l, rs, re, nr, &sc);
	live_sets_free(l);
	int32_t *ord = xmalloc(sizeof(int32_t) * ((size_t)f->nins + 1));
	int32_t *id = xmalloc(sizeof(int32_t) * ((size_t)f->nins + 1));
	for (int32_t i = 0; i < f->nins; i++) id[i] = i;
	st->regions = nr;
	if (mode == SCHED_LATENCY) latency_pass(f, &sc, rs, re, nr, npred, ord, id, st);
	else pressure_pass(f, &sc, rs, re, nr, npred, ord, id, st);
	free(ord), free(id), free(rs), free(re);
	free(sc.wid), free(sc.rem), free(sc.lastdef), free(sc.rdhead), free(sc.mem);
	free(sc.outmark), free(sc.bstart), free(sc.breg);
	scanset_free(&sc.live);
	cfg_free(c);
}
