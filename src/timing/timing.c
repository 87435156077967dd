/*
 * timing.c -- the GPU of the timing model: its SMs, the memory system, the
 * CTA dispatcher, and the loop that advances time.
 *
 * Dispatch.  How many CTAs an SM holds comes from the occupancy
 * arithmetic of src/analysis/occupancy.c (threads and warps, CTAs, shared
 * memory, registers with their allocation granularity; not registers when
 * the kernel runs on nvcc's virtual registers, compiler.regalloc = 0), and the
 * register-file model may raise the register limit (RfModel.max_ctas:
 * register sharing's extra CTAs).  At launch CTAs are handed out one per
 * SM in turn until the SMs are full (CTA 0 to SM 0, 1 to SM 1, ... as in
 * GPGPU-Sim); afterwards a CTA that finishes in cycle t frees its slot,
 * which the next CTA of the grid takes, its warps issuing from t + 1.  A
 * cooperative launch (Launch.grid_ws set) must fit whole at launch, its
 * blocks waiting for each other at grid.sync(); gpu.c checked the
 * occupancy, and a register-file model that admits fewer CTAs refuses it
 * here.
 *
 * Time.  Each loop iteration is one cycle: the DRAM channels step if they
 * have work, then each SM whose `next` cycle has come runs its cycle
 * (sm.c).  Then time jumps to the earliest cycle anything is due -- an
 * SM with a ready warp wants the next cycle, a sleeping SM its next event
 * -- so stretches where every warp waits for memory cost one iteration,
 * and SMs with nothing to do are not stepped at all.
 *
 * Ends.  The kernel ends when its last CTA finishes: cycles = that cycle
 * + 1.  A run also ends, with an error, when the functional core faults,
 * when the instruction budget (sim.watchdog, sim.max_warp_insts) or
 * sim.max_cycles (--max-cycles) is reached, and when no warp has issued
 * for sim.hang_cycles cycles while CTAs remain -- or nothing at all can
 * happen any more -- which is a deadlock -- or when every warp keeps
 * repeating a state without writing memory (a livelock, livelock.c):
 * each warp's pc, PTX line and what it waits for are reported (Ramulator
 * and ChampSim's watchdog that dumps every unit).  On a terminal, a run
 * longer than two seconds shows a progress line on stderr; elsewhere (a
 * CUDA program's output piped or logged) a kernel still running after
 * LONG_SEC seconds says so once, with how to bound it, since a loop that
 * counts for ever is no deadlock or livelock and would otherwise look
 * like a hang.  Both only print: the simulation is the same either way.
 */
#include "timing/timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/occupancy.h"
#include "base/base.h"
#include "base/rftech.h"
#include "timing/sm.h"

/* ---- checks and occupancy --------------------------------------------------------- */

int timing_check_config(const Config *c)
{
	uint32_t lb = (uint32_t)c->mem_line_bytes;
	if (lb & (lb - 1)) {
		err_set("config key mem.line_bytes = %u: must be a power of two", lb);
		return RF_EINPUT;
	}
	if ((c->sm_max_warps + c->sched_count - 1) / c->sched_count > 64) {
		err_set("config keys sm.max_warps = %lld and sched.count = %lld: a scheduler holds "
		        "at most 64 warps", (long long)c->sm_max_warps, (long long)c->sched_count);
		return RF_EINPUT;
	}
	if (c->oc_units + c->oc_mem_units > CU_MAX) {
		err_set("config keys oc.units + oc.mem_units = %lld: at most %d collector units",
		        (long long)(c->oc_units + c->oc_mem_units), CU_MAX);
		return RF_EINPUT;
	}
	if (c->rf_subcore && rftech_banks(c) % c->sched_count) {
		err_set("config key rf.subcore: rf.banks = %lld must be a multiple of sched.count = "
		        "%lld", (long long)rftech_banks(c), (long long)c->sched_count);
		return RF_EINPUT;
	}
	return RF_OK;
}

