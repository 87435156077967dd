/*
 * test_regmutex.c -- RegMutex's compiler side (src/analysis/regmutex.c,
 * rm_plan.c, rm_home.c, rm_check.c; regmutex.md section III).
 *
 * Golden tests: small PTX kernels, allocated by the pipeline and then run
 * through the pass at a forced |Es|, with the resulting code embedded
 * (labels and instructions as the printer writes them): a high-pressure
 * loop (acquire before the loop, release at the head of the block after
 * it), a high-pressure side of a divergent branch (the branch taken
 * released, the side acquiring and releasing before the reconvergence
 * point, where the lanes that skipped it wait released), two regions
 * in straight code (two acquire/release pairs, with compaction moves of a
 * value live across them), and a barrier inside a high-pressure stretch
 * (deadlock rule 2: a |Bs| below the registers live at the barrier is
 * rejected with the rule; the heuristic never picks one).  Every result
 * also passes the independent checker (rm_check.c).
 *
 * Arithmetic: the |Es| heuristic on the paper's worked example (24
 * registers on Fermi: candidates 2, 4, 6, 8; 4, 6, 8 keep 48 warps with
 * 16, 26, 32 pool sections; the pick is 6), the deadlock rules as
 * filters, and the storage of section III-B (384 bits; 24 paired).
 * The checker's warp-level rule on hand-placed directives: a release in
 * the region of a divergent branch taken acquired, or on a path that
 * reaches the reconvergence point acquired, is refused.
 * Two divergent branches reconverging at one point, one taken acquired (a
 * loop's exit) and one released (the branch around the loop): the pass
 * stopped there with an internal error (CUB's DeviceReduceSingleTileKernel,
 * tests/ptx/rm_cub_reduce.ptx).  The fallback placement (every divergent
 * region with an acquired point acquired whole) on every golden kernel, and
 * the undo of a placement (rm_save, rm_undo) back to the code it came from.
 * test_regmutex_corpus.c checks the pass on every kernel of the corpus.
 * Program output with the pass on is tested end to end by
 * tests/test_regmutex_compiler.py, which runs every workload.
 */
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/pass.h"
#include "analysis/regmutex.h"
#include "analysis/rm_int.h"
#include "base/base.h"
#include "base/config.h"
#include "ptx/ptx.h"

#define HDR ".version 7.0\n.target sm_80\n.address_size 64\n"

/* 12 loads live at once in a loop; 6 registers around it */
static const char *const K_LOOP = HDR
	".visible .entry hot_loop(.param .u64 p0, .param .u32 p1)\n"
	"{\n"
	"	.reg .pred %p<2>;\n"
	"	.reg .b32 %r<8>;\n"
	"	.reg .f32 %f<32>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	ld.param.u64 %rd1, [p0];\n"
	"	ld.param.u32 %r1, [p1];\n"
	"	mov.u32 %r2, %tid.x;\n"
	"	mul.wide.u32 %rd2, %r2, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	mov.u32 %r3, 0;\n"
	"	mov.f32 %f0, 0f00000000;\n"
	"$L_loop:\n"
	"	ld.global.f32 %f1, [%rd3];\n"
	"	ld.global.f32 %f2, [%rd3+4];\n"
	"	ld.global.f32 %f3, [%rd3+8];\n"
	"	ld.global.f32 %f4, [%rd3+12];\n"
	"	ld.global.f32 %f5, [%rd3+16];\n"
	"	ld.global.f32 %f6, [%rd3+20];\n"
	"	ld.global.f32 %f7, [%rd3+24];\n"
	"	ld.global.f32 %f8, [%rd3+28];\n"
	"	mul.f32 %f9, %f1, %f8;\n"
	"	mul.f32 %f10, %f2, %f7;\n"
	"	mul.f32 %f11, %f3, %f6;\n"
	"	mul.f32 %f12, %f4, %f5;\n"
	"	add.f32 %f13, %f9, %f10;\n"
	"	add.f32 %f14, %f11, %f12;\n"
	"	add.f32 %f15, %f13, %f14;\n"
	"	add.f32 %f0, %f0, %f15;\n"
	"	add.s32 %r3, %r3, 1;\n"
	"	setp.lt.u32 %p1, %r3, %r1;\n"
	"	@%p1 bra $L_loop;\n"
	"	st.global.f32 [%rd3], %f0;\n"
	"	ret;\n"
	"}\n";

/* if (tid < n) { 8 loads live at once } */
static const char *const K_COND = HDR
	".visible .entry hot_if(.param .u64 p0, .param .u32 p1)\n"
	"{\n"
	"	.reg .pred %p<2>;\n"
	"	.reg .b32 %r<8>;\n"
	"	.reg .f32 %f<32>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	ld.param.u64 %rd1, [p0];\n"
	"	ld.param.u32 %r1, [p1];\n"
	"	mov.u32 %r2, %tid.x;\n"
	"	mul.wide.u32 %rd2, %r2, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	mov.f32 %f0, 0f3F800000;\n"
	"	setp.ge.u32 %p1, %r2, %r1;\n"
	"	@%p1 bra $L_done;\n"
	"	ld.global.f32 %f1, [%rd3];\n"
	"	ld.global.f32 %f2, [%rd3+4];\n"
	"	ld.global.f32 %f3, [%rd3+8];\n"
	"	ld.global.f32 %f4, [%rd3+12];\n"
	"	ld.global.f32 %f5, [%rd3+16];\n"
	"	ld.global.f32 %f6, [%rd3+20];\n"
	"	mul.f32 %f9, %f1, %f6;\n"
	"	mul.f32 %f10, %f2, %f5;\n"
	"	mul.f32 %f11, %f3, %f4;\n"
	"	add.f32 %f12, %f9, %f10;\n"
	"	add.f32 %f0, %f12, %f11;\n"
	"$L_done:\n"
	"	st.global.f32 [%rd3], %f0;\n"
	"	ret;\n"
	"}\n";

