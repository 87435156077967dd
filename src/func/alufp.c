/*
 * alufp.c -- floating-point semantics of PTX, one lane at a time: f32, f64,
 * f16, bf16 (and their x2 packs) arithmetic with every rounding modifier,
 * .ftz/.sat/.relu, min/max, the .approx functions; cvt is alucvt.c, and
 * what both share (formats, the rounding core) is alufp_int.h.
 *
 * Source: PTX ISA 9.x sections 9.7.3 (floating point), 9.7.4 (half
 * precision), 9.7.9.22 (cvt); the CUDA Programming Guide's "Floating-Point
 * Standard" appendix for what the ISA leaves to the hardware.
 *
 * Rounding, without the host's rounding mode where possible.
 *   - One integer routine, round_pack(), rounds an exact value (sign,
 *     64-bit significand, binary exponent, sticky bit) into any IEEE-style
 *     format -- f16, bf16, tf32, f32, f64 and the 1.11.20 word of
 *     rcp.approx.ftz.f64 -- in .rn .rna .rz .rm .rp, with subnormals and
 *     the per-mode overflow result (.rz never gives infinity, .rm only a
 *     negative one, ...).  Every conversion goes through it: cvt never
 *     touches the host FPU's mode.
 *   - f32, f16 and bf16 arithmetic with a directed mode (and all f16/bf16
 *     arithmetic) is computed in double with round-to-odd, then rounded
 *     once by round_pack: an operand of <= 24 significant bits makes x*y
 *     exact in double; x+y and x*y+z get their exact error from TwoSum;
 *     x/y and sqrt(x) from the exact fma residual; a double that is the
 *     round-to-nearest result moved to its odd neighbour when inexact is
 *     the round-to-odd result, and rounding a 53-bit round-to-odd value to
 *     p <= 51 bits in any mode equals rounding the exact value (Boldo and
 *     Melquiond, "Emulation of FMA and correctly rounded sums: proved
 *     algorithms using rounding to odd", IEEE TC 2008).  So half fma is
 *     exact in every mode -- a plain double fma followed by a second
 *     rounding would not be: bf16 1.125 * 0.90625 + 2^-100 is the tie
 *     1 + 5*2^-8 plus 2^-100, which a double rounds onto the tie.  The
 *     TwoSum and residual steps hold under any -ffp-contract (the only
 *     product, x*y, is exact), but need FLT_EVAL_METHOD 0 (checked below).
 *   - f32 with .rn is the simulator's hot path and touches no rounding
 *     mode: the entry points test for f32 first and inline one host float
 *     operation (IEEE single; -ffp-contract=off keeps x*y+z unfused), a
 *     NaN operand propagates so only the result is checked, and .ftz/.sat
 *     are applied only when present (~16 instructions for add.f32).
 *   - f64 with a directed mode uses the host FPU: fesetround() around the
 *     one operation, operands read from and the result written to
 *     volatile objects so that the compiler can neither fold nor move the
 *     arithmetic across the mode switch; the previous mode is restored.
 *     The generated code keeps the operation between the two calls with
 *     GCC 12 and Clang at -O2/-O3; test_alu.c's alu_f64_* tests pin the
 *     results and run at -O0, -O2 and -O3.  f64 .rn never calls fenv.
 *
 * NaNs.  "The result of a single-precision floating-point operation
 * involving one or more input NaNs is the quiet NaN of bit pattern
 * 0x7fffffff" (Programming Guide), so every f32 NaN result is 0x7fffffff,
 * and likewise 0x7fff for f16 and bf16 (CUDART_NAN_FP16/_BF16, and what
 * __hmax returns as "canonical NaN").  "NaN payloads are supported for
 * double-precision instructions" (ISA 9.7.3): an f64 result with a NaN
 * operand is the first NaN operand (a, b, c) with its quiet bit set; an
 * f64 NaN made from numbers (inf-inf, 0*inf, sqrt(-1)) is 0xfff8000000000000
 * (CUDART_NAN; rfsim's best knowledge of the DP units' default NaN, not
 * measured here).  abs.f64 and neg.f64 pass a NaN through unchanged (the
 * Guide); abs/neg.f32 give 0x7fffffff (the ISA: "unspecified NaN");
 * abs/neg of halves only touch the sign bit (IEEE 754's abs/negate).  cvt
 * to f64 keeps a NaN's payload, cvt to anything else gives that type's
 * canonical NaN; rcp/rsqrt.approx.ftz.f64 give 0x7fffffff00000000 as the
 * ISA specifies.
 *
 * .ftz flushes subnormal inputs and then subnormal results (after
 * rounding) to zero of the same sign; only f32 and f16 carry it, and cvt
 * applies it only to an f32 source or destination.  .sat clamps to
 * [+0.0, 1.0] with NaN and every value <= 0 (-0.0 too) going to +0.0; .relu
 * maps values <= 0 to +0.0 and NaN to the canonical NaN.
 *
 * min/max (ISA 9.7.3.11/12, 9.7.4.8/9): a NaN operand loses to a number,
 * two NaNs (or any NaN under .NaN) give the canonical NaN, -0.0 < +0.0,
 * and .xorsign.abs takes |a|,|b| then sets the sign of a number result to
 * sign(a) ^ sign(b).
 *
 * Approximations.  rfsim computes each .approx function in double (libm),
 * then rounds to nearest: the result is correctly rounded except, rarely,
 * for a value within a double ulp of a tie, where it is 1 ulp off -- inside
 * every bound the ISA documents:
 *   rcp.approx.f32      1 ulp, full range
 *   sqrt.approx.f32     relative 2^-23
 *   rsqrt.approx.f32    relative 2^-22.9
 *   ex2.approx.f32      2 ulp from the correctly rounded result
 *   lg2.approx.f32      absolute 2^-22 on (0.5, 2), else relative 2^-22
 *   sin/cos.approx.f32  absolute 2^-20.5 on [-2pi, 2pi], 2^-14.7 on
 *                       [-100pi, 100pi], best effort beyond
 *   tanh.approx.f32     relative 2^-11 (subnormal inputs pass through)
 *   div.approx.f32      2 ulp for |b| in [2^-126, 2^126]; for 2^126 < |b|
 *                       < 2^128 it is a*(1/b) with 1/b flushed: +-0, or
 *                       NaN when a is infinite -- modelled exactly
 *   div.full.f32        2 ulp, full range (rfsim: correctly rounded)
 *   rcp/rsqrt.approx.ftz.f64  "gross approximation": the ISA only fixes
 *                       the shape -- the operand's upper word (1.11.20) in,
 *                       a 1.11.20 upper word out, low word 0; rfsim rounds
 *                       the exact 1/x, 1/sqrt(x) of that word to nearest.
 * Special values follow the ISA's tables: ex2(-inf) = +0, lg2(+-0) = -inf,
 * lg2(negative) = NaN, rsqrt(-0) = -inf, rsqrt(+inf) = +0, sin(+-inf) = NaN,
 * tanh(+-inf) = +-1, rcp(-0) = -inf, sqrt(-0) = -0.
 */
