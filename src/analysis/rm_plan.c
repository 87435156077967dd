/*
 * rm_plan.c -- RegMutex steps 3 and 4 (regmutex.md section III-A3, III-A4):
 * acquire/release injection and the code motion of architected register
 * index compaction, on allocated code, for a given base set size |Bs|.
 *
 * Modes.  Each instruction is acquired (A) or released (R).  It is A when
 * it needs more than |Bs| registers (regmutex_need: warp-level liveness in
 * 32-bit slots).  Then, to a fixpoint:
 *   loops     a loop with an A point and no CTA barrier becomes A whole:
 *             a release and an acquire in every iteration would cost their
 *             compaction moves and the release's wait each time round.  On
 *             fermi-gtx480 (GTO) tpacf's search loops, acquired each round,
 *             took 1.35x the baseline's cycles; each loop acquired whole,
 *             1.016x; the loop around them acquired whole (its barriers
 *             are in the loop outside it), 0.983x.  Except a loop whose R
 *             code waits for long-latency loads (global, local, generic
 *             memory): releasing for that wait is what time-sharing is for,
 *             the other warps taking the sections meanwhile.  cfd's flux
 *             loop (its neighbours' gathers released, the flux arithmetic
 *             acquired) went from 1.004x the baseline's cycles to 0.923x;
 *             tpacf's loops load from constant and shared memory and stay
 *             whole.
 *   loads     a memory load in R code whose result, in an extended
 *             register, is live where the code turns A becomes A (and so
 *             does what lies between): the move into the original slot
 *             after the acquire would otherwise wait for the load and hold
 *             back the loads behind it (pull_loads).
 *   divergence  the hardware's mode is per warp, and a release drops the
 *             extended set of every lane, so lanes waiting while others run
 *             must not hold values there when a release runs.  For each
 *             divergent branch (guarded bra without .uni) in block b, with
 *             reconvergence point p = ipdom(b) and region R(b) (the blocks
 *             reachable from b's successors without passing p): if the
 *             branch is R and p starts R (or p is the exit), acquired
 *             stretches inside R(b) are safe as they are -- the lanes of
 *             the other side wait at the start of their path released,
 *             those done wait at p released (their stretches release on the
 *             way out, never at p's head), and the lanes running next find
 *             the warp released, as their code assumes; section III makes
 *             acquire and release "flexible ... within conditional code"
 *             this way.  Otherwise (the branch is A, or R(b) has an A point
 *             and p starts A) all of R(b) and the branch become A, so no
 *             release runs inside the region and its lanes wait at p
 *             acquired.  p releases at its head only if all its lanes are
 *             there by then, so p's first instruction becomes A when some
 *             predecessor of p leaves released, when p is the entry, or when
 *             another divergent branch reconverging at p is taken released:
 *             its lanes would release on their way to p, under those waiting
 *             there (CUB's DeviceReduceSingleTileKernel: a loop's exits, A,
 *             reconverge where the branch around the loop, R, does).  Unless
 *             p starts with an exit or a CTA barrier, which cannot run
 *             acquired: then the regions of every divergent branch
 *             reconverging at p are closed too, so all lanes arrive
 *             acquired and p releases at its head.
 * A region holding a CTA barrier is taken as uniform (CUDA requires every
 * thread to reach a __syncthreads, so no branch around one diverges) and
 * not closed.  A CTA barrier must stay R (deadlock rule 2); a |Bs| for
 * which it cannot is rejected.
 *
 * Placement.  The code of a mode change sits where the change is: between
 * two instructions of a block; on a CFG edge -- after the block for a
 * fall-through, in a trampoline appended to the function (label, code,
 * bra.uni to the target) for a taken branch, which is retargeted; or at the
 * head of a block entered released from predecessors that are all acquired.
 * R->A is `rfsim.acquire` then the moves into the original slots; A->R the
 * moves into the homes then `rfsim.release`.  Every path into an A point
 * crosses exactly one R->A change since its last A->R change (the modes
 * are a function of the point, and every change emits its directive), so
 * no path acquires twice or releases twice.  Releases are safe for a
 * diverged warp: an A->R change inside a divergent region lies only in a
 * region entered and left released (above), and a reconvergence point of a
 * closed region is released at its head, after the lanes have met.  An
 * acquire run by some lanes only is harmless: the others wait at R points,
 * whose values sit in the base set, or hold the set their own path
 * acquired, and an acquire of an acquired warp does nothing (section III).
 *
 * Check and fallback.  regmutex_apply runs rm_check.c on the result.  A
 * placement that fails it (a bug here) is undone and placed again with
 * every divergent region that holds an A point acquired whole, the branch
 * included, and its reconvergence point's first instruction A: no region
 * is then entered or left released around acquired code, so no release
 * runs while lanes of a region wait.  If that fails too, |Bs| is refused
 * as one breaking a deadlock rule is: the heuristic tries a smaller |Es|
 * or gives the kernel none, saying why.  The pass never stops on a kernel.
 *
 * Compaction (rm_home.c gives the homes).  Inside A code every register
 * keeps its slot; in R code each value of an extended register (a piece of
 * a web: a run of R points in one block) is renamed to its home.  The moves of a change, or
 * of an R->R edge whose pieces have different homes, form a parallel copy:
 * a move goes once no pending move reads its destination; a cycle is
 * broken with three xors (per 32-bit slot when the widths differ).  Moves
 * carry only what per-thread liveness says is live: each lane owns its
 * registers, and a lane that waits keeps its own values where its own
 * mode put them.  When some piece finds no home, the instructions where it
 * lives become A and the plan restarts (it ends: A only grows).
 *
 * Left out: kernels with calls (the callee's frame would need the same
 * treatment) and extended registers wider than 64 bits.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/regmutex.h"
#include "analysis/rm_int.h"
#include "base/base.h"

static int divergent(const Cfg *c, int32_t b)
{
	const Block *bb = &c->blocks[b];
	if (bb->term < 0 || bb->nsucc < 2) return 0;
	const Ins *in = &c->f->ins[bb->term];
	return in->op == OP_BRA && in->guard >= 0 && !(in->mods & MOD_UNI);
}

/* mode on entry to / exit from block b */
static int entry_mode(const Plan *p, int32_t b) { return p->M[p->c->blocks[b].first]; }
static int exit_mode(const Plan *p, int32_t b) { return p->M[p->c->blocks[b].last]; }

