/*
 * test_interval.c -- LTRF register-intervals (interval.c), strands
 * (strand.c) and PREFETCH insertion (prefetch.c).
 *
 * Golden tests write a function in the tiny assembly of tfunc.h and give
 * it an identity register allocation (rN is architected RN, 32-bit; r20
 * is a 64-bit pair R20:R21; p, the guard, is a predicate and not counted),
 * then compare ivl_dump() with the expected text; every one also passes
 * ivl_check() (and strand_check() for strands).  The corpus tests form
 * intervals and strands on every function of every PTX file in the
 * repository after real register allocation, at N = 16, 4 and 1, check
 * the invariants, and run the whole pipeline with insertion: one
 * rfsim.prefetch per subgraph, one register set per directive.
 */
#include "unit.h"

#include <stdlib.h>

#include "analysis/cfg.h"
#include "analysis/interval.h"
#include "analysis/pass.h"
#include "analysis/schedule.h"
#include "base/base.h"
#include "base/config.h"
#include "tfunc.h"

static TFunc tf;
static int32_t phys[TMAXINS];
static uint8_t rtype[TMAXINS];

static Func *build(const char *src)
{
	Func *f = tf_build(&tf, src);
	for (int32_t r = 0; r < f->nreg; r++) phys[r] = r, rtype[r] = PT_B32;
	rtype[0] = PT_PRED;
	if (f->nreg > 20) rtype[20] = PT_B64;
	f->phys = phys;
	f->regtype = rtype;
	f->nphys = f->nreg + 1;
	return f;
}

static void golden(const char *src, int kind, int32_t n, const char *want)
{
	Func *f = build(src);
	Cfg *c = cfg_build(f);
	Part *p = kind == PART_STRAND ? strand_form(f, c, n) : ivl_form(f, c, n);
	IvlWhy w;
	const char *why = ivl_check(f, p, &w);
	if (!why && kind == PART_STRAND) why = strand_check(f, p, &w);
	CHECK_STR(why ? why : "ok", "ok");
	char *got = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&got, &len);
	ivl_dump(p, out);
	fclose(out);
	CHECK_STR(got, want);
	if (strcmp(got, want)) fprintf(stderr, "---- got:\n%s----\n", got);
	free(got);
	ivl_free(p);
	cfg_free(c);
}

/* ---- golden tests ----------------------------------------------------------- */

/* straight line at N = 4: the block is cut wherever the next instruction
   would take the working set past 4 (Algorithm 1, lines 30-37) */
TEST(interval_straight_line_cuts)
{
	golden("add r1 = r2 r3\n"
	       "add r4 = r1 r5\n"
	       "add r6 = r4 r7\n"
	       "ret\n", PART_INTERVAL, 4,
	       "intervals N=4: 3 pieces, 3 intervals (pass 1: 3, rounds 1), cuts 2, wide 0\n"
	       "p0 b0 [0..0] I0 -> p1\n"
	       "p1 b0 [1..1] I1 -> p2\n"
	       "p2 b0 [2..3] I2 -> exit\n"
	       "I0 entry p0: p0 | 3 regs R1 R2 R3 | preds -\n"
	       "I1 entry p1: p1 | 3 regs R1 R4 R5 | preds I0\n"
	       "I2 entry p2: p2 | 3 regs R4 R6 R7 | preds I1\n");
}

/* a 64-bit pair counts 2: R20:R21 and R1, R2 fill N = 4 */
TEST(interval_pairs_count_two)
{
	golden("add r20 = r1 r2\n"
	       "add r3 = r1 r2\n"
	       "ret\n", PART_INTERVAL, 4,
	       "intervals N=4: 2 pieces, 2 intervals (pass 1: 2, rounds 1), cuts 1, wide 0\n"
	       "p0 b0 [0..0] I0 -> p1\n"
	       "p1 b0 [1..2] I1 -> exit\n"
	       "I0 entry p0: p0 | 4 regs R1 R2 R20 R21 | preds -\n"
	       "I1 entry p1: p1 | 3 regs R1 R2 R3 | preds I0\n");
}