#include "func/alufp_int.h"

#include <fenv.h>

static const Fmt FMT_HI64 = {20, 11};    /* the high word of an f64 */









/* ---- rounding core --------------------------------------------------- */



/* round (-1)^sign * m * 2^e, plus a nonzero tail below m if sticky, to
 * format f under r (a float rounding); m != 0.  Returns the encoding. */


/* s = RN(v), dir = sign(v - s): the round-to-odd double of v */
static double to_odd(double s, int dir)
{
	if (dir == 0 || s == 0 || !isfinite(s)) return s;
	uint64_t u = alu_f64_bits(s);
	if (u & 1) return s;
	return alu_f64((dir > 0) == (s > 0) ? u + 1 : u - 1);
}

static int sgn(double x) { return (x > 0) - (x < 0); }

/* TwoSum (Knuth): the exact error of s = RN(a + b) */
static double sum_err(double a, double b, double s)
{
	double bb = s - a;
	return (a - (s - bb)) + (b - bb);
}

/* the exact zero a + b under r: -0 if both are negative, or if they
 * cancel and r rounds down (IEEE 754 6.3) */
static double zero_sum(double a, double b, Rnd r)
{
	int na = signbit(a) != 0, nb = signbit(b) != 0;
	return (na && nb) || (na != nb && r == RND_RM) ? -0.0 : 0.0;
}

