/*
 * test_parse.c -- the PTX front end on small inputs: what each
 * instruction's modifiers and operands become in the IR, declarations and
 * initializers, scopes, directives, the operand forms of ops.def, and
 * every error message in tests/ptx/bad/ and tests/ptx/invalid/ (each file
 * names its expected message on its first line: `// expect: LINE:COL:
 * message`).  Whole-file tests (corpus round trips, minified PTX,
 * truncation, ptxas) are in test_parse_corpus.c.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "ptx/ptx.h"
#include "unit.h"

#define HDR ".version 8.5\n.target sm_90\n.address_size 64\n"

static Module *parse(const char *text)
{
	Module *m = ptx_parse(text, strlen(text), "t.ptx");
	if (!m) fprintf(stderr, "parse error: %s\n", err_msg());
	return m;
}

/* parses, and checks that print -> parse gives the same IR */
static Module *parse_rt(const char *text)
{
	Module *m = parse(text);
	if (!m) return NULL;
	size_t n;
	char *s = ptx_print_str(m, &n);
	Module *m2 = ptx_parse(s, n, "printed.ptx");
	char why[256];
	if (!m2) unit_fail(__FILE__, __LINE__, "reparse: %s\n%s", err_msg(), s);
	else if (!ir_equal(m, m2, why, sizeof why))
		unit_fail(__FILE__, __LINE__, "round trip: %s\n%s", why, s);
	ir_free(m2);
	free(s);
	return m;
}

static char buf[8192];

/* a kernel with the usual registers around body */
static Module *kern(const char *body)
{
	snprintf(buf, sizeof buf, HDR
	         ".global .align 4 .u32 gvar[4];\n.shared .align 4 .b8 smem_arr[64];\n"
	         ".visible .entry k(.param .u64 p0)\n{\n"
	         "\t.reg .pred %%p<9>;\n\t.reg .b16 %%rs<9>;\n\t.reg .b32 %%r<20>;\n"
	         "\t.reg .b64 %%rd<20>;\n\t.reg .f32 %%f<20>;\n\t.reg .f64 %%fd<9>;\n"
	         "%s\n}\n", body);
	return parse_rt(buf);
}

/* the first instruction of `ins` alone in a kernel (freed on the next call) */
static Module *last;
static const Ins *one(const char *ins)
{
	ir_free(last);
	last = kern(ins);
	if (!last || !last->nfunc || last->funcs[last->nfunc - 1].nins < 1) return NULL;
	return &last->funcs[last->nfunc - 1].ins[0];
}

static const char *fail_msg(const char *text)
{
	Module *m = ptx_parse(text, strlen(text), "t.ptx");
	if (m) {
		ir_free(m);
		return "(parsed without error)";
	}
	return err_msg();
}

/* ---- tables ------------------------------------------------------------------ */

TEST(parse_tables)
{
	for (int op = 0; op < NOP_; op++) {
		CHECK(op_info[op].name != NULL);
		if (op != OP_SCOPE_BEGIN && op != OP_SCOPE_END)
			CHECK_EQ(op_lookup(op_info[op].name, strlen(op_info[op].name)), op);
	}
	CHECK_EQ(op_lookup("nosuch", 6), -1);
	for (int i = 1; i < NPTXTYPE; i++) {
		CHECK(ptxtype_name[i] && *ptxtype_name[i]);
		CHECK_EQ(ptxtype_lookup(ptxtype_name[i], strlen(ptxtype_name[i])), i);
	}
	for (int i = 1; i < NSPACE; i++) CHECK(space_name[i] && *space_name[i]);
	for (int i = 1; i < NCMP; i++) CHECK(cmp_name[i] && *cmp_name[i]);
	for (int i = 1; i < NRND; i++) CHECK(rnd_name[i] && *rnd_name[i]);
	for (int i = 1; i < NATOMOP; i++) CHECK(atomop_name[i] && *atomop_name[i]);
	for (int i = 1; i < NMODE; i++) CHECK(mode_name[i] && *mode_name[i]);
	for (int i = 0; i < NSREG; i++) CHECK(sreg_name[i] && *sreg_name[i]);
	CHECK_EQ(ptxtype_size(PT_F16X2), 4);
	CHECK_EQ(ptxtype_size(PT_B128), 16);
	CHECK_EQ(ptxtype_size(PT_PRED), 0);
	CHECK(ptxtype_is_signed(PT_S8) && !ptxtype_is_signed(PT_U64));
	CHECK(ptxtype_is_float(PT_BF16X2) && !ptxtype_is_float(PT_B32));
}

/* every form in ops.def, and each variant ins_form picks, is well made: letters of
 * the form language, one '=', at most one destination and a piped second, [ ] not
 * nested, no more operands than an Ins holds */
static void check_form(const char *f, const char *what)
{
	const char *eq = strchr(f, '=');
	if (!strcmp(f, "-")) return;
	if (!eq || strchr(eq + 1, '=') || eq - f > 3 || (eq - f >= 2 && f[1] != '|') ||
	    (eq - f == 2)) {
		unit_fail(__FILE__, __LINE__, "%s: bad destinations in form \"%s\"", what, f);
		return;
	}
	int open = 0;
	for (const char *c = f; *c; c++) {
		if (c < eq && (*c == '=' || *c == '|')) continue;
		if (*c == '[' || *c == ']') {
			if (open == (*c == '[')) unit_fail(__FILE__, __LINE__, "%s: \"%s\"", what, f);
			open = *c == '[';
		} else if (c != eq && !strchr("aAblLuBpnmijx*", *c)) {
			unit_fail(__FILE__, __LINE__, "%s: letter '%c' in \"%s\"", what, *c, f);
		}
	}
	FormShape sh = form_shape(f);
	CHECK(!open && sh.lo <= sh.hi && sh.nd + sh.pipe + sh.hi <= INS_MAXOPD);
}