static int ctas_per_sm(Timing *tg)
{
	const Launch *L = tg->L;
	const Config *c = tg->cfg;
	Occupancy o;
	occupancy_compute(c, (int32_t)L->nthreads, L->img->regs_per_thread,
	                  (int64_t)L->img->shared_static + L->dyn_shmem, &o);
	int by_other = o.by[OCC_THREADS];
	if (o.by[OCC_CTAS] < by_other) by_other = o.by[OCC_CTAS];
	if (o.by[OCC_SHARED] < by_other) by_other = o.by[OCC_SHARED];
	/* nvcc's virtual registers (compiler.regalloc = 0, for differential
	 * testing) are not a machine resource: they do not limit occupancy */
	int by_regs = c->compiler_regalloc ? o.by[OCC_REGISTERS] : by_other;
	const RfModel *rf = rf_models[c->rf_model];
	RfSm info = {.cfg = c, .nsched = (int32_t)c->sched_count, .prog = &tg->tp,
	             .regs_per_thread = L->img->regs_per_thread,
	             .warps_per_cta = tg->warps_per_cta, .img = L->img};
	int n = rf->max_ctas ? rf->max_ctas(&info, by_regs, by_other)
	                     : (by_regs < by_other ? by_regs : by_other);
	if (n * tg->warps_per_cta > c->sm_max_warps) n = (int)(c->sm_max_warps / tg->warps_per_cta);
	if (n <= 0) {
		err_set("launch of %s: a block of %u threads with %d registers per thread and %lld "
		        "bytes of shared memory does not fit on an SM (limited by %s; see rfsim "
		        "config --help, sm.*)", L->kname, L->nthreads, L->img->regs_per_thread,
		        (long long)o.shared, occ_limit_name[o.limiter]);
		launch_fault(L, FAULT_NO_RESOURCES);
		return -1;
	}
	return n;
}

/* ---- dispatch ------------------------------------------------------------------ */

static int launch_one(Timing *tg, Sm *s, int64_t t)
{
	if (tg->next_cta >= tg->ncta || !s->cta_free) return 0;
	for (int32_t k = 0; k < s->ncta; k++) {
		if (s->cta[k].used) continue;
		sm_launch_cta(s, k, tg->next_cta++, t);
		return 1;
	}
	return 0;
}

/* a whole cluster at once, its CTAs in free slots one per SM in turn from
 * cl_rr (so they spread over the SMs as a GPC spreads them), or nothing
 * while fewer slots are free than it has CTAs */
static int launch_cluster(Timing *tg, int64_t t)
{
	const Launch *L = tg->L;
	if (tg->next_cluster >= tg->ncluster || !tg->nclfree) return 0;
	Sm *sm[CLUSTER_MAX];
	int32_t slot[CLUSTER_MAX], n = 0, n_before = -1;
	while (n < (int32_t)L->csize && n != n_before) {
		n_before = n;
		for (int32_t j = 0; j < tg->nsm && n < (int32_t)L->csize; j++) {
			Sm *s = &tg->sm[(tg->cl_rr + j) % tg->nsm];
			for (int32_t k = 0; k < s->ncta; k++) {
				int taken = s->cta[k].used;
				for (int32_t i = 0; i < n && !taken; i++) taken = sm[i] == s && slot[i] == k;
				if (taken) continue;
				sm[n] = s, slot[n++] = k;
				break;
			}
		}
	}
	if (n < (int32_t)L->csize) return 0;
	Cluster *cl = &tg->clpool[tg->clfree[--tg->nclfree]];
	*cl = (Cluster){.n = n, .wake = sm_cluster_wake};
	uint64_t ids[CLUSTER_MAX];
	cluster_members(L, tg->next_cluster++, ids);
	for (int32_t r = 0; r < n; r++) {
		sm_launch_cta(sm[r], slot[r], ids[r], t);
		Cta *c = &sm[r]->cta[slot[r]].c;
		c->cl = cl, cl->cta[r] = c;
	}
	tg->cl_rr = (int32_t)((sm[n - 1]->id + 1) % tg->nsm);
	return 1;
}

