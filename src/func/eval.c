/*
 * eval.c -- one lane of one arithmetic instruction: maps a decoded
 * (op, type, modifiers) to the scalar semantics in alu.h.
 *
 * exec.c calls sim_eval() per active lane for every arithmetic instruction
 * without a fast path; decode calls sim_eval_check() once per instruction
 * at load time, so that an operand count or type rfsim cannot execute is
 * reported with its PTX position instead of being mis-executed.
 *
 * Sources arrive in v[] as raw bits (predicates as 0/1); the result comes
 * back as raw bits (a predicate result in bit 0).  The carry flag of the
 * .cc / addc family travels through *cc, one bit.
 */
#include "func/eval.h"

#include <string.h>

#include "func/alu.h"

static int is_float(PtxType t) { return ptxtype_is_float(t); }

static uint64_t eval_float(const DIns *d, PtxType t, const uint64_t *v)
{
	Rnd r = (Rnd)d->rnd;
	uint32_t m = d->mods;
	switch ((Op)d->op) {
	case OP_ADD: return alu_fadd(t, v[0], v[1], r, m);
	case OP_SUB: return alu_fsub(t, v[0], v[1], r, m);
	case OP_MUL: return alu_fmul(t, v[0], v[1], r, m);
	case OP_MAD: case OP_FMA: return alu_ffma(t, v[0], v[1], v[2], r, m);
	case OP_DIV: return alu_fdiv(t, v[0], v[1], r, m);
	case OP_ABS: return alu_fabs(t, v[0], m);
	case OP_NEG: return alu_fneg(t, v[0], m);
	case OP_MIN:
		return d->ns > 2 ? alu_fmin(t, alu_fmin(t, v[0], v[1], m), v[2], m)
		                 : alu_fmin(t, v[0], v[1], m);
	case OP_MAX:
		return d->ns > 2 ? alu_fmax(t, alu_fmax(t, v[0], v[1], m), v[2], m)
		                 : alu_fmax(t, v[0], v[1], m);
	case OP_SQRT:
		return (m & MOD_APPROX) ? alu_fapprox(OP_SQRT, t, v[0], m) : alu_fsqrt(t, v[0], r, m);
	case OP_RCP:
		return (m & MOD_APPROX) ? alu_fapprox(OP_RCP, t, v[0], m) : alu_frcp(t, v[0], r, m);
	case OP_RSQRT: case OP_EX2: case OP_LG2: case OP_SIN: case OP_COS: case OP_TANH:
		return alu_fapprox((Op)d->op, t, v[0], m);
	case OP_COPYSIGN: return alu_fcopysign(t, v[0], v[1]);
	case OP_TESTP: return (uint64_t)alu_testp((Mode)d->mode, t, v[0]);
	default: return 0;
	}
}

static uint64_t carry_op(const DIns *d, PtxType t, const uint64_t *v, uint32_t *cc)
{
	int w = alu_width(t);
	unsigned cin = (d->op == OP_ADDC || d->op == OP_SUBC || d->op == OP_MADC) ? *cc & 1 : 0;
	unsigned cout = 0;
	uint64_t r;
	switch ((Op)d->op) {
	case OP_ADD: case OP_ADDC: r = alu_add_cc(v[0], v[1], cin, w, &cout); break;
	case OP_SUB: case OP_SUBC:
		/* the flag a subtraction leaves is the carry of a + ~b + 1, i.e. NOT
		 * the borrow, and subc borrows !CF (see alu.c) */
		r = alu_sub_cc(v[0], v[1], d->op == OP_SUBC ? !cin : 0, w, &cout);
		cout = !cout;
		break;
	default:    /* mad.cc / madc: the .lo or .hi product, then the carry chain */
		r = alu_add_cc(alu_mul(t, (Mode)d->mode, v[0], v[1]), v[2], cin, w, &cout);
		break;
	}
	if (d->mods & MOD_CC) *cc = cout;
	return alu_norm(t, r);
}

