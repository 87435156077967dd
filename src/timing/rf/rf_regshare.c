/*
 * rf_regshare.c -- register sharing between thread blocks (Jatala, Anantpur
 * and Karkare, HPDC 2016; ../shared/papers/register-sharing-jatala.md
 * §4-§7): the hardware half.  The compiler half -- the launch arithmetic of
 * §4.1 and the renaming of registers by first use (§5.2) -- is
 * src/analysis/regshare.c; rf.model = regshare turns the renaming on by
 * itself (regshare_on), as the hardware is meant to run the reordered code.
 *
 * Launch (§4.1).  max_ctas, asked once per launch, returns M = U + 2S of
 * equations (1)-(4), capped by the thread, CTA-slot and shared-memory limits
 * (regshare_launch_at).  Each SM then has M CTA slots: slots 0..U-1 are
 * unshared, slots U+i and U+S+i form shared pair i.  The timing model
 * gives a new CTA the lowest free slot, so a CTA shares only when every
 * pair already holds one: with at most g = U + S CTAs on the SM (a small
 * grid, the tail of a kernel) no CTA waits for a lock.  Warp j of one CTA
 * of a pair and warp j of its partner form a warp pair with one lock.
 * When M equals the unshared count nothing is shared and this model is the
 * baseline register file exactly (same banks, same latency, no hook that
 * changes a decision) -- except that owner-warp-first, if on, still orders
 * the (all unshared) warps by launch, as the paper's Figure 15 notes.
 *
 * Scheduler.  The paper runs sharing under LRR and GTO and compares it
 * with an unshared two-level scheduler (§7.2, Figure 14), never under it:
 * non-owner warps waiting for a lock would hold the active set for good.
 * The model is single_level (rf.h): a config whose sched.policy is
 * twolevel (maxwell-ltrf, gebhart-isca11) runs it under lrr.
 *
 * Registers (§4, Figure 4).  A thread's registers R0..R(u-1), u =
 * floor(regs t), are its own; R(u).. are shared (regshare.c's numbering:
 * per warp 32u unshared registers, R_w t rounded down).  A warp of a
 * shared CTA whose next instruction names a shared register (a read or a
 * write, either half of a 64-bit pair; predicates are a file of their own)
 * must hold its pair's lock; can_issue takes the lock if it may, else the
 * warp waits (the slot counts as stall_rf) and asks again the next cycle
 * -- the paper's "retries the access in another cycle", done before issue
 * rather than in the operand collector, so a waiting warp never holds a
 * collector an owner warp needs.  The lock is held until the warp has
 * finished (exited, its last results written: warp_exit), as the shared
 * registers hold its values until then.  Register numbers are those the
 * instruction names in its frame: in a __noinline__ callee (rare) the
 * callee's own numbering decides, as can_issue does not see the frame.
 * Reads and writes go to the same banked register file as the baseline
 * (banks.h), shared registers included.
 *
 * Deadlock avoidance (§4).  A warp may take its pair's lock only if no
 * warp of the partner CTA holds a lock now (the paper's (a) none acquired,
 * or (b) those that did have finished).  So at any time at most one CTA of
 * a pair holds locks, its warps never wait for a lock, and it runs to the
 * end whatever the other does (its barriers involve its own warps only).
 *
 * Ownership (§5).  The owner CTA of a pair is the one whose warps the
 * other's wait for: the CTA that took a lock while its partner held none
 * becomes the owner.  A CTA launched into an empty pair is the owner; one
 * launched beside a running partner is the non-owner.  When the owner
 * finishes, ownership passes to its partner, and the CTA that takes the
 * freed slot arrives as the non-owner.
 *
 * Owner warp first (§5.1, regshare.owf).  Warps are ranked owner, then
 * unshared, then non-owner, and inside a class by their dynamic warp id
 * (launch order on the SM, oldest first) -- the paper's "sorted according
 * to their dynamic warp id", which is why OWF without sharing behaves
 * like GTO (§7.2, Figure 15).  With regshare.owf = 0 the rank is 0 for
 * every warp and sched.policy alone orders them.
 *
 * Dynamic warp execution (§5.3, regshare.dynamic).  Only in an SM that
 * shares.  SM 0 is the reference: it never issues a non-owner warp's
 * memory instruction (any instruction through the load/store unit).  Every
 * other SM issues one with probability P, starting at 1; every
 * regshare.dyn_period cycles (1000) it compares its stall cycles of the
 * period -- scheduler slots that issued nothing, §2's "no warp can be
 * scheduled" -- with SM 0's and moves P by regshare.dyn_step (p = 0.1)
 * down if it stalled more, up if less, within [0, 1].  A non-owner warp
 * at a memory instruction draws once per period (seeded from `seed` and
 * the SM): held back, it waits for the next period's draw or for its CTA
 * to become the owner.  SM 0's count reaches the others through RfSm.gpu:
 * every SM ticks at the same period boundaries, and at a boundary cycle
 * the GPU loop steps SM 0 before SMs 1..N-1 (timing.c), so SM 0's tick
 * has stored its count of the period that just ended when theirs read it
 * -- deterministic, with no look into another SM's state.
 *
 * Statistics (tstats.def): rs_shared_warps, rs_unshared_warps,
 * rs_lock_acquires, rs_lock_wait_cycles (from a warp's first refusal to
 * its acquisition), rs_dyn_denied; the timing model counts resident CTAs
 * and GPGPU-Sim's idle and stall slots for every model (a warp refused here
 * is not ready: idle, not a pipeline stall; sched.c).
 *
 * Left out: the hardware's dynamic allocation of each register on first
 * use (§4) -- rfsim's register file holds every warp's registers; it only
 * decides when a warp may touch the shared ones, which is what costs time.
 */
