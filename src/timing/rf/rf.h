/*
 * rf.h -- the interface every register-file model implements.
 *
 * A model is one file (rf_NAME.c) exporting a table of hooks, listed in
 * models.def; the timing model calls the hooks at the points where the
 * register file of a GPU takes part in the pipeline.  They are chosen so
 * that each mechanism of DESIGN.md fits in one file:
 *
 *   max_ctas     CTA admission, asked once per launch before any init (sm
 *                is SM 0's description): how many CTAs an SM may hold, given
 *                what the registers alone allow and what the other limits
 *                (threads, warps, CTAs, shared memory) allow.  NULL: the
 *                smaller of the two.
 *                Register sharing (Jatala et al. 4.1) returns more than the
 *                register limit: the extra CTAs share registers.
 *   cta_launch   a CTA took warp slots [warp0, warp0 + nwarps) (pairs CTAs
 *   cta_exit     for register sharing, gives owner-ship back on exit).
 *   can_issue    may warp w issue its next instruction now?  0 blocks it (the
 *                slot counts as stall_rf): an LTRF warp whose PREFETCH is in
 *                flight (4.2), register sharing's lock on a shared register,
 *                a RegMutex release whose extended accesses are in flight.
 *                RF_WAIT_WARPS blocks it until another warp gives registers
 *                back (RegMutex acquire without a free section, III-B): the
 *                two-level scheduler then suspends it, as at a barrier,
 *                since an active set full of such warps would never let in
 *                the pending warps that hold the registers.
 *   issue        the instruction issued (pseudo-ops -- PREFETCH, acquire,
 *                release -- arrive here with TIns.pseudo set).
 *   read         an operand collector asks for register `reg` of warp w this
 *                cycle: return the cycle the value is available (> now), or 0
 *                if it cannot be served this cycle (a bank conflict; asked
 *                again next cycle).  An RFC or LTRF's register cache answers
 *                hits here and sends misses to the main register file banks.
 *   write        a result is written: return 1 when done this cycle, 0 if
 *                the bank is taken (the write is retried next cycle, before
 *                any read: writes have priority).
 *                Both get the instruction (pc: TProg.ins[pc]) and the
 *                operand's index k in its register list (reads 0 ..
 *                nrd_reg - 1, writes nrd .. nrd + nwr_reg - 1), so
 *                TProg.regs[ins.regs + k] is the slot and TProg.ann /
 *                TProg.uses[ins.regs + k] the compiler's liveness facts
 *                about this access (timing.h: last use, dead value,
 *                degree of use).
 *   warp_exit    warp w has finished: exited, its last results written
 *                (register sharing frees the shared registers it locked).
 *   activate     the two-level scheduler moved warp w into / out of its
 *   deactivate   active set (Gebhart 3.3 flushes the RFC entries; LTRF 4.2
 *                writes back and refetches the working set).  Single-level
 *                schedulers activate a warp at launch and deactivate at exit.
 *   priority     scheduling class of warp w, smaller first (owner warp first,
 *                Jatala 5.1); NULL: the policy's order alone.
 *   tick         background work (prefetch engines, write-backs): called at
 *                the cycle it last returned; returns the next cycle it needs,
 *                INT64_MAX for none.  NULL: never called.  Idle models cost
 *                nothing.
 *   finish       fold the model's own counters into the SM's statistics.
 *   branch_extra extra cycles on the branch resolution path (Gebhart 3.1:
 *                the RFC's tag-check stage adds one); NULL: none.
 *   twolevel     (a flag, not a hook) the model's register cache holds only
 *                the active warps' registers (LTRF 3.2): the SM then runs
 *                the two-level scheduler whatever sched.policy says, with
 *                the config's sched.active_warps and sched.inner.
 *   single_level (a flag) the model cannot run under the two-level
 *                scheduler (register sharing: non-owner warps waiting for a
 *                lock would hold the active set for good, Jatala 7.2): a
 *                config whose sched.policy is twolevel runs it under lrr,
 *                the paper's base policy.
 *
 * Every hook but read and write may be NULL.  Counting is the model's
 * job: it bumps st->mrf_reads, mrf_writes and bank_conflicts (TStats) for
 * the accesses it makes, so a model with a cache counts only the main
 * register file accesses that really happen.
 *
 * The shared machinery -- register banks and their arbitration -- is in
 * banks.h, and one counted main-register-file access (bank port, latency)
 * in mrf.h, so a model is only its policy.
 */
#ifndef RFSIM_TIMING_RF_RF_H
#define RFSIM_TIMING_RF_RF_H

#include <stdint.h>

#include "base/config.h"
#include "base/models.h"
#include "timing/tins.h"
#include "timing/tstats.h"

struct Warp;

typedef struct RfSm {        /* what a model knows of its SM */
	const Config *cfg;
	int32_t sm;              /* SM index */
	int32_t nwarps;          /* hardware warp slots */
	int32_t nsched;          /* warp schedulers (warp w belongs to w % nsched) */
	const TProg *prog;       /* the kernel's instructions */
	int32_t regs_per_thread; /* registers the kernel is allocated per thread */
	int32_t warps_per_cta;
	TStats *st;              /* the SM's counters */
	void **gpu;              /* one pointer the SMs of a launch share, NULL at first: a
	                            model that needs state across SMs (register sharing's
	                            reference SM) allocates one block there, which the timing
	                            model frees after every SM's fini; NULL in max_ctas */
	const Image *img;        /* the kernel's code (the compiler's PREFETCH register sets) */
	const struct Warp *fw;   /* the SM's functional warps, by warp slot (frame bases) */
} RfSm;

typedef struct RfModel {     /* the hooks; names and descriptions are models.def's */
	void *(*init)(const RfSm *sm);
	void (*fini)(void *m);
	int (*max_ctas)(const RfSm *sm, int by_regs, int by_other);
	void (*cta_launch)(void *m, int cta, int warp0, int nwarps);
	void (*cta_exit)(void *m, int cta);
	void (*warp_exit)(void *m, int64_t now, int warp);
	int (*can_issue)(void *m, int64_t now, int warp, const TIns *ti);
	void (*issue)(void *m, int64_t now, int warp, const TIns *ti);
	int64_t (*read)(void *m, int64_t now, int warp, int32_t reg, int32_t pc, int k);
	int (*write)(void *m, int64_t now, int warp, int32_t reg, int32_t pc, int k);
	void (*activate)(void *m, int64_t now, int warp);
	void (*deactivate)(void *m, int64_t now, int warp);
	int (*priority)(void *m, int warp);
	int64_t (*tick)(void *m, int64_t now);
	void (*finish)(void *m, TStats *st);
	int (*branch_extra)(void *m);
	int twolevel;            /* needs the two-level scheduler (see above) */
	int single_level;        /* cannot run under it: lrr instead (see above) */
} RfModel;

enum { RF_WAIT_WARPS = -1 }; /* can_issue: blocked until other warps free registers */


extern const RfModel *const rf_models[NRF_MODELS];
extern const char *const rf_model_name[NRF_MODELS];  /* "baseline", ... */
extern const char *const rf_model_desc[NRF_MODELS];  /* models.def's description */

#endif
