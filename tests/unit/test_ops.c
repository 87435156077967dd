/*
 * test_ops.c -- the instruction table (ptx/ops.def), walked row by row.
 *
 * Every row must have a form, a handler kind and a modifier grammar, and
 * every row written in PTX must have an example here that
 *   - parses, inside a kernel, to an instruction of that very op;
 *   - prints to PTX that parses back to the same IR (ir_equal), and prints
 *     the same text again from there.
 * A row added to ops.def without an example fails `ops_every_row_round_trips`,
 * so the table and its parse, print and IR stay one.  The rows rfsim's own
 * passes insert (OPF_RFOP) are never PTX text; their form is "-".  The
 * modifier sub-grammars whose forms differ within one op (fence's proxy
 * forms, cvt's .satfinite, the video ops' .add) get further examples.
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "ptx/ptx.h"
#include "unit.h"

typedef struct { int op; const char *text; } Example;

static const Example examples[] = {
	{OP_ADD, "add.s32 %r1, %r2, %r3;"},
	{OP_SUB, "sub.f32 %f1, %f2, %f3;"},
	{OP_MUL, "mul.wide.s32 %rd1, %r1, 4;"},
	{OP_MAD, "mad.lo.s32 %r1, %r2, %r3, %r4;"},
	{OP_MUL24, "mul24.lo.s32 %r1, %r2, %r3;"},
	{OP_MAD24, "mad24.lo.u32 %r1, %r2, %r3, %r4;"},
	{OP_SAD, "sad.s32 %r1, %r2, %r3, %r4;"},
	{OP_DIV, "div.rn.f32 %f1, %f2, %f3;"},
	{OP_REM, "rem.u32 %r1, %r2, %r3;"},
	{OP_ABS, "abs.f32 %f1, %f2;"},
	{OP_NEG, "neg.s32 %r1, %r2;"},
	{OP_MIN, "min.u32 %r1, %r2, 7;"},
	{OP_MAX, "max.s32 %r1, %r2, %r3;"},
	{OP_FMA, "fma.rn.f32 %f1, %f2, 0fBFC90FDA, %f3;"},
	{OP_SQRT, "sqrt.rn.f32 %f1, %f2;"},
	{OP_RSQRT, "rsqrt.approx.ftz.f32 %f1, %f2;"},
	{OP_RCP, "rcp.rn.f64 %fd1, %fd2;"},
	{OP_EX2, "ex2.approx.ftz.f32 %f1, %f2;"},
	{OP_LG2, "lg2.approx.f32 %f1, %f2;"},
	{OP_SIN, "sin.approx.f32 %f1, %f2;"},
	{OP_COS, "cos.approx.f32 %f1, %f2;"},
	{OP_TANH, "tanh.approx.f32 %f1, %f2;"},
	{OP_COPYSIGN, "copysign.f32 %f1, %f2, %f3;"},
	{OP_TESTP, "testp.finite.f32 %p1, %f1;"},
	{OP_ADDC, "addc.u32 %r1, %r2, %r3;"},
	{OP_SUBC, "subc.cc.u32 %r1, %r2, %r3;"},
	{OP_MADC, "madc.hi.cc.u32 %r1, %r2, %r3, %r4;"},
	{OP_DP4A, "dp4a.u32.u32 %r1, %r2, %r3, %r4;"},
	{OP_DP2A, "dp2a.lo.u32.u32 %r1, %r2, %r3, %r4;"},
	{OP_VADD2, "vadd2.u32.u32.u32 %r1, %r2, %r3, %r4;"},
	{OP_VADD4, "vadd4.s32.s32.s32.sat %r1, %r2, %r3, %r4;"},
	{OP_VSUB2, "vsub2.u32.u32.u32 %r1, %r2, %r3, %r4;"},
	{OP_VSUB4, "vsub4.u32.u32.u32 %r1, %r2, %r3, %r4;"},
	{OP_VAVRG2, "vavrg2.u32.u32.u32 %r1, %r2, %r3, %r4;"},
	{OP_VAVRG4, "vavrg4.u32.u32.u32 %r1, %r2, %r3, %r4;"},
	{OP_VABSDIFF2, "vabsdiff2.u32.u32.u32 %r1, %r2, %r3, %r4;"},
	{OP_VABSDIFF4, "vabsdiff4.u32.u32.u32 %r1, %r2, %r3, %r4;"},
	{OP_VMIN2, "vmin2.s32.s32.s32 %r1, %r2, %r3, %r4;"},
	{OP_VMIN4, "vmin4.u32.u32.u32 %r1, %r2, %r3, %r4;"},
	{OP_VMAX2, "vmax2.u32.u32.u32 %r1, %r2, %r3, %r4;"},
	{OP_VMAX4, "vmax4.u32.u32.u32 %r1, %r2, %r3, %r4;"},
	{OP_AND, "and.b32 %r1, %r2, 31;"},
	{OP_OR, "or.pred %p1, %p2, %p3;"},
	{OP_XOR, "xor.b32 %r1, %r2, 4;"},
	{OP_NOT, "not.pred %p1, %p2;"},
	{OP_CNOT, "cnot.b32 %r1, %r2;"},
	{OP_LOP3, "lop3.b32 %r1, %r2, %r3, %r4, 0x96;"},
	{OP_SHL, "shl.b32 %r1, %r2, 2;"},
	{OP_SHR, "shr.u32 %r1, %r2, %r3;"},
	{OP_SHF, "shf.l.wrap.b32 %r1, %r2, %r3, %r4;"},
	{OP_BFE, "bfe.u32 %r1, %r2, 8, 4;"},
	{OP_BFI, "bfi.b64 %rd1, %rd2, %rd3, 8, 8;"},
	{OP_BMSK, "bmsk.clamp.b32 %r1, %r2, %r3;"},
	{OP_BREV, "brev.b32 %r1, %r2;"},
	{OP_CLZ, "clz.b64 %r1, %rd1;"},
	{OP_POPC, "popc.b32 %r1, %r2;"},
	{OP_BFIND, "bfind.shiftamt.u32 %r1, %r2;"},
	{OP_FNS, "fns.b32 %r1, %r2, %r3, %r4;"},
	{OP_PRMT, "prmt.b32 %r1, %r2, %r3, 8452;"},
	{OP_SETP, "setp.gt.s32 %p1, %r1, 0;"},
	{OP_SET, "set.lt.u32.f32 %r1, %f1, %f2;"},
	{OP_SELP, "selp.u32 %r1, 1, 0, %p1;"},
	{OP_SLCT, "slct.f32.s32 %f1, %f2, %f3, %r1;"},
	{OP_MOV, "mov.u32 %r1, %tid.x;"},
	{OP_CVT, "cvt.f64.f32 %fd1, %f1;"},
	{OP_CVTA, "cvta.to.global.u64 %rd1, %rd2;"},
	{OP_ISSPACEP, "isspacep.global %p1, %rd1;"},
	{OP_LD, "ld.global.u32 %r1, [%rd1+4];"},
	{OP_LDU, "ldu.global.f32 %f1, [%rd1];"},
	{OP_ST, "st.global.u32 [%rd1], %r1;"},
	{OP_PREFETCH, "prefetch.global.L2 [%rd1];"},
	{OP_ATOM, "atom.global.add.f32 %f1, [%rd1], %f2;"},
	{OP_RED, "red.global.add.u32 [%rd1], %r1;"},
	{OP_CP_ASYNC, "cp.async.ca.shared.global [%r1], [%rd2], 4, 4;"},
	{OP_CP_COMMIT, "cp.async.commit_group;"},
	{OP_CP_WAIT, "cp.async.wait_group 0;"},
	{OP_CP_WAITALL, "cp.async.wait_all;"},
	{OP_CP_MBAR, "cp.async.mbarrier.arrive.shared.b64 [%r1];"},
	{OP_MBAR_INIT, "mbarrier.init.shared.b64 [%r1], %r2;"},
	{OP_MBAR_INVAL, "mbarrier.inval.shared.b64 [%r1];"},
	{OP_MBAR_ARRIVE, "mbarrier.arrive.shared.b64 %rd1, [%r1];"},
	{OP_MBAR_DROP, "mbarrier.arrive_drop.shared.b64 %rd1, [%r1];"},
	{OP_MBAR_EXPECT_TX, "mbarrier.expect_tx.relaxed.cta.shared.b64 [%r1], 16;"},
	{OP_MBAR_COMPLETE_TX, "mbarrier.complete_tx.relaxed.cta.shared.b64 [%r1], 16;"},
	{OP_MBAR_TEST, "mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1;"},
	{OP_MBAR_TRY, "mbarrier.try_wait.parity.shared.b64 %p1, [%r1], %r2;"},
	{OP_MBAR_PENDING, "mbarrier.pending_count.b64 %r1, %rd1;"},
	{OP_WMMA_LOAD, "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 "
	               "{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1], %r9;"},
	{OP_WMMA_STORE, "wmma.store.d.sync.aligned.row.m16n16k16.global.f32 "
	                "[%rd1], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, %r1;"},
	{OP_WMMA_MMA, "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 "
	              "{%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, "
	              "{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, "
	              "{%r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16}, "
	              "{%f9, %f10, %f11, %f12, %f13, %f14, %f15, %f16};"},
	{OP_MMA, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, "
	         "{%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f1, %f2, %f3, %f4};"},
	{OP_LDMATRIX, "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [%r5];"},
	{OP_STMATRIX, "stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%r1], {%r2, %r3};"},
	{OP_TEX, "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];"},
	{OP_TLD4, "tld4.g.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];"},
	{OP_SULD, "suld.b.2d.b32.trap {%r1}, [%rd1, {%r2, %r3}];"},
	{OP_SUST, "sust.b.2d.b32.trap [%rd1, {%r2, %r3}], {%r4};"},
	{OP_SHFL, "shfl.sync.idx.b32 %r1|%p1, %r2, %r3, %r4, %r5;"},
	{OP_VOTE, "vote.sync.ballot.b32 %r1, %p1, %r2;"},
	{OP_MATCH, "match.any.sync.b32 %r1, %r2, %r3;"},
	{OP_REDUX, "redux.sync.add.s32 %r1, %r2, %r3;"},
	{OP_ACTIVEMASK, "activemask.b32 %r1;"},
	{OP_ELECT, "elect.sync %r1|%p1, -1;"},
	{OP_BAR, "bar.sync 0;"},
	{OP_BARRIER, "barrier.sync 1, 64;"},
	{OP_MEMBAR, "membar.gl;"},
	{OP_FENCE, "fence.sc.cta;"},
	{OP_NANOSLEEP, "nanosleep.u32 %r1;"},
	{OP_GRIDDEP, "griddepcontrol.wait;"},
	{OP_CLBAR, "barrier.cluster.arrive.release.aligned;"},
	{OP_MAPA, "mapa.shared::cluster.u32 %r1, %r2, %r3;"},
	{OP_GETCTARANK, "getctarank.shared::cluster.u32 %r1, %r2;"},
	{OP_CP_BULK, "cp.async.bulk.prefetch.L2.global [%rd1], 512;"},
	{OP_BRA, "bra $L__x;\n$L__x:"},
	{OP_CALL, "call.uni f, ();"},
	{OP_RET, "ret;"},
	{OP_EXIT, "exit;"},
	{OP_TRAP, "trap;"},
	{OP_BRKPT, "brkpt;"},
	
	{OP_SCOPE_BEGIN, "{\n.reg .b32 %t;\nmov.b32 %t, 1;\n}"},
	{OP_SCOPE_END, "{\n.reg .b32 %t;\nmov.b32 %t, 1;\n}"},
	/* the sub-grammars' other forms */
	{OP_FENCE, "fence.proxy.async.shared::cta;"},
	{OP_FENCE, "fence.mbarrier_init.release.cluster;"},
	{OP_CVT, "cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2;"},
	{OP_VMAX4, "vmax4.u32.u32.u32.add %r1, %r2, %r3, %r4;"},
	{OP_CLBAR, "barrier.cluster.wait.acquire;"},
	{OP_GRIDDEP, "griddepcontrol.launch_dependents;"},
	{OP_CP_BULK, "cp.async.bulk.commit_group;"},
};