#include <assert.h>
#include <stdlib.h>

#include "analysis/regshare.h"
#include "base/base.h"
#include "timing/rf/mrf.h"
#include "timing/rf/rf.h"

typedef struct RsRef {       /* SM 0's stall count per period (RfSm.gpu) */
	int64_t period;          /* the period it counted, -1 none yet */
	uint64_t stalls;
} RsRef;

typedef struct RsWarp {
	int32_t lock;            /* its warp pair's lock, -1 for an unshared warp */
	int32_t cta;             /* CTA slot */
	int32_t pair;            /* its CTA pair, -1 for an unshared warp */
	uint32_t dynid;          /* dynamic warp id: launch order on the SM (OWF) */
	uint8_t holds;           /* holds its lock */
	uint8_t mem_ok;          /* dynamic: the draw of period `drawn` let it issue */
	int64_t wait_from;       /* first cycle refused the lock, -1 not waiting */
	int64_t drawn;           /* dynamic: period of its draw, -1 none pending */
} RsWarp;

typedef struct RsCta {
	int32_t partner;         /* slot of the partner CTA, -1 for an unshared slot */
	int32_t holders;         /* its warps holding a lock now */
	uint8_t used;
} RsCta;

typedef struct Regshare {
	Mrf mrf;                 /* the baseline's banks; latency rf.mrf_latency */
	TStats *st;
	const TProg *prog;
	int32_t u;               /* unshared registers per thread */
	int32_t ncta, wpc, unshared, pairs;   /* CTA slots, warps per CTA, U, S */
	RsCta *cta;
	RsWarp *w;
	int32_t *lock;           /* per warp pair: the warp slot holding it, -1 free */
	int32_t *owner;          /* per CTA pair: the owner's slot, -1 when both are empty */
	int owf, dyn;
	uint32_t next_dynid;
	/* dynamic warp execution */
	int32_t sm;
	int64_t dyn_period;      /* regshare.dyn_period */
	int64_t period;          /* the current period's index */
	double prob, step;       /* P and p */
	uint64_t rng;
	uint64_t stall_mark;     /* the SM's stall slots at the period's start */
	RsRef *ref;
} Regshare;

/* ---- launch ------------------------------------------------------------------------ */

static int max_ctas(const RfSm *sm, int by_regs, int by_other)
{
	int plain = by_regs < by_other ? by_regs : by_other;
	if (!sm->cfg->compiler_regalloc || sm->regs_per_thread <= 0) return plain;
	RsLaunch l;
	regshare_launch_at(sm->cfg, sm->warps_per_cta, sm->regs_per_thread, by_other,
	                   sm->cfg->regshare_threshold, &l);
	assert(l.g == by_regs && l.ctas >= plain);
	return l.ctas;
}

