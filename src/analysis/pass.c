/*
 * pass.c -- the compiler pipeline: what happens to a parsed module before
 * the functional core decodes it.  pass_run is the whole sequence:
 *
 *   for each function with a body:
 *     as_ptxas_sees       parameters and constants read at    (compiler.schedule=latency;
 *                         their uses, a register per block-    remat.c, rename.c, fold.c)
 *                         local value, constant offsets in
 *                         addresses
 *     schedule_func       reorder inside blocks: latency      (compiler.schedule;
 *                         first, or to lower pressure          schedule.c, sched_lat.c)
 *     cfg_build           blocks, dominators, loops          dump letter c
 *     live_compute        per-thread liveness                 dump letter l
 *     live_compute_div    warp-level liveness (dump only)     dump letter d
 *     regalloc_func       virtual -> architected registers    dump letters s, a
 *     regshare_reorder    registers renamed by first use      dump letter r
 *                         (regshare.enable or rf.model=regshare, and
 *                         regshare.reorder; regshare.c)
 *     prefetch_insert     LTRF intervals or strands, and  dump letter i
 *                         rfsim.prefetch at their entries (ltrf.partition,
 *                         interval by itself under rf.model=ltrf/ltrfplus;
 *                         interval.c, strand.c, prefetch.c)
 *   kernel_regs           each kernel's register count, callees included; under
 *                         latency as ptxas counts: R1, the ABI's registers (abi.c)
 *   regmutex_func         acquire/release, compaction (regmutex.enable or  dump letter m
 *                         rf.model = regmutex); |Bs|, |Es| into Func.rm_bs/rm_es
 *   (the module, printed)                                     dump letter p
 *
 * `-s compiler.dump=LETTERS` writes those dumps to stderr; `-s
 * compiler.regalloc=0` skips allocation, so the functional core runs
 * nvcc's virtual registers (the differential test of the allocator).
 * Later mechanism passes (LTRF intervals, RegMutex acquire/release) run
 * on the allocated code and join the sequence here.
 *
 * Register cap of a kernel: the smallest of sm.max_regs_per_thread,
 * maxrregcount (if set), .maxnreg, and the launch-bounds cap of .maxntid
 * (with .minnctapersm, default 1), as nvcc derives it (occupancy.c).  A
 * device function gets the smallest cap of the kernels that reach it.
 * (ptxas lets launch bounds override -maxrregcount, and raises caps
 * below 24 to 24 on sm_90; rfsim takes the smallest of all and goes as
 * low as one instruction needs, so that `-s maxrregcount=16` forces
 * spills everywhere, which is what the differential tests want.)
 *
 * Registers per thread of a kernel: the most that it or any function it
 * can call uses.  That is ptxas's rule under the ABI (callees share the
 * caller's register file and save what they clobber), so `ptxas -v`
 * numbers compare directly.  rfsim's functional core gives each call its
 * own frame of slots instead, so no save/restore code is modelled.  Under
 * compiler.schedule=latency the count is ptxas's as well: the stack
 * pointer R1, at least the registers the calling convention takes where
 * ptxas cannot allocate across a call (abi.c), rounded up to the odd half
 * of a pair, and the two more every `ptxas -v` count includes, all within
 * the cap (the allocator's cap is three less); the code still names only
 * R0..R(nphys-1), the rest are counted, as the GPU allocates them.
 */
#include "analysis/pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/abi.h"
#include "analysis/cfg.h"
#include "analysis/interval.h"
#include "analysis/live.h"
#include "analysis/occupancy.h"
#include "analysis/regshare.h"
#include "analysis/fold.h"
#include "analysis/remat.h"
#include "analysis/rename.h"
#include "base/base.h"
#include "ptx/ptx.h"

typedef struct Dumps { int c, l, d, s, a, p, r, i, m; } Dumps;

/* latency mode: instructions after a memory or shuffle instruction during
   which the allocator does not rewrite a register it reads (igraph.c) */
enum { READ_HOLD = 4 };

