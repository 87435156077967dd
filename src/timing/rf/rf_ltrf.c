/*
 * rf_ltrf.c -- LTRF and LTRF+ (Sadrosadati et al., ASPLOS'18, 3.2 and 4):
 * a slow, large main register file (MRF) behind a register-file cache
 * filled by compiler-placed PREFETCH operations.
 *
 * The compiler (interval.c or strand.c, prefetch.c; rf.model=ltrf turns
 * ltrf.partition=interval on by itself) puts an rfsim.prefetch K at the
 * entry of every prefetch subgraph; K names the subgraph's working set, at
 * most N = ltrf.regs_per_interval registers (Func.rsets[K], bit n = Rn =
 * frame slot n).  The hardware here:
 *
 *   register-file cache  N banks x P partitions, one partition per active
 *            warp (P = the two-level scheduler's active warps); a warp's
 *            registers are interleaved over the N banks (4.1), reads and
 *            result writes arbitrate per bank (rf.bank_ports per cycle) and
 *            take one cycle.
 *   two-level scheduler  the model sets RfModel.twolevel, so the SM runs
 *            the two-level scheduler (sched.c) with the config's
 *            sched.active_warps (default 8) and sched.inner even when the
 *            config names another policy: LTRF is defined with it (3.2),
 *            and a cache for every resident warp would be a different
 *            design (and 8x the paper's 16 KB).
 *   warp control block (WCB, 4.1) per warp: the register cache address
 *            table (slot -> cache bank), the working-set bit-vector (the
 *            current subgraph's set), the valid bits (entries allocated
 *            and filled), and for LTRF+ the liveness bit-vector.
 *   address allocation units (4.2): a global queue of free partitions
 *            (the warp-offset address) and, per warp, the unused queue of
 *            its N banks; allocation takes the head, freeing appends.
 *   PREFETCH (4.2)  registers of the old set that the new set does not
 *            name leave the cache (written back: all of them for LTRF,
 *            which has no per-register state beyond valid bits, only live
 *            ones for LTRF+), then each newly named register gets a bank
 *            and is read from the MRF: through its MRF bank (banks.h's
 *            mapping; rf.bank_ports accesses per bank per cycle), with the
 *            MRF's latency (rftech_mrf_latency: rf.mrf_latency x rf.tech's
 *            Table 2 factor), over a crossbar ltrf.xbar_div times narrower
 *            than the baseline's one warp register per MRF bank per cycle
 *            and ltrf.xbar_div - 1 cycles longer to cross (4.2: 4x narrower,
 *            1 -> 4 cycles; the baseline's one cycle is part of
 *            rf.mrf_latency).  LTRF+ gives a dead register its entry
 *            without reading it.  The warp may not issue (can_issue, the
 *            slot counts as stall_rf) until its last register is in.  A
 *            PREFETCH naming the set the warp already holds (a loop back
 *            edge inside an interval) fetches nothing and costs only its
 *            issue slot.
 *   deactivation (4.2 "Warp Stall")  the warp's cached registers are
 *            written back (LTRF: its whole working set, 3.2; LTRF+: the
 *            live ones, 4.2, the rest counted in
 *            rfc_dead_writebacks_avoided), its partition and banks return
 *            to the queues.  A warp that exited writes back nothing.
 *            Reactivation in the middle of a subgraph refetches the
 *            working set (LTRF+: its live registers); a warp whose next
 *            instruction is a PREFETCH of another set (or a resume in
 *            another subgraph) is not in the middle of one (4.2), and
 *            fetches only what that PREFETCH names (until issue 21 it
 *            refetched the old set first: on maxwell-ltrf 0.15% of the
 *            suite's MRF reads, all of them hotspot's, deactivated at a
 *            barrier before a PREFETCH: 10% of its reads).
 *
 * Fills are scheduled when they are asked for, first come first served:
 * each MRF bank port and each crossbar lane keeps the cycle it is next
 * free, so a fill asked for in cycle t is granted its bank at g >= t + 1,
 * a crossbar lane at x >= g, and lands in the cache at x + latency +
 * xbar_div - 1.  Write-backs (and results for registers no longer cached)
 * go into a write buffer at the MRF that drains in cycles its banks are
 * idle -- under LTRF the MRF banks serve only fills and write-backs, busy
 * under 1% of the time on the suite -- and that a fill of the same register
 * reads through; so they cost MRF writes (energy) but never delay a fill or
 * hold the warp.  No tick hook is needed, and an idle SM costs nothing.

 * Statistics by cause (tstats.def), counted without touching timing: MRF
 * reads are PREFETCH fills (ltrf_regs_prefetched, of which ltrf_resume_fills
 * at a diverged path's resume), reactivation refetches (ltrf_refetches) and
 * operands the cache did not hold (ltrf_miss_reads); MRF writes are
 * write-backs at a PREFETCH, a resume or a deactivation (ltrf_wb_prefetch,
 * _resume, _deactivate; their sum is rfc_writebacks) and results that
 * arrived for a register no longer cached (ltrf_late_writes).  Of the
 * write-backs, ltrf_wb_clean were not written since their fill (the WCB
 * keeps a dirty bit for this counter only: the paper's hardware has none);
 * ltrf_wb_inflight counts the registers that left the cache with a result
 * in flight and were not written back (below).

 * Choices where the paper is silent, and why:
 *   - A register whose result is still in flight when it leaves the cache
 *     (a PREFETCH or a deactivation right after the instruction that
 *     writes it; typically the load a deactivation waits for) is not
 *     written back: its entry holds no value of the working set yet, and
 *     the result, when it arrives, is written to the MRF (ltrf_late_writes)
 *     -- one MRF write per value.  The scoreboard's pending bit tells the
 *     hardware which entries these are (Wcb.pend mirrors it).  Until issue
 *     21 the stale entry was written back as well, two MRF writes for one
 *     value: on sgemm (maxwell-ltrf, rf.tech=7) a third of LTRF's MRF
 *     writes (1.65x the baseline's, now 1.11x; the suite's 1.04x, now
 *     0.93x; no change in timing).
 *   - Every register leaving the cache is written back, clean or not
 *     (LTRF; LTRF+ skips dead ones): 3.2 writes back "the entire register
 *     working-set" at a deactivation, and the WCB (4.1, Figure 7) has
 *     valid, working-set and liveness bits but no dirty bit, so a PREFETCH
 *     cannot tell a clean register from a written one either.
 *     ltrf_wb_clean counts what a dirty bit would save.
 *   - Deactivation is the two-level scheduler's (sched.c), as in GPGPU-Sim
 *     3.2.2's two_level_active scheduler that LTRF ran: a warp leaves the
 *     active set when its next instruction needs a global, local or
 *     texture load's result that has not arrived, when it waits at a
 *     barrier (or the active set could fill with warps whose partners are
 *     pending: a deadlock), and when it exits.  3.2 names "a long latency
 *     operation, such as a data cache miss"; on maxwell-ltrf global loads
 *     bypass L1 (GPGPU-Sim's gmem_skip_L1D), so every such wait is for an
 *     L2 or DRAM access (deact_longlat_l1hit counts the exceptions: local
 *     memory, such as a call's arguments, that hit in L1; 0.7 of the
 *     suite's 47 deactivations per 1000 warp instructions).
 *   - Liveness (LTRF+): the dead-operand bits are tlive.c's warp-level
 *     TA_LAST marks and the write side's TA_DEAD (a value never read is not
 *     made live), applied when the instruction issues -- the bits travel
 *     with the instruction, so the vector is current at the next
 *     deactivation or PREFETCH.
 *   - An instruction issued before its warp's registers left the cache (a
 *     PREFETCH or deactivation right after it) still reads the old values:
 *     they are in the write-back path, served in one cycle as hits; its
 *     results for registers no longer cached go straight to the MRF.  Any
 *     other access to a register the working set does not hold (code with
 *     no PREFETCH: virtual registers, ltrf.partition=none under another
 *     model's binary) is a cache miss served by the MRF with its latency:
 *     rfc_reads - rfc_hits counts them, 0 for compiler-placed PREFETCHes
 *     except around an instruction that names more than N registers by
 *     itself (interval.c gives it an interval of its own; the registers
 *     beyond the warp's N entries stay in the MRF).
 *   - Divergence: the SIMT stack runs one side of a branch up to the
 *     reconvergence point and then the other; when that point lies beyond
 *     a PREFETCH, the second side resumes inside a subgraph the warp no
 *     longer holds (btree does this).  Every pc belongs to exactly one
 *     subgraph (the one whose PREFETCH reaches it), so before such an
 *     instruction issues the model makes that subgraph's set the working
 *     set, as a PREFETCH would (evicting and fetching; counted in
 *     ltrf_resumes), and the warp waits for it -- a WCB that remembers the
 *     set per SIMT stack entry; the paper does not discuss divergence.
 *   - Fills do not compete with operand reads for the cache banks (a
 *     separate fill port); MRF banks see only fills, write-backs and misses.
 *   - Subgraph statistics: a subgraph instance starts at a PREFETCH naming
 *     another set than the warp holds (strands: at every PREFETCH, since a
 *     strand ends at each backward branch) and ends at the next one or at
 *     exit; its length is the warp instructions issued in it.  The optimal
 *     length (6.5) cuts each warp's dynamic trace greedily into maximal
 *     runs naming at most N registers (greedy makes the fewest runs, so
 *     the longest mean); PREFETCHes are not counted in either.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/interval.h"
#include "base/base.h"
#include "base/rftech.h"
#include "timing/rf/banks.h"
#include "timing/rf/rf.h"
#include "func/warp.h"

typedef struct Wcb {         /* warp control block, and the warp's statistics state */
	uint64_t *ws;            /* working-set bit-vector (absolute slots) */
	uint64_t *valid;         /* entries allocated in the cache */
	uint64_t *live;          /* LTRF+: liveness bit-vector */
	uint64_t *gone;          /* left the cache at the last write-back (in-flight readers) */
	uint64_t *opt;           /* optimal-interval statistics: registers of the current run */
	uint64_t *dirty;         /* statistics: written in the cache since the fill */
	uint64_t *pend;          /* a result in flight (the scoreboard's bit) */
	uint8_t *bank;           /* register cache address table: slot -> bank */
	uint8_t *unused;         /* address allocation unit: free banks, a ring */
	int32_t uhead, ucount;
	int32_t part;            /* warp-offset address (partition), -1 when inactive */
	int32_t set, base;       /* current PREFETCH: set index and frame base; set -1: none */
	int32_t func;            /* Image.funcs index of that PREFETCH */
	int64_t ready;           /* cycle its last fill lands */
	int64_t ivl_len;         /* instructions of the current subgraph instance */
	int in_ivl;
	int32_t opt_n;           /* registers in opt */
	int64_t opt_len;
} Wcb;