/* if/else: both arms and the join have all predecessors inside */
TEST(interval_if_else)
{
	golden("add r1 = r2 r3\n"
	       "@p bra L1\n"
	       "add r1 = r1 r2\n"
	       "bra L2\n"
	       "L1: sub r1 = r1 r3\n"
	       "L2: ret\n", PART_INTERVAL, 4,
	       "intervals N=4: 4 pieces, 1 intervals (pass 1: 1, rounds 0), cuts 0, wide 0\n"
	       "p0 b0 [0..1] I0 -> p2 p1\n"
	       "p1 b1 [2..3] I0 -> p3\n"
	       "p2 b2 [4..4] I0 -> p3\n"
	       "p3 b3 [5..5] I0 -> exit\n"
	       "I0 entry p0: p0 p1 p2 p3 | 3 regs R1 R2 R3 | preds -\n");
}

/* a loop header starts an interval in pass 1 (its back edge); pass 2
   merges it into the entry interval, its sole predecessor */
TEST(interval_loop_merged)
{
	golden("add r1 = r2 r3\n"
	       "L1: add r1 = r1 r2\n"
	       "@p bra L1\n"
	       "ret\n", PART_INTERVAL, 4,
	       "intervals N=4: 3 pieces, 1 intervals (pass 1: 2, rounds 2), cuts 0, wide 0\n"
	       "p0 b0 [0..0] I0 -> p1\n"
	       "p1 b1 [1..2] I0 -> p1 p2\n"
	       "p2 b2 [3..3] I0 -> exit\n"
	       "I0 entry p0: p0 p1 p2 | 3 regs R1 R2 R3 | preds -\n");
}

/* Figure 6: nested loops.  Pass 1 gives A, the outer header, and the inner
   loop with the rest; each round of pass 2 folds one loop level */
static const char *const NESTED =
	"add r1 = r2 r3\n"           /* 0  A */
	"L1: add r4 = r1 r2\n"       /* 1  outer header */
	"L2: add r4 = r4 r1\n"       /* 2  inner header */
	"@p bra L2\n"                /* 3 */
	"@p bra L1\n"                /* 4  outer latch */
	"ret\n";                     /* 5 */

TEST(interval_nested_loops)
{
	golden(NESTED, PART_INTERVAL, 4,
	       "intervals N=4: 5 pieces, 1 intervals (pass 1: 3, rounds 3), cuts 0, wide 0\n"
	       "p0 b0 [0..0] I0 -> p1\n"
	       "p1 b1 [1..1] I0 -> p2\n"
	       "p2 b2 [2..3] I0 -> p2 p3\n"
	       "p3 b3 [4..4] I0 -> p1 p4\n"
	       "p4 b4 [5..5] I0 -> exit\n"
	       "I0 entry p0: p0 p1 p2 p3 p4 | 4 regs R1 R2 R3 R4 | preds -\n");
}

/* the same at N = 3: the entry (R1-R3) cannot take the loop nest (R1 R2 R4) */
TEST(interval_nested_loops_small_n)
{
	golden(NESTED, PART_INTERVAL, 3,
	       "intervals N=3: 5 pieces, 2 intervals (pass 1: 3, rounds 2), cuts 0, wide 0\n"
	       "p0 b0 [0..0] I0 -> p1\n"
	       "p1 b1 [1..1] I1 -> p2\n"
	       "p2 b2 [2..3] I1 -> p2 p3\n"
	       "p3 b3 [4..4] I1 -> p1 p4\n"
	       "p4 b4 [5..5] I1 -> exit\n"
	       "I0 entry p0: p0 | 3 regs R1 R2 R3 | preds -\n"
	       "I1 entry p1: p1 p2 p3 p4 | 3 regs R1 R2 R4 | preds I0\n");
}

