/*
 * test_sched_lat.c -- compiler.schedule=latency: the passes that present
 * the code as ptxas sees it (remat.c, rename.c, fold.c), the latency-first
 * scheduler (sched_lat.c) and the counts ptxas reports (abi.c, pass.c).
 *
 * Small kernels pin each piece (counts beside ptxas -v -arch=sm_80's): an
 * unrolled loop of shared loads has half its loads issued before the
 * first fma (lud_internal, issue 21: ptxas issues them all); kernel
 * parameters are read where they are used, and so are constants and
 * variables' addresses, a global variable's through a register; a
 * hand-written block that reuses one register for every value gets a
 * register per value; a pointer stepped by constants becomes one base
 * with offsets; an indirect call costs the ABI's 24 registers; an empty
 * kernel 4.  Then a property over every PTX function of the repository:
 * after the three passes, the latency schedule is a permutation of each
 * block in which every read and write sees the same earlier writes of its
 * registers as before, control transfers, pseudo instructions and labels
 * stay put, and memory order holds -- a load or store passes a store only
 * where the two provably touch different bytes (another state space, a
 * read-only one, or the same base value with disjoint ranges), nothing
 * passes an ordering instruction (barrier, fence, atomic, call, warp
 * collective, volatile access, clock read), and instructions that set or
 * read the carry flag keep their order (tests/sem/int_carry.ptx's chains
 * came apart before).
 */
#include "unit.h"

#include <ftw.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cfg.h"
#include "analysis/fold.h"
#include "analysis/live.h"
#include "analysis/pass.h"
#include "analysis/remat.h"
#include "analysis/rename.h"
#include "analysis/schedule.h"
#include "base/base.h"
#include "base/config.h"
#include "ptx/ptx.h"

#define HDR ".version 7.0\n.target sm_80\n.address_size 64\n"

/* lud_internal's inner loop, one iteration unrolled four times */
static const char *const K_LUD = HDR
	".visible .entry dot(.param .u64 p0)\n"
	"{\n"
	"	.reg .b32 %r<8>;\n"
	"	.reg .f32 %f<20>;\n"
	"	.reg .b64 %rd<3>;\n"
	"	mov.u32 %r1, %tid.x;\n"
	"	shl.b32 %r2, %r1, 2;\n"
	"	mov.f32 %f1, 0f00000000;\n"
	"	ld.shared.f32 %f2, [%r2];\n"
	"	ld.shared.f32 %f3, [%r2+64];\n"
	"	fma.rn.f32 %f4, %f2, %f3, %f1;\n"
	"	ld.shared.f32 %f5, [%r2+128];\n"
	"	ld.shared.f32 %f6, [%r2+192];\n"
	"	fma.rn.f32 %f7, %f5, %f6, %f4;\n"
	"	ld.shared.f32 %f8, [%r2+256];\n"
	"	ld.shared.f32 %f9, [%r2+320];\n"
	"	fma.rn.f32 %f10, %f8, %f9, %f7;\n"
	"	ld.shared.f32 %f11, [%r2+384];\n"
	"	ld.shared.f32 %f12, [%r2+448];\n"
	"	fma.rn.f32 %f13, %f11, %f12, %f10;\n"
	"	ld.param.u64 %rd1, [p0];\n"
	"	cvta.to.global.u64 %rd2, %rd1;\n"
	"	st.global.f32 [%rd2], %f13;\n"
	"	ret;\n"
	"}\n";

/* parameters read at the top, used after a bounds check */
static const char *const K_PARAMS = HDR
	".visible .entry params(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)\n"
	"{\n"
	"	.reg .pred %p<2>;\n"
	"	.reg .b32 %r<4>;\n"
	"	.reg .f32 %f<4>;\n"
	"	.reg .b64 %rd<12>;\n"
	"	ld.param.u64 %rd1, [a];\n"
	"	ld.param.u64 %rd2, [b];\n"
	"	ld.param.u64 %rd3, [c];\n"
	"	ld.param.u32 %r1, [n];\n"
	"	cvta.to.global.u64 %rd4, %rd1;\n"
	"	cvta.to.global.u64 %rd5, %rd2;\n"
	"	cvta.to.global.u64 %rd6, %rd3;\n"
	"	mov.u32 %r2, %tid.x;\n"
	"	setp.ge.u32 %p1, %r2, %r1;\n"
	"	@%p1 bra $done;\n"
	"	mul.wide.u32 %rd7, %r2, 4;\n"
	"	add.s64 %rd8, %rd4, %rd7;\n"
	"	ld.global.f32 %f1, [%rd8];\n"
	"	add.s64 %rd9, %rd5, %rd7;\n"
	"	ld.global.f32 %f2, [%rd9];\n"
	"	add.f32 %f3, %f1, %f2;\n"
	"	add.s64 %rd10, %rd6, %rd7;\n"
	"	st.global.f32 [%rd10], %f3;\n"
	"$done:\n"
	"	ret;\n"
	"}\n";

