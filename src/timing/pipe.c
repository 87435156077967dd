/*
 * pipe.c -- execution units, and the load/store unit's way into memory.
 *
 * Each unit class (SP, SFU, DP, branch, tensor: pipe.*.count/lat/ii) has `count`
 * identical pipelined units; an instruction dispatched to a unit occupies
 * it for `ii` cycles (a 16-lane SP takes a warp in 2) and writes back
 * `lat` cycles after dispatch.  A branch that split its warp costs
 * pipe.diverge_cycles more (the SIMT stack push).
 *
 * The load/store unit (pipe.ldst.count of them) takes one line request,
 * one shared-memory wavefront or one constant-cache address per cycle
 * (GPGPU-Sim's LD/ST unit), in that order.  It holds an instruction while
 * its cache lacks MSHRs or merge slots for the lines that miss.  Latency,
 * from dispatch: shared memory smem.lat + (wavefronts - 1); constant cache
 * cc.lat on a hit; L1 l1.lat on a hit; a miss is answered by the memory
 * system (mem/).  Global loads bypass L1 when l1.cache_global is 0; local
 * memory always goes through L1.  Global atomics are done at L2; shared
 * atomics are shared accesses.  Stores and reductions do not hold the
 * warp: they complete when their last request has left.
 *
 * A cp.async is a read of its global lines (through L1 for .ca, L2 only
 * for .cg, whatever l1.cache_global says) after the wavefronts of its
 * shared write; its "writeback" (no registers) is the completion async.c
 * counts.  wmma.mma and mma run on the tensor unit (pipe.tc.*), an mma
 * of a smaller shape for a shorter initiation interval (tins.c).
 *
 * A texture fetch (tex, tld4) is a load of the texels it touched (exec_tex.c)
 * whose writeback comes tex.lat cycles after its last line: the texture
 * unit's filtering stage.
 *
 * A load's writeback waits for all its lines: a Tracker counts the
 * answers still to come (sm_mem_done), with a guard count while the
 * requests are being sent so an answer known at once cannot finish it
 * early.
 */
#include "timing/sm.h"

#include <stdlib.h>

#include "base/base.h"

void pipe_init(Sm *s)
{
	const Config *c = s->cfg;
	int64_t cnt[NTU] = {c->pipe_sp_count, c->pipe_sfu_count, c->pipe_dp_count,
	                    c->pipe_ldst_count, c->pipe_br_count, c->pipe_tc_count};
	int64_t lat[NTU] = {c->pipe_sp_lat, c->pipe_sfu_lat, c->pipe_dp_lat, 1, c->pipe_br_lat,
	                    c->pipe_tc_lat};
	int64_t ii[NTU] = {c->pipe_sp_ii, c->pipe_sfu_ii, c->pipe_dp_ii, 1, c->pipe_br_ii,
	                   c->pipe_tc_ii};
	for (int k = 0; k < NTU; k++) {
		s->nunit[k] = (int32_t)cnt[k];
		s->lat[k] = lat[k];
		s->ii[k] = ii[k];
	}
	s->diverge = c->pipe_diverge_cycles;
	s->smem_lat = c->smem_lat;
	s->smem_cluster_lat = c->smem_cluster_lat;
	s->tex_lat = c->tex_lat;
	s->ncu = (int32_t)c->oc_units;
	s->ncu_mem = (int32_t)c->oc_mem_units;
	for (int32_t i = s->ncu; i < s->ncu + s->ncu_mem; i++) s->cu[i].mop = xmalloc(sizeof(MemOp));
	s->cu_mask_alu = s->ncu >= 64 ? ~0ull : (1ull << s->ncu) - 1;
	s->cu_mask_mem = (s->ncu_mem >= 64 ? ~0ull : (1ull << s->ncu_mem) - 1) << s->ncu;
	uint32_t shift = 0;
	while ((1u << shift) < (uint32_t)c->mem_line_bytes) shift++;
	s->coal.line_shift = shift;
	s->coal.smem_banks = (uint32_t)c->smem_banks;
	s->coal.local_words = ((uint32_t)s->L->img->max_local + 3) / 4 + 1;
	MemSys *ms = s->tg->ms;
	smc_init(&s->l1, SMC_L1, s->id, ms, c->l1_bytes, c->l1_assoc, c->l1_mshrs, c->l1_mshr_merge,
	         c->l1_lat, c->l1_write_policy == 1, sm_mem_done, s, &s->st.l1_hits,
	         &s->st.l1_misses);
	smc_init(&s->cc, SMC_CC, s->id, ms, c->cc_bytes, 4, 8, 8, c->cc_lat, 0, sm_mem_done, s,
	         &s->st.cc_hits, &s->st.cc_misses);
	ms->l1[s->id] = &s->l1;
	ms->cc[s->id] = &s->cc;
	ms->done[s->id] = sm_mem_done;
	ms->ctx[s->id] = s;
	s->ntrk = s->nwarps * 4 + 8;
	s->trk = xmalloc((size_t)s->ntrk * sizeof *s->trk);
	for (int32_t i = 0; i < s->ntrk; i++) s->trk[i].next_free = i + 1 < s->ntrk ? i + 1 : -1;
	s->trk_free = 0;
}