static void dispatch(Timing *tg, int64_t t, int initial)
{
	tg->want_cta = 0;
	if (tg->L->csize > 1) {
		while (launch_cluster(tg, t)) {}
		return;
	}
	if (initial) {                          /* breadth first: one per SM per round */
		for (int any = 1; any;) {
			any = 0;
			for (int32_t i = 0; i < tg->nsm; i++) any |= launch_one(tg, &tg->sm[i], t);
		}
		return;
	}
	for (int32_t i = 0; i < tg->nsm && tg->next_cta < tg->ncta; i++)
		while (launch_one(tg, &tg->sm[i], t)) {}
}

/* ---- reports -------------------------------------------------------------------- */

static void dump_warps(Timing *tg)
{
	int lines = 0, more = 0;
	for (int32_t i = 0; i < tg->nsm; i++) lines += sm_dump(&tg->sm[i], 40 - lines);
	for (int32_t i = 0; i < tg->nsm; i++)
		for (int32_t k = 0; k < tg->sm[i].nwarps; k++) more += tg->sm[i].w[k].cta >= 0;
	if (more > lines) err_append("\n  ... and %d more warps", more - lines);
}

static void report_hang(Timing *tg, int64_t now, int never)
{
	launch_fault(tg->L, FAULT_DEADLOCK);
	if (never)
		err_set("kernel deadlock: in kernel %s at cycle %lld no warp can ever issue again, "
		        "%llu of %llu blocks unfinished; the warps:", tg->L->kname, (long long)now,
		        (unsigned long long)(tg->ncta - tg->done_cta), (unsigned long long)tg->ncta);
	else
		err_set("kernel deadlock: in kernel %s no warp has issued for %lld cycles (cycle "
		        "%lld; config key sim.hang_cycles), %llu of %llu blocks unfinished; the warps:",
		        tg->L->kname, (long long)(now - tg->last_issue), (long long)now,
		        (unsigned long long)(tg->ncta - tg->done_cta), (unsigned long long)tg->ncta);
	dump_warps(tg);
}

static void report_livelock(Timing *tg, int64_t now)
{
	launch_fault(tg->L, FAULT_DEADLOCK);
	err_set("kernel livelock: in kernel %s the warps keep issuing but can never finish: "
	        "each one came back to an earlier state (pc, registers, predicates) with no "
	        "memory written anywhere in between, in the last %lld cycles (cycle %lld; config "
	        "key sim.hang_cycles), %llu of %llu blocks unfinished; the warps:", tg->L->kname,
	        (long long)tg->cfg->sim_hang_cycles, (long long)now,
	        (unsigned long long)(tg->ncta - tg->done_cta), (unsigned long long)tg->ncta);
	dump_warps(tg);
}

enum { LONG_SEC = 30 };      /* a kernel this long, not on a terminal, is mentioned */

typedef struct Progress {
	int on;                  /* stderr is a terminal and sim.progress */
	int shown;
	double t0, last;
	double run0;             /* when the GPU's first timing kernel began (Launch.run_t0) */
	int noted;               /* not a terminal: the long-kernel note is out */
} Progress;

static void progress(Progress *p, const Timing *tg, int64_t now)
{
	double t = now_sec();
	if (t - p->run0 < 2 || t - p->last < 0.5) return;
	p->last = t;
	p->shown = 1;
	fprintf(stderr, "\rrfsim: %s: cycle %lld, %lld warp instructions, %.2f M/s   ",
	        tg->L->kname, (long long)now, (long long)tg->issued,
	        (double)tg->issued / (t - p->t0) / 1e6);
	fflush(stderr);
}

/* not on a terminal: one line once the kernel has run LONG_SEC seconds */
static void note_long(Progress *p, const Timing *tg, int64_t now)
{
	double t = now_sec();
	if (t - p->t0 < LONG_SEC) return;
	p->noted = 1;
	fprintf(stderr, "rfsim: kernel %s is still running after %.0f s (cycle %lld, %lld warp "
	        "instructions); if it never ends, bound it with config key sim.max_cycles "
	        "(--max-cycles N; RFSIM_SET=sim.max_cycles=N for a CUDA program)\n",
	        tg->L->kname, t - p->t0, (long long)now, (long long)tg->issued);
	fflush(stderr);
}

/* ---- the loop ------------------------------------------------------------------- */