TEST(parse_forms)
{
	for (int op = 0; op < NOP_; op++) check_form(op_info[op].form, op_info[op].name);
	Ins in;
	memset(&in, 0, sizeof in);
	static const struct { int op, mode, mods, aop, type, type2; } var[] = {
		{OP_VOTE, MODE_ANY, MOD_SYNC, 0, PT_PRED, 0}, {OP_VOTE, MODE_ANY, 0, 0, PT_PRED, 0},
		{OP_SHFL, MODE_IDX, 0, 0, PT_B32, 0}, {OP_ATOM, 0, 0, AOP_CAS, PT_B32, 0},
		{OP_CVT, 0, 0, 0, PT_F16X2, PT_F32}, {OP_BAR, MODE_RED, 0, AOP_POPC, PT_U32, 0},
		{OP_BAR, MODE_ARRIVE, 0, 0, 0, 0}, {OP_BARRIER, MODE_SYNC, MOD_WARP, 0, 0, 0},
	};
	for (size_t i = 0; i < sizeof var / sizeof *var; i++) {
		in.op = (uint16_t)var[i].op, in.mode = (uint8_t)var[i].mode;
		in.mods = (uint32_t)var[i].mods, in.aop = (uint8_t)var[i].aop;
		in.type = (uint8_t)var[i].type, in.type2 = (uint8_t)var[i].type2;
		check_form(ins_form(&in), op_info[in.op].name);
	}
	/* optional sources fill left to right; a piped destination is the second class */
	CHECK_EQ(form_class("a=u[u]p", 1, 2, 2), 'p');
	CHECK_EQ(form_class("a=u[u]p", 1, 3, 2), 'u');
	CHECK_EQ(form_class("a=u[u]p", 1, 3, 3), 'p');
	CHECK_EQ(form_class("=mmx[x][x]", 0, 4, 3), 'x');
	CHECK_EQ(form_class("=mmx[x][x]", 0, 4, 4), 0);
	CHECK_EQ(form_class("p|p=aa[p]", 2, 3, 1), 'p');
	CHECK_EQ(form_class("p|p=aa[p]", 1, 2, 1), 'a');
	CHECK_EQ(form_class("=[******]", 0, 3, 2), '*');
	FormShape sh = form_shape("a|p=aaai[p]");
	CHECK(sh.nd == 1 && sh.pipe == 1 && sh.lo == 4 && sh.hi == 5);
	sh = form_shape("-");
	CHECK(sh.nd == 0 && sh.pipe == 0 && sh.hi == 0);
}

TEST(parse_intern)
{
	Module *m = ir_new("x.ptx");
	CHECK_EQ(ir_intern(m, "", 0), 0);
	uint32_t a = ir_intern(m, "alpha", 5), b = ir_intern(m, "beta", 4);
	CHECK(a != b);
	CHECK_EQ(ir_intern(m, "alpha!", 5), a);
	CHECK_STR(ir_str(m, b), "beta");
	CHECK_EQ(ir_str_find(m, "beta", 4), b);
	CHECK_EQ(ir_str_find(m, "gamma", 5), -1);
	char name[16];
	for (int i = 0; i < 5000; i++) {       /* forces several rehashes */
		int n = snprintf(name, sizeof name, "n%d", i);
		CHECK_EQ(ir_intern(m, name, (size_t)n), ir_intern(m, name, (size_t)n));
	}
	CHECK_STR(ir_str(m, (uint32_t)ir_str_find(m, "n4321", 5)), "n4321");
	CHECK_STR(ir_str(m, a), "alpha");
	ir_free(m);
}

/* ---- modifiers ----------------------------------------------------------------- */

TEST(parse_mod_cvt_setp_mad)
{
	const Ins *in = one("\tcvt.rni.s32.f32 %r1, %f1;");
	CHECK(in && in->op == OP_CVT && in->type == PT_S32 && in->type2 == PT_F32);
	CHECK(in && in->rnd == RND_RNI && in->nd == 1 && in->ns == 1);
	in = one("\tsetp.ltu.and.f32 %p1, %f1, %f2, %p2;");
	CHECK(in && in->cmp == CMP_LTU && in->bop == BOP_AND && in->type == PT_F32);
	CHECK(in && in->nd == 1 && in->ns == 3);
	in = one("\tmad.wide.s32 %rd1, %r1, %r2, %rd2;");
	CHECK(in && in->op == OP_MAD && in->mode == MODE_WIDE && in->type == PT_S32);
	in = one("\tmul.hi.u32 %r1, %r2, %r3;");
	CHECK(in && in->mode == MODE_HI);
	in = one("\tsetp.lo.u32 %p1, %r2, %r3;");
	CHECK(in && in->cmp == CMP_LO && in->mode == MODE_NONE);
	in = one("\tset.lt.u32.f32 %r1, %f1, %f2;");   /* type: result; type2: compared */
	CHECK(in && in->op == OP_SET && in->type == PT_U32 && in->type2 == PT_F32);
	in = one("\tcvt.rn.f16.f32 %rs1, %f1;");
	CHECK(in && in->type == PT_F16 && in->type2 == PT_F32 && in->rnd == RND_RN);
	in = one("\tcvt.f32.f16 %f1, %rs1;");
	CHECK(in && in->type == PT_F32 && in->type2 == PT_F16 && in->rnd == RND_NONE);
	in = one("\tmad.lo.cc.u32 %r1, %r2, %r3, %r4;");
	CHECK(in && in->mode == MODE_LO && (in->mods & MOD_CC));
	in = one("\taddc.cc.u32 %r1, %r2, %r3;");
	CHECK(in && in->op == OP_ADDC && in->mods == MOD_CC);
	in = one("\tdp4a.u32.u32 %r1, %r2, %r3, %r4;");
	CHECK(in && in->op == OP_DP4A && in->type == PT_U32 && in->type2 == PT_U32);
	ir_free(last), last = NULL;
}