/* hand-written style: one register reused for every value, a pointer
   stepped by constants */
static const char *const K_REUSE = HDR
	".visible .entry reuse(.param .u64 p0)\n"
	"{\n"
	"	.reg .b32 %r<2>;\n"
	"	.reg .f32 %f<2>;\n"
	"	.reg .b64 %rd<2>;\n"
	"	ld.param.u64 %rd1, [p0];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	mov.f32 %f1, 0f40200000;\n"
	"	cvt.rni.s32.f32 %r1, %f1;\n"
	"	st.global.u32 [%rd1], %r1;\n"
	"	add.s64 %rd1, %rd1, 4;\n"
	"	mov.f32 %f1, 0f40600000;\n"
	"	cvt.rzi.s32.f32 %r1, %f1;\n"
	"	st.global.u32 [%rd1], %r1;\n"
	"	add.s64 %rd1, %rd1, 4;\n"
	"	mov.f32 %f1, 0fC0200000;\n"
	"	cvt.rmi.s32.f32 %r1, %f1;\n"
	"	st.global.u32 [%rd1], %r1;\n"
	"	ret;\n"
	"}\n";

static const char *const K_INDIRECT = HDR
	".visible .entry ind(.param .u64 out)\n"
	"{\n"
	"	.reg .b32 %r<3>;\n"
	"	.reg .b64 %rd<3>;\n"
	"	mov.u64 %rd1, 0x1234;\n"
	"	{\n"
	"	.param .b32 p0;\n"
	"	st.param.b32 [p0], 1;\n"
	"	.param .b32 ret0;\n"
	"	proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
	"	call (ret0), %rd1, (p0), proto;\n"
	"	ld.param.b32 %r1, [ret0];\n"
	"	}\n"
	"	ret;\n"
	"}\n";

/* constants and a global variable by name: sa's address and 1000 held from
   the top in nvcc's style, gv read as [gv+4] */
static const char *const K_CONSTS = HDR
	".global .align 4 .u32 gv[4];\n"
	".shared .align 4 .b8 sa[1024];\n"
	".visible .entry consts(.param .u64 out)\n"
	"{\n"
	"\t.reg .pred %p<2>;\n"
	"\t.reg .b32 %r<12>;\n"
	"\t.reg .b64 %rd<4>;\n"
	"\tmov.u32 %r1, sa;\n"
	"\tmov.u32 %r2, 1000;\n"
	"\tmov.u32 %r3, %tid.x;\n"
	"\tshl.b32 %r4, %r3, 2;\n"
	"\tadd.s32 %r5, %r1, %r4;\n"
	"\tst.shared.u32 [%r5], %r3;\n"
	"\tbar.sync 0;\n"
	"\tsetp.ge.u32 %p1, %r3, 32;\n"
	"\t@%p1 bra $done;\n"
	"\tld.global.u32 %r6, [gv+4];\n"
	"\tadd.s32 %r7, %r1, 4;\n"
	"\tadd.s32 %r7, %r7, %r4;\n"
	"\tld.shared.u32 %r8, [%r7];\n"
	"\tadd.s32 %r9, %r8, %r6;\n"
	"\tadd.s32 %r9, %r9, %r2;\n"
	"\tld.param.u64 %rd1, [out];\n"
	"\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tmul.wide.u32 %rd3, %r3, 4;\n"
	"\tadd.s64 %rd2, %rd2, %rd3;\n"
	"\tst.global.u32 [%rd2], %r9;\n"
	"$done:\n"
	"\tret;\n"
	"}\n";

static const char *const K_EMPTY = HDR ".visible .entry empty() { ret; }\n";