/* two high-pressure stretches; %r9 lives across both and the gap */
static const char *const K_TWO = HDR
	".visible .entry two(.param .u64 p0)\n"
	"{\n"
	"	.reg .b32 %r<32>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	ld.param.u64 %rd1, [p0];\n"
	"	mov.u32 %r9, %tid.x;\n"
	"	ld.global.u32 %r1, [%rd1];\n"
	"	ld.global.u32 %r2, [%rd1+4];\n"
	"	ld.global.u32 %r3, [%rd1+8];\n"
	"	ld.global.u32 %r4, [%rd1+12];\n"
	"	ld.global.u32 %r5, [%rd1+16];\n"
	"	add.s32 %r6, %r1, %r2;\n"
	"	add.s32 %r7, %r3, %r4;\n"
	"	add.s32 %r8, %r6, %r7;\n"
	"	add.s32 %r10, %r8, %r5;\n"
	"	st.global.u32 [%rd1], %r10;\n"
	"	add.s32 %r11, %r9, 7;\n"
	"	st.global.u32 [%rd1+4], %r11;\n"
	"	ld.global.u32 %r12, [%rd1+20];\n"
	"	ld.global.u32 %r13, [%rd1+24];\n"
	"	ld.global.u32 %r14, [%rd1+28];\n"
	"	ld.global.u32 %r15, [%rd1+32];\n"
	"	ld.global.u32 %r16, [%rd1+36];\n"
	"	add.s32 %r17, %r12, %r13;\n"
	"	add.s32 %r18, %r14, %r15;\n"
	"	add.s32 %r19, %r17, %r18;\n"
	"	add.s32 %r20, %r19, %r16;\n"
	"	add.s32 %r21, %r20, %r9;\n"
	"	st.global.u32 [%rd1+8], %r21;\n"
	"	ret;\n"
	"}\n";

/* a barrier where 7 registers are live, inside a 9-register stretch */
static const char *const K_BAR = HDR
	".visible .entry bar_in(.param .u64 p0)\n"
	"{\n"
	"	.reg .b32 %r<32>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	ld.param.u64 %rd1, [p0];\n"
	"	ld.global.u32 %r1, [%rd1];\n"
	"	ld.global.u32 %r2, [%rd1+4];\n"
	"	ld.global.u32 %r3, [%rd1+8];\n"
	"	ld.global.u32 %r4, [%rd1+12];\n"
	"	ld.global.u32 %r5, [%rd1+16];\n"
	"	bar.sync 0;\n"
	"	ld.global.u32 %r6, [%rd1+20];\n"
	"	ld.global.u32 %r7, [%rd1+24];\n"
	"	add.s32 %r8, %r1, %r2;\n"
	"	add.s32 %r8, %r8, %r3;\n"
	"	add.s32 %r8, %r8, %r4;\n"
	"	add.s32 %r8, %r8, %r5;\n"
	"	add.s32 %r8, %r8, %r6;\n"
	"	add.s32 %r8, %r8, %r7;\n"
	"	st.global.u32 [%rd1], %r8;\n"
	"	ret;\n"
	"}\n";

/* if (tid < 16) loop A else loop B, both loops of 8 values live at once
   (shared loads: acquired whole), loop A leaving early too: three exits
   acquired, and the branch around them released before this was fixed,
   reconverge at $L_join */