TEST(parse_mod_memory)
{
	const Ins *in = one("\tatom.global.cas.b32 %r1, [%rd1], %r2, %r3;");
	CHECK(in && in->op == OP_ATOM && in->space == SP_GLOBAL && in->aop == AOP_CAS);
	CHECK(in && in->nd == 1 && in->ns == 3 && in->o[1].kind == OPK_ADDR);
	in = one("\tatom.global.and.b32 %r1, [%rd1], %r2;");
	CHECK(in && in->aop == AOP_AND && in->bop == BOP_NONE);
	in = one("\tred.release.gpu.global.add.u32 [%rd1], 1;");
	CHECK(in && in->op == OP_RED && in->mods == MOD_RELEASE && in->mode == MODE_GPU);
	CHECK(in && in->space == SP_GLOBAL && in->aop == AOP_ADD && in->nd == 0 && in->ns == 2);
	in = one("\tatom.acq_rel.sys.global.add.u32 %r1, [%rd1], 1;");
	CHECK(in && in->mods == MOD_ACQ_REL && in->mode == MODE_SYS && in->aop == AOP_ADD);
	in = one("\tatom.or.acquire.sys.b32 %r1, [%rd1], 1;");          /* nvcc -G order */
	CHECK(in && in->mods == MOD_ACQUIRE && in->mode == MODE_SYS && in->aop == AOP_OR);
	in = one("\tld.volatile.shared.u32 %r1, [%rd1];");
	CHECK(in && in->mods == MOD_VOLATILE && in->space == SP_SHARED);
	in = one("\tcvta.to.global.u64 %rd1, %rd2;");
	CHECK(in && in->op == OP_CVTA && in->mods == MOD_TO && in->space == SP_GLOBAL);
	in = one("\tisspacep.shared %p1, %rd1;");
	CHECK(in && in->op == OP_ISSPACEP && in->space == SP_SHARED);
	in = one("\tld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];");
	CHECK(in && in->mods == MOD_NC && in->vec == 4 && in->type == PT_F32);
	CHECK(in && !strcmp(ir_str(last, in->hints), ".L1::no_allocate.L2::256B"));
	CHECK(in && in->o[0].kind == OPK_VEC && in->o[0].n == 4);
	in = one("\tld.global.L2::cache_hint.f32 %f1, [%rd1], %rd2;");
	CHECK(in && in->ns == 2 && !strcmp(ir_str(last, in->hints), ".L2::cache_hint"));
	in = one("\tld.global.L1::evict_last.f32 %f1, [%rd1];");
	CHECK(in && !strcmp(ir_str(last, in->hints), ".L1::evict_last"));
	in = one("\tst.global.cs.f32 [%rd1], %f1;");
	CHECK(in && in->nd == 0 && in->ns == 2 && !strcmp(ir_str(last, in->hints), ".cs"));
	in = one("\tprefetch.global.L2 [%rd1];");
	CHECK(in && in->op == OP_PREFETCH && !strcmp(ir_str(last, in->hints), ".L2"));
	in = one("\tld.shared::cluster.u32 %r1, [%rd1];");
	CHECK(in && in->space == SP_SHARED_CLUSTER);
	in = one("\tmembar.gl;");
	CHECK(in && in->op == OP_MEMBAR && in->mode == MODE_GL && in->nd + in->ns == 0);
	in = one("\tfence.acq_rel.gpu;");
	CHECK(in && in->op == OP_FENCE && in->mods == MOD_ACQ_REL && in->mode == MODE_GPU);
	in = one("\tfence.sc.cta;");
	CHECK(in && in->mods == MOD_SC && in->mode == MODE_CTA);
	ir_free(last), last = NULL;
}

TEST(parse_mod_warp_sync)
{
	const Ins *in = one("\tshfl.sync.down.b32 %r1|%p1, %r2, 1, 31, -1;");
	CHECK(in && in->mods == MOD_SYNC && in->mode == MODE_DOWN && in->nd == 2 && in->ns == 4);
	CHECK(in && (in->o[1].flags & OPDF_PIPE) && in->o[1].kind == OPK_REG);
	in = one("\tvote.sync.ballot.b32 %r1, %p1, -1;");
	CHECK(in && in->mods == MOD_SYNC && in->mode == MODE_BALLOT);
	in = one("\tvote.sync.ballot.b32 %r1, !1, -1;");     /* a negated constant predicate */
	CHECK(in && in->o[1].kind == OPK_IMM && in->o[1].imm == 1 && (in->o[1].flags & OPDF_NEG));
	in = one("\tvote.sync.uni.pred %p1, %p2, -1;");
	CHECK(in && in->mode == MODE_UNI && in->type == PT_PRED && !(in->mods & MOD_UNI));
	in = one("\tmatch.any.sync.b32 %r1, %r2, -1;");
	CHECK(in && in->mode == MODE_MATCH_ANY && in->mods == MOD_SYNC);
	in = one("\tmatch.all.sync.b32 %r1|%p1, %r2, -1;");
	CHECK(in && in->mode == MODE_MATCH_ALL && in->nd == 2);
	in = one("\tredux.sync.add.u32 %r1, %r2, -1;");
	CHECK(in && in->op == OP_REDUX && in->aop == AOP_ADD && in->mods == MOD_SYNC);
	in = one("\tbar.sync 0;");
	CHECK(in && in->op == OP_BAR && in->mode == MODE_SYNC && in->nd == 0 && in->ns == 1);
	in = one("\tbarrier.sync.aligned 0;");
	CHECK(in && in->op == OP_BARRIER && in->mode == MODE_SYNC && in->mods == MOD_ALIGNED);
	in = one("\tbar.warp.sync -1;");
	CHECK(in && in->mode == MODE_SYNC && in->mods == MOD_WARP);
	in = one("\tbar.red.popc.u32 %r1, 0, %p1;");
	CHECK(in && in->mode == MODE_RED && in->aop == AOP_POPC && in->nd == 1 && in->ns == 2);
	in = one("\tactivemask.b32 %r1;");
	CHECK(in && in->op == OP_ACTIVEMASK && in->nd == 1 && in->ns == 0);
	ir_free(last), last = NULL;
}

TEST(parse_mod_alu)
{
	const Ins *in = one("\tprmt.b32.rc8 %r1, %r2, %r3, %r4;");
	CHECK(in && in->mode == MODE_RC8 && in->type == PT_B32);
	in = one("\tbfind.shiftamt.u32 %r1, %r2;");
	CHECK(in && in->mods == MOD_SHIFTAMT);
	in = one("\tmin.NaN.f32 %f1, %f2, %f3;");
	CHECK(in && in->mods == MOD_NAN);
	in = one("\ttestp.finite.f32 %p1, %f1;");
	CHECK(in && in->mode == MODE_FINITE);
	in = one("\tsqrt.rn.ftz.f32 %f1, %f2;");
	CHECK(in && in->rnd == RND_RN && in->mods == MOD_FTZ);
	in = one("\tex2.approx.ftz.f32 %f1, %f2;");
	CHECK(in && in->mods == (MOD_APPROX | MOD_FTZ));
	in = one("\tadd.rz.sat.f32 %f1, %f2, %f3;");
	CHECK(in && in->rnd == RND_RZ && in->mods == MOD_SAT);
	in = one("\tfma.rn.f16x2 %r1, %r2, %r3, %r4;");
	CHECK(in && in->type == PT_F16X2);
	in = one("\tshf.l.wrap.b32 %r1, %r2, %r3, %r4;");
	CHECK(in && in->mode == MODE_L && in->mods == MOD_WRAP);
	in = one("\tlop3.b32 %r1, %r2, %r3, %r4, 0x96;");
	CHECK(in && in->ns == 4 && in->o[4].kind == OPK_IMM && in->o[4].imm == 0x96);
	CHECK(in && (in->o[4].flags & OPDF_HEXLIT));
	in = one("\tmin.xorsign.abs.f32 %f1, %f2, %f3;");
	CHECK(in && in->mods == (MOD_XORSIGN | MOD_ABS));
	in = one("\tdiv.full.f32 %f1, %f2, %f3;");
	CHECK(in && in->mods == MOD_FULL);
	in = one("\tmov.b64 %rd1, {%r1, %r2};");
	CHECK(in && in->o[1].kind == OPK_VEC && in->o[1].n == 2);
	CHECK(in && last->funcs[0].vops[in->o[1].reg + 1].kind == OPK_REG);
	in = one("\tmov.b64 {%r1, %r2}, %rd1;");
	CHECK(in && in->o[0].kind == OPK_VEC && in->nd == 1 && in->ns == 1);
	in = one("\tfma.rn.relu.bf16 %rs1, %rs2, %rs3, %rs4;");
	CHECK(in && in->mods == MOD_RELU && in->type == PT_BF16);
	in = one("\tadd.noftz.bf16 %rs1, %rs2, %rs3;");
	CHECK(in && in->mods == MOD_NOFTZ);
	ir_free(last), last = NULL;
}