static void *init(const RfSm *sm)
{
	const Config *c = sm->cfg;
	Regshare *m = xcalloc(1, sizeof *m);
	mrf_init(&m->mrf, c, sm->st);
	m->st = sm->st;
	m->prog = sm->prog;
	m->wpc = sm->warps_per_cta;
	m->ncta = sm->nwarps / sm->warps_per_cta;
	m->unshared = m->ncta;
	if (c->compiler_regalloc && sm->regs_per_thread > 0) {
		int32_t g = occupancy_by_regs(c, m->wpc * 32, sm->regs_per_thread);
		if (m->ncta > g) {   /* the SM shares: S = M - g pairs, U = g - S (regshare.c) */
			m->pairs = m->ncta - g;
			m->unshared = g - m->pairs;
		}
	}
	assert(m->unshared >= 0 && m->unshared + 2 * m->pairs == m->ncta);
	m->u = regshare_unshared_regs(sm->regs_per_thread, c->regshare_threshold);
	m->cta = xcalloc((size_t)m->ncta, sizeof *m->cta);
	for (int32_t k = 0; k < m->ncta; k++)
		m->cta[k].partner = k < m->unshared ? -1
		                    : k < m->unshared + m->pairs ? k + m->pairs : k - m->pairs;
	m->w = xcalloc((size_t)sm->nwarps + 1, sizeof *m->w);
	m->lock = xmalloc(((size_t)m->pairs * (size_t)m->wpc + 1) * sizeof *m->lock);
	for (int32_t i = 0; i < m->pairs * m->wpc; i++) m->lock[i] = -1;
	m->owner = xmalloc(((size_t)m->pairs + 1) * sizeof *m->owner);
	for (int32_t i = 0; i < m->pairs; i++) m->owner[i] = -1;
	m->owf = c->regshare_owf;
	m->dyn = c->regshare_dynamic && m->pairs > 0;
	m->sm = sm->sm;
	m->dyn_period = c->regshare_dyn_period;
	m->step = c->regshare_dyn_step;
	m->prob = sm->sm == 0 ? 0 : 1;
	m->rng = (uint64_t)c->seed * 0x9e3779b97f4a7c15ull + (uint64_t)sm->sm + 1;
	if (m->dyn) {
		if (!*sm->gpu) {
			*sm->gpu = xcalloc(1, sizeof(RsRef));
			((RsRef *)*sm->gpu)->period = -1;
		}
		m->ref = *sm->gpu;
	}
	return m;
}

static void fini(void *p)
{
	Regshare *m = p;
	mrf_fini(&m->mrf);
	free(m->cta);
	free(m->w);
	free(m->lock);
	free(m->owner);
	free(m);
}

static int32_t pair_of(const Regshare *m, int32_t cta)
{
	return (cta - m->unshared) % m->pairs;
}

static void cta_launch(void *p, int cta, int warp0, int nwarps)
{
	Regshare *m = p;
	RsCta *c = &m->cta[cta];
	assert(!c->used && nwarps == m->wpc);
	c->used = 1;
	c->holders = 0;
	if (c->partner >= 0) {
		int32_t q = pair_of(m, cta);
		if (!m->cta[c->partner].used) m->owner[q] = cta;
		else if (m->owner[q] < 0) m->owner[q] = c->partner;
		m->st->rs_shared_warps += (uint64_t)nwarps;
	} else {
		m->st->rs_unshared_warps += (uint64_t)nwarps;
	}
	if (m->next_dynid > (1u << 27)) {   /* keep OWF's ranks in an int: renumber */
		uint32_t lo = m->next_dynid;
		for (int32_t k = 0; k < m->ncta; k++)
			for (int32_t j = 0; m->cta[k].used && k != cta && j < m->wpc; j++)
				if (m->w[k * m->wpc + j].dynid < lo) lo = m->w[k * m->wpc + j].dynid;
		for (int32_t k = 0; k < m->ncta; k++)
			for (int32_t j = 0; m->cta[k].used && k != cta && j < m->wpc; j++)
				m->w[k * m->wpc + j].dynid -= lo;
		m->next_dynid -= lo;
	}
	for (int32_t j = 0; j < nwarps; j++) {
		RsWarp *w = &m->w[warp0 + j];
		w->pair = c->partner >= 0 ? pair_of(m, cta) : -1;
		w->lock = c->partner >= 0 ? w->pair * m->wpc + j : -1;
		w->cta = cta;
		w->dynid = m->next_dynid++;
		w->holds = 0;
		w->mem_ok = 0;
		w->wait_from = -1;
		w->drawn = -1;
	}
}

static void cta_exit(void *p, int cta)
{
	Regshare *m = p;
	RsCta *c = &m->cta[cta];
	assert(c->used && c->holders == 0);
	c->used = 0;
	if (c->partner < 0) return;
	int32_t q = pair_of(m, cta);
	if (m->owner[q] == cta) m->owner[q] = m->cta[c->partner].used ? c->partner : -1;
}

static void warp_exit(void *p, int64_t now, int warp)
{
	Regshare *m = p;
	RsWarp *w = &m->w[warp];
	if (!w->holds) return;
	assert(m->lock[w->lock] == warp);
	m->lock[w->lock] = -1;
	w->holds = 0;
	m->cta[w->cta].holders--;
}

/* ---- the lock and dynamic warp execution ---------------------------------------------- */