static int any_a(const Plan *p, int32_t b)
{
	for (int32_t i = p->c->blocks[b].first; i <= p->c->blocks[b].last; i++)
		if (p->M[i]) return 1;
	return 0;
}

static int set_a(Plan *p, int32_t from, int32_t to)
{
	int ch = 0;
	for (int32_t i = from; i <= to; i++)
		if (!p->M[i]) p->M[i] = 1, ch = 1;
	return ch;
}

/* region of divergent branch b into mark (1 = in R(b)); 1 if it holds a barrier */
static int region(const Plan *p, int32_t b, uint8_t *mark, int32_t *stk)
{
	const Cfg *c = p->c;
	int32_t pd = c->ipdom[b], sp = 0, hasbar = 0;
	memset(mark, 0, (size_t)p->nb + 1);
	for (int32_t k = 0; k < c->blocks[b].nsucc; k++) stk[sp++] = c->blocks[b].succ[k];
	while (sp) {
		int32_t x = stk[--sp];
		if (x == pd || x == c->exit || mark[x]) continue;
		mark[x] = 1;
		hasbar |= p->bar[x];
		for (int32_t k = 0; k < c->blocks[x].nsucc; k++) stk[sp++] = c->blocks[x].succ[k];
	}
	return hasbar;
}

/* some divergent branch reconverging at v, not taken as uniform, is taken
   released: its lanes may release on their way to v (an acquired stretch
   in its region releases on the way out) while other lanes wait at v */
static int open_at(const Plan *p, int32_t v)
{
	const Cfg *c = p->c;
	for (int32_t s = 0; s < p->nb; s++)
		if (c->ipdom[s] == v && divergent(c, s) && !p->uni[s] && !p->M[c->blocks[s].term])
			return 1;
	return 0;
}

/* block b starts with its function's exit (ret or exit) or a CTA barrier:
   an instruction that cannot run acquired */
static int stays_released(const Plan *p, int32_t b)
{
	const Block *bb = &p->c->blocks[b];
	if (bb->first > bb->last) return 0;
	const Ins *in = &p->f->ins[bb->first];
	return rm_cta_wait(in) || ((op_info[in->op].flags & (OPF_RET | OPF_EXIT)) && in->guard < 0);
}

