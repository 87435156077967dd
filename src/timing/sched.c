/*
 * sched.c -- the warp schedulers and the issue of one instruction.
 *
 * Each SM has sched.count schedulers; warp slot w belongs to scheduler
 * w mod sched.count (GPGPU-Sim's static assignment).  Every cycle each
 * scheduler tries its candidate warps in its policy's order and issues
 * the first whose next instruction can go:
 *
 *   lrr       loose round robin: starting after the warp issued last.
 *   gto       greedy then oldest (Rogers et al., MICRO'12, GPGPU-Sim's
 *             default): the warp issued last, else the oldest by launch.
 *   twolevel  Gebhart et al. ISCA'11 3.2: only the active set (at most
 *             sched.active_warps warps per SM, shared evenly by the
 *             schedulers) is considered, greedy or round
 *             robin inside (sched.inner).  A warp leaves the active set
 *             when its next instruction needs the result of a pending
 *             long-latency load (global or local memory), when it waits
 *             for cp.async copies (wait_group, wait_all: async.c), when it
 *             waits at a barrier, and when it exits; the set is refilled from
 *             the pending warps that could issue, longest-pending first
 *             (Gebhart's round-robin replacement).  The paper marks the
 *             consumers of long-latency results at compile time and
 *             suspends the warp even if the value has arrived; here the
 *             warp is suspended only if it has not (the dynamic version
 *             of GPGPU-Sim's two-level scheduler), and barrier waits also
 *             suspend, since an active set full of waiting warps would
 *             never let the late ones in.  sched.suspend = marked is the
 *             paper's static rule: a warp is also suspended, once, before
 *             each instruction the compiler marks as the first reader of a
 *             long-latency load's result (TProg.llstall, tlive.c), whether
 *             or not the value has arrived.  Statistics: activations, and
             deactivations by cause (deact_*, tstats.def; deact_longlat_l1hit
             counts, at the load's writeback, those whose load hit in L1).
 *
 * A register-file model whose cache holds only the active warps
 * (RfModel.twolevel: LTRF) gets the two-level policy whatever sched.policy
 * says; one that cannot run under it (RfModel.single_level: register
 * sharing) gets lrr when sched.policy is twolevel.
 *
 * A register-file model may rank warps (RfModel.priority, e.g. owner warp
 * first): then the candidates are tried by rank, the policy's order
 * breaking ties.
 *
 * A candidate fails if its next instruction has a scoreboard hazard (the
 * warp is parked until one of its writes completes; two-level: a hazard
 * on a long-latency result also deactivates it), if the RF model refuses
 * it (can_issue; two-level: a warp that waits for other warps' registers,
 * RegMutex's acquire, is deactivated too, or an active set full of
 * acquiring warps would starve the pending warps holding the pool -- a
 * deadlock), or if no operand collector of its kind is free.  The
 * scheduler's slot is then charged to one stall reason (sm.h, ST_*): the
 * RF or a full memory pipeline if a ready warp was refused, else what the
 * parked warps wait for, memory first.
 *
 * Issue executes the instruction in the functional core (exec_step) and
 * prepares its journey: scoreboard entries for its writes, an operand
 * collector with its reads (and, for memory, its coalesced accesses), a
 * branch parks the warp until the branch unit resolves it.  bar.sync
 * parks the warp at the barrier; the functional core releases barriers.
 * A warp that issued only decode's internal `ret` at a function's end
 * spends the slot (stall_other) without issuing an instruction; if that
 * ret returned into a caller, the caller's instruction issued with it is
 * not tracked by the scoreboard (nvcc always emits an explicit ret).
 */
#include "timing/sm.h"

#include <assert.h>

#include "base/base.h"

enum { P_LRR, P_GTO, P_TWOLEVEL };
enum { I_GREEDY, I_RR };

