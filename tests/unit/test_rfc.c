/*
 * test_rfc.c -- exact-count and exact-cycle tests of the register file
 * caches (rf_rfc.c, rf_usecache.c) on hand-written PTX, one warp on one
 * SM, virtual registers (compiler.regalloc = 0) so that every register of
 * the PTX is its own slot and the counts below can be worked out by hand.
 * Each kernel's comment lists, per instruction, what the cache does.
 */
#include <stdlib.h>

#include "base/base.h"
#include "timing/rf/rf.h"
#include "tsim.h"
#include "unit.h"

static Config machine(int model)
{
	Config c = tsim_config();
	c.compiler_regalloc = 0;
	c.sched_policy = 1;                       /* gto: a warp is active from launch to exit */
	c.rf_model = model;
	return c;
}

/* a value read right after it is written hits; both die in the RFC */
static const char hit_ptx[] = TSIM_HEAD
	"mov.u32 %r1, %tid.x;\n"          /* write r1: RFC */
	"add.u32 %r2, %r1, 1;\n"          /* read r1: hit, its last read; write r2: RFC */
	"st.shared.u32 [sh], %r2;\n"      /* read r2: hit, last read */
	"ret;\n}\n";

TEST(rfc_read_after_write_hits)
{
	Config c = machine(RF_rfc);
	KernelStats ks = tsim_run(&c, hit_ptx, 1, 32);
	CHECK_EQ(ks.ts.reg_reads, 2);
	CHECK_EQ(ks.ts.reg_writes, 2);
	CHECK_EQ(ks.ts.rfc_reads, 2);
	CHECK_EQ(ks.ts.rfc_hits, 2);
	CHECK_EQ(ks.ts.mrf_reads, 0);
	CHECK_EQ(ks.ts.rfc_writes, 2);
	CHECK_EQ(ks.ts.mrf_writes, 0);            /* liveness: both dropped at exit */
	CHECK_EQ(ks.ts.rfc_writebacks, 0);
	CHECK_EQ(ks.ts.rfc_dead_writebacks_avoided, 2);
	c.rfc_liveness = 0;                       /* hardware only: written back at exit */
	ks = tsim_run(&c, hit_ptx, 1, 32);
	CHECK_EQ(ks.ts.rfc_hits, 2);
	CHECK_EQ(ks.ts.mrf_writes, 2);
	CHECK_EQ(ks.ts.rfc_writebacks, 2);
	CHECK_EQ(ks.ts.rfc_dead_writebacks_avoided, 0);
}

/* one entry: a live value is written back when evicted, a dead one is not */
static const char evict_ptx[] = TSIM_HEAD
	"mov.u32 %r1, %tid.x;\n"          /* w r1: RFC {r1} */
	"add.u32 %r2, %r1, 1;\n"          /* r r1 hit (read again below); w r2 evicts r1: live,
	                                     written back */
	"add.u32 %r3, %r2, %r1;\n"        /* r r2 hit (last), r r1 miss: MRF; w r3 evicts r2:
	                                     dead, dropped */
	"st.shared.u32 [sh], %r3;\n"      /* r r3 hit (last); exit drops r3 (dead) */
	"ret;\n}\n";

TEST(rfc_dead_value_evicted_is_not_written_back)
{
	Config c = machine(RF_rfc);
	c.rfc_entries = 1;
	KernelStats ks = tsim_run(&c, evict_ptx, 1, 32);
	CHECK_EQ(ks.ts.reg_reads, 4);
	CHECK_EQ(ks.ts.rfc_hits, 3);
	CHECK_EQ(ks.ts.mrf_reads, 1);
	CHECK_EQ(ks.ts.rfc_writes, 3);
	CHECK_EQ(ks.ts.rfc_writebacks, 1);
	CHECK_EQ(ks.ts.rfc_dead_writebacks_avoided, 2);
	CHECK_EQ(ks.ts.mrf_writes, 1);
	c.rfc_liveness = 0;                       /* r1, r2 evicted and r3 at exit: all written */
	ks = tsim_run(&c, evict_ptx, 1, 32);
	CHECK_EQ(ks.ts.mrf_reads, 1);             /* reads do not change with liveness */
	CHECK_EQ(ks.ts.rfc_writebacks, 3);
	CHECK_EQ(ks.ts.mrf_writes, 3);
	CHECK_EQ(ks.ts.rfc_dead_writebacks_avoided, 0);
	c.rfc_entries = 2;                        /* r1 stays: every read hits */
	c.rfc_liveness = 1;
	ks = tsim_run(&c, evict_ptx, 1, 32);
	CHECK_EQ(ks.ts.rfc_hits, 4);
	CHECK_EQ(ks.ts.mrf_reads, 0);
	CHECK_EQ(ks.ts.mrf_writes, 0);
}

/* FIFO evicts the oldest allocation, LRU the least recently used; two
 * entries, every instruction waits for the one before */