TEST(parse_control)
{
	Module *m = kern("$L1:\n\t@%p1 bra.uni $L1;\n\t@!%p2 bra $L2;\n\tret.uni;\n$L2:\n\texit;");
	CHECK(m != NULL);
	if (!m) return;
	const Func *f = &m->funcs[0];
	CHECK_EQ(f->nins, 4);
	CHECK_EQ(f->nlabel, 2);
	CHECK(f->ins[0].op == OP_BRA && f->ins[0].mods == MOD_UNI && f->ins[0].guard_neg == 0);
	CHECK(f->ins[0].o[0].kind == OPK_LABEL && f->labels[f->ins[0].o[0].reg].ins == 0);
	CHECK(f->ins[1].guard_neg == 1 && f->labels[f->ins[1].o[0].reg].ins == 3);
	CHECK(f->ins[2].op == OP_RET && f->ins[2].mods == MOD_UNI);
	CHECK_EQ(ir_label_of(f, 3), 1);
	CHECK_EQ(ir_label_of(f, 1), -1);
	char name[32];
	CHECK_STR(ir_regname(m, f, f->ins[1].guard, name, sizeof name), "%p2");
	ir_free(m);
}

/* labels are block-scoped, as in ptxas: inline asm pasted twice defines its
 * label twice, in two blocks */
TEST(parse_label_scopes)
{
	Module *m = kern("\t{\nL1:\n\t@%p1 bra L1;\n\tbra OUT;\n\t}\n\t{\nL1:\n\t@%p1 bra L1;\n"
	                 "\t{\n\tbra L1;\n\t}\n\t}\nOUT:\n\tret;");
	CHECK(m != NULL);
	if (!m) return;
	const Func *f = &m->funcs[0];
	CHECK_EQ(f->nlabel, 3);
	CHECK(f->ins[1].o[0].reg == 0 && f->ins[2].o[0].reg == 2);
	CHECK(f->ins[5].o[0].reg == 1 && f->ins[7].o[0].reg == 1);
	ir_free(m);
	CHECK_CONTAINS(fail_msg(HDR ".entry k() { { L1: ret; } bra L1; }"), "undefined label 'L1'");
	CHECK_CONTAINS(fail_msg(HDR ".entry k() { { L1: L1: ret; } }"), "duplicate label 'L1'");
}

/* ---- operands ------------------------------------------------------------------ */

static int64_t imm_of(const char *ins, int k, int *flags)
{
	const Ins *in = one(ins);
	*flags = -1;
	if (!in) return -999;
	*flags = in->o[k].flags;
	CHECK_EQ(in->o[k].kind, OPK_IMM);
	return in->o[k].imm;
}

TEST(parse_immediates)
{
	int fl;
	CHECK_EQ(imm_of("\tmov.u32 %r1, 42;", 1, &fl), 42);
	CHECK_EQ(fl, 0);
	CHECK_EQ(imm_of("\tmov.u32 %r1, 0x2A;", 1, &fl), 42);
	CHECK_EQ(fl, OPDF_HEXLIT);
	CHECK_EQ(imm_of("\tmov.u32 %r1, 052;", 1, &fl), 42);
	CHECK_EQ(imm_of("\tmov.u32 %r1, 0b101010;", 1, &fl), 42);
	CHECK_EQ(imm_of("\tmov.u32 %r1, 42U;", 1, &fl), 42);
	CHECK_EQ(imm_of("\tadd.s32 %r1, %r2, -7;", 2, &fl), -7);
	CHECK_EQ(imm_of("\tmov.b64 %rd1, 0xFFFFFFFFFFFFFFFF;", 1, &fl), -1);
	CHECK_EQ(imm_of("\tmov.f32 %f1, 0f3F800000;", 1, &fl), 0x3F800000);
	CHECK_EQ(fl, OPDF_F32LIT);
	CHECK_EQ(imm_of("\tmov.f32 %f1, -0f3F800000;", 1, &fl), 0xBF800000);
	CHECK_EQ(imm_of("\tmov.f32 %f1, 1.5;", 1, &fl), 0x3FC00000);
	CHECK_EQ(fl, OPDF_F32LIT);
	CHECK_EQ_U64(imm_of("\tmov.f64 %fd1, 0d3FF8000000000000;", 1, &fl), 0x3FF8000000000000);
	CHECK_EQ(fl, OPDF_F64LIT);
	CHECK_EQ_U64(imm_of("\tadd.f64 %fd1, %fd2, 1.5;", 2, &fl), 0x3FF8000000000000);
	CHECK_EQ(fl, OPDF_F64LIT);
	CHECK_EQ_U64(imm_of("\tmul.f64 %fd1, %fd2, -2.5e1;", 2, &fl), 0xC039000000000000);
	ir_free(last), last = NULL;
}