typedef struct Ltrf {
	const RfSm *sm;
	RfSm info;
	TStats *st;
	int plus;                /* LTRF+ */
	int strands;             /* partition is strands */
	int32_t n;               /* N: registers per interval, cache banks */
	int32_t W;               /* words per slot bit-vector */
	int32_t nslots;
	Wcb *w;
	int32_t *pcset;          /* per pc: the set of the subgraph it is in, -1 none */
	/* the cache banks' arbitration: (cycle, uses) per bank */
	int64_t *cb_cyc;
	uint8_t *cb_used;
	int32_t ports;
	/* the partitions' allocation unit: a ring of free ids */
	int32_t *pfree;
	int32_t phead, pcount, nparts;
	/* MRF and crossbar calendars */
	Banks mb;
	int64_t *bank_free;      /* per MRF bank port: next free cycle */
	int64_t *lane_free;      /* per crossbar lane: next free cycle */
	int32_t lanes;
	int64_t lat;             /* MRF latency */
	int64_t xlat;            /* extra crossbar cycles */
} Ltrf;

static inline int bit(const uint64_t *v, int32_t s) { return (int)(v[s >> 6] >> (s & 63) & 1); }
static inline void bset(uint64_t *v, int32_t s) { v[s >> 6] |= 1ull << (s & 63); }
static inline void bclr(uint64_t *v, int32_t s) { v[s >> 6] &= ~(1ull << (s & 63)); }

