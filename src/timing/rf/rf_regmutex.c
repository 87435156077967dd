/*
 * rf_regmutex.c -- RegMutex's hardware (Khorasani et al., ISCA'18;
 * regmutex.md section III-B, paired warps III-C): warps hold a base
 * register set for life and take an extended set from a shared register
 * pool (SRP) between the compiler's rfsim.acquire and rfsim.release.
 *
 * rf.model = regmutex turns the compiler pass on by itself
 * (regmutex_enabled, regmutex.c), which leaves |Bs| and |Es| of each
 * transformed kernel in Func.rm_bs/rm_es -> Image -> TProg: the values
 * "supplied by the compiler ... at the kernel launch" (III-B2).  A kernel
 * the pass left alone (|Es| = 0: not register-limited, calls, no candidate
 * meets the deadlock rules) runs exactly as `baseline`: same occupancy,
 * same banks, same cycles.
 *
 * Occupancy (max_ctas).  CTAs per SM are computed from |Bs| registers per
 * thread with the usual allocation granularity, against every other limit;
 * the pool is what those CTAs' base sets leave of sm.registers, in sections
 * of |Es| x 32 registers, at most one per resident warp.  Deadlock rule 1
 * must also hold at run time, when the launch's block size and dynamic
 * shared memory are known (the compiler had to assume them): CTAs are taken
 * away until the pool holds at least one section, and never below what the
 * baseline would admit (with the baseline's CTAs every warp fits a whole
 * extended set of its own, so nothing ever waits).  Paired warps (III-C):
 * occupancy at ceil((2|Bs| + |Es|) / 2) registers per thread, one section
 * per pair of warp slots (2k, 2k + 1), no LUT or SRP bitmask.
 *
 * Issue (III-B1, Figure 5).  A warp-status bitmask (one bit per warp
 * slot), an SRP bitmask (one bit per section; bits past the last section
 * are set at placement and stay set) and a lookup table (warp -> section).
 * can_issue on an acquire does find-first-zero on the SRP bitmask: no zero
 * bit refuses the warp (the slot counts as stall_rf) and it retries when
 * the scheduler next tries it (the two-level scheduler suspends it first:
 * RF_WAIT_WARPS, rf.h); otherwise issue writes the index into the
 * LUT and sets both bits.  A release clears them.  An acquire while holding
 * and a release while not holding have no effect (III: "should have no
 * effect"; they still count as acquires and releases issued).  A warp's
 * CTA leaving frees whatever its warps still hold (rm_exit_holding: 0 with
 * the compiler's code, which releases before every exit).
 *
 * Acquire and release are decoded "as a barrier operation" (III-B): here a
 * release waits (stall_rf) until the warp's issued instructions have done
 * their extended-register reads and writes -- an in-flight operand read
 * or a load's write-back into the section must not land in the section
 * after another warp got it.  The compiler guarantees nothing in the
 * extended set is live after the release, so the wait is short.
 *
 * Mapping (III-B2, Figure 6).  Architected register X of warp w: X < |Bs|
 * is base-set register w|Bs| + X; otherwise section s = LUT(w) holds it at
 * SRP_offset + s|Es| + (X - |Bs|).  Banks: the base set keeps the
 * baseline's GPGPU-Sim function, bank = (X + w) mod banks, so a warp that
 * never acquires sees exactly the baseline's conflicts; an extended
 * register's bank follows its physical place: the section stands in for the
 * warp, bank = ((X - |Bs|) + s) mod banks (with rf.subcore, the sub-core
 * s mod sched.count), so the registers of one section spread over the banks
 * as a warp's do and two warps in different sections contend as two
 * warps would.  An extended register used by a warp that holds no section
 * cannot happen with the compiler's output (rm_check.c); it is counted in
 * rm_unmapped (the tests require 0) and served from the base banks.
 *
 * Reads take rf.mrf_latency cycles and are counted as mrf_reads, as in the
 * baseline.  Statistics (tstats.def rm_*): acquires, acquires granted at the
 * first try, cycles blocked at acquire (first refusal to grant), releases,
 * cycles waited at a release, instructions issued while holding the
 * extended set (acquire and release themselves excluded), and -- for kernels
 * with an extended set -- |Es|, |Bs|, registers, SRP sections, and resident
 * warps with and without RegMutex (theoretical occupancy).  Storage bits
 * (384 on Fermi) are regmutex_storage_bits (regmutex.c), shown by analyze.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/occupancy.h"
#include "base/base.h"
#include "timing/rf/mrf.h"
#include "timing/rf/rf.h"

typedef struct RegMutex {
	Mrf mrf;                 /* the baseline's banks; latency rf.mrf_latency */
	TStats *st;
	const TProg *tp;
	int32_t bs, es;          /* |Bs|, |Es|; es = 0: the baseline */
	int paired;
	int32_t nw;              /* warp slots */
	int32_t nsec;            /* SRP sections (paired: pairs) */
	int32_t words;           /* 64-bit words of a bitmask */
	uint64_t *status;        /* warp status bitmask: holds its extended set */
	uint64_t *srp;           /* SRP bitmask: section taken (or absent) */
	int32_t *lut;            /* warp -> section */
	int32_t *pend;           /* per warp: extended-register accesses issued, not done */
	int64_t *blocked;        /* per warp: cycle its current acquire or release was first
	                            refused, -1 */
	int32_t *cta_w0, *cta_nw;   /* per CTA slot: its warps */
	int32_t ncta;
} RegMutex;