static const char lru_ptx[] = TSIM_HEAD
	"mov.u32 %r1, %tid.x;\n"          /* {r1} */
	"add.u32 %r2, %r1, 7;\n"          /* r1 hit; {r1 r2} */
	"add.u32 %r3, %r2, %r1;\n"        /* both hit; w r3 evicts r1 (FIFO) or r2 (LRU: r1 was
	                                     read after r2) */
	"add.u32 %r4, %r3, %r1;\n"        /* FIFO: r1 misses, r4 evicts r2; LRU: r1 hits, r4
	                                     evicts r3 */
	"add.u32 %r5, %r4, %r2;\n"        /* r2 misses in both */
	"st.shared.u32 [sh], %r5;\n"
	"ret;\n}\n";

TEST(rfc_fifo_and_lru_evict_different_entries)
{
	Config c = machine(RF_rfc);
	c.rfc_entries = 2;
	KernelStats f = tsim_run(&c, lru_ptx, 1, 32);
	c.rfc_policy = 1;
	KernelStats l = tsim_run(&c, lru_ptx, 1, 32);
	CHECK_EQ(f.ts.mrf_reads, 2);              /* r1, r2 */
	CHECK_EQ(l.ts.mrf_reads, 1);              /* r2 */
	CHECK_EQ(f.ts.reg_reads, l.ts.reg_reads);
}

/* the two-level scheduler deactivates the warp at the consumer of a pending
 * global load: its live dirty entries are written back, dead ones dropped.
 * Each instruction waits for the one before, so every result is written
 * before the warp is deactivated.  Eight entries: nothing is evicted. */
static const char deact_ptx[] = TSIM_HEAD
	"ld.param.u64 %rd1, [out];\n"     /* w rd1 (two slots): RFC */
	"mov.u32 %r1, %tid.x;\n"          /* w r1: RFC */
	"mul.wide.u32 %rd2, %r1, 4;\n"    /* r r1: hit, read again below; w rd2: RFC */
	"add.u64 %rd3, %rd1, %rd2;\n"     /* r rd1, rd2: 4 hits, last reads; w rd3: RFC */
	"ld.global.u32 %r2, [%rd3];\n"    /* r rd3: 2 hits, last; w r2: long latency, MRF */
	"add.u32 %r3, %r2, %r1;\n"        /* waits for r2: deactivated -- r1 written back, rd1,
	                                     rd2, rd3 dropped; then r2, r1 from the MRF; w r3 */
	"st.shared.u32 [sh], %r3;\n"      /* r r3: hit, last; dropped at exit */
	"ret;\n}\n";

TEST(rfc_deactivated_warp_writes_back_live_entries)
{
	Config c = machine(RF_rfc);
	c.rfc_entries = 8;
	c.sched_policy = 2;                       /* twolevel */
	c.sched_active_warps = 1;
	KernelStats ks = tsim_run(&c, deact_ptx, 1, 32);
	CHECK_EQ(ks.ts.reg_reads, 10);
	CHECK_EQ(ks.ts.rfc_hits, 8);
	CHECK_EQ(ks.ts.mrf_reads, 2);
	CHECK_EQ(ks.ts.reg_writes, 9);
	CHECK_EQ(ks.ts.rfc_writes, 8);
	CHECK_EQ(ks.ts.rfc_writebacks, 1);
	CHECK_EQ(ks.ts.rfc_dead_writebacks_avoided, 7);
	CHECK_EQ(ks.ts.mrf_writes, 2);            /* r2 (bypassed) and r1's write-back */
	c.rfc_liveness = 0;                       /* every dirty entry written back */
	ks = tsim_run(&c, deact_ptx, 1, 32);
	CHECK_EQ(ks.ts.rfc_writebacks, 8);
	CHECK_EQ(ks.ts.mrf_writes, 9);
	CHECK_EQ(ks.ts.mrf_reads, 2);
	c.rfc_liveness = 1;
	c.sched_policy = 1;                       /* gto: not deactivated before exit */
	ks = tsim_run(&c, deact_ptx, 1, 32);
	CHECK_EQ(ks.ts.mrf_reads, 1);             /* r2, bypassed around the RFC */
	CHECK_EQ(ks.ts.mrf_writes, 1);
	CHECK_EQ(ks.ts.rfc_writebacks, 0);
	c.rfc_bypass_longlat = 0;                 /* r2 into the RFC too */
	ks = tsim_run(&c, deact_ptx, 1, 32);
	CHECK_EQ(ks.ts.mrf_reads, 0);
	CHECK_EQ(ks.ts.mrf_writes, 0);
	CHECK_EQ(ks.ts.rfc_writes, 9);
}

/* a loop of n iterations: the tag-check stage adds one cycle per branch on
 * the critical path and nothing else; with it off the RFC's cycles equal
 * the baseline's (rfc.latency = rf.mrf_latency, no conflicts) */
