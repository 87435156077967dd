/*
 * test_regshare.c -- register sharing's compile-time half
 * (src/analysis/regshare.c; Jatala et al., HPDC 2016).
 *
 * Arithmetic: the CTAs per SM of §4.1 against every entry of the paper's
 * Table 5 (8 register-limited kernels of Table 2 at 0-90% sharing on the
 * Table 1 SM, which is rfsim's default Fermi config), the worked example
 * of §4 (Figure 3), and the 273 bits of §6; each case says its arithmetic.
 *
 * Reordering: a golden renaming of a small kernel (its allocation, the
 * permutation worked out by hand from first uses in RPO, and the figure of
 * merit before and after), and a property test over every function of
 * every .ptx file of the repository: the plan is a bijection on
 * R0..R(nphys-1) that keeps every pair and quad the code names aligned
 * and in order, and the applied renaming changes exactly the general
 * register operands, each to perm[old slot].  That the renamed code still
 * computes the same results is tests/test_regshare_compiler.py's job.
 */
#include "unit.h"

#include <stdlib.h>

#include "analysis/occupancy.h"
#include "analysis/pass.h"
#include "analysis/regalloc.h"
#include "analysis/regshare.h"
#include "base/base.h"
#include "base/config.h"
#include "tfunc.h"

/* ---- launch arithmetic --------------------------------------------------------------- */

static RsLaunch launch(const Config *c, int32_t threads, int32_t regs, double t)
{
	Occupancy o;
	RsLaunch l;
	occupancy_compute(c, threads, regs, 0, &o);
	regshare_launch(c, &o, t, &l);
	return l;
}

/* Table 2 (block size, registers per thread) and Table 5 (resident blocks at
   0, 10, 30, 50, 70, 90% sharing, i.e. t = 1, 0.9, 0.7, 0.5, 0.3, 0.1) */
static const struct {
	const char *app;
	int32_t threads, regs, ctas[6];
} table5[] = {
	{"backprop", 256, 24, {5, 5, 5, 5, 6, 6}},
	{"b+tree",   508, 24, {2, 2, 2, 3, 3, 3}},
	{"hotspot",  256, 36, {3, 3, 3, 4, 4, 6}},
	{"LIB",      192, 36, {4, 4, 5, 5, 6, 8}},
	{"MUM",      256, 28, {4, 4, 4, 5, 5, 6}},
	{"mri-q",    256, 24, {5, 5, 5, 5, 6, 6}},
	{"sgemm",    128, 48, {5, 5, 5, 5, 6, 8}},
	{"stencil",  512, 28, {2, 2, 2, 2, 2, 3}},
};
static const double table5_t[6] = {1.0, 0.9, 0.7, 0.5, 0.3, 0.1};

TEST(regshare_table5)
{
	Config c;
	config_defaults(&c);        /* Table 1: 32768 registers, 1536 threads, 8 CTAs */
	for (size_t a = 0; a < sizeof table5 / sizeof *table5; a++)
		for (int k = 0; k < 6; k++) {
			RsLaunch l = launch(&c, table5[a].threads, table5[a].regs, table5_t[k]);
			if (l.ctas != table5[a].ctas[k])
				fprintf(stderr, "%s at t = %.1f\n", table5[a].app, table5_t[k]);
			CHECK_EQ(l.ctas, table5[a].ctas[k]);
			CHECK_EQ(l.base_ctas, table5[a].ctas[0]);    /* 0% sharing: the baseline */
			CHECK_EQ(l.unshared + l.pairs, l.g < l.cap ? l.g : l.cap);   /* (1) */
			CHECK(l.unshared * l.regs_per_cta + l.pairs * l.regs_per_cta * (1 + l.t) <=
			      c.sm_registers + 1e-6);                                      /* (2) */
		}
}

/* §3 and §4.1 with hotspot: 36 registers x 256 threads = 9216 per block; g =
   floor(32768 / 9216) = 3, 5120 left.  t = 0.1: (4) gives M = 3 + floor(5120 /
   921.6) = 3 + 5 = 8, S <= g = 3, so 6 CTAs: the thread limit (1536 / 256) */