/* op on operands of <= 24 significant bits (f32, f16, bf16 values), as
 * the round-to-odd double of the exact result */
static double odd_op(Op op, double x, double y, double z, Rnd r)
{
	double s, p, res;
	int dir = 0;
	switch (op) {
	case OP_SUB: y = -y; /* fall through */
	case OP_ADD: case OP_FMA:
		p = op == OP_FMA ? x * y : x;          /* x*y is exact */
		if (op == OP_FMA) y = z;
		s = p + y;
		if (s == 0) return zero_sum(p, y, r);
		if (isfinite(s)) dir = sgn(sum_err(p, y, s));
		break;
	case OP_MUL: return x * y;
	case OP_DIV:
		s = x / y;
		if (isfinite(s) && s != 0 && isfinite(x)) {
			res = fma(-s, y, x);               /* x - s*y, exact */
			dir = res == 0 ? 0 : ((res > 0) == (y > 0) ? 1 : -1);
		}
		break;
	case OP_SQRT:
		s = sqrt(x);
		if (isfinite(s) && s > 0) dir = sgn(fma(-s, s, x));
		break;
	default: s = NAN; break;
	}
	return to_odd(s, dir);
}

/* op on doubles in directed rounding r, by the host FPU */
static double f64_directed(Op op, double x, double y, double z, Rnd r)
{
	volatile double vx = x, vy = y, vz = z, vr = 0;
	int old = fegetround();
	fesetround(r == RND_RZ ? FE_TOWARDZERO : r == RND_RM ? FE_DOWNWARD : FE_UPWARD);
	switch (op) {
	case OP_ADD: vr = vx + vy; break;
	case OP_SUB: vr = vx - vy; break;
	case OP_MUL: vr = vx * vy; break;
	case OP_FMA: vr = fma(vx, vy, vz); break;
	case OP_DIV: vr = vx / vy; break;
	case OP_SQRT: vr = sqrt(vx); break;
	default: vr = NAN; break;
	}
	fesetround(old);
	return vr;
}


/* ---- arithmetic -------------------------------------------------------- */

static double fin(PtxType t, uint64_t a, uint32_t mods)
{
	return to_f64(t, (mods & MOD_FTZ) ? flush(t, a) : a);
}

/* an f32 operand (low 32 bits of a), flushed under .ftz */
static float f32_in(uint64_t a, uint32_t mods)
{
	uint32_t u = (uint32_t)a;
	if ((mods & MOD_FTZ) && !(u & 0x7f800000u)) u &= 0x80000000u;
	return alu_f32(u);
}

/* the PTX default rounding: RND_NONE is .rn */
static int is_rn(Rnd r) { return r == RND_NONE || r == RND_RN; }

/* f32 add/sub/mul/fma/div/sqrt.  The .rn path is the simulator's hot path:
 * one host float operation, no rounding-mode switch; a NaN operand
 * propagates through every one of these operations, so the NaN check
 * is on the result only.  Directed modes: round-to-odd double, then one
 * rounding by round_pack (see the essay). */
