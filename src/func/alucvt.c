/*
 * alucvt.c -- cvt's semantics: conversions between every integer and float
 * type (PTX ISA 9.7.9.22), through alufp_int.h's rounding core.
 *
 * float->int rounds with .rni/.rzi/.rmi/.rpi (none given: .rzi) and
 * saturates to the destination's range; NaN gives 0,
 * except 1 << (n-1) when the source is f64 or the destination 64-bit (the
 * ISA's rule).  Same-type float with an integer rounding rounds to an
 * integral value.  .sat on int->int clamps to the destination range.
 * tf32 results are f32 bit patterns with the 13 low bits zero.  .ftz
 * flushes an f32 source and an f32 result, except that cvt.ftz.f16.f32
 * keeps a subnormal source, as NVIDIA hardware does (see cvt_float_float).
 */
#include "func/alufp_int.h"

#include <string.h>

static const Fmt FMT_TF32 = {10, 8};

static int is_float(PtxType t)
{
	return t == PT_F16 || t == PT_BF16 || t == PT_TF32 || t == PT_F32 || t == PT_F64;
}

/* the round format of a float destination */
static Fmt rfmt_of(PtxType t) { return t == PT_TF32 ? FMT_TF32 : lay_of(t); }

/* a tf32 encoding (1.8.10) as its f32 bit pattern */
static uint64_t tf32_bits(uint64_t r)
{
	return (r >> 18 & 1) << 31 | (r & 0x3ffff) << 13;
}

/* an encoding in the round format of float type t -> its bit pattern */
static uint64_t fstore(PtxType t, uint64_t r)
{
	return t == PT_TF32 ? tf32_bits(r) : r;
}

static double round_int(double x, Rnd r)
{
	switch (r) {
	case RND_RNI: case RND_RN: return rint(x);
	case RND_RMI: case RND_RM: return floor(x);
	case RND_RPI: case RND_RP: return ceil(x);
	case RND_RNA: return round(x);
	default: return trunc(x);
	}
}

static int is_irnd(Rnd r)
{
	return r == RND_RNI || r == RND_RZI || r == RND_RMI || r == RND_RPI;
}

static uint64_t cvt_int_int(uint64_t a, PtxType dst, PtxType src, uint32_t mods)
{
	int wd = alu_width(dst);
	__extension__ __int128 v = alu_is_signed(src) ? (__int128)(int64_t)alu_norm(src, a)
	                                             : (__int128)alu_norm(src, a);
	if (mods & MOD_SAT) {
		__extension__ __int128 lo = 0, hi = ((__int128)1 << wd) - 1;
		if (alu_is_signed(dst)) { hi = ((__int128)1 << (wd - 1)) - 1; lo = -hi - 1; }
		v = v < lo ? lo : v > hi ? hi : v;
	}
	return alu_norm(dst, (uint64_t)v);
}

static uint64_t cvt_int_float(uint64_t a, PtxType dst, PtxType src, Rnd rnd, uint32_t mods)
{
	uint64_t v = alu_norm(src, a), mag = v;
	int neg = alu_is_signed(src) && (int64_t)v < 0;
	if (neg) mag = 0 - v;
	uint64_t r = mag ? round_pack(neg, mag, 0, 0, rfmt_of(dst), frnd(rnd)) : 0;
	return fpost(dst, fstore(dst, r), mods & ~(uint32_t)MOD_FTZ);
}

static uint64_t cvt_float_int(uint64_t a, PtxType dst, PtxType src, Rnd rnd, uint32_t mods)
{
	int w = alu_width(dst);
	if (src == PT_F32 && (mods & MOD_FTZ)) a = flush(src, a);
	double x = to_f64(src, a);
	if (isnan(x)) return src == PT_F64 || w == 64 ? alu_norm(dst, 1ull << (w - 1)) : 0;
	x = round_int(x, rnd);
	if (alu_is_signed(dst)) {
		double lim = pow2(w - 1);              /* 2^(n-1), exact */
		if (x >= lim) return alu_norm(dst, (1ull << (w - 1)) - 1);
		if (x < -lim) return alu_norm(dst, 1ull << (w - 1));
		return alu_norm(dst, (uint64_t)(int64_t)x);
	}
	if (!(x > 0)) return 0;
	if (x >= pow2(w)) return alu_norm(dst, ~0ull);
	return (uint64_t)x;
}

/* NaN converted to float type dst: f64 keeps the payload (quieted) */
static uint64_t cvt_nan(uint64_t a, PtxType dst, PtxType src)
{
	if (dst != PT_F64) return dst == PT_TF32 ? ALU_NAN_F32 : canon_nan(dst);
	Fmt f = lay_of(src);
	uint64_t s = (a & sbit_of(f)) ? 1ull << 63 : 0;
	return quiet64(s | 0x7ff0000000000000ull | (a & fmask_of(f)) << (52 - f.frac));
}

static uint64_t cvt_float_float(uint64_t a, PtxType dst, PtxType src, Rnd rnd,
                                uint32_t mods)
{
	uint32_t post = mods & (dst == PT_F32 ? ~0u : ~(uint32_t)MOD_FTZ);
	uint64_t m = alu_width(src) >= 64 ? ~0ull : (1ull << alu_width(src)) - 1;
	a &= m;
	if (is_nan(src, a)) return fpost(dst, cvt_nan(a, dst, src), post);
	/* .ftz flushes an f32 source (ISA, cvt "Subnormal numbers") -- except
	 * toward f16, where NVIDIA hardware keeps the subnormal input: ZLUDA's
	 * cvt tests, checked against real GPUs, record "ERRATA: <rnd>.ftz{.sat}
	 * .f16.f32 flushes subnormals only if <rnd> is explicit integer
	 * rounding" (which no legal f16.f32 form has).  Visible only as
	 * .rp/.rm giving +-2^-24. */
	if (src == PT_F32 && (mods & MOD_FTZ) && dst != PT_F16) a = flush(src, a);
	double x = to_f64(src, a);
	if (is_irnd(rnd)) {
		x = round_int(x, rnd);
		rnd = RND_RN;
	}
	uint64_t r = from_f64(x, rfmt_of(dst), frnd(rnd), 0);
	return fpost(dst, fstore(dst, r), post);
}