void pipe_memop(Sm *s, TWarp *w, CU *u, const TIns *ti)
{
	s->coal.warp_gid = (uint64_t)s->id * (uint64_t)s->nwarps + (uint64_t)(w - s->w);
	if (ti->cpa == CPA_COPY || ti->cpa == CPA_COPY_L2)
		memop_build_cp(u->mop, &s->trace, &s->coal, ti->cpa == CPA_COPY ? MOC_L1 : MOC_L2);
	else
		memop_build(u->mop, &s->trace, &s->coal, (ti->flags & TF_STORE) != 0,
		            (ti->flags & TF_LOAD) != 0, (ti->flags & TF_ATOMIC) != 0);
}

/* a free unit of class k, or NULL (s->usoon[k] says when one will be) */
static Unit *free_unit(Sm *s, int k)
{
	if (s->usoon[k] > s->now) return NULL;
	for (int32_t i = 0; i < s->nunit[k]; i++)
		if (s->unit[k][i].free <= s->now) return &s->unit[k][i];
	return NULL;
}

/* unit u of class k is busy until `until` */
static void occupy(Sm *s, int k, Unit *u, int64_t until)
{
	u->free = until;
	int64_t soon = INT64_MAX;
	for (int32_t i = 0; i < s->nunit[k]; i++)
		if (s->unit[k][i].free < soon) soon = s->unit[k][i].free;
	s->usoon[k] = soon;
}

static int32_t new_tracker(Sm *s, const Event *ev)
{
	if (s->trk_free < 0) {                 /* grow: rare, bounded by loads in flight */
		int32_t n = s->ntrk;
		s->ntrk *= 2;
		s->trk = xrealloc(s->trk, (size_t)s->ntrk * sizeof *s->trk);
		for (int32_t i = n; i < s->ntrk; i++) s->trk[i].next_free = i + 1 < s->ntrk ? i + 1 : -1;
		s->trk_free = n;
	}
	int32_t id = s->trk_free;
	Tracker *k = &s->trk[id];
	s->trk_free = k->next_free;
	k->left = 1;                           /* the guard */
	k->t = s->now + 1;
	k->t0 = s->now;
	k->gload = 0;
	k->extra = 0;
	k->ev = *ev;
	return id;
}

/* does line i of op go through L1? */
static int l1_cached(const Sm *s, const MemOp *op, int i)
{
	if (op->lmask >> i & 1) return 1;        /* local memory */
	return op->cache == MOC_DEFAULT ? (int)s->cfg->l1_cache_global : op->cache == MOC_L1;
}