/* the comparison of each half of two packed .f16x2/.bf16x2 sources, low half first */
int sim_cmp_halves(const DIns *d, PtxType t2, uint64_t a, uint64_t b)
{
	PtxType e = t2 == PT_F16X2 ? PT_F16 : PT_BF16;
	int r = 0;
	for (int h = 0; h < 2; h++) {
		uint64_t x = a >> 16 * h & 0xffff, y = b >> 16 * h & 0xffff;
		if (d->mods & MOD_FTZ) x = alu_fflush(e, x), y = alu_fflush(e, y);
		r |= alu_cmp((Cmp)d->cmp, e, x, y) << h;
	}
	return r;
}

/* set on packed halves: each half's result in its half of the destination, 1.0 in
 * the destination's half format or 0xffff for .u32/.s32 (cuda_fp16.hpp's __heq2_mask) */
static uint64_t set_packed(const DIns *d, PtxType t, PtxType t2, const uint64_t *v)
{
	int r = sim_cmp_halves(d, t2, v[0], v[1]);
	uint64_t one = t == PT_F16X2 ? 0x3c00 : t == PT_BF16X2 ? 0x3f80 : 0xffff, out = 0;
	for (int h = 0; h < 2; h++)
		if (alu_boolop((BoolOp)d->bop, r >> h & 1, d->ns > 2 ? (int)v[2] : 0)) out |= one << 16 * h;
	return out;
}