/* the subgraph (PREFETCH set) of every pc: everything reachable from a
   PREFETCH without passing another, inside its function */
static int32_t *pc_sets(const Image *img)
{
	int32_t n = img->ncode, *set = xmalloc(((size_t)n + 1) * sizeof *set);
	int32_t *stk = xmalloc(((size_t)n + 1) * sizeof *stk);
	for (int32_t pc = 0; pc < n; pc++) set[pc] = -1;
	for (int32_t p = 0; p < n; p++) {
		const DIns *d = &img->code[p];
		if (d->op != OP_RF_PREFETCH) continue;
		const ImgFunc *f = &img->funcs[d->func];
		int32_t top = 0, v = (int32_t)d->imm;
		set[p] = v;
		stk[top++] = p;
		while (top) {
			int32_t pc = stk[--top], sx[2], ns = 0;
			const DIns *e = &img->code[pc];
			if (e->op == OP_BRA) {
				sx[ns++] = e->target;
				if (e->guard >= 0) sx[ns++] = pc + 1;
			} else if (!((e->op == OP_RET || e->op == OP_EXIT || e->op == OP_TRAP) &&
			             e->guard < 0)) {
				sx[ns++] = pc + 1;
			}
			for (int i = 0; i < ns; i++) {
				int32_t q = sx[i];
				if (q < f->entry || q >= f->end || set[q] >= 0 ||
				    img->code[q].op == OP_RF_PREFETCH)
					continue;
				set[q] = v;
				stk[top++] = q;
			}
		}
	}
	free(stk);
	return set;
}

