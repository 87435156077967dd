/*
 * regmutex.c -- RegMutex, the compiler side (Khorasani et al., "RegMutex:
 * Inter-Warp GPU Register Time-Sharing", ISCA 2018; regmutex.md section
 * III-A), and the storage arithmetic of its hardware (section III-B).
 *
 * A kernel's architected registers R0..R(n-1) split into a base set
 * R0..R(|Bs|-1), held by every resident warp for life, and an extended
 * set R|Bs|..R(n-1), taken from a shared register pool (SRP) between an
 * `rfsim.acquire` and an `rfsim.release` that the compiler places where
 * more than |Bs| registers are live.  The four steps of section III-A:
 *
 *   1 liveness    regmutex_need: per instruction, the 32-bit slots a warp
 *                 must hold -- divergence-aware liveness (live_div.c, III-A1)
 *                 of the registers live before and after it and those it
 *                 writes, plus the scratch registers ptxas's expansion of it
 *                 needs (integer division etc., igraph.c)
 *   2 |Es|        regmutex_pick: candidates floor({0.1 .. 0.35} * n), even,
 *                 below n, where n is the register count as allocated (rounded
 *                 up to sm.reg_alloc_unit / 32, 2 on Fermi; the paper's
 *                 Table I rounds to 4 as GPGPU-Sim does); those giving the
 *                 highest occupancy with the base set alone; among them the
 *                 one letting more than half the resident warps hold an
 *                 extended set at once.  The text
 *                 says "the largest" such candidate, but its worked example
 *                 (24 registers, candidates 4, 6, 8 at full occupancy with
 *                 16, 26, 32 SRP sections for 48 warps) picks 6, not 8, and
 *                 Table I agrees (BFS and MRI-Q: 24 registers, |Bs| 18): we
 *                 follow the example, i.e. the smallest |Es| whose pool
 *                 exceeds half the warps, which also keeps the acquired code
 *                 shortest.  The text leaves open what happens when no
 *                 candidate at the highest occupancy lets more than half
 *                 the warps in: section IV-C says the policy works by
 *                 "prioritizing occupancy and then adjusting it based on
 *                 the number of sections in SRP", and the policy's stated
 *                 aim is "not curtailing scheduling freedom", so we step
 *                 down to the next occupancy the candidates give, as long
 *                 as it is still above the baseline's, and take the first
 *                 level where a candidate's pool exceeds half the warps.
 *                 When no level above the baseline's has one, the kernel
 *                 keeps a zero-sized extended set (the paper's "default
 *                 execution mode"): every candidate that raises occupancy
 *                 would leave fewer sections than half the warps, and the
 *                 hot code, where live registers peak, would run a few warps
 *                 at a time.  (On fermi-gtx480 the literal rule gave tpacf a
 *                 2-section pool for 28 warps and 4x the baseline's cycles,
 *                 srad with half the register file 1 section for 28 warps
 *                 and 8x; stepping down gives tpacf 16 sections for 24
 *                 warps and the baseline's cycles.)  If no candidate raises
 *                 the occupancy at all, the literal pick stands, as the
 *                 paper's MergeSort shows (IV-B: no benefit, a slight cost).
 *                 Paired warps (III-C) always have a pool of exactly half
 *                 the warps, one section per pair, so there is nothing to
 *                 adjust: the highest occupancy, then the smallest |Es|.
 *                 Only a kernel whose occupancy is register-limited gets an
 *                 extended set.
 *                 Deadlock rules: the pool holds at least one extended set,
 *                 and |Bs| >= the registers live at every CTA barrier; a
 *                 candidate breaking either is dropped, and so is one whose
 *                 regions the placement cannot keep off the barriers (see
 *                 rm_plan.c).  `-s regmutex.es=N` overrides the choice; an
 *                 N breaking a rule is an input error naming the rule, raised
 *                 when the kernel is launched (the module's other kernels
 *                 stay usable; `analyze` shows it in the kernel's line).
 *   3, 4          rm_plan.c: acquire/release placement and the moves of index
 *                 compaction; rm_home.c: the homes in the base set
 *   check         rm_check.c re-verifies every transformed kernel; code that
 *                 fails is undone and placed again by rm_plan.c's fallback,
 *                 or the size refused: the pass never stops on a kernel
 *
 * Occupancy with RegMutex is computed from |Bs| alone; the pool is what
 * the resident warps' base sets leave of the register file, in sections of
 * |Es| * 32 registers, at most one per resident warp.  The paired-warps
 * variant (section III-C) gives each pair 2|Bs| + |Es| registers, so
 * occupancy is computed at ceil((2|Bs| + |Es|) / 2) registers per thread
 * and the pool has one section per pair.  Threads per CTA and shared
 * memory are the launch's: the pass first runs when the module is loaded,
 * assuming .reqntid/.maxntid (256 when neither is given) and the static
 * .shared variables, and Func.rm_threads/rm_shared record that; a launch
 * with another shape recompiles the kernel for it (Module.launch_threads,
 * launch_dyn_shared; gpu.c's launch_image), as a driver JIT would -- the
 * |Es| choice depends on the occupancy, which depends on the block size
 * (III-B2: |Bs| and |Es| are "supplied by the compiler ... at the kernel
 * launch").
 *
 * Storage (section III-B): a warp-status bit per warp slot (Nw), an SRP
 * bitmask (Nw), and a lookup table of Nw entries of ceil(log2 Nw) bits:
 * 48 + 48 + 288 = 384 bits on Fermi.  Paired warps: Nw / 2 bits.
 */
