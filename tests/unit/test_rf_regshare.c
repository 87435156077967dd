/*
 * test_rf_regshare.c -- register sharing's hardware (src/timing/rf/rf_regshare.c):
 * the CTAs the model admits (equation (4) capped by the other limits, the
 * paper's hotspot numbers), and exact-cycle runs of hand-written PTX on
 * one SM with one scheduler, where every cycle of the lock can be counted.
 *
 * The exact case (lock_ptx, 2 registers, t = 0.5: R0 unshared, R1 shared;
 * one warp per CTA; sm.registers = 96 so the register file holds one CTA,
 * g = 1, and equation (4) gives M = 1 + floor(32 / (0.5 * 64)) = 2, one
 * shared pair).  With D = 1 + rf.mrf_latency + pipe.sp.lat = 10 and a
 * `mov %r, %tid.x` taking D - 1 = 9 (test_timing.c):
 *
 *   warp A (CTA 0, the owner)     warp B (CTA 1, the non-owner)
 *    0 mov R0                      1 mov R0
 *    9 add R0                     10 add R0
 *   19 add R1  takes the lock     20 add R1  refused: A holds the lock
 *   29 add R0, R1, R0             ...        (stall_rf / sched_stall)
 *   30 ret, last write at 39      39 add R1  takes the lock A freed at 39
 *                                 49 add, 50 ret, last write at 59
 *
 * so 60 cycles, 2 acquisitions, 19 cycles waiting, and 19 - 2 = 17
 * scheduler slots charged to stall_rf (A issues at 29 and 30); GPGPU-Sim
 * would call them idle (no warp ready), not a pipeline stall.  The baseline holds one CTA:
 * CTA 1 starts at 40 and ends at 79, 80 cycles.  A third CTA C takes A's
 * slot at 40 as the non-owner (B owns the pair now): mov at 40; its add is
 * ready at 49 with B's, and round robin after C's mov gives B the slot, so
 * C's add goes at 50 and its add R1 at 60, after B's last write at 59 freed
 * the lock: no wait; add at 70, ret at 71, last write at 80: 81 cycles.
 */
#include <stdlib.h>

#include "analysis/regshare.h"
#include "base/base.h"
#include "timing/rf/rf.h"
#include "tsim.h"
#include "unit.h"

TEST(rf_regshare_max_ctas_hotspot)
{
	/* hotspot (§3): 36 registers x 256 threads on 32768 registers: 3 CTAs
	 * unshared; sharing 90% (t = 0.1) 6, capped by the threads (1536 / 256);
	 * t = 0.5: 4 and t = 1: 3 (Table 5's hotspot row) */
	Config c;
	config_defaults(&c);
	c.rf_model = RF_regshare;
	RfSm sm = {.cfg = &c, .nsched = 2, .regs_per_thread = 36, .warps_per_cta = 8};
	const RfModel *m = rf_models[RF_regshare];
	CHECK_EQ(occupancy_by_regs(&c, 256, 36), 3);
	c.regshare_threshold = 0.1;
	CHECK_EQ(m->max_ctas(&sm, 3, 6), 6);
	c.regshare_threshold = 0.5;
	CHECK_EQ(m->max_ctas(&sm, 3, 6), 4);
	c.regshare_threshold = 1;
	CHECK_EQ(m->max_ctas(&sm, 3, 6), 3);
	c.regshare_threshold = 0.1;                 /* the other limits cap it */
	CHECK_EQ(m->max_ctas(&sm, 3, 4), 4);
	CHECK_EQ(m->max_ctas(&sm, 3, 3), 3);
	CHECK_EQ(m->max_ctas(&sm, 3, 2), 2);
	c.compiler_regalloc = 0;                    /* virtual registers: nothing to share */
	CHECK_EQ(m->max_ctas(&sm, 6, 6), 6);
	CHECK(regshare_on(&c));
	c.rf_model = RF_baseline;
	CHECK(!regshare_on(&c));
}

static Config machine(void)
{
	Config c = tsim_config();
	c.sched_count = 1;
	c.sm_warp_alloc_granularity = 1;
	c.rf_model = RF_regshare;
	c.pipe_sp_lat = 8;               /* the latency the cycle counts below assume */
	return c;
}

#define HEAD ".version 7.0\n.target sm_70\n.address_size 64\n" \
             ".visible .entry k(.param .u64 out)\n{\n" \
             ".reg .u32 %r<8>;\n.reg .pred %p<3>;\n"

static const char lock_ptx[] = HEAD
	"mov.u32 %r1, %tid.x;\n"
	"add.u32 %r1, %r1, 3;\n"
	"add.u32 %r2, %r1, 1;\n"
	"add.u32 %r3, %r2, %r1;\n"
	"ret;\n}\n";

