/*
 * test_live.c -- register liveness, last uses and remaining uses.
 *
 * Golden tests write small functions in the assembly of tfunc.h and
 * compare live_dump().  check_live() recomputes every fact independently:
 * liveness by searching the instruction-level graph for a read before an
 * unguarded write, remaining uses by scanning the block.
 */
#include "unit.h"

#include <stdlib.h>

#include "analysis/live.h"
#include "base/base.h"
#include "tfunc.h"

static TFunc tf;

/* instructions that may follow i */
static int ins_succ(const Cfg *c, int32_t i, int32_t *s)
{
	const Block *b = &c->blocks[c->block_of[i]];
	if (i < b->last) {
		s[0] = i + 1;
		return 1;
	}
	int n = 0;
	for (int32_t k = 0; k < b->nsucc; k++)
		if (b->succ[k] != c->exit) s[n++] = c->blocks[b->succ[k]].first;
	return n;
}

static int reads(const Func *f, int32_t i, int32_t r)
{
	int32_t u[64];
	int n = live_uses(f, &f->ins[i], u, 64);
	for (int k = 0; k < n; k++)
		if (u[k] == r) return 1;
	return 0;
}

static int kills(const Func *f, int32_t i, int32_t r)
{
	int32_t d[64];
	if (f->ins[i].guard >= 0) return 0;
	int n = live_defs(f, &f->ins[i], d, 64);
	for (int k = 0; k < n; k++)
		if (d[k] == r) return 1;
	return 0;
}

/* is r read on some path from the start of instruction i before a kill? */
static int brute_live(const Cfg *c, int32_t i, int32_t r, uint8_t *seen, int32_t *stk)
{
	const Func *f = c->f;
	int32_t sp = 0, s[2];
	memset(seen, 0, (size_t)f->nins);
	seen[i] = 1;
	stk[sp++] = i;
	while (sp) {
		int32_t j = stk[--sp];
		if (reads(f, j, r)) return 1;
		if (kills(f, j, r)) continue;
		for (int k = ins_succ(c, j, s) - 1; k >= 0; k--)
			if (!seen[s[k]]) {
				seen[s[k]] = 1;
				stk[sp++] = s[k];
			}
	}
	return 0;
}

/* remaining reads of r after i in its block before a kill; LIVE_MORE if it
   reaches the end of the block and is live out */
static int32_t brute_remain(const Live *l, int32_t i, int32_t r)
{
	const Cfg *c = l->c;
	const Block *b = &c->blocks[c->block_of[i]];
	int32_t n = 0;
	if (kills(c->f, i, r)) return 0;
	for (int32_t j = i + 1; j <= b->last; j++) {
		int32_t u[64];
		int nu = live_uses(c->f, &c->f->ins[j], u, 64);
		for (int k = 0; k < nu; k++) n += u[k] == r;
		if (kills(c->f, j, r)) return n;
	}
	return n | (live_has(l->blk_out + (size_t)c->block_of[i] * (size_t)l->words, r) ?
	            LIVE_MORE : 0);
}

static void check_live(const Live *l)
{
	const Cfg *c = l->c;
	const Func *f = c->f;
	uint8_t *seen = xmalloc((size_t)f->nins + 1);
	int32_t *stk = xmalloc(sizeof(int32_t) * ((size_t)f->nins + 1));
	int maxlive = 0;
	for (int32_t i = 0; i < f->nins; i++) {
		for (int32_t r = 0; r < f->nreg; r++)
			CHECK_EQ(live_has(live_in(l, i), r), brute_live(c, i, r, seen, stk));
		if (live_count(l, live_in(l, i)) > maxlive) maxlive = live_count(l, live_in(l, i));
		for (int32_t s = l->use_start[i]; s < l->use_start[i + 1]; s++) {
			int32_t r = l->use_reg[s];
			CHECK_EQ(l->use_last[s], !live_has(live_out(l, i), r) || kills(f, i, r));
			CHECK_EQ(l->use_remain[s], brute_remain(l, i, r));
		}
	}
	for (int32_t b = 0; b < c->nblock; b++) {
		const uint64_t *in = l->blk_in + (size_t)b * (size_t)l->words;
		size_t sz = sizeof(uint64_t) * (size_t)l->words;
		CHECK(!memcmp(in, live_in(l, c->blocks[b].first), sz));
	}
	CHECK_EQ(l->maxlive, maxlive);
	free(seen);
	free(stk);
}