uint64_t sim_eval(const DIns *d, const uint64_t *v, uint32_t *cc)
{
	PtxType t = (PtxType)d->type, t2 = (PtxType)d->type2;
	Op op = (Op)d->op;
	if ((d->flags & DF_FLOAT) && op != OP_CVT && op != OP_SET && op != OP_SELP && op != OP_SLCT &&
	    op != OP_MOV)
		return eval_float(d, t, v);
	if ((d->mods & MOD_CC) || op == OP_ADDC || op == OP_SUBC || op == OP_MADC)
		return carry_op(d, t, v, cc);
	switch (op) {
	case OP_ADD: return alu_iadd(t, v[0], v[1], d->mods);
	case OP_SUB: return alu_isub(t, v[0], v[1], d->mods);
	case OP_MUL: return alu_mul(t, (Mode)d->mode, v[0], v[1]);
	case OP_MAD: return alu_mad(t, (Mode)d->mode, v[0], v[1], v[2], d->mods);
	case OP_MUL24: return alu_mul24(t, (Mode)d->mode, v[0], v[1]);
	case OP_MAD24: return alu_mad24(t, (Mode)d->mode, v[0], v[1], v[2], d->mods);
	case OP_SAD: return alu_sad(t, v[0], v[1], v[2]);
	case OP_DIV: return alu_div(t, v[0], v[1]);
	case OP_REM: return alu_rem(t, v[0], v[1]);
	case OP_ABS: return alu_iabs(t, v[0]);
	case OP_NEG: return alu_ineg(t, v[0]);
	case OP_MIN:
		return d->ns > 2 ? alu_imin(t, alu_imin(t, v[0], v[1], d->mods), v[2], d->mods)
		                 : alu_imin(t, v[0], v[1], d->mods);
	case OP_MAX:
		return d->ns > 2 ? alu_imax(t, alu_imax(t, v[0], v[1], d->mods), v[2], d->mods)
		                 : alu_imax(t, v[0], v[1], d->mods);
	case OP_DP4A: return alu_dp4a(t, t2, (uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2]);
	case OP_VADD2: case OP_VADD4: case OP_VSUB2: case OP_VSUB4: case OP_VAVRG2:
	case OP_VAVRG4: case OP_VABSDIFF2: case OP_VABSDIFF4: case OP_VMIN2: case OP_VMIN4:
	case OP_VMAX2: case OP_VMAX4:
		return alu_video((Op)d->op, t, t2, d->mods, d->aop == AOP_ADD, (uint32_t)v[0],
		                 (uint32_t)v[1], (uint32_t)v[2]);
	case OP_DP2A:
		return alu_dp2a(t, t2, (Mode)d->mode, (uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2]);
	case OP_AND: return alu_norm(t, v[0] & v[1]);
	case OP_OR: return alu_norm(t, v[0] | v[1]);
	case OP_XOR: return alu_norm(t, v[0] ^ v[1]);
	case OP_NOT: return t == PT_PRED ? (~v[0] & 1) : alu_norm(t, ~v[0]);
	case OP_CNOT: return alu_cnot(t, v[0]);
	case OP_LOP3: return alu_lop3((uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2], (uint32_t)v[3]);
	case OP_SHL: return alu_shl(t, v[0], (uint32_t)v[1]);
	case OP_SHR: return alu_shr(t, v[0], (uint32_t)v[1]);
	case OP_SHF:
		return alu_shf((Mode)d->mode, d->mods, (uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2]);
	case OP_BFE: return alu_bfe(t, v[0], (uint32_t)v[1], (uint32_t)v[2]);
	case OP_BFI: return alu_bfi(t, v[0], v[1], (uint32_t)v[2], (uint32_t)v[3]);
	case OP_BMSK: return alu_bmsk((uint32_t)v[0], (uint32_t)v[1], d->mods);
	case OP_BREV: return alu_brev(t, v[0]);
	case OP_CLZ: return alu_clz(t, v[0]);
	case OP_POPC: return alu_popc(t, v[0]);
	case OP_BFIND: return alu_bfind(t, v[0], d->mods);
	case OP_FNS: return alu_fns((uint32_t)v[0], (uint32_t)v[1], (int32_t)v[2]);
	case OP_PRMT: return alu_prmt((uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2], (Mode)d->mode);
	case OP_SET: {
		if (t2 == PT_F16X2 || t2 == PT_BF16X2) return set_packed(d, t, t2, v);
		uint64_t a = v[0], b = v[1];
		if ((d->mods & MOD_FTZ) && is_float(t2)) a = alu_fflush(t2, a), b = alu_fflush(t2, b);
		int c = alu_cmp((Cmp)d->cmp, t2, a, b);
		return alu_set_val(t, alu_boolop((BoolOp)d->bop, c, d->ns > 2 ? (int)v[2] : 0));
	}
	case OP_SELP: return v[2] & 1 ? v[0] : v[1];
	case OP_SLCT: {
		int ge;
		if (t2 == PT_F32) {
			uint64_t c = (d->mods & MOD_FTZ) ? alu_fflush(PT_F32, v[2]) : v[2];
			ge = alu_cmp(CMP_GE, PT_F32, c, 0);
		} else {
			ge = (int32_t)v[2] >= 0;
		}
		return ge ? v[0] : v[1];
	}
	case OP_CVT:
		if (t == PT_E4M3X2 || t == PT_E5M2X2 || t2 == PT_E4M3X2 || t2 == PT_E5M2X2)
			return alu_cvt_fp8(t, t2, d->ns, v[0], d->ns > 1 ? v[1] : 0, d->mods);
		if (d->ns == 2) {    /* cvt.f16x2.f32 d, a, b: a to the upper half, b the lower */
			PtxType e = t == PT_F16X2 ? PT_F16 : PT_BF16;
			uint64_t hi = alu_cvt(v[0], e, t2, (Rnd)d->rnd, d->mods);
			return (hi & 0xffff) << 16 | (alu_cvt(v[1], e, t2, (Rnd)d->rnd, d->mods) & 0xffff);
		}
		return alu_cvt(v[0], t, t2, (Rnd)d->rnd, d->mods);
	default: return 0;
	}
}

/* sources each op needs (min, max): its form's sources (ops.def), the optional ones
 * in [ ] counted in max.  Two exceptions the form does not say: cvt's two-source
 * packs (a form ins_form() picks by its types), and lop3's .BoolOp form, whose
 * predicate source comes with the predicate destination rfsim refuses */
static void arity(Op op, int *lo, int *hi)
{
	const char *f = strchr(op_info[op].form, '=');
	int opt = 0;
	*lo = *hi = 0;
	for (f = f ? f + 1 : ""; *f; f++) {
		if (*f == '[' || *f == ']') opt = *f == '[';
		else if (opt) ++*hi;
		else ++*lo, ++*hi;
	}
	if (op == OP_CVT) *hi = 2;
	if (op == OP_LOP3) *hi = 4;
}

