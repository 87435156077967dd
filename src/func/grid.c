/*
 * grid.c -- functional mode's grid runner: the CTAs of a launch on the
 * functional core alone, with no timing (gpu.c hands it the launch).
 *
 * Functional mode runs the CTAs of a grid one after another, in launch
 * order (x fastest), on a virtual SM chosen round-robin (so %smid looks
 * like a real distribution).  Inside a CTA every ready warp runs until it
 * waits at a barrier, finishes, or has spent a slice of instructions; when
 * every live warp waits, the barriers whose counts are met release.  If
 * none can release, the CTA is deadlocked and the report lists every
 * warp's state.  This order is deterministic, so results are bit-identical
 * run to run.  A kernel whose CTAs wait for each other through global
 * memory cannot finish in this order: when a CTA spins (livelock.c says it
 * cannot end on its own) while later CTAs have yet to run -- a software
 * barrier across the grid, as Parboil's BFS has -- the rest of the grid
 * runs in rounds from there, as many CTAs resident at once as the GPU
 * holds (run_resident), so those CTAs can write what it waits for.  A lock
 * that CTAs never release is then reported as a livelock of the residents.
 *
 * A cooperative launch (gpu_launch_coop) is the exception: its CTAs wait
 * for each other by design (cooperative_groups' grid.sync() spins on a
 * counter in a workspace the launch provides; exec.c's %envreg), so its
 * whole grid must fit on the GPU at once -- the occupancy times the SMs,
 * as NVIDIA's driver requires -- and functional mode keeps every CTA
 * resident and runs them in rounds, each ready warp a short slice per
 * round.  A warp spinning at grid.sync() only waits for writes by other
 * CTAs, so the livelock test looks at the whole grid: only when no CTA
 * wrote memory or finished a warp for two rounds, and stepping every CTA's
 * ready warps brings each back to its state with still nothing written,
 * can the grid never end.
 */
#include "func/grid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "func/warp.h"

typedef struct CtaBuf {      /* warp buffers reused by every CTA of a launch */
	Warp *warps;
	int32_t nwarps;
	uint8_t *shared;
} CtaBuf;

static void ctabuf_init(CtaBuf *b, const Image *img, int32_t nwarps, uint32_t shared)
{
	b->nwarps = nwarps;
	b->warps = xcalloc((size_t)nwarps, sizeof *b->warps);
	for (int32_t i = 0; i < nwarps; i++) {
		Warp *w = &b->warps[i];
		w->regs = xcalloc((size_t)(img->max_slots + 1) * 32, sizeof *w->regs);
		w->preds = xcalloc((size_t)img->max_preds + 1, sizeof *w->preds);
		w->local_bytes = (uint32_t)img->max_local;
		w->local = xcalloc((size_t)w->local_bytes * 32 + 1, 1);
	}
	b->shared = xcalloc((size_t)shared + 1, 1);
}

static void ctabuf_free(CtaBuf *b)
{
	for (int32_t i = 0; i < b->nwarps; i++) {
		free(b->warps[i].regs);
		free(b->warps[i].preds);
		free(b->warps[i].local);
		free(b->warps[i].stk);
	}
	free(b->warps);
	free(b->shared);
}

static void deadlock_report(const Cta *c)
{
	const Launch *L = c->L;
	launch_fault(L, FAULT_DEADLOCK);
	err_set("kernel deadlock: in kernel %s, block (%u,%u,%u) no warp can proceed", L->kname,
	        c->id.x, c->id.y, c->id.z);
	for (int32_t i = 0; i < c->nwarps; i++) {
		const Warp *w = &c->warps[i];
		if (w->state == W_DONE) {
			err_append("\n  warp %d: exited", i);
			continue;
		}
		if (w->bar_id == CLUSTER_BAR) {
			err_append("\n  warp %d: waiting at barrier.cluster.wait (%s:%u), %d warps of "
			           "the cluster's %d CTAs arrived, active lanes 0x%08x", i, L->file,
			           L->img->code[w->bar_pc].line, c->cl->arrived, c->cl->n,
			           w->stk[w->nstk - 1].mask);
			continue;
		}
		const Barrier *b = &c->bars[w->bar_id];
		err_append("\n  warp %d: waiting at barrier %u (%s:%u), %d of %d warps arrived, "
		           "active lanes 0x%08x", i, w->bar_id, L->file, L->img->code[w->bar_pc].line,
		           b->arrived, b->expected ? b->expected : c->live_warps,
		           w->stk[w->nstk - 1].mask);
	}
}