static Module *compiled(const char *ptx, const char *sched)
{
	Module *m = ptx_parse(ptx, strlen(ptx), "test.ptx");
	CHECK(m != NULL);
	if (!m) return NULL;
	Config c;
	config_defaults(&c);
	CHECK_EQ(config_set(&c, "compiler.schedule", sched), RF_OK);
	CHECK_EQ(config_set(&c, "sm.max_regs_per_thread", "255"), RF_OK);
	CHECK_EQ(pass_run(m, &c), RF_OK);
	return m;
}

static int32_t regs_with(const char *ptx, const char *sched)
{
	Module *m = compiled(ptx, sched);
	int32_t n = m ? m->funcs[0].regs_per_thread : -1;
	ir_free(m);
	return n;
}

static int32_t count_op(const Func *f, int op)
{
	int32_t n = 0;
	for (int32_t i = 0; i < f->nins; i++) n += f->ins[i].op == op;
	return n;
}

TEST(sched_lat_loads_first)
{
	Module *m = compiled(K_LUD, "latency");
	if (!m) return;
	const Func *f = &m->funcs[0];
	int32_t loads = 0, first_fma = -1;
	for (int32_t i = 0; i < f->nins && first_fma < 0; i++) {
		if (f->ins[i].op == OP_FMA) first_fma = i;
		loads += f->ins[i].op == OP_LD && f->ins[i].space == SP_SHARED;
	}
	/* four of the eight shared loads issue before the first fma (nvcc's order
	   has two): the slack of four slots above the least peak allows no more */
	CHECK_EQ(loads, 4);
	ir_free(m);
	/* and the count rises with it: 10 (ptxas -v -arch=sm_80: 12), 4 without */
	CHECK_EQ(regs_with(K_LUD, "latency"), 10);
	CHECK_EQ(regs_with(K_LUD, "pressure"), 4);
}

TEST(sched_lat_params_at_their_use)
{
	Module *m = compiled(K_PARAMS, "latency");
	if (!m) return;
	const Func *f = &m->funcs[0];
	/* each reader of a parameter has its own load just before it */
	for (int32_t i = 0; i < f->nins; i++) {
		const Ins *in = &f->ins[i];
		if (in->op != OP_LD || in->space != SP_PARAM) continue;
		CHECK(i + 1 < f->nins);
		if (i + 1 >= f->nins) break;
		const Ins *nx = &f->ins[i + 1];
		int reads = 0;
		for (int k = nx->nd; k < nx->nd + nx->ns; k++)
			reads |= nx->o[k].kind == OPK_REG && nx->o[k].reg == in->o[0].reg;
		CHECK(reads || nx->op == OP_CVTA);
	}
	CHECK_EQ(count_op(f, OP_LD) - 2, 4);    /* n, and a, b, c in the second block */
	ir_free(m);
	CHECK_EQ(regs_with(K_PARAMS, "latency"), 12);   /* ptxas -v -arch=sm_80: 12 */
}

TEST(sched_lat_rename_and_fold)
{
	Module *m = compiled(K_REUSE, "latency");
	if (!m) return;
	const Func *f = &m->funcs[0];
	CHECK_EQ(count_op(f, OP_ADD), 0);       /* the pointer steps went into the offsets */
	int32_t offs = 0;
	for (int32_t i = 0; i < f->nins; i++)
		if (f->ins[i].op == OP_ST) offs += (int32_t)f->ins[i].o[0].imm;
	CHECK_EQ(offs, 0 + 4 + 8);
	ir_free(m);
	/* rename alone: every value of %rd1, %f1 and %r1 but the last of each gets
	   a register of its own (3 + 2 + 2) */
	m = ptx_parse(K_REUSE, strlen(K_REUSE), "test.ptx");
	CHECK(m != NULL);
	if (!m) return;
	int32_t before = m->funcs[0].nreg;
	CHECK_EQ(rename_func(m, &m->funcs[0]), 7);
	CHECK_EQ(m->funcs[0].nreg, before + 7);
	CHECK_EQ(fold_func(m, &m->funcs[0]), 2);
	ir_free(m);
}