static char buf[8192];

/* a kernel around body (with a .func to call), parsed and round-tripped through the
 * printer; NULL after a recorded failure */
static Module *kernel(const char *body)
{
	snprintf(buf, sizeof buf,
	         ".version 8.5\n.target sm_90\n.address_size 64\n"
	         ".func f()\n{\n\tret;\n}\n"
	         ".visible .entry k(.param .u64 p0)\n{\n"
	         "\t.reg .pred %%p<9>;\n\t.reg .b16 %%rs<9>;\n\t.reg .b32 %%r<20>;\n"
	         "\t.reg .b64 %%rd<20>;\n\t.reg .f32 %%f<20>;\n\t.reg .f64 %%fd<9>;\n"
	         "\t%s\n\tret;\n}\n", body);
	Module *m = ptx_parse(buf, strlen(buf), "ops.ptx");
	if (!m) {
		unit_fail(__FILE__, __LINE__, "does not parse: %s\n%s", err_msg(), body);
		return NULL;
	}
	size_t n, n2;
	char *s = ptx_print_str(m, &n);
	Module *m2 = ptx_parse(s, n, "printed.ptx");
	char why[256];
	if (!m2) {
		unit_fail(__FILE__, __LINE__, "printed form does not parse: %s\n%s", err_msg(), s);
	} else if (!ir_equal(m, m2, why, sizeof why)) {
		unit_fail(__FILE__, __LINE__, "round trip of %s: %s\n%s", body, why, s);
	} else {
		char *s2 = ptx_print_str(m2, &n2);
		if (n2 != n || memcmp(s, s2, n))
			unit_fail(__FILE__, __LINE__, "printing %s is not a fixed point:\n%s\n%s", body,
			          s, s2);
		free(s2);
	}
	ir_free(m2);
	free(s);
	return m;
}