static void *init_common(const RfSm *sm, int plus)
{
	Ltrf *m = xcalloc(1, sizeof *m);
	const Config *cfg = sm->cfg;
	m->info = *sm;
	m->sm = &m->info;
	m->st = sm->st;
	m->plus = plus;
	m->strands = ltrf_partition_of(cfg) == PART_STRAND;
	m->n = (int32_t)cfg->ltrf_regs_per_interval;
	m->nslots = sm->prog->nslots + 1;
	m->W = (m->nslots + 63) / 64;
	m->w = xcalloc((size_t)sm->nwarps + 1, sizeof *m->w);
	m->pcset = pc_sets(sm->img);
	size_t W = (size_t)m->W;
	for (int32_t i = 0; i < sm->nwarps; i++) {
		Wcb *w = &m->w[i];
		uint64_t *v = xcalloc(7 * W, sizeof *v);
		w->ws = v;
		w->valid = v + W;
		w->live = v + 2 * W;
		w->gone = v + 3 * W;
		w->opt = v + 4 * W;
		w->dirty = v + 5 * W;
		w->pend = v + 6 * W;
		w->bank = xcalloc((size_t)m->nslots, 1);
		w->unused = xcalloc((size_t)m->n, 1);
		w->part = -1;
		w->set = -1;
	}
	m->ports = (int32_t)cfg->rf_bank_ports;
	m->cb_cyc = xmalloc((size_t)m->n * sizeof *m->cb_cyc);
	m->cb_used = xcalloc((size_t)m->n, 1);
	for (int32_t b = 0; b < m->n; b++) m->cb_cyc[b] = -1;
	/* partitions: as many as the two-level scheduler can have active */
	int32_t per = (int32_t)((cfg->sched_active_warps + sm->nsched - 1) / sm->nsched);
	m->nparts = per * sm->nsched;
	m->pfree = xcalloc((size_t)m->nparts, sizeof *m->pfree);
	for (int32_t p = 0; p < m->nparts; p++) m->pfree[p] = p;
	m->pcount = m->nparts;
	banks_init(&m->mb, cfg);
	m->bank_free = xcalloc((size_t)(m->mb.n + 1) * (size_t)m->mb.ports, sizeof *m->bank_free);
	m->lanes = m->mb.n ? (m->mb.n / (int32_t)cfg->ltrf_xbar_div) : 0;
	if (m->mb.n && m->lanes < 1) m->lanes = 1;
	m->lane_free = xcalloc((size_t)m->lanes + 1, sizeof *m->lane_free);
	m->lat = rftech_mrf_latency(cfg);
	m->xlat = cfg->ltrf_xbar_div - 1;
	return m;
}

static void *init_ltrf(const RfSm *sm) { return init_common(sm, 0); }
static void *init_plus(const RfSm *sm) { return init_common(sm, 1); }