void sched_init(Sm *s)
{
	s->nsched = (int32_t)s->cfg->sched_count;
	s->policy = s->cfg->sched_policy;
	if (rf_models[s->cfg->rf_model]->twolevel) s->policy = P_TWOLEVEL;   /* rf.h */
	if (rf_models[s->cfg->rf_model]->single_level && s->policy == P_TWOLEVEL) s->policy = P_LRR;
	s->inner = s->cfg->sched_inner;
	s->suspend_marked = s->cfg->sched_suspend == 1;
	int32_t per = (int32_t)((s->cfg->sched_active_warps + s->nsched - 1) / s->nsched);
	s->nactive_max = s->policy == P_TWOLEVEL ? per : SCHED_MAXW;
	s->issue_per_warp = (int32_t)s->cfg->sched_issue_per_warp;
	s->sched = xcalloc((size_t)s->nsched, sizeof *s->sched);
	for (int32_t i = 0; i < s->nwarps; i++) {
		Sched *sc = &s->sched[i % s->nsched];
		assert(sc->nw < SCHED_MAXW);
		TWarp *w = &s->w[i];
		w->sched = (uint8_t)(i % s->nsched);
		w->lidx = (uint8_t)sc->nw;
		sc->slot[sc->nw++] = i;
		sc->nwait[WAIT_FREE]++;
	}
	for (int32_t k = 0; k < s->nsched; k++) s->sched[k].last = -1;
}

static void activate(Sm *s, Sched *sc, TWarp *w)
{
	sc->active |= 1ull << w->lidx;
	sc->nactive++;
	if (s->policy == P_TWOLEVEL) s->st.activations++;
	if (s->rf->activate) s->rf->activate(s->rfm, s->now, sc->slot[w->lidx]);
}

/* why a warp leaves the active set: the statistics' deact_* rows */
enum { D_LONGLAT, D_MARKED, D_BARRIER, D_ASYNC, D_YIELD, D_RFWAIT, D_EXIT };

static void deactivate(Sm *s, Sched *sc, TWarp *w, int why)
{
	if (!(sc->active >> w->lidx & 1)) return;
	if (s->policy == P_TWOLEVEL) {
		TStats *t = &s->st;
		uint64_t *n[] = {&t->deact_longlat, &t->deact_marked, &t->deact_barrier,
		                 &t->deact_async, &t->deact_yield, &t->deact_rfwait, &t->deact_exit};
		(*n[why])++;
	}
	sc->active &= ~(1ull << w->lidx);
	sc->nactive--;
	sc->pend_stamp[w->lidx] = ++sc->stamp;
	if (s->rf->deactivate) s->rf->deactivate(s->rfm, s->now, sc->slot[w->lidx]);
}

void sched_warp_added(Sm *s, TWarp *w)
{
	Sched *sc = &s->sched[w->sched];
	sc->dirty = 1;
	sc->live |= 1ull << w->lidx;
	sc->pend_stamp[w->lidx] = ++sc->stamp;
	w->susp_pc = -1;
	w->ll_deact = 0;
	if (sc->nactive < s->nactive_max) activate(s, sc, w);
}

void sched_warp_exited(Sm *s, TWarp *w)
{
	Sched *sc = &s->sched[w->sched];
	sc->dirty = 1;
	deactivate(s, sc, w, D_EXIT);
	sc->live &= ~(1ull << w->lidx);
}

void sched_set_npc(Sm *s, TWarp *w, int32_t pc)
{
	Sched *sc = &s->sched[w->sched];
	uint64_t bit = 1ull << w->lidx;
	int unit = pc >= 0 ? s->tp->ins[pc].unit : TU_NONE;
	w->npc = pc;
	sc->nx_mem = unit == TU_LDST ? sc->nx_mem | bit : sc->nx_mem & ~bit;
	sc->nx_alu = unit != TU_LDST && unit != TU_NONE ? sc->nx_alu | bit : sc->nx_alu & ~bit;
}

/* two-level: fill the active set from pending warps that could issue */
static void refill(Sm *s, Sched *sc)
{
	while (sc->nactive < s->nactive_max) {
		uint64_t c = sc->ready & sc->live & ~sc->active;
		if (!c) return;
		int best = -1;
		for (; c; c &= c - 1) {
			int i = __builtin_ctzll(c);
			if (best < 0 || sc->pend_stamp[i] < sc->pend_stamp[best]) best = i;
		}
		activate(s, sc, &s->w[sc->slot[best]]);
	}
}

/* ---- issue ------------------------------------------------------------------------ */

