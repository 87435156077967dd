/*
 * sched_lat.c -- latency-first list scheduling inside basic blocks
 * (compiler.schedule = latency; schedule.c builds the regions and their
 * register dependences and calls in here).
 *
 * ptxas schedules for latency before it allocates registers: loads are
 * issued as early as their addresses allow and independent long-latency
 * operations start as soon as possible, so values wait in registers for
 * their consumers and live ranges grow (issue 21: lud_internal's eight
 * shared loads of one unrolled iteration are all in flight before the
 * first fma, 16 live registers where nvcc's order needs 12).  Register
 * counts taken from nvcc's order, or from an order that lowers pressure,
 * miss that, and with it occupancy on a real GPU.
 *
 * Memory dependences.  Pure ALU, SFU and conversion instructions move as in
 * the pressure mode.  Plain loads (ld and ldu without .volatile or memory-
 * order qualifiers, tex, tld4) and plain stores (st, likewise) move too,
 * within these memory dependences: loads pass loads; a load and a store,
 * or two stores, keep their order unless they cannot overlap -- different
 * state spaces (generic meets global, shared and local), a read-only
 * space (const, the kernel's parameters), or the same base register
 * holding the same value (no write of it between them within the region)
 * or the same variable, with disjoint byte ranges, as ptxas sees
 * [R2.64+0x4] and [R2.64+0x8] apart.  Every other instruction with op
 * flags (barriers, fences, atomics, warp collectives, calls, cp.async,
 * mma, mbarrier, surfaces, volatile accesses, reads of the clock) orders
 * all memory accesses around it and keeps its order with the others.
 *
 * The scheduler.  Critical-path list scheduling, cycle by cycle (Gibbons
 * and Muchnick, "Efficient instruction scheduling for a pipelined
 * architecture", SIGPLAN 1986): an instruction's height is the longest
 * latency-weighted path from it to the region's end; each cycle issues,
 * of the instructions whose operands have arrived, a store first (it
 * frees its data; ptxas interleaves stores with the work that feeds
 * them), otherwise the greatest height, ties in nvcc's order; when none
 * has arrived the one that arrives first issues, its wait a stall.  The
 * latencies are a model of an sm_80-class SM as a compiler assumes it,
 * not the timing model's (pipe.* keys) -- the order must not depend on
 * the config being simulated: ALU 4 cycles, f64 8, SFU 16, tensor 32,
 * warp shuffles and votes 24, shared loads 24, global, local, generic and
 * texture loads and atomics 200, a kernel parameter 1 (ptxas reads it as a
 * constant-bank operand), other constant loads 8.
 *
 * Registers.  The caller (schedule.c) gives a limit: an instruction that
 * would raise the live slots above it waits while one within it is ready
 * (the first to arrive of those, if none has arrived), and when none is,
 * the one adding the fewest issues.  Loads of kernel parameters, movs of
 * constants and addresses and conversions to global addresses count as
 * adding nothing: once the order is chosen, sched_lat_sink() moves each to
 * just before the first instruction that depends on it, as SASS reads
 * them as operands (c[0x0][0x160], immediates; cvta.to.global is the
 * identity), so they hold a register only while read.
 *
 * Measured against `ptxas -v -arch=sm_80` on the repository's PTX
 * (docs/workloads.md): a model, not ptxas -- ptxas also folds constants,
 * unrolls further, keeps warp-uniform values in uniform registers and
 * picks registers its own way.  Left out: moving instructions across
 * blocks, a resource model of the issue slots, and alias analysis beyond
 * one base register or variable.
 */
#include "analysis/sched_int.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

enum { MC_NONE, MC_LOAD, MC_STORE, MC_ORDER };   /* memory classes */

enum {                       /* latencies of the model (cycles; see the essay) */
	LAT_ALU = 4, LAT_DP = 8, LAT_SFU = 16, LAT_TENSOR = 32, LAT_WARP = 24,
	LAT_SHARED = 24, LAT_GLOBAL = 200, LAT_KPARAM = 1, LAT_CONST = 8,
	MAXACC = 256             /* memory accesses tracked between ordering ones */
};

static int clock_sreg(int32_t r)
{
	return r == SR_CLOCK || r == SR_CLOCK_HI || r == SR_CLOCK64 || r == SR_GLOBALTIMER ||
	       r == SR_GLOBALTIMER_LO || r == SR_GLOBALTIMER_HI || r == SR_PM;
}

static int plain(const Ins *in)
{
	return !(in->mods & (MOD_VOLATILE | MOD_RELAXED | MOD_ACQUIRE | MOD_RELEASE |
	                     MOD_ACQ_REL | MOD_SC | MOD_MMIO));
}

static int mem_class(const Ins *in)
{
	const OpInfo *oi = &op_info[in->op];
	if (!oi->flags) {
		for (int k = 0; k < in->nd + in->ns; k++)
			if (in->o[k].kind == OPK_SREG && clock_sreg(in->o[k].reg)) return MC_ORDER;
		return MC_NONE;
	}
	if ((in->op == OP_LD || in->op == OP_LDU) && plain(in)) return MC_LOAD;
	if (in->op == OP_TEX || in->op == OP_TLD4) return MC_LOAD;
	if (in->op == OP_ST && plain(in)) return MC_STORE;
	return MC_ORDER;
}