/* a call is an interval of its own and is never merged */
TEST(interval_call_alone)
{
	golden("add r1 = r2 r3\n"
	       "call\n"
	       "add r4 = r1 r2\n"
	       "ret\n", PART_INTERVAL, 16,
	       "intervals N=16: 3 pieces, 3 intervals (pass 1: 3, rounds 1), cuts 2, wide 0\n"
	       "p0 b0 [0..0] I0 -> p1\n"
	       "p1 b0 [1..1] I1 -> p2\n"
	       "p2 b0 [2..3] I2 -> exit\n"
	       "I0 entry p0: p0 | 3 regs R1 R2 R3 | preds -\n"
	       "I1 entry p1 call: p1 | 0 regs | preds I0\n"
	       "I2 entry p2: p2 | 3 regs R1 R2 R4 | preds I1\n");
}

/* a loop body that does not fit is cut mid-block; the tail has the back
   edge, so the header's interval cannot take it back */
TEST(interval_loop_block_split)
{
	golden("L1: add r1 = r2 r3\n"
	       "add r4 = r5 r6\n"
	       "@p bra L1\n"
	       "ret\n", PART_INTERVAL, 4,
	       "intervals N=4: 3 pieces, 2 intervals (pass 1: 2, rounds 1), cuts 1, wide 0\n"
	       "p0 b0 [0..0] I0 -> p1\n"
	       "p1 b0 [1..2] I1 -> p0 p2\n"
	       "p2 b1 [3..3] I1 -> exit\n"
	       "I0 entry p0: p0 | 3 regs R1 R2 R3 | preds I1\n"
	       "I1 entry p1: p1 p2 | 3 regs R4 R5 R6 | preds I0\n");
}

/* irreducible: a two-entry loop; each entry heads its own interval and
   neither merges, but nothing crashes and every entry is single */
TEST(interval_irreducible)
{
	golden("add r1 = r2 r3\n"
	       "@p bra L2\n"
	       "L1: add r1 = r1 r2\n"
	       "L2: add r1 = r1 r3\n"
	       "@p bra L1\n"
	       "ret\n", PART_INTERVAL, 4,
	       "intervals N=4: 4 pieces, 3 intervals (pass 1: 3, rounds 1), cuts 0, wide 0\n"
	       "p0 b0 [0..1] I0 -> p2 p1\n"
	       "p1 b1 [2..2] I1 -> p2\n"
	       "p2 b2 [3..4] I2 -> p1 p3\n"
	       "p3 b3 [5..5] I2 -> exit\n"
	       "I0 entry p0: p0 | 3 regs R1 R2 R3 | preds -\n"
	       "I1 entry p1: p1 | 2 regs R1 R2 | preds I0 I2\n"
	       "I2 entry p2: p2 p3 | 2 regs R1 R3 | preds I0 I1\n");
}

/* one instruction naming more than N gets an interval to itself */
TEST(interval_wide_instruction)
{
	golden("add r1 = r2 r3\n"
	       "ret\n", PART_INTERVAL, 2,
	       "intervals N=2: 2 pieces, 2 intervals (pass 1: 2, rounds 1), cuts 1, wide 1\n"
	       "p0 b0 [0..0] I0 -> p1\n"
	       "p1 b0 [1..1] I1 -> exit\n"
	       "I0 entry p0: p0 | 3 regs R1 R2 R3 | preds -\n"
	       "I1 entry p1: p1 | 0 regs | preds I0\n");
}

/* strands: the first read of a loaded register ends one; the loop's
   back edge may only return to a strand's entry; no merging */
TEST(strand_load_wait_and_loop)
{
	golden("ld r1 = [r2]\n"
	       "add r3 = r1 r2\n"
	       "L1: add r3 = r3 r2\n"
	       "@p bra L1\n"
	       "ret\n", PART_STRAND, 16,
	       "strands N=16: 4 pieces, 3 strands (pass 1: 3, rounds 0), cuts 1, wide 0\n"
	       "p0 b0 [0..0] I0 -> p1\n"
	       "p1 b0 [1..1] I1 -> p2\n"
	       "p2 b1 [2..3] I2 -> p2 p3\n"
	       "p3 b2 [4..4] I2 -> exit\n"
	       "I0 entry p0: p0 | 2 regs R1 R2 | preds -\n"
	       "I1 entry p1: p1 | 3 regs R1 R2 R3 | preds I0\n"
	       "I2 entry p2: p2 p3 | 2 regs R2 R3 | preds I1\n");
}