static int bit(const uint64_t *m, int32_t i) { return (int)(m[i >> 6] >> (i & 63) & 1); }
static void set_bit(uint64_t *m, int32_t i) { m[i >> 6] |= 1ull << (i & 63); }
static void clr_bit(uint64_t *m, int32_t i) { m[i >> 6] &= ~(1ull << (i & 63)); }

/* find first zero: the lowest free section, -1 if none */
static int32_t ffz(const uint64_t *m, int32_t words)
{
	for (int32_t k = 0; k < words; k++)
		if (~m[k]) return k * 64 + __builtin_ctzll(~m[k]);
	return -1;
}

static int32_t regs_per_cta(const Config *c, int32_t wpc, int32_t regs)
{
	Occupancy o;
	occupancy_compute(c, wpc * 32, regs, 0, &o);
	return o.regs_per_cta;
}

/* SRP sections left by n CTAs of base sets (not paired) */
static int64_t pool_sections(const RfSm *sm, int32_t n)
{
	const Config *c = sm->cfg;
	const TProg *p = sm->prog;
	int64_t left = c->sm_registers - (int64_t)n * regs_per_cta(c, sm->warps_per_cta, p->rm_bs);
	int64_t sec = left > 0 ? left / ((int64_t)p->rm_es * 32) : 0, w = (int64_t)n * sm->warps_per_cta;
	return sec < w ? sec : w;
}

static int max_ctas(const RfSm *sm, int by_regs, int by_other)
{
	const TProg *p = sm->prog;
	int base = by_regs < by_other ? by_regs : by_other;
	if (p->rm_es <= 0) return base;
	int32_t threads = sm->warps_per_cta * 32;
	int32_t regs = sm->cfg->regmutex_paired ? (2 * p->rm_bs + p->rm_es + 1) / 2 : p->rm_bs;
	int n = occupancy_by_regs(sm->cfg, threads, regs);
	if (n > by_other) n = by_other;
	if (n * sm->warps_per_cta > sm->cfg->sm_max_warps)
		n = (int)(sm->cfg->sm_max_warps / sm->warps_per_cta);
	if (!sm->cfg->regmutex_paired)
		while (n > base && pool_sections(sm, n) < 1) n--;   /* deadlock rule 1 */
	return n > base ? n : base;
}

