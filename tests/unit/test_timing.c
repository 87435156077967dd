/*
 * test_timing.c -- exact-cycle tests of the timing model on hand-written
 * PTX, one warp (or two) on one SM, so every cycle can be accounted for.
 *
 * The constants, from sm.c's timeline (fermi-gtx480 defaults unless set):
 *   D = 1 + rf.mrf_latency + pipe.sp.lat   issue-to-issue distance of dependent
 *                                          ALU instructions that read a register
 *   +1                                     cycles = last writeback cycle + 1
 *   - L                                    a `mov %r, %tid.x` reads no register
 *                                          (the special register is not in the
 *                                          register file): it takes D - L
 */
#include <stdlib.h>

#include "base/base.h"
#include "sim/gpu.h"
#include "func/decode.h"
#include "func/prog.h"
#include "tsim.h"
#include "unit.h"

/* mov, then n-1 dependent adds */
static char *chain_ptx(int n)
{
	size_t cap = 4096 + (size_t)n * 40;
	char *s = xmalloc(cap);
	int len = snprintf(s, cap, "%s", TSIM_HEAD "mov.u32 %r1, %tid.x;\n");
	for (int i = 1; i < n; i++) len += snprintf(s + len, cap - len, "add.u32 %%r1, %%r1, 3;\n");
	snprintf(s + len, cap - len, "ret;\n}\n");
	return s;
}

TEST(timing_dependent_chain_is_n_times_latency)
{
	Config c = tsim_config();
	int64_t d = 1 + c.rf_mrf_latency + c.pipe_sp_lat;          /* 10 */
	for (int n = 1; n <= 20; n += 19) {
		char *ptx = chain_ptx(n);
		KernelStats ks = tsim_run(&c, ptx, 1, 32);
		CHECK_EQ(ks.ts.cycles, n * d + 1 - 1);
		CHECK_EQ(ks.warp_insts, n + 1);
		c.rf_mrf_latency = 3;                                   /* a slow register file */
		ks = tsim_run(&c, ptx, 1, 32);
		CHECK_EQ(ks.ts.cycles, n * (1 + 3 + c.pipe_sp_lat) + 1 - 3);
		c.rf_mrf_latency = 1;
		c.rf_model = 1;                                         /* ideal: 1-cycle reads */
		ks = tsim_run(&c, ptx, 1, 32);
		CHECK_EQ(ks.ts.cycles, n * d + 1 - 1);
		c.rf_model = 0;
		free(ptx);
	}
}

static const char conflict_ptx[] = TSIM_HEAD
	"mov.u32 %r1, %tid.x;\n"
	"add.u32 %r2, %r1, 1;\n"
	"add.u32 %r3, %r1, %r2;\n"
	"ret;\n}\n";

/* the two source registers of the third instruction (after allocation) */
static int src_distance(const Config *c)
{
	Gpu *g = gpu_new(c);
	Program *p = NULL;
	int d = -1;
	if (!gpu_load_ptx(g, conflict_ptx, strlen(conflict_ptx), "t.ptx", &p)) {
		const Image *img = p->img[0];
		for (int32_t pc = 0; pc < img->ncode && d < 0; pc++) {
			const DIns *x = &img->code[pc];
			if (x->op == OP_ADD && x->ns == 2 && x->s[0] >= 0 && x->s[1] >= 0)
				d = abs(x->s[0] - x->s[1]);
		}
		gpu_unload(g, p);
	}
	gpu_free(g);
	return d;
}

TEST(timing_two_operands_in_one_bank_cost_one_cycle)
{
	Config c = tsim_config();
	int d = src_distance(&c);
	CHECK(d > 0);
	if (d <= 0) return;
	c.rf_banks = d;                  /* (r + w) mod d: both sources in one bank */
	KernelStats same = tsim_run(&c, conflict_ptx, 1, 32);
	c.rf_banks = d + 1;              /* in different banks */
	KernelStats diff = tsim_run(&c, conflict_ptx, 1, 32);
	CHECK_EQ(same.ts.cycles, diff.ts.cycles + 1);
	CHECK_EQ(same.ts.bank_conflicts, 1);
	CHECK_EQ(diff.ts.bank_conflicts, 0);
	int64_t dd = 1 + c.rf_mrf_latency + c.pipe_sp_lat;
	CHECK_EQ(diff.ts.cycles, 3 * dd + 1 - c.rf_mrf_latency);
	c.rf_banks = 0;                  /* unlimited */
	CHECK_EQ(tsim_run(&c, conflict_ptx, 1, 32).ts.cycles, diff.ts.cycles);
}

static const char mem_ptx[] = TSIM_HEAD
	"ld.param.u64 %rd1, [out];\n"
	"ld.global.u32 %r1, [%rd1];\n"
	"add.u32 %r2, %r1, 1;\n"
	"ret;\n}\n";

