/*
 * alufp_int.h -- what alufp.c (arithmetic) and alucvt.c (cvt) share: the
 * IEEE-style binary formats and the rounding core that every float result
 * and every conversion goes through (alufp.c's opening comment).
 */
#ifndef RFSIM_FUNC_ALUFP_INT_H
#define RFSIM_FUNC_ALUFP_INT_H

#include <float.h>
#include <math.h>

#include "func/alu.h"

#if FLT_EVAL_METHOD != 0
#error "alufp_int.h needs IEEE float/double evaluation (SSE2 on x86)"
#endif

/* an IEEE-style binary format: fraction bits and exponent bits */
typedef struct Fmt { int frac, exp; } Fmt;

static const Fmt FMT_F16 = {10, 5}, FMT_BF16 = {7, 8}, FMT_F32 = {23, 8},
	FMT_F64 = {52, 11};

/* the storage layout of a float type (tf32 is stored as f32) */
static inline Fmt lay_of(PtxType t)
{
	switch (t) {
	case PT_F16: case PT_F16X2: return FMT_F16;
	case PT_BF16: case PT_BF16X2: return FMT_BF16;
	case PT_F64: return FMT_F64;
	default: return FMT_F32;
	}
}

static inline uint64_t sbit_of(Fmt f) { return 1ull << (f.frac + f.exp); }

static inline uint64_t emask_of(Fmt f) { return ((1ull << f.exp) - 1) << f.frac; }

static inline uint64_t fmask_of(Fmt f) { return (1ull << f.frac) - 1; }

static inline uint64_t canon_nan(PtxType t)
{
	switch (t) {
	case PT_F16: case PT_BF16: return 0x7fff;
	case PT_F64: return ALU_NAN_F64;
	default: return ALU_NAN_F32;
	}
}

/* the value 1 of a float type (both halves of a pair) */
static inline uint64_t one_of(PtxType t)
{
	switch (t) {
	case PT_F16: return 0x3c00;
	case PT_BF16: return 0x3f80;
	case PT_F16X2: return 0x3c003c00;
	case PT_BF16X2: return 0x3f803f80;
	case PT_F64: return 0x3ff0000000000000ull;
	default: return 0x3f800000;
	}
}

static inline int is_nan(PtxType t, uint64_t a)
{
	Fmt f = lay_of(t);
	return (a & emask_of(f)) == emask_of(f) && (a & fmask_of(f));
}

static inline int is_sub(PtxType t, uint64_t a)
{
	Fmt f = lay_of(t);
	return !(a & emask_of(f)) && (a & fmask_of(f));
}

/* .ftz on one value: a subnormal becomes the zero of its sign */
static inline uint64_t flush(PtxType t, uint64_t a)
{
	return is_sub(t, a) ? a & sbit_of(lay_of(t)) : a;
}

static inline double pow2(int k) { return alu_f64((uint64_t)(k + 1023) << 52); }

/* the exact value of a float operand (low bits of a) as a double */
static inline double to_f64(PtxType t, uint64_t a)
{
	switch (t) {
	case PT_F64: return alu_f64(a);
	case PT_BF16: case PT_BF16X2: return alu_f32((a & 0xffff) << 16);
	case PT_F16: case PT_F16X2: {
		uint32_t e = a >> 10 & 0x1f, m = a & 0x3ff;
		double v = e == 31 ? (m ? NAN : INFINITY)
		         : e ? (m | 0x400) * pow2((int)e - 25) : m * 0x1p-24;
		return (a & 0x8000) ? -v : v;
	}
	default: return alu_f32(a);
	}
}

static inline Rnd frnd(Rnd r)        /* a float rounding; RND_NONE is .rn */
{
	switch (r) {
	case RND_RZ: case RND_RZI: return RND_RZ;
	case RND_RM: case RND_RMI: return RND_RM;
	case RND_RP: case RND_RPI: return RND_RP;
	case RND_RNA: return RND_RNA;
	default: return RND_RN;
	}
}

/* the result of an overflow in format f under rounding r */
static inline uint64_t overflow(int sign, Fmt f, Rnd r)
{
	uint64_t inf = emask_of(f), max = inf - 1;
	int to_max = r == RND_RZ || (r == RND_RM && !sign) || (r == RND_RP && sign);
	return ((uint64_t)sign << (f.frac + f.exp)) | (to_max ? max : inf);
}

static inline uint64_t round_pack(int sign, uint64_t m, int e, int sticky, Fmt f, Rnd r)
{
	int bias = (1 << (f.exp - 1)) - 1, emax = (1 << f.exp) - 1;
	int lz = __builtin_clzll(m);
	m <<= lz;
	e -= lz;                                   /* m in [2^63, 2^64) */
	int be = e + 63 + bias;                    /* biased exponent if normal */
	if (be >= emax) return overflow(sign, f, r);
	int shift = 63 - f.frac + (be < 1 ? 1 - be : 0);
	uint64_t kept, guard, rest;
	if (shift >= 64) {
		kept = 0;
		guard = shift == 64 ? m >> 63 : 0;
		rest = (shift == 64 ? (m << 1) != 0 : 1) || sticky;
	} else {
		uint64_t lost = m << (64 - shift);
		kept = m >> shift;
		guard = lost >> 63;
		rest = (lost << 1) != 0 || sticky;
	}
	int inc = 0;
	switch (r) {
	case RND_RNA: inc = (int)guard; break;
	case RND_RZ: inc = 0; break;
	case RND_RM: inc = sign && (guard || rest); break;
	case RND_RP: inc = !sign && (guard || rest); break;
	default: inc = guard && (rest || (kept & 1)); break;
	}
	/* a subnormal kept has no implicit bit and exponent field 0; a carry
	 * out of the significand moves into the exponent field by itself */
	uint64_t enc = ((uint64_t)(be < 1 ? 0 : be - 1) << f.frac) + kept + (uint64_t)inc;
	if (enc >= emask_of(f)) return overflow(sign, f, r);
	return ((uint64_t)sign << (f.frac + f.exp)) | enc;
}

/* the double x rounded to format f; NaN gives nan */
static inline uint64_t from_f64(double x, Fmt f, Rnd r, uint64_t nan)
{
	uint64_t u = alu_f64_bits(x), m = u & ((1ull << 52) - 1);
	int sign = (int)(u >> 63), e = (int)(u >> 52 & 0x7ff);
	if (e == 0x7ff) return m ? nan : ((uint64_t)sign << (f.frac + f.exp)) | emask_of(f);
	if (e == 0 && m == 0) return (uint64_t)sign << (f.frac + f.exp);
	if (e) m |= 1ull << 52;
	else e = 1;
	return round_pack(sign, m, e - 1075, 0, f, r);
}

/* .ftz, .sat, .relu on a result r of type t */
static inline uint64_t fpost(PtxType t, uint64_t r, uint32_t mods)
{
	if (!(mods & (MOD_FTZ | MOD_SAT | MOD_RELU))) return r;   /* the common case */
	Fmt f = lay_of(t);
	uint64_t sb = sbit_of(f);
	if (is_nan(t, r)) {
		if (mods & MOD_SAT) return 0;
		return (mods & MOD_RELU) ? canon_nan(t) : r;
	}
	if ((mods & MOD_FTZ) && is_sub(t, r)) r &= sb;
	if ((mods & (MOD_SAT | MOD_RELU)) && (r & sb)) return 0;
	if ((mods & MOD_SAT) && r > one_of(t)) return one_of(t);
	return r;
}

static inline uint64_t quiet64(uint64_t a) { return a | 0x0008000000000000ull; }

#endif