static const char *const K_NEST = HDR
	".visible .entry nest(.param .u64 p0, .param .u32 p1)\n"
	"{\n"
	"	.reg .pred %p<4>;\n"
	"	.reg .b32 %r<8>;\n"
	"	.reg .f32 %f<32>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	.shared .align 4 .f32 sh[64];\n"
	"	ld.param.u64 %rd1, [p0];\n"
	"	ld.param.u32 %r1, [p1];\n"
	"	mov.u32 %r2, %tid.x;\n"
	"	mov.u32 %r3, sh;\n"
	"	mov.u32 %r4, 0;\n"
	"	mov.f32 %f0, 0f00000000;\n"
	"	setp.lt.u32 %p1, %r2, 16;\n"
	"	@%p1 bra $L_b;\n"
	"$L_a:\n"
	"	ld.shared.f32 %f1, [%r3];\n"
	"	ld.shared.f32 %f2, [%r3+4];\n"
	"	ld.shared.f32 %f3, [%r3+8];\n"
	"	ld.shared.f32 %f4, [%r3+12];\n"
	"	ld.shared.f32 %f5, [%r3+16];\n"
	"	ld.shared.f32 %f6, [%r3+20];\n"
	"	ld.shared.f32 %f7, [%r3+24];\n"
	"	ld.shared.f32 %f8, [%r3+28];\n"
	"	mul.f32 %f9, %f1, %f8;\n"
	"	mul.f32 %f10, %f2, %f7;\n"
	"	mul.f32 %f11, %f3, %f6;\n"
	"	mul.f32 %f12, %f4, %f5;\n"
	"	add.f32 %f13, %f9, %f10;\n"
	"	add.f32 %f14, %f11, %f12;\n"
	"	add.f32 %f15, %f13, %f14;\n"
	"	add.f32 %f0, %f0, %f15;\n"
	"	setp.gt.f32 %p2, %f0, 0f42C80000;\n"
	"	@%p2 bra $L_join;\n"
	"	add.s32 %r4, %r4, 1;\n"
	"	setp.ge.u32 %p3, %r4, %r1;\n"
	"	@%p3 bra $L_join;\n"
	"	bra.uni $L_a;\n"
	"$L_b:\n"
	"	ld.shared.f32 %f1, [%r3+32];\n"
	"	ld.shared.f32 %f2, [%r3+36];\n"
	"	ld.shared.f32 %f3, [%r3+40];\n"
	"	ld.shared.f32 %f4, [%r3+44];\n"
	"	ld.shared.f32 %f5, [%r3+48];\n"
	"	ld.shared.f32 %f6, [%r3+52];\n"
	"	ld.shared.f32 %f7, [%r3+56];\n"
	"	ld.shared.f32 %f8, [%r3+60];\n"
	"	mul.f32 %f9, %f1, %f8;\n"
	"	mul.f32 %f10, %f2, %f7;\n"
	"	mul.f32 %f11, %f3, %f6;\n"
	"	mul.f32 %f12, %f4, %f5;\n"
	"	add.f32 %f13, %f9, %f10;\n"
	"	add.f32 %f14, %f11, %f12;\n"
	"	add.f32 %f15, %f13, %f14;\n"
	"	add.f32 %f0, %f0, %f15;\n"
	"	add.s32 %r4, %r4, 1;\n"
	"	setp.lt.u32 %p3, %r4, %r1;\n"
	"	@%p3 bra $L_b;\n"
	"$L_join:\n"
	"	mul.wide.u32 %rd2, %r2, 4;\n"
	"	add.s64 %rd3, %rd1, %rd2;\n"
	"	st.global.f32 [%rd3], %f0;\n"
	"	ret;\n"
	"}\n";

/* f's code: labels and instructions as the printer writes them */
static char *code_of(const Module *m, const Func *f)
{
	char *got = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&got, &n);
	for (int32_t i = 0; i < f->nins; i++) {
		int32_t l = ir_label_of(f, i);
		if (l >= 0) fprintf(out, "%s:\n", ir_str(m, f->labels[l].name));
		ptx_print_ins(m, f, &f->ins[i], out);
	}
	fclose(out);
	return got;
}

/* allocate and run RegMutex at |Es| = es; the kernel's code, or NULL when
   the pass refused (err_msg() says why); *st what it did */
static char *run(const char *src, int es, RmStats *st, int *rc)
{
	Module *m = ptx_parse(src, strlen(src), "test.ptx");
	CHECK(m != NULL);
	if (!m) return NULL;
	Config c;
	config_defaults(&c);
	CHECK_EQ(config_load(&c, "fermi-gtx480"), RF_OK);
	CHECK_EQ(config_set(&c, "compiler.schedule", "pressure"), RF_OK);   /* the goldens' order */
	char v[16];
	snprintf(v, sizeof v, "%d", es);
	CHECK_EQ(config_set(&c, "regmutex.enable", "1"), RF_OK);
	CHECK_EQ(config_set(&c, "regmutex.es", v), RF_OK);
	PassReport r;
	*rc = pass_run_report(m, &c, &r);
	char *got = NULL;
	if (*rc == RF_OK) {
		const Func *f = &m->funcs[0];
		*st = r.funcs[0].rm;
		CHECK_EQ(regmutex_check(f, st->pick.bs, stderr), 0);
		if (st->acquires)    /* the checker is not vacuous: one base slot fewer fails */
			CHECK(regmutex_check(f, st->pick.bs - 1, NULL) > 0);
		CHECK_EQ(st->whole, 0);                 /* the flexible placement passed */
		got = code_of(m, f);
	}
	pass_report_free(&r);
	ir_free(m);
	return got;
}

static void golden(const char *src, int es, const char *want, int acq, int rel)
{
	RmStats st = {0};
	int rc = RF_EINPUT;                       /* run() leaves both on a parse failure */
	char *got = run(src, es, &st, &rc);
	CHECK_EQ(rc, RF_OK);
	if (!got) return;
	CHECK_STR(got, want);
	if (strcmp(got, want)) fprintf(stderr, "---- got:\n%s----\n", got);
	CHECK_EQ(st.acquires, acq);
	CHECK_EQ(st.releases, rel);
	free(got);
}

/* a loop whose released code waits for global loads is not acquired whole
   (rm_plan.c): the loads of the first three values, whose registers are in
   the base set, run released, so the warp holds no section while it waits
   for them; the acquire follows, the bound (%r10 in the acquired code) comes
   from its home %r1, and the release sits before the last additions, which
   need no extended register, with the bound moved back to %r7 */