static void livelock_report(const Cta *c)
{
	const Launch *L = c->L;
	launch_fault(L, FAULT_DEADLOCK);
	err_set("kernel livelock: in kernel %s, block (%u,%u,%u) the warps keep running but can "
	        "never finish: each came back to an earlier state (pc, registers, predicates) "
	        "with no memory written in between", L->kname, c->id.x, c->id.y, c->id.z);
	for (int32_t i = 0; i < c->nwarps; i++) {
		const Warp *w = &c->warps[i];
		if (w->state == W_DONE) err_append("\n  warp %d: exited", i);
		else if (w->state != W_READY && w->bar_id == CLUSTER_BAR)
			err_append("\n  warp %d: waiting at barrier.cluster.wait (%s:%u)", i, L->file,
			           L->img->code[w->bar_pc].line);
		else if (w->state != W_READY)
			err_append("\n  warp %d: waiting at barrier %u (%s:%u)", i, w->bar_id, L->file,
			           L->img->code[w->bar_pc].line);
		else
			err_append("\n  warp %d: spinning at %s:%u, active lanes 0x%08x", i, L->file,
			           L->img->code[warp_pc(w)].line, w->stk[w->nstk - 1].mask);
	}
}

static int limit_reached(const Cta *c)
{
	launch_fault(c->L, FAULT_LIMIT);
	err_set("kernel %s stopped at the instruction limit (%s): a runaway loop, or blocks "
	        "waiting for each other, which functional mode runs one at a time "
	        "(cooperative launches excepted)", c->L->kname, c->L->limit_why);
	return RF_ERUNTIME;
}

/* each ready warp of CTA c runs up to slice instructions; *ran: some warp
   ran; RF_OK, or RF_ERUNTIME (a fault, or the instruction budget spent) */
static int run_slices(Cta *c, int64_t *budget, int64_t slice, int *ran)
{
	*ran = 0;
	for (int32_t i = 0; i < c->nwarps; i++) {
		Warp *w = &c->warps[i];
		if (w->state != W_READY) continue;
		uint64_t before = w->ninsts;
		int r = exec_run(c, w, slice);
		*budget -= (int64_t)(w->ninsts - before);
		if (r == EX_FAULT) return RF_ERUNTIME;
		*ran = 1;
		if (*budget <= 0) return limit_reached(c);
	}
	return RF_OK;
}

/* every live warp of c waits at a barrier: release what can go; RF_OK, or
   RF_ERUNTIME when no warp is ready after it (a deadlock, reported) */
static int release_or_deadlock(Cta *c)
{
	cta_release_barriers(c);
	int ready = 0;
	for (int32_t i = 0; i < c->nwarps; i++) ready |= c->warps[i].state == W_READY;
	if (ready) return RF_OK;
	deadlock_report(c);
	return RF_ERUNTIME;
}

enum { CTA_SPINS = -1 };     /* run_cta: it cannot end on its own (others may free it) */

/* run one CTA to completion; RF_OK or RF_ERUNTIME, or CTA_SPINS when it livelocks
 * and others (later CTAs) could still write what it waits for */
static int run_cta(Cta *c, int64_t *budget, int others)
{
	enum { SLICE = 1 << 16 };
	uint64_t writes = 0;
	int32_t live = -1, quiet = 0;       /* rounds with no write and no warp done */
	for (;;) {
		int ran;
		if (run_slices(c, budget, SLICE, &ran) != RF_OK) return RF_ERUNTIME;
		if (!c->live_warps) return RF_OK;
		if (ran) {
			uint64_t n = cta_writes(c);
			quiet = n == writes && c->live_warps == live ? quiet + 1 : 0;
			writes = n, live = c->live_warps;
			if (quiet >= 2) {
				int r = livelock_cta(c, budget);
				if (r < 0) return RF_ERUNTIME;
				if (r && others) return CTA_SPINS;
				if (r) {
					livelock_report(c);
					return RF_ERUNTIME;
				}
				quiet = 0;
			}
			continue;
		}
		if (release_or_deadlock(c) != RF_OK) return RF_ERUNTIME;
	}
}

