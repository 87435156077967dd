/*
 * test_regalloc.c -- register allocation (src/analysis/regalloc.c and its
 * companions igraph.c, spill.c, edit.c) and the pass pipeline's caps.
 *
 * Golden tests: small PTX kernels, each exercising one feature (a loop
 * with back-edge copies, 64-bit pairs, predicated definitions, nested
 * divergence, a call, spilling under a cap with a small predicate file),
 * with their expected dumps embedded: per-thread liveness of the virtual
 * code (live_dump), the allocator's decisions ('s' and 'a' dumps) and the
 * allocated code as `rfsim analyze --listing` shows it.  A change in the
 * allocator that alters any of these must be looked at and the expected
 * text updated by hand.
 *
 * Property tests run the allocator on every function of every .ptx file
 * of the repository, with no cap and under a tight cap with four
 * predicates, and check what must hold of any allocation: operands name
 * allocated registers, pairs are aligned, nothing exceeds the cap, no
 * two overlapping registers hold values at the same point (an independent
 * liveness check on the allocated code), the result prints and parses
 * back, and allocating twice gives the same code.  Whether the allocated
 * code computes the same results is tested end to end by
 * tests/test_regalloc.py, which runs every workload allocated, virtual
 * and spilled.
 */
#include "unit.h"

#include <stdlib.h>

#include "analysis/listing.h"
#include "analysis/live.h"
#include "analysis/pass.h"
#include "analysis/regalloc.h"
#include "base/base.h"
#include "base/config.h"
#include "tfunc.h"

#define HDR ".version 7.0\n.target sm_80\n.address_size 64\n"

/* a counted loop whose nvcc-style copies at the back edge coalesce away */
static const char *const K_LOOP = HDR
	".visible .entry loop_sum(.param .u64 loop_sum_param_0, .param .u32 loop_sum_param_1)\n"
	"{\n"
	"	.reg .pred %p<2>;\n"
	"	.reg .b32 %r<8>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	ld.param.u64 %rd1, [loop_sum_param_0];\n"
	"	ld.param.u32 %r1, [loop_sum_param_1];\n"
	"	mov.u32 %r2, 0;\n"
	"	mov.u32 %r3, 0;\n"
	"$L1:\n"
	"	add.s32 %r4, %r3, %r2;\n"
	"	add.s32 %r5, %r2, 1;\n"
	"	mov.u32 %r3, %r4;\n"
	"	mov.u32 %r2, %r5;\n"
	"	setp.lt.s32 %p1, %r2, %r1;\n"
	"	@%p1 bra $L1;\n"
	"	cvta.to.global.u64 %rd2, %rd1;\n"
	"	st.global.u32 [%rd2], %r3;\n"
	"	ret;\n"
	"}\n";

/* 64-bit values take aligned even/odd pairs among 32-bit ones */
static const char *const K_PAIRS = HDR
	".visible .entry pairs(.param .u64 pairs_param_0)\n"
	"{\n"
	"	.reg .b32 %r<6>;\n"
	"	.reg .f64 %fd<4>;\n"
	"	.reg .b64 %rd<8>;\n"
	"	ld.param.u64 %rd1, [pairs_param_0];\n"
	"	cvta.to.global.u64 %rd2, %rd1;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	mul.wide.u32 %rd3, %r1, 8;\n"
	"	add.s64 %rd4, %rd2, %rd3;\n"
	"	ld.global.f64 %fd1, [%rd4];\n"
	"	cvt.rn.f64.u32 %fd2, %r1;\n"
	"	add.u32 %r2, %r1, 1;\n"
	"	cvt.u64.u32 %rd5, %r2;\n"
	"	fma.rn.f64 %fd3, %fd1, %fd2, %fd1;\n"
	"	st.global.f64 [%rd4], %fd3;\n"
	"	st.global.u64 [%rd4+8], %rd5;\n"
	"	ret;\n"
	"}\n";

/* guarded writes: %r2 is set on both paths by two guarded movs, %r3 only
   under %p1, where it is also read; a guarded write kills nothing */
static const char *const K_PRED = HDR
	".visible .entry predicated(.param .u64 predicated_param_0)\n"
	"{\n"
	"	.reg .pred %p<3>;\n"
	"	.reg .b32 %r<6>;\n"
	"	.reg .b64 %rd<3>;\n"
	"	ld.param.u64 %rd1, [predicated_param_0];\n"
	"	cvta.to.global.u64 %rd2, %rd1;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	setp.lt.u32 %p1, %r1, 16;\n"
	"	@%p1 ld.global.u32 %r2, [%rd2];\n"
	"	@!%p1 mov.u32 %r2, 7;\n"
	"	@%p1 add.s32 %r3, %r2, %r1;\n"
	"	selp.u32 %r4, %r3, %r2, %p1;\n"
	"	st.global.u32 [%rd2+4], %r4;\n"
	"	ret;\n"
	"}\n";

/* if (a) { if (b) x else y } else z: nested divergence; per-thread and
   warp-level live counts differ inside the regions */