/* b's region is closed and reconverges at a block that must start released
   (an exit: the section would stay taken until the CTA left; a barrier:
   deadlock rule 2): so are the regions of the other divergent branches
   reconverging there, so that every lane arrives acquired and the block
   releases at its head */
static int close_siblings(Plan *p, int32_t b)
{
	const Cfg *c = p->c;
	int32_t pd = c->ipdom[b], ch = 0;
	uint8_t *mark = xmalloc((size_t)p->nb + 1);
	int32_t *stk = xmalloc(sizeof(int32_t) * ((size_t)c->nblock * 4 + 8));
	for (int32_t s = 0; s < p->nb; s++) {
		if (s == b || c->ipdom[s] != pd || !divergent(c, s) || p->uni[s]) continue;
		region(p, s, mark, stk);
		for (int32_t x = 0; x < p->nb; x++)
			if (mark[x]) ch |= set_a(p, c->blocks[x].first, c->blocks[x].last);
		ch |= set_a(p, c->blocks[s].term, c->blocks[s].last);
	}
	free(mark);
	free(stk);
	return ch;
}

/* one closure step for divergent branch b; 1 if a mode changed */
static int close_one(Plan *p, int32_t b, const uint8_t *mark)
{
	const Cfg *c = p->c;
	const Block *bb = &c->blocks[b];
	int32_t pd = c->ipdom[b];
	int any = 0, ch = 0, late = pd == 0;     /* the entry block is entered released */
	for (int32_t x = 0; x < p->nb && !any; x++) any = mark[x] && any_a(p, x);
	/* released at the branch and at the reconvergence point: acquired
	   stretches inside the region need no closure */
	if (!p->M[bb->term] && (!any || (!p->whole && (pd == c->exit || !entry_mode(p, pd)))))
		return 0;
	for (int32_t x = 0; x < p->nb; x++)
		if (mark[x]) ch |= set_a(p, c->blocks[x].first, c->blocks[x].last);
	ch |= set_a(p, bb->term, bb->last);
	if (pd == c->exit) return ch;
	/* the region's lanes wait at pd acquired: pd releases at its head
	   (head()) only if no predecessor leaves released and no other branch
	   reconverging at pd is taken released, whose lanes would release on
	   their way to pd while ours wait there, values in the extended set */
	if (stays_released(p, pd)) ch |= close_siblings(p, b);
	else late = late || p->whole || open_at(p, pd);
	for (int32_t k = 0; k < c->blocks[pd].npred; k++)
		late |= !exit_mode(p, c->blocks[pd].pred[k]);
	if (late) ch |= set_a(p, c->blocks[pd].first, c->blocks[pd].first);
	return ch;
}

/* pseudos after a block's transfer take its mode (code after a branch would
   run on the fall-through only) */
static void tails(Plan *p)
{
	for (int32_t b = 0; b < p->nb; b++) {
		const Block *bb = &p->c->blocks[b];
		for (int32_t i = bb->term + 1; bb->term >= 0 && i <= bb->last; i++) p->M[i] = p->M[bb->term];
	}
}

/* a load whose wait is long: global, local or generic memory, textures */
static int long_load(const Ins *x)
{
	return (op_info[x->op].flags & OPF_LOAD) && x->op != OP_MBAR_TEST && x->op != OP_MBAR_TRY &&
	       x->op != OP_MBAR_ARRIVE && x->op != OP_MBAR_DROP &&
	       (x->space == SP_GLOBAL || x->space == SP_LOCAL || x->space == SP_NONE);
}

/* a loop holding an acquired point and no CTA barrier is acquired whole:
   an acquire and a release in every iteration would cost their moves and
   the release's wait each time round -- unless its released code waits for
   long-latency loads: there the warp gives its extended set back for the
   wait, which is when the other warps can use it */
static int hoist_loops(Plan *p)
{
	const Cfg *c = p->c;
	int ch = 0;
	for (int32_t l = 0; l < c->nloop; l++) {
		const Loop *lp = &c->loops[l];
		int any = 0, bar = 0, slow = 0;
		for (int32_t b = lp->lo; b <= lp->hi && b < p->nb; b++) {
			if (!cfg_in_loop(c, l, b)) continue;
			any |= any_a(p, b), bar |= p->bar[b];
			for (int32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++)
				slow |= !p->M[i] && long_load(&p->f->ins[i]);
		}
		if (!any || bar || slow) continue;
		for (int32_t b = lp->lo; b <= lp->hi && b < p->nb; b++)
			if (cfg_in_loop(c, l, b)) ch |= set_a(p, c->blocks[b].first, c->blocks[b].last);
	}
	return ch;
}