#include "analysis/regmutex.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/occupancy.h"
#include "analysis/ra_int.h"
#include "base/base.h"
#include "base/models.h"
#include "base/rftech.h"

/* ---- step 1: the registers a warp needs ------------------------------------- */

static void add_slots(const Func *f, int32_t r, uint64_t *s)
{
	int w = ra_reg_width((PtxType)f->regtype[r]);
	for (int j = 0; j < w; j++) {
		int32_t sl = f->phys[r] + j;
		s[sl >> 6] |= 1ull << (sl & 63);
	}
}

static int32_t popcount(const uint64_t *s, int32_t n)
{
	int32_t k = 0;
	for (int32_t j = 0; j < n; j++) k += __builtin_popcountll(s[j]);
	return k;
}

int32_t regmutex_need(const Func *f, int32_t *need)
{
	Cfg *c = cfg_build(f);
	Live *l = live_compute_div(c);
	int32_t sw = (f->nphys + 64) / 64, defs[RA_MAXSLOT], bar = 0;
	uint64_t *s = xmalloc(sizeof(uint64_t) * (size_t)sw);
	for (int32_t i = 0; i < f->nins; i++) {
		const Ins *in = &f->ins[i];
		memset(s, 0, sizeof(uint64_t) * (size_t)sw);
		const uint64_t *li = live_in(l, i), *lo = live_out(l, i);
		for (int32_t r = 0; r < f->nreg; r++)
			if (live_has(li, r) || live_has(lo, r)) add_slots(f, r, s);
		int nd = live_defs(f, in, defs, RA_MAXSLOT);
		for (int j = 0; j < nd && j < RA_MAXSLOT; j++) add_slots(f, defs[j], s);
		need[i] = popcount(s, sw) + ra_scratch(in);
		if (rm_cta_wait(in) && need[i] > bar)
			bar = need[i];
	}
	free(s);
	live_free(l);
	cfg_free(c);
	return bar;
}

/* ---- step 2: |Es| ------------------------------------------------------------- */

int32_t regmutex_sections(const Config *cfg, int32_t threads, int64_t shared, int32_t bs,
                          int32_t es, int paired, int32_t *warps)
{
	Occupancy o;
	occupancy_compute(cfg, threads, paired ? (2 * bs + es + 1) / 2 : bs, shared, &o);
	*warps = o.warps_per_sm;
	if (es <= 0) return 0;
	if (paired) return o.warps_per_sm / 2;
	int64_t left = rftech_registers(cfg) - (int64_t)o.ctas_per_sm * o.regs_per_cta;
	int64_t n = left > 0 ? left / ((int64_t)es * 32) : 0;
	return (int32_t)(n < cfg->sm_max_warps ? n : cfg->sm_max_warps);
}