static const char *const K_DIVERGE = HDR
	".visible .entry diverge(.param .u64 diverge_param_0)\n"
	"{\n"
	"	.reg .pred %p<3>;\n"
	"	.reg .b32 %r<12>;\n"
	"	.reg .b64 %rd<3>;\n"
	"	ld.param.u64 %rd1, [diverge_param_0];\n"
	"	cvta.to.global.u64 %rd2, %rd1;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	ld.global.u32 %r2, [%rd2];\n"
	"	ld.global.u32 %r3, [%rd2+4];\n"
	"	setp.lt.u32 %p1, %r1, 16;\n"
	"	@%p1 bra $L_else;\n"
	"	and.b32 %r4, %r1, 1;\n"
	"	setp.eq.u32 %p2, %r4, 0;\n"
	"	@%p2 bra $L_inner;\n"
	"	add.s32 %r5, %r2, %r1;\n"
	"	bra.uni $L_join1;\n"
	"$L_inner:\n"
	"	mul.lo.s32 %r5, %r2, %r1;\n"
	"$L_join1:\n"
	"	add.s32 %r6, %r5, 3;\n"
	"	bra.uni $L_join;\n"
	"$L_else:\n"
	"	sub.s32 %r6, %r3, %r1;\n"
	"$L_join:\n"
	"	add.s32 %r7, %r6, %r1;\n"
	"	st.global.u32 [%rd2+8], %r7;\n"
	"	ret;\n"
	"}\n";

/* a kernel and the device function it calls: each has its own frame, and
   the kernel reports the larger register count of the two */
static const char *const K_CALL = HDR
	".func (.param .b32 sq_retval) sq(.param .b32 sq_p0, .param .b32 sq_p1)\n"
	"{\n"
	"	.reg .b32 %r<8>;\n"
	"	ld.param.u32 %r1, [sq_p0];\n"
	"	ld.param.u32 %r2, [sq_p1];\n"
	"	mul.lo.s32 %r3, %r1, %r1;\n"
	"	mul.lo.s32 %r4, %r2, %r2;\n"
	"	mul.lo.s32 %r5, %r1, %r2;\n"
	"	add.s32 %r6, %r3, %r4;\n"
	"	add.s32 %r7, %r6, %r5;\n"
	"	st.param.b32 [sq_retval], %r7;\n"
	"	ret;\n"
	"}\n"
	".visible .entry caller(.param .u64 caller_param_0)\n"
	"{\n"
	"	.reg .b32 %r<4>;\n"
	"	.reg .b64 %rd<3>;\n"
	"	ld.param.u64 %rd1, [caller_param_0];\n"
	"	cvta.to.global.u64 %rd2, %rd1;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	{\n"
	"	.param .b32 param0;\n"
	"	st.param.b32 [param0], %r1;\n"
	"	.param .b32 param1;\n"
	"	st.param.b32 [param1], 3;\n"
	"	.param .b32 retval0;\n"
	"	call.uni (retval0), sq, (param0, param1);\n"
	"	ld.param.b32 %r2, [retval0];\n"
	"	}\n"
	"	st.global.u32 [%rd2], %r2;\n"
	"	ret;\n"
	"}\n";

/* eight values live at once, more than a cap of 6 registers holds, and
   five predicates live at once with a predicate file of 4 */
static const char *const K_SPILL = HDR
	".visible .entry spill(.param .u64 spill_param_0, .param .u32 spill_param_1)\n"
	"{\n"
	"	.reg .pred %p<6>;\n"
	"	.reg .b32 %r<20>;\n"
	"	.reg .b64 %rd<3>;\n"
	"	ld.param.u64 %rd1, [spill_param_0];\n"
	"	ld.param.u32 %r9, [spill_param_1];\n"
	"	cvta.to.global.u64 %rd2, %rd1;\n"
	"	ld.global.u32 %r1, [%rd2];\n"
	"	ld.global.u32 %r2, [%rd2+4];\n"
	"	ld.global.u32 %r3, [%rd2+8];\n"
	"	ld.global.u32 %r4, [%rd2+12];\n"
	"	ld.global.u32 %r5, [%rd2+16];\n"
	"	setp.lt.u32 %p1, %r1, %r9;\n"
	"	setp.lt.u32 %p2, %r2, %r9;\n"
	"	setp.lt.u32 %p3, %r3, %r9;\n"
	"	setp.lt.u32 %p4, %r4, %r9;\n"
	"	setp.lt.u32 %p5, %r5, %r9;\n"
	"	selp.u32 %r10, %r1, %r2, %p1;\n"
	"	selp.u32 %r11, %r2, %r3, %p2;\n"
	"	selp.u32 %r12, %r3, %r4, %p3;\n"
	"	selp.u32 %r13, %r4, %r5, %p4;\n"
	"	selp.u32 %r14, %r5, %r1, %p5;\n"
	"	add.s32 %r15, %r10, %r11;\n"
	"	add.s32 %r16, %r12, %r13;\n"
	"	add.s32 %r17, %r15, %r16;\n"
	"	add.s32 %r18, %r17, %r14;\n"
	"	add.s32 %r19, %r18, %r9;\n"
	"	st.global.u32 [%rd2], %r19;\n"
	"	ret;\n"
	"}\n";