/* a memory load in released code whose result, in an extended register, is
   live where the code becomes acquired is acquired itself: otherwise the
   compaction move after the acquire would read the load's result and stall
   the warp until it arrived, holding its later instructions (the loads
   after it among them) behind the wait -- with the extended set taken all
   the same */
static int pull_loads(Plan *p)
{
	const Cfg *c = p->c;
	const Func *f = p->f;
	int ch = 0;
	int32_t regs[RA_MAXSLOT];
	for (int32_t b = 0; b < p->nb; b++) {
		const Block *bb = &c->blocks[b];
		for (int32_t i = bb->first + 1; i <= bb->last; i++) {
			if (!p->M[i] || p->M[i - 1]) continue;
			const uint64_t *in = live_in(p->lt, i);
			for (int32_t k = i - 1; k >= bb->first; k--) {
				const Ins *x = &f->ins[k];
				if (rm_cta_wait(x)) break;                /* deadlock rule 2 */
				if (!(op_info[x->op].flags & OPF_LOAD) || x->space == SP_PARAM) continue;
				int n = live_defs(f, x, regs, RA_MAXSLOT), hit = 0;
				for (int j = 0; j < n && j < RA_MAXSLOT; j++)
					hit |= p->ext[regs[j]] && live_has(in, regs[j]);
				if (hit) {
					ch |= set_a(p, k, i - 1);
					break;
				}
			}
		}
	}
	return ch;
}

/* the divergence closure of the modes; 0 if a barrier became acquired */
static int close_modes(Plan *p)
{
	const Cfg *c = p->c;
	uint8_t *mark = xmalloc((size_t)p->nb + 1);
	int32_t *stk = xmalloc(sizeof(int32_t) * ((size_t)c->nblock * 4 + 8));
	for (int changed = 1; changed;) {
		changed = hoist_loops(p) | pull_loads(p);
		tails(p);
		for (int32_t b = 0; b < p->nb; b++)
			if (divergent(c, b) && c->ipdom[b] >= 0 && !p->uni[b]) {
				region(p, b, mark, stk);
				changed |= close_one(p, b, mark);
			}
	}
	free(mark);
	free(stk);
	for (int32_t i = 0; i < p->f->nins; i++)
		if (p->M[i] && rm_cta_wait(&p->f->ins[i])) return 0;
	return 1;
}

/* ---- rewriting ---------------------------------------------------------------- */

typedef struct Tramp { int32_t from, to_label, to_block, label; } Tramp;

typedef struct Ren { const Plan *p; int32_t i; } Ren;   /* renaming instruction i */

static int32_t map_home(void *ctx, int32_t r, int is_def)
{
	const Ren *x = ctx;
	int32_t h = rm_home_at(x->p, r, 2 * x->i + (is_def != 0));
	return h < 0 ? r : r - x->p->f->phys[r] + h;    /* same declaration, home slot */
}

static Ins mk(int op, uint32_t line)
{
	Ins in;
	memset(&in, 0, sizeof in);
	in.op = (uint16_t)op;
	in.guard = -1;
	in.line = line;
	return in;
}

static int overlap(int32_t a, int wa, int32_t b, int wb) { return a < b + wb && b < a + wa; }

/* slot of register r at point node in mode a: original, or its home */
static int32_t slot_at(const Plan *p, int32_t r, int32_t node, int a)
{
	int32_t h = a ? -1 : rm_home_at(p, r, node);
	return h < 0 ? p->f->phys[r] : h;
}

typedef struct Mv {          /* one register copy: slots s.. to slots d.. */
	int32_t base;            /* id of slot 0 in the register's declaration */
	int32_t d, s;
	uint8_t w;               /* slots */
	uint8_t type;            /* PtxType of the mov */
} Mv;