static char *dump(const Live *l, const Module *m)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	live_dump(l, m, f);
	fclose(f);
	return buf;
}

static void golden(const char *src, const char *want)
{
	Cfg *c = cfg_build(tf_build(&tf, src));
	Live *l = live_compute(c);
	check_live(l);
	char *got = dump(l, NULL);
	CHECK_STR(got, want);
	if (strcmp(got, want)) fprintf(stderr, "---- got:\n%s----\n", got);
	free(got);
	live_free(l);
	cfg_free(c);
}

/* straight-line code: a register read twice by its last reader has two last uses */
TEST(live_straight_line)
{
	const char *src =
		"     mov r1 = 1\n"                /* 0 */
		"     add r2 = r1 r1\n"            /* 1 */
		"     add r3 = r2 5\n"             /* 2 */
		"     st = [r4] r3\n"              /* 3 */
		"     ret\n";                      /* 4 */
	golden(src,
	"live: 5 regs, max 2\n"
	"b0 in r4; out -\n"
	"  0 mov: in r4; def r1\n"
	"  1 add: in r1 r4; use r1! r1!; def r2\n"
	"  2 add: in r2 r4; use r2!; def r3\n"
	"  3 st: in r3 r4; use r4! r3!\n"
	"  4 ret: in -\n");
}

/* both sides define r2, so it is not live into the branch; r1 is, from one side */
TEST(live_if_else)
{
	const char *src =
		"     setp p = r1 0\n"             /* 0 */
		"     @p bra L1\n"                 /* 1 */
		"     mov r2 = r1\n"               /* 2 */
		"     bra L2\n"                    /* 3 */
		"L1:  mov r2 = 7\n"                /* 4 */
		"L2:  st = [r3] r2\n"              /* 5 */
		"     ret\n";                      /* 6 */
	golden(src,
	"live: 4 regs, max 3\n"
	"b0 in r1 r3; out r1 r3\n"
	"  0 setp: in r1 r3; use r1:0+; def r0\n"
	"  1 bra: in r0 r1 r3; use r0!\n"
	"b1 in r1 r3; out r2 r3\n"
	"  2 mov: in r1 r3; use r1!; def r2\n"
	"  3 bra: in r2 r3\n"
	"b2 in r3; out r2 r3\n"
	"  4 mov: in r3; def r2\n"
	"b3 in r2 r3; out -\n"
	"  5 st: in r2 r3; use r3! r2!\n"
	"  6 ret: in -\n");
}

/* a loop keeps its invariants (r3, r4) and carried values (r1, r2) live throughout;
 * add r1 = r1 r2 is the last read of the old r1 */
TEST(live_loop)
{
	const char *src =
		"     mov r1 = 0\n"                /* 0 */
		"     mov r2 = 0\n"                /* 1 */
		"L0:  add r1 = r1 r2\n"            /* 2 */
		"     add r2 = r2 1\n"             /* 3 */
		"     setp p = r2 r3\n"            /* 4 */
		"     @p bra L0\n"                 /* 5 */
		"     st = [r4] r1\n"              /* 6 */
		"     ret\n";                      /* 7 */
	golden(src,
	"live: 5 regs, max 5\n"
	"b0 in r3 r4; out r1 r2 r3 r4\n"
	"  0 mov: in r3 r4; def r1\n"
	"  1 mov: in r1 r3 r4; def r2\n"
	"b1 in r1 r2 r3 r4; out r1 r2 r3 r4\n"
	"  2 add: in r1 r2 r3 r4; use r1! r2:1; def r1\n"
	"  3 add: in r1 r2 r3 r4; use r2!; def r2\n"
	"  4 setp: in r1 r2 r3 r4; use r2:0+ r3:0+; def r0\n"
	"  5 bra: in r0 r1 r2 r3 r4; use r0!\n"
	"b2 in r1 r4; out -\n"
	"  6 st: in r1 r4; use r4! r1!\n"
	"  7 ret: in -\n");
}