/* ---- golden dumps ------------------------------------------------------------ */

enum { G_LIVE = 1, G_ASSIGN = 2, G_SPILL = 4, G_LIST = 8 };

/* what the chosen dumps say of ptx allocated with cap and npred */
static char *ra_dump(const char *ptx, int32_t cap, int32_t npred, int what)
{
	Module *m = tf_parse(ptx);
	char *buf = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&buf, &n);
	for (int32_t i = 0; i < m->nfunc; i++) {
		Func *f = &m->funcs[i];
		if (!f->has_body) continue;
		if (what & G_LIVE) {
			Cfg *c = cfg_build(f);
			Live *l = live_compute(c);
			live_dump(l, m, out);
			live_free(l);
			cfg_free(c);
		}
		RaOpts o = {.cap = cap, .npred = npred, .dump = what & G_ASSIGN ? out : NULL,
		            .dump_spill = what & G_SPILL ? out : NULL, .verify = 1};
		RaStats st;
		CHECK_EQ(regalloc_func(m, i, &o, &st), RF_OK);
		CHECK_EQ(st.conflicts, 0);
	}
	for (int32_t i = 0; (what & G_LIST) && i < m->nfunc; i++)
		if (m->funcs[i].has_body) listing_print(m, &m->funcs[i], out);
	fclose(out);
	ir_free(m);
	return buf;
}

static void golden(const char *ptx, int32_t cap, int32_t npred, int what, const char *want)
{
	char *got = ra_dump(ptx, cap, npred, what);
	CHECK_STR(got, want);
	if (strcmp(got, want)) fprintf(stderr, "---- got:\n%s----\n", got);
	free(got);
}

/* the two copies at the back edge share registers with their sources and
   disappear; %rd1 takes an even/odd pair */
TEST(regalloc_golden_loop)
{
	golden(K_LOOP, 255, 7, G_LIVE | G_ASSIGN | G_LIST,
	"live: 14 regs, max 5\n"
	"b0 in -; out %r1 %r2 %r3 %rd1\n"
	"  0 ld: in -; def %rd1\n"
	"  1 ld: in %rd1; def %r1\n"
	"  2 mov: in %r1 %rd1; def %r2\n"
	"  3 mov: in %r1 %r2 %rd1; def %r3\n"
	"b1 in %r1 %r2 %r3 %rd1; out %r1 %r2 %r3 %rd1\n"
	"  4 add: in %r1 %r2 %r3 %rd1; use %r3! %r2:1; def %r4\n"
	"  5 add: in %r1 %r2 %r4 %rd1; use %r2!; def %r5\n"
	"  6 mov: in %r1 %r4 %r5 %rd1; use %r4!; def %r3\n"
	"  7 mov: in %r1 %r3 %r5 %rd1; use %r5!; def %r2\n"
	"  8 setp: in %r1 %r2 %r3 %rd1; use %r2:0+ %r1:0+; def %p1\n"
	"  9 bra: in %p1 %r1 %r2 %r3 %rd1; use %p1!\n"
	"b2 in %r3 %rd1; out -\n"
	"  10 cvta: in %r3 %rd1; use %rd1!; def %rd2\n"
	"  11 st: in %r3 %rd2; use %rd2! %r3!\n"
	"  12 ret: in -\n"
	"regalloc loop_sum: 5 regs, 1 preds; pressure 5, cap 255; spilled 0, remat 0, preds in regs 0; moves 2, removed 2; rounds 1\n"
	"  %p1 P0\n"
	"  %r1 R0\n"
	"  %r2 R1\n"
	"  %r3 R4\n"
	"  %r4 R4\n"
	"  %r5 R1\n"
	"  %rd1 R2:R3\n"
	"  %rd2 R0:R1\n"
	".entry loop_sum: 5 registers, 1 predicates\n"
	"     #  thr warp  instruction   (live 32-bit registers before it: per thread, warp-level)\n"
	"     0    0    0  ld.param.u64 %rd2, [loop_sum_param_0];\n"
	"     1    2    2  ld.param.u32 %r0, [loop_sum_param_1];\n"
	"     2    3    3  mov.u32 %r1, 0;\n"
	"     3    4    4  mov.u32 %r4, 0;\n"
	"$L1:\n"
	"     4    5    5  add.s32 %r4, %r4, %r1;                               // last: %r4\n"
	"     5    5    5  add.s32 %r1, %r1, 1;                                 // last: %r1\n"
	"     6    5    5  setp.lt.s32 %p0, %r1, %r0;\n"
	"     7    5    5  @%p0 bra $L1;                                        // last: %p0\n"
	"     8    3    3  cvta.to.global.u64 %rd0, %rd2;                       // last: %rd2\n"
	"     9    3    3  st.global.u32 [%rd0], %r4;                           // last: %rd0 %r4\n"
	"    10    0    0  ret;\n"
	);
}