/* the moves from point (nu, mode au) to point (nv, mode av), where in is live */
static int32_t moves(const Plan *p, const uint64_t *in, int32_t nu, int au, int32_t nv,
                     int av, Mv *mv)
{
	const Func *f = p->f;
	int32_t n = 0;
	for (int32_t r = 0; r < f->nreg && n < RM_MAXSLOT; r++) {
		if (!p->ext[r] || !live_has(in, r)) continue;
		int32_t s = slot_at(p, r, nu, au), d = slot_at(p, r, nv, av);
		int sz = ptxtype_size((PtxType)f->regtype[r]);
		if (s != d)
			mv[n++] = (Mv){r - f->phys[r], d, s, (uint8_t)rm_wid(f, r),
			               (uint8_t)(sz == 8 ? PT_B64 : sz == 4 ? PT_B32 : PT_B16)};
	}
	return n;
}

static void emit_mov(Edit *e, int op, const Mv *m, int32_t d, int32_t s, uint32_t line)
{
	Ins in = mk(op, line);
	in.type = m->type;
	in.nd = 1, in.ns = op == OP_MOV ? 1 : 2;
	in.o[0] = (Operand){.kind = OPK_REG, .reg = m->base + d};
	in.o[1] = (Operand){.kind = OPK_REG, .reg = m->base + (op == OP_MOV ? s : d)};
	if (op != OP_MOV) in.o[2] = (Operand){.kind = OPK_REG, .reg = m->base + s};
	edit_emit(e, &in);
}

/* the moves left in a cycle of mixed widths, one 32-bit slot each (through
   the %r declaration, so liveness sees those slots read as 32-bit registers) */
static int32_t to_slots(const Plan *p, Mv *mv, int32_t n, uint8_t *done)
{
	const Func *f = p->f;
	int32_t b32 = -1, k = 0;
	for (int32_t i = 0; i < f->nrdecl; i++)
		if (f->rdecl[i].type == PT_B32 && f->rdecl[i].count >= f->nphys) b32 = f->rdecl[i].base;
	if (b32 < 0) die("regmutex: compaction moves form a cycle of mixed widths");
	Mv out[RM_MAXSLOT];
	for (int32_t i = 0; i < n; i++)
		for (int q = 0; !done[i] && q < mv[i].w && k < RM_MAXSLOT; q++)
			out[k++] = (Mv){b32, mv[i].d + q, mv[i].s + q, 1, PT_B32};
	memcpy(mv, out, sizeof(Mv) * (size_t)k);
	memset(done, 0, (size_t)k);
	return k;
}

/* mv as a parallel copy: moves whose destination no pending move reads
   first; a cycle (pieces swapping homes) by xor swaps */
static void par_copy(Plan *p, Edit *e, Mv *mv, int32_t n, uint32_t line, RmStats *st)
{
	uint8_t done[RM_MAXSLOT] = {0};
	for (int32_t left = n; left;) {
		int32_t pick = -1;
		for (int32_t i = 0; i < n && pick < 0; i++) {
			int clash = done[i];
			for (int32_t j = 0; j < n && !clash; j++)
				clash = j != i && !done[j] && overlap(mv[i].d, mv[i].w, mv[j].s, mv[j].w);
			if (!clash) pick = i;
		}
		if (pick >= 0) {
			emit_mov(e, OP_MOV, &mv[pick], mv[pick].d, mv[pick].s, line);
			st->moves++;
			done[pick] = 1, left--;
			continue;
		}
		int32_t i = 0;
		while (done[i]) i++;
		int32_t j = -1;              /* the move reading i's destination */
		for (int32_t k = 0; k < n && j < 0; k++)
			if (k != i && !done[k] && mv[k].s == mv[i].d && mv[k].w == mv[i].w) j = k;
		int mixed = j < 0;
		for (int32_t k = 0; k < n && !mixed; k++)
			mixed = !done[k] && mv[k].w != mv[i].w;
		if (mixed) {
			n = left = to_slots(p, mv, n, done);
			continue;
		}
		for (int q = 0; q < 3; q++)     /* swap slots d and s of move i */
			emit_mov(e, OP_XOR, &mv[i], q == 1 ? mv[i].s : mv[i].d, q == 1 ? mv[i].d : mv[i].s,
			         line);
		st->moves += 3;
		done[i] = 1, left--;
		for (int32_t k = 0; k < n; k++)       /* d's old value now sits in s */
			if (!done[k] && mv[k].s == mv[i].d) mv[k].s = mv[i].s;
	}
}

/* the code between point (nu, au) and point (nv, av), where in is live:
   acquire first if av is acquired, release last if au was and av is not */
