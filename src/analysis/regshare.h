/*
 * regshare.h -- register sharing between thread blocks (Jatala, Anantpur
 * and Karkare, "The More We Share, The More We Have", HPDC 2016): the
 * launch arithmetic of §4.1, the register reordering of §5.2 and the
 * hardware cost of §6 (regshare.c).  The lock, owner-warp-first scheduling
 * and dynamic warp execution belong to the timing model.
 */
#ifndef RFSIM_ANALYSIS_REGSHARE_H
#define RFSIM_ANALYSIS_REGSHARE_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/occupancy.h"
#include "base/config.h"
#include "ptx/ir.h"

typedef struct RsLaunch {    /* one kernel's CTAs per SM with and without sharing */
	double t;                /* the threshold t, 0 < t <= 1 (1 - t is the shared part) */
	int32_t regs_per_cta;    /* R_tb, with the allocation unit (occupancy.c) */
	int32_t regs_per_warp;   /* R_w = R_tb / warps per CTA */
	int32_t g;               /* floor(R / R_tb): CTAs the register file holds unshared */
	int32_t m_eq4;           /* M of equation (4), floored, before any other limit */
	int32_t cap;             /* the other limits: min(threads, CTA slots, shared memory) */
	int32_t base_ctas;       /* resident CTAs without sharing: min(g, cap) */
	int32_t pairs;           /* S: shared pairs of CTAs */
	int32_t unshared;        /* U: CTAs that share nothing */
	int32_t ctas;            /* resident CTAs with sharing: U + 2S */
	int32_t unshared_regs;   /* per thread: R0..R(unshared_regs-1) are unshared,
	                            floor(regs * t) */
	int32_t warp_unshared;   /* registers each warp of a pair owns: 32 * unshared_regs
	                            (R_w t, rounded down to whole per-thread registers) */
	int32_t warp_shared;     /* registers the two warps of a pair share: R_w - warp_unshared */
} RsLaunch;

/* the launch of §4.1 for a kernel whose occupancy o was computed under c */
void regshare_launch(const Config *c, const Occupancy *o, double t, RsLaunch *l);
/* the same from what the timing model knows at a launch: warps per CTA, registers
   per thread, and by_other, the CTAs per SM the threads, CTA-slot and shared-memory
   limits allow (rf_regshare.c's max_ctas) */
void regshare_launch_at(const Config *c, int32_t warps_per_cta, int32_t regs, int32_t by_other,
                        double t, RsLaunch *l);
/* does c run register sharing's compiler side: regshare.enable, or rf.model =
   regshare (the hardware needs the renamed code) */
int regshare_on(const Config *c);
/* registers per thread below the shared part: floor(regs * t) */
int32_t regshare_unshared_regs(int32_t regs, double t);
/* bits of storage per SM (§6): 1 + T ceil(log2(T+1)) + 2W + floor(W/2) ceil(log2 W)
   for T CTA slots and W warp slots */
int64_t regshare_hw_bits(int32_t max_ctas, int32_t max_warps);

/* Reordering (§5.2) of an allocated function (Func.phys set).  A plan is a
   permutation perm[old slot] = new slot of R0..R(nphys-1) that moves every
   aligned pair or quad the code names as a whole; regshare_plan returns it
   (malloc'd, nphys entries), regshare_apply renames the code through it. */
int32_t *regshare_plan(const Func *f);
void regshare_apply(Func *f, const int32_t *perm);
/* plan and apply; returns the permutation (caller frees) or NULL if f is not
   allocated; dump: the 'r' dump, or NULL */
int32_t *regshare_reorder(const Module *m, Func *f, FILE *dump);
/* the figure of merit: the position, in reverse-postorder linearisation of
   the executable instructions, of the first one naming a register at or
   above slot u (a shared register), with slots read through perm (NULL:
   as written); -1 if none does */
int32_t regshare_first_touch(const Func *f, const int32_t *perm, int32_t u);

#endif