/* a guarded write does not kill: r1 stays live across @p mov */
TEST(live_guarded_def)
{
	const char *src =
		"     mov r1 = 1\n"                /* 0 */
		"     @p mov r1 = 2\n"             /* 1 */
		"     st = [r2] r1\n"              /* 2 */
		"     ret\n";                      /* 3 */
	golden(src,
	"live: 3 regs, max 3\n"
	"b0 in r0 r2; out -\n"
	"  0 mov: in r0 r2; def r1\n"
	"  1 mov: in r0 r1 r2; use r0!; def r1\n"
	"  2 st: in r1 r2; use r2! r1!\n"
	"  3 ret: in -\n");
}

/* vector elements and address bases are reads and writes too */
TEST(live_vectors_and_addresses)
{
	const char *src =
		"     ld {r1,r2} = [r3+8]\n"       /* 0 */
		"     add r4 = r1 r2\n"            /* 1 */
		"     st = [r3] {r4,r2}\n"         /* 2 */
		"     add r1 = r1 1\n"             /* 3 */
		"     ret\n";                      /* 4 */
	golden(src,
	"live: 5 regs, max 4\n"
	"b0 in r3; out -\n"
	"  0 ld: in r3; use r3:1; def r1 r2\n"
	"  1 add: in r1 r2 r3; use r1:1 r2:1; def r4\n"
	"  2 st: in r1 r2 r3 r4; use r3! r4! r2!\n"
	"  3 add: in r1; use r1!; def r1\n"
	"  4 ret: in -\n");
}

/* ---- random and large functions ----------------------------------------- */

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* one random statement over registers r1..r(nr-1) and labels L0..L(nlab-1) */
static void random_stmt(TFunc *t, uint64_t *r, int nr, int nlab)
{
	char s[64];
	uint64_t m = (uint64_t)(nr - 1);
	int a = 1 + (int)(rnd(r) % m), b = 1 + (int)(rnd(r) % m), d = 1 + (int)(rnd(r) % m);
	int l = nlab ? (int)(rnd(r) % (uint64_t)nlab) : 0;
	switch (rnd(r) % 12) {
	case 0: case 1: snprintf(s, sizeof s, "add r%d = r%d r%d", d, a, b); break;
	case 2: snprintf(s, sizeof s, "@p mov r%d = r%d", d, a); break;
	case 3: snprintf(s, sizeof s, "setp p = r%d r%d", a, b); break;
	case 4: snprintf(s, sizeof s, "st = [r%d] r%d", a, b); break;
	case 5: snprintf(s, sizeof s, "ld {r%d,r%d} = [r%d+4]", d, b, a); break;
	case 6: snprintf(s, sizeof s, "mov r%d = %d", d, a); break;
	case 7: snprintf(s, sizeof s, nlab ? "@p bra L%d" : "ret", l); break;
	case 8: snprintf(s, sizeof s, nlab ? "bra L%d" : "@p ret", l); break;
	case 9: snprintf(s, sizeof s, "@p ret"); break;
	case 10: snprintf(s, sizeof s, "add r%d = r%d 1", d, d); break;
	default: snprintf(s, sizeof s, "@!p add r%d = r%d r%d", d, a, a); break;
	}
	tf_build_stmt(t, s);
}

static Func *random_func(TFunc *t, uint64_t *r, int n, int nlab, int nr)
{
	tf_build(t, "");
	for (int i = 0; i < n; i++) random_stmt(t, r, nr, nlab);
	t->f.nlabel = nlab;
	for (int k = 0; k < nlab; k++) t->labels[k].ins = (int32_t)(rnd(r) % (uint64_t)(n + 1));
	if (t->f.nreg < nr) t->f.nreg = nr;
	return &t->f;
}

/* every fact against the brute-force search, on random small functions
   with loops, guarded writes, irreducible and infinite control flow */