TEST(parse_special_registers)
{
	static const struct { const char *name; int sr, comp; } t[] = {
		{"%tid.x", SR_TID, 1}, {"%ctaid.y", SR_CTAID, 2}, {"%nctaid.z", SR_NCTAID, 3},
		{"%laneid", SR_LANEID, 0}, {"%lanemask_lt", SR_LANEMASK_LT, 0},
		{"%clock64", SR_CLOCK64, 0}, {"%clock", SR_CLOCK, 0}, {"%envreg3", SR_ENVREG, 3},
		{"%envreg31", SR_ENVREG, 31}, {"%pm7", SR_PM, 7}, {"%smid", SR_SMID, 0},
		{"%globaltimer_lo", SR_GLOBALTIMER_LO, 0}, {"%cluster_ctarank", SR_CLUSTER_CTARANK, 0},
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		char ins[64];
		int wide = t[i].sr == SR_CLOCK64;
		snprintf(ins, sizeof ins, "\tmov.u%d %s, %s;", wide ? 64 : 32, wide ? "%rd1" : "%r1",
		         t[i].name);
		const Ins *in = one(ins);
		CHECK(in && in->o[1].kind == OPK_SREG);
		if (!in) continue;
		CHECK_EQ(in->o[1].reg, t[i].sr);
		CHECK_EQ(in->o[1].comp, t[i].comp);
	}
	ir_free(last), last = NULL;
	CHECK_CONTAINS(fail_msg(HDR ".entry k() { .reg .b32 %r1; mov.u32 %r1, %envreg32; }"),
	               "undefined register '%envreg32'");
	CHECK_CONTAINS(fail_msg(HDR ".entry k() { .reg .b32 %r1; mov.u32 %r1, %tid.w; }"),
	               "undefined register '%tid.w'");
}

TEST(parse_addresses)
{
	const Ins *in = one("\tld.global.u32 %r1, [%rd1];");
	CHECK(in && in->o[1].kind == OPK_ADDR && in->o[1].imm == 0 && !in->o[1].flags);
	in = one("\tld.global.u32 %r1, [%rd1+16];");
	CHECK(in && in->o[1].imm == 16);
	in = one("\tld.global.u32 %r1, [%rd1+-4];");
	CHECK(in && in->o[1].imm == -4);
	in = one("\tld.global.u32 %r1, [%rd1-8];");
	CHECK(in && in->o[1].imm == -8);
	in = one("\tld.global.u32 %r1, [gvar];");
	CHECK(in && (in->o[1].flags & OPDF_SYMBASE) && in->o[1].imm == 0);
	CHECK(in && !strcmp(ir_str(last, last->syms[in->o[1].reg].name), "gvar"));
	in = one("\tld.global.u32 %r1, [gvar+8];");
	CHECK(in && (in->o[1].flags & OPDF_SYMBASE) && in->o[1].imm == 8);
	in = one("\tld.global.u32 %r1, [0x100];");
	CHECK(in && in->o[1].reg == -1 && in->o[1].imm == 256);
	in = one("\tld.param.u64 %rd1, [p0];");
	CHECK(in && in->o[1].kind == OPK_ADDR && last->syms[in->o[1].reg].kind == SYM_PARAM);
	in = one("\tmov.u64 %rd1, gvar;");
	CHECK(in && in->o[1].kind == OPK_SYM);
	in = one("\tmov.u32 %r1, smem_arr;");
	CHECK(in && in->o[1].kind == OPK_SYM && last->syms[in->o[1].reg].space == SP_SHARED);
	in = one("\tld.global.v4.u32 {%r1, %r2, _, %r4}, [%rd1];");
	CHECK(in && in->o[0].n == 4 && last->funcs[0].vops[in->o[0].reg + 2].kind == OPK_SINK);
	in = one("\tselp.b32 %r1, %r2, 5, %p1;");
	CHECK(in && in->ns == 3 && in->o[2].kind == OPK_IMM);
	in = one("\tsetp.eq.and.s32 %p1, %r1, %r2, !%p2;");
	CHECK(in && (in->o[3].flags & OPDF_NEG));
	in = one("\tsetp.lt.s32 %p1|%p2, %r1, %r2;");
	CHECK(in && in->nd == 2 && (in->o[1].flags & OPDF_PIPE));
	ir_free(last), last = NULL;
}

/* ---- declarations ---------------------------------------------------------------- */

static const Sym *sym_named(const Module *m, const char *name)
{
	int32_t s = ir_find_sym(m, name);
	return s >= 0 ? &m->syms[s] : NULL;
}

static uint32_t u32_at(const Sym *s, int i)
{
	uint32_t v;
	memcpy(&v, s->init + 4 * i, 4);
	return v;
}

TEST(parse_variables)
{
	Module *m = parse_rt(HDR
		".global .align 4 .u32 md[4][8];\n"
		".global .u32 arr[] = {1, 2, 3};\n"
		".const .align 4 .f32 c[3] = {1.5, 0f40000000, -1};\n"
		".global .u32 nested[2][2] = {{1, 2}, {3}};\n"
		".global .align 8 .u64 p = generic(arr)+8;\n"
		".global .align 8 .u64 tab[3] = {arr, generic(md), 7};\n"
		".global .align 1 .u8 q[11] = {1, 0XFF(generic(md)+4), 0xFF00(generic(md)+4), "
		"0xFF0000(generic(md)+4), 0xFF000000(generic(md)+4), 0xFF00000000(generic(md)+4), "
		"0xFF0000000000(generic(md)+4), 0xFF000000000000(generic(md)+4), "
		"0xFF00000000000000(generic(md)+4), 7};\n"
		".extern .shared .align 16 .b8 dyn[];\n"
		".weak .global .s16 w = -2;\n.common .global .u32 cm;\n"
		".visible .global .v2 .f32 vv = {1.0, 2.0};\n"
		".global .b8 a1, a2[2] = {9, 8}, a3;\n");
	CHECK(m != NULL);
	if (!m) return;
	const Sym *s = sym_named(m, "md");
	CHECK(s && s->count == 32 && s->align == 4 && s->type == PT_U32 && !s->init);
	CHECK(s && sym_size(s) == 128);
	s = sym_named(m, "arr");
	CHECK(s && s->count == 3 && u32_at(s, 0) == 1 && u32_at(s, 2) == 3);
	s = sym_named(m, "c");
	CHECK(s && u32_at(s, 0) == 0x3FC00000 && u32_at(s, 1) == 0x40000000);
	CHECK(s && u32_at(s, 2) == 0xBF800000 && s->space == SP_CONST);
	s = sym_named(m, "nested");
	CHECK(s && s->count == 4 && u32_at(s, 2) == 3 && u32_at(s, 3) == 0);
	s = sym_named(m, "p");
	CHECK(s && s->init_nsym == 1 && s->isyms[0].generic && s->isyms[0].addend == 8);
	CHECK(s && s->isyms[0].size == 8 && s->isyms[0].offset == 0);
	s = sym_named(m, "tab");
	CHECK(s && s->init_nsym == 2 && !s->isyms[0].generic && s->isyms[1].offset == 8);
	CHECK(s && s->init[16] == 7);
	s = sym_named(m, "q");
	CHECK(s && s->init_nsym == 1 && s->isyms[0].offset == 1 && s->isyms[0].size == 8);
	CHECK(s && s->isyms[0].addend == 4 && s->init[0] == 1 && s->init[9] == 7);
	s = sym_named(m, "dyn");
	CHECK(s && s->count == -1 && s->attr == ATTR_EXTERN && s->space == SP_SHARED);
	CHECK(s && sym_size(s) == 0);
	s = sym_named(m, "w");
	CHECK(s && s->attr == ATTR_WEAK && s->init[0] == 0xFE && s->init[1] == 0xFF);
	CHECK(sym_named(m, "cm") && sym_named(m, "cm")->attr == ATTR_COMMON);
	s = sym_named(m, "vv");
	CHECK(s && s->vec == 2 && sym_size(s) == 8 && u32_at(s, 1) == 0x40000000);
	s = sym_named(m, "a2");
	CHECK(s && s->count == 2 && s->init[1] == 8 && sym_named(m, "a3"));
	CHECK_EQ(m->nglobal, 14);
	ir_free(m);
}