TEST(regshare_hotspot)
{
	Config c;
	config_defaults(&c);
	RsLaunch l = launch(&c, 256, 36, 0.1);
	CHECK_EQ(l.regs_per_cta, 9216);
	CHECK_EQ(l.regs_per_warp, 1152);
	CHECK_EQ(l.g, 3);
	CHECK_EQ(l.m_eq4, 8);
	CHECK_EQ(l.cap, 6);
	CHECK_EQ(l.pairs, 3);
	CHECK_EQ(l.unshared, 0);
	CHECK_EQ(l.ctas, 6);
	CHECK_EQ(l.base_ctas, 3);
	CHECK_EQ(l.unshared_regs, 3);           /* floor(36 * 0.1): R0..R2 */
	CHECK_EQ(l.warp_unshared, 96);
	CHECK_EQ(l.warp_shared, 1152 - 96);
	/* t = 0.5: floor(5120 / 4608) = 1 pair, 2 unshared: 4 CTAs */
	l = launch(&c, 256, 36, 0.5);
	CHECK_EQ(l.pairs, 1);
	CHECK_EQ(l.unshared, 2);
	CHECK_EQ(l.ctas, 4);
	CHECK_EQ(l.unshared_regs, 18);
}

/* §4, Figure 3: 10 warps of 1K registers (320 threads x 32 registers), 35K
   registers: 3 blocks unshared, 5K wasted.  t = 0.5: a pair takes 15K, each
   warp pair 1.5K: 0.5K unshared per warp and 0.5K shared; S = 5K / 5K = 1,
   U = 2, 4 blocks (the thread limit, 1536 / 320, is 4 as well) */
TEST(regshare_figure3)
{
	Config c;
	config_defaults(&c);
	c.sm_registers = 35 * 1024;
	RsLaunch l = launch(&c, 320, 32, 0.5);
	CHECK_EQ(l.regs_per_cta, 10 * 1024);
	CHECK_EQ(l.g, 3);
	CHECK_EQ(l.pairs, 1);
	CHECK_EQ(l.unshared, 2);
	CHECK_EQ(l.ctas, 4);
	CHECK_EQ(l.warp_unshared, 512);
	CHECK_EQ(l.warp_shared, 512);
}

/* not limited by registers: nothing is shared (Figure 15's Set-2) */
TEST(regshare_not_register_limited)
{
	Config c;
	config_defaults(&c);
	RsLaunch l = launch(&c, 256, 12, 0.1);  /* backprop layerforward: 6 by threads */
	CHECK_EQ(l.pairs, 0);
	CHECK_EQ(l.ctas, 6);
	CHECK_EQ(l.unshared, 6);
	l = launch(&c, 512, 28, 1.0);           /* t = 1: a pair costs two blocks */
	CHECK_EQ(l.pairs, 0);
	CHECK_EQ(l.ctas, 2);
	l = launch(&c, 128, 0, 0.1);            /* no registers: the CTA slots decide */
	CHECK_EQ(l.pairs, 0);
	CHECK_EQ(l.ctas, 8);
}

TEST(regshare_unshared_regs)
{
	CHECK_EQ(regshare_unshared_regs(36, 0.1), 3);
	CHECK_EQ(regshare_unshared_regs(10, 0.3), 3);    /* 0.3 * 10 = 3.0000000000000004 */
	CHECK_EQ(regshare_unshared_regs(100, 0.29), 29); /* 0.29 * 100 = 28.999999999999996 */
	CHECK_EQ(regshare_unshared_regs(9, 0.1), 0);
	CHECK_EQ(regshare_unshared_regs(63, 1.0), 63);
	CHECK_EQ(regshare_unshared_regs(0, 0.5), 0);
}

/* §6: 1 + T ceil(log2(T + 1)) + 2W + floor(W / 2) ceil(log2 W) */
TEST(regshare_hw_bits)
{
	CHECK_EQ(regshare_hw_bits(8, 48), 273);      /* Table 1: 1 + 8*4 + 96 + 24*6 */
	CHECK_EQ(regshare_hw_bits(16, 64), 401);     /* Maxwell: 1 + 16*5 + 128 + 32*6 */
	CHECK_EQ(regshare_hw_bits(32, 64), 513);     /* Hopper: 1 + 32*6 + 128 + 32*6 */
	CHECK_EQ(regshare_hw_bits(1, 2), 7);         /* 1 + 1*1 + 4 + 1*1 */
}

/* ---- reordering: golden ------------------------------------------------------------ */

#define HDR ".version 7.0\n.target sm_80\n.address_size 64\n"