static void edge_code(Plan *p, Edit *e, const uint64_t *in, int32_t nu, int au, int32_t nv,
                      int av, uint32_t line, RmStats *st)
{
	Mv mv[RM_MAXSLOT];
	int32_t n = moves(p, in, nu, au, nv, av, mv);
	if (av && !au) { Ins a = mk(OP_RF_ACQUIRE, line); edit_emit(e, &a); st->acquires++; }
	par_copy(p, e, mv, n, line, st);
	if (au && !av) { Ins r = mk(OP_RF_RELEASE, line); edit_emit(e, &r); st->releases++; }
}

/* edge u -> v needs code: a mode change or a value changing slot */
static int edge_needs(const Plan *p, int32_t u, int32_t v)
{
	const Cfg *c = p->c;
	int au = p->M[c->blocks[u].last], av = p->M[c->blocks[v].first];
	if (au != av) return 1;
	Mv mv[RM_MAXSLOT];
	return moves(p, p->lt->blk_in + (size_t)v * (size_t)p->lt->words, 2 * c->blocks[u].last + 1,
	             au, 2 * c->blocks[v].first, av, mv) > 0;
}

static const uint64_t *blk_in(const Plan *p, int32_t b)
{
	return p->lt->blk_in + (size_t)b * (size_t)p->lt->words;
}

static int32_t label_target(const Ins *in, int32_t *opd)
{
	for (int k = 0; k < in->nd + in->ns; k++)
		if (in->o[k].kind == OPK_LABEL) { *opd = k; return in->o[k].reg; }
	return -1;
}

static int falls_through(const Ins *t)
{
	if (!t) return 1;
	if (op_info[t->op].flags & (OPF_RET | OPF_EXIT)) return t->guard >= 0;
	return !(t->op == OP_BRA && t->guard < 0);
}

/* v is entered released from predecessors that are all acquired: its
   release goes at its head, run by all lanes once reconverged there --
   unless v reconverges a divergent branch taken released (not a uniform
   one), whose lanes must wait there released (an acquired stretch inside
   its region releases on the way out, so that the lanes running next find
   the warp released) */
static int head(const Plan *p, int32_t v)
{
	const Cfg *c = p->c;
	const Block *bb = &c->blocks[v];
	if (!bb->npred || v == 0 || entry_mode(p, v)) return 0;   /* entry: a released pred */
	for (int32_t k = 0; k < bb->npred; k++)
		if (!exit_mode(p, bb->pred[k])) return 0;
	return !open_at(p, v);
}

/* the trampolines of the taken branch edges that need code, after the body
   (behind a ret if the body falls off its end), then their labels */
static void tramps(Plan *p, Edit *e, Module *m, Func *f, const Tramp *tr, int32_t ntr,
                   RmStats *st)
{
	const Cfg *c = p->c;
	int32_t *at = xmalloc(sizeof(int32_t) * ((size_t)ntr + 1));
	if (ntr && p->nb && falls_through(c->blocks[p->nb - 1].term >= 0 ?
	                                  &f->ins[c->blocks[p->nb - 1].term] : NULL)) {
		Ins r = mk(OP_RET, f->line);
		edit_emit(e, &r);
	}
	for (int32_t k = 0; k < ntr; k++) {
		at[k] = e->nout;
		int32_t u = tr[k].from, v = tr[k].to_block;
		edge_code(p, e, blk_in(p, v), 2 * c->blocks[u].last + 1, exit_mode(p, u),
		          2 * c->blocks[v].first, entry_mode(p, v), f->line, st);
		Ins br = mk(OP_BRA, f->line);
		br.mods = MOD_UNI;
		br.ns = 1;
		br.o[0] = (Operand){.kind = OPK_LABEL, .reg = tr[k].to_label};
		edit_emit(e, &br);
	}
	edit_end(e);
	if (ntr) {
		Label *nl = arena_alloc(m->arena, sizeof(Label) * (size_t)(f->nlabel + ntr));
		memcpy(nl, f->labels, sizeof(Label) * (size_t)f->nlabel);
		for (int32_t k = 0; k < ntr; k++) {
			char nm[64];
			int n = snprintf(nm, sizeof nm, "$__rfsim_rm%d_%d", (int)f->sym, (int)k);
			nl[f->nlabel + k] = (Label){ir_intern(m, nm, (size_t)n), at[k]};
		}
		f->labels = nl;
		f->nlabel += ntr;
	}
	free(at);
}