/* PTX through the real pipeline (allocation, then the partition): the
   two-entry loop of test_ltrf_compiler.py at N = 4.  Each loop entry (p2,
   p3) heads an interval with the other as a predecessor, so pass 2 merges
   nothing; the 64-bit address arithmetic of the tail is cut four ways */
static const char *const IRR_PTX =
	".version 7.0\n.target sm_80\n.address_size 64\n"
	".visible .entry irr(.param .u64 irr_out, .param .u32 irr_n)\n{\n"
	".reg .pred %p<3>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<5>;\n"
	"ld.param.u64 %rd1, [irr_out];\n"
	"ld.param.u32 %r1, [irr_n];\n"
	"mov.u32 %r2, %tid.x;\n"
	"mov.u32 %r5, %r2;\n"
	"mov.u32 %r3, 0;\n"
	"and.b32 %r4, %r2, 1;\n"
	"setp.eq.u32 %p1, %r4, 0;\n"
	"@%p1 bra L2;\n"
	"L1:\n"
	"add.u32 %r3, %r3, 3;\n"
	"add.u32 %r2, %r2, 1;\n"
	"L2:\n"
	"add.u32 %r3, %r3, %r2;\n"
	"setp.lt.u32 %p2, %r3, %r1;\n"
	"@%p2 bra L1;\n"
	"cvta.to.global.u64 %rd2, %rd1;\n"
	"mul.wide.u32 %rd3, %r5, 4;\n"
	"add.s64 %rd4, %rd2, %rd3;\n"
	"st.global.u32 [%rd4], %r3;\n"
	"ret;\n}\n";

static char *ptx_dump(const char *ptx, int kind, int32_t n)
{
	Module *m = tf_parse(ptx);
	Config cfg;
	config_defaults(&cfg);
	cfg.ltrf_partition = kind;
	cfg.ltrf_regs_per_interval = n;
	cfg.compiler_schedule = SCHED_NONE;   /* the goldens are of nvcc's order */
	PassReport pr;
	CHECK_EQ(pass_run_report(m, &cfg, &pr), RF_OK);
	char *got = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&got, &len);
	for (int32_t i = 0; i < m->nfunc; i++)
		if (pr.funcs[i].part) ivl_dump(pr.funcs[i].part, out);
	fclose(out);
	pass_report_free(&pr);
	ir_free(m);
	return got;
}

TEST(interval_ptx_irreducible)
{
	char *got = ptx_dump(IRR_PTX, PART_INTERVAL, 4);
	const char *want =
		"intervals N=4: 8 pieces, 8 intervals (pass 1: 8, rounds 1), cuts 4, wide 0\n"
		"p0 b0 [0..2] I0 -> p1\n"
		"p1 b0 [3..7] I1 -> p3 p2\n"
		"p2 b1 [8..9] I2 -> p3\n"
		"p3 b2 [10..12] I3 -> p2 p4\n"
		"p4 b3 [13..13] I4 -> p5\n"
		"p5 b3 [14..14] I5 -> p6\n"
		"p6 b3 [15..15] I6 -> p7\n"
		"p7 b3 [16..17] I7 -> exit\n"
		"I0 entry p0: p0 | 4 regs R0 R1 R2 R3 | preds -\n"
		"I1 entry p1: p1 | 4 regs R1 R4 R5 R6 | preds I0\n"
		"I2 entry p2: p2 | 2 regs R1 R5 | preds I1 I3\n"
		"I3 entry p3: p3 | 3 regs R0 R1 R5 | preds I1 I2\n"
		"I4 entry p4: p4 | 4 regs R0 R1 R2 R3 | preds I3\n"
		"I5 entry p5: p5 | 3 regs R2 R3 R6 | preds I4\n"
		"I6 entry p6: p6 | 4 regs R0 R1 R2 R3 | preds I5\n"
		"I7 entry p7: p7 | 3 regs R0 R1 R5 | preds I6\n";
	CHECK_STR(got, want);
	if (strcmp(got, want)) fprintf(stderr, "---- got:\n%s----\n", got);
	free(got);
}