/* CTA number id of the launch, on the buffers of buf, ready to run */
static void cta_start(Cta *c, const Launch *L, uint64_t id, CtaBuf *buf)
{
	Dim3 grid = L->grid;
	int32_t nwarps = (int32_t)((L->nthreads + 31) / 32);
	uint32_t shared = img_cta_shared(L->img, L->dyn_shmem);
	*c = (Cta){0};
	c->L = L;
	c->id = (Dim3){(uint32_t)(id % grid.x), (uint32_t)(id / grid.x % grid.y),
	               (uint32_t)(id / ((uint64_t)grid.x * grid.y))};
	c->nwarps = nwarps;
	c->warps = buf->warps;
	c->shared = buf->shared;
	c->shared_bytes = shared;
	c->live_warps = nwarps;
	c->smid = (int32_t)(id % (uint64_t)L->nsm);
	c->rank = (int32_t)cluster_rank_of(L, c->id);
	for (int b = 0; b < 16; b++) c->bars[b].red_and = 1;
	memset(c->shared, 0, shared);
	for (int32_t i = 0; i < nwarps; i++) warp_reset(&c->warps[i], c, i);
}

static void cta_count(const Cta *c, GridCount *ks)
{
	for (int32_t i = 0; i < c->nwarps; i++) {
		ks->warp_insts += c->warps[i].ninsts;
		ks->thread_insts += c->warps[i].nthread;
	}
}

static int run_clusters(const Launch *L, int64_t budget, GridCount *ks);
static int coop_livelock(Cta *cs, uint64_t ncta, int64_t *budget);
static int coop_round(Cta *c, int64_t *budget, int *ran);
static int run_resident(const Launch *L, Cta *first, CtaBuf *buf, uint64_t next,
                        uint64_t fit, int64_t budget, GridCount *ks);

/* functional mode: the CTAs of the grid one after another.  A CTA that spins
 * for memory a later CTA could write (a software barrier across the grid:
 * Parboil's BFS) hands over to run_resident, which from there runs the rest
 * of the grid in rounds, at most `fit` CTAs resident at once as on the GPU. */
int grid_run(const Launch *L, uint64_t fit, int64_t budget, GridCount *ks)
{
	if (L->csize > 1) return run_clusters(L, budget, ks);
	int32_t nwarps = (int32_t)((L->nthreads + 31) / 32);
	CtaBuf buf;
	ctabuf_init(&buf, L->img, nwarps, img_cta_shared(L->img, L->dyn_shmem));
	int rc = RF_OK;
	uint64_t ncta = (uint64_t)L->grid.x * L->grid.y * L->grid.z;
	for (uint64_t id = 0; id < ncta && rc == RF_OK; id++) {
		Cta c;
		Cluster cl = {.n = 1};
		cta_start(&c, L, id, &buf);
		cl.cta[0] = &c, c.cl = &cl;
		rc = run_cta(&c, &budget, id + 1 < ncta && fit > 1);
		if (rc == CTA_SPINS) return run_resident(L, &c, &buf, id + 1, fit, budget, ks);
		cta_count(&c, ks);
	}
	ctabuf_free(&buf);
	return rc;
}

/* the rest of the grid from CTA `next` on, in rounds, with `first` (which spins,
 * its buffers buf) resident: each ready warp of each resident CTA runs a short
 * slice per round; a CTA that ends frees its slot for the next of the grid.
 * Stuck when nothing was written and no CTA came or went for two rounds and
 * stepping every resident CTA's warps brings each back to its state
 * (coop_livelock).  Takes over buf. */