static void rewrite(Plan *p, Module *m, Func *f, RmStats *st)
{
	const Cfg *c = p->c;
	Tramp *tr = xmalloc(sizeof(Tramp) * ((size_t)f->nins + 1));
	int32_t ntr = 0;
	Edit e;
	edit_begin(&e, m, f);
	if (p->nb && entry_mode(p, 0)) {
		Ins a = mk(OP_RF_ACQUIRE, f->line);
		edit_emit(&e, &a);
		st->acquires++;
	}
	for (int32_t b = 0; b < p->nb; b++) {
		const Block *bb = &c->blocks[b];
		const Ins *t = bb->term >= 0 ? &f->ins[bb->term] : NULL;
		for (int32_t i = bb->first; i <= bb->last; i++) {
			edit_mark(&e, i);
			if (i == bb->first ? head(p, b) : p->M[i] != p->M[i - 1])
				edge_code(p, &e, live_in(p->lt, i), 2 * i, i == bb->first || p->M[i - 1],
				          2 * i, p->M[i], f->ins[i].line, st);
			Ins in = f->ins[i];
			Ren ren = {p, i};
			if (!p->M[i]) edit_rename(f, &in, map_home, &ren);
			int32_t k, lab = i == bb->term && in.op == OP_BRA ? label_target(&in, &k) : -1;
			if (lab >= 0 && f->labels[lab].ins < f->nins) {
				int32_t tb = c->block_of[f->labels[lab].ins];
				if (edge_needs(p, b, tb) && !head(p, tb)) {
					tr[ntr] = (Tramp){b, lab, tb, f->nlabel + ntr};
					in.o[k].reg = f->nlabel + ntr++;
				}
			}
			edit_keep(&e, &in);
		}
		if (falls_through(t) && b + 1 < p->nb && edge_needs(p, b, b + 1) && !head(p, b + 1))
			edge_code(p, &e, blk_in(p, b + 1), 2 * bb->last + 1, exit_mode(p, b),
			          2 * c->blocks[b + 1].first, entry_mode(p, b + 1), f->ins[bb->last].line, st);
	}
	tramps(p, &e, m, f, tr, ntr, st);
	free(tr);
}

/* ---- driver ----------------------------------------------------------------------- */

static int plan_modes(Plan *p)
{
	const Func *f = p->f;
	const Cfg *c = p->c;
	for (int32_t i = 0; i < f->nins; i++) p->M[i] = p->need[i] > p->bs;
	for (int32_t b = 0; b < p->nb; b++) {
		p->bar[b] = 0;
		for (int32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++)
			p->bar[b] |= rm_cta_wait(&f->ins[i]);
	}
	uint8_t *mark = xmalloc((size_t)p->nb + 1);
	int32_t *stk = xmalloc(sizeof(int32_t) * ((size_t)c->nblock * 4 + 8));
	for (int32_t b = 0; b < p->nb; b++)
		p->uni[b] = divergent(c, b) && c->ipdom[b] >= 0 && region(p, b, mark, stk);
	free(mark);
	free(stk);
	for (int32_t r = 0; r < f->nreg; r++) {
		p->ext[r] = rm_wid(f, r) && f->phys[r] + rm_wid(f, r) > p->bs;
		if (p->ext[r] && rm_wid(f, r) > 2) {
			p->why = "an extended register wider than 64 bits (left out)";
			return 0;
		}
	}
	for (int round = 0; round <= f->nins + 1; round++) {
		if (!close_modes(p)) {
			p->why = "a CTA barrier would sit in an acquired region (deadlock rule 2)";
			return 0;
		}
		if (rm_homes(p)) return 1;
	}
	p->why = "no compaction found";
	return 0;
}

/* plan f's modes at base set bs (whole: the fallback) and rewrite it; NULL,
   or why bs is impossible */
static const char *place(Module *m, Func *f, int32_t bs, const int32_t *need, int whole,
                         RmStats *st)
{
	Plan p = {0};
	p.f = f;
	p.c = cfg_build(f);
	p.lt = live_compute(p.c);
	p.bs = bs;
	p.nb = p.c->nblock;
	p.need = need;
	p.whole = whole;
	p.M = xcalloc((size_t)f->nins + 1, 1);
	p.bar = xcalloc((size_t)p.nb + 1, 1);
	p.uni = xcalloc((size_t)p.nb + 1, 1);
	p.ext = xcalloc((size_t)f->nreg + 1, 1);
	if (f->nphys > RM_MAXSLOT) p.why = "too many registers";
	else if (plan_modes(&p)) {
		for (int32_t i = 0; i < f->nins; i++) st->acq_ins += p.M[i];
		for (int32_t w = 0; w < p.nweb; w++) st->renamed += p.home[w] >= 0;
		rewrite(&p, m, f, st);
	}
	live_free(p.lt);
	cfg_free(p.c);
	rm_webs_free(&p);
	free(p.M), free(p.bar), free(p.uni), free(p.ext);
	return p.why;
}