/* two pointers and a bound loaded first, used late; a loop in between */
static const char *const K_RS = HDR
	".visible .entry rs(.param .u64 rs_param_0, .param .u64 rs_param_1, .param .u32 rs_param_2)\n"
	"{\n"
	"	.reg .pred %p<3>;\n"
	"	.reg .b32 %r<12>;\n"
	"	.reg .b64 %rd<8>;\n"
	"	ld.param.u64 %rd1, [rs_param_0];\n"
	"	ld.param.u64 %rd2, [rs_param_1];\n"
	"	ld.param.u32 %r1, [rs_param_2];\n"
	"	mov.u32 %r2, %tid.x;\n"
	"	mov.u32 %r3, 0;\n"
	"	mov.u32 %r4, 0;\n"
	"$L_loop:\n"
	"	mul.wide.u32 %rd3, %r4, 4;\n"
	"	add.s64 %rd4, %rd1, %rd3;\n"
	"	ld.global.u32 %r5, [%rd4];\n"
	"	add.s32 %r6, %r5, %r2;\n"
	"	add.s32 %r3, %r3, %r6;\n"
	"	add.s32 %r4, %r4, 1;\n"
	"	setp.lt.u32 %p1, %r4, %r1;\n"
	"	@%p1 bra $L_loop;\n"
	"	mul.wide.u32 %rd5, %r2, 4;\n"
	"	add.s64 %rd6, %rd2, %rd5;\n"
	"	st.global.u32 [%rd6], %r3;\n"
	"	ret;\n"
	"}\n";

/* The allocator gives %r4 R0, %r3 R1, %r2 R2, %r1 R3, %r5 %r6 R4, %rd1
   R6:R7, %rd2 R8:R9, %rd3 %rd4 R4:R5, %rd5 %rd6 R2:R3.  First uses (RPO
   positions): R6:R7 0, R8:R9 1, R2:R3 2 (R3 at 2), R1 4, R0 5, R4:R5 6.
   In that order, at the lowest aligned place: R6:R7 -> R0:R1, R8:R9 ->
   R2:R3, R2:R3 -> R4:R5, R1 -> R6, R0 -> R7, R4:R5 -> R8:R9. */
static const int32_t k_rs_perm[10] = {7, 6, 4, 5, 8, 9, 0, 1, 2, 3};

static const char *const K_RS_RENAMED =
	"	ld.param.u64 %rd0, [rs_param_0];\n"
	"	ld.param.u64 %rd2, [rs_param_1];\n"
	"	ld.param.u32 %r5, [rs_param_2];\n"
	"	mov.u32 %r4, %tid.x;\n"
	"	mov.u32 %r6, 0;\n"
	"	mov.u32 %r7, 0;\n"
	"$L_loop:\n"
	"	mul.wide.u32 %rd8, %r7, 4;\n"
	"	add.s64 %rd8, %rd0, %rd8;\n"
	"	ld.global.u32 %r8, [%rd8];\n"
	"	add.s32 %r8, %r8, %r4;\n"
	"	add.s32 %r6, %r6, %r8;\n"
	"	add.s32 %r7, %r7, 1;\n"
	"	setp.lt.u32 %p0, %r7, %r5;\n"
	"	@%p0 bra $L_loop;\n"
	"	mul.wide.u32 %rd4, %r4, 4;\n"
	"	add.s64 %rd4, %rd2, %rd4;\n"
	"	st.global.u32 [%rd4], %r6;\n"
	"	ret;\n";

TEST(regshare_golden_renaming)
{
	Config c;
	config_defaults(&c);
	CHECK_EQ(config_set(&c, "compiler.schedule", "pressure"), RF_OK);   /* the golden's order */
	Module *m = tf_parse(K_RS);
	CHECK_EQ(pass_run(m, &c), RF_OK);
	Func *f = &m->funcs[0];
	CHECK_EQ(f->nphys, 10);
	/* figure of merit as allocated: at t = 0.5 (R0..R4 unshared) the first
	   instruction already names R6:R7 */
	CHECK_EQ(regshare_first_touch(f, NULL, 5), 0);
	int32_t *perm = regshare_plan(f);
	for (int32_t p = 0; p < 10; p++) CHECK_EQ(perm[p], k_rs_perm[p]);
	/* read through the plan: R0:R1, R2:R3, then %r1 -> R5 at instruction 2 */
	CHECK_EQ(regshare_first_touch(f, perm, 5), 2);
	CHECK_EQ(regshare_first_touch(f, perm, 10), -1);
	free(perm);
	ir_free(m);
	/* the pass itself, in the pipeline */
	CHECK_EQ(config_set(&c, "regshare.enable", "1"), RF_OK);
	m = tf_parse(K_RS);
	PassReport r;
	CHECK_EQ(pass_run_report(m, &c, &r), RF_OK);
	f = &m->funcs[0];
	CHECK(r.funcs[0].rs_perm != NULL);
	for (int32_t p = 0; r.funcs[0].rs_perm && p < 10; p++)
		CHECK_EQ(r.funcs[0].rs_perm[p], k_rs_perm[p]);
	CHECK_EQ(regshare_first_touch(f, NULL, 5), 2);
	char *text = ptx_print_str(m, NULL);
	CHECK_CONTAINS(text, K_RS_RENAMED);
	free(text);
	pass_report_free(&r);
	ir_free(m);
	/* regshare.reorder = 0: the code stays as allocated */
	CHECK_EQ(config_set(&c, "regshare.reorder", "0"), RF_OK);
	m = tf_parse(K_RS);
	CHECK_EQ(pass_run_report(m, &c, &r), RF_OK);
	CHECK(r.funcs[0].rs_perm == NULL);
	CHECK_EQ(regshare_first_touch(&m->funcs[0], NULL, 5), 0);
	pass_report_free(&r);
	ir_free(m);
}