static void fini(void *p)
{
	Ltrf *m = p;
	for (int32_t i = 0; i < m->sm->nwarps; i++) {
		free(m->w[i].ws);
		free(m->w[i].bank);
		free(m->w[i].unused);
	}
	free(m->w);
	free(m->pcset);
	free(m->cb_cyc);
	free(m->cb_used);
	free(m->pfree);
	banks_fini(&m->mb);
	free(m->bank_free);
	free(m->lane_free);
	free(m);
}

/* ---- MRF transfers ---------------------------------------------------------- */

/* one register read from the MRF towards the cache (or a collector), asked
   for in cycle now: the cycle its data is there */
static int64_t fetch(Ltrf *m, int64_t now, int warp, int32_t slot)
{
	int64_t g = now + 1;
	if (m->mb.n) {
		int64_t *pf = m->bank_free + (size_t)banks_of(&m->mb, warp, slot) * (size_t)m->mb.ports;
		int k = 0;
		for (int i = 1; i < m->mb.ports; i++)
			if (pf[i] < pf[k]) k = i;
		if (pf[k] > g) {
			g = pf[k];
			m->st->bank_conflicts++;
		}
		pf[k] = g + 1;
		int l = 0;
		for (int i = 1; i < m->lanes; i++)
			if (m->lane_free[i] < m->lane_free[l]) l = i;
		if (m->lane_free[l] > g) g = m->lane_free[l];
		m->lane_free[l] = g + 1;
	}
	return g + m->lat + m->xlat;
}

/* ---- cache allocation --------------------------------------------------------- */

static void bank_alloc(Ltrf *m, Wcb *w, int32_t slot)
{
	w->bank[slot] = w->unused[w->uhead];
	w->uhead = w->uhead + 1 < m->n ? w->uhead + 1 : 0;
	w->ucount--;
	bset(w->valid, slot);
}

static void bank_free(Ltrf *m, Wcb *w, int32_t slot)
{
	int32_t tail = (w->uhead + w->ucount) % m->n;
	w->unused[tail] = w->bank[slot];
	w->ucount++;
	bclr(w->valid, slot);
}

/* what moves registers between the MRF and the cache (the statistics' causes) */
enum { BY_PREFETCH, BY_RESUME, BY_ACTIVATION, BY_DEACTIVATION, BY_EXIT };

/* registers of w that leave the cache go to the MRF (LTRF+: the live ones) */
static void evict(Ltrf *m, int64_t now, int warp, int32_t slot, int by)
{
	Wcb *w = &m->w[warp];
	TStats *st = m->st;
	bank_free(m, w, slot);
	bset(w->gone, slot);
	int dirty = bit(w->dirty, slot);
	bclr(w->dirty, slot);
	if (by == BY_EXIT) return;
	if (m->plus && !bit(w->live, slot)) {
		st->rfc_dead_writebacks_avoided++;
		return;
	}
	if (bit(w->pend, slot)) {        /* no value yet: its result goes to the MRF */
		st->ltrf_wb_inflight++;
		return;
	}
	st->mrf_writes++, st->rfc_writebacks++;   /* into the write buffer */
	if (by == BY_PREFETCH) st->ltrf_wb_prefetch++;
	else if (by == BY_RESUME) st->ltrf_wb_resume++;
	else st->ltrf_wb_deactivate++;
	st->ltrf_wb_clean += !dirty;             /* the MRF holds this value already */
}

/* give slot an entry and, unless LTRF+ knows it dead, fetch it */
static void fill(Ltrf *m, int64_t now, int warp, int32_t slot, int by)
{
	Wcb *w = &m->w[warp];
	if (!w->ucount) return;      /* a lone instruction naming more than N: not cached */
	bank_alloc(m, w, slot);
	if (m->plus && !bit(w->live, slot)) {
		m->st->ltrf_dead_fetches_avoided++;
		return;
	}
	int64_t t = fetch(m, now, warp, slot);
	if (t > w->ready) w->ready = t;
	m->st->mrf_reads++;
	m->st->rfc_writes++;
	if (by == BY_ACTIVATION) {
		m->st->ltrf_refetches++;
	} else {
		m->st->ltrf_regs_prefetched++;
		m->st->ltrf_resume_fills += by == BY_RESUME;
	}
}