TEST(live_random_small)
{
	uint64_t r = 0x9E3779B97F4A7C15ull;
	int fails = unit_failed_checks;
	for (int it = 0; it < 1500 && unit_failed_checks == fails; it++) {
		int n = (int)(rnd(&r) % 30), nlab = (int)(rnd(&r) % 6);
		int nr = 2 + (int)(rnd(&r) % (it % 10 == 0 ? 140 : 8));   /* > 64: two words */
		Cfg *c = cfg_build(random_func(&tf, &r, n, nlab, nr));
		Live *l = live_compute(c);
		check_live(l);
		live_free(l);
		cfg_free(c);
	}
}

/* 10,000 instructions, 300 registers */
TEST(live_large_fast)
{
	uint64_t r = 12345;
	random_func(&tf, &r, 10000, 2000, 300);
	Cfg *c = cfg_build(&tf.f);
	double t0 = now_sec();
	Live *l = live_compute(c);
	double dt = now_sec() - t0;
	CHECK(dt < 0.5);
	CHECK(l->maxlive > 100);
	if (getenv("RFSIM_CFG_TIME"))
		fprintf(stderr, "live_compute: %d ins, %d blocks, %d regs, max live %d, %.3f ms\n",
		        tf.f.nins, c->nblock, l->nreg, l->maxlive, dt * 1e3);
	live_free(l);
	cfg_free(c);
}

/* ---- parsed PTX ------------------------------------------------------------ */

/* a guarded loop with an if/else, as nvcc writes it */
static const char *const ptx_loop =
	".version 8.0\n"
	".target sm_80\n"
	".address_size 64\n"
	".visible .entry k(.param .u64 p, .param .u32 n)\n"
	"{\n"
	"\t.reg .pred %p<3>;\n"
	"\t.reg .b32 %r<8>;\n"
	"\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [p];\n"
	"\tld.param.u32 %r1, [n];\n"
	"\tmov.u32 %r2, %tid.x;\n"
	"\tsetp.ge.u32 %p1, %r2, %r1;\n"
	"\t@%p1 bra $L_done;\n"
	"\tmov.u32 %r3, 0;\n"
	"$L_loop:\n"
	"\tand.b32 %r4, %r3, 1;\n"
	"\tsetp.eq.u32 %p2, %r4, 0;\n"
	"\t@%p2 bra $L_even;\n"
	"\tadd.u32 %r3, %r3, 3;\n"
	"\tbra.uni $L_next;\n"
	"$L_even:\n"
	"\tadd.u32 %r3, %r3, 1;\n"
	"$L_next:\n"
	"\tsetp.lt.u32 %p2, %r3, %r1;\n"
	"\t@%p2 bra $L_loop;\n"
	"\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tmul.wide.u32 %rd3, %r2, 4;\n"
	"\tadd.s64 %rd2, %rd2, %rd3;\n"
	"\tst.global.u32 [%rd2], %r3;\n"
	"$L_done:\n"
	"\tret;\n"
	"}\n";

TEST(live_ptx_golden)
{
	Module *m = tf_parse(ptx_loop);
	Cfg *c = cfg_build(&m->funcs[0]);
	Live *l = live_compute(c);
	check_live(l);
	char *got = dump(l, m);
	CHECK_STR(got,
	"live: 15 regs, max 5\n"
	"b0 in -; out %r1 %r2 %rd1\n"
	"  0 ld: in -; def %rd1\n"
	"  1 ld: in %rd1; def %r1\n"
	"  2 mov: in %r1 %rd1; def %r2\n"
	"  3 setp: in %r1 %r2 %rd1; use %r2:0+ %r1:0+; def %p1\n"
	"  4 bra: in %p1 %r1 %r2 %rd1; use %p1!\n"
	"b1 in %r1 %r2 %rd1; out %r1 %r2 %r3 %rd1\n"
	"  5 mov: in %r1 %r2 %rd1; def %r3\n"
	"b2 in %r1 %r2 %r3 %rd1; out %r1 %r2 %r3 %rd1\n"
	"  6 and: in %r1 %r2 %r3 %rd1; use %r3:0+; def %r4\n"
	"  7 setp: in %r1 %r2 %r3 %r4 %rd1; use %r4!; def %p2\n"
	"  8 bra: in %p2 %r1 %r2 %r3 %rd1; use %p2!\n"
	"b3 in %r1 %r2 %r3 %rd1; out %r1 %r2 %r3 %rd1\n"
	"  9 add: in %r1 %r2 %r3 %rd1; use %r3!; def %r3\n"
	"  10 bra: in %r1 %r2 %r3 %rd1\n"
	"b4 in %r1 %r2 %r3 %rd1; out %r1 %r2 %r3 %rd1\n"
	"  11 add: in %r1 %r2 %r3 %rd1; use %r3!; def %r3\n"
	"b5 in %r1 %r2 %r3 %rd1; out %r1 %r2 %r3 %rd1\n"
	"  12 setp: in %r1 %r2 %r3 %rd1; use %r3:0+ %r1:0+; def %p2\n"
	"  13 bra: in %p2 %r1 %r2 %r3 %rd1; use %p2!\n"
	"b6 in %r2 %r3 %rd1; out -\n"
	"  14 cvta: in %r2 %r3 %rd1; use %rd1!; def %rd2\n"
	"  15 mul: in %r2 %r3 %rd2; use %r2!; def %rd3\n"
	"  16 add: in %r3 %rd2 %rd3; use %rd2! %rd3!; def %rd2\n"
	"  17 st: in %r3 %rd2; use %rd2! %r3!\n"
	"b7 in -; out -\n"
	"  18 ret: in -\n");
	free(got);
	live_free(l);
	cfg_free(c);
	ir_free(m);
}