static int limits(Timing *tg, int64_t now, int64_t nx)
{
	const Config *c = tg->cfg;
	if (tg->fault) return RF_ERUNTIME;
	if (tg->issued >= tg->budget) {
		launch_fault(tg->L, FAULT_LIMIT);
		err_set("kernel %s stopped at the instruction limit (%s): a runaway loop?",
		        tg->L->kname, tg->L->limit_why);
		return RF_ERUNTIME;
	}
	if (nx == SM_NEVER || nx - tg->last_issue > c->sim_hang_cycles) {
		report_hang(tg, nx == SM_NEVER ? now : nx, nx == SM_NEVER);
		return RF_ERUNTIME;
	}
	if (now >= tg->ll_next) {
		if (livelock_check(tg)) {
			report_livelock(tg, now);
			return RF_ERUNTIME;
		}
		tg->ll_next = now + c->sim_hang_cycles;
	}
	if (c->sim_max_cycles && nx >= c->sim_max_cycles) {
		launch_fault(tg->L, FAULT_LIMIT);
		err_set("kernel %s stopped after %lld cycles (config key sim.max_cycles, "
		        "--max-cycles)", tg->L->kname, (long long)c->sim_max_cycles);
		return RF_ERUNTIME;
	}
	return RF_OK;
}

static int run(Timing *tg, int64_t *end)
{
	Progress pr = {tg->cfg->sim_progress && isatty(2), 0, now_sec(), 0, 0,
	               !tg->cfg->sim_progress};
	double *t0 = tg->L->run_t0;
	if (t0 && !*t0) *t0 = pr.t0;
	pr.run0 = t0 ? *t0 : pr.t0;
	int64_t now = 0;
	uint64_t iter = 0;
	int rc = RF_OK;
	dispatch(tg, 0, 1);
	for (;;) {
		tg->now = now;
		memsys_step(tg->ms, now);
		int64_t nx = SM_NEVER;
		for (int32_t i = 0; i < tg->nsm; i++) {
			Sm *s = &tg->sm[i];
			if (s->next <= now) sm_cycle(s, now);
			if (s->next < nx) nx = s->next;
		}
		if (tg->done_cta == tg->ncta && !tg->fault) break;
		if (tg->woke) {                  /* an SM stepped before the waker has work */
			tg->woke = 0;
			if (now + 1 < nx) nx = now + 1;
		}
		if (tg->want_cta) {
			dispatch(tg, now + 1, 0);
			if (now + 1 < nx) nx = now + 1;
		}
		int64_t nm = memsys_next(tg->ms);
		if (nm < nx) nx = nm;
		if (nx <= now) nx = now + 1;
		if ((rc = limits(tg, now, nx))) break;
		if (!(++iter & 0x3fff)) {
			if (pr.on) progress(&pr, tg, now);
			else if (!pr.noted) note_long(&pr, tg, now);
		}
		now = nx;
	}
	if (pr.shown) fputs("\r\033[K", stderr);
	*end = now + 1;
	return rc;
}

/* ---- setup and teardown ---------------------------------------------------------------- */