/* ---- reordering: every function of the corpus ------------------------------------------ */

static int slots_of(PtxType t)
{
	int s = ptxtype_size(t);
	return s == 16 ? 4 : s == 8 ? 2 : 1;
}

static int rs_funcs, rs_moved;

/* every register operand position of f's code, in one flat walk */
static int32_t collect(const Func *f, int32_t *out)
{
	int32_t n = 0;
	for (int32_t i = 0; i < f->nins; i++) {
		const Ins *in = &f->ins[i];
		for (int k = 0; k < in->nd + in->ns; k++) {
			const Operand *o = &in->o[k];
			if (o->kind == OPK_REG || (o->kind == OPK_ADDR && !(o->flags & OPDF_SYMBASE) &&
			                           o->reg >= 0))
				out[n++] = o->reg;
		}
	}
	for (int32_t v = 0; v < f->nvop; v++) {
		const Operand *o = &f->vops[v];
		if (o->kind == OPK_REG || (o->kind == OPK_ADDR && !(o->flags & OPDF_SYMBASE) &&
		                           o->reg >= 0))
			out[n++] = o->reg;
	}
	return n;
}

/* the plan is a bijection keeping each named pair/quad aligned and in order */
static void check_plan(const Func *f, const int32_t *perm, const int32_t *regs, int32_t nr,
                       const char *path)
{
	int32_t n = f->nphys;
	uint8_t *hit = xcalloc((size_t)n + 1, 1);
	int bad = 0;
	for (int32_t p = 0; p < n; p++) {
		bad |= perm[p] < 0 || perm[p] >= n || hit[perm[p]];
		if (perm[p] >= 0 && perm[p] < n) hit[perm[p]] = 1;
		rs_moved += perm[p] != p;
	}
	for (int32_t k = 0; k < nr; k++) {
		PtxType t = (PtxType)f->regtype[regs[k]];
		if (t == PT_PRED) continue;
		int32_t p = f->phys[regs[k]], w = slots_of(t);
		bad |= perm[p] % w != 0;
		for (int32_t i = 1; i < w; i++) bad |= perm[p + i] != perm[p] + i;
	}
	if (bad) fprintf(stderr, "%s: bad regshare plan\n", path);
	CHECK(!bad);
	free(hit);
}

static void rs_visit(const Module *cm, const Func *cf, const char *path)
{
	Module *m = (Module *)cm;
	int32_t fi = (int32_t)(cf - m->funcs);
	RaOpts o = {.cap = 63, .npred = 7};
	RaStats st;
	if (regalloc_func(m, fi, &o, &st) != RF_OK || !m->funcs[fi].phys) return;
	Func *f = &m->funcs[fi];
	size_t cap = (size_t)f->nins * INS_MAXOPD + (size_t)f->nvop + 1;
	int32_t *before = xmalloc(sizeof(int32_t) * cap), *after = xmalloc(sizeof(int32_t) * cap);
	int32_t nb = collect(f, before);
	int32_t *perm = regshare_plan(f);
	check_plan(f, perm, before, nb, path);
	regshare_apply(f, perm);
	int32_t na = collect(f, after);
	CHECK_EQ(na, nb);
	int bad = 0;
	for (int32_t k = 0; k < nb && k < na; k++) {
		PtxType t = (PtxType)f->regtype[before[k]];
		if (t == PT_PRED) bad |= after[k] != before[k];
		else bad |= f->regtype[after[k]] != t || f->phys[after[k]] != perm[f->phys[before[k]]];
	}
	if (bad) fprintf(stderr, "%s: renaming does not follow the plan\n", path);
	CHECK(!bad);
	rs_funcs++;
	free(perm), free(before), free(after);
}

TEST(regshare_corpus)
{
	rs_funcs = rs_moved = 0;
	tf_each_ptx(rs_visit);
	CHECK(rs_funcs > 50);
	CHECK(rs_moved > 0);
}