/* can the caches take this access now?  1, or 0 with *retry: when to ask again */
static int mem_ready(Sm *s, const MemOp *op, int64_t *retry)
{
	if (op->ncline && !smc_can_read(&s->cc, op->cline, op->ncline, s->now)) {
		*retry = s->cc.retry;
		return 0;
	}
	if (!op->nline) return 1;
	int direct = op->store || op->atomic;       /* sent to L2 without an L1 MSHR */
	if (!direct) {                               /* reads through L1 need MSHRs */
		if (l1_cached(s, op, 0) || op->lmask) {
			if (s->now < s->l1.retry) {          /* known to refuse: spare the lookups */
				*retry = s->l1.retry;
				return 0;
			}
			uint64_t la[MEMOP_MAXLINES];
			int n = 0;
			for (int i = 0; i < op->nline; i++)
				if (l1_cached(s, op, i)) la[n++] = op->line[i];
			if (!smc_can_read(&s->l1, la, n, s->now)) {
				*retry = s->l1.retry;
				return 0;
			}
			for (int i = 0; i < op->nline && !direct; i++) direct = !l1_cached(s, op, i);
		} else {
			direct = 1;
		}
	}
	/* stores, atomics and uncached reads go out through the miss queue too */
	return !direct || memsys_can_send(s->tg->ms, s->id, s->now, retry);
}

/* send line i of op at cycle t; the cycle it is done, or MEM_PENDING */
static int64_t send_line(Sm *s, const MemOp *op, int i, int64_t t, int32_t id)
{
	uint64_t la = op->line[i];
	int cached = l1_cached(s, op, i);
	if (op->atomic) {
		memsys_read(s->tg->ms, s->id, MW_DIRECT, id, la, op->part[i], t, 1);
		return MEM_PENDING;
	}
	if (op->store) {
		if (cached) smc_write(&s->l1, la, op->part[i], t);
		else memsys_write(s->tg->ms, s->id, la, op->part[i], t);
		return t + 1;
	}
	if (cached) return smc_read(&s->l1, la, t, id);
	memsys_read(s->tg->ms, s->id, MW_DIRECT, id, la, op->part[i], t, 0);
	return MEM_PENDING;
}

static int64_t ldst(Sm *s, CU *u, Unit *un)
{
	const MemOp *op = u->mop;
	int64_t retry;
	if (!mem_ready(s, op, &retry)) return retry;
	int64_t t = s->now, waves = op->smem_waves + op->cc_waves + op->nline;
	occupy(s, TU_LDST, un, t + (waves ? waves : 1));
	int32_t id = new_tracker(s, &u->ev);
	Tracker *k = &s->trk[id];              /* (trk may move only in new_tracker) */
	if (s->tp->ins[u->pc].tex) k->extra = s->tex_lat;
	k->gload = op->load && !op->store && !op->atomic && op->nline && !op->lmask;
	int64_t done = t + 1;
	if (op->smem_waves) {
		s->st.smem_accesses++;
		s->st.smem_conflicts += (uint64_t)op->smem_waves - 1;
		t += op->smem_waves;
		int64_t lat = op->dsmem ? s->smem_cluster_lat : s->smem_lat;
		if (t - 1 + lat > done) done = t - 1 + lat;
	}
	for (int i = 0; i < op->ncline; i++) {  /* an answer may come back at once: count first */
		k->left++;
		int64_t r = smc_read(&s->cc, op->cline[i], t + i, id);
		if (r != MEM_PENDING) sm_mem_done(s, id, r);
	}
	t += op->cc_waves;
	int l1hit = op->nline > 0;             /* statistics (deact_longlat_l1hit) */
	for (int i = 0; i < op->nline; i++) {
		k->left++;
		int64_t r = send_line(s, op, i, t + i, id);
		if (r == MEM_PENDING || !l1_cached(s, op, i)) l1hit = 0;
		if (r != MEM_PENDING) sm_mem_done(s, id, r);
	}
	s->trk[id].ev.l1hit = (uint8_t)l1hit;
	sm_mem_done(s, id, done);              /* drop the guard */
	return 0;
}

int64_t pipe_dispatch(Sm *s, CU *u)
{
	const TIns *ti = &s->tp->ins[u->pc];
	Unit *un = free_unit(s, ti->unit);
	if (!un) return s->usoon[ti->unit];
	if (ti->unit == TU_LDST) return ldst(s, u, un);
	int64_t ii = s->ii[ti->unit] >> ti->ii_shift;
	occupy(s, ti->unit, un, s->now + (ii > 0 ? ii : 1));
	u->ev.t = s->now + s->lat[ti->unit] + u->extra;
	sm_push(s, &u->ev);
	return 0;
}