static void check_ptx_func(const Module *m, const Func *f, const char *path)
{
	(void)m;
	(void)path;
	Cfg *c = cfg_build(f);
	Live *l = live_compute(c);
	if ((int64_t)f->nins * f->nreg <= 200000) check_live(l);   /* brute force is cubic */
	live_free(l);
	cfg_free(c);
}

/* every function of every PTX file in the repository */
TEST(live_ptx_files)
{
	tf_each_ptx(check_ptx_func);
}

/* ---- live_sets: the per-block lists against live_compute's bit sets ---------- */

static void check_sets(const Cfg *c)
{
	Live *l = live_compute(c);
	LiveSets *s = live_sets(c);
	uint64_t *md = live_maydef(c, l->words);
	for (int32_t b = 0; b <= c->nblock; b++) {
		const uint64_t *bi = l->blk_in + (size_t)b * (size_t)l->words;
		const uint64_t *bo = l->blk_out + (size_t)b * (size_t)l->words;
		const uint64_t *mi = md + (size_t)(b < c->nblock ? c->blocks[b].first : c->f->nins) *
		                     (size_t)l->words;
		CHECK_EQ(s->in_start[b + 1] - s->in_start[b], live_count(l, bi));
		CHECK_EQ(s->out_start[b + 1] - s->out_start[b], live_count(l, bo));
		for (int32_t k = s->in_start[b]; k < s->in_start[b + 1]; k++) {
			CHECK(live_has(bi, s->in[k]));
			CHECK(k == s->in_start[b] || s->in[k - 1] < s->in[k]);
			if (b < c->nblock) CHECK_EQ(s->in_def[k], live_has(mi, s->in[k]));
		}
		for (int32_t k = s->out_start[b]; k < s->out_start[b + 1]; k++) {
			CHECK(live_has(bo, s->out[k]));
			CHECK(k == s->out_start[b] || s->out[k - 1] < s->out[k]);
		}
	}
	free(md);
	live_sets_free(s);
	live_free(l);
}

TEST(live_sets_random)
{
	uint64_t r = 0xC0FFEEull;
	int fails = unit_failed_checks;
	for (int it = 0; it < 1500 && unit_failed_checks == fails; it++) {
		int n = (int)(rnd(&r) % 40), nlab = (int)(rnd(&r) % 8);
		int nr = 2 + (int)(rnd(&r) % (it % 10 == 0 ? 140 : 8));
		Cfg *c = cfg_build(random_func(&tf, &r, n, nlab, nr));
		check_sets(c);
		cfg_free(c);
	}
}

static void check_sets_func(const Module *m, const Func *f, const char *path)
{
	(void)m;
	(void)path;
	Cfg *c = cfg_build(f);
	check_sets(c);
	cfg_free(c);
}

TEST(live_sets_ptx_files)
{
	tf_each_ptx(check_sets_func);
}

