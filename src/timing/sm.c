/*
 * sm.c -- one SM's cycle, its event queue, and CTAs arriving and leaving.
 *
 * Each cycle runs the stages in reverse pipeline order (Multi2Sim), so an
 * instruction moves at most one stage per cycle and every stage sees the
 * state the later stages left:
 *
 *   1. writeback   events due now: results written through the RF model
 *                  (a write that loses its bank is retried next cycle,
 *                  before any read of that cycle -- writes have priority),
 *                  scoreboard entries cleared, waiting warps woken.  A
 *                  dependent instruction can issue in the same cycle.
 *   2. RF tick     the model's background work, if it asked for this cycle.
 *   3. collect     operand collectors read registers and dispatch to units
 *                  (collector.c, pipe.c).
 *   4. issue       each scheduler issues at most one instruction (sched.c).
 *
 * Timeline of one instruction with no conflicts: issued in cycle t, its
 * reads granted in t+1, operands there in t+1+L (L = rf.mrf_latency),
 * dispatched then, written back at t+1+L+lat: a dependent instruction
 * issues 1 + L + lat cycles after its producer.
 *
 * Events (writebacks, branch resolutions, memory answers) wait in a
 * queue (events.c) that hands out equal-cycle events in the order they
 * were created: runs are deterministic.
 * After its cycle the SM says when it next needs a step: the next cycle
 * if a warp is ready or a collector busy, else its earliest event.
 *
 * Statistics per scheduler slot: every cycle each scheduler either issued
 * or stalled for one reason (sched.c); cycles the SM slept are charged to
 * the reason of its last stepped cycle, which cannot have changed since
 * nothing happened (sm_account).
 */
#include "timing/sm.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

/* ---- events ------------------------------------------------------------------ */

void sm_push(Sm *s, const Event *e)
{
	evq_push(&s->evq, e, s->now);
	int64_t t = e->t > s->now ? e->t : s->now + 1;
	if (t < s->next) s->next = t;
}

/* ---- parking ------------------------------------------------------------------- */

static inline void set_wait(Sm *s, TWarp *w, int why)
{
	Sched *sc = &s->sched[w->sched];
	sc->nwait[w->wait]--;
	sc->nwait[why]++;
	sc->dirty = 1;
	w->wait = (uint8_t)why;
	if (why == WAIT_NONE) sc->ready |= 1ull << w->lidx;
	else sc->ready &= ~(1ull << w->lidx);
}

void sm_park(Sm *s, TWarp *w, int why) { set_wait(s, w, why); }
void sm_unpark(Sm *s, TWarp *w) { set_wait(s, w, WAIT_NONE); }

/* ---- writeback ----------------------------------------------------------------- */

/* write e's registers through the model; 1 when all are written */
static int write_regs(Sm *s, Event *e)
{
	const TIns *ti = &s->tp->ins[e->pc];
	const int32_t *wr = s->tp->regs + ti->regs + ti->nrd;
	for (uint32_t m = e->left; m; m &= m - 1) {
		int i = __builtin_ctz(m);
		if (i >= ti->nwr_reg || s->rf->write(s->rfm, s->now, e->warp, wr[i] + e->rbase,
		                                           e->pc, ti->nrd + i)) {
			e->left &= ~(1u << i);
			s->st.reg_writes += i < ti->nwr_reg;
		}
	}
	return e->left == 0;
}

static void writeback(Sm *s)
{
	Event e;
	while (evq_pop(&s->evq, s->now, &e)) {
		if (e.left && !write_regs(s, &e)) {
			e.t = s->now + 1;
			sm_push(s, &e);
			continue;
		}
		TWarp *w = &s->w[e.warp];
		sb_clear(s, w, &e);
		w->inflight--;
		if (e.cpa) cpa_done(s, w, e.cpa_group);
		if (((w->wait == WAIT_SB || w->wait == WAIT_MEM) &&
		     (w->wait_bit < 0 || !sb_pending(w, w->wait_bit))) ||
		    (e.branch && w->wait == WAIT_BR)) {
			if (w->ll_deact) {                /* the load its deactivation waited for */
				s->st.deact_longlat_l1hit += e.l1hit;
				w->ll_deact = 0;
			}
			sm_unpark(s, w);
		}
		else if (w->wait == WAIT_DONE && !w->inflight)
			sm_warp_finished(s, w);
	}
}