/* fetch every register of the working set not in the cache */
static void fetch_set(Ltrf *m, int64_t now, int warp, int by)
{
	Wcb *w = &m->w[warp];
	int64_t before = w->ready > now ? w->ready : now;
	for (int32_t k = 0; k < m->W; k++)
		for (uint64_t b = w->ws[k] & ~w->valid[k]; b; b &= b - 1)
			fill(m, now, warp, k * 64 + __builtin_ctzll(b), by);
	if (w->ready > before) m->st->ltrf_wait_cycles += (uint64_t)(w->ready - now);
}

/* ---- statistics of subgraph lengths ------------------------------------------------ */

static void ivl_close(Ltrf *m, Wcb *w)
{
	if (!w->in_ivl) return;
	uint64_t n = (uint64_t)w->ivl_len;
	TStats *st = m->st;
	st->ltrf_intervals++;
	st->ltrf_ivl_insts += n;
	if (n && (!st->ltrf_ivl_min || n < st->ltrf_ivl_min)) st->ltrf_ivl_min = n;
	if (n > st->ltrf_ivl_max) st->ltrf_ivl_max = n;
	w->ivl_len = 0;
}

static void opt_close(Ltrf *m, Wcb *w)
{
	if (!w->opt_len) return;
	uint64_t n = (uint64_t)w->opt_len;
	TStats *st = m->st;
	st->ltrf_opt_intervals++;
	st->ltrf_opt_insts += n;
	if (!st->ltrf_opt_min || n < st->ltrf_opt_min) st->ltrf_opt_min = n;
	if (n > st->ltrf_opt_max) st->ltrf_opt_max = n;
	memset(w->opt, 0, (size_t)m->W * sizeof *w->opt);
	w->opt_n = 0;
	w->opt_len = 0;
}

/* registers of the run so far, plus v[0..n): how many there would be */
static int32_t opt_count(const Ltrf *m, const Wcb *w, const int32_t *v, int n)
{
	int32_t c = w->opt_n;
	for (int i = 0; i < n; i++) {
		int dup = v[i] < 0 || v[i] >= m->nslots || bit(w->opt, v[i]);
		for (int k = 0; k < i && !dup; k++) dup = v[k] == v[i];
		c += !dup;
	}
	return c;
}

/* one more instruction on the warp's trace: extend the optimal run, or start one */
static void opt_step(Ltrf *m, Wcb *w, const TIns *ti)
{
	const int32_t *r = m->sm->prog->regs + ti->regs;
	int32_t v[2 * 256];
	int n = 0;
	for (int i = 0; i < ti->nrd_reg; i++) v[n++] = r[i] + w->base;
	for (int i = 0; i < ti->nwr_reg; i++) v[n++] = r[ti->nrd + i] + w->base;
	int32_t c = opt_count(m, w, v, n);
	if (w->opt_len && c > m->n) {              /* does not fit: a new run */
		opt_close(m, w);
		c = opt_count(m, w, v, n);
	}
	for (int i = 0; i < n; i++)
		if (v[i] >= 0 && v[i] < m->nslots) bset(w->opt, v[i]);
	w->opt_n = c;
	w->opt_len++;
}

/* ---- hooks ----------------------------------------------------------------------- */

/* make set `set` of function fn, frame base, the warp's working set: the
   registers it does not name leave the cache, the new ones come in */
static void load_set(Ltrf *m, int64_t now, int warp, int32_t set, int32_t fn, int32_t base,
                     int by)
{
	Wcb *w = &m->w[warp];
	const Image *img = m->sm->img;
	const Func *f = &img->m->funcs[img->funcs[fn].ir_func];
	w->set = set;
	w->func = fn;
	w->base = base;
	memset(w->ws, 0, (size_t)m->W * sizeof *w->ws);
	if (set >= 0 && set < f->nrset) {
		const RegSet *rs = &f->rsets[set];
		for (int k = 0; k < 4; k++)
			for (uint64_t b = rs->w[k]; b; b &= b - 1) {
				int32_t s = base + k * 64 + __builtin_ctzll(b);
				if (s < m->nslots) bset(w->ws, s);
			}
	}
	memset(w->gone, 0, (size_t)m->W * sizeof *w->gone);
	if (w->part < 0) return;                   /* inactive: activation fetches */
	for (int32_t k = 0; k < m->W; k++)
		for (uint64_t b = w->valid[k] & ~w->ws[k]; b; b &= b - 1)
			evict(m, now, warp, k * 64 + __builtin_ctzll(b), by);
	fetch_set(m, now, warp, by);
}