uint64_t alu_cvt(uint64_t a, PtxType dst, PtxType src, Rnd rnd, uint32_t mods)
{
	int sf = is_float(src), df = is_float(dst);
	if (!sf && !df) return cvt_int_int(a, dst, src, mods);
	if (!sf) return cvt_int_float(a, dst, src, rnd, mods);
	if (!df) return cvt_float_int(a, dst, src, rnd, mods);
	return cvt_float_float(a, dst, src, rnd, mods);
}

/* ---- FP8 (E4M3 and E5M2, as the OCP 8-bit formats and NVIDIA's cuda_fp8.h define
 * them: E4M3 has bias 7, no infinities and one NaN per sign, S.1111.111, largest
 * finite 448; E5M2 is IEEE-like, bias 15, largest finite 57344) ------------------- */

/* x to FP8, round to nearest even; .satfinite: what overflows becomes the largest
 * finite value (else E4M3 NaN, E5M2 infinity); a NaN becomes the canonical 0x7f in
 * either format, whatever its sign (as cuda_fp8.h's conversions give); .relu:
 * negatives become +0 */
static uint32_t to_fp8(double x, int e5, uint32_t mods)
{
	const int mb = e5 ? 2 : 3, bias = e5 ? 15 : 7, emin = 1 - bias;
	const double maxn = e5 ? 57344.0 : 448.0, half_ulp = e5 ? 4096.0 : 16.0;
	uint64_t bits;
	memcpy(&bits, &x, 8);
	uint32_t sign = (uint32_t)(bits >> 63) << 7;
	if (x != x) return 0x7f;
	if ((mods & MOD_RELU) && sign) return 0;
	double ax = fabs(x);
	/* past the largest finite value by half an ulp or more (E4M3's tie at 464 goes to
	   448, whose significand is even; E5M2's at 61440 would go to the next binade) */
	if (e5 ? ax >= maxn + half_ulp : ax > maxn + half_ulp)
		return sign | ((mods & MOD_SATFINITE) ? (e5 ? 0x7b : 0x7e) : (e5 ? 0x7c : 0x7f));
	int e;
	frexp(ax, &e);
	e -= 1;                                    /* ax in [2^e, 2^(e+1)) */
	if (ax == 0 || e < emin) {                 /* subnormal: units of 2^(emin - mb) */
		double q = nearbyint(ldexp(ax, mb - emin));
		return sign | (uint32_t)q;             /* 2^mb: the smallest normal's code */
	}
	double q = nearbyint(ldexp(ax, mb - e));    /* in [2^mb, 2^(mb+1)] */
	if (q >= (double)(2 << mb)) q /= 2, e++;
	return sign | (uint32_t)(e + bias) << mb | ((uint32_t)q - (1u << mb));
}

/* one FP8 value to f16 bits: exact; NaN is f16's 0x7fff */
static uint32_t fp8_to_f16(uint32_t v, int e5)
{
	if (e5) return (v & 0x7f) > 0x7c ? 0x7fff : v << 8;   /* E5M2 is f16's top byte */
	if ((v & 0x7f) == 0x7f) return 0x7fff;
	uint32_t ex = v >> 3 & 15, m = v & 7;
	double val = ex ? ldexp(8 + m, (int)ex - 7 - 3) : ldexp(m, -6 - 3);
	float f = (float)(v & 0x80 ? -val : val);
	uint32_t fb;
	memcpy(&fb, &f, 4);
	return (uint32_t)alu_cvt(fb, PT_F16, PT_F32, RND_RN, 0);
}

static double f32_of(uint64_t a)
{
	float f;
	uint32_t u = (uint32_t)a;
	memcpy(&f, &u, 4);
	return f;
}

static double f16_of(uint32_t h)
{
	return f32_of(alu_cvt(h, PT_F32, PT_F16, RND_NONE, 0));
}

uint64_t alu_cvt_fp8(PtxType dst, PtxType src, int nsrc, uint64_t a, uint64_t b,
                     uint32_t mods)
{
	if (dst == PT_F16X2) {                     /* from a pair of FP8 */
		int e5 = src == PT_E5M2X2;
		uint32_t lo = fp8_to_f16((uint32_t)a & 0xff, e5), hi = fp8_to_f16((uint32_t)a >> 8 & 0xff, e5);
		if (mods & MOD_RELU) {
			if ((lo & 0x8000) && lo != 0x7fff) lo = 0;
			if ((hi & 0x8000) && hi != 0x7fff) hi = 0;
		}
		return hi << 16 | lo;
	}
	int e5 = dst == PT_E5M2X2;
	double x = nsrc == 2 ? f32_of(a) : f16_of((uint32_t)a >> 16 & 0xffff);
	double y = nsrc == 2 ? f32_of(b) : f16_of((uint32_t)a & 0xffff);
	return (uint64_t)(to_fp8(x, e5, mods) << 8 | to_fp8(y, e5, mods));
}