/* ---- memory answers ---------------------------------------------------------------- */

/* a global load answered after `lat` cycles */
static void gload_count(TStats *st, int64_t lat)
{
	st->gload_count++;
	st->gload_cycles += (uint64_t)lat;
	if (lat < 256) st->gload_lt256++;
	else if (lat < 512) st->gload_lt512++;
	else if (lat < 1024) st->gload_lt1024++;
	else if (lat < 2048) st->gload_lt2048++;
	else if (lat < 4096) st->gload_lt4096++;
	else st->gload_ge4096++;
}

void sm_mem_done(void *ctx, int32_t id, int64_t t)
{
	Sm *s = ctx;
	if (id < 0) {                             /* a cache takes reads again: wake up */
		cu_mem_wake(s, t);
		if (t < s->next) s->next = t;
		return;
	}
	Tracker *k = &s->trk[id];
	if (t > k->t) k->t = t;
	if (--k->left) return;
	if (k->gload) gload_count(&s->st, k->t - k->t0);
	k->ev.t = k->t + k->extra;
	sm_push(s, &k->ev);
	k->next_free = s->trk_free;
	s->trk_free = id;
}

/* ---- statistics ------------------------------------------------------------------- */

static void stall_add(TStats *st, int reason, uint64_t n)
{
	switch (reason) {
	case ST_IDLE: st->stall_idle += n; break;
	case ST_RF: case ST_RFMODEL: st->stall_rf += n; break;
	case ST_MEM: case ST_MEMPIPE: st->stall_mem += n; break;
	case ST_SB: st->stall_scoreboard += n; break;
	case ST_BAR: st->stall_barrier += n; break;
	default: st->stall_other += n; break;
	}
	if (reason == ST_RF || reason == ST_MEMPIPE) st->sched_stall += n;
	else st->sched_idle += n;
}

void sm_account(Sm *s, int64_t upto)
{
	int64_t n = upto - s->acct;
	if (n <= 0) return;
	s->st.warp_cycles += (uint64_t)s->resident * (uint64_t)n;
	s->st.cta_cycles += (uint64_t)(s->ncta - s->cta_free) * (uint64_t)n;
	for (int32_t k = 0; k < s->nsched; k++) stall_add(&s->st, s->sched[k].reason, (uint64_t)n);
	s->acct = upto;
}

/* ---- the cycle ------------------------------------------------------------------- */

void sm_cycle(Sm *s, int64_t now)
{
	s->now = now;
	s->next = SM_NEVER;
	sm_account(s, now);
	writeback(s);
	if (s->rf->tick && s->rf_tick <= now) s->rf_tick = s->rf->tick(s->rfm, now);
	if (s->cu_busy) cu_stage(s);
	int busy = sched_issue(s);
	s->st.warp_cycles += (uint64_t)s->resident;
	s->st.cta_cycles += (uint64_t)(s->ncta - s->cta_free);
	for (int32_t k = 0; k < s->nsched; k++)
		if (!s->sched[k].issued) stall_add(&s->st, s->sched[k].reason, 1);
	s->acct = now + 1;
	/* Must the SM run again next cycle?  After the issue stage every ready
	 * active warp was tried, unless its scheduler issued; one that is still
	 * ready was refused by the RF model (which may change its mind any
	 * cycle: busy) or found no free collector (which cannot change before
	 * cu_wake, nor the warps' states before an event).  Otherwise it
	 * sleeps until its next event. */
	int64_t nx = busy ? now + 1 : SM_NEVER;
	if (s->cu_busy && s->cu_wake < nx) nx = s->cu_wake;
	int64_t te = evq_next(&s->evq, now);
	if (te < nx) nx = te;
	if (s->rf->tick && s->rf_tick < nx) nx = s->rf_tick;
	s->next = nx > now ? nx : now + 1;
}