const char *sim_eval_check(const DIns *d)
{
	Op op = (Op)d->op;
	PtxType t = (PtxType)d->type;
	int lo, hi;
	arity(op, &lo, &hi);
	if (d->ns < lo || d->ns > hi) return "this number of source operands";
	if (op != OP_SETP && d->nd != 1) return "this number of destinations";
	if (op == OP_SETP && (d->nd < 1 || d->nd > 2)) return "this number of destinations";
	if (t == PT_NONE || t == PT_B128) return "an operation of this type";
	int fl = is_float(t);
	switch (op) {
	case OP_SQRT: case OP_RSQRT: case OP_RCP: case OP_EX2: case OP_LG2: case OP_SIN:
	case OP_COS: case OP_TANH: case OP_COPYSIGN: case OP_TESTP: case OP_FMA: case OP_DIV:
		if (!fl && op != OP_DIV) return "an integer form of this floating-point operation";
		break;
	case OP_VADD2: case OP_VADD4: case OP_VSUB2: case OP_VSUB4: case OP_VAVRG2:
	case OP_VAVRG4: case OP_VABSDIFF2: case OP_VABSDIFF4: case OP_VMIN2: case OP_VMIN4:
	case OP_VMAX2: case OP_VMAX4:
		if ((t != PT_U32 && t != PT_S32) || (d->type2 != PT_U32 && d->type2 != PT_S32))
			return "SIMD video types other than .u32/.s32";
		if ((d->mods & MOD_SAT) && d->aop == AOP_ADD) return ".sat with .add";
		break;
	case OP_REM: case OP_MUL24: case OP_MAD24: case OP_SAD: case OP_BFE: case OP_BFI:
	case OP_BREV: case OP_CLZ: case OP_POPC: case OP_BFIND: case OP_SHL: case OP_SHR:
	case OP_CNOT: case OP_ADDC: case OP_SUBC: case OP_MADC: case OP_DP4A: case OP_DP2A:
		if (fl) return "a floating-point form of this integer operation";
		break;
	case OP_SET:
		if (d->type2 == PT_F16X2 || d->type2 == PT_BF16X2)
			return t == d->type2 || t == PT_U32 || t == PT_S32
			       ? NULL : "set on packed halves other than to the same type or .u32/.s32";
		if (t == PT_F16X2 || t == PT_BF16X2) return "set to packed halves from another type";
		break;
	case OP_CVT:
		if (t == PT_E4M3X2 || t == PT_E5M2X2)
			return (d->ns == 2 && d->type2 == PT_F32) || (d->ns == 1 && d->type2 == PT_F16X2)
			       ? NULL : "cvt to FP8 pairs other than from two .f32 or an .f16x2";
		if (d->type2 == PT_E4M3X2 || d->type2 == PT_E5M2X2)
			return t == PT_F16X2 && d->ns == 1 ? NULL : "cvt from FP8 pairs other than to .f16x2";
		if (d->mods & MOD_SATFINITE) return "cvt .satfinite other than to FP8";
		if (d->ns == 2 || t == PT_F16X2 || t == PT_BF16X2)
			return (d->ns == 2 && (t == PT_F16X2 || t == PT_BF16X2) && d->type2 == PT_F32)
			       ? NULL : "cvt to packed halves other than .f16x2/.bf16x2 from two .f32";
		if (t == PT_F16X2 || t == PT_BF16X2 || d->type2 == PT_F16X2 ||
		    d->type2 == PT_BF16X2 || d->type2 == PT_NONE)
			return "cvt with packed or missing types";
		break;
	default:
		break;
	}
	if ((d->mods & MOD_CC) && fl) return "a carry flag on a floating-point operation";
	return NULL;
}

const char *sim_atom_check(AtomOp op, PtxType t)
{
	int fl = ptxtype_is_float(t);
	switch (op) {
	case AOP_ADD: case AOP_EXCH: case AOP_CAS: return NULL;
	case AOP_MIN: case AOP_MAX: return NULL;
	case AOP_AND: case AOP_OR: case AOP_XOR: case AOP_INC: case AOP_DEC:
		return fl ? "this atomic operation on a floating-point type" : NULL;
	default: return "this atomic operation";
	}
}
