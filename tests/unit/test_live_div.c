/*
 * test_live_div.c -- divergence-aware (warp-level) liveness (live_div.c).
 *
 * Golden tests in the assembly of tfunc.h: nested divergence, where a
 * value read on one side stays live on the other and a value written on
 * both sides stays live across both up to the reconvergence point; and a
 * divergent loop exit, where lanes that left keep their result while the
 * others iterate.  Properties over every function of the repository's
 * PTX: the warp-level sets contain the per-thread ones, and equal them in
 * functions without divergent branches.
 */
#include "unit.h"

#include <stdlib.h>

#include "analysis/live.h"
#include "base/base.h"
#include "tfunc.h"

static TFunc tf;

static void golden(const char *src, const char *want)
{
	Cfg *c = cfg_build(tf_build(&tf, src));
	Live *l = live_compute_div(c);
	CHECK_EQ(l->warp, 1);
	char *got = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&got, &n);
	live_dump(l, NULL, f);
	fclose(f);
	CHECK_STR(got, want);
	if (strcmp(got, want)) fprintf(stderr, "---- got:\n%s----\n", got);
	free(got);
	live_free(l);
	cfg_free(c);
}

/* if (p) { r4 = r1 + 1; if (!p) {...} r6 = r4 + r4 } else { r7 = r3 + 1 }
   then r2 + r3.  The outer region (b1..b4, reconverging at b5) keeps r0-r3
   everywhere: r1 is read only on the then side yet live through the else
   side (b4), r3 the other way round.  The inner branch has one side with
   code, so it adds only what is live at its reconvergence point (b3). */
TEST(live_div_nested)
{
	golden("mov r1 = 1; mov r2 = 2; mov r3 = 3\n"
	       "@p bra L1\n"
	       "add r4 = r1, 1\n"
	       "@!p bra L2\n"
	       "add r5 = r4, 1; st [r5], r2\n"
	       "L2: add r6 = r4, r4\n"
	       "bra.uni L3\n"
	       "L1: add r7 = r3, 1\n"
	       "st [r7], r7\n"
	       "L3: add r8 = r2, r3\n"
	       "st [r8], r8\n"
	       "ret\n",
	    "live: 9 regs, max 6\n"
	    "b0 in r0; out r0 r1 r2 r3\n"
	    "  0 mov: in r0; def r1\n"
	    "  1 mov: in r0 r1; def r2\n"
	    "  2 mov: in r0 r1 r2; def r3\n"
	    "  3 bra: in r0 r1 r2 r3; use r0:0+\n"
	    "b1 in r0 r1 r2 r3; out r0 r1 r2 r3 r4\n"
	    "  4 add: in r0 r1 r2 r3; use r1:0+; def r4\n"
	    "  5 bra: in r0 r1 r2 r3 r4; use r0:0+\n"
	    "b2 in r0 r1 r2 r3 r4; out r0 r1 r2 r3 r4\n"
	    "  6 add: in r0 r1 r2 r3 r4; use r4:0+; def r5\n"
	    "  7 st: in r0 r1 r2 r3 r4 r5; use r5! r2:0+\n"
	    "b3 in r0 r1 r2 r3 r4; out r0 r1 r2 r3\n"
	    "  8 add: in r0 r1 r2 r3 r4; use r4! r4!; def r6\n"
	    "  9 bra: in r0 r1 r2 r3\n"
	    "b4 in r0 r1 r2 r3; out r0 r1 r2 r3\n"
	    "  10 add: in r0 r1 r2 r3; use r3:0+; def r7\n"
	    "  11 st: in r0 r1 r2 r3 r7; use r7! r7!\n"
	    "b5 in r2 r3; out -\n"
	    "  12 add: in r2 r3; use r2! r3!; def r8\n"
	    "  13 st: in r8; use r8! r8!\n"
	    "  14 ret: in -\n");
}

/* a loop whose exit diverges: per thread, r1's old value dies at
   instruction 2, but lanes that already left hold their final r1 while
   the others iterate, so at warp level r1 is live all through the loop */
TEST(live_div_loop_exit)
{
	golden("mov r1 = 0; mov r2 = 5\n"
	       "L1: add r3 = r1, 1\n"
	       "add r1 = r3, r2\n"
	       "@p bra L1\n"
	       "st [r2], r1\n"
	       "ret\n",
	    "live: 4 regs, max 4\n"
	    "b0 in r0; out r0 r1 r2\n"
	    "  0 mov: in r0; def r1\n"
	    "  1 mov: in r0 r1; def r2\n"
	    "b1 in r0 r1 r2; out r0 r1 r2\n"
	    "  2 add: in r0 r1 r2; use r1:0+; def r3\n"
	    "  3 add: in r0 r1 r2 r3; use r3! r2:0+; def r1\n"
	    "  4 bra: in r0 r1 r2; use r0:0+\n"
	    "b2 in r1 r2; out -\n"
	    "  5 st: in r1 r2; use r2! r1!\n"
	    "  6 ret: in -\n");
}

static int ndiv, nsame;

static void div_props(const Module *m, const Func *f, const char *path)
{
	(void)m, (void)path;
	Cfg *c = cfg_build(f);
	Live *t = live_compute(c), *w = live_compute_div(c);
	int divergent = 0, superset = 1, same = 1;
	for (int32_t b = 0; b < c->nblock; b++) {
		const Block *bb = &c->blocks[b];
		const Ins *in = bb->term >= 0 ? &f->ins[bb->term] : NULL;
		divergent |= in && in->op == OP_BRA && in->guard >= 0 && !(in->mods & MOD_UNI) &&
		             bb->nsucc > 1;
	}
	for (int32_t i = 0; i < f->nins; i++) {
		const uint64_t *a = live_in(t, i), *b = live_in(w, i);
		for (int32_t j = 0; j < t->words; j++) {
			superset &= (a[j] & ~b[j]) == 0;
			same &= a[j] == b[j];
		}
	}
	for (int32_t s = 0; s < t->use_start[f->nins]; s++)   /* warp last uses are thread ones */
		superset &= !w->use_last[s] || t->use_last[s];
	CHECK(superset);
	if (!divergent) CHECK(same);
	CHECK(w->maxlive >= t->maxlive);
	ndiv += divergent;
	nsame += same;
	live_free(t);
	live_free(w);
	cfg_free(c);
}

TEST(live_div_ptx_files)
{
	ndiv = nsame = 0;
	CHECK(tf_each_ptx(div_props) > 50);
	CHECK(ndiv > 20);        /* the corpus does diverge */
	CHECK(nsame > 20);
}