/* ---- warps and CTAs ----------------------------------------------------------------- */

int32_t sm_peek(const Sm *s, const Warp *fw)
{
	int32_t pc = warp_pc(fw);
	if (pc < 0 || fw->state == W_DONE) return -1;
	while (s->code[pc].flags & DF_INTERNAL && !(s->tp->ins[pc].flags & TF_NOREGS)) pc++;
	return pc;
}

void sm_release_barriers(Sm *s, CtaSlot *cs)
{
	cta_release_barriers(&cs->c);
	for (int32_t i = 0; i < cs->c.nwarps; i++) {
		TWarp *w = &s->w[cs->warp0 + i];
		if (w->wait == WAIT_BAR && w->fw->state == W_READY) sm_unpark(s, w);
	}
}

/* a CTA slot is free again: at once, or for a cluster when its last CTA ends
 * (until then its shared memory stays readable by the others) */
static void slot_free(Sm *s, CtaSlot *cs)
{
	cs->used = 0, cs->held = 0;
	s->cta_free++;
	s->tg->want_cta = 1;
}

static void cta_finished(Sm *s, int32_t slot)
{
	CtaSlot *cs = &s->cta[slot];
	if (s->rf->cta_exit) s->rf->cta_exit(s->rfm, slot);
	for (int32_t i = 0; i < cs->c.nwarps; i++) {
		s->tg->warp_insts += cs->c.warps[i].ninsts;
		s->tg->thread_insts += cs->c.warps[i].nthread;
	}
	s->st.ctas++;
	s->tg->done_cta++;
	Cluster *cl = cs->c.cl;
	if (cl->n == 1) {
		slot_free(s, cs);
		return;
	}
	cs->held = 1;
	if (++cl->done < cl->n) return;
	for (int32_t r = 0; r < cl->n; r++) {
		Sm *o = cl->cta[r]->owner;
		slot_free(o, (CtaSlot *)((char *)cl->cta[r] - offsetof(CtaSlot, c)));
	}
	Timing *tg = s->tg;
	tg->clfree[tg->nclfree++] = (int32_t)(cl - tg->clpool);
}

void sm_cluster_wake(Cta *c)
{
	Sm *s = c->owner;
	CtaSlot *cs = (CtaSlot *)((char *)c - offsetof(CtaSlot, c));
	int64_t now = s->tg->now;
	if (s->acct < now) sm_account(s, now);   /* its sleep until now: the old reason */
	for (int32_t i = 0; i < c->nwarps; i++) {
		TWarp *w = &s->w[cs->warp0 + i];
		if (w->wait == WAIT_BAR && w->fw->state == W_READY) sm_unpark(s, w);
	}
	if (s->next > now + 1) s->next = now + 1;
	s->tg->woke = 1;
}

void sm_warp_finished(Sm *s, TWarp *w)
{
	set_wait(s, w, WAIT_FREE);
	s->resident--;
	int32_t slot = w->cta;
	if (s->rf->warp_exit) s->rf->warp_exit(s->rfm, s->now, (int)(w - s->w));
	w->cta = -1;
	if (--s->cta[slot].running == 0) cta_finished(s, slot);
}

/* buffers of a CTA slot's functional warps, made when the slot is first used */
static void alloc_warps(Sm *s, CtaSlot *cs)
{
	const Image *img = s->L->img;
	for (int32_t i = 0; i < s->tg->warps_per_cta; i++) {
		Warp *w = &s->fw[cs->warp0 + i];
		w->regs = xcalloc((size_t)(img->max_slots + 1) * 32, sizeof *w->regs);
		w->preds = xcalloc((size_t)img->max_preds + 1, sizeof *w->preds);
		w->local_bytes = (uint32_t)img->max_local;
		w->local = xcalloc((size_t)w->local_bytes * 32 + 1, 1);
	}
	cs->alloc = 1;
}