static void prepare_cu(Sm *s, TWarp *w, const TIns *ti, int cu, int32_t pc, int32_t rbase,
                       int32_t pbase, int diverged)
{
	CU *u = &s->cu[cu];
	int longl = 0;
	u->warp = (int32_t)(w - s->w);
	u->pc = pc;
	u->rbase = rbase;
	u->pending = ti->nrd_reg ? (~0ull >> (64 - ti->nrd_reg)) : 0;
	u->ready = s->now + 1;
	u->extra = diverged ? s->diverge : 0;
	if (ti->flags & TF_BRANCH && s->rf->branch_extra) u->extra += s->rf->branch_extra(s->rfm);
	s->cu_wk[cu] = s->now + 1;
	s->cu_ord[s->ncu_ord++] = (int8_t)cu;
	if (ti->flags & TF_MEM) {
		pipe_memop(s, w, u, ti);
		longl = (u->mop->long_lat || ti->poll) && (ti->flags & TF_LOAD);
	}
	u->ev = (Event){.warp = u->warp, .pc = pc, .rbase = rbase, .pbase = pbase,
	                .left = ti->nwr ? (~0u >> (32 - ti->nwr)) : 0, .long_lat = (uint8_t)longl,
	                .branch = (uint8_t)((ti->flags & TF_BRANCH) != 0)};
	sb_set(s, w, ti, rbase, pbase, longl);
	w->inflight++;
	s->cu_busy |= 1ull << cu;
	s->cu_wake = s->now + 1;
}

static void after_exec(Sm *s, Sched *sc, TWarp *w, int r, const TIns *ti)
{
	CtaSlot *cs = &s->cta[w->cta];
	if (r == EX_BARRIER) {
		sm_park(s, w, WAIT_BAR);
		if (s->policy == P_TWOLEVEL) deactivate(s, sc, w, D_BARRIER);
	} else if (r == EX_DONE) {
		sched_warp_exited(s, w);
		sm_park(s, w, WAIT_DONE);
		sched_set_npc(s, w, -1);
	} else if (ti && ti->flags & TF_BRANCH) {
		sm_park(s, w, WAIT_BR);
	} else if (r == EX_YIELD && s->policy == P_TWOLEVEL) {
		deactivate(s, sc, w, D_YIELD); /* it sleeps or waits for another warp: let one in */
	}
	if (r == EX_BARRIER || r == EX_DONE || (ti && ti->flags & TF_BARRIER))
		sm_release_barriers(s, cs);
	if (r != EX_DONE) sched_set_npc(s, w, sm_peek(s, w->fw));
	if (r == EX_DONE && !w->inflight) sm_warp_finished(s, w);
}

static void issue(Sm *s, Sched *sc, TWarp *w, const TIns *ti, int cu)
{
	Warp *fw = w->fw;
	int32_t pc = w->npc, rbase = fw->rbase, pbase = fw->pbase, nstk = fw->nstk;
	uint64_t before = fw->ninsts, pbefore = fw->npseudo;
	if (pc == w->ll_pc) livelock_seen(s, w);   /* back at its snapshot's pc: same state? */
	int r = exec_step(&s->cta[w->cta].c, fw);
	if (r == EX_FAULT) {
		s->tg->fault = 1;
		return;
	}
	int real = fw->ninsts != before || fw->npseudo != pbefore;
	w->susp_pc = -1;
	if (real) {                                 /* a pseudo-op takes the slot, is no instruction */
		sc->issued = 1;
		s->st.issued++;
		s->tg->issued += fw->ninsts != before;
		s->tg->last_issue = s->now;
	}
	if (!real || s->trace.pc != pc) {
		ti = NULL;                              /* see the essay: an internal ret */
	} else if (cu >= 0) {
		prepare_cu(s, w, ti, cu, pc, rbase, pbase, fw->nstk > nstk);
	}
	if (ti && ti->cpa) cpa_issue(s, w, ti, cu >= 0 ? &s->cu[cu] : NULL);
	if (ti && s->rf->issue) s->rf->issue(s->rfm, s->now, (int)(w - s->w), ti);
	after_exec(s, sc, w, r, ti);
}

/* try to issue warp li of sc; 1 if it issued.  A full set of collectors
 * for the instruction's kind is checked first: then nothing else about the
 * warp matters this cycle (and the check is one mask test). */
