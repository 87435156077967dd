/*
 * alu.h -- the scalar semantics of PTX arithmetic: what one lane of an
 * NVIDIA GPU computes for each arithmetic, logic, compare, convert and
 * atomic-combine instruction, on raw bit patterns.
 *
 * A pure library: no state, no allocation, no printing, thread-safe.  The
 * functional core calls it inside its per-lane loops (and inlines the few
 * hottest plain cases itself); every modifier of every variant is here.
 * The integer half lives in alu.c, the floating-point half (rounding,
 * approximations, conversions, half precision) in alufp.c; each file's
 * essay gives the PTX ISA sections followed and every choice made where
 * the ISA leaves the result unspecified.
 *
 * Values.  Every value travels as a uint64_t holding the bit pattern of
 * its PtxType in the low bits.  Inputs may carry garbage above the type's
 * width: functions use only the low alu_width(t) bits.  Results of signed
 * integer types (s8..s64) come back sign-extended to 64 bits, everything
 * else zero-extended -- exactly what cvt's "result is sign-extended to the
 * destination register width for signed integers, zero-extended for
 * unsigned, bit-size and floating-point types" asks of a wider register,
 * so the core can store the low 16, 32 or 64 bits of any result.
 * Packed f16x2/bf16x2 hold element 0 in bits 15..0 and element 1 in bits
 * 31..16 (PTX's a[0:15], a[16:31]).
 *
 * Modifiers.  Float functions take the instruction's Rnd (RND_NONE means
 * the PTX default, .rn) and its MOD_* bits (ir.h); bits that do not apply
 * to a variant are ignored, so the core may pass Ins.mods unfiltered.
 */
#ifndef RFSIM_FUNC_ALU_H
#define RFSIM_FUNC_ALU_H

#include <stdint.h>
#include <string.h>

#include "ptx/ir.h"

/* ---- types and bit patterns (inline: used in every per-lane loop) ---- */

/* width in bits of a PtxType's value: 8..64 (f16x2: 32, pred: 1) */
static inline int alu_width(PtxType t)
{
	switch (t) {
	case PT_B8: case PT_U8: case PT_S8: return 8;
	case PT_B16: case PT_U16: case PT_S16: case PT_F16: case PT_BF16: case PT_E4M3X2:
	case PT_E5M2X2: return 16;
	case PT_B32: case PT_U32: case PT_S32: case PT_F16X2: case PT_BF16X2:
	case PT_U16X2: case PT_S16X2:
	case PT_TF32: case PT_F32: return 32;
	case PT_B64: case PT_U64: case PT_S64: case PT_F64: return 64;
	case PT_B128: return 128;
	case PT_PRED: return 1;
	case PT_NONE: case NPTXTYPE: return 0;
	}
	return 0;
}

static inline int alu_is_signed(PtxType t)
{
	return t == PT_S8 || t == PT_S16 || t == PT_S32 || t == PT_S64;
}

/* v reduced to the width of t: sign-extended for s*, zero-extended else */
static inline uint64_t alu_norm(PtxType t, uint64_t v)
{
	int w = alu_width(t);
	if (w >= 64 || w == 0) return v;
	if (alu_is_signed(t)) return (uint64_t)((int64_t)(v << (64 - w)) >> (64 - w));
	return v & ((1ull << w) - 1);
}

static inline float alu_f32(uint64_t bits)
{
	uint32_t u = (uint32_t)bits; float f;
	memcpy(&f, &u, 4);
	return f;
}

static inline uint64_t alu_f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static inline double alu_f64(uint64_t bits)
{
	double d;
	memcpy(&d, &bits, 8);
	return d;
}

static inline uint64_t alu_f64_bits(double d)
{
	uint64_t u;
	memcpy(&u, &d, 8);
	return u;
}

/* canonical NaNs NVIDIA hardware produces (see alufp.c) */
#define ALU_NAN_F32  0x7fffffffu
#define ALU_NAN_F16  0x7fffu
#define ALU_NAN_BF16 0x7fffu
#define ALU_NAN_F64  0xfff8000000000000ull

/* ---- floating point (alufp.c) ------------------------------------------
 * t is f32, f64, f16, f16x2, bf16 or bf16x2 unless said otherwise.
 * mods: MOD_FTZ (f32/f16 subnormal inputs and results to signed zero),
 * MOD_SAT (clamp to [0,1], NaN -> +0), MOD_RELU (fma on halves: negative
 * -> +0, NaN -> canonical NaN). */