static void free_warps(Sm *s, CtaSlot *cs)
{
	for (int32_t i = 0; cs->alloc && i < s->tg->warps_per_cta; i++) {
		Warp *w = &s->fw[cs->warp0 + i];
		free(w->regs);
		free(w->preds);
		free(w->local);
		free(w->stk);
	}
	cs->alloc = 0;
}

void sm_launch_cta(Sm *s, int32_t slot, uint64_t id, int64_t t)
{
	const Launch *L = s->L;
	CtaSlot *cs = &s->cta[slot];
	Cta *c = &cs->c;
	int32_t nw = s->tg->warps_per_cta;
	assert(!cs->used);
	sm_account(s, t);
	if (!cs->alloc) alloc_warps(s, cs);
	memset(c, 0, sizeof *c);
	c->L = L;
	c->id = (Dim3){(uint32_t)(id % L->grid.x), (uint32_t)(id / L->grid.x % L->grid.y),
	               (uint32_t)(id / ((uint64_t)L->grid.x * L->grid.y))};
	c->nwarps = nw;
	c->warps = s->fw + cs->warp0;
	c->shared = s->shared + (size_t)slot * s->tg->shared_bytes;
	c->shared_bytes = s->tg->shared_bytes;
	c->live_warps = nw;
	c->smid = s->id;
	c->clock = &s->now;
	c->owner = s;
	c->rank = (int32_t)cluster_rank_of(L, c->id);
	cs->own = (Cluster){.n = 1, .wake = sm_cluster_wake};
	cs->own.cta[0] = c;
	c->cl = &cs->own;                  /* a cluster's dispatcher sets its own (timing.c) */
	for (int b = 0; b < 16; b++) c->bars[b].red_and = 1;
	memset(c->shared, 0, c->shared_bytes);
	cs->used = 1;
	cs->running = nw;
	s->cta_free--;
	if (s->rf->cta_launch) s->rf->cta_launch(s->rfm, slot, cs->warp0, nw);
	for (int32_t i = 0; i < nw; i++) {
		TWarp *w = &s->w[cs->warp0 + i];
		warp_reset(&c->warps[i], c, i);
		w->fw = &c->warps[i];
		w->fw->trace = &s->trace;
		w->cta = slot;
		sched_set_npc(s, w, sm_peek(s, w->fw));
		w->inflight = 0;
		w->age = s->tg->age++;
		w->ll_pc = -1;                  /* no livelock snapshot until the next check */
		w->ll_repeat = 0, w->ll_tries = 0;
		sb_reset(s, w);
		cpa_reset(w);
		set_wait(s, w, WAIT_NONE);
		s->resident++;
		sched_warp_added(s, w);
	}
	if (t < s->next) s->next = t;
}

/* ---- setup ---------------------------------------------------------------------- */

void sm_init(Sm *s, Timing *tg, int32_t id, int32_t ncta, int32_t wpc)
{
	const Config *cfg = tg->cfg;
	memset(s, 0, sizeof *s);
	s->id = id;
	s->cfg = cfg;
	s->L = tg->L;
	s->tp = &tg->tp;
	s->code = tg->L->img->code;
	s->tg = tg;
	s->next = SM_NEVER;
	s->ncta = s->cta_free = ncta;
	s->nwarps = ncta * wpc;
	s->fw = tg->fw + (size_t)id * (size_t)s->nwarps;
	s->shared = tg->shared + (size_t)id * (size_t)ncta * tg->shared_bytes;
	s->cta = xcalloc((size_t)ncta, sizeof *s->cta);
	for (int32_t k = 0; k < ncta; k++) s->cta[k].warp0 = k * wpc;
	s->w = xcalloc((size_t)s->nwarps, sizeof *s->w);
	s->sbwords = (s->tp->nslots + s->tp->npreds + 64) / 64;
	s->sbbits = xcalloc((size_t)s->nwarps * 2 * (size_t)s->sbwords, sizeof *s->sbbits);
	for (int32_t i = 0; i < s->nwarps; i++) {
		TWarp *w = &s->w[i];
		w->cta = -1;
		w->npc = -1;
		w->wait = WAIT_FREE;
		w->sb = s->sbbits + (size_t)i * 2 * (size_t)s->sbwords;
		w->lsb = w->sb + s->sbwords;
	}
	sched_init(s);
	evq_init(&s->evq, s->nwarps * 8);
	pipe_init(s);
	RfSm info = {.cfg = cfg, .sm = id, .nwarps = s->nwarps, .nsched = s->nsched, .prog = s->tp,
	             .regs_per_thread = tg->L->img->regs_per_thread, .warps_per_cta = wpc,
	             .st = &s->st, .gpu = &tg->rf_gpu, .img = tg->L->img, .fw = s->fw};
	s->rf = rf_models[cfg->rf_model];
	s->rfm = s->rf->init(&info);
	s->rf_tick = 0;
}