TEST(regmutex_loop)
{
	golden(K_LOOP, 6,
	    "\tld.param.u64 %rd2, [p0];\n"
	    "\tld.param.u32 %r7, [p1];\n"
	    "\tmov.u32 %r0, %tid.x;\n"
	    "\tmul.wide.u32 %rd0, %r0, 4;\n"
	    "\tadd.s64 %rd4, %rd2, %rd0;\n"
	    "\tmov.u32 %r3, 0;\n"
	    "\tmov.f32 %r6, 0f00000000;\n"
	    "\tmov.b32 %r1, %r7;\n"
	    "$L_loop:\n"
	    "\tld.global.f32 %r0, [%rd4];\n"
	    "\tld.global.f32 %r2, [%rd4+4];\n"
	    "\tld.global.f32 %r7, [%rd4+8];\n"
	    "\trfsim.acquire;\n"
	    "\tmov.b32 %r10, %r1;\n"
	    "\tld.global.f32 %r8, [%rd4+12];\n"
	    "\tld.global.f32 %r9, [%rd4+16];\n"
	    "\tld.global.f32 %r11, [%rd4+20];\n"
	    "\tld.global.f32 %r12, [%rd4+24];\n"
	    "\tld.global.f32 %r1, [%rd4+28];\n"
	    "\tmul.f32 %r1, %r0, %r1;\n"
	    "\tmul.f32 %r0, %r2, %r12;\n"
	    "\tmul.f32 %r2, %r7, %r11;\n"
	    "\tmul.f32 %r7, %r8, %r9;\n"
	    "\tadd.f32 %r0, %r1, %r0;\n"
	    "\tadd.f32 %r1, %r2, %r7;\n"
	    "\tmov.b32 %r7, %r10;\n"
	    "\trfsim.release;\n"
	    "\tadd.f32 %r0, %r0, %r1;\n"
	    "\tadd.f32 %r6, %r6, %r0;\n"
	    "\tadd.s32 %r3, %r3, 1;\n"
	    "\tsetp.lt.u32 %p0, %r3, %r7;\n"
	    "\t@%p0 bra $__rfsim_rm0_0;\n"
	    "\tst.global.f32 [%rd4], %r6;\n"
	    "\tret;\n"
	    "$__rfsim_rm0_0:\n"
	    "\tmov.b32 %r1, %r7;\n"
	    "\tbra.uni $L_loop;\n",
	    1, 1);
}

/* a divergent branch with a high-pressure side: the stretch before the
   branch (tid and n copied back from their homes, the pointer formed) is
   one region; the branch is taken released; the side acquires and releases
   again before the reconvergence point, so the lanes that skip it wait
   there released and those that run it find the warp as their code
   assumes (section III: acquire and release work inside conditional code).
   The side's acquire comes before the load of %r4, an extended register
   live into the acquired code: after it, a move would wait for the load */
TEST(regmutex_conditional)
{
	golden(K_COND, 4,
	    "\tld.param.u64 %rd0, [p0];\n"
	    "\tld.param.u32 %r2, [p1];\n"
	    "\tmov.u32 %r3, %tid.x;\n"
	    "\trfsim.acquire;\n"
	    "\tmov.b32 %r4, %r2;\n"
	    "\tmov.b32 %r5, %r3;\n"
	    "\tmul.wide.u32 %rd2, %r5, 4;\n"
	    "\tadd.s64 %rd2, %rd0, %rd2;\n"
	    "\tmov.f32 %r0, 0f3F800000;\n"
	    "\tsetp.ge.u32 %p0, %r5, %r4;\n"
	    "\trfsim.release;\n"
	    "\t@%p0 bra $L_done;\n"
	    "\tld.global.f32 %r0, [%rd2];\n"
	    "\trfsim.acquire;\n"
	    "\tld.global.f32 %r4, [%rd2+4];\n"
	    "\tld.global.f32 %r5, [%rd2+8];\n"
	    "\tld.global.f32 %r6, [%rd2+12];\n"
	    "\tld.global.f32 %r7, [%rd2+16];\n"
	    "\tld.global.f32 %r1, [%rd2+20];\n"
	    "\tmul.f32 %r1, %r0, %r1;\n"
	    "\tmul.f32 %r0, %r4, %r7;\n"
	    "\tmul.f32 %r4, %r5, %r6;\n"
	    "\tadd.f32 %r0, %r1, %r0;\n"
	    "\tmov.b32 %r1, %r4;\n"
	    "\trfsim.release;\n"
	    "\tadd.f32 %r0, %r0, %r1;\n"
	    "$L_done:\n"
	    "\tst.global.f32 [%rd2], %r0;\n"
	    "\tret;\n",
	    2, 2);
}

/* hand-placed directives, modes consistent on every path, few registers:
   only the warp-level rule can object.  PTX has no rfsim.acquire (the
   parser refuses it), so `nanosleep.u32 1` stands for an acquire and
   `nanosleep.u32 2` for a release until the code is allocated */
#define K_DIR(BODY) HDR \
	".visible .entry dirs(.param .u64 p0)\n" \
	"{\n" \
	"\t.reg .pred %p<2>;\n" \
	"\t.reg .b32 %r<4>;\n" \
	"\t.reg .b64 %rd<2>;\n" \
	"\tld.param.u64 %rd0, [p0];\n" \
	"\tmov.u32 %r0, %tid.x;\n" \
	"\tsetp.lt.u32 %p0, %r0, 16;\n" \
	BODY \
	"\tst.global.u32 [%rd0], %r1;\n" \
	"\tret;\n" \
	"}\n"