uint64_t alu_fadd(PtxType t, uint64_t a, uint64_t b, Rnd rnd, uint32_t mods);
uint64_t alu_fsub(PtxType t, uint64_t a, uint64_t b, Rnd rnd, uint32_t mods);
uint64_t alu_fmul(PtxType t, uint64_t a, uint64_t b, Rnd rnd, uint32_t mods);
uint64_t alu_ffma(PtxType t, uint64_t a, uint64_t b, uint64_t c, Rnd rnd, uint32_t mods);
/* f32/f64; MOD_APPROX: div.approx, MOD_FULL: div.full, else IEEE with rnd */
uint64_t alu_fdiv(PtxType t, uint64_t a, uint64_t b, Rnd rnd, uint32_t mods);
/* f32/f64; MOD_APPROX: rcp.approx (f64: rcp.approx.ftz.f64) */
uint64_t alu_frcp(PtxType t, uint64_t a, Rnd rnd, uint32_t mods);
/* f32/f64; MOD_APPROX: sqrt.approx */
uint64_t alu_fsqrt(PtxType t, uint64_t a, Rnd rnd, uint32_t mods);
/* op: OP_RSQRT OP_EX2 OP_LG2 OP_SIN OP_COS OP_TANH (and OP_RCP OP_SQRT
 * .approx); t f32, f64 (rsqrt: .approx.f64, with MOD_FTZ the hi-word
 * .approx.ftz.f64), f16/f16x2/bf16/bf16x2 (ex2, tanh) */
uint64_t alu_fapprox(Op op, PtxType t, uint64_t a, uint32_t mods);
/* mods: MOD_FTZ MOD_NAN MOD_XORSIGN|MOD_ABS (or MOD_ABS alone: the
 * three-input form is alu_fmin(t, alu_fmin(t, a, b, m), c, m)) */
uint64_t alu_fmin(PtxType t, uint64_t a, uint64_t b, uint32_t mods);
uint64_t alu_fmax(PtxType t, uint64_t a, uint64_t b, uint32_t mods);
uint64_t alu_fabs(PtxType t, uint64_t a, uint32_t mods);
uint64_t alu_fneg(PtxType t, uint64_t a, uint32_t mods);
uint64_t alu_fcopysign(PtxType t, uint64_t a, uint64_t b);  /* |b| with a's sign */
/* f16/bf16/f32/f64 subnormal -> signed zero (for setp.ftz and friends) */
uint64_t alu_fflush(PtxType t, uint64_t a);
int alu_testp(Mode m, PtxType t, uint64_t a);               /* MODE_FINITE .. */

/* cvt.rnd.ftz.sat.relu.dst.src: every pair of u8..u64, s8..s64, b8..b64,
 * f16, bf16, f32, f64, and tf32 as destination (f32 bits, 13 low bits 0).
 * Float->int: rnd .rni/.rzi/.rmi/.rpi (RND_NONE: .rzi), saturating; int->
 * float and narrowing float->float: .rn/.rz/.rm/.rp/.rna (NONE: .rn);
 * same-type float with .rni..: round to integral.  .f16x2/.bf16x2 packs:
 * call once per half with dst f16/bf16. */
uint64_t alu_cvt(uint64_t a, PtxType dst, PtxType src, Rnd rnd, uint32_t mods);
/* FP8 pairs (sm_89+): cvt.rn.satfinite{.relu}.e4m3x2|e5m2x2.f32 d, a, b (a to the upper
 * byte) and .f16x2 d, a; cvt.rn{.relu}.f16x2.e4m3x2|e5m2x2 d, a (the low byte to the low
 * half).  nsrc is 2 for the two-.f32 form. */
uint64_t alu_cvt_fp8(PtxType dst, PtxType src, int nsrc, uint64_t a, uint64_t b,
                     uint32_t mods);

/* ---- comparison (alu.c) --------------------------------------------- */

/* setp's test: signed, unsigned and bit types (lo/ls/hi/hs unsigned;
 * lt.. by the type's signedness) and f16/bf16/f32/f64 (ordered compares
 * are false on NaN, the ...u ones true; num, nan).  Packed halves: call
 * per element.  .ftz: flush both operands with alu_fflush first. */
int alu_cmp(Cmp c, PtxType t, uint64_t a, uint64_t b);

/* setp/set's second combine: p = cmp BOP c (BOP_NONE: cmp) */
static inline int alu_boolop(BoolOp op, int cmp, int c)
{
	switch (op) {
	case BOP_AND: return cmp & c;
	case BOP_OR: return cmp | c;
	case BOP_XOR: return cmp ^ c;
	case BOP_NONE: case NBOOLOP: return cmp;
	}
	return cmp;
}

/* set's destination for true/false: integer types all ones (signed: -1),
 * f32 1.0f, f16 0x3c00, bf16 0x3f80; false is 0.  Packed: per element. */
uint64_t alu_set_val(PtxType dst, int v);

/* ---- integer arithmetic (alu.c) --------------------------------------- */