/* 64-bit values (addresses, f64) in aligned pairs among 32-bit ones; a
   pair may reuse the register of a 32-bit value that dies at its write */
TEST(regalloc_golden_pairs)
{
	golden(K_PAIRS, 255, 7, G_ASSIGN | G_LIST,
	"regalloc pairs: 8 regs, 0 preds; pressure 8, cap 255; spilled 0, remat 0, preds in regs 0; moves 0, removed 0; rounds 1\n"
	"  %r1 R0\n"
	"  %r2 R0\n"
	"  %fd1 R2:R3\n"
	"  %fd2 R4:R5\n"
	"  %fd3 R2:R3\n"
	"  %rd1 R0:R1\n"
	"  %rd2 R2:R3\n"
	"  %rd3 R4:R5\n"
	"  %rd4 R6:R7\n"
	"  %rd5 R0:R1\n"
	".entry pairs: 8 registers, 0 predicates\n"
	"     #  thr warp  instruction   (live 32-bit registers before it: per thread, warp-level)\n"
	"     0    0    0  ld.param.u64 %rd0, [pairs_param_0];\n"
	"     1    2    2  cvta.to.global.u64 %rd2, %rd0;                       // last: %rd0\n"
	"     2    2    2  mov.u32 %r0, %tid.x;\n"
	"     3    3    3  mul.wide.u32 %rd4, %r0, 8;\n"
	"     4    5    5  add.s64 %rd6, %rd2, %rd4;                            // last: %rd2 %rd4\n"
	"     5    3    3  ld.global.f64 %rd2, [%rd6];\n"
	"     6    5    5  cvt.rn.f64.u32 %rd4, %r0;\n"
	"     7    7    7  add.u32 %r0, %r0, 1;                                 // last: %r0\n"
	"     8    7    7  cvt.u64.u32 %rd0, %r0;                               // last: %r0\n"
	"     9    8    8  fma.rn.f64 %rd2, %rd2, %rd4, %rd2;                   // last: %rd2 %rd4\n"
	"    10    6    6  st.global.f64 [%rd6], %rd2;                          // last: %rd2\n"
	"    11    4    4  st.global.u64 [%rd6+8], %rd0;                        // last: %rd6 %rd0\n"
	"    12    0    0  ret;\n"
	);
}

/* per-thread liveness keeps %r2 and %r3 live from the entry (guarded
   writes kill nothing); the allocator and the listing count them only
   where a write may have reached */
TEST(regalloc_golden_predicated)
{
	golden(K_PRED, 255, 7, G_LIVE | G_LIST,
	"live: 12 regs, max 5\n"
	"b0 in %r2 %r3; out -\n"
	"  0 ld: in %r2 %r3; def %rd1\n"
	"  1 cvta: in %r2 %r3 %rd1; use %rd1!; def %rd2\n"
	"  2 mov: in %r2 %r3 %rd2; def %r1\n"
	"  3 setp: in %r1 %r2 %r3 %rd2; use %r1:1; def %p1\n"
	"  4 ld: in %p1 %r1 %r2 %r3 %rd2; use %p1:3 %rd2:1; def %r2\n"
	"  5 mov: in %p1 %r1 %r2 %r3 %rd2; use %p1:2; def %r2\n"
	"  6 add: in %p1 %r1 %r2 %r3 %rd2; use %p1:1 %r2:1 %r1!; def %r3\n"
	"  7 selp: in %p1 %r2 %r3 %rd2; use %r3! %r2! %p1!; def %r4\n"
	"  8 st: in %r4 %rd2; use %rd2! %r4!\n"
	"  9 ret: in -\n"
	".entry predicated: 4 registers, 1 predicates\n"
	"     #  thr warp  instruction   (live 32-bit registers before it: per thread, warp-level)\n"
	"     0    0    0  ld.param.u64 %rd0, [predicated_param_0];\n"
	"     1    2    2  cvta.to.global.u64 %rd2, %rd0;                       // last: %rd0\n"
	"     2    2    2  mov.u32 %r0, %tid.x;\n"
	"     3    3    3  setp.lt.u32 %p0, %r0, 16;\n"
	"     4    3    3  @%p0 ld.global.u32 %r1, [%rd2];\n"
	"     5    4    4  @!%p0 mov.u32 %r1, 7;\n"
	"     6    4    4  @%p0 add.s32 %r0, %r1, %r0;\n"
	"     7    4    4  selp.u32 %r0, %r0, %r1, %p0;                         // last: %r0 %r1 %p0\n"
	"     8    3    3  st.global.u32 [%rd2+4], %r0;                         // last: %rd2 %r0\n"
	"     9    0    0  ret;\n"
	);
}

/* nested divergence: per thread, the then side needs %r4 (virtual %r2) and
   the else side %r0 (virtual %r3), which shares R0 with the then side's
   temporaries; at warp level each side also keeps the other side's input
   for the lanes waiting to run it, one register more, up to $L_join */