void regmutex_pick(const Config *cfg, int32_t regs, int32_t threads, int64_t shared,
                   int32_t min_bs, int32_t es_force, int paired, RmPick *p)
{
	static const int pct[] = {10, 15, 20, 25, 30, 35};
	Occupancy o;
	occupancy_compute(cfg, threads, regs, shared, &o);
	int32_t g = cfg->sm_reg_alloc_unit >= 64 ? (int32_t)(cfg->sm_reg_alloc_unit / 32) : 1;
	regs = (regs + g - 1) / g * g;      /* as allocated: Bs + Es */
	memset(p, 0, sizeof *p);
	p->regs = regs, p->bs = regs, p->min_bs = min_bs;
	p->warps_base = p->warps_rm = o.warps_per_sm;
	if (es_force > 0) {
		if (es_force >= regs) { p->why = "regmutex.es >= the kernel's registers"; return; }
		p->es = es_force, p->bs = regs - es_force;
		p->sections = regmutex_sections(cfg, threads, shared, p->bs, p->es, paired,
		                                &p->warps_rm);
		return;
	}
	if (o.limiter != OCC_REGISTERS) { p->why = "occupancy not register-limited"; return; }
	/* half: the highest occupancy above the baseline's at which some candidate
	   lets more than half the resident warps hold an extended set, the
	   smallest such |Es|; lit: the highest occupancy, the largest pool, taken
	   only when no candidate raises the occupancy at all (as MergeSort in
	   section IV-B) */
	int32_t half = -1, hw = 0, hsec = 0, lit = -1, lw = 0, lsec = 0;
	for (size_t k = 0; k < sizeof pct / sizeof pct[0]; k++) {
		int32_t es = regs * pct[k] / 100, w, sec;
		if (es <= 0 || es % 2 || es >= regs || regs - es < min_bs) continue;
		sec = regmutex_sections(cfg, threads, shared, regs - es, es, paired, &w);
		if (sec < 1) continue;                   /* deadlock rule 1 */
		if (!paired && 2 * sec > w && w > o.warps_per_sm && (half < 0 || w > hw))
			half = es, hw = w, hsec = sec;
		if (lit < 0 || w > lw || (w == lw && sec > lsec))
			lit = es, lw = w, lsec = sec;
	}
	if (lit < 0) { p->why = "no candidate meets the deadlock rules"; return; }
	if (half >= 0) p->es = half, p->warps_rm = hw, p->sections = hsec;
	else if (paired || lw <= o.warps_per_sm) p->es = lit, p->warps_rm = lw, p->sections = lsec;
	else { p->why = "no candidate raises occupancy with a pool for more than half the warps"; return; }
	p->bs = regs - p->es;
}

int64_t regmutex_storage_bits(const Config *cfg, int paired)
{
	int64_t nw = cfg->sm_max_warps, lg = 0;
	while ((1ll << lg) < nw) lg++;
	return paired ? nw / 2 : nw + nw + nw * lg;
}

/* ---- the pass ------------------------------------------------------------------ */

int regmutex_enabled(const Config *cfg)
{
	return cfg->regmutex_enable || (model_passes((int)cfg->rf_model) & MP_REGMUTEX);
}

static int32_t threads_of(const int32_t d[3])
{
	if (!d[0]) return 0;
	return d[0] * (d[1] ? d[1] : 1) * (d[2] ? d[2] : 1);
}

static int64_t static_shared(const Module *m, int32_t fi)
{
	int64_t n = 0;
	for (int32_t i = 0; i < m->nsym; i++) {
		const Sym *s = &m->syms[i];
		if (s->kind == SYM_VAR && s->space == SP_SHARED && (s->func == -1 || s->func == fi))
			n += sym_size(s);
	}
	return n;
}

static int has_call(const Func *f)
{
	for (int32_t i = 0; i < f->nins; i++)
		if (f->ins[i].op == OP_CALL) return 1;
	return 0;
}