static int try_issue(Sm *s, Sched *sc, int li)
{
	TWarp *w = &s->w[sc->slot[li]];
	const TIns *ti = &s->tp->ins[w->npc];
	int ldst = ti->unit == TU_LDST;
	if (ti->unit != TU_NONE && !cu_free(s, ldst)) {
		sc->refused |= ldst ? REF_MEM : REF_CU;
		return 0;
	}
	if (s->suspend_marked && s->policy == P_TWOLEVEL && s->tp->llstall[w->npc] &&
	    w->susp_pc != w->npc) {
		w->susp_pc = w->npc;                    /* Gebhart 3.2: suspend before it, once */
		deactivate(s, sc, w, D_MARKED);
		return 0;
	}
	if (ti->cpa >= CPA_WAIT && !cpa_ready(w, ti)) {     /* its cp.async groups (async.c) */
		sm_park(s, w, WAIT_ASYNC);
		if (s->policy == P_TWOLEVEL) deactivate(s, sc, w, D_ASYNC);
		return 0;
	}
	int mem = 0;
	int32_t hz = ti->flags & TF_NOREGS ? -1 : sb_hazard(s, w, ti, &mem);
	if (hz >= 0 || (ti->flags & TF_NOREGS && w->nsb)) {
		w->wait_bit = hz;
		sm_park(s, w, mem ? WAIT_MEM : WAIT_SB);
		if (mem && s->policy == P_TWOLEVEL && sc->active >> w->lidx & 1) {
			deactivate(s, sc, w, D_LONGLAT);
			w->ll_deact = 1;                    /* sm.c's writeback: did it hit L1? */
		}
		return 0;
	}
	int ok = s->rf->can_issue ? s->rf->can_issue(s->rfm, s->now, sc->slot[li], ti) : 1;
	if (ok <= 0) {
		sc->refused |= REF_RF;
		if (ok == RF_WAIT_WARPS && s->policy == P_TWOLEVEL) deactivate(s, sc, w, D_RFWAIT);
		return 0;
	}
	issue(s, sc, w, ti, ti->unit != TU_NONE ? cu_alloc(s, ldst) : -1);
	return 1;
}

/* ---- policies: the order candidates are tried in ----------------------------------------- */

static int order_rr(const Sched *sc, uint64_t cand, int *out)
{
	int n = 0, start = sc->last + 1 < sc->nw ? sc->last + 1 : 0;
	uint64_t hi = start ? cand & (~0ull << start) : cand, lo = cand & ~hi;
	for (; hi; hi &= hi - 1) out[n++] = __builtin_ctzll(hi);
	for (; lo; lo &= lo - 1) out[n++] = __builtin_ctzll(lo);
	return n;
}

static int order_gto(const Sm *s, const Sched *sc, uint64_t cand, int *out)
{
	int n = 0;
	if (sc->last >= 0 && cand >> sc->last & 1) {
		out[n++] = sc->last;
		cand &= ~(1ull << sc->last);
	}
	int first = n;
	for (; cand; cand &= cand - 1) {              /* insertion sort by age */
		int i = __builtin_ctzll(cand), k = n++;
		uint64_t a = s->w[sc->slot[i]].age;
		while (k > first && s->w[sc->slot[out[k - 1]]].age > a) {
			out[k] = out[k - 1];
			k--;
		}
		out[k] = i;
	}
	return n;
}

static int order(Sm *s, Sched *sc, uint64_t cand, int *out)
{
	int n;
	if (s->policy == P_GTO || (s->policy == P_TWOLEVEL && s->inner == I_GREEDY)) {
		n = s->policy == P_GTO ? order_gto(s, sc, cand, out) : order_rr(sc, cand, out);
		if (s->policy == P_TWOLEVEL && sc->last >= 0 && cand >> sc->last & 1) {
			int k = 0;                          /* greedy: the last warp first, then RR */
			while (out[k] != sc->last) k++;
			for (; k > 0; k--) out[k] = out[k - 1];
			out[0] = sc->last;
		}
	} else {
		n = order_rr(sc, cand, out);
	}
	if (s->rf->priority) {                      /* stable insertion sort by rank */
		int rank[SCHED_MAXW];
		for (int i = 0; i < n; i++) rank[i] = s->rf->priority(s->rfm, sc->slot[out[i]]);
		for (int i = 1; i < n; i++)
			for (int k = i; k > 0 && rank[k - 1] > rank[k]; k--) {
				int t = rank[k]; rank[k] = rank[k - 1]; rank[k - 1] = t;
				t = out[k]; out[k] = out[k - 1]; out[k - 1] = t;
			}
	}
	return n;
}