TEST(rf_regshare_lock_exact_cycles)
{
	Config c = machine();
	c.sm_registers = 96;
	c.regshare_threshold = 0.5;
	KernelStats ks = tsim_run(&c, lock_ptx, 2, 32);
	CHECK_EQ(ks.ts.cycles, 60);
	CHECK_EQ(ks.warp_insts, 10);
	CHECK_EQ(ks.ts.cta_slot_cycles, 2 * 60);
	CHECK_EQ(ks.ts.rs_shared_warps, 2);
	CHECK_EQ(ks.ts.rs_unshared_warps, 0);
	CHECK_EQ(ks.ts.rs_lock_acquires, 2);
	CHECK_EQ(ks.ts.rs_lock_wait_cycles, 19);
	CHECK_EQ(ks.ts.stall_rf, 17);
	CHECK_EQ(ks.ts.sched_stall, 0);             /* a lock wait is not a pipeline stall */
	CHECK_EQ(ks.ts.sched_idle + ks.ts.sched_stall + ks.ts.issued, 60);
	c.regshare_owf = 0;                         /* same order here: A is first anyway */
	c.regshare_dynamic = 0;
	CHECK_EQ(tsim_run(&c, lock_ptx, 2, 32).ts.cycles, 60);
	ks = tsim_run(&c, lock_ptx, 3, 32);              /* a third CTA arrives as the non-owner */
	CHECK_EQ(ks.ts.cycles, 81);
	CHECK_EQ(ks.ts.rs_lock_acquires, 3);
	CHECK_EQ(ks.ts.rs_lock_wait_cycles, 19);
	c.rf_model = RF_baseline;                   /* one CTA at a time */
	ks = tsim_run(&c, lock_ptx, 2, 32);
	CHECK_EQ(ks.ts.cycles, 80);
	CHECK_EQ(ks.ts.cta_slot_cycles, 80);
	CHECK_EQ(ks.ts.rs_lock_acquires, 0);
}

/* Figure 5: every warp touches its shared register R3 (t = 0.75 of 4
 * registers) before a barrier; warp i of CTA i gets there at once, the
 * other warp after a 20-iteration loop.  A pair lock per warp pair alone
 * would deadlock: A.w0 takes lock 0 and B.w1 lock 1, then A.w1 waits for
 * lock 1 while B.w1 waits at B's barrier for B.w0, which waits for lock 0
 * held by A.w0 at A's barrier.  §4's rule refuses B.w1 (A holds a lock),
 * so A runs to the end and B follows. */
static const char fig5_ptx[] = HEAD
	"mov.u32 %r1, %tid.x;\n"
	"shr.u32 %r1, %r1, 5;\n"
	"mov.u32 %r2, %ctaid.x;\n"
	"setp.eq.u32 %p1, %r1, %r2;\n"
	"mov.u32 %r3, 0;\n"
	"@%p1 bra SKIP;\n"
	"LOOP:\n"
	"add.u32 %r3, %r3, 1;\n"
	"setp.lt.u32 %p2, %r3, 20;\n"
	"@%p2 bra LOOP;\n"
	"SKIP:\n"
	"add.u32 %r4, %r1, %r2;\n"
	"add.u32 %r4, %r4, %r3;\n"
	"bar.sync 0;\n"
	"add.u32 %r4, %r4, %r1;\n"
	"add.u32 %r4, %r4, %r2;\n"
	"add.u32 %r4, %r4, %r3;\n"
	"ret;\n}\n";

TEST(rf_regshare_figure5_no_deadlock)
{
	Config c = machine();
	c.sm_registers = 448;                       /* 3 warps of 128: g = 1, M = 2 */
	c.regshare_threshold = 0.75;
	KernelStats ks = tsim_run(&c, fig5_ptx, 2, 64);
	CHECK_EQ(ks.ts.ctas, 2);
	CHECK_EQ(ks.ts.cta_slot_cycles, 2 * ks.ts.cycles);
	CHECK_EQ(ks.ts.rs_lock_acquires, 4);
	CHECK(ks.ts.rs_lock_wait_cycles > 0);
	KernelStats base = tsim_run(&c, fig5_ptx, 2, 64);
	CHECK_EQ(base.ts.cycles, ks.ts.cycles);     /* deterministic */
	c.rf_model = RF_baseline;
	base = tsim_run(&c, fig5_ptx, 2, 64);
	CHECK_EQ(base.warp_insts, ks.warp_insts);
	CHECK(ks.ts.cycles < base.ts.cycles);       /* B's unshared part overlaps A */
}