TEST(parse_registers_and_scopes)
{
	Module *m = parse_rt(HDR ".visible .entry k()\n{\n"
		"\t.reg .b32 %a, %b;\n\t.reg .b32 %r<5>;\n\t.reg .pred p;\n\t.reg .b64 %r1x<2>;\n"
		"\tmov.u32 %a, %r4;\n\tmov.u64 %r1x1, 0;\n"
		"\t{\n\t.reg .b32 temp;\n\t.param .b32 param0;\n\tmov.u32 temp, %a;\n\t}\n"
		"\t{\n\t.reg .b32 temp;\n\t.param .b32 param0;\n\t.reg .b32 %a;\n"
		"\tmov.u32 %a, temp;\n\t}\n\tmov.u32 %a, 1;\n}\n");
	CHECK(m != NULL);
	if (!m) return;
	const Func *f = &m->funcs[0];
	CHECK_EQ(f->nreg, 2 + 5 + 1 + 2 + 1 + 1 + 1);
	CHECK_EQ(f->nrdecl, 8);
	CHECK(f->rdecl[0].count == 0 && f->rdecl[2].count == 5 && f->rdecl[2].base == 2);
	CHECK(f->regtype[7] == PT_PRED);
	CHECK_EQ(f->ins[0].o[1].reg, 6);                  /* %r4 */
	CHECK_EQ(f->ins[1].o[0].reg, 9);                  /* %r1x1 */
	CHECK(f->ins[2].op == OP_SCOPE_BEGIN && f->ins[4].op == OP_SCOPE_END);
	CHECK_EQ(f->rdecl[5].scope, 2);
	CHECK_EQ(f->nlocal, 2);
	CHECK_EQ(m->syms[f->locals[1]].scope, 5);
	CHECK_EQ(m->syms[f->locals[1]].kind, SYM_PARAM);
	CHECK_EQ(f->ins[6].o[0].reg, 12);                 /* the inner %a */
	CHECK_EQ(f->ins[8].o[0].reg, 0);                  /* the outer %a again */
	char name[32];
	CHECK_STR(ir_regname(m, f, 9, name, sizeof name), "%r1x1");
	CHECK_STR(ir_regname(m, f, 1, name, sizeof name), "%b");
	ir_free(m);
}

/* kernel-parameter pointer attributes are accepted and dropped */
TEST(parse_param_attributes)
{
	Module *m = parse_rt(HDR ".visible .entry k(.param .u64 .ptr.global.align 4 a,\n"
	                     "\t.param .u64 .ptr .shared .align 16 b, .param .align 16 .b8 c[32],\n"
	                     "\t.param .u64 .ptr.align 8 d)\n{\n\tret;\n}\n");
	CHECK(m != NULL);
	if (!m) return;
	const Func *f = &m->funcs[0];
	CHECK_EQ(f->nparam, 4);
	CHECK(m->syms[f->params[0]].align == 0 && m->syms[f->params[0]].type == PT_U64);
	CHECK(m->syms[f->params[1]].align == 0 && m->syms[f->params[1]].space == SP_PARAM);
	CHECK(m->syms[f->params[2]].align == 16 && m->syms[f->params[2]].count == 32);
	CHECK(m->syms[f->params[3]].align == 0);
	ir_free(m);
}

/* declarations after a nested block keep their ids through print -> parse */
TEST(parse_decl_order)
{
	Module *m = parse_rt(HDR ".visible .entry k()\n{\n\t.reg .b32 %a;\n"
		"\t{\n\t.reg .b32 %b;\n\t.param .b32 x;\n\t{\n\t.reg .b32 %d;\n\t}\n"
		"\t.reg .b32 %e;\n\t}\n\t.reg .b32 %c;\n\t.param .b32 y;\n"
		"\t{\n\t.param .b32 z;\n\t}\n\t.reg .b64 %f;\n\tmov.u32 %c, %a;\n}\n");
	CHECK(m != NULL);
	if (!m) return;
	const Func *f = &m->funcs[0];
	CHECK_EQ(f->nreg, 6);
	CHECK_EQ(f->ins[f->nins - 1].o[0].reg, 4);          /* %c */
	ir_free(m);
}