int regmutex_func(Module *m, int32_t fi, const Config *cfg, RmStats *st, FILE *dump)
{
	char last[RM_WHY];          /* the last candidate the placement refused */
	Func *f = &m->funcs[fi];
	memset(st, 0, sizeof *st);
	int32_t regs = f->regs_per_thread;
	st->pick.regs = st->pick.bs = regs;     /* regmutex_pick rounds it as allocated */
	if (!(f->attr & ATTR_ENTRY) || !f->phys) {
		st->pick.why = "not an allocated kernel";
		return RF_OK;
	}
	if (has_call(f)) { st->pick.why = "calls (left out)"; return RF_OK; }
	/* the launch's shape is the launched kernel's alone: another kernel
	   recompiled with it must not take it (nor fail a forced |Es| at it) */
	int launched = m->launch_threads && (m->launch_func < 0 || fi == m->launch_func);
	int32_t threads = launched ? m->launch_threads : threads_of(f->reqntid);
	int32_t paired = (int)cfg->regmutex_paired;
	if (!threads) threads = threads_of(f->maxntid);
	if (!threads) threads = 256;
	int64_t shared = static_shared(m, fi) + (launched ? m->launch_dyn_shared : 0);
	f->rm_threads = threads, f->rm_shared = shared;
	last[0] = 0;
	int32_t *need = xmalloc(sizeof(int32_t) * ((size_t)f->nins + 1));
	int32_t min_bs = regmutex_need(f, need), force = (int32_t)cfg->regmutex_es, rc = RF_OK;
	free(need);
	for (;;) {    /* drop candidates the placement cannot use */
		regmutex_pick(cfg, regs, threads, shared, min_bs, force, paired, &st->pick);
		if (!st->pick.es) break;
		if (st->pick.bs < min_bs) {
			snprintf(last, sizeof last, "regmutex.es=%d for '%s': |Bs| = %d is below the %d "
			         "registers live at a CTA barrier (deadlock rule 2)", force,
			         ir_str(m, m->syms[f->sym].name), st->pick.bs, min_bs);
			if (!launched) {
				/* refused when this kernel is launched, not when the module
				   loads: its other kernels and variables stay usable */
				snprintf(st->why_buf, sizeof st->why_buf, "%s", last);
				st->pick.why = st->why_buf;
				st->pick.es = 0, st->pick.bs = regs;
				st->pick.warps_rm = st->pick.warps_base, st->pick.sections = 0;
				f->rm_threads = -1;
				return RF_OK;
			}
			err_set("%s", last);
			return RF_EINPUT;
		}
		if (st->pick.sections < 1) {
			if (!launched && !threads_of(f->reqntid)) {
				/* rule 1 depends on the block size, which only the launch
				   knows: leave the kernel alone now, decide at each launch */
				st->pick.why = "deadlock rule 1 at the assumed block size; decided at launch";
				st->pick.es = 0, st->pick.bs = regs;
				st->pick.warps_rm = st->pick.warps_base, st->pick.sections = 0;
				f->rm_threads = -1;
				return RF_OK;
			}
			err_set("regmutex.es=%d for '%s': the pool holds no extended set at %d threads "
			        "per CTA and %lld bytes of shared memory (deadlock rule 1)", force,
			        ir_str(m, m->syms[f->sym].name), threads, (long long)shared);
			return RF_EINPUT;
		}
		RmPick keep = st->pick;
		rc = regmutex_apply(m, fi, st->pick.bs, 0, st);
		st->pick = keep;
		if (rc != RF_OK && force && !launched) {
			/* a forced size the placement cannot use (a barrier would end
			   up acquired, or no placement passes the check): refused when
			   this kernel is launched, as above */
			snprintf(last, sizeof last, "%s", err_msg());
			memset(st, 0, sizeof *st);
			snprintf(st->why_buf, sizeof st->why_buf, "%s", last);
			st->pick = keep;
			st->pick.why = st->why_buf;
			st->pick.es = 0, st->pick.bs = regs;
			st->pick.warps_rm = st->pick.warps_base, st->pick.sections = 0;
			f->rm_threads = -1;
			return RF_OK;
		}
		if (rc == RF_OK || force) break;
		snprintf(last, sizeof last, "%s", err_msg());
		min_bs = st->pick.bs + 1;      /* the heuristic tries a smaller |Es| */
		rc = RF_OK;
		memset(st, 0, sizeof *st);
	}
	if (!st->pick.es && last[0]) {      /* `last` dies here: keep a copy */
		snprintf(st->why_buf, sizeof st->why_buf, "%s", last);
		st->pick.why = st->why_buf;
	}
	if (rc == RF_OK && st->pick.es)        /* what the hardware model is given at launch */
		f->rm_bs = st->pick.bs, f->rm_es = st->pick.es;
	if (dump)
		fprintf(dump, "regmutex %s: regs %d, |Bs| %d, |Es| %d%s%s; warps %d -> %d, sections %d;"
		        " instructions %d, hot %d, acquired %d; acquires %d, releases %d, "
		        "moves %d, renamed %d%s\n", ir_str(m, m->syms[f->sym].name), regs,
		        st->pick.bs, st->pick.es, st->pick.why ? ": " : "",
		        st->pick.why ? st->pick.why : "", st->pick.warps_base, st->pick.warps_rm,
		        st->pick.sections, st->ins, st->hot_ins, st->acq_ins,
		        st->acquires, st->releases, st->moves, st->renamed,
		        st->whole ? "; regions acquired whole (fallback)" : "");
	return rc;
}