/* the partition choices are named in the order interval.h numbers them */
TEST(interval_config_choices)
{
	Config c;
	config_defaults(&c);
	CHECK_EQ(c.ltrf_partition, PART_NONE);
	CHECK_EQ(c.ltrf_regs_per_interval, 16);
	CHECK_EQ(config_set(&c, "ltrf.partition", "interval"), RF_OK);
	CHECK_EQ(c.ltrf_partition, PART_INTERVAL);
	CHECK_EQ(config_set(&c, "ltrf.partition", "strand"), RF_OK);
	CHECK_EQ(c.ltrf_partition, PART_STRAND);
}

/* ---- every PTX file of the repository ------------------------------------------ */

static int nfunc, nfail, nirr;

static void check_one(const Module *m, const Func *f, const char *path, int kind, int32_t n)
{
	Cfg *c = cfg_build(f);
	nirr += !c->reducible;
	Part *p = kind == PART_STRAND ? strand_form(f, c, n) : ivl_form(f, c, n);
	IvlWhy w;
	const char *why = ivl_check(f, p, &w);
	if (!why && kind == PART_STRAND) why = strand_check(f, p, &w);
	if (why && nfail++ < 5)
		fprintf(stderr, "%s: %s (%s N=%d): %s\n", path, ir_str(m, m->syms[f->sym].name),
		        kind == PART_STRAND ? "strands" : "intervals", n, why);
	CHECK(why == NULL);
	ivl_free(p);
	cfg_free(c);
}

static int visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb, (void)ftw;
	size_t len = strlen(path);
	if (type != FTW_F || len < 4 || strcmp(path + len - 4, ".ptx") || strstr(path, "/bad/"))
		return 0;
	char *text = read_file(path, FILE_PTX, &len);
	for (int kind = PART_INTERVAL; text && kind <= PART_STRAND; kind++) {
		Module *m = ptx_parse(text, len, path);
		if (!m) break;
		Config cfg;
		config_defaults(&cfg);
		cfg.sm_max_regs_per_thread = 255;
		CHECK_EQ(pass_run(m, &cfg), RF_OK);        /* allocate, no PREFETCH */
		for (int32_t i = 0; i < m->nfunc; i++) {
			const Func *f = &m->funcs[i];
			if (!f->has_body || !f->phys) continue;
			nfunc++;
			check_one(m, f, path, kind, 16);
			check_one(m, f, path, kind, 4);
			check_one(m, f, path, kind, 1);
		}
		ir_free(m);
		/* the whole pipeline: one rfsim.prefetch per subgraph (PTX text does not
		   accept the directive, ops.def, so no print-parse round trip) */
		m = ptx_parse(text, len, path);
		cfg.ltrf_partition = kind;
		PassReport pr;
		CHECK_EQ(pass_run_report(m, &cfg, &pr), RF_OK);
		for (int32_t i = 0; i < m->nfunc; i++) {
			const Func *f = &m->funcs[i];
			int32_t npf = 0;
			for (int32_t k = 0; k < f->nins; k++)
				npf += f->ins[k].op == OP_RF_PREFETCH;
			if (f->phys && f->has_body && f->nins) CHECK(pr.funcs[i].part != NULL);
			if (pr.funcs[i].part) CHECK_EQ(npf, pr.funcs[i].part->nivl);
			if (pr.funcs[i].part) CHECK_EQ(f->nrset, npf);
		}
		pass_report_free(&pr);
		ir_free(m);
	}
	free(text);
	return 0;
}

TEST(interval_corpus_invariants)
{
	nfunc = nfail = nirr = 0;
	nftw("tests/ptx", visit, 16, 0);
	nftw("workloads", visit, 16, 0);
	CHECK(nfunc > 100);
	printf("interval_corpus: %d function checks, %d on irreducible CFGs\n", nfunc, nirr);
}