static int check_hand(const char *src)
{
	Module *m = ptx_parse(src, strlen(src), "dirs.ptx");
	CHECK(m != NULL);
	if (!m) return -1;
	Config c;
	config_defaults(&c);
	CHECK_EQ(config_load(&c, "fermi-gtx480"), RF_OK);
	CHECK_EQ(config_set(&c, "compiler.schedule", "none"), RF_OK);
	PassReport r;
	CHECK_EQ(pass_run_report(m, &c, &r), RF_OK);
	Func *f = &m->funcs[0];
	for (int32_t i = 0; i < f->nins; i++)
		if (f->ins[i].op == OP_NANOSLEEP) {
			f->ins[i].op = f->ins[i].o[0].imm == 1 ? OP_RF_ACQUIRE : OP_RF_RELEASE;
			f->ins[i].ns = 0;
		}
	int bad = regmutex_check(f, 8, NULL);
	pass_report_free(&r);
	ir_free(m);
	return bad;
}

TEST(regmutex_check_divergent_release)
{
	/* taken released, the side acquires and releases inside: fine */
	CHECK_EQ(check_hand(K_DIR(
	    "\t@%p0 bra $L_side;\n"
	    "\tadd.u32 %r1, %r0, 1;\n"
	    "\tbra.uni $L_join;\n"
	    "$L_side:\n"
	    "\tnanosleep.u32 1;\n"
	    "\tadd.u32 %r1, %r0, 2;\n"
	    "\tnanosleep.u32 2;\n"
	    "$L_join:\n")), 0);
	/* taken acquired and one side releases: the lanes of the other side
	   wait holding the extended set the release drops (the branch), and
	   the lanes that arrive at the reconvergence point first wait there
	   acquired (its two edges) */
	CHECK_EQ(check_hand(K_DIR(
	    "\tnanosleep.u32 1;\n"
	    "\t@%p0 bra $L_side;\n"
	    "\tnanosleep.u32 2;\n"
	    "\tadd.u32 %r1, %r0, 1;\n"
	    "\tnanosleep.u32 1;\n"
	    "\tbra.uni $L_join;\n"
	    "$L_side:\n"
	    "\tadd.u32 %r1, %r0, 2;\n"
	    "$L_join:\n"
	    "\tnanosleep.u32 2;\n")), 3);
	/* taken released, but both sides reach the reconvergence point
	   acquired while one of them released on the way: the lanes that
	   arrive first wait there acquired */
	CHECK_EQ(check_hand(K_DIR(
	    "\t@%p0 bra $L_side;\n"
	    "\tnanosleep.u32 1;\n"
	    "\tnanosleep.u32 2;\n"
	    "\tadd.u32 %r1, %r0, 1;\n"
	    "\tnanosleep.u32 1;\n"
	    "\tbra.uni $L_join;\n"
	    "$L_side:\n"
	    "\tnanosleep.u32 1;\n"
	    "\tadd.u32 %r1, %r0, 2;\n"
	    "$L_join:\n"
	    "\tnanosleep.u32 2;\n")), 2);
}

/* CUB's DeviceReduceSingleTileKernel in small: the loops' exits, acquired,
   and the branch around the loops reconverge at $L_join.  The placement
   left the branch released and, since it was, released on every edge into
   $L_join -- inside the loop exits' regions, taken acquired, so that lanes
   leaving loop A early lost their extended set to the lanes leaving later
   (rm_check: "divergent branch taken acquired over an acquire or
   release", an internal error).  Now $L_join's first instruction is
   acquired, which closes the branch around the loops: one acquire before
   it (the counter and the sum moving from their homes %r0, %r1 to %r8,
   %r9), one release after the lanes have met (the sum moving to %r2) */