TEST(parse_functions_and_calls)
{
	Module *m = parse_rt(HDR
		".extern .func (.param .b32 r) ext(.param .b32 a);\n"
		".func (.param .b32 fr) fwd(.param .b32 fa, .param .align 8 .b8 s[40]);\n"
		".func (.param .b32 tr) target_fn(.param .b32 ta)\n{\n\tret;\n}\n"
		".visible .func (.param .b32 tr) al(.param .b32 ta);\n.alias al, target_fn;\n"
		".visible .entry k(.param .u64 .ptr .global .align 16 kp)\n"
		".maxntid 256\n.minnctapersm 4\n{\n"
		"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n"
		"\t{\n\t.param .b32 param0;\n\t.param .align 8 .b8 param1[40];\n"
		"\t.param .b32 retval0;\n"
		"\tcall.uni (retval0), fwd, (param0, param1);\n\t}\n"
		"\tmov.u64 %rd1, target_fn;\n"
		"\t{\n\t.param .b32 param0;\n\t.param .b32 retval0;\n"
		"\tprototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
		"\tcall (retval0), %rd1, (param0), prototype_0;\n\t}\n"
		"\tret;\n}\n"
		".func (.param .b32 fr) fwd(.param .b32 fa2, .param .align 8 .b8 s[40])\n"
		".noreturn\n{\n\ttrap;\n}\n");
	CHECK(m != NULL);
	if (!m) return;
	int32_t k = ir_find_func(m, "k"), fw = ir_find_func(m, "fwd");
	CHECK(k >= 0 && fw >= 0 && ir_find_func(m, "prototype_0") < 0);
	if (k < 0 || fw < 0) return;
	const Func *f = &m->funcs[k];
	CHECK(f->attr == (ATTR_VISIBLE | ATTR_ENTRY) && f->maxntid[0] == 256);
	CHECK(f->maxntid[1] == 1 && f->minnctapersm == 4 && f->nparam == 1);
	CHECK_EQ(m->syms[f->params[0]].align, 0);          /* .ptr attributes are dropped */
	const Ins *c = &f->ins[1];
	CHECK(c->op == OP_CALL && c->mods == MOD_UNI && c->nd == 1 && c->ns == 2);
	CHECK(c->o[0].kind == OPK_VEC && c->o[0].n == 1 && c->o[2].n == 2);
	CHECK(c->o[1].kind == OPK_SYM && m->syms[c->o[1].reg].func == fw);
	const Ins *ic = &f->ins[5];
	CHECK(ic->op == OP_CALL && ic->ns == 3 && ic->o[1].kind == OPK_REG);
	CHECK(ic->o[3].kind == OPK_SYM && m->syms[ic->o[3].reg].kind == SYM_PROTO);
	const Func *pf = &m->funcs[m->syms[ic->o[3].reg].func];
	CHECK(pf->attr == ATTR_PROTO && pf->nparam == 1 && pf->nret == 1 && !pf->has_body);
	const Func *w = &m->funcs[fw];
	CHECK(w->has_body && (w->attr & ATTR_NORETURN) && w->nparam == 2);
	CHECK_STR(ir_str(m, m->syms[w->params[0]].name), "fa2");
	CHECK_EQ(m->syms[w->params[1]].count, 40);
	CHECK_EQ(m->nfwd, 1);                         /* fwd's prototype stays in front */
	CHECK(m->nfwd == 1 && m->fwd[0].sym == w->sym && m->fwd[0].before == 1);
	CHECK(m->nalias == 1 && m->aliases[0].target == m->funcs[ir_find_func(m, "target_fn")].sym);
	CHECK_EQ(m->syms[m->globals[m->nglobal - 1]].func, fw);
	ir_free(m);
}

TEST(parse_directives)
{
	Module *m = parse_rt(".version 7.8\n.target sm_90a, texmode_independent, debug\n"
		".address_size 64\n.file 3 \"a.cu\", 1700000000, 99\n.pragma \"nounroll\";\n"
		".section .debug_info {\n\t.b32 12\n$L__x:\n\t.b8 1, 2 { }\n\t.b64 $L__x\n}\n"
		".entry k() .reqntid 64, 2 .maxnreg 32 .explicitcluster "
		".reqnctapercluster 2, 1, 1 .maxclusterrank 8 .pragma \"nounroll\";\n{\n"
		"\t.reg .b32 %r<3>;\n\t.loc 3 10 2\n$L0:\n\t.pragma \"nounroll\";\n"
		"\t.loc 3 12 4, function_name $L__x, inlined_at 3 20 1\n"
		"\tadd.s32 %r1, %r1, 1;\n\tbra $L0;\n}\n");
	CHECK(m != NULL);
	if (!m) return;
	CHECK(m->version_major == 7 && m->version_minor == 8 && m->address_size == 64);
	CHECK_STR(ir_str(m, m->target), "sm_90a, texmode_independent");
	CHECK(m->nfile == 4 && !strcmp(ir_str(m, m->file_names[3]), "a.cu"));
	CHECK_STR(ir_str(m, m->pragmas), "nounroll");
	const Func *f = &m->funcs[0];
	CHECK(f->reqntid[0] == 64 && f->reqntid[1] == 2 && f->reqntid[2] == 1);
	CHECK(f->maxnreg == 32 && f->maxclusterrank == 8 && f->reqnctapercluster[0] == 2);
	CHECK(f->attr & ATTR_EXPLICIT_CLUSTER);
	CHECK_STR(ir_str(m, f->pragmas), "nounroll");
	CHECK(f->nbpragma == 1 && f->bpragmas[0].ins == 0);
	CHECK(f->nins == 2 && f->labels[0].ins == 0);
	ir_free(m);
}

TEST(parse_printer_output)
{
	Module *m = kern("\tadd.rz.sat.f32 %f1, %f2, 0f3F800000;\n\tmad.lo.cc.u32 %r1, %r2, %r3, 7;\n"
	                 "\tcvta.to.global.u64 %rd1, %rd2;\n\tshf.l.wrap.b32 %r1, %r2, %r3, 0x1F;\n"
	                 "\tld.global.nc.L1::no_allocate.v2.f32 {%f1, _}, [%rd1+-4];\n"
	                 "\tbar.warp.sync -1;\n\tshfl.sync.down.b32 %r1|%p1, %r2, 1, 31, -1;\n"
	                 "\tset.lt.u32.f32 %r1, %f1, %f2;\n\tmatch.any.sync.b32 %r1, %r2, -1;\n");
	CHECK(m != NULL);
	if (!m) return;
	char *s = ptx_print_str(m, NULL);
	CHECK_CONTAINS(s, "\tadd.rz.sat.f32 %f1, %f2, 0f3F800000;\n");
	CHECK_CONTAINS(s, "\tmad.lo.cc.u32 %r1, %r2, %r3, 7;\n");
	CHECK_CONTAINS(s, "\tcvta.to.global.u64 %rd1, %rd2;\n");
	CHECK_CONTAINS(s, "\tshf.l.wrap.b32 %r1, %r2, %r3, 0x1F;\n");
	CHECK_CONTAINS(s, "\tld.global.nc.L1::no_allocate.v2.f32 {%f1, _}, [%rd1+-4];\n");
	CHECK_CONTAINS(s, "\tbar.warp.sync -1;\n");
	CHECK_CONTAINS(s, "\tshfl.sync.down.b32 %r1|%p1, %r2, 1, 31, -1;\n");
	CHECK_CONTAINS(s, "\tset.lt.u32.f32 %r1, %f1, %f2;\n");
	CHECK_CONTAINS(s, "\tmatch.any.sync.b32 %r1, %r2, -1;\n");
	CHECK_CONTAINS(s, ".global .align 4 .u32 gvar[4];\n");
	free(s);
	ir_free(m);
}