static void put(void *d, const void *a, size_t n)
{
	if (n) memcpy(d, a, n);
}

static void *copy_of(const void *a, size_t n)
{
	void *d = xmalloc(n ? n : 1);
	put(d, a, n);
	return d;
}

/* what rewrite changes of a function, to undo a placement that fails its
   check: the instructions (edit_end may write the new stream over the old
   array), and, in place, label targets, statement pragmas, vector operands
   (renamed) and scopes; the label array itself when trampolines extend it */
void rm_save(const Module *m, const Func *f, RmSave *s)
{
	s->ins = f->ins, s->nins = f->nins;
	s->labels = f->labels, s->nlabel = f->nlabel;
	s->in = copy_of(f->ins, sizeof(Ins) * (size_t)f->nins);
	s->lab = copy_of(f->labels, sizeof(Label) * (size_t)f->nlabel);
	s->bp = copy_of(f->bpragmas, sizeof(Pragma) * (size_t)f->nbpragma);
	s->vop = copy_of(f->vops, sizeof(Operand) * (size_t)f->nvop);
	s->scope = xmalloc(sizeof(int32_t) * ((size_t)f->nrdecl + (size_t)f->nlocal + 1));
	for (int32_t i = 0; i < f->nrdecl; i++) s->scope[i] = f->rdecl[i].scope;
	for (int32_t i = 0; i < f->nlocal; i++) s->scope[f->nrdecl + i] = m->syms[f->locals[i]].scope;
}

void rm_undo(Module *m, Func *f, const RmSave *s)
{
	f->ins = s->ins, f->nins = s->nins;
	f->labels = s->labels, f->nlabel = s->nlabel;
	put(f->ins, s->in, sizeof(Ins) * (size_t)f->nins);
	put(f->labels, s->lab, sizeof(Label) * (size_t)f->nlabel);
	put(f->bpragmas, s->bp, sizeof(Pragma) * (size_t)f->nbpragma);
	put(f->vops, s->vop, sizeof(Operand) * (size_t)f->nvop);
	for (int32_t i = 0; i < f->nrdecl; i++) f->rdecl[i].scope = s->scope[i];
	for (int32_t i = 0; i < f->nlocal; i++) m->syms[f->locals[i]].scope = s->scope[f->nrdecl + i];
}

void rm_save_free(RmSave *s)
{
	free(s->in), free(s->lab), free(s->bp), free(s->vop), free(s->scope);
}

int regmutex_apply(Module *m, int32_t fi, int32_t bs, int whole, RmStats *st)
{
	Func *f = &m->funcs[fi];
	int32_t *need = xmalloc(sizeof(int32_t) * ((size_t)f->nins + 1));
	regmutex_need(f, need);
	st->ins = f->nins;
	for (int32_t i = 0; i < f->nins; i++) st->hot_ins += need[i] > bs;
	RmStats st0 = *st;
	RmSave save;
	rm_save(m, f, &save);
	const char *why = NULL;
	int rc = RF_EINPUT;
	/* the flexible placement, then, if the result fails the independent
	   check, the fallback: every region with an acquired point whole */
	for (; whole < 2 && rc != RF_OK; whole++) {
		*st = st0;
		if ((why = place(m, f, bs, need, whole, st))) break;   /* a rule: whole breaks it too */
		st->whole = whole;
		if (!regmutex_check(f, bs, NULL)) rc = RF_OK;
		else {
			rm_undo(m, f, &save);
			why = "the placement fails its own check (rm_check.c), also with every divergent "
			      "region acquired whole";
		}
	}
	if (rc != RF_OK)
		err_set("regmutex: |Bs| = %d impossible for '%s': %s", bs,
		        ir_str(m, m->syms[f->sym].name), why);
	rm_save_free(&save);
	free(need);
	return rc;
}