TEST(regalloc_golden_nested_divergence)
{
	golden(K_DIVERGE, 255, 7, G_LIST,
	".entry diverge: 5 registers, 1 predicates\n"
	"     #  thr warp  instruction   (live 32-bit registers before it: per thread, warp-level)\n"
	"     0    0    0  ld.param.u64 %rd0, [diverge_param_0];\n"
	"     1    2    2  cvta.to.global.u64 %rd2, %rd0;                       // last: %rd0\n"
	"     2    2    2  mov.u32 %r1, %tid.x;\n"
	"     3    3    3  ld.global.u32 %r4, [%rd2];\n"
	"     4    4    4  ld.global.u32 %r0, [%rd2+4];\n"
	"     5    5    5  setp.lt.u32 %p0, %r1, 16;\n"
	"     6    5    5  @%p0 bra $L_else;                                    // last: %p0\n"
	"     7    4    5  and.b32 %r0, %r1, 1;\n"
	"     8    5    5  setp.eq.u32 %p0, %r0, 0;                             // last: %r0\n"
	"     9    4    5  @%p0 bra $L_inner;                                   // last: %p0\n"
	"    10    4    5  add.s32 %r0, %r4, %r1;                               // last: %r4\n"
	"    11    4    5  bra.uni $L_join1;\n"
	"$L_inner:\n"
	"    12    4    5  mul.lo.s32 %r0, %r4, %r1;                            // last: %r4\n"
	"$L_join1:\n"
	"    13    4    5  add.s32 %r0, %r0, 3;                                 // last: %r0\n"
	"    14    4    5  bra.uni $L_join;\n"
	"$L_else:\n"
	"    15    4    5  sub.s32 %r0, %r0, %r1;                               // last: %r0\n"
	"$L_join:\n"
	"    16    4    4  add.s32 %r0, %r0, %r1;                               // last: %r0 %r1\n"
	"    17    3    3  st.global.u32 [%rd2+8], %r0;                         // last: %rd2 %r0\n"
	"    18    0    0  ret;\n"
	);
}

/* a call: each function allocated on its own; .param traffic untouched */
TEST(regalloc_golden_call)
{
	golden(K_CALL, 255, 7, G_LIST,
	".func sq: 4 registers, 0 predicates\n"
	"     #  thr warp  instruction   (live 32-bit registers before it: per thread, warp-level)\n"
	"     0    0    0  ld.param.u32 %r0, [sq_p0];\n"
	"     1    1    1  ld.param.u32 %r1, [sq_p1];\n"
	"     2    2    2  mul.lo.s32 %r2, %r0, %r0;\n"
	"     3    3    3  mul.lo.s32 %r3, %r1, %r1;\n"
	"     4    4    4  mul.lo.s32 %r0, %r0, %r1;                            // last: %r0 %r1\n"
	"     5    3    3  add.s32 %r1, %r2, %r3;                               // last: %r2 %r3\n"
	"     6    2    2  add.s32 %r0, %r1, %r0;                               // last: %r1 %r0\n"
	"     7    1    1  st.param.b32 [sq_retval], %r0;                       // last: %r0\n"
	"     8    0    0  ret;\n"
	".entry caller: 3 registers, 0 predicates\n"
	"     #  thr warp  instruction   (live 32-bit registers before it: per thread, warp-level)\n"
	"     0    0    0  ld.param.u64 %rd0, [caller_param_0];\n"
	"     1    2    2  cvta.to.global.u64 %rd0, %rd0;                       // last: %rd0\n"
	"     2    2    2  mov.u32 %r2, %tid.x;\n"
	"     4    3    3  st.param.b32 [param0], %r2;                          // last: %r2\n"
	"     5    2    2  st.param.b32 [param1], 3;\n"
	"     6    2    2  call.uni (retval0), sq, (param0, param1);\n"
	"     7    2    2  ld.param.b32 %r2, [retval0];\n"
	"     9    3    3  st.global.u32 [%rd0], %r2;                           // last: %rd0 %r2\n"
	"    10    0    0  ret;\n"
	);
}

/* cap 6 for 9 live values and 4 predicates for 5: values go to
   __rfsim_spill, the parameter is reloaded from the parameter space at
   each use, two predicates become bits of one general register */