static inline uint64_t f32_arith(Op op, uint64_t a, uint64_t b, uint64_t c, Rnd rnd,
                                 uint32_t mods)
{
	float x = f32_in(a, mods), y = f32_in(b, mods), z = f32_in(c, mods), q;
	if (!is_rn(rnd)) {
		Rnd r = frnd(rnd);
		return fpost(PT_F32, from_f64(odd_op(op, x, y, z, r), FMT_F32, r, ALU_NAN_F32),
		             mods);
	}
	switch (op) {
	case OP_ADD: q = x + y; break;
	case OP_SUB: q = x - y; break;
	case OP_MUL: q = x * y; break;
	case OP_FMA: q = fmaf(x, y, z); break;
	case OP_DIV: q = x / y; break;
	case OP_SQRT: q = x < 0 ? NAN : sqrtf(x); break;    /* no errno path */
	default: q = NAN; break;
	}
	return fpost(PT_F32, q != q ? ALU_NAN_F32 : alu_f32_bits(q), mods);
}


/* the NaN result of an f64 operation: the first NaN operand, quietened,
 * else (an invalid operation on numbers) the default NaN */
static uint64_t f64_nan(Op op, uint64_t a, uint64_t b, uint64_t c)
{
	if (is_nan(PT_F64, a)) return quiet64(a);
	if (op != OP_SQRT && is_nan(PT_F64, b)) return quiet64(b);
	if (op == OP_FMA && is_nan(PT_F64, c)) return quiet64(c);
	return ALU_NAN_F64;
}

/* f64: the host's double operation; directed modes by f64_directed */
static uint64_t f64_arith(Op op, uint64_t a, uint64_t b, uint64_t c, Rnd rnd,
                          uint32_t mods)
{
	double x = alu_f64(a), y = alu_f64(b), z = alu_f64(c), q;
	rnd = frnd(rnd);
	if (rnd != RND_RN && rnd != RND_RNA) {
		q = f64_directed(op, x, y, z, rnd);
	} else {
		switch (op) {
		case OP_ADD: q = x + y; break;
		case OP_SUB: q = x - y; break;
		case OP_MUL: q = x * y; break;
		case OP_FMA: q = fma(x, y, z); break;
		case OP_DIV: q = x / y; break;
		case OP_SQRT: q = x < 0 ? NAN : sqrt(x); break;
		default: q = NAN; break;
		}
	}
	mods &= MOD_SAT;                          /* f64 has no .ftz */
	return fpost(PT_F64, q != q ? f64_nan(op, a, b, c) : alu_f64_bits(q), mods);
}

/* f16 or bf16: exact double operands, one rounding by round_pack */
static uint64_t half_arith(Op op, PtxType t, uint64_t a, uint64_t b, uint64_t c,
                           Rnd rnd, uint32_t mods)
{
	double x = fin(t, a, mods), y = fin(t, b, mods), z = fin(t, c, mods);
	int three = op == OP_FMA, one = op == OP_SQRT;
	uint64_t r;
	rnd = frnd(rnd);
	if (isnan(x) || (!one && isnan(y)) || (three && isnan(z)))
		r = 0x7fff;
	else
		r = from_f64(odd_op(op, x, y, z, rnd), lay_of(t), rnd, 0x7fff);
	return fpost(t, r, mods);
}

static PtxType elem_of(PtxType t) { return t == PT_F16X2 ? PT_F16 : PT_BF16; }

/* every type; the entry points below test for f32, the hot type, first
 * and call f32_arith directly so that it inlines with op constant */
static uint64_t farith(Op op, PtxType t, uint64_t a, uint64_t b, uint64_t c, Rnd rnd,
                       uint32_t mods)
{
	switch (t) {
	case PT_F16X2: case PT_BF16X2: {
		PtxType e = elem_of(t);
		return half_arith(op, e, a & 0xffff, b & 0xffff, c & 0xffff, rnd, mods) |
		       half_arith(op, e, a >> 16 & 0xffff, b >> 16 & 0xffff, c >> 16 & 0xffff,
		                  rnd, mods) << 16;
	}
	case PT_F16: case PT_BF16: return half_arith(op, t, a, b, c, rnd, mods);
	case PT_F64: return f64_arith(op, a, b, c, rnd, mods);
	default: return f32_arith(op, a, b, c, rnd, mods);
	}
}