uint64_t alu_iadd(PtxType t, uint64_t a, uint64_t b, uint32_t mods);  /* .sat.s32 */
uint64_t alu_isub(PtxType t, uint64_t a, uint64_t b, uint32_t mods);
/* mul.lo/.hi/.wide (MODE_NONE = .lo); .wide returns the 2n-bit product */
uint64_t alu_mul(PtxType t, Mode m, uint64_t a, uint64_t b);
/* mad: mul then + c (c is 2n bits for .wide); MOD_SAT: mad.hi.sat.s32 */
uint64_t alu_mad(PtxType t, Mode m, uint64_t a, uint64_t b, uint64_t c, uint32_t mods);
uint64_t alu_mul24(PtxType t, Mode m, uint64_t a, uint64_t b);          /* u32/s32 */
uint64_t alu_mad24(PtxType t, Mode m, uint64_t a, uint64_t b, uint64_t c, uint32_t mods);
uint64_t alu_sad(PtxType t, uint64_t a, uint64_t b, uint64_t c);         /* c + |a-b| */
uint64_t alu_div(PtxType t, uint64_t a, uint64_t b);      /* x/0 = all ones */
uint64_t alu_rem(PtxType t, uint64_t a, uint64_t b);      /* x%0 = all ones */
uint64_t alu_iabs(PtxType t, uint64_t a);                 /* abs(MIN) = MIN */
uint64_t alu_ineg(PtxType t, uint64_t a);
uint64_t alu_imin(PtxType t, uint64_t a, uint64_t b, uint32_t mods);  /* MOD_RELU */
uint64_t alu_imax(PtxType t, uint64_t a, uint64_t b, uint32_t mods);

/* add.cc/addc over width bits: a + b + cin, *cout = carry out */
static inline uint64_t alu_add_cc(uint64_t a, uint64_t b, unsigned cin, int width,
                                  unsigned *cout)
{
	uint64_t m = width >= 64 ? ~0ull : (1ull << width) - 1;
	uint64_t s1 = (a & m) + (b & m), s = (s1 + (cin & 1)) & m;
	if (width >= 64)
		*cout = (s1 < (a & m)) | (s < s1);
	else
		*cout = (unsigned)((s1 + (cin & 1)) >> width) & 1;
	return s;
}

/* sub.cc/subc (PTX: CC.CF is a borrow): a - (b + bin), *bout = borrow out */
static inline uint64_t alu_sub_cc(uint64_t a, uint64_t b, unsigned bin, int width,
                                  unsigned *bout)
{
	uint64_t m = width >= 64 ? ~0ull : (1ull << width) - 1;
	a &= m; b &= m; bin &= 1;
	*bout = a < b || (a - b) < bin;
	return (a - b - bin) & m;
}

/* ---- logic and bit manipulation (alu.c) -------------------------------- */

uint64_t alu_shl(PtxType t, uint64_t a, uint32_t n);      /* n >= width: 0 */
uint64_t alu_shr(PtxType t, uint64_t a, uint32_t n);      /* s*: sign fill */
/* shf.l/.r (MODE_L/MODE_R) on {b,a}; MOD_WRAP: n = c & 31, else min(c, 32) */
uint32_t alu_shf(Mode dir, uint32_t mods, uint32_t a, uint32_t b, uint32_t c);
uint64_t alu_bfe(PtxType t, uint64_t a, uint32_t pos, uint32_t len);
uint64_t alu_bfi(PtxType t, uint64_t a, uint64_t b, uint32_t pos, uint32_t len);
uint32_t alu_bmsk(uint32_t a, uint32_t b, uint32_t mods); /* MOD_CLAMP / MOD_WRAP */
uint64_t alu_brev(PtxType t, uint64_t a);
uint32_t alu_clz(PtxType t, uint64_t a);
uint32_t alu_popc(PtxType t, uint64_t a);
uint32_t alu_bfind(PtxType t, uint64_t a, uint32_t mods); /* MOD_SHIFTAMT; none: ~0 */
uint32_t alu_fns(uint32_t mask, uint32_t base, int32_t offset);
uint32_t alu_prmt(uint32_t a, uint32_t b, uint32_t c, Mode m);  /* MODE_NONE or F4E.. */
uint64_t alu_cnot(PtxType t, uint64_t a);
/* dp4a / dp2a (.lo/.hi): ta, tb are PT_U32 or PT_S32 */
uint64_t alu_dp4a(PtxType ta, PtxType tb, uint32_t a, uint32_t b, uint32_t c);
uint64_t alu_dp2a(PtxType ta, PtxType tb, Mode m, uint32_t a, uint32_t b, uint32_t c);
/* SIMD video vadd2 .. vmax4 (default lane selectors and mask): dtype td, atype ta,
   btype by MOD_VB_S32; acc: .add (d = c + the lanes' sum), else lanes merged into c */
uint32_t alu_video(Op op, PtxType td, PtxType ta, uint32_t mods, int acc, uint32_t a,
                   uint32_t b, uint32_t c);

/* lop3.b32: bit i of the result is immLut[a_i*4 + b_i*2 + c_i] */
static inline uint32_t alu_lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t imm)
{
	uint32_t r = 0;
	for (int i = 0; i < 8; i++)
		if (imm >> i & 1)
			r |= (i & 4 ? a : ~a) & (i & 2 ? b : ~b) & (i & 1 ? c : ~c);
	return r;
}

/* ---- atomics (alu.c) --------------------------------------------------- */

/* atom/red: the new memory value from the old one and the operands b, c
 * (cas: c is stored when old == b).  t: the instruction type.  add.f32 is
 * the global-memory form (.ftz); shared memory keeps subnormals: use
 * alu_fadd(PT_F32, old, b, RND_RN, 0) there. */
uint64_t alu_atom(AtomOp op, PtxType t, uint64_t old, uint64_t b, uint64_t c);

#endif