static void *init(const RfSm *sm)
{
	RegMutex *m = xcalloc(1, sizeof *m);
	const Config *c = sm->cfg;
	mrf_init(&m->mrf, c, sm->st);
	m->st = sm->st;
	m->tp = sm->prog;
	m->nw = sm->nwarps;
	m->ncta = sm->warps_per_cta ? sm->nwarps / sm->warps_per_cta : 0;
	m->cta_w0 = xcalloc((size_t)m->ncta + 1, sizeof *m->cta_w0);
	m->cta_nw = xcalloc((size_t)m->ncta + 1, sizeof *m->cta_nw);
	if (sm->prog->rm_es <= 0 || !m->nw) return m;
	m->bs = sm->prog->rm_bs;
	m->es = sm->prog->rm_es;
	m->paired = (int)c->regmutex_paired;
	int32_t n = m->ncta;
	if (m->paired) {
		m->nsec = (m->nw + 1) / 2;
	} else {
		int64_t sec = pool_sections(sm, n);
		/* below one section only when max_ctas fell back to the baseline's
		   CTAs, whose full register sets hold an extended set per warp */
		m->nsec = sec >= 1 ? (int32_t)sec : m->nw;
	}
	m->words = (m->nsec + 63) / 64;
	m->status = xcalloc((size_t)(m->nw + 63) / 64 + 1, sizeof *m->status);
	m->srp = xcalloc((size_t)m->words + 1, sizeof *m->srp);
	for (int32_t i = m->nsec; i < m->words * 64; i++) set_bit(m->srp, i);
	m->lut = xcalloc((size_t)m->nw, sizeof *m->lut);
	m->pend = xcalloc((size_t)m->nw, sizeof *m->pend);
	m->blocked = xmalloc((size_t)m->nw * sizeof *m->blocked);
	for (int32_t i = 0; i < m->nw; i++) m->blocked[i] = -1, m->lut[i] = -1;
	/* occupancy with and without RegMutex (the baseline's CTAs: see max_ctas,
	   whose answer n is never below it, so it is min(by full registers, n)) */
	int32_t by_full = occupancy_by_regs(c, sm->warps_per_cta * 32, sm->regs_per_thread);
	int32_t nb = by_full < n ? by_full : n;
	TStats *st = sm->st;
	st->rm_sms++;
	st->rm_es += (uint64_t)m->es;
	st->rm_bs += (uint64_t)m->bs;
	st->rm_regs += (uint64_t)(m->bs + m->es);
	st->rm_sections += (uint64_t)m->nsec;
	st->rm_warps += (uint64_t)m->nw;
	st->rm_warps_base += (uint64_t)nb * (uint64_t)sm->warps_per_cta;
	st->rm_warp_slots += (uint64_t)c->sm_max_warps;
	return m;
}

static void fini(void *p)
{
	RegMutex *m = p;
	mrf_fini(&m->mrf);
	free(m->status);
	free(m->srp);
	free(m->lut);
	free(m->pend);
	free(m->blocked);
	free(m->cta_w0);
	free(m->cta_nw);
	free(m);
}

static int is_ext(const RegMutex *m, int32_t reg) { return reg >= m->bs; }

static int32_t section_of(const RegMutex *m, int warp)
{
	return m->paired ? warp / 2 : ffz(m->srp, m->words);
}

static void release(RegMutex *m, int warp)
{
	if (!bit(m->status, warp)) return;
	clr_bit(m->status, warp);
	clr_bit(m->srp, m->lut[warp]);
	m->lut[warp] = -1;
}

static void cta_launch(void *p, int cta, int warp0, int nwarps)
{
	RegMutex *m = p;
	if (cta < 0 || cta >= m->ncta) return;
	m->cta_w0[cta] = warp0;
	m->cta_nw[cta] = nwarps;
}

static void cta_exit(void *p, int cta)
{
	RegMutex *m = p;
	if (!m->es || cta < 0 || cta >= m->ncta) return;
	for (int32_t i = 0; i < m->cta_nw[cta]; i++) {
		int w = m->cta_w0[cta] + i;
		m->st->rm_exit_holding += (uint64_t)bit(m->status, w);
		release(m, w);
		m->pend[w] = 0;
		m->blocked[w] = -1;
	}
}