TEST(regalloc_golden_spill)
{
	golden(K_SPILL, 6, 4, G_SPILL | G_LIST,
	"spill round 1: %p1 (cost 2) kept in bit 0 of %t29\n"
	"spill round 1: %r1 (cost 4) to [__rfsim_spill+0]\n"
	"spill round 1: %r2 (cost 4) to [__rfsim_spill+4]\n"
	"spill round 1: %r10 (cost 2) to [__rfsim_spill+8]\n"
	"spill round 1: %r11 (cost 2) to [__rfsim_spill+12]\n"
	"spill round 1: %r12 (cost 2) to [__rfsim_spill+16]\n"
	"spill round 2: %p2 (cost 2) kept in bit 1 of %t29\n"
	"spill round 2: %r3 (cost 4) to [__rfsim_spill+20]\n"
	"spill round 2: %r4 (cost 4) to [__rfsim_spill+24]\n"
	"spill round 2: %r5 (cost 4) to [__rfsim_spill+28]\n"
	"spill round 2: %r13 (cost 2) to [__rfsim_spill+32]\n"
	"spill round 3: %r9 (cost 7) rematerialised from line 10\n"
	".entry spill: 6 registers, 4 predicates\n"
	"     #  thr warp  instruction   (live 32-bit registers before it: per thread, warp-level)\n"
	"     0    0    0  ld.param.u64 %rd0, [spill_param_0];\n"
	"     1    2    2  cvta.to.global.u64 %rd2, %rd0;                       // last: %rd0\n"
	"     2    2    2  ld.global.u32 %r0, [%rd2];\n"
	"     3    3    3  st.local.b32 [__rfsim_spill], %r0;                   // last: %r0\n"
	"     4    2    2  ld.global.u32 %r0, [%rd2+4];\n"
	"     5    3    3  st.local.b32 [__rfsim_spill+4], %r0;                 // last: %r0\n"
	"     6    2    2  ld.global.u32 %r0, [%rd2+8];\n"
	"     7    3    3  st.local.b32 [__rfsim_spill+20], %r0;                // last: %r0\n"
	"     8    2    2  ld.global.u32 %r0, [%rd2+12];\n"
	"     9    3    3  st.local.b32 [__rfsim_spill+24], %r0;                // last: %r0\n"
	"    10    2    2  ld.global.u32 %r0, [%rd2+16];\n"
	"    11    3    3  st.local.b32 [__rfsim_spill+28], %r0;                // last: %r0\n"
	"    12    2    2  ld.local.b32 %r0, [__rfsim_spill];\n"
	"    13    3    3  ld.param.u32 %r1, [spill_param_1];\n"
	"    14    4    4  setp.lt.u32 %p0, %r0, %r1;                           // last: %r0 %r1\n"
	"    15    2    2  @%p0 or.b32 %r4, %r4, 0x1;\n"
	"    16    3    3  @!%p0 and.b32 %r4, %r4, 0xFFFFFFFE;                  // last: %p0\n"
	"    17    3    3  ld.local.b32 %r0, [__rfsim_spill+4];\n"
	"    18    4    4  ld.param.u32 %r1, [spill_param_1];\n"
	"    19    5    5  setp.lt.u32 %p0, %r0, %r1;                           // last: %r0 %r1\n"
	"    20    3    3  @%p0 or.b32 %r4, %r4, 0x2;\n"
	"    21    3    3  @!%p0 and.b32 %r4, %r4, 0xFFFFFFFD;                  // last: %p0\n"
	"    22    3    3  ld.local.b32 %r0, [__rfsim_spill+20];\n"
	"    23    4    4  ld.param.u32 %r1, [spill_param_1];\n"
	"    24    5    5  setp.lt.u32 %p1, %r0, %r1;                           // last: %r0 %r1\n"
	"    25    3    3  ld.local.b32 %r0, [__rfsim_spill+24];\n"
	"    26    4    4  ld.param.u32 %r1, [spill_param_1];\n"
	"    27    5    5  setp.lt.u32 %p2, %r0, %r1;                           // last: %r0 %r1\n"
	"    28    3    3  ld.local.b32 %r0, [__rfsim_spill+28];\n"
	"    29    4    4  ld.param.u32 %r1, [spill_param_1];\n"
	"    30    5    5  setp.lt.u32 %p3, %r0, %r1;                           // last: %r0 %r1\n"
	"    31    3    3  ld.local.b32 %r0, [__rfsim_spill];\n"
	"    32    4    4  ld.local.b32 %r1, [__rfsim_spill+4];\n"
	"    33    5    5  and.b32 %r5, %r4, 0x1;\n"
	"    34    6    6  setp.ne.u32 %p0, %r5, 0x0;                           // last: %r5\n"
	"    35    5    5  selp.u32 %r0, %r0, %r1, %p0;                         // last: %r0 %r1 %p0\n"
	"    36    4    4  st.local.b32 [__rfsim_spill+8], %r0;                 // last: %r0\n"
	"    37    3    3  ld.local.b32 %r0, [__rfsim_spill+4];\n"
	"    38    4    4  ld.local.b32 %r1, [__rfsim_spill+20];\n"
	"    39    5    5  and.b32 %r4, %r4, 0x2;                               // last: %r4\n"
	"    40    5    5  setp.ne.u32 %p0, %r4, 0x0;                           // last: %r4\n"
	"    41    4    4  selp.u32 %r0, %r0, %r1, %p0;                         // last: %r0 %r1 %p0\n"
	"    42    3    3  st.local.b32 [__rfsim_spill+12], %r0;                // last: %r0\n"
	"    43    2    2  ld.local.b32 %r0, [__rfsim_spill+20];\n"
	"    44    3    3  ld.local.b32 %r1, [__rfsim_spill+24];\n"
	"    45    4    4  selp.u32 %r0, %r0, %r1, %p1;                         // last: %r0 %r1 %p1\n"
	"    46    3    3  st.local.b32 [__rfsim_spill+16], %r0;                // last: %r0\n"
	"    47    2    2  ld.local.b32 %r0, [__rfsim_spill+24];\n"
	"    48    3    3  ld.local.b32 %r1, [__rfsim_spill+28];\n"
	"    49    4    4  selp.u32 %r0, %r0, %r1, %p2;                         // last: %r0 %r1 %p2\n"
	"    50    3    3  st.local.b32 [__rfsim_spill+32], %r0;                // last: %r0\n"
	"    51    2    2  ld.local.b32 %r0, [__rfsim_spill];\n"
	"    52    3    3  ld.local.b32 %r1, [__rfsim_spill+28];\n"
	"    53    4    4  selp.u32 %r1, %r1, %r0, %p3;                         // last: %r1 %r0 %p3\n"
	"    54    3    3  ld.local.b32 %r0, [__rfsim_spill+8];\n"
	"    55    4    4  ld.local.b32 %r4, [__rfsim_spill+12];\n"
	"    56    5    5  add.s32 %r4, %r0, %r4;                               // last: %r0 %r4\n"
	"    57    4    4  ld.local.b32 %r0, [__rfsim_spill+16];\n"
	"    58    5    5  ld.local.b32 %r5, [__rfsim_spill+32];\n"
	"    59    6    6  add.s32 %r0, %r0, %r5;                               // last: %r0 %r5\n"
	"    60    5    5  add.s32 %r0, %r4, %r0;                               // last: %r4 %r0\n"
	"    61    4    4  add.s32 %r0, %r0, %r1;                               // last: %r0 %r1\n"
	"    62    3    3  ld.param.u32 %r1, [spill_param_1];\n"
	"    63    4    4  add.s32 %r0, %r0, %r1;                               // last: %r0 %r1\n"
	"    64    3    3  st.global.u32 [%rd2], %r0;                           // last: %rd2 %r0\n"
	"    65    0    0  ret;\n"
	);
}