/* CPU seconds of this thread: compile times stay comparable on a busy host */
static double cpu_sec(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static Dumps dumps_of(const Config *cfg)
{
	const char *s = cfg->compiler_dump;
	return (Dumps){strchr(s, 'c') != NULL, strchr(s, 'l') != NULL, strchr(s, 'd') != NULL,
	               strchr(s, 's') != NULL, strchr(s, 'a') != NULL, strchr(s, 'p') != NULL,
	               strchr(s, 'r') != NULL, strchr(s, 'i') != NULL, strchr(s, 'm') != NULL};
}

static int32_t threads_of(const int32_t d[3])
{
	if (!d[0]) return 0;
	return d[0] * (d[1] ? d[1] : 1) * (d[2] ? d[2] : 1);
}

static int32_t kernel_cap(const Func *f, const Config *cfg, const char **why)
{
	int32_t cap = (int32_t)cfg->sm_max_regs_per_thread;
	*why = "sm.max_regs_per_thread";
	if (cfg->maxrregcount > 0 && cfg->maxrregcount < cap)
		cap = (int32_t)cfg->maxrregcount, *why = "maxrregcount";
	if (f->maxnreg > 0 && f->maxnreg < cap) cap = f->maxnreg, *why = ".maxnreg";
	int32_t t = threads_of(f->maxntid), rt = threads_of(f->reqntid);
	if (!t) t = rt;
	if (t > 0) {
		int32_t lb = occupancy_launch_cap(cfg, t, f->minnctapersm);
		if (lb > 0 && lb < cap) cap = lb, *why = "launch bounds";
	}
	return cap;
}

/* functions reachable from fi by direct calls (fi included), marked in seen */
static void reach(const Module *m, int32_t fi, uint8_t *seen, int32_t *stk)
{
	int32_t sp = 0;
	memset(seen, 0, (size_t)m->nfunc);
	seen[fi] = 1;
	stk[sp++] = fi;
	while (sp) {
		const Func *f = &m->funcs[stk[--sp]];
		for (int32_t i = 0; i < f->nins; i++) {
			const Ins *in = &f->ins[i];
			for (int k = 0; in->op == OP_CALL && k < in->nd + in->ns; k++) {
				if (in->o[k].kind != OPK_SYM) continue;
				const Sym *s = &m->syms[in->o[k].reg];
				if (s->kind == SYM_FUNC && s->func >= 0 && !seen[s->func])
					seen[s->func] = 1, stk[sp++] = s->func;
			}
		}
	}
}

void pass_reachable(const Module *m, int32_t fi, uint8_t *seen)
{
	int32_t *stk = xmalloc(sizeof(int32_t) * ((size_t)m->nfunc + 1));
	reach(m, fi, seen, stk);
	free(stk);
}

int32_t pass_reg_cap(const Module *m, int32_t fi, const Config *cfg, const char **why)
{
	const Func *f = &m->funcs[fi];
	if (f->attr & ATTR_ENTRY) return kernel_cap(f, cfg, why);
	uint8_t *seen = xmalloc((size_t)m->nfunc + 1);
	int32_t *stk = xmalloc(sizeof(int32_t) * ((size_t)m->nfunc + 1));
	int32_t cap = -1;
	const char *w = "sm.max_regs_per_thread";
	for (int32_t k = 0; k < m->nfunc; k++) {
		if (!(m->funcs[k].attr & ATTR_ENTRY) || !m->funcs[k].has_body) continue;
		reach(m, k, seen, stk);
		const char *kw;
		int32_t c = kernel_cap(&m->funcs[k], cfg, &kw);
		if (seen[fi] && (cap < 0 || c < cap)) cap = c, w = kw;
	}
	free(seen);
	free(stk);
	*why = w;
	if (cap < 0) return kernel_cap(f, cfg, why);
	return cap;
}

/* Func.regs_per_thread of each kernel: its own or its callees', the most;
   in latency mode as ptxas counts them: at least what the calling
   convention takes (abi.c), with the stack pointer, up to the odd half of
   a pair, and ABI_EXTRA.  The odd half: ptxas gives a 32-bit value the odd
   register of a free pair before the even one (%tid.x in R5, R4 and R0
   left empty, beside a pointer in R2:R3; two such values in R5 and R7),
   and pairs end on odd registers, so its highest register is odd in 230
   of the 268 corpus kernels (abi.h); rfsim packs its registers instead,
   and counts a last even one as the pair ptxas would have used */
static void kernel_regs(Module *m, const Config *cfg)
{
	int ptxas = cfg->compiler_schedule == SCHED_LATENCY;
	uint8_t *seen = xmalloc((size_t)m->nfunc + 1);
	int32_t *stk = xmalloc(sizeof(int32_t) * ((size_t)m->nfunc + 1));
	int32_t *own = xcalloc((size_t)m->nfunc + 1, sizeof(int32_t));
	for (int32_t j = 0; j < m->nfunc; j++) {   /* ptxas: R0..R(n-1), R1 the stack pointer */
		own[j] = m->funcs[j].nphys;
		if (!ptxas || !m->funcs[j].phys) continue;
		own[j] = (own[j] > 1 ? own[j] : 1) + ABI_SP;
		int32_t a = abi_regs(m, &m->funcs[j]);
		if (a > own[j]) own[j] = a;
	}
	for (int32_t k = 0; k < m->nfunc; k++) {
		Func *f = &m->funcs[k];
		if (!(f->attr & ATTR_ENTRY) || !f->phys) continue;
		reach(m, k, seen, stk);
		for (int32_t j = 0; j < m->nfunc; j++)
			if (seen[j] && own[j] > f->regs_per_thread) f->regs_per_thread = own[j];
		if (!ptxas) continue;
		const char *why;
		int32_t cap = pass_reg_cap(m, k, cfg, &why);
		f->regs_per_thread = (f->regs_per_thread + 1) / 2 * 2 + ABI_EXTRA;
		if (f->regs_per_thread > cap) f->regs_per_thread = cap;   /* ptxas spills instead */
	}
	free(seen), free(stk), free(own);
}

static void dump_analyses(const Module *m, const Func *f, const Dumps *d)
{
	Cfg *c = cfg_build(f);
	if (d->c) cfg_dump(c, m, stderr);
	if (d->l) {
		Live *l = live_compute(c);
		live_dump(l, m, stderr);
		live_free(l);
	}
	if (d->d) {
		Live *l = live_compute_div(c);
		fputs("warp-level ", stderr);
		live_dump(l, m, stderr);
		live_free(l);
	}
	cfg_free(c);
}

/* latency mode: the code as ptxas schedules it -- parameters and constants
   read where they are used, one register per block-local value, constant
   offsets in the address (remat.c, rename.c, fold.c) */
static void as_ptxas_sees(Module *m, Func *f)
{
	remat_func(m, f);
	rename_func(m, f);
	fold_func(m, f);
}

static int allocate(Module *m, int32_t fi, const Config *cfg, const Dumps *d, PassFunc *pf)
{
	RaOpts o = {0};
	o.cap = pass_reg_cap(m, fi, cfg, &pf->cap_why);
	pf->cap = o.cap;
	if (cfg->compiler_schedule == SCHED_LATENCY)    /* the count ptxas reports is capped */
		o.cap = o.cap > ABI_SP + ABI_EXTRA ? o.cap - ABI_SP - ABI_EXTRA : 1;
	o.npred = (int32_t)cfg->compiler_pred_regs;
	o.dump = d->a ? stderr : NULL;
	o.dump_spill = d->s ? stderr : NULL;
	if (cfg->compiler_schedule == SCHED_LATENCY) o.hold = READ_HOLD;
	return regalloc_func(m, fi, &o, &pf->ra);
}

static void ltrf(Module *m, int32_t fi, const Config *cfg, const Dumps *d, PassFunc *pf)
{
	pf->part = prefetch_insert(m, fi, ltrf_partition_of(cfg),
	                           (int32_t)cfg->ltrf_regs_per_interval);
	if (d->i && pf->part) {
		fprintf(stderr, "%s: ", ir_str(m, m->syms[m->funcs[fi].sym].name));
		ivl_dump(pf->part, stderr);
	}
}

int pass_run_report(Module *m, const Config *cfg, PassReport *r)
{
	Dumps d = dumps_of(cfg);
	PassFunc *pf = xcalloc((size_t)m->nfunc + 1, sizeof *pf);
	int rc = RF_OK;
	m->kparam_cbank = cfg->compiler_schedule == SCHED_LATENCY && cfg->compiler_regalloc;
	for (int32_t i = 0; i < m->nfunc && rc == RF_OK; i++) {
		Func *f = &m->funcs[i];
		if (!f->has_body || (f->attr & ATTR_PROTO)) continue;
		double t0 = cpu_sec();
		if (cfg->compiler_schedule == SCHED_LATENCY && cfg->compiler_regalloc)
			as_ptxas_sees(m, f);
		if (cfg->compiler_schedule && cfg->compiler_regalloc)   /* for the allocator: virtual
		                                                          registers run nvcc's order */
			schedule_func(f, cfg->compiler_schedule, (int32_t)cfg->compiler_pred_regs,
			              &pf[i].sched);
		if (d.c || d.l || d.d) dump_analyses(m, f, &d);
		if (cfg->compiler_regalloc) rc = allocate(m, i, cfg, &d, &pf[i]);
		if (rc == RF_OK && regshare_on(cfg) && cfg->regshare_reorder)
			pf[i].rs_perm = regshare_reorder(m, f, d.r ? stderr : NULL);
		if (rc == RF_OK && ltrf_partition_of(cfg) != PART_NONE) ltrf(m, i, cfg, &d, &pf[i]);
		pf[i].seconds = cpu_sec() - t0;
	}
	kernel_regs(m, cfg);
	for (int32_t i = 0; i < m->nfunc && rc == RF_OK && regmutex_enabled(cfg); i++)
		if ((m->funcs[i].attr & ATTR_ENTRY) && m->funcs[i].phys)
			rc = regmutex_func(m, i, cfg, &pf[i].rm, d.m ? stderr : NULL);
	if (d.p && rc == RF_OK) ptx_print(m, stderr);
	if (r) {
		r->funcs = pf;
		r->nfunc = m->nfunc;
	} else {
		for (int32_t i = 0; i < m->nfunc; i++) free(pf[i].rs_perm), ivl_free(pf[i].part);
		free(pf);
	}
	return rc;
}

int pass_run(Module *m, const Config *cfg)
{
	return pass_run_report(m, cfg, NULL);
}

void pass_report_free(PassReport *r)
{
	for (int32_t i = 0; r->funcs && i < r->nfunc; i++)
		free(r->funcs[i].rs_perm), ivl_free(r->funcs[i].part);
	free(r->funcs);
	r->funcs = NULL;
	r->nfunc = 0;
}