TEST(sched_lat_constants_at_their_use)
{
	Module *m = compiled(K_CONSTS, "latency");
	if (!m) return;
	const Func *f = &m->funcs[0];
	int32_t movs = 0;
	for (int32_t i = 0; i < f->nins; i++) {
		const Ins *in = &f->ins[i];
		for (int k = 0; k < in->nd + in->ns; k++)   /* no global variable by name */
			CHECK(!(in->o[k].kind == OPK_ADDR && (in->o[k].flags & OPDF_SYMBASE) &&
			        in->space == SP_GLOBAL));
		if (in->op != OP_MOV || (in->o[1].kind != OPK_IMM && in->o[1].kind != OPK_SYM))
			continue;
		movs++;                /* each constant's copy just before its reader */
		CHECK(i + 1 < f->nins);
		if (i + 1 >= f->nins) break;
		const Ins *nx = &f->ins[i + 1];
		int reads = 0;
		for (int k = nx->nd; k < nx->nd + nx->ns; k++)
			reads |= (nx->o[k].kind == OPK_REG || nx->o[k].kind == OPK_ADDR) &&
			         nx->o[k].reg == in->o[0].reg;
		CHECK(reads);
	}
	CHECK_EQ(movs, 4);         /* sa in each block, gv, 1000 */
	ir_free(m);
	CHECK_EQ(regs_with(K_CONSTS, "latency"), 10);   /* ptxas -v -arch=sm_80: 10 */
}

TEST(sched_lat_abi_counts)
{
	CHECK_EQ(regs_with(K_INDIRECT, "latency"), 24);   /* R0..R21, and two: ptxas -v */
	CHECK_EQ(regs_with(K_EMPTY, "latency"), 4);
	CHECK(regs_with(K_INDIRECT, "pressure") < 24);
}

/* ---- the corpus property ---------------------------------------------- */

enum { MC_NONE, MC_LOAD, MC_STORE, MC_ORDER };

static int corpus_funcs, corpus_moved, corpus_bad;

static int clock_read(const Ins *in)
{
	for (int k = 0; k < in->nd + in->ns; k++)
		if (in->o[k].kind == OPK_SREG &&
		    (in->o[k].reg == SR_CLOCK || in->o[k].reg == SR_CLOCK_HI ||
		     in->o[k].reg == SR_CLOCK64 || in->o[k].reg == SR_GLOBALTIMER ||
		     in->o[k].reg == SR_GLOBALTIMER_LO || in->o[k].reg == SR_GLOBALTIMER_HI ||
		     in->o[k].reg == SR_PM))
			return 1;
	return 0;
}

static int mclass(const Ins *in)
{
	uint32_t sem = MOD_VOLATILE | MOD_RELAXED | MOD_ACQUIRE | MOD_RELEASE | MOD_ACQ_REL |
	               MOD_SC | MOD_MMIO;
	if (!op_info[in->op].flags) return clock_read(in) ? MC_ORDER : MC_NONE;
	if ((in->op == OP_LD || in->op == OP_LDU) && !(in->mods & sem)) return MC_LOAD;
	if (in->op == OP_TEX || in->op == OP_TLD4) return MC_LOAD;
	if (in->op == OP_ST && !(in->mods & sem)) return MC_STORE;
	return MC_ORDER;
}

static const Operand *addr(const Ins *in)
{
	for (int k = 0; k < in->nd + in->ns; k++)
		if (in->o[k].kind == OPK_ADDR) return &in->o[k];
	return NULL;
}

static int kparam_load(const Func *f, const Ins *in)
{
	const Operand *a = addr(in);
	if (in->space != SP_PARAM || !a || !(a->flags & OPDF_SYMBASE) || !(f->attr & ATTR_ENTRY))
		return 0;
	for (int32_t i = 0; i < f->nparam; i++)
		if (f->params[i] == a->reg) return 1;
	return 0;
}

/* 1 if x and y (one a store) provably touch different bytes; wx, wy: the
   writes their base register had seen */