TEST(regmutex_nested_reconvergence)
{
	golden(K_NEST, 8,
	    "\tld.param.u64 %rd6, [p0];\n"
	    "\tld.param.u32 %r3, [p1];\n"
	    "\tmov.u32 %r4, %tid.x;\n"
	    "\tmov.u32 %r5, sh;\n"
	    "\tmov.u32 %r0, 0;\n"
	    "\tmov.f32 %r1, 0f00000000;\n"
	    "\tsetp.lt.u32 %p0, %r4, 16;\n"
	    "\trfsim.acquire;\n"
	    "\tmov.b32 %r8, %r0;\n"
	    "\tmov.b32 %r9, %r1;\n"
	    "\t@%p0 bra $L_b;\n"
	    "$L_a:\n"
	    "\tld.shared.f32 %r0, [%r5];\n"
	    "\tld.shared.f32 %r2, [%r5+4];\n"
	    "\tld.shared.f32 %r10, [%r5+8];\n"
	    "\tld.shared.f32 %r11, [%r5+12];\n"
	    "\tld.shared.f32 %r12, [%r5+16];\n"
	    "\tld.shared.f32 %r13, [%r5+20];\n"
	    "\tld.shared.f32 %r14, [%r5+24];\n"
	    "\tld.shared.f32 %r1, [%r5+28];\n"
	    "\tmul.f32 %r1, %r0, %r1;\n"
	    "\tmul.f32 %r0, %r2, %r14;\n"
	    "\tmul.f32 %r2, %r10, %r13;\n"
	    "\tmul.f32 %r10, %r11, %r12;\n"
	    "\tadd.f32 %r0, %r1, %r0;\n"
	    "\tadd.f32 %r1, %r2, %r10;\n"
	    "\tadd.f32 %r0, %r0, %r1;\n"
	    "\tadd.f32 %r9, %r9, %r0;\n"
	    "\tsetp.gt.f32 %p0, %r9, 0f42C80000;\n"
	    "\t@%p0 bra $L_join;\n"
	    "\tadd.s32 %r8, %r8, 1;\n"
	    "\tsetp.ge.u32 %p0, %r8, %r3;\n"
	    "\t@%p0 bra $L_join;\n"
	    "\tbra.uni $L_a;\n"
	    "$L_b:\n"
	    "\tld.shared.f32 %r0, [%r5+32];\n"
	    "\tld.shared.f32 %r2, [%r5+36];\n"
	    "\tld.shared.f32 %r10, [%r5+40];\n"
	    "\tld.shared.f32 %r11, [%r5+44];\n"
	    "\tld.shared.f32 %r12, [%r5+48];\n"
	    "\tld.shared.f32 %r13, [%r5+52];\n"
	    "\tld.shared.f32 %r14, [%r5+56];\n"
	    "\tld.shared.f32 %r1, [%r5+60];\n"
	    "\tmul.f32 %r1, %r0, %r1;\n"
	    "\tmul.f32 %r0, %r2, %r14;\n"
	    "\tmul.f32 %r2, %r10, %r13;\n"
	    "\tmul.f32 %r10, %r11, %r12;\n"
	    "\tadd.f32 %r0, %r1, %r0;\n"
	    "\tadd.f32 %r1, %r2, %r10;\n"
	    "\tadd.f32 %r0, %r0, %r1;\n"
	    "\tadd.f32 %r9, %r9, %r0;\n"
	    "\tadd.s32 %r8, %r8, 1;\n"
	    "\tsetp.lt.u32 %p0, %r8, %r3;\n"
	    "\t@%p0 bra $L_b;\n"
	    "$L_join:\n"
	    "\tmul.wide.u32 %rd0, %r4, 4;\n"
	    "\tmov.b32 %r2, %r9;\n"
	    "\trfsim.release;\n"
	    "\tadd.s64 %rd0, %rd6, %rd0;\n"
	    "\tst.global.f32 [%rd0], %r2;\n"
	    "\tret;\n",
	    1, 1);
}

/* src parsed and allocated on fermi-gtx480 with the pass off; *pk the
   |Bs| of |Es| = es */
static Module *allocated(const char *src, int es, RmPick *pk)
{
	Module *m = ptx_parse(src, strlen(src), "test.ptx");
	CHECK(m != NULL);
	if (!m) return NULL;
	Config c;
	config_defaults(&c);
	CHECK_EQ(config_load(&c, "fermi-gtx480"), RF_OK);
	/* the goldens' order and count: under latency the count adds registers
	   the code never names (R1, ptxas's two more), and these small kernels'
	   extended sets would hold none of the code's */
	CHECK_EQ(config_set(&c, "compiler.schedule", "pressure"), RF_OK);
	CHECK_EQ(pass_run(m, &c), RF_OK);
	regmutex_pick(&c, m->funcs[0].regs_per_thread, 256, 0, 0, es, 0, pk);
	return m;
}

/* src's kernel placed by regmutex_apply at the |Bs| of |Es| = es (whole:
   the fallback alone); its code, or NULL if refused */
static char *placed(const char *src, int es, int whole, RmStats *st)
{
	RmPick pk;
	Module *m = allocated(src, es, &pk);
	if (!m) return NULL;
	memset(st, 0, sizeof *st);
	char *got = NULL;
	if (regmutex_apply(m, 0, pk.bs, whole, st) == RF_OK) {
		CHECK_EQ(regmutex_check(&m->funcs[0], pk.bs, stderr), 0);
		got = code_of(m, &m->funcs[0]);
	}
	ir_free(m);
	return got;
}

TEST(regmutex_whole_fallback)
{
	RmStats st;
	const char *want =
	    "\tld.param.u64 %rd0, [p0];\n"
	    "\tld.param.u32 %r2, [p1];\n"
	    "\tmov.u32 %r3, %tid.x;\n"
	    "\trfsim.acquire;\n"
	    "\tmov.b32 %r4, %r2;\n"
	    "\tmov.b32 %r5, %r3;\n"
	    "\tmul.wide.u32 %rd2, %r5, 4;\n"
	    "\tadd.s64 %rd2, %rd0, %rd2;\n"
	    "\tmov.f32 %r0, 0f3F800000;\n"
	    "\tsetp.ge.u32 %p0, %r5, %r4;\n"
	    "\t@%p0 bra $L_done;\n"
	    "\tld.global.f32 %r0, [%rd2];\n"
	    "\tld.global.f32 %r4, [%rd2+4];\n"
	    "\tld.global.f32 %r5, [%rd2+8];\n"
	    "\tld.global.f32 %r6, [%rd2+12];\n"
	    "\tld.global.f32 %r7, [%rd2+16];\n"
	    "\tld.global.f32 %r1, [%rd2+20];\n"
	    "\tmul.f32 %r1, %r0, %r1;\n"
	    "\tmul.f32 %r0, %r4, %r7;\n"
	    "\tmul.f32 %r4, %r5, %r6;\n"
	    "\tadd.f32 %r0, %r1, %r0;\n"
	    "\tadd.f32 %r0, %r0, %r4;\n"
	    "$L_done:\n"
	    "\tst.global.f32 [%rd2], %r0;\n"
	    "\trfsim.release;\n"
	    "\tret;\n";
	char *got = placed(K_COND, 4, 1, &st);
	CHECK_STR(got, want);
	if (got && strcmp(got, want)) fprintf(stderr, "---- got:\n%s----\n", got);
	CHECK_EQ(st.whole, 1);
	CHECK_EQ(st.acquires, 1);
	CHECK_EQ(st.releases, 1);
	free(got);
	const char *const ks[] = {K_LOOP, K_COND, K_TWO, K_BAR, K_NEST};
	const int es[] = {6, 4, 4, 2, 4};
	for (int k = 0; k < 5; k++) {
		got = placed(ks[k], es[k], 1, &st);
		CHECK(got != NULL);
		CHECK_EQ(st.whole, 1);
		CHECK(st.acquires >= 1 && st.releases >= 1);
		free(got);
	}
}