void sm_finish(Sm *s, int64_t end)
{
	sm_account(s, end);
	s->st.warps_allowed += (uint64_t)s->nwarps;
	s->st.warps_allowed_max += (uint64_t)s->cfg->sm_max_warps;
	if (s->rf->finish) s->rf->finish(s->rfm, &s->st);
}

void sm_fini(Sm *s)
{
	if (s->rf) s->rf->fini(s->rfm);
	for (int32_t k = 0; k < s->ncta; k++) free_warps(s, &s->cta[k]);
	smc_fini(&s->l1);
	smc_fini(&s->cc);
	for (int32_t i = s->ncu; i < s->ncu + s->ncu_mem; i++) free(s->cu[i].mop);
	free(s->trk);
	evq_fini(&s->evq);
	free(s->sbbits);
	free(s->sched);
	free(s->w);
	free(s->cta);
}

/* ---- the watchdog's report --------------------------------------------------------------- */

static const char *why(const Sm *s, const TWarp *w, char *buf, size_t n)
{
	const Cta *c = &s->cta[w->cta].c;
	switch (w->wait) {
	case WAIT_NONE:
		return s->sched[w->sched].active >> w->lidx & 1
		       ? "ready, refused by the register file or a full pipeline"
		       : "ready, in the two-level scheduler's pending set";
	case WAIT_SB: return "a register being written (arithmetic, or a shared, constant or "
	                     "parameter load)";
	case WAIT_MEM: return "a register a global or local load will write";
	case WAIT_ASYNC:
		snprintf(buf, n, "its cp.async copies (groups %u..%u in flight)", w->cpa_oldest,
		         w->cpa_open);
		return buf;
	case WAIT_BR: return "its branch to resolve";
	case WAIT_BAR: {
		if (w->fw->bar_id == CLUSTER_BAR) {
			snprintf(buf, n, "barrier.cluster.wait, %d warps of the cluster's %d blocks "
			         "arrived", c->cl->arrived, c->cl->n);
			return buf;
		}
		const Barrier *b = &c->bars[w->fw->bar_id];
		snprintf(buf, n, "barrier %u, %d of %d warps arrived", w->fw->bar_id, b->arrived,
		         b->expected ? b->expected : c->live_warps);
		return buf;
	}
	case WAIT_DONE:
		snprintf(buf, n, "its last %d instructions to complete (exited)", w->inflight);
		return buf;
	default: return "nothing";
	}
}

int sm_dump(const Sm *s, int lines)
{
	int used = 0;
	for (int32_t i = 0; i < s->nwarps && used < lines; i++) {
		const TWarp *w = &s->w[i];
		if (w->cta < 0) continue;
		const Cta *c = &s->cta[w->cta].c;
		char buf[96];
		int32_t pc = w->wait == WAIT_BAR ? w->fw->bar_pc : w->npc >= 0 ? w->npc : warp_pc(w->fw);
		err_append("\n  sm %d warp %d (block (%u,%u,%u) warp %d): pc %d (%s:%u), "
		           "%d in flight, waiting for %s", s->id, i, c->id.x, c->id.y, c->id.z,
		           w->fw->widx, pc, s->L->file, pc >= 0 ? s->code[pc].line : 0, w->inflight,
		           why(s, w, buf, sizeof buf));
		used++;
	}
	return used;
}
