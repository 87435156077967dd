/*
 * regmutex.h -- RegMutex's compiler side (regmutex.md section III-A): the
 * |Es| heuristic, acquire/release injection and register index compaction
 * on allocated code (regmutex.c, rm_plan.c), the independent checker
 * (rm_check.c), and the storage arithmetic of section III-B.
 */
#ifndef RFSIM_ANALYSIS_REGMUTEX_H
#define RFSIM_ANALYSIS_REGMUTEX_H

#include <stdint.h>
#include <stdio.h>

#include "base/config.h"
#include "ptx/ir.h"

typedef struct RmPick {      /* the |Es| choice for one kernel (section III-A2) */
	int32_t regs;            /* registers per thread: |Bs| + |Es| */
	int32_t es, bs;          /* es = 0: RegMutex off for the kernel */
	int32_t warps_base;      /* resident warps per SM at regs */
	int32_t warps_rm;        /* ... with the base set only (paired: pairs' share) */
	int32_t sections;        /* shared-register-pool sections (paired: warp pairs) */
	int32_t min_bs;          /* deadlock rule 2: most registers live at a CTA barrier */
	const char *why;         /* es = 0: why; NULL otherwise */
} RmPick;

enum { RM_WHY = 1024 };      /* a reason's bytes: it names the kernel, C++'s at length */

typedef struct RmStats {     /* what the pass did to one kernel */
	RmPick pick;
	int32_t acquires, releases;  /* static rfsim.acquire / rfsim.release inserted */
	int32_t moves;           /* compaction mov.b32 inserted */
	int32_t renamed;         /* values (webs) of extended registers given a home in
	                            the base set */
	int32_t ins;             /* instructions before the pass */
	int32_t hot_ins;         /* instructions with more than |Bs| registers live */
	int32_t acq_ins;         /* instructions acquired (hot, closed over divergence,
	                            promoted where compaction found no home) */
	int32_t whole;           /* 1: the placement fell back to acquiring every divergent
	                            region with an acquired point whole (rm_plan.c), its
	                            flexible placement having failed rm_check */
	char why_buf[RM_WHY];    /* pick.why when it is a message made for this kernel */
} RmStats;

/* an instruction at which a warp waits for other warps of its CTA: a CTA barrier, or an
   mbarrier wait (test_wait/try_wait in the program's loop: the arrivals it waits for may
   come from warps that need the extended set to get there), deadlock rule 2's points */
static inline int rm_cta_wait(const Ins *in)
{
	return ((op_info[in->op].flags & OPF_BARRIER) && !(in->mods & MOD_WARP)) ||
	       in->op == OP_MBAR_TEST || in->op == OP_MBAR_TRY;
}

/* registers a warp needs at each instruction (warp-level liveness, section
   III-A1, in 32-bit slots, plus ptxas scratch): need[nins]; returns the most
   needed at any CTA barrier (deadlock rule 2) */
int32_t regmutex_need(const Func *f, int32_t *need);
/* section III-A2: pick |Es| for a kernel of regs registers, threads per CTA and
   shared bytes, whose barriers need min_bs registers; es_force > 0 overrides */
void regmutex_pick(const Config *cfg, int32_t regs, int32_t threads, int64_t shared,
                   int32_t min_bs, int32_t es_force, int paired, RmPick *p);
/* shared-register-pool sections at base set bs, extended set es */
int32_t regmutex_sections(const Config *cfg, int32_t threads, int64_t shared, int32_t bs,
                          int32_t es, int paired, int32_t *warps);
/* section III-B: bits of storage RegMutex adds to one SM (384 on Fermi) */
int64_t regmutex_storage_bits(const Config *cfg, int paired);
/* does the pass run: regmutex.enable, or rf.model = regmutex (the hardware
   needs the compiler's acquire/release, so choosing the model turns it on) */
int regmutex_enabled(const Config *cfg);
/* the whole pass on allocated kernel fi: RF_OK (st->pick.es may be 0), or
   RF_EINPUT with err_set() when regmutex.es forces a size that breaks a
   deadlock rule; dump: 'm' dump or NULL */
int regmutex_func(Module *m, int32_t fi, const Config *cfg, RmStats *st, FILE *dump);
/* transform f with base set bs (no selection): RF_OK, the result passing
   regmutex_check, or RF_EINPUT with err_set() naming the rule that makes bs
   impossible (or the check the placement cannot pass); f is unchanged then.
   whole: place the fallback (regions acquired whole) only, as tests do */
int regmutex_apply(Module *m, int32_t fi, int32_t bs, int whole, RmStats *st);
/* rm_check.c: independent check of transformed code with base set bs --
   acquire/release never nested or doubled on any path, and no register at
   or above bs live or named outside an acquired region, nor any CTA barrier
   inside one.  0 if fine, else the count of violations (described on out) */
int regmutex_check(const Func *f, int32_t bs, FILE *out);

#endif