static int run_resident(const Launch *L, Cta *first, CtaBuf *buf, uint64_t next,
                        uint64_t fit, int64_t budget, GridCount *ks)
{
	int32_t nwarps = (int32_t)((L->nthreads + 31) / 32);
	uint64_t ncta = (uint64_t)L->grid.x * L->grid.y * L->grid.z;
	uint64_t n = ncta - next + 1 < fit ? ncta - next + 1 : fit;   /* slots */
	CtaBuf *bufs = xcalloc(n, sizeof *bufs);
	Cta *cs = xcalloc(n, sizeof *cs);
	Cluster *cls = xcalloc(n, sizeof *cls);
	bufs[0] = *buf;
	cs[0] = *first;
	for (uint64_t s = 0; s < n; s++) {
		if (s) {
			ctabuf_init(&bufs[s], L->img, nwarps, img_cta_shared(L->img, L->dyn_shmem));
			cta_start(&cs[s], L, next++, &bufs[s]);
		}
		cls[s] = (Cluster){.n = 1};
		cls[s].cta[0] = &cs[s], cs[s].cl = &cls[s];
	}
	int rc = RF_OK, quiet = 0;
	uint64_t writes = 0;
	for (;;) {
		int ran = 0, moved = 0;
		uint64_t nw = 0;
		for (uint64_t s = 0; s < n && rc == RF_OK; s++) {
			if (!cs[s].live_warps) continue;
			rc = coop_round(&cs[s], &budget, &ran);
			if (rc == RF_OK && !cs[s].live_warps) {       /* done: the next takes its slot */
				cta_count(&cs[s], ks);
				moved = 1;
				if (next < ncta) cta_start(&cs[s], L, next++, &bufs[s]), cs[s].cl = &cls[s];
			}
			nw += cta_writes(&cs[s]);
		}
		int alive = 0;
		for (uint64_t s = 0; s < n; s++) alive |= cs[s].live_warps != 0;
		if (rc || !alive) break;
		quiet = ran && !moved && nw == writes ? quiet + 1 : 0;
		writes = nw;
		if (quiet >= 2) {
			int r = coop_livelock(cs, n, &budget);
			if (r > 0 && next < ncta)
				err_append("\n  %llu of the grid's %llu blocks are resident, as many as the GPU "
				           "holds; the other %llu cannot start before these end",
				           (unsigned long long)n, (unsigned long long)ncta,
				           (unsigned long long)(ncta - next));
			if (r) {
				rc = RF_ERUNTIME;
				break;
			}
			quiet = 0;
		}
	}
	for (uint64_t s = 0; s < n; s++) {
		if (rc != RF_OK && cs[s].live_warps) cta_count(&cs[s], ks);
		ctabuf_free(&bufs[s]);
	}
	free(bufs);
	free(cs);
	free(cls);
	return rc;
}

void cluster_members(const Launch *L, uint64_t k, uint64_t *ids)
{
	const Dim3 *s = &L->cluster, *g = &L->grid;
	uint64_t nx = g->x / s->x, ny = g->y / s->y;
	uint64_t x0 = k % nx * s->x, y0 = k / nx % ny * s->y, z0 = k / (nx * ny) * s->z;
	for (uint32_t r = 0; r < L->csize; r++) {
		uint64_t x = x0 + r % s->x, y = y0 + r / s->x % s->y, z = z0 + r / (s->x * s->y);
		ids[r] = x + y * g->x + z * (uint64_t)g->x * g->y;
	}
}

/* functional mode, thread-block clusters: cluster after cluster, the CTAs of
 * one resident together and run in rounds as a cooperative grid's are; a
 * round in which no warp of the cluster could run and no barrier released
 * is a deadlock */
static int run_clusters(const Launch *L, int64_t budget, GridCount *ks)
{
	enum { SLICE = 1 << 10 };
	int32_t nwarps = (int32_t)((L->nthreads + 31) / 32), n = (int32_t)L->csize;
	uint64_t ncl = (uint64_t)L->grid.x * L->grid.y * L->grid.z / L->csize, ids[CLUSTER_MAX];
	CtaBuf bufs[CLUSTER_MAX];
	Cta cs[CLUSTER_MAX];
	for (int32_t r = 0; r < n; r++)
		ctabuf_init(&bufs[r], L->img, nwarps, img_cta_shared(L->img, L->dyn_shmem));
	int rc = RF_OK;
	for (uint64_t k = 0; k < ncl && rc == RF_OK; k++) {
		Cluster cl = {.n = n};
		cluster_members(L, k, ids);
		for (int32_t r = 0; r < n; r++) {
			cta_start(&cs[r], L, ids[r], &bufs[r]);
			cs[r].cl = &cl, cl.cta[r] = &cs[r];
		}
		int quiet = 0;
		uint64_t writes = 0;
		int64_t live = -1;
		for (;;) {
			int ran = 0, any;
			uint64_t nw = 0;
			int64_t alive = 0;
			for (int32_t r = 0; r < n && rc == RF_OK; r++) {
				if (cs[r].live_warps) rc = run_slices(&cs[r], &budget, SLICE, &any), ran |= any;
				nw += cta_writes(&cs[r]);
				alive += cs[r].live_warps;
			}
			if (rc || !alive) break;
			if (!ran) {                       /* everyone waits: release, or deadlock */
				int ready = 0, stuck = -1;
				for (int32_t r = 0; r < n; r++) {
					cta_release_barriers(&cs[r]);
					for (int32_t i = 0; i < cs[r].nwarps; i++)
						ready |= cs[r].warps[i].state == W_READY;
					if (stuck < 0 && cs[r].live_warps) stuck = r;
				}
				if (!ready) {
					deadlock_report(&cs[stuck]);
					rc = RF_ERUNTIME;
				}
				continue;
			}
			quiet = nw == writes && alive == live ? quiet + 1 : 0;
			writes = nw, live = alive;
			if (quiet >= 2) {
				if (coop_livelock(cs, (uint64_t)n, &budget)) rc = RF_ERUNTIME;
				quiet = 0;
			}
		}
		for (int32_t r = 0; r < n; r++) cta_count(&cs[r], ks);
	}
	for (int32_t r = 0; r < n; r++) ctabuf_free(&bufs[r]);
	return rc;
}