/* ---- properties over the corpus ------------------------------------------------ */

static int slots_of(PtxType t)
{
	int s = ptxtype_size(t);
	return s > 4 ? s / 4 : 1;
}

static int nfail;            /* faults reported, to keep the log short */

/* what every allocation must satisfy; where: for messages */
static void check_alloc(const Module *m, const Func *f, int32_t cap, int32_t npred,
                        const char *where)
{
	int32_t r[512];
	int bad = 0;
	CHECK(f->phys != NULL);
	CHECK(f->nphys <= cap);
	CHECK(f->nphys_pred <= npred);
	for (int32_t i = 0; i < f->nins && !bad; i++) {
		int n = live_uses(f, &f->ins[i], r, 256);
		n += live_defs(f, &f->ins[i], r + n, 256);
		for (int k = 0; k < n; k++) {
			PtxType t = (PtxType)f->regtype[r[k]];
			int32_t p = f->phys[r[k]], w = slots_of(t);
			if (t == PT_PRED) bad |= p < 0 || p >= f->nphys_pred;
			else bad |= p < 0 || p % w || p + w > f->nphys;
		}
		if (bad && nfail++ < 5)
			fprintf(stderr, "%s: %s: bad register at instruction %d (line %u)\n", where,
			        ir_str(m, m->syms[f->sym].name), i, f->ins[i].line);
	}
	CHECK(!bad);
}

static int32_t prop_cap, prop_npred;
static int prop_funcs, prop_files;

/* parse path and allocate every function; the module, or NULL */
static Module *alloc_file(const char *path)
{
	size_t len;
	char *text = read_file(path, FILE_PTX, &len);
	Module *m = text ? ptx_parse(text, len, path) : NULL;
	free(text);
	for (int32_t i = 0; m && i < m->nfunc; i++) {
		RaOpts o = {.cap = prop_cap, .npred = prop_npred, .verify = 1};
		RaStats st;
		if (!m->funcs[i].has_body) continue;
		CHECK_EQ(regalloc_func(m, i, &o, &st), RF_OK);
		CHECK_EQ(st.conflicts, 0);
		if (st.skipped) continue;
		check_alloc(m, &m->funcs[i], st.cap, prop_npred, path);
		prop_funcs++;
	}
	return m;
}

static int visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb, (void)ftw;
	size_t n = strlen(path);
	if (type != FTW_F || n < 4 || strcmp(path + n - 4, ".ptx")) return 0;
	Module *m = alloc_file(path), *again = m ? alloc_file(path) : NULL;
	if (!m) return 0;        /* the parser's tests report files it rejects */
	prop_files++;
	char *printed = ptx_print_str(m, NULL), *printed2 = ptx_print_str(again, NULL);
	CHECK_STR(printed, printed2);             /* deterministic */
	Module *back = ptx_parse(printed, strlen(printed), path);
	CHECK(back != NULL);                      /* allocated code prints as PTX */
	if (!back) fprintf(stderr, "%s: allocated code does not parse: %s\n", path, err_msg());
	ir_free(back);
	free(printed);
	free(printed2);
	ir_free(m);
	ir_free(again);
	return 0;
}