int sched_lat_movable(const Func *f, const Ins *in)
{
	(void)f;
	int c = mem_class(in);
	return c == MC_LOAD || c == MC_STORE;
}

static const Operand *addr_of(const Ins *in)
{
	for (int k = 0; k < in->nd + in->ns; k++)
		if (in->o[k].kind == OPK_ADDR) return &in->o[k];
	return NULL;
}

/* 1 if in reads one of f's kernel parameters by name (read-only) */
static int kparam(const Func *f, const Ins *in)
{
	const Operand *a = addr_of(in);
	if (!(f->attr & ATTR_ENTRY) || in->space != SP_PARAM || !a || !(a->flags & OPDF_SYMBASE))
		return 0;
	for (int32_t i = 0; i < f->nparam; i++)
		if (f->params[i] == a->reg) return 1;
	return 0;
}

int32_t sched_lat_of(const Func *f, const Ins *in)
{
	const OpInfo *oi = &op_info[in->op];
	if (oi->flags & OPF_LOAD) {
		if (kparam(f, in)) return LAT_KPARAM;
		if (in->space == SP_SHARED) return LAT_SHARED;
		if (in->space == SP_CONST || in->space == SP_PARAM) return LAT_CONST;
		return LAT_GLOBAL;
	}
	if (oi->flags & OPF_WARP) return LAT_WARP;
	if (oi->unit == UNIT_TENSOR) return LAT_TENSOR;
	if (oi->unit == UNIT_SFU) return LAT_SFU;
	if (oi->unit == UNIT_DP || in->type == PT_F64) return LAT_DP;
	return LAT_ALU;
}

/* ---- memory dependences ---------------------------------------------------- */

void sched_mem_init(MemDeps *md, int32_t n)
{
	memset(md, 0, sizeof *md);
	md->last_order = -1;
	md->acc = xmalloc(sizeof(int32_t) * (MAXACC + 1));
	md->ver = xmalloc(sizeof(int32_t) * ((size_t)n + 1));
}

void sched_mem_free(MemDeps *md)
{
	free(md->acc), free(md->ver);
	memset(md, 0, sizeof *md);
}

static int space_of(const Ins *in)
{
	if (in->op == OP_TEX || in->op == OP_TLD4) return SP_NONE;   /* may read global */
	return in->space == SP_SHARED_CLUSTER ? SP_SHARED : in->space;
}

static int32_t bytes_of(const Ins *in)
{
	int32_t b = ptxtype_size((PtxType)in->type);
	return b * (in->vec ? in->vec : 1);
}

/* 1 if local instructions a (earlier) and b may touch the same bytes, one
   of them a store */
static int may_alias(const Region *r, const MemDeps *md, int32_t a, int32_t b)
{
	const Ins *x = &r->f->ins[r->s + a], *y = &r->f->ins[r->s + b];
	if (kparam(r->f, x) || kparam(r->f, y)) return 0;
	int sx = space_of(x), sy = space_of(y);
	if (sx == SP_CONST || sy == SP_CONST) return 0;
	if (sx != SP_NONE && sy != SP_NONE && sx != sy) return 0;
	const Operand *p = addr_of(x), *q = addr_of(y);
	if (!p || !q || (p->flags & OPDF_SYMBASE) != (q->flags & OPDF_SYMBASE)) return 1;
	int sym = (p->flags & OPDF_SYMBASE) != 0;
	if (sym && p->reg != q->reg) return 0;      /* two variables */
	if (p->reg != q->reg || (!sym && p->reg >= 0 && md->ver[a] != md->ver[b])) return 1;
	int32_t nx = bytes_of(x), ny = bytes_of(y);
	if (nx <= 0 || ny <= 0) return 1;
	return p->imm < q->imm + ny && q->imm < p->imm + nx;
}

void sched_mem_edges(const Region *r, MemDeps *md, int32_t i, Edges *e)
{
	const Ins *in = &r->f->ins[r->s + i];
	int c = mem_class(in);
	if (c == MC_NONE) return;
	if (c != MC_ORDER && md->nacc == MAXACC) c = MC_ORDER;
	sched_edge(e, md->last_order, i, 1);
	for (int32_t k = 0; k < md->nacc; k++) {
		int32_t a = md->acc[k];
		int ca = mem_class(&r->f->ins[r->s + a]);
		if (c == MC_ORDER || ((c == MC_STORE || ca == MC_STORE) && may_alias(r, md, a, i)))
			sched_edge(e, a, i, 1);
	}
	if (c == MC_ORDER) md->last_order = i, md->nacc = 0;
	else md->acc[md->nacc++] = i;
}

/* ---- the list scheduler ---------------------------------------------------- */