/* one round of a cooperative grid: each ready warp of CTA c runs a slice.
 * *ran: some warp ran; RF_OK or RF_ERUNTIME */
static int coop_round(Cta *c, int64_t *budget, int *ran)
{
	enum { COOP_SLICE = 1 << 10 };   /* short: a warp spinning at grid.sync() yields soon */
	int any;
	if (run_slices(c, budget, COOP_SLICE, &any) != RF_OK) return RF_ERUNTIME;
	if (!any && c->live_warps && release_or_deadlock(c) != RF_OK)   /* all at a barrier */
		return RF_ERUNTIME;
	*ran |= any;
	return RF_OK;
}

/* no CTA can end: stepping each one's ready warps brings them back to where
 * they were with nothing written (livelock.c); 1, 0 (one moved on), -1 fault */
static int coop_livelock(Cta *cs, uint64_t ncta, int64_t *budget)
{
	int stuck = -2;              /* the first CTA with ready warps, for the report */
	for (uint64_t i = 0; i < ncta; i++) {
		if (!cs[i].live_warps) continue;
		int r = livelock_cta(&cs[i], budget);
		if (r <= 0) return r;
		if (stuck == -2) stuck = (int)i;
	}
	if (stuck >= 0) livelock_report(&cs[stuck]);
	return stuck >= 0;
}

/* functional mode, cooperative launch: every CTA resident, run in rounds */
int grid_run_coop(const Launch *L, int64_t budget, GridCount *ks)
{
	int32_t nwarps = (int32_t)((L->nthreads + 31) / 32);
	uint64_t ncta = (uint64_t)L->grid.x * L->grid.y * L->grid.z;
	CtaBuf *bufs = xcalloc(ncta, sizeof *bufs);
	Cta *cs = xcalloc(ncta, sizeof *cs);
	uint64_t ncl = ncta / L->csize, ids[CLUSTER_MAX];
	Cluster *cls = xcalloc(ncl, sizeof *cls);
	for (uint64_t id = 0; id < ncta; id++) {
		ctabuf_init(&bufs[id], L->img, nwarps, img_cta_shared(L->img, L->dyn_shmem));
		cta_start(&cs[id], L, id, &bufs[id]);
	}
	for (uint64_t k = 0; k < ncl; k++) {
		cluster_members(L, k, ids);
		cls[k].n = (int32_t)L->csize;
		for (uint32_t r = 0; r < L->csize; r++) cls[k].cta[r] = &cs[ids[r]], cs[ids[r]].cl = &cls[k];
	}
	int rc = RF_OK, quiet = 0;
	uint64_t writes = 0;
	int64_t live = -1;
	for (;;) {
		int ran = 0;
		uint64_t n = 0;
		int64_t alive = 0;
		for (uint64_t id = 0; id < ncta && rc == RF_OK; id++) {
			if (cs[id].live_warps) rc = coop_round(&cs[id], &budget, &ran);
			n += cta_writes(&cs[id]);
			alive += cs[id].live_warps;
		}
		if (rc || !alive) break;
		quiet = ran && n == writes && alive == live ? quiet + 1 : 0;
		writes = n, live = alive;
		if (quiet >= 2) {
			int r = coop_livelock(cs, ncta, &budget);
			if (r) {
				rc = RF_ERUNTIME;
				break;
			}
			quiet = 0;
		}
	}
	for (uint64_t id = 0; id < ncta; id++) {
		cta_count(&cs[id], ks);
		ctabuf_free(&bufs[id]);
	}
	free(bufs);
	free(cs);
	free(cls);
	return rc;
}