/* ---- errors ------------------------------------------------------------------------ */

TEST(parse_nul_padding_and_bom)
{
	static const char text[] = "\xEF\xBB\xBF" HDR ".global .u32 g;\n\0\0\0\0";
	Module *m = ptx_parse(text, sizeof text, "pad.ptx");   /* the NULs are in len */
	CHECK(m != NULL && m->nglobal == 1);
	ir_free(m);
	static const char mid[] = HDR ".global .u32 g;\n\0\n.global .u32 h;\n";
	m = ptx_parse(mid, sizeof mid - 1, "mid.ptx");
	CHECK(m == NULL);
	CHECK_CONTAINS(err_msg(), "mid.ptx:5:1: unexpected byte 0x00");
	ir_free(m);
}

TEST(parse_errors_inline)
{
	CHECK_CONTAINS(fail_msg(""), "t.ptx:1:1: empty module");
	CHECK_CONTAINS(fail_msg(HDR ".entry k() { .reg .b32 %r<2>; add.s32 %r1, %r1 %r1; }"),
	               "t.ptx:4:48: expected ';' after the instruction, found '%r1'");
	CHECK_CONTAINS(fail_msg(HDR ".entry k() { .reg .b32 %r<2>; mov.u32 %r2, 1; }"),
	               "undefined register '%r2'");
	CHECK_CONTAINS(fail_msg(HDR ".entry k() { .reg .b32 %r<2>; mov.u32 %r01, 1; }"),
	               "undefined register '%r01'");
	CHECK_CONTAINS(fail_msg(HDR ".entry k() { { .param .b32 x; .param .b32 x; } }"),
	               "4:43: redeclaration of 'x'");
	CHECK_CONTAINS(fail_msg(HDR ".global .u32 g[2] = {1, 2, 3};"), "too many initializers");
	CHECK_CONTAINS(fail_msg(HDR ".global .u32 g[];"), "array 'g' needs a size");
	CHECK_CONTAINS(fail_msg(HDR ".global .f32 g = 1.5 ;\n.global .u32 g;"), "redeclaration");
	CHECK_CONTAINS(fail_msg(".version 8.0\n.address_size 64\n.global .u32 g;"),
	               "expected .target");
	CHECK_CONTAINS(fail_msg(HDR ".entry k() { ret; "), "4:12: unterminated function body");
	CHECK_CONTAINS(fail_msg(HDR "\n.entry k() { .reg .b32 %r1; mov.b32 %r1, 0f12; }"),
	               "5:42: bad float bit pattern");
}

/* hostile input: huge sizes, overflowing constants, deep nesting */
TEST(parse_errors_limits)
{
	CHECK_CONTAINS(fail_msg(HDR ".global .u32 g[1099511627776] = {1};"),
	               "initialized variable larger than 256 MiB");
	CHECK_CONTAINS(fail_msg(HDR ".global .u32 g[1048576][1048576][1048576];"),
	               "array too large");
	CHECK_CONTAINS(fail_msg(HDR ".entry k() { .reg .b32 %r<16777216>; .reg .b32 %q<2>; }"),
	               "more than 16777216 registers in one function");
	CHECK_CONTAINS(fail_msg(HDR ".entry k() { .reg .pred %p<3>; .reg .b32 %r<3>;\n"
	                        "setp.eq.and.s32 %p1, %r1, %r2, !!%p2; }"),
	               "'!' must precede a predicate register");
	CHECK_CONTAINS(fail_msg(HDR ".global .u32 g = {{{{{{{{{{{{{{{{{{1}}}}}}}}}}}}}}}}}};"),
	               "initializer nested too deeply");
	Module *m = parse_rt(HDR ".entry k() { .reg .b32 %r<3>; .reg .b64 %rd<3>;\n"
	                     "ld.global.u32 %r1, [%rd1+9223372036854775807+9223372036854775807];\n"
	                     "mov.u64 %rd1, -9223372036854775808;\nmov.u64 %rd1, 18446744073709551615;\n"
	                     "{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{ }}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}} }");
	CHECK(m != NULL);
	if (m) {
		CHECK_EQ(m->funcs[0].ins[0].o[1].imm, -2);
		CHECK_EQ_U64(m->funcs[0].ins[1].o[1].imm, 0x8000000000000000ull);
		CHECK_EQ(m->funcs[0].ins[2].o[1].imm, -1);
		CHECK_EQ(m->funcs[0].nins, 3 + 64);
	}
	ir_free(m);
}

/* every file of tests/ptx/DIR/ fails to parse with its `// expect:` message */
static int check_error_files(const char *dir)
{
	char dpath[128];
	snprintf(dpath, sizeof dpath, "tests/ptx/%s", dir);
	DIR *d = opendir(dpath);
	if (!d) {
		snprintf(dpath, sizeof dpath, "../tests/ptx/%s", dir);
		d = opendir(dpath);
	}
	CHECK(d != NULL);
	if (!d) return 0;
	int n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (l < 5 || strcmp(e->d_name + l - 4, ".ptx")) continue;
		char path[512];
		snprintf(path, sizeof path, "%s/%s", dpath, e->d_name);
		size_t len;
		char *text = read_file(path, FILE_PTX, &len);
		CHECK(text != NULL);
		if (!text) continue;
		char expect[256] = "";
		if (sscanf(text, "// expect: %255[^\n]", expect) != 1)
			unit_fail(__FILE__, __LINE__, "%s: no '// expect:' line", path);
		Module *m = ptx_parse(text, len, path);
		if (m) {
			unit_fail(__FILE__, __LINE__, "%s: parsed, expected error %s", path, expect);
			ir_free(m);
		} else {
			char want[1024];
			snprintf(want, sizeof want, "%s:%s", path, expect);
			if (!strstr(err_msg(), want))
				unit_fail(__FILE__, __LINE__, "%s: error \"%s\", expected \"%s\"", path,
				          err_msg(), want);
		}
		free(text);
		n++;
	}
	closedir(d);
	return n;
}

TEST(parse_errors_files)
{
	CHECK(check_error_files("bad") >= 30);       /* what rfsim refuses */
	CHECK(check_error_files("invalid") >= 60);   /* what ptxas rejects too (test_typecheck.py) */
}