/* rm_save / rm_undo: a placement undone leaves the module as it was, and
   placing again gives the same code */
TEST(regmutex_undo)
{
	const char *const ks[] = {K_LOOP, K_COND, K_TWO, K_BAR, K_NEST};
	const int es[] = {6, 4, 4, 2, 4};
	for (int k = 0; k < 5; k++) {
		RmPick pk;
		RmStats st = {0};
		RmSave save;
		Module *m = allocated(ks[k], es[k], &pk);
		if (!m) continue;
		Func *f = &m->funcs[0];
		char *before = ptx_print_str(m, NULL);
		rm_save(m, f, &save);
		CHECK_EQ(regmutex_apply(m, 0, pk.bs, 0, &st), RF_OK);
		CHECK(st.acquires >= 1);
		char *first = code_of(m, f);
		rm_undo(m, f, &save);
		char *after = ptx_print_str(m, NULL);
		CHECK_STR(after, before);
		CHECK_EQ(regmutex_apply(m, 0, pk.bs, 0, &st), RF_OK);
		char *again = code_of(m, f);
		CHECK_STR(again, first);
		rm_save_free(&save);
		free(before), free(after), free(first), free(again);
		ir_free(m);
	}
}

/* two regions; tid (%r1 at base, %r7 inside) and the pointer (%rd2 / %rd4)
   move out to the extended set and back in around each */
TEST(regmutex_two_regions)
{
	golden(K_TWO, 4,
	    "\tld.param.u64 %rd2, [p0];\n"
	    "\tmov.u32 %r1, %tid.x;\n"
	    "\tld.global.u32 %r0, [%rd2];\n"
	    "\trfsim.acquire;\n"
	    "\tmov.b32 %r7, %r1;\n"
	    "\tmov.b64 %rd4, %rd2;\n"
	    "\tld.global.u32 %r1, [%rd4+4];\n"
	    "\tld.global.u32 %r2, [%rd4+8];\n"
	    "\tld.global.u32 %r3, [%rd4+12];\n"
	    "\tld.global.u32 %r6, [%rd4+16];\n"
	    "\tadd.s32 %r0, %r0, %r1;\n"
	    "\tadd.s32 %r1, %r2, %r3;\n"
	    "\tadd.s32 %r0, %r0, %r1;\n"
	    "\tadd.s32 %r0, %r0, %r6;\n"
	    "\tmov.b32 %r1, %r7;\n"
	    "\tmov.b64 %rd2, %rd4;\n"
	    "\trfsim.release;\n"
	    "\tst.global.u32 [%rd2], %r0;\n"
	    "\tadd.s32 %r0, %r1, 7;\n"
	    "\tst.global.u32 [%rd2+4], %r0;\n"
	    "\tld.global.u32 %r0, [%rd2+20];\n"
	    "\trfsim.acquire;\n"
	    "\tmov.b32 %r7, %r1;\n"
	    "\tmov.b64 %rd4, %rd2;\n"
	    "\tld.global.u32 %r1, [%rd4+24];\n"
	    "\tld.global.u32 %r2, [%rd4+28];\n"
	    "\tld.global.u32 %r3, [%rd4+32];\n"
	    "\tld.global.u32 %r6, [%rd4+36];\n"
	    "\tadd.s32 %r0, %r0, %r1;\n"
	    "\tadd.s32 %r1, %r2, %r3;\n"
	    "\tadd.s32 %r0, %r0, %r1;\n"
	    "\tadd.s32 %r0, %r0, %r6;\n"
	    "\tmov.b32 %r1, %r7;\n"
	    "\tmov.b64 %rd2, %rd4;\n"
	    "\trfsim.release;\n"
	    "\tadd.s32 %r0, %r0, %r1;\n"
	    "\tst.global.u32 [%rd2+8], %r0;\n"
	    "\tret;\n",
	    2, 2);
}

/* the barrier stays released: the region starts after it, and the value in
   the extended slot R8 lives in R2 before the region, R1 after it */