/* ---- live_compute_div against the region-by-region definition ---------------- */

/* ext[b] |= what the region of each divergent branch keeps (live_div.c's
   essay), one region at a time: the quadratic definition */
static uint64_t *brute_ext(const Live *t)
{
	const Cfg *c = t->c;
	int32_t w = t->words, n = c->nblock + 1;
	uint64_t *ext = xcalloc((size_t)n * (size_t)w, sizeof(uint64_t)), *L = xmalloc(8 * (size_t)w);
	uint8_t *seen = xmalloc((size_t)n);
	int32_t *stk = xmalloc(sizeof(int32_t) * (size_t)n);
	for (int32_t b = 0; b < c->nblock; b++) {
		const Block *bb = &c->blocks[b];
		const Ins *in = bb->term >= 0 ? &c->f->ins[bb->term] : NULL;
		int32_t p = c->ipdom[b], sides = 0, sp = 0;
		if (!in || in->op != OP_BRA || in->guard < 0 || (in->mods & MOD_UNI) || bb->nsucc < 2)
			continue;
		memset(L, 0, 8 * (size_t)w);
		memset(seen, 0, (size_t)n);
		for (int32_t j = 0; p != c->exit && j < w; j++) L[j] |= t->blk_in[(size_t)p * w + j];
		for (int32_t k = 0; k < bb->nsucc; k++)
			sides += bb->succ[k] != p && bb->succ[k] != c->exit;
		for (int32_t k = 0; sides > 1 && k < bb->nsucc; k++)
			for (int32_t j = 0; bb->succ[k] != p && bb->succ[k] != c->exit && j < w; j++)
				L[j] |= t->blk_in[(size_t)bb->succ[k] * w + j];
		for (int32_t k = 0; k < bb->nsucc; k++) {
			int32_t s = bb->succ[k];
			if (s != p && s != c->exit && !seen[s]) seen[s] = 1, stk[sp++] = s;
		}
		while (sp) {
			int32_t x = stk[--sp];
			for (int32_t j = 0; j < w; j++) ext[(size_t)x * w + j] |= L[j];
			for (int32_t k = 0; k < c->blocks[x].nsucc; k++) {
				int32_t s = c->blocks[x].succ[k];
				if (s != p && s != c->exit && !seen[s]) seen[s] = 1, stk[sp++] = s;
			}
		}
	}
	free(L), free(seen), free(stk);
	return ext;
}

static void check_div(const Cfg *c)
{
	Live *t = live_compute(c), *d = live_compute_div(c);
	uint64_t *ext = brute_ext(t);
	int32_t w = t->words;
	for (int32_t b = 0; b < c->nblock; b++) {
		const uint64_t *e = ext + (size_t)b * w;
		for (int32_t j = 0; j < w; j++) {
			CHECK_EQ_U64(d->blk_in[(size_t)b * w + j], t->blk_in[(size_t)b * w + j] | e[j]);
			CHECK_EQ_U64(d->blk_out[(size_t)b * w + j], t->blk_out[(size_t)b * w + j] | e[j]);
		}
		for (int32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++)
			for (int32_t j = 0; j < w; j++)
				CHECK_EQ_U64(live_in(d, i)[j], live_in(t, i)[j] | e[j]);
	}
	free(ext);
	live_free(t);
	live_free(d);
}

TEST(live_div_random)
{
	uint64_t r = 0xD1CEull;
	int fails = unit_failed_checks;
	for (int it = 0; it < 1500 && unit_failed_checks == fails; it++) {
		int n = (int)(rnd(&r) % 60), nlab = (int)(rnd(&r) % 10);
		int nr = 2 + (int)(rnd(&r) % (it % 10 == 0 ? 140 : 8));
		Cfg *c = cfg_build(random_func(&tf, &r, n, nlab, nr));
		check_div(c);
		cfg_free(c);
	}
}

static void check_div_func(const Module *m, const Func *f, const char *path)
{
	(void)m;
	(void)path;
	Cfg *c = cfg_build(f);
	check_div(c);
	cfg_free(c);
}

TEST(live_div_ptx_files_brute)
{
	tf_each_ptx(check_div_func);
}