static int disjoint(const Func *f, const Ins *x, const Ins *y, int32_t wx, int32_t wy)
{
	if (kparam_load(f, x) || kparam_load(f, y)) return 1;
	int sx = x->op == OP_TEX || x->op == OP_TLD4 ? SP_NONE : x->space;
	int sy = y->op == OP_TEX || y->op == OP_TLD4 ? SP_NONE : y->space;
	if (sx == SP_SHARED_CLUSTER) sx = SP_SHARED;
	if (sy == SP_SHARED_CLUSTER) sy = SP_SHARED;
	if (sx == SP_CONST || sy == SP_CONST) return 1;
	if (sx != SP_NONE && sy != SP_NONE && sx != sy) return 1;
	const Operand *a = addr(x), *b = addr(y);
	if (!a || !b || (a->flags & OPDF_SYMBASE) != (b->flags & OPDF_SYMBASE)) return 0;
	if ((a->flags & OPDF_SYMBASE) && a->reg != b->reg) return 1;
	if (a->reg != b->reg || (!(a->flags & OPDF_SYMBASE) && a->reg >= 0 && wx != wy)) return 0;
	int64_t nx = ptxtype_size((PtxType)x->type) * (x->vec ? x->vec : 1);
	int64_t ny = ptxtype_size((PtxType)y->type) * (y->vec ? y->vec : 1);
	return nx > 0 && ny > 0 && (a->imm + nx <= b->imm || b->imm + ny <= a->imm);
}

static void fail(const char *path, const Func *f, const char *what, int32_t i)
{
	if (corpus_bad++ < 10)
		unit_fail(__FILE__, __LINE__, "%s: function with %d instructions: %s at %d", path,
		          f->nins, what, i);
}

/* perm[new] = old index: the same instruction (source position and every
   field; remat.c's copies share a position) not taken before */
static int match(const Func *a, const Func *b, int32_t *perm)
{
	uint8_t *used = xcalloc((size_t)a->nins + 1, 1);
	int ok = a->nins == b->nins;
	for (int32_t j = 0; ok && j < b->nins; j++) {
		int32_t hit = -1;
		for (int32_t i = 0; i < a->nins && hit < 0; i++)
			if (!used[i] && !memcmp(&a->ins[i], &b->ins[j], sizeof(Ins))) hit = i;
		ok = hit >= 0;
		if (ok) used[hit] = 1, perm[j] = hit;
	}
	free(used);
	return ok;
}

/* per read and write of each instruction, the writes of its register before it */
static int32_t *write_counts(const Func *f, int32_t **start)
{
	int32_t buf[256], n = 0;
	for (int32_t i = 0; i < f->nins; i++)
		n += live_uses(f, &f->ins[i], buf, 256) + live_defs(f, &f->ins[i], buf, 256);
	int32_t *out = xmalloc(sizeof(int32_t) * ((size_t)n + 1)), at = 0;
	int32_t *seen = xcalloc((size_t)f->nreg + 1, sizeof(int32_t));
	*start = xmalloc(sizeof(int32_t) * ((size_t)f->nins + 1));
	for (int32_t p = 0; p < f->nins; p++) {
		const Ins *in = &f->ins[p];
		(*start)[p] = at;
		int u = live_uses(f, in, buf, 256);
		for (int q = 0; q < u; q++) out[at++] = seen[buf[q]];
		int d = live_defs(f, in, buf, 256);
		for (int q = 0; q < d; q++) out[at++] = seen[buf[q]];
		for (int q = 0; q < d; q++) seen[buf[q]]++;
	}
	free(seen);
	return out;
}

/* the writes the address base of in (instruction i of f) had seen, -1 none */
static int32_t base_writes(const Func *f, int32_t i, const int32_t *wc, const int32_t *start)
{
	const Ins *in = &f->ins[i];
	const Operand *a = addr(in);
	if (!a || (a->flags & OPDF_SYMBASE) || a->reg < 0) return -1;
	int32_t buf[256];
	int u = live_uses(f, in, buf, 256);
	for (int q = 0; q < u; q++)
		if (buf[q] == a->reg) return wc[start[i] + q];
	return -1;
}

static int carry_flag(const Ins *in)
{
	return (in->mods & MOD_CC) || in->op == OP_ADDC || in->op == OP_SUBC || in->op == OP_MADC;
}