/* does ti name a register at or above u (a shared one)? */
static int touches_shared(const Regshare *m, const TIns *ti)
{
	const int32_t *r = m->prog->regs + ti->regs;
	for (int i = 0; i < ti->nrd_reg; i++)
		if (r[i] >= m->u) return 1;
	for (int i = 0; i < ti->nwr_reg; i++)
		if (r[ti->nrd + i] >= m->u) return 1;
	return 0;
}

/* §4's rule: the partner CTA holds no lock now */
static int acquire(Regshare *m, int64_t now, int warp)
{
	RsWarp *w = &m->w[warp];
	const RsCta *c = &m->cta[w->cta];
	if (m->cta[c->partner].used && m->cta[c->partner].holders) return 0;
	assert(m->lock[w->lock] < 0);
	m->lock[w->lock] = warp;
	w->holds = 1;
	m->cta[w->cta].holders++;
	m->owner[w->pair] = w->cta;
	m->st->rs_lock_acquires++;
	if (w->wait_from >= 0) m->st->rs_lock_wait_cycles += (uint64_t)(now - w->wait_from);
	w->wait_from = -1;
	return 1;
}

static int nonowner(const Regshare *m, const RsWarp *w)
{
	return w->pair >= 0 && m->owner[w->pair] != w->cta;
}

static double draw(Regshare *m)
{
	uint64_t z = (m->rng += 0x9e3779b97f4a7c15ull);        /* splitmix64 */
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (double)(z >> 11) * 0x1p-53;
}

static int can_issue(void *p, int64_t now, int warp, const TIns *ti)
{
	Regshare *m = p;
	RsWarp *w = &m->w[warp];
	if (w->lock < 0) return 1;
	if (!w->holds && touches_shared(m, ti) && !acquire(m, now, warp)) {
		if (w->wait_from < 0) w->wait_from = now;
		return 0;
	}
	if (!m->dyn || !(ti->flags & TF_MEM) || !nonowner(m, w)) return 1;
	if (w->drawn != m->period) {
		w->drawn = m->period;
		w->mem_ok = m->prob > 0 && draw(m) < m->prob;
		if (!w->mem_ok) m->st->rs_dyn_denied++;
	}
	return w->mem_ok;
}

static void issue(void *p, int64_t now, int warp, const TIns *ti)
{
	Regshare *m = p;
	if (ti->flags & TF_MEM) m->w[warp].drawn = -1;         /* the next one draws anew */
}

static uint64_t stall_slots(const TStats *st)
{
	return st->stall_idle + st->stall_rf + st->stall_mem + st->stall_scoreboard +
	       st->stall_barrier + st->stall_other;
}

/* at each period boundary: SM 0 records its stalls, the others steer P by them */
static int64_t tick(void *p, int64_t now)
{
	Regshare *m = p;
	if (!m->dyn) return INT64_MAX;
	int64_t k = now / m->dyn_period;
	if (now > 0 && now % m->dyn_period == 0) {
		uint64_t s = stall_slots(m->st), mine = s - m->stall_mark;
		m->stall_mark = s;
		if (m->sm == 0) {
			m->ref->period = k;
			m->ref->stalls = mine;
		} else if (m->ref->period == k && mine != m->ref->stalls) {
			m->prob += mine > m->ref->stalls ? -m->step : m->step;
			m->prob = m->prob < 1e-9 ? 0 : m->prob > 1 ? 1 : m->prob;
		}
	}
	m->period = k;
	return (k + 1) * m->dyn_period;
}

/* OWF: owner, unshared, non-owner; inside a class by dynamic warp id */
static int priority(void *p, int warp)
{
	const Regshare *m = p;
	if (!m->owf) return 0;
	const RsWarp *w = &m->w[warp];
	int cls = w->pair < 0 ? 1 : m->owner[w->pair] != w->cta ? 2 : 0;
	return (cls << 28) + (int)w->dynid;
}

/* ---- register file: the baseline's banks ------------------------------------------------ */

static int64_t rf_read(void *p, int64_t now, int warp, int32_t reg, int32_t pc, int k)
{
	return mrf_read(&((Regshare *)p)->mrf, now, warp, reg);
}

static int rf_write(void *p, int64_t now, int warp, int32_t reg, int32_t pc, int k)
{
	return mrf_write(&((Regshare *)p)->mrf, now, warp, reg);
}

const RfModel rf_model_regshare = {
	.init = init,
	.fini = fini,
	.max_ctas = max_ctas,
	.cta_launch = cta_launch,
	.cta_exit = cta_exit,
	.warp_exit = warp_exit,
	.can_issue = can_issue,
	.issue = issue,
	.read = rf_read,
	.write = rf_write,
	.priority = priority,
	.tick = tick,
	.single_level = 1,
};