static int setup(Timing *tg, const Launch *L, const Config *cfg, int64_t budget)
{
	memset(tg, 0, sizeof *tg);
	tg->cfg = cfg;
	tg->L = L;
	tg->budget = budget;
	tg->ll_next = cfg->sim_hang_cycles;         /* shorter kernels are never hashed */
	tg->nsm = (int32_t)cfg->sm_count;
	tg->ncta = (uint64_t)L->grid.x * L->grid.y * L->grid.z;
	tg->warps_per_cta = (int32_t)((L->nthreads + 31) / 32);
	tg->shared_bytes = img_cta_shared(L->img, L->dyn_shmem);
	if (timing_check_config(cfg)) return RF_EINPUT;
	tprog_build(&tg->tp, L->img);
	int n = ctas_per_sm(tg);
	if (n < 0) return RF_EINPUT;
	if (L->grid_ws && tg->ncta > (uint64_t)n * (uint64_t)tg->nsm) {
		/* gpu.c checked the occupancy; a register-file model admitting fewer CTAs
		   would leave part of a cooperative grid waiting for ever */
		err_set("cooperative launch of %s: %llu blocks cannot all be resident at once under "
		        "rf.model %s: %d per SM x %d SMs", L->kname, (unsigned long long)tg->ncta,
		        rf_model_name[cfg->rf_model], n, tg->nsm);
		launch_fault(L, FAULT_COOP_TOO_LARGE);
		return RF_EINPUT;
	}
	if (L->csize > 1 && L->csize > (uint64_t)n * (uint64_t)tg->nsm) {
		err_set("launch of %s: a cluster of %u blocks cannot be resident at once: %d blocks "
		        "per SM x %d SMs", L->kname, L->csize, n, tg->nsm);
		launch_fault(L, FAULT_NO_RESOURCES);
		return RF_EINPUT;
	}
	tg->ctas_per_sm = n;
	if (L->csize > 1) {                 /* at most one cluster per resident CTA */
		int32_t np = tg->nsm * n;
		tg->clpool = xcalloc((size_t)np, sizeof *tg->clpool);
		tg->clfree = xcalloc((size_t)np, sizeof *tg->clfree);
		for (int32_t i = 0; i < np; i++) tg->clfree[i] = np - 1 - i;
		tg->nclfree = np;
		tg->ncluster = tg->ncta / L->csize;
	}
	size_t nw = (size_t)tg->nsm * (size_t)n * (size_t)tg->warps_per_cta;
	tg->fw = xcalloc(nw, sizeof *tg->fw);
	tg->shared = xcalloc((size_t)tg->nsm * (size_t)n * tg->shared_bytes + 1, 1);
	if (L->mem && *L->mem) {                  /* the L2 keeps what earlier kernels left */
		tg->ms = *L->mem;
		memsys_settle(tg->ms);
	} else {
		tg->ms = memsys_new(cfg, tg->nsm);
		if (L->mem) *L->mem = tg->ms;
	}
	tg->sm = xcalloc((size_t)tg->nsm, sizeof *tg->sm);
	for (int32_t i = 0; i < tg->nsm; i++) sm_init(&tg->sm[i], tg, i, n, tg->warps_per_cta);
	return RF_OK;
}

static void teardown(Timing *tg)
{
	for (int32_t i = 0; tg->sm && i < tg->nsm; i++) sm_fini(&tg->sm[i]);
	free(tg->rf_gpu);
	free(tg->sm);
	if (!tg->L || !tg->L->mem) memsys_free(tg->ms);
	free(tg->fw);
	free(tg->shared);
	free(tg->clpool);
	free(tg->clfree);
	tprog_free(&tg->tp);
}

int timing_launch(const Launch *L, const Config *cfg, int64_t budget, KernelStats *ks)
{
	Timing tg;
	int rc = setup(&tg, L, cfg, budget);
	if (rc) {
		teardown(&tg);
		return rc;
	}
	int64_t end;
	rc = run(&tg, &end);
	TStats *t = &ks->ts;
	memset(t, 0, sizeof *t);
	for (int32_t i = 0; i < tg.nsm; i++) {
		sm_finish(&tg.sm[i], end);
		tstats_add(t, &tg.sm[i].st);
	}
	tstats_add(t, &tg.ms->st);
	t->cycles = (uint64_t)end;
	t->warp_slots = (uint64_t)end * (uint64_t)tg.nsm * (uint64_t)cfg->sm_max_warps;
	t->sm_cycles = (uint64_t)end * (uint64_t)tg.nsm;
	t->cta_slot_cycles = t->sm_cycles * (uint64_t)tg.ctas_per_sm;
	ks->warp_insts = (uint64_t)tg.issued;
	ks->thread_insts = tg.thread_insts;
	for (int32_t i = 0; i < tg.nsm; i++)       /* CTAs cut short by an error */
		for (int32_t k = 0; k < tg.sm[i].ncta; k++) {
			const CtaSlot *cs = &tg.sm[i].cta[k];
			for (int32_t j = 0; cs->used && !cs->held && j < cs->c.nwarps; j++)
				ks->thread_insts += cs->c.warps[j].nthread;
		}
	ks->timed = 1;
	teardown(&tg);
	return rc;
}