TEST(regmutex_barrier)
{
	golden(K_BAR, 2,
	    "\tld.param.u64 %rd4, [p0];\n"
	    "\tld.global.u32 %r0, [%rd4];\n"
	    "\tld.global.u32 %r1, [%rd4+4];\n"
	    "\tld.global.u32 %r2, [%rd4+8];\n"
	    "\tld.global.u32 %r7, [%rd4+12];\n"
	    "\tld.global.u32 %r6, [%rd4+16];\n"
	    "\tbar.sync 0;\n"
	    "\tld.global.u32 %r3, [%rd4+20];\n"
	    "\trfsim.acquire;\n"
	    "\tmov.b32 %r8, %r2;\n"
	    "\tld.global.u32 %r2, [%rd4+24];\n"
	    "\tadd.s32 %r0, %r0, %r1;\n"
	    "\tmov.b32 %r1, %r8;\n"
	    "\trfsim.release;\n"
	    "\tadd.s32 %r0, %r0, %r1;\n"
	    "\tadd.s32 %r0, %r0, %r7;\n"
	    "\tadd.s32 %r0, %r0, %r6;\n"
	    "\tadd.s32 %r0, %r0, %r3;\n"
	    "\tadd.s32 %r0, %r0, %r2;\n"
	    "\tst.global.u32 [%rd4], %r0;\n"
	    "\tret;\n",
	    1, 1);
	/* |Es| 6: |Bs| 4 < the 7 live at the barrier.  At load the kernel is
	   left as it is, the refusal in its why, to be decided at its launch
	   (the module's other kernels stay usable); the launch's compile refuses it */
	Config c;
	config_defaults(&c);
	CHECK_EQ(config_load(&c, "fermi-gtx480"), RF_OK);
	CHECK_EQ(config_set(&c, "regmutex.enable", "1"), RF_OK);
	CHECK_EQ(config_set(&c, "regmutex.es", "6"), RF_OK);
	Module *m = ptx_parse(K_BAR, strlen(K_BAR), "test.ptx");
	CHECK(m != NULL);
	if (!m) return;
	PassReport r;
	CHECK_EQ(pass_run_report(m, &c, &r), RF_OK);
	CHECK_EQ(r.funcs[0].rm.pick.es, 0);
	CHECK_CONTAINS(r.funcs[0].rm.pick.why, "deadlock rule 2");
	CHECK_EQ(m->funcs[0].rm_threads, -1);
	pass_report_free(&r);
	ir_free(m);
	m = ptx_parse(K_BAR, strlen(K_BAR), "test.ptx");
	CHECK(m != NULL);
	if (!m) return;
	m->launch_threads = 256, m->launch_func = -1;
	CHECK_EQ(pass_run(m, &c), RF_EINPUT);
	CHECK_CONTAINS(err_msg(), "deadlock rule 2");
	ir_free(m);
}

static Config fermi(void)
{
	Config c;
	config_defaults(&c);
	CHECK_EQ(config_load(&c, "fermi-gtx480"), RF_OK);
	return c;
}

/* section III-A2's example: 24 registers, 48 warps of a 32K file */
TEST(regmutex_pick_paper)
{
	Config c = fermi();
	RmPick p;
	int32_t w;
	CHECK_EQ(regmutex_sections(&c, 256, 0, 20, 4, 0, &w), 16);
	CHECK_EQ(w, 48);
	CHECK_EQ(regmutex_sections(&c, 256, 0, 18, 6, 0, &w), 26);
	CHECK_EQ(regmutex_sections(&c, 256, 0, 16, 8, 0, &w), 32);
	regmutex_pick(&c, 24, 256, 0, 0, 0, 0, &p);
	CHECK_EQ(p.es, 6);
	CHECK_EQ(p.bs, 18);
	CHECK_EQ(p.warps_base, 40);
	CHECK_EQ(p.warps_rm, 48);
	CHECK_EQ(p.sections, 26);
	CHECK(p.why == NULL);
	/* rule 2 leaves only 4 (48 warps, 16 sections: not more than half) and 2
	   (40 warps, the baseline's): no extended set */
	regmutex_pick(&c, 24, 256, 0, 19, 0, 0, &p);
	CHECK_EQ(p.es, 0);
	CHECK_STR(p.why, "no candidate raises occupancy with a pool for more than half the warps");
	/* tpacf's kernel: 8 gives the highest occupancy (28 warps) but 2 sections;
	   the next level down, 24 warps, has 16 sections with 4 */
	regmutex_pick(&c, 44, 128, 1536, 0, 0, 0, &p);
	CHECK_EQ(p.warps_base, 20);
	CHECK_EQ(p.es, 4);
	CHECK_EQ(p.warps_rm, 24);
	CHECK_EQ(p.sections, 16);
	CHECK_EQ(regmutex_sections(&c, 128, 1536, 36, 8, 0, &w), 2);
	CHECK_EQ(w, 28);
	regmutex_pick(&c, 24, 256, 0, 23, 0, 0, &p);
	CHECK_EQ(p.es, 0);
	regmutex_pick(&c, 16, 256, 0, 0, 0, 0, &p);    /* threads limit it, not registers */
	CHECK_EQ(p.es, 0);
	CHECK_STR(p.why, "occupancy not register-limited");
	regmutex_pick(&c, 24, 256, 0, 0, 10, 0, &p);   /* regmutex.es overrides */
	CHECK_EQ(p.es, 10);
	CHECK_EQ(p.bs, 14);
	regmutex_pick(&c, 23, 256, 0, 0, 0, 0, &p);    /* counted as allocated: 24 */
	CHECK_EQ(p.es, 6);
	CHECK_EQ(p.bs, 18);
}

/* section III-B: 48 + 48 + 48 * 6 bits; paired warps, Nw / 2 */
TEST(regmutex_storage)
{
	Config c = fermi();
	CHECK_EQ(regmutex_storage_bits(&c, 0), 384);
	CHECK_EQ(regmutex_storage_bits(&c, 1), 24);
	CHECK_EQ(config_set(&c, "sm.max_warps", "64"), RF_OK);
	CHECK_EQ(regmutex_storage_bits(&c, 0), 64 + 64 + 64 * 6);
}