static void prefetch(Ltrf *m, int64_t now, int warp, const TIns *ti)
{
	Wcb *w = &m->w[warp];
	int32_t pc = (int32_t)(ti - m->sm->prog->ins);
	int32_t fn = m->sm->img->code[pc].func, base = m->sm->fw[warp].rbase;
	m->st->ltrf_prefetches++;
	int same = w->set == ti->arg && w->func == fn && w->base == base;
	if (!same || m->strands) {
		ivl_close(m, w);
		w->in_ivl = 1;
	}
	if (!same) load_set(m, now, warp, ti->arg, fn, base, BY_PREFETCH);   /* else: held */
}

static void rf_issue(void *p, int64_t now, int warp, const TIns *ti)
{
	Ltrf *m = p;
	Wcb *w = &m->w[warp];
	if (ti->pseudo == TP_PREFETCH) {
		prefetch(m, now, warp, ti);
		return;
	}
	if (ti->pseudo != TP_NONE) return;
	w->ivl_len++;
	opt_step(m, w, ti);
	/* LTRF+: the dead-operand bits update the liveness bit-vector */
	const TProg *tp = m->sm->prog;
	const int32_t *r = tp->regs + ti->regs;
	const uint8_t *ann = tp->ann + ti->regs;
	for (int i = 0; i < ti->nrd_reg; i++) {
		int32_t s = r[i] + w->base;
		if (ann[i] & TA_LAST && s >= 0 && s < m->nslots) bclr(w->live, s);
	}
	for (int i = 0; i < ti->nwr_reg; i++) {
		int32_t s = r[ti->nrd + i] + w->base;
		if (s < 0 || s >= m->nslots) continue;
		if (ti->unit != TU_NONE) bset(w->pend, s);   /* until rf_write */
		if (ann[ti->nrd + i] & TA_DEAD) bclr(w->live, s);
		else bset(w->live, s);
	}
}

/* A diverged warp whose SIMT stack resumes a path in another subgraph than
   the one it holds (the other side of a branch whose reconvergence point
   lies beyond a PREFETCH, or a return) fetches that subgraph's set first. */
static int rf_can_issue(void *p, int64_t now, int warp, const TIns *ti)
{
	Ltrf *m = p;
	Wcb *w = &m->w[warp];
	int32_t pc = (int32_t)(ti - m->sm->prog->ins), v = m->pcset[pc];
	if (v >= 0 && ti->pseudo != TP_PREFETCH) {
		int32_t fn = m->sm->img->code[pc].func, base = m->sm->fw[warp].rbase;
		if (v != w->set || fn != w->func || base != w->base) {
			m->st->ltrf_resumes++;
			ivl_close(m, w);
			w->in_ivl = 1;
			load_set(m, now, warp, v, fn, base, BY_RESUME);
		}
	}
	return w->ready <= now + 1;
}

/* claim a port of cache bank b in cycle now: 1 granted, 0 taken (counted as a bank
   conflict; asked again next cycle) */
static int cache_take(Ltrf *m, int64_t now, int b)
{
	if (m->cb_cyc[b] != now) {
		m->cb_cyc[b] = now;
		m->cb_used[b] = 0;
	}
	if (m->cb_used[b] >= m->ports) {
		m->st->bank_conflicts++;
		return 0;
	}
	m->cb_used[b]++;
	return 1;
}

static int64_t rf_read(void *p, int64_t now, int warp, int32_t reg, int32_t pc, int k)
{
	Ltrf *m = p;
	Wcb *w = &m->w[warp];
	if (reg >= 0 && reg < m->nslots && bit(w->valid, reg)) {
		if (!cache_take(m, now, w->bank[reg])) return 0;
		m->st->rfc_reads++;
		m->st->rfc_hits++;
		return w->ready > now + 1 ? w->ready : now + 1;
	}
	m->st->rfc_reads++;
	if (reg >= 0 && reg < m->nslots && bit(w->gone, reg)) {
		m->st->rfc_hits++;                     /* still in the write-back path */
		return now + 1;
	}
	m->st->mrf_reads++;                        /* not cached: a miss */
	m->st->ltrf_miss_reads++;
	return fetch(m, now, warp, reg);
}