uint64_t alu_fadd(PtxType t, uint64_t a, uint64_t b, Rnd rnd, uint32_t mods)
{
	if (t == PT_F32) return f32_arith(OP_ADD, a, b, 0, rnd, mods);
	return farith(OP_ADD, t, a, b, 0, rnd, mods);
}

uint64_t alu_fsub(PtxType t, uint64_t a, uint64_t b, Rnd rnd, uint32_t mods)
{
	if (t == PT_F32) return f32_arith(OP_SUB, a, b, 0, rnd, mods);
	return farith(OP_SUB, t, a, b, 0, rnd, mods);
}

uint64_t alu_fmul(PtxType t, uint64_t a, uint64_t b, Rnd rnd, uint32_t mods)
{
	if (t == PT_F32) return f32_arith(OP_MUL, a, b, 0, rnd, mods);
	return farith(OP_MUL, t, a, b, 0, rnd, mods);
}

uint64_t alu_ffma(PtxType t, uint64_t a, uint64_t b, uint64_t c, Rnd rnd, uint32_t mods)
{
	if (t == PT_F32) return f32_arith(OP_FMA, a, b, c, rnd, mods);
	return farith(OP_FMA, t, a, b, c, rnd, mods);
}

/* div.approx.f32: a * (1/b), where 1/b flushes to 0 for |b| > 2^126 */
static uint64_t div_approx(uint64_t a, uint64_t b, uint32_t mods)
{
	float x = f32_in(a, mods), y = f32_in(b, mods);
	if (!isnan(x) && !isnan(y) && fabsf(y) > 0x1p126f && !isinf(y)) {
		if (isinf(x)) return fpost(PT_F32, ALU_NAN_F32, mods);
		return fpost(PT_F32, (alu_f32_bits(x) ^ alu_f32_bits(y)) & 0x80000000u, mods);
	}
	return f32_arith(OP_DIV, a, b, 0, RND_RN, mods);
}

uint64_t alu_fdiv(PtxType t, uint64_t a, uint64_t b, Rnd rnd, uint32_t mods)
{
	if (mods & (MOD_APPROX | MOD_FULL)) {
		if (t == PT_F32 && (mods & MOD_APPROX)) return div_approx(a, b, mods);
		rnd = RND_RN;
	}
	if (t == PT_F32) return f32_arith(OP_DIV, a, b, 0, rnd, mods);
	return farith(OP_DIV, t, a, b, 0, rnd, mods);
}

/* rcp/rsqrt.approx.ftz.f64: the upper word of a (1.11.20) in, the upper
 * word of the result out, low word zero (ISA 9.7.3.14 and 9.7.3.17) */
static uint64_t approx_hi64(uint64_t a, int rsqrt)
{
	uint32_t hi = (uint32_t)(a >> 32), e = hi >> 20 & 0x7ff, s = hi >> 31;
	if (e == 0x7ff && (hi & 0xfffff)) return 0x7fffffff00000000ull;
	if (e == 0) return (uint64_t)(s << 31 | 0x7ff00000u) << 32;   /* +-0, subnormal */
	if (rsqrt && s) return 0x7fffffff00000000ull;                 /* -normal, -inf */
	if (e == 0x7ff) return (uint64_t)s << 63;                      /* +-inf -> +-0 */
	double x = alu_f64((uint64_t)hi << 32);
	uint64_t r = from_f64(rsqrt ? 1 / sqrt(x) : 1 / x, FMT_HI64, RND_RN, 0);
	if (!(r >> 20 & 0x7ff)) r &= 0x80000000u;                     /* flush */
	return r << 32;
}

uint64_t alu_frcp(PtxType t, uint64_t a, Rnd rnd, uint32_t mods)
{
	if (mods & MOD_APPROX) {
		if (t == PT_F64) return approx_hi64(a, 0);
		rnd = RND_RN;
	}
	if (t == PT_F32) return f32_arith(OP_DIV, 0x3f800000, a, 0, rnd, mods);
	return farith(OP_DIV, t, one_of(t), a, 0, rnd, mods);
}