static const char loop_ptx[] = TSIM_HEAD
	"mov.u32 %r1, 0;\n"
	"LOOP:\n"
	"add.u32 %r1, %r1, 1;\n"
	"setp.lt.u32 %p1, %r1, 5;\n"
	"@%p1 bra LOOP;\n"
	"st.shared.u32 [sh], %r1;\n"
	"ret;\n}\n";

TEST(rfc_tag_stage_adds_a_cycle_per_branch)
{
	Config c = machine(RF_baseline);
	c.rf_banks = 0;
	KernelStats b = tsim_run(&c, loop_ptx, 1, 32);
	c.rf_model = RF_rfc;
	c.rfc_tag_stage = 0;
	KernelStats r0 = tsim_run(&c, loop_ptx, 1, 32);
	c.rfc_tag_stage = 1;
	KernelStats r1 = tsim_run(&c, loop_ptx, 1, 32);
	CHECK_EQ(r0.ts.cycles, b.ts.cycles);
	CHECK_EQ(r1.ts.cycles, b.ts.cycles + 5);  /* five bra instructions issued */
	CHECK_EQ(r0.ts.reg_reads, b.ts.mrf_reads);
	CHECK_EQ(r0.ts.reg_writes, b.ts.mrf_writes);
}

/* ---- usecache ------------------------------------------------------------ */

/* r1 is read twice: once back to back (bypass), once 3 instructions later;
 * r2 once, back to back; r3 never again after the bypass read */
static const char use_ptx[] = TSIM_HEAD
	"mov.u32 %r1, %tid.x;\n"          /* r1: degree 2 */
	"add.u32 %r2, %r1, 1;\n"          /* r r1: bypass (issued as r1 was written) */
	"add.u32 %r3, %r2, 2;\n"          /* r r2: bypass; r2's only use */
	"add.u32 %r4, %r3, %r1;\n"        /* r r3: bypass; r r1: cache (use, all) or MRF */
	"st.shared.u32 [sh], %r4;\n"      /* r r4: bypass */
	"ret;\n}\n";

TEST(usecache_insertion_by_remaining_uses)
{
	Config c = machine(RF_usecache);
	c.usecache_entries = 4;
	c.usecache_assoc = 4;
	c.usecache_policy = 2;                    /* use: only r1 (2 uses, 1 bypassed) goes in */
	KernelStats u = tsim_run(&c, use_ptx, 1, 32);
	CHECK_EQ(u.ts.reg_reads, 5);
	CHECK_EQ(u.ts.rfc_reads, 1);              /* the four bypass reads skip the cache */
	CHECK_EQ(u.ts.rfc_hits, 1);
	CHECK_EQ(u.ts.rfc_writes, 1);
	CHECK_EQ(u.ts.mrf_reads, 0);
	CHECK_EQ(u.ts.mrf_writes, 4);             /* write-through */
	c.usecache_policy = 1;                    /* nonbypass: r1 was bypassed: not inserted */
	KernelStats nb = tsim_run(&c, use_ptx, 1, 32);
	CHECK_EQ(nb.ts.rfc_reads, 1);
	CHECK_EQ(nb.ts.rfc_hits, 0);
	CHECK_EQ(nb.ts.mrf_reads, 1);
	CHECK_EQ(nb.ts.rfc_writes, 1);            /* the fill after the miss */
	c.usecache_policy = 0;                    /* lru: every value goes in */
	KernelStats al = tsim_run(&c, use_ptx, 1, 32);
	CHECK_EQ(al.ts.rfc_hits, 1);
	CHECK_EQ(al.ts.rfc_writes, 3);            /* r4 is still on the bypass path at exit */
	c.usecache_bypass = 0;                    /* no bypass: every read looks in the cache */
	al = tsim_run(&c, use_ptx, 1, 32);
	CHECK_EQ(al.ts.rfc_reads, 5);
	CHECK_EQ(al.ts.rfc_hits, 5);
}

/* two sets of one way; r1 and r3 (odd numbers) collide under modulo
 * indexing, round-robin indexing puts consecutive values in different sets */
static const char idx_ptx[] = TSIM_HEAD
	"mov.u32 %r1, %tid.x;\n"          /* r1 */
	"mov.u32 %r3, %ntid.x;\n"         /* r3: modulo evicts r1 (same set) */
	"add.u32 %r5, %r1, 1;\n"
	"add.u32 %r6, %r5, %r3;\n"
	"st.shared.u32 [sh], %r6;\n"
	"ret;\n}\n";

TEST(usecache_round_robin_indexing_avoids_a_conflict)
{
	Config c = machine(RF_usecache);
	c.usecache_entries = 2;
	c.usecache_assoc = 1;
	c.usecache_policy = 0;
	c.usecache_bypass = 0;
	c.usecache_index = 0;
	KernelStats mo = tsim_run(&c, idx_ptx, 1, 32);
	c.usecache_index = 1;
	KernelStats rr = tsim_run(&c, idx_ptx, 1, 32);
	CHECK(mo.ts.rfc_hits < rr.ts.rfc_hits);
	CHECK_EQ(mo.ts.rfc_reads, rr.ts.rfc_reads);
}