static int can_issue(void *p, int64_t now, int warp, const TIns *ti)
{
	RegMutex *m = p;
	if (!m->es) return 1;
	if (ti->pseudo == TP_ACQUIRE) {
		if (bit(m->status, warp)) return 1;             /* no effect */
		int32_t s = section_of(m, warp);
		if (s >= 0 && s < m->nsec && !bit(m->srp, s)) return 1;
		if (m->blocked[warp] < 0) m->blocked[warp] = now;
		return RF_WAIT_WARPS;                          /* a release frees a section */
	}
	if (ti->pseudo == TP_RELEASE && m->pend[warp] > 0) {
		if (m->blocked[warp] < 0) m->blocked[warp] = now;
		return 0;
	}
	return 1;
}

static void issue(void *p, int64_t now, int warp, const TIns *ti)
{
	RegMutex *m = p;
	if (!m->es) return;
	TStats *st = m->st;
	if (ti->pseudo == TP_ACQUIRE) {
		st->rm_acquires++;
		if (m->blocked[warp] < 0) {
			st->rm_acquires_first++;
		} else {
			st->rm_acquire_wait_cycles += (uint64_t)(now - m->blocked[warp]);
			m->blocked[warp] = -1;
		}
		if (bit(m->status, warp)) return;
		int32_t s = section_of(m, warp);
		m->lut[warp] = s;
		set_bit(m->status, warp);
		set_bit(m->srp, s);
		return;
	}
	if (ti->pseudo == TP_RELEASE) {
		st->rm_releases++;
		if (m->blocked[warp] >= 0) {
			st->rm_release_wait_cycles += (uint64_t)(now - m->blocked[warp]);
			m->blocked[warp] = -1;
		}
		release(m, warp);
		return;
	}
	if (bit(m->status, warp)) st->rm_ext_insts++;
	if (ti->unit == TU_NONE) return;                   /* no operand collection */
	const int32_t *r = m->tp->regs + ti->regs;
	for (int i = 0; i < ti->nrd_reg; i++) m->pend[warp] += is_ext(m, r[i]);
	for (int i = 0; i < ti->nwr_reg; i++) m->pend[warp] += is_ext(m, r[ti->nrd + i]);
}

/* the (warp, register) whose bank serves register reg of warp: base set as
   the baseline, extended set by its section */
static int32_t bank_key(RegMutex *m, int *warp, int32_t reg)
{
	if (!m->es || !is_ext(m, reg)) return reg;
	if (!bit(m->status, *warp)) {
		m->st->rm_unmapped++;
		return reg;
	}
	*warp = m->lut[*warp];
	return reg - m->bs;
}

/* an access to reg of warp was granted: one pending extended access fewer */
static void accessed(RegMutex *m, int warp, int32_t reg)
{
	if (m->es && is_ext(m, reg) && m->pend[warp] > 0) m->pend[warp]--;
}

static int64_t rf_read(void *p, int64_t now, int warp, int32_t reg, int32_t pc, int k)
{
	RegMutex *m = p;
	int bw = warp;
	int32_t br = bank_key(m, &bw, reg);
	int64_t t = mrf_read(&m->mrf, now, bw, br);
	if (t) accessed(m, warp, reg);
	return t;
}

static int rf_write(void *p, int64_t now, int warp, int32_t reg, int32_t pc, int k)
{
	RegMutex *m = p;
	int bw = warp;
	int32_t br = bank_key(m, &bw, reg);
	int done = mrf_write(&m->mrf, now, bw, br);
	if (done) accessed(m, warp, reg);
	return done;
}

const RfModel rf_model_regmutex = {
	.init = init,
	.fini = fini,
	.max_ctas = max_ctas,
	.cta_launch = cta_launch,
	.cta_exit = cta_exit,
	.can_issue = can_issue,
	.issue = issue,
	.read = rf_read,
	.write = rf_write,
};