uint64_t alu_fsqrt(PtxType t, uint64_t a, Rnd rnd, uint32_t mods)
{
	if (mods & MOD_APPROX) rnd = RND_RN;
	if (t == PT_F32) return f32_arith(OP_SQRT, a, 0, 0, rnd, mods);
	return farith(OP_SQRT, t, a, 0, 0, rnd, mods);
}

/* the double-precision value of an .approx function */
static double approx_fn(Op op, double x)
{
	if (op == OP_RSQRT) return 1 / sqrt(x);
	if (op == OP_EX2) return exp2(x);
	if (op == OP_LG2) return log2(x);
	if (op == OP_SIN) return sin(x);
	if (op == OP_COS) return cos(x);
	if (op == OP_TANH) return tanh(x);
	return NAN;
}

uint64_t alu_fapprox(Op op, PtxType t, uint64_t a, uint32_t mods)
{
	if (t == PT_F16X2 || t == PT_BF16X2) {
		PtxType e = elem_of(t);
		return alu_fapprox(op, e, a & 0xffff, mods) |
		       alu_fapprox(op, e, a >> 16 & 0xffff, mods) << 16;
	}
	if (op == OP_RCP) return alu_frcp(t, a, RND_NONE, mods | MOD_APPROX);
	if (op == OP_SQRT) return alu_fsqrt(t, a, RND_NONE, mods | MOD_APPROX);
	if (t == PT_F64) {
		if (op == OP_RSQRT && (mods & MOD_FTZ)) return approx_hi64(a, 1);
		double x = alu_f64(a);
		if (isnan(x)) return quiet64(a);
		double r = op == OP_RSQRT ? (double)(1.0L / sqrtl((long double)x)) : approx_fn(op, x);
		return isnan(r) ? ALU_NAN_F64 : alu_f64_bits(r);
	}
	double x = fin(t, a, mods);
	uint64_t nan = canon_nan(t);
	uint64_t r = isnan(x) ? nan : from_f64(approx_fn(op, x), lay_of(t), RND_RN, nan);
	return fpost(t, r, mods & MOD_FTZ);
}

/* ---- min, max, abs, neg, copysign, testp ------------------------------ */

static uint64_t minmax1(int ismax, PtxType t, uint64_t a, uint64_t b, uint32_t mods)
{
	uint64_t sb = sbit_of(lay_of(t)), d;
	if (mods & MOD_FTZ) { a = flush(t, a); b = flush(t, b); }
	uint64_t xs = (a ^ b) & sb;
	if (mods & (MOD_ABS | MOD_XORSIGN)) { a &= ~sb; b &= ~sb; }  /* .xorsign.abs */
	int na = is_nan(t, a), nb = is_nan(t, b);
	if ((na && nb) || ((mods & MOD_NAN) && (na || nb))) {
		if (t != PT_F64) return canon_nan(t);
		return quiet64(na ? a : b);
	}
	if (na) {
		d = b;
	} else if (nb) {
		d = a;
	} else {
		double x = to_f64(t, a), y = to_f64(t, b);
		if (x == y)                           /* equal: only +0/-0 differ */
			d = ((a & sb) != 0) != ismax ? a : b;
		else
			d = (x < y) != ismax ? a : b;
	}
	if (mods & MOD_XORSIGN) d = (d & ~sb) | xs;
	return d;
}

/* plain min/max.f32 (no modifier): the hot case, on the host's floats */
static uint64_t minmax_f32(int ismax, uint32_t a, uint32_t b)
{
	float x = alu_f32(a), y = alu_f32(b);
	if (x != x) return y != y ? ALU_NAN_F32 : b;
	if (y != y) return a;
	if (x == y) return (a >> 31) != (uint32_t)ismax ? a : b;      /* -0 < +0 */
	return (x < y) != ismax ? a : b;
}