static int rf_write(void *p, int64_t now, int warp, int32_t reg, int32_t pc, int k)
{
	Ltrf *m = p;
	Wcb *w = &m->w[warp];
	if (reg >= 0 && reg < m->nslots && bit(w->valid, reg)) {
		if (!cache_take(m, now, w->bank[reg])) return 0;
		m->st->rfc_writes++;
		bset(w->dirty, reg);
		bclr(w->pend, reg);
		return 1;
	}
	if (reg >= 0 && reg < m->nslots) bclr(w->pend, reg);
	/* not cached: straight to the MRF (its write buffer) */
	m->st->mrf_writes++;
	m->st->ltrf_late_writes++;
	return 1;
}

/* is the warp's next instruction in another subgraph than the set it holds
   (a PREFETCH of another set, or a diverged path's resume)?  Then it is not
   "in the middle of a register-interval" (4.2): the PREFETCH or the resume
   (rf_can_issue) fetches what the warp needs, and a refetch of the old set
   would be thrown away */
static int at_new_set(const Ltrf *m, int warp)
{
	const Wcb *w = &m->w[warp];
	const Warp *fw = &m->sm->fw[warp];
	int32_t pc = warp_pc(fw);
	if (pc < 0 || fw->state == W_DONE || m->pcset[pc] < 0) return 0;
	return m->pcset[pc] != w->set || m->sm->img->code[pc].func != w->func ||
	       fw->rbase != w->base;
}

static void rf_activate(void *p, int64_t now, int warp)
{
	Ltrf *m = p;
	Wcb *w = &m->w[warp];
	if (!m->pcount) die("ltrf: more active warps than register cache partitions (%d)",
	                    m->nparts);
	w->part = m->pfree[m->phead];
	m->phead = m->phead + 1 < m->nparts ? m->phead + 1 : 0;
	m->pcount--;
	for (int32_t b = 0; b < m->n; b++) w->unused[b] = (uint8_t)b;
	w->uhead = 0;
	w->ucount = m->n;
	m->st->ltrf_activations++;
	if (w->set >= 0 && !at_new_set(m, warp))
		fetch_set(m, now, warp, BY_ACTIVATION);   /* mid-interval: refetch */
}

static void rf_deactivate(void *p, int64_t now, int warp)
{
	Ltrf *m = p;
	Wcb *w = &m->w[warp];
	if (w->part < 0) return;
	int exited = m->sm->fw[warp].state == W_DONE;
	memset(w->gone, 0, (size_t)m->W * sizeof *w->gone);
	for (int32_t k = 0; k < m->W; k++)
		for (uint64_t b = w->valid[k]; b; b &= b - 1)
			evict(m, now, warp, k * 64 + __builtin_ctzll(b),
			      exited ? BY_EXIT : BY_DEACTIVATION);
	m->pfree[(m->phead + m->pcount) % m->nparts] = w->part;
	m->pcount++;
	w->part = -1;
	if (exited) {                              /* the slot's next warp starts afresh */
		ivl_close(m, w);
		opt_close(m, w);
		memset(w->ws, 0, 3 * (size_t)m->W * sizeof *w->ws);   /* ws, valid, live; gone
		                                                   serves in-flight reads */
		memset(w->pend, 0, (size_t)m->W * sizeof *w->pend);
		w->set = -1;
		w->in_ivl = 0;
		w->ready = 0;
	}
}

/* LTRF and LTRF+ differ only in init's `plus` */
#define LTRF_HOOKS(init_fn) {        \
	.init = init_fn,                 \
	.fini = fini,                    \
	.can_issue = rf_can_issue,       \
	.issue = rf_issue,               \
	.read = rf_read,                 \
	.write = rf_write,               \
	.activate = rf_activate,         \
	.deactivate = rf_deactivate,     \
	.twolevel = 1,                   \
}

const RfModel rf_model_ltrf = LTRF_HOOKS(init_ltrf);
const RfModel rf_model_ltrfplus = LTRF_HOOKS(init_plus);