/* does the kernel (the module's last function) hold an instruction of op? */
static int holds(const Module *m, int op)
{
	const Func *fn = &m->funcs[m->nfunc - 1];
	for (int32_t i = 0; i < fn->nins; i++)
		if (fn->ins[i].op == op) return 1;
	return 0;
}

TEST(ops_rows_have_form_kind_grammar)
{
	for (int op = 0; op < NOP_; op++) {
		const OpInfo *o = &op_info[op];
		CHECK(o->name && *o->name);
		CHECK(o->form && *o->form);
		CHECK(o->unit < NUNIT);
		CHECK(o->kind <= KIND_PSEUDO);
		CHECK(o->gram <= MG_TEX);
		if (o->flags & (OPF_RFOP | OPF_PSEUDO)) CHECK_STR(o->form, "-");
		if (o->flags & OPF_RFOP) CHECK_EQ(o->kind, KIND_RFOP);
		if (o->kind == KIND_ARITH) CHECK(strchr(o->form, '='));   /* arity from the form */
		/* every row but the pseudo ones is found by its mnemonic */
		if (!(o->flags & OPF_PSEUDO))
			CHECK_EQ(op_lookup(o->name, strlen(o->name)), op);
	}
}

TEST(ops_every_row_round_trips)
{
	size_t nex = sizeof examples / sizeof *examples;
	for (int op = 0; op < NOP_; op++) {
		if (op_info[op].flags & OPF_RFOP) continue;     /* never PTX text */
		int found = 0;
		for (size_t i = 0; i < nex; i++) {
			if (examples[i].op != op) continue;
			found = 1;
			Module *m = kernel(examples[i].text);
			if (m && !holds(m, op))
				unit_fail(__FILE__, __LINE__, "'%s' did not parse to %s", examples[i].text,
				          op_info[op].name);
			ir_free(m);
		}
		if (!found)
			unit_fail(__FILE__, __LINE__, "ops.def row %s has no example in test_ops.c",
			          op_info[op].name);
	}
}