static uint64_t minmax(int ismax, PtxType t, uint64_t a, uint64_t b, uint32_t mods)
{
	if (t == PT_F32 && !(mods & (MOD_FTZ | MOD_NAN | MOD_ABS | MOD_XORSIGN)))
		return minmax_f32(ismax, (uint32_t)a, (uint32_t)b);
	if (t == PT_F16X2 || t == PT_BF16X2) {
		PtxType e = elem_of(t);
		return minmax1(ismax, e, a & 0xffff, b & 0xffff, mods) |
		       minmax1(ismax, e, a >> 16 & 0xffff, b >> 16 & 0xffff, mods) << 16;
	}
	uint64_t m = alu_width(t) >= 64 ? ~0ull : (1ull << alu_width(t)) - 1;
	return minmax1(ismax, t, a & m, b & m, mods);
}

uint64_t alu_fmin(PtxType t, uint64_t a, uint64_t b, uint32_t mods)
{
	return minmax(0, t, a, b, mods);
}

uint64_t alu_fmax(PtxType t, uint64_t a, uint64_t b, uint32_t mods)
{
	return minmax(1, t, a, b, mods);
}

/* abs (neg == 0) or neg (neg == 1) of one element */
static uint64_t absneg1(int neg, PtxType t, uint64_t a, uint32_t mods)
{
	uint64_t sb = sbit_of(lay_of(t));
	/* NaN (ISA 9.7.3.9/10, 9.7.4.5/6: "unspecified NaN"): f32 gives the
	 * canonical NaN, f64 passes it unchanged, halves fall through to the
	 * sign-bit operation the essay documents (a half NaN used to come
	 * back unchanged, which neg of any encoding never does) */
	if (is_nan(t, a) && (t == PT_F32 || t == PT_F64)) return t == PT_F32 ? ALU_NAN_F32 : a;
	if (mods & MOD_FTZ) a = flush(t, a);
	return neg ? a ^ sb : a & ~sb;
}

static uint64_t absneg(int neg, PtxType t, uint64_t a, uint32_t mods)
{
	if (t == PT_F16X2 || t == PT_BF16X2) {
		PtxType e = elem_of(t);
		return absneg1(neg, e, a & 0xffff, mods) |
		       absneg1(neg, e, a >> 16 & 0xffff, mods) << 16;
	}
	if (t == PT_F64) mods &= ~(uint32_t)MOD_FTZ;
	uint64_t m = alu_width(t) >= 64 ? ~0ull : (1ull << alu_width(t)) - 1;
	return absneg1(neg, t, a & m, mods);
}

uint64_t alu_fabs(PtxType t, uint64_t a, uint32_t mods) { return absneg(0, t, a, mods); }

uint64_t alu_fneg(PtxType t, uint64_t a, uint32_t mods) { return absneg(1, t, a, mods); }

uint64_t alu_fcopysign(PtxType t, uint64_t a, uint64_t b)
{
	uint64_t sb = sbit_of(lay_of(t)), m = (sb << 1) - 1;
	return ((b & ~sb) | (a & sb)) & m;
}

uint64_t alu_fflush(PtxType t, uint64_t a)
{
	if (t == PT_F16X2 || t == PT_BF16X2)
		return flush(elem_of(t), a & 0xffff) | flush(elem_of(t), a >> 16 & 0xffff) << 16;
	uint64_t m = alu_width(t) >= 64 ? ~0ull : (1ull << alu_width(t)) - 1;
	return flush(t, a & m);
}

int alu_testp(Mode m, PtxType t, uint64_t a)
{
	Fmt f = lay_of(t);
	uint64_t e = a & emask_of(f), fr = a & fmask_of(f);
	int inf = e == emask_of(f) && !fr, nan = e == emask_of(f) && fr, sub = !e && fr;
	if (m == MODE_FINITE) return !inf && !nan;
	if (m == MODE_INFINITE) return inf;
	if (m == MODE_NUMBER) return !nan;
	if (m == MODE_NOTANUMBER) return nan;
	if (m == MODE_NORMAL) return !inf && !nan && !sub;    /* +-0 count as normal */
	if (m == MODE_SUBNORMAL) return sub;
	return 0;
}