/* a ranks before b among instructions that can issue now */
static int before(const LatState *lt, int32_t a, int32_t b)
{
	if (lt->store[a] != lt->store[b]) return lt->store[a];
	if (lt->height[a] != lt->height[b]) return lt->height[a] > lt->height[b];
	return a < b;
}

void sched_lat_init(LatState *lt, const Region *r)
{
	size_t n1 = (size_t)r->n + 1;
	lt->height = xmalloc(sizeof(int32_t) * n1);
	lt->at = xcalloc(n1, sizeof(int64_t));
	lt->delta = xcalloc(n1, sizeof(int32_t));
	lt->store = xmalloc(n1);
	lt->cycle = 0;
	for (int32_t i = r->n - 1; i >= 0; i--) {
		const Ins *in = &r->f->ins[r->s + i];
		int32_t h = sched_lat_of(r->f, in);
		for (int32_t k = r->sstart[i]; k < r->sstart[i + 1]; k++)
			if (r->slat[k] + lt->height[r->succ[k]] > h) h = r->slat[k] + lt->height[r->succ[k]];
		lt->height[i] = h;
		lt->store[i] = mem_class(in) == MC_STORE;
	}
}

void sched_lat_free(LatState *lt)
{
	free(lt->height), free(lt->at), free(lt->delta), free(lt->store);
	memset(lt, 0, sizeof *lt);
}

/* of the ready instructions within the limit, the best whose operands have
   arrived, else the first to arrive; if none is within the limit, the one
   that adds the fewest slots */
int32_t sched_lat_pick(const LatState *lt, const int32_t *ready, int32_t nready, int32_t cur,
                       int32_t limit)
{
	int32_t best = -1, first = -1, least = -1;
	for (int32_t k = 0; k < nready; k++) {
		int32_t x = ready[k];
		if (least < 0 || lt->delta[x] < lt->delta[least] ||
		    (lt->delta[x] == lt->delta[least] && before(lt, x, least)))
			least = x;
		if (cur + lt->delta[x] > limit) continue;
		if (lt->at[x] <= lt->cycle && (best < 0 || before(lt, x, best))) best = x;
		if (first < 0 || lt->at[x] < lt->at[first] ||
		    (lt->at[x] == lt->at[first] && before(lt, x, first)))
			first = x;
	}
	return best >= 0 ? best : first >= 0 ? first : least;
}

void sched_lat_issue(LatState *lt, const Region *r, int32_t x)
{
	if (lt->at[x] > lt->cycle) lt->cycle = lt->at[x];
	for (int32_t k = r->sstart[x]; k < r->sstart[x + 1]; k++) {
		int32_t s = r->succ[k];
		if (lt->cycle + r->slat[k] > lt->at[s]) lt->at[s] = lt->cycle + r->slat[k];
	}
	lt->cycle++;
}

/* ---- operands ------------------------------------------------------------ */

/* 1 if local instruction i is what SASS reads as an operand: a load of a
   kernel parameter (remat.c's copies; c[0x0][..]), a constant or a
   variable's address (remat.c's copies of mov: an immediate, an address
   offset, c[0x4][..]) or a conversion to a global address (the identity
   on the GPU) */
int sched_lat_operand(const Region *r, int32_t i)
{
	const Ins *in = &r->f->ins[r->s + i];
	if (in->guard >= 0) return 0;
	if (in->op == OP_LD) return kparam(r->f, in);
	if (in->op == OP_MOV)
		return in->nd == 1 && in->ns == 1 && !in->vec &&
		       (in->o[1].kind == OPK_IMM || in->o[1].kind == OPK_SYM);
	return in->op == OP_CVTA && (in->mods & MOD_TO) && in->space == SP_GLOBAL;
}

typedef struct Key { int64_t k; int32_t i; } Key;

static int key_cmp(const void *a, const void *b)
{
	const Key *x = a, *y = b;
	if (x->k != y->k) return x->k < y->k ? -1 : 1;
	return x->i - y->i;
}

void sched_lat_sink(const Region *r, int32_t *ord)
{
	Key *key = xmalloc(sizeof(Key) * ((size_t)r->n + 1));
	int64_t *at = xmalloc(sizeof(int64_t) * ((size_t)r->n + 1));
	for (int32_t p = 0; p < r->n; p++) at[ord[p]] = 4 * (int64_t)p;
	for (int32_t i = r->n - 1; i >= 0; i--) {      /* successors first: they come later */
		if (!sched_lat_operand(r, i) || r->sstart[i] == r->sstart[i + 1]) continue;
		int64_t k = INT64_MAX;
		for (int32_t q = r->sstart[i]; q < r->sstart[i + 1]; q++)
			if (at[r->succ[q]] < k) k = at[r->succ[q]];
		at[i] = k - 1;               /* just before every dependent: legal by construction */
	}
	for (int32_t p = 0; p < r->n; p++) key[p] = (Key){at[ord[p]], ord[p]};
	qsort(key, (size_t)r->n, sizeof(Key), key_cmp);
	for (int32_t p = 0; p < r->n; p++) ord[p] = key[p].i;
	free(key), free(at);
}