static uint8_t reason(const Sched *sc)
{
	if (!sc->live && !sc->nwait[WAIT_DONE]) return ST_IDLE;
	if (sc->refused & (REF_RF | REF_CU))
		return sc->refused & (REF_CU | REF_MEM) ? ST_RF : ST_RFMODEL;
	if (sc->refused & REF_MEM) return ST_MEMPIPE;
	if (sc->nwait[WAIT_MEM] || sc->nwait[WAIT_ASYNC]) return ST_MEM;
	if (sc->nwait[WAIT_SB]) return ST_SB;
	if (sc->nwait[WAIT_BAR]) return ST_BAR;
	return ST_OTHER;
}

/* dual issue (sched.issue_per_warp > 1): warp li, which issued this
 * cycle, issues its next instructions while each can go, as GPGPU-Sim's
 * scheduler keeps issuing from the warp it picked (max_insn_issue_per_warp).
 * A warp that parked, left the active set or finished stops it; so does a
 * refusal, which try_issue records as it would next cycle. */
static void issue_more(Sm *s, Sched *sc, int li)
{
	for (int k = 1; k < s->issue_per_warp; k++) {
		uint64_t bit = 1ull << li;
		if (s->tg->fault || !(sc->ready & sc->active & bit)) return;
		if (!try_issue(s, sc, li)) return;
	}
}

/* try the candidates in policy order until one issues */
static void pick(Sm *s, Sched *sc, uint64_t cand)
{
	/* candidates whose kind of collector is all taken cannot issue
	 * (try_issue's first test), whatever the order */
	if (!cu_free(s, 1) && cand & sc->nx_mem) {
		sc->refused |= REF_MEM;
		cand &= ~sc->nx_mem;
	}
	if (!cu_free(s, 0) && cand & sc->nx_alu) {
		sc->refused |= REF_CU;
		cand &= ~sc->nx_alu;
	}
	if (!cand) return;
	int greedy = s->policy == P_GTO || (s->policy == P_TWOLEVEL && s->inner == I_GREEDY);
	if (greedy && !s->rf->priority && sc->last >= 0 && cand >> sc->last & 1) {
		if (try_issue(s, sc, sc->last)) {              /* the common case, no ordering */
			issue_more(s, sc, sc->last);
			return;
		}
		cand &= ~(1ull << sc->last);
	}
	int ord[SCHED_MAXW];
	int n = order(s, sc, cand, ord);
	for (int i = 0; i < n; i++) {
		if (!try_issue(s, sc, ord[i])) continue;
		sc->last = ord[i];
		issue_more(s, sc, ord[i]);
		return;
	}
}

/* The issue stage; returns 1 if the SM must run next cycle (see sm.c's
 * busy rule).  A scheduler with no ready warp whose warps did not change
 * state since it last looked cannot issue and keeps its stall reason, so
 * it is skipped; so is one whose ready warps were all refused for want of
 * a collector, until a collector frees (Sched.stuck). */
int sched_issue(Sm *s)
{
	int busy = 0;
	for (int32_t k = 0; k < s->nsched; k++) {
		Sched *sc = &s->sched[k];
		sc->issued = 0;
		if (!sc->ready && !sc->dirty) continue;
		if (sc->stuck && !sc->dirty && sc->epoch == s->cu_epoch) continue;
		sc->dirty = sc->refused = 0;
		sc->epoch = s->cu_epoch;
		if (s->policy == P_TWOLEVEL) refill(s, sc);
		uint64_t cand = sc->ready & sc->active;
		if (cand) pick(s, sc, cand);
		if (s->tg->fault) return 0;
		if (!sc->issued) sc->reason = reason(sc);
		int refill = (sc->ready & sc->live & ~sc->active) && sc->nactive < s->nactive_max;
		busy |= sc->issued | (sc->refused & REF_RF) | refill;
		sc->stuck = !sc->issued && !(sc->refused & REF_RF) && !refill;
	}
	return busy;
}