static void corpus(int32_t cap, int32_t npred)
{
	prop_cap = cap, prop_npred = npred, prop_funcs = prop_files = 0;
	nftw("tests/ptx", visit, 16, 0);
	nftw("workloads", visit, 16, 0);
	CHECK(prop_files > 20);
	CHECK(prop_funcs > 50);
}

TEST(regalloc_corpus_uncapped)
{
	corpus(255, 7);
}

/* everything spills: 12 registers, 4 predicates */
TEST(regalloc_corpus_spilling)
{
	corpus(12, 4);
}

/* ---- the pipeline: caps and register counts ------------------------------------- */

static const char *const K_BOUNDS = HDR
	".visible .entry lb(.param .u64 lb_param_0)\n"
	".maxntid 256, 1, 1\n"
	".minnctapersm 2\n"
	"{\n"
	"	ret;\n"
	"}\n"
	".visible .entry mx(.param .u64 mx_param_0)\n"
	".maxnreg 40\n"
	"{\n"
	"	ret;\n"
	"}\n"
	".visible .entry plain(.param .u64 plain_param_0)\n"
	"{\n"
	"	ret;\n"
	"}\n";

static Config hopper(void)
{
	Config c;
	config_defaults(&c);
	CHECK_EQ(config_load(&c, "hopper-h100"), RF_OK);
	return c;
}

/* each source of a cap, and which wins */
TEST(pass_register_caps)
{
	Module *m = tf_parse(K_BOUNDS);
	Config h = hopper(), f;
	config_defaults(&f);
	const char *why;
	int32_t lb = ir_find_func(m, "lb"), mx = ir_find_func(m, "mx"), pl = ir_find_func(m, "plain");
	CHECK_EQ(pass_reg_cap(m, lb, &h, &why), 128);     /* 2 CTAs of 256 on 64K regs */
	CHECK_STR(why, "launch bounds");
	CHECK_EQ(pass_reg_cap(m, mx, &h, &why), 40);
	CHECK_STR(why, ".maxnreg");
	CHECK_EQ(pass_reg_cap(m, pl, &h, &why), 255);
	CHECK_STR(why, "sm.max_regs_per_thread");
	CHECK_EQ(pass_reg_cap(m, pl, &f, &why), 63);      /* Fermi */
	CHECK_EQ(pass_reg_cap(m, lb, &f, &why), 63);      /* 2 x 256 fit Fermi at 63 */
	CHECK_EQ(config_set(&h, "maxrregcount", "24"), RF_OK);
	CHECK_EQ(pass_reg_cap(m, pl, &h, &why), 24);
	CHECK_STR(why, "maxrregcount");
	CHECK_EQ(pass_reg_cap(m, lb, &h, &why), 24);
	ir_free(m);
}

/* a kernel counts its callees' registers (ptxas's rule); a device function
   gets the cap of the kernels that call it */
TEST(pass_call_counts)
{
	Module *m = tf_parse(K_CALL);
	Config c;
	config_defaults(&c);
	CHECK_EQ(config_set(&c, "maxrregcount", "30"), RF_OK);
	/* nvcc's order, so that sq needs more registers than its caller */
	CHECK_EQ(config_set(&c, "compiler.schedule", "none"), RF_OK);
	const char *why;
	int32_t k = ir_find_func(m, "caller"), sq = ir_find_func(m, "sq");
	CHECK_EQ(pass_reg_cap(m, sq, &c, &why), 30);
	PassReport r;
	CHECK_EQ(pass_run_report(m, &c, &r), RF_OK);
	CHECK_EQ(m->funcs[k].nphys, 3);
	CHECK_EQ(m->funcs[sq].nphys, 4);
	CHECK_EQ(m->funcs[k].regs_per_thread, 4);
	CHECK_EQ(r.funcs[k].ra.regs, 3);
	CHECK_EQ(r.funcs[k].cap, 30);
	pass_report_free(&r);
	ir_free(m);
}

/* compiler.regalloc=0 leaves virtual registers */
TEST(pass_regalloc_off)
{
	Module *m = tf_parse(K_LOOP);
	Config c;
	config_defaults(&c);
	CHECK_EQ(config_set(&c, "compiler.regalloc", "0"), RF_OK);
	CHECK_EQ(pass_run(m, &c), RF_OK);
	CHECK(m->funcs[0].phys == NULL);
	ir_free(m);
}

/* a cap below what one instruction names is raised to it */
TEST(regalloc_cap_raised)
{
	Module *m = tf_parse(K_PAIRS);
	RaOpts o = {.cap = 1, .npred = 7, .verify = 1};
	RaStats st;
	CHECK_EQ(regalloc_func(m, 0, &o, &st), RF_OK);
	CHECK_EQ(st.cap, 6);           /* fma.rn.f64 names three pairs */
	CHECK(st.regs <= 6);
	CHECK_EQ(st.conflicts, 0);
	ir_free(m);
}