/* ld.param: no register read, dispatched at 1, a constant-cache miss (found
 * after the lookup, cc.lat) to DRAM: back at 1 + cc.lat + M.  ld.global
 * (no L1) issues then, reads the 64-bit address (two banks, one cycle),
 * dispatches 2 later, DRAM again: back at 3 + cc.lat + 2 M.  The add: + D.
 * Plus 1.  M, one trip to memory with the interconnect and the L2
 * clocked with the SM, one-cycle flits and data port and no L2 latency:
 * the request leaves its SM's port and enters the slice's (one cycle), the
 * slice looks it up at once and DRAM answers L_dram later, the data port
 * takes a cycle, the reply crosses the two ports (one more): L_dram + 3. */
TEST(timing_memory_access_costs_the_configured_latency)
{
	Config c = tsim_config();
	c.l1_bytes = c.l2_bytes = 0;
	c.icnt_lat = c.l2_lat = 0;
	c.icnt_clock_mhz = c.l2_clock_mhz = c.gpu_clock_mhz;
	c.icnt_flit_bytes = c.l2_port_bytes = 4096;
	c.dram_model = 1;                /* fixed */
	int64_t d = 1 + c.rf_mrf_latency + c.pipe_sp_lat;
	for (int64_t lat = 100; lat <= 400; lat += 300) {
		c.dram_lat = lat;
		KernelStats ks = tsim_run(&c, mem_ptx, 1, 32);
		CHECK_EQ(ks.ts.cycles, 3 + c.cc_lat + 2 * (lat + 3) + d + 1);
		CHECK_EQ(ks.ts.dram_reads, 2);
	}
}

static char *smem_ptx(int stride)
{
	char *s = xmalloc(1024);
	int len = snprintf(s, 1024, "%s", TSIM_HEAD);
	snprintf(s + len, 1024 - len,
	         "mov.u32 %%r1, %%tid.x;\n"
	         "mul.lo.u32 %%r2, %%r1, %d;\n"
	         "mov.u32 %%r3, sh;\n"
	         "add.u32 %%r3, %%r3, %%r2;\n"
	         "ld.shared.u32 %%r4, [%%r3];\n"
	         "add.u32 %%r5, %%r4, 1;\n"
	         "ret;\n}\n", stride);
	return s;
}

/* mov, mul, add (the mov of sh reads nothing and hides in between):
 * 3 D - L; the load issues, reads its address (1 + L), then smem.lat +
 * waves - 1; the add D; plus 1 */
TEST(timing_shared_memory_latency_and_bank_conflicts)
{
	Config c = tsim_config();
	int64_t d = 1 + c.rf_mrf_latency + c.pipe_sp_lat;
	char *ok = smem_ptx(4), *bad = smem_ptx(128);
	KernelStats a = tsim_run(&c, ok, 1, 32), b = tsim_run(&c, bad, 1, 32);
	CHECK_EQ(a.ts.cycles, 3 * d + 1 + c.smem_lat + d + 1);
	CHECK_EQ(b.ts.cycles, a.ts.cycles + 31);          /* 32 words in one bank */
	CHECK_EQ(b.ts.smem_conflicts, 31);
	free(ok);
	free(bad);
}

static char *barrier_ptx(int k)
{
	size_t cap = 4096;
	char *s = xmalloc(cap);
	int len = snprintf(s, cap, "%s", TSIM_HEAD);
	len += snprintf(s + len, cap - len,
	                   "mov.u32 %%r1, %%tid.x;\n"
	                   "setp.lt.u32 %%p1, %%r1, 32;\n"
	                   "mov.u32 %%r3, %%r1;\n"
	                   "@%%p1 bra SKIP;\n");
	for (int i = 0; i < k; i++) len += snprintf(s + len, cap - len, "add.u32 %%r3, %%r3, 1;\n");
	snprintf(s + len, cap - len, "SKIP:\nbar.sync 0;\nadd.u32 %%r2, %%r3, 1;\nret;\n}\n");
	return s;
}

/* Two warps on two schedulers; warp 1 runs k dependent adds before the
 * barrier, warp 0 none.  After it both run one add: the kernel ends k D
 * later for every extra add of the slow warp, the fast one waiting. */
TEST(timing_barrier_waits_for_the_slowest_warp)
{
	Config c = tsim_config();
	int64_t d = 1 + c.rf_mrf_latency + c.pipe_sp_lat;
	char *p1 = barrier_ptx(1), *p6 = barrier_ptx(6);
	KernelStats a = tsim_run(&c, p1, 1, 64), b = tsim_run(&c, p6, 1, 64);
	CHECK_EQ(b.ts.cycles - a.ts.cycles, 5 * d);
	CHECK(b.ts.stall_barrier >= (uint64_t)(5 * d));
	free(p1);
	free(p6);
}

TEST(timing_stall_slots_add_up)
{
	Config c = tsim_config();
	char *ptx = barrier_ptx(3);
	KernelStats k = tsim_run(&c, ptx, 1, 64);
	const TStats *t = &k.ts;
	CHECK_EQ(t->issued + t->stall_idle + t->stall_rf + t->stall_mem + t->stall_scoreboard +
	         t->stall_barrier + t->stall_other, t->cycles * (uint64_t)c.sched_count);
	CHECK_EQ(t->issued, k.warp_insts);
	free(ptx);
}