static void check_memory(const Func *a, const Cfg *c, const int32_t *pos, const char *path)
{
	int32_t *start, *wc = write_counts(a, &start);
	for (int32_t y = 0, last_cc = -1; y < a->nins; y++) {     /* the carry flag's order */
		if (!carry_flag(&a->ins[y])) continue;
		if (last_cc >= 0 && c->block_of[last_cc] == c->block_of[y] && pos[last_cc] > pos[y])
			fail(path, a, "a carry-flag instruction passed another", y);
		last_cc = y;
	}
	for (int32_t y = 0; y < a->nins; y++) {
		int cy = mclass(&a->ins[y]);
		if (cy == MC_NONE) continue;
		for (int32_t x = c->blocks[c->block_of[y]].first; x < y; x++) {
			int cx = mclass(&a->ins[x]);
			if (cx == MC_NONE || pos[x] < pos[y] || (cx == MC_LOAD && cy == MC_LOAD)) continue;
			if (cx == MC_ORDER || cy == MC_ORDER) {
				fail(path, a, "an ordering instruction passed a memory access", y);
				continue;
			}
			if (!disjoint(a, &a->ins[x], &a->ins[y], base_writes(a, x, wc, start),
			              base_writes(a, y, wc, start)))
				fail(path, a, "a load or store passed a store it may overlap", y);
		}
	}
	free(wc), free(start);
}

static void check_func(const Func *a, const Func *b, const char *path)
{
	corpus_funcs++;
	int32_t *perm = xmalloc(sizeof(int32_t) * ((size_t)a->nins + 1));
	int32_t *pos = xmalloc(sizeof(int32_t) * ((size_t)a->nins + 1));
	if (!match(a, b, perm)) {
		fail(path, a, "not a permutation", 0);
		free(perm), free(pos);
		return;
	}
	Cfg *c = cfg_build(a);
	int32_t moved = 0;
	for (int32_t j = 0; j < b->nins; j++) {
		int32_t i = perm[j];
		pos[i] = j;
		moved += i != j;
		if (c->block_of[i] != c->block_of[j]) fail(path, a, "left its block", i);
		if ((op_info[a->ins[i].op].flags & (OPF_BRANCH | OPF_RET | OPF_EXIT | OPF_PSEUDO |
		                                    OPF_RFOP)) && i != j)
			fail(path, a, "control or pseudo moved", i);
	}
	corpus_moved += moved > 0;
	int32_t *sa, *sb, *wa = write_counts(a, &sa), *wb = write_counts(b, &sb), buf[256];
	for (int32_t j = 0; j < b->nins; j++) {     /* the same writes seen by each access */
		int n = live_uses(b, &b->ins[j], buf, 256) + live_defs(b, &b->ins[j], buf, 256);
		for (int q = 0; q < n; q++)
			if (wb[sb[j] + q] != wa[sa[perm[j]] + q]) fail(path, a, "register order broken", j);
	}
	for (int32_t k = 0; k < a->nlabel; k++)
		if (a->labels[k].ins != b->labels[k].ins) fail(path, a, "label moved", k);
	check_memory(a, c, pos, path);
	cfg_free(c);
	free(wa), free(wb), free(sa), free(sb), free(perm), free(pos);
}

static void prepare(Module *m, Func *f)
{
	remat_func(m, f);
	rename_func(m, f);
	fold_func(m, f);
}

static int visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb, (void)ftw;
	size_t n = strlen(path);
	if (type != FTW_F || n < 4 || strcmp(path + n - 4, ".ptx") || strstr(path, "/bad/"))
		return 0;
	char *text = read_file(path, FILE_PTX, &n);
	Module *a = text ? ptx_parse(text, n, path) : NULL;
	Module *b = a ? ptx_parse(text, n, path) : NULL;
	free(text);
	if (!b) {
		ir_free(a);
		return 0;
	}
	for (int32_t i = 0; i < b->nfunc; i++) {
		Func *fa = &a->funcs[i], *fb = &b->funcs[i];
		if (!fb->has_body || (fb->attr & ATTR_PROTO)) continue;
		prepare(a, fa);
		prepare(b, fb);
		if (fa->nins < 2000) {            /* the check is quadratic in a block */
			schedule_func(fb, SCHED_LATENCY, 7, NULL);
			check_func(fa, fb, path);
		}
	}
	ir_free(a), ir_free(b);
	return 0;
}

TEST(sched_lat_corpus_legal)
{
	corpus_funcs = corpus_moved = corpus_bad = 0;
	nftw("tests/ptx", visit, 16, 0);
	nftw("tests/sem", visit, 16, 0);
	nftw("workloads", visit, 16, 0);
	CHECK(corpus_funcs > 100);
	CHECK(corpus_moved > 50);
	CHECK_EQ(corpus_bad, 0);
	printf("sched_lat_corpus_legal: %d functions, %d reordered\n", corpus_funcs, corpus_moved);
}
