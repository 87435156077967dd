/*
 * test_alu.c -- the scalar PTX semantics of src/sim/alu.h, pinned by
 * hand-computed bit patterns.
 *
 * Every expectation is a literal worked out beside it from the PTX ISA's
 * definition (or IEEE 754 for rounding), never by re-running the formula
 * the library uses.  Float values are written as their encodings; the
 * comment gives the value and why it is the right rounding.  Notation:
 * ulp(1) = 2^-23 for f32, 2^-52 for f64, 2^-10 for f16, 2^-7 for bf16.
 * Approximations are checked against their PTX-documented error bounds,
 * with the exact value written out as a decimal literal.
 *
 * Results of signed integer types come back sign-extended to 64 bits, so
 * CHECK_EQ(x, -3) pins an s32 -3; unsigned and float results are checked
 * with CHECK_EQ_U64 against zero-extended patterns.
 */
#include <math.h>
#include <stdint.h>

#include "sim/alu.h"
#include "unit.h"

/* f32 encodings used throughout */
#define F1     0x3f800000u   /* 1.0 */
#define FM1    0xbf800000u   /* -1.0 */
#define F2     0x40000000u   /* 2.0 */
#define F3     0x40400000u   /* 3.0 */
#define FHALF  0x3f000000u   /* 0.5 */
#define FZERO  0x00000000u
#define FNZERO 0x80000000u
#define FINF   0x7f800000u
#define FNINF  0xff800000u
#define FNAN   0x7fffffffu   /* the canonical f32 NaN */
#define FQNAN  0x7fc00000u   /* a NaN that is not canonical */
#define FMAX   0x7f7fffffu   /* FLT_MAX = (2 - 2^-23) * 2^127 */
#define FSUB1  0x00000001u   /* 2^-149, the smallest subnormal */
/* f64 */
#define D1     0x3ff0000000000000ull
#define D2     0x4000000000000000ull
#define D3     0x4008000000000000ull
#define DINF   0x7ff0000000000000ull
#define DNINF  0xfff0000000000000ull

static const Rnd RNDS[4] = {RND_RN, RND_RZ, RND_RM, RND_RP};

/* distance in ulps between two f32 encodings of the same sign */
static uint64_t ulps32(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

static int is_nan32(uint64_t a) { return (a & 0x7f800000u) == 0x7f800000u && (a & 0x7fffffu); }
static int is_nan64(uint64_t a)
{
	return (a & DINF) == DINF && (a & 0x000fffffffffffffull);
}

/* ---- f32 rounding modes ---------------------------------------------- */

/* 1 + 2^-24 is exactly half an ulp above 1.0: a tie.  .rn keeps the even
 * 1.0, only .rp moves up to 1 + 2^-23 (0x3f800001). */
TEST(alu_f32_add_tie_1_plus_2m24)
{
	const uint64_t want[4] = {F1, F1, F1, 0x3f800001};
	const uint64_t neg[4] = {FM1, FM1, 0xbf800001, FM1};    /* mirror image */
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_U64(alu_fadd(PT_F32, F1, 0x33800000, RNDS[i], 0), want[i]);
		CHECK_EQ_U64(alu_fadd(PT_F32, FM1, 0xb3800000, RNDS[i], 0), neg[i]);
	}
	/* RND_NONE is the PTX default .rn */
	CHECK_EQ_U64(alu_fadd(PT_F32, F1, 0x33800000, RND_NONE, 0), F1);
	/* (1 + 2^-23) + 2^-24: tie between 0x3f800001 (odd) and 0x3f800002
	 * (even): ties-to-even rounds up here, so this is not ties-down */
	CHECK_EQ_U64(alu_fadd(PT_F32, 0x3f800001, 0x33800000, RND_RN, 0), 0x3f800002);
}

/* 1 + 3*2^-25 = 1 + 0.75 ulp: nearest is up, toward zero/down is 1.0.
 * 3*2^-25 = 1.5 * 2^-24 = 0x33c00000. */
TEST(alu_f32_add_three_quarter_ulp)
{
	const uint64_t want[4] = {0x3f800001, F1, F1, 0x3f800001};
	const uint64_t neg[4] = {0xbf800001, FM1, 0xbf800001, FM1};
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_U64(alu_fadd(PT_F32, F1, 0x33c00000, RNDS[i], 0), want[i]);
		CHECK_EQ_U64(alu_fadd(PT_F32, FM1, 0xb3c00000, RNDS[i], 0), neg[i]);
	}
}

/* 1 - 2^-25: below 1.0 the ulp is 2^-24, so this is a tie between
 * 0x3f7fffff (odd) and 1.0 (even). */
TEST(alu_f32_sub_tie_below_one)
{
	const uint64_t want[4] = {F1, 0x3f7fffff, 0x3f7fffff, F1};
	for (int i = 0; i < 4; i++)
		CHECK_EQ_U64(alu_fsub(PT_F32, F1, 0x33000000, RNDS[i], 0), want[i]);
}

/* x - x is +0 in every mode but .rm, where IEEE 754 6.3 makes it -0 */
TEST(alu_f32_exact_zero_sign_per_mode)
{
	const uint64_t want[4] = {FZERO, FZERO, FNZERO, FZERO};
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_U64(alu_fsub(PT_F32, F3, F3, RNDS[i], 0), want[i]);
		CHECK_EQ_U64(alu_fadd(PT_F32, F3, 0xc0400000, RNDS[i], 0), want[i]);
		/* -0 + -0 is -0 whatever the mode */
		CHECK_EQ_U64(alu_fadd(PT_F32, FNZERO, FNZERO, RNDS[i], 0), FNZERO);
	}
}

/* (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: 2^-46 is far below half an ulp */
TEST(alu_f32_mul_rounding)
{
	const uint64_t want[4] = {0x3f800002, 0x3f800002, 0x3f800002, 0x3f800003};
	const uint64_t neg[4] = {0xbf800002, 0xbf800002, 0xbf800003, 0xbf800002};
	/* (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24, a tie above 0x3f801000 (even) */
	const uint64_t tie[4] = {0x3f801000, 0x3f801000, 0x3f801000, 0x3f801001};
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_U64(alu_fmul(PT_F32, 0x3f800001, 0x3f800001, RNDS[i], 0), want[i]);
		CHECK_EQ_U64(alu_fmul(PT_F32, 0xbf800001, 0x3f800001, RNDS[i], 0), neg[i]);
		CHECK_EQ_U64(alu_fmul(PT_F32, 0x3f800800, 0x3f800800, RNDS[i], 0), tie[i]);
	}
	/* overflow: 2^127 * 4 = 2^129; .rz and .rm (positive) stay at FLT_MAX */
	const uint64_t ovf[4] = {FINF, FMAX, FMAX, FINF};
	for (int i = 0; i < 4; i++)
		CHECK_EQ_U64(alu_fmul(PT_F32, 0x7f000000, 0x40800000, RNDS[i], 0), ovf[i]);
}

/* fma rounds once: fma(1+2^-12, 1+2^-12, -(1+2^-11)) = 2^-24 exactly,
 * where mul-then-add would give 0 (the product rounds to 1 + 2^-11). */
TEST(alu_f32_fma_single_rounding)
{
	CHECK_EQ_U64(alu_ffma(PT_F32, 0x3f800800, 0x3f800800, 0xbf801000, RND_RN, 0),
	             0x33800000);
	/* fma(1+2^-23, 1+2^-23, -1) = 2^-22 + 2^-46 = 2^-22 (1 + 2^-24): a tie
	 * above 2^-22 = 0x34800000 */
	const uint64_t want[4] = {0x34800000, 0x34800000, 0x34800000, 0x34800001};
	for (int i = 0; i < 4; i++)
		CHECK_EQ_U64(alu_ffma(PT_F32, 0x3f800001, 0x3f800001, FM1, RNDS[i], 0), want[i]);
	/* 2 * 3 + 1 = 7 exactly in every mode */
	for (int i = 0; i < 4; i++)
		CHECK_EQ_U64(alu_ffma(PT_F32, F2, F3, F1, RNDS[i], 0), 0x40e00000);
}

/* 1/3 = 1.0101...b * 2^-2; the 23 kept fraction bits are 0x2aaaaa and
 * the rest is 2/3 ulp: nearest and up give 0x3eaaaaab, zero and down
 * 0x3eaaaaaa.  rcp is the same division with a = 1. */
TEST(alu_f32_div_rcp_one_third)
{
	const uint64_t want[4] = {0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaaa, 0x3eaaaaab};
	const uint64_t neg[4] = {0xbeaaaaab, 0xbeaaaaaa, 0xbeaaaaab, 0xbeaaaaaa};
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_U64(alu_fdiv(PT_F32, F1, F3, RNDS[i], 0), want[i]);
		CHECK_EQ_U64(alu_fdiv(PT_F32, FM1, F3, RNDS[i], 0), neg[i]);
		CHECK_EQ_U64(alu_frcp(PT_F32, F3, RNDS[i], 0), want[i]);
		CHECK_EQ_U64(alu_frcp(PT_F32, 0xc0400000, RNDS[i], 0), neg[i]);
	}
	/* 2/3 has the same fraction one binade up */
	CHECK_EQ_U64(alu_fdiv(PT_F32, F2, F3, RND_RN, 0), 0x3f2aaaab);
	/* exact divisions and the IEEE specials */
	CHECK_EQ_U64(alu_fdiv(PT_F32, F3, F2, RND_RZ, 0), 0x3fc00000);     /* 1.5 */
	CHECK_EQ_U64(alu_fdiv(PT_F32, F1, FZERO, RND_RN, 0), FINF);
	CHECK_EQ_U64(alu_fdiv(PT_F32, FM1, FZERO, RND_RZ, 0), FNINF);
	CHECK_EQ_U64(alu_fdiv(PT_F32, F1, FINF, RND_RP, 0), FZERO);
	CHECK_EQ_U64(alu_frcp(PT_F32, FNZERO, RND_RN, 0), FNINF);
}

/* sqrt(2) = 1.41421356237...; 0x3fb504f3 = 1.41421353816986 is below it
 * by 2.4e-8 and 0x3fb504f4 = 1.41421365737915 above by 9.5e-8 */
TEST(alu_f32_sqrt_two)
{
	const uint64_t want[4] = {0x3fb504f3, 0x3fb504f3, 0x3fb504f3, 0x3fb504f4};
	for (int i = 0; i < 4; i++)
		CHECK_EQ_U64(alu_fsqrt(PT_F32, F2, RNDS[i], 0), want[i]);
	CHECK_EQ_U64(alu_fsqrt(PT_F32, 0x40800000, RND_RN, 0), F2);        /* sqrt 4 */
	CHECK_EQ_U64(alu_fsqrt(PT_F32, FNZERO, RND_RN, 0), FNZERO);         /* -0 */
	CHECK_EQ_U64(alu_fsqrt(PT_F32, FNZERO, RND_RP, 0), FNZERO);
	CHECK_EQ_U64(alu_fsqrt(PT_F32, FM1, RND_RN, 0), FNAN);
	CHECK_EQ_U64(alu_fsqrt(PT_F32, FM1, RND_RZ, 0), FNAN);
	CHECK_EQ_U64(alu_fsqrt(PT_F32, FINF, RND_RM, 0), FINF);
}

/* ---- f64 rounding modes (the directed ones use the host FPU) ---------- */

/* 1 + 2^-53 is the f64 tie above 1.0; 2^-53 = 0x3ca0000000000000 */
TEST(alu_f64_add_tie_and_three_quarters)
{
	const uint64_t tie[4] = {D1, D1, D1, 0x3ff0000000000001};
	/* 1 + 3*2^-54 = 1 + 0.75 ulp; 3*2^-54 = 0x3ca8000000000000 */
	const uint64_t tq[4] = {0x3ff0000000000001, D1, D1, 0x3ff0000000000001};
	const uint64_t tqn[4] = {0xbff0000000000001, 0xbff0000000000000,
	                         0xbff0000000000001, 0xbff0000000000000};
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_U64(alu_fadd(PT_F64, D1, 0x3ca0000000000000, RNDS[i], 0), tie[i]);
		CHECK_EQ_U64(alu_fadd(PT_F64, D1, 0x3ca8000000000000, RNDS[i], 0), tq[i]);
		CHECK_EQ_U64(alu_fsub(PT_F64, 0xbff0000000000000, 0x3ca8000000000000,
		                      RNDS[i], 0), tqn[i]);
	}
	/* x - x: -0 only under .rm */
	CHECK_EQ_U64(alu_fsub(PT_F64, D3, D3, RND_RM, 0), 0x8000000000000000ull);
	CHECK_EQ_U64(alu_fsub(PT_F64, D3, D3, RND_RP, 0), 0);
	/* RND_NONE is .rn */
	CHECK_EQ_U64(alu_fadd(PT_F64, D1, 0x3ca0000000000000, RND_NONE, 0), D1);
}

/* (1 + 2^-52)^2 = 1 + 2^-51 + 2^-104; fma(that, that, -1) = 2^-51 (1 +
 * 2^-53), a tie above 2^-51 = 0x3cc0000000000000 */
TEST(alu_f64_mul_fma_rounding)
{
	const uint64_t mul[4] = {0x3ff0000000000002, 0x3ff0000000000002,
	                         0x3ff0000000000002, 0x3ff0000000000003};
	const uint64_t fma[4] = {0x3cc0000000000000, 0x3cc0000000000000,
	                         0x3cc0000000000000, 0x3cc0000000000001};
	const uint64_t e = 0x3ff0000000000001;
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_U64(alu_fmul(PT_F64, e, e, RNDS[i], 0), mul[i]);
		CHECK_EQ_U64(alu_ffma(PT_F64, e, e, 0xbff0000000000000, RNDS[i], 0), fma[i]);
	}
	/* overflow: DBL_MAX * 2; .rz keeps DBL_MAX = 0x7fefffffffffffff */
	CHECK_EQ_U64(alu_fmul(PT_F64, 0x7fefffffffffffff, D2, RND_RZ, 0), 0x7fefffffffffffff);
	CHECK_EQ_U64(alu_fmul(PT_F64, 0x7fefffffffffffff, D2, RND_RN, 0), DINF);
	CHECK_EQ_U64(alu_fmul(PT_F64, 0xffefffffffffffff, D2, RND_RP, 0), 0xffefffffffffffff);
}

/* 1/3 in f64: 52 kept bits 0x5555555555555, remainder 1/3 ulp: nearest
 * rounds down, only .rp goes up */
TEST(alu_f64_div_rcp_one_third)
{
	const uint64_t want[4] = {0x3fd5555555555555, 0x3fd5555555555555,
	                          0x3fd5555555555555, 0x3fd5555555555556};
	const uint64_t neg[4] = {0xbfd5555555555555, 0xbfd5555555555555,
	                         0xbfd5555555555556, 0xbfd5555555555555};
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_U64(alu_fdiv(PT_F64, D1, D3, RNDS[i], 0), want[i]);
		CHECK_EQ_U64(alu_fdiv(PT_F64, 0xbff0000000000000, D3, RNDS[i], 0), neg[i]);
		CHECK_EQ_U64(alu_frcp(PT_F64, D3, RNDS[i], 0), want[i]);
	}
	CHECK_EQ_U64(alu_fdiv(PT_F64, D2, D3, RND_RN, 0), 0x3fe5555555555555);  /* 2/3 */
}

/* sqrt(2) = 1.41421356237309504880; 0x3ff6a09e667f3bcd =
 * 1.41421356237309514547 lies above it, 0x...bcc below */
TEST(alu_f64_sqrt_two)
{
	const uint64_t want[4] = {0x3ff6a09e667f3bcd, 0x3ff6a09e667f3bcc,
	                          0x3ff6a09e667f3bcc, 0x3ff6a09e667f3bcd};
	for (int i = 0; i < 4; i++)
		CHECK_EQ_U64(alu_fsqrt(PT_F64, D2, RNDS[i], 0), want[i]);
	CHECK_EQ_U64(alu_fsqrt(PT_F64, 0x8000000000000000ull, RND_RZ, 0), 0x8000000000000000ull);
}

/* the host's rounding mode is restored after a directed f64 operation:
 * a following .rn f32 and f64 operation still round to nearest */
TEST(alu_f64_directed_restores_host_mode)
{
	CHECK_EQ_U64(alu_fadd(PT_F64, D1, 0x3ca8000000000000, RND_RZ, 0), D1);
	CHECK_EQ_U64(alu_fadd(PT_F64, D1, 0x3ca8000000000000, RND_RN, 0), 0x3ff0000000000001);
	CHECK_EQ_U64(alu_fadd(PT_F64, D1, 0x3ca8000000000000, RND_RM, 0), D1);
	CHECK_EQ_U64(alu_fadd(PT_F32, F1, 0x33c00000, RND_RN, 0), 0x3f800001);
	CHECK_EQ_U64(alu_fadd(PT_F64, D1, 0x3ca8000000000000, RND_RP, 0), 0x3ff0000000000001);
	CHECK_EQ_U64(alu_fadd(PT_F32, F1, 0x33c00000, RND_RN, 0), 0x3f800001);
}

/* ---- .ftz, .sat, NaNs ---------------------------------------------------- */

/* .ftz flushes subnormal inputs (to the zero of their sign) before the
 * operation and subnormal results after it */
TEST(alu_f32_ftz_inputs_and_results)
{
	/* 2^-149 + 0: kept without .ftz, +0 with it */
	CHECK_EQ_U64(alu_fadd(PT_F32, FSUB1, FZERO, RND_RN, 0), FSUB1);
	CHECK_EQ_U64(alu_fadd(PT_F32, FSUB1, FZERO, RND_RN, MOD_FTZ), FZERO);
	/* -2^-149 + -0: the flushed input keeps its sign, -0 + -0 = -0 */
	CHECK_EQ_U64(alu_fadd(PT_F32, 0x80000001, FNZERO, RND_RN, MOD_FTZ), FNZERO);
	/* 2^-149 * 2^24 = 2^-125 = 0x01000000 (normal); flushed input: 0 */
	CHECK_EQ_U64(alu_fmul(PT_F32, FSUB1, 0x4b800000, RND_RN, 0), 0x01000000);
	CHECK_EQ_U64(alu_fmul(PT_F32, FSUB1, 0x4b800000, RND_RN, MOD_FTZ), FZERO);
	CHECK_EQ_U64(alu_ffma(PT_F32, FSUB1, 0x4b800000, FZERO, RND_RZ, MOD_FTZ), FZERO);
	/* 2^-100 * 2^-30 = 2^-130 = 2^19 * 2^-149 = 0x00080000 (subnormal) */
	CHECK_EQ_U64(alu_fmul(PT_F32, 0x0d800000, 0x30800000, RND_RN, 0), 0x00080000);
	CHECK_EQ_U64(alu_fmul(PT_F32, 0x0d800000, 0x30800000, RND_RN, MOD_FTZ), FZERO);
	CHECK_EQ_U64(alu_fmul(PT_F32, 0x8d800000, 0x30800000, RND_RN, MOD_FTZ), FNZERO);
	CHECK_EQ_U64(alu_fmul(PT_F32, 0x8d800000, 0x30800000, RND_RP, MOD_FTZ), FNZERO);
	/* 2^-149 / 2^-23 = 2^-126 = 0x00800000; with .ftz 0 / 2^-23 = 0 */
	CHECK_EQ_U64(alu_fdiv(PT_F32, FSUB1, 0x34000000, RND_RN, 0), 0x00800000);
	CHECK_EQ_U64(alu_fdiv(PT_F32, FSUB1, 0x34000000, RND_RN, MOD_FTZ), FZERO);
	/* 1 / (-2^-149) with .ftz: 1 / -0 = -inf */
	CHECK_EQ_U64(alu_frcp(PT_F32, 0x80000001, RND_RN, MOD_FTZ), FNINF);
	/* sqrt(2^-148) = 2^-74 = 0x1a800000; flushed: sqrt(+0) = +0 */
	CHECK_EQ_U64(alu_fsqrt(PT_F32, 0x00000002, RND_RN, 0), 0x1a800000);
	CHECK_EQ_U64(alu_fsqrt(PT_F32, 0x00000002, RND_RN, MOD_FTZ), FZERO);
	/* a directed-mode result that is subnormal: 2^-100 * 2^-30 * (1+2^-23)
	 * rounds up to 0x00080001 under .rp, then .ftz flushes it */
	CHECK_EQ_U64(alu_fmul(PT_F32, 0x0d800001, 0x30800000, RND_RP, 0), 0x00080001);
	CHECK_EQ_U64(alu_fmul(PT_F32, 0x0d800001, 0x30800000, RND_RP, MOD_FTZ), FZERO);
	/* f16 .ftz: 0x0001 = 2^-24 is an f16 subnormal */
	CHECK_EQ_U64(alu_fadd(PT_F16, 0x0001, 0x0000, RND_RN, 0), 0x0001);
	CHECK_EQ_U64(alu_fadd(PT_F16, 0x0001, 0x0000, RND_RN, MOD_FTZ), 0x0000);
	CHECK_EQ_U64(alu_fmul(PT_F16, 0x8001, 0x3c00, RND_RN, MOD_FTZ), 0x8000);
	/* f64 has no .ftz: the bit is ignored, subnormal 2^-1074 survives */
	CHECK_EQ_U64(alu_fadd(PT_F64, 1, 0, RND_RN, MOD_FTZ), 1);
}

TEST(alu_fflush_for_setp_ftz)
{
	CHECK_EQ_U64(alu_fflush(PT_F32, FSUB1), FZERO);
	CHECK_EQ_U64(alu_fflush(PT_F32, 0x807fffff), FNZERO);     /* largest -subnormal */
	CHECK_EQ_U64(alu_fflush(PT_F32, 0x00800000), 0x00800000); /* smallest normal */
	CHECK_EQ_U64(alu_fflush(PT_F32, FQNAN), FQNAN);
	CHECK_EQ_U64(alu_fflush(PT_F16, 0x83ff), 0x8000);
	CHECK_EQ_U64(alu_fflush(PT_F16, 0x0400), 0x0400);
	CHECK_EQ_U64(alu_fflush(PT_F64, 0x000fffffffffffffull), 0);
	CHECK_EQ_U64(alu_fflush(PT_F16X2, 0x00013c00), 0x00003c00);
}

/* .sat clamps to [+0.0, 1.0]; NaN and every value <= 0 give +0.0 */
TEST(alu_f32_sat_clamp_and_nan_to_zero)
{
	/* 0.75 + 0.75 = 1.5 -> 1.0 */
	CHECK_EQ_U64(alu_fadd(PT_F32, 0x3f400000, 0x3f400000, RND_RN, MOD_SAT), F1);
	/* -0.5 + 0.25 = -0.25 -> +0 */
	CHECK_EQ_U64(alu_fadd(PT_F32, 0xbf000000, 0x3e800000, RND_RN, MOD_SAT), FZERO);
	/* -0 + -0 = -0 -> +0 */
	CHECK_EQ_U64(alu_fadd(PT_F32, FNZERO, FNZERO, RND_RN, MOD_SAT), FZERO);
	/* in range: 0.25 + 0.25 = 0.5 unchanged */
	CHECK_EQ_U64(alu_fadd(PT_F32, 0x3e800000, 0x3e800000, RND_RN, MOD_SAT), FHALF);
	/* NaN operand, and NaN made from numbers (inf - inf), both -> +0 */
	CHECK_EQ_U64(alu_fadd(PT_F32, FQNAN, F1, RND_RN, MOD_SAT), FZERO);
	CHECK_EQ_U64(alu_fsub(PT_F32, FINF, FINF, RND_RN, MOD_SAT), FZERO);
	CHECK_EQ_U64(alu_fmul(PT_F32, FZERO, FINF, RND_RZ, MOD_SAT), FZERO);
	/* +inf -> 1.0, -inf -> +0 */
	CHECK_EQ_U64(alu_fmul(PT_F32, FINF, F2, RND_RN, MOD_SAT), F1);
	CHECK_EQ_U64(alu_fmul(PT_F32, FNINF, F2, RND_RN, MOD_SAT), FZERO);
	/* fma.sat: 2 * 0.25 + 0.25 = 0.75 kept; 2 * 2 + 0 = 4 -> 1 */
	CHECK_EQ_U64(alu_ffma(PT_F32, F2, 0x3e800000, 0x3e800000, RND_RN, MOD_SAT), 0x3f400000);
	CHECK_EQ_U64(alu_ffma(PT_F32, F2, F2, FZERO, RND_RN, MOD_SAT), F1);
	/* f16 .sat: 1 + 1 -> 1.0 = 0x3c00, NaN -> 0 */
	CHECK_EQ_U64(alu_fadd(PT_F16, 0x3c00, 0x3c00, RND_RN, MOD_SAT), 0x3c00);
	CHECK_EQ_U64(alu_fadd(PT_F16, 0x7e00, 0x3c00, RND_RN, MOD_SAT), 0x0000);
	/* f64 .sat on the rare f64 paths that carry it */
	CHECK_EQ_U64(alu_fadd(PT_F64, D1, D1, RND_RN, MOD_SAT), D1);
}

/* every f32 NaN result is 0x7fffffff, whatever the operand NaN */
TEST(alu_f32_canonical_nan)
{
	CHECK_EQ_U64(alu_fadd(PT_F32, 0x7fc12345, F1, RND_RN, 0), FNAN);   /* payload */
	CHECK_EQ_U64(alu_fadd(PT_F32, F1, 0xffc00000, RND_RN, 0), FNAN);   /* -NaN */
	CHECK_EQ_U64(alu_fadd(PT_F32, 0x7f800001, F1, RND_RN, 0), FNAN);   /* sNaN */
	CHECK_EQ_U64(alu_fsub(PT_F32, FINF, FINF, RND_RN, 0), FNAN);
	CHECK_EQ_U64(alu_fadd(PT_F32, FINF, FNINF, RND_RZ, 0), FNAN);
	CHECK_EQ_U64(alu_fmul(PT_F32, FZERO, FNINF, RND_RN, 0), FNAN);
	CHECK_EQ_U64(alu_fmul(PT_F32, FZERO, FINF, RND_RP, 0), FNAN);
	CHECK_EQ_U64(alu_fdiv(PT_F32, FZERO, FZERO, RND_RN, 0), FNAN);
	CHECK_EQ_U64(alu_fdiv(PT_F32, FINF, FINF, RND_RM, 0), FNAN);
	CHECK_EQ_U64(alu_ffma(PT_F32, FZERO, FINF, F1, RND_RN, 0), FNAN);
	CHECK_EQ_U64(alu_ffma(PT_F32, F1, F1, 0xff800001, RND_RZ, 0), FNAN);
	CHECK_EQ_U64(alu_fsqrt(PT_F32, FNINF, RND_RN, 0), FNAN);
	/* half precision: 0x7fff for f16 and bf16 */
	CHECK_EQ_U64(alu_fadd(PT_F16, 0x7c01, 0x3c00, RND_RN, 0), 0x7fff);
	CHECK_EQ_U64(alu_fsub(PT_F16, 0x7c00, 0x7c00, RND_RN, 0), 0x7fff);
	CHECK_EQ_U64(alu_fadd(PT_BF16, 0xffc1, 0x3f80, RND_RN, 0), 0x7fff);
	CHECK_EQ_U64(alu_fmul(PT_BF16, 0x0000, 0x7f80, RND_RN, 0), 0x7fff);
	/* packed: only the NaN lane is canonicalised; {1+1, NaN+1} */
	CHECK_EQ_U64(alu_fadd(PT_F16X2, 0x7e013c00, 0x3c003c00, RND_RN, 0), 0x7fff4000);
}

/* f64 keeps NaN payloads (quietened, first NaN operand); an invalid
 * operation on numbers gives 0xfff8000000000000 */
TEST(alu_f64_nan_payload_and_default)
{
	CHECK_EQ_U64(alu_fadd(PT_F64, 0x7ff0000000000001, D1, RND_RN, 0), 0x7ff8000000000001);
	CHECK_EQ_U64(alu_fadd(PT_F64, D1, 0xfff4000000000000, RND_RN, 0), 0xfffc000000000000);
	CHECK_EQ_U64(alu_fmul(PT_F64, 0x7ff8000000000abc, 0x7ff8000000000def, RND_RZ, 0),
	             0x7ff8000000000abc);
	CHECK_EQ_U64(alu_ffma(PT_F64, D1, D1, 0x7ff0000000000002, RND_RN, 0), 0x7ff8000000000002);
	CHECK_EQ_U64(alu_fsub(PT_F64, DINF, DINF, RND_RN, 0), 0xfff8000000000000);
	CHECK_EQ_U64(alu_fmul(PT_F64, 0, DNINF, RND_RM, 0), 0xfff8000000000000);
	CHECK_EQ_U64(alu_fsqrt(PT_F64, 0xbff0000000000000, RND_RN, 0), 0xfff8000000000000);
	CHECK_EQ_U64(alu_fdiv(PT_F64, 0, 0, RND_RP, 0), 0xfff8000000000000);
}

/* ---- half precision arithmetic ------------------------------------------- */

/* f16: 1.0 = 0x3c00, ulp(1) = 2^-10, 2^-11 = 0x1000 */
TEST(alu_f16_add_mul_rounding)
{
	/* 1 + 2^-11: tie, even 1.0; .rz 1.0; .rp 0x3c01 */
	CHECK_EQ_U64(alu_fadd(PT_F16, 0x3c00, 0x1000, RND_RN, 0), 0x3c00);
	CHECK_EQ_U64(alu_fadd(PT_F16, 0x3c00, 0x1000, RND_RP, 0), 0x3c01);
	CHECK_EQ_U64(alu_fadd(PT_F16, 0x3c00, 0x1000, RND_RZ, 0), 0x3c00);
	/* (1 + 2^-10) + 2^-11: tie between 0x3c01 (odd) and 0x3c02 */
	CHECK_EQ_U64(alu_fadd(PT_F16, 0x3c01, 0x1000, RND_RN, 0), 0x3c02);
	/* (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 -> 0x3c02 */
	CHECK_EQ_U64(alu_fmul(PT_F16, 0x3c01, 0x3c01, RND_RN, 0), 0x3c02);
	CHECK_EQ_U64(alu_fmul(PT_F16, 0x3c01, 0x3c01, RND_RP, 0), 0x3c03);
	/* 65504 + 65504 overflows to inf under .rn, 0x7bff under .rz */
	CHECK_EQ_U64(alu_fadd(PT_F16, 0x7bff, 0x7bff, RND_RN, 0), 0x7c00);
	CHECK_EQ_U64(alu_fadd(PT_F16, 0x7bff, 0x7bff, RND_RZ, 0), 0x7bff);
	/* subnormal result kept without .ftz: 2^-14 * 2^-5 = 2^-19 = 0x0020 */
	CHECK_EQ_U64(alu_fmul(PT_F16, 0x0400, 0x2800, RND_RN, 0), 0x0020);
	/* packed lanes are independent: {1 + 2^-11, (1 + 2^-10) + 2^-11} */
	CHECK_EQ_U64(alu_fadd(PT_F16X2, 0x3c013c00, 0x10001000, RND_RN, 0), 0x3c023c00);
	/* fma.rn.f16: 1.5 * (683/1024) = 1 + 2^-11 (the tie) + 2^-24 -> up */
	CHECK_EQ_U64(alu_ffma(PT_F16, 0x3e00, 0x3956, 0x0001, RND_RN, 0), 0x3c01);
	CHECK_EQ_U64(alu_ffma(PT_F16, 0x3e00, 0x3956, 0x0000, RND_RN, 0), 0x3c00);
	CHECK_EQ_U64(alu_ffma(PT_F16, 0x3e00, 0x3956, 0x8001, RND_RN, 0), 0x3c00);
}

/* bf16: 1.0 = 0x3f80, ulp(1) = 2^-7 */
TEST(alu_bf16_arith_rounding)
{
	/* 1 + 2^-8 (0x3b80): tie, even 1.0 */
	CHECK_EQ_U64(alu_fadd(PT_BF16, 0x3f80, 0x3b80, RND_RN, 0), 0x3f80);
	CHECK_EQ_U64(alu_fadd(PT_BF16, 0x3f80, 0x3b80, RND_RP, 0), 0x3f81);
	CHECK_EQ_U64(alu_fmul(PT_BF16, 0x4000, 0x4040, RND_RN, 0), 0x40c0);    /* 2*3 = 6 */
	/* fma rounds once even across a 2^-100 addend: 1.125 * 0.90625 =
	 * 261/256 = 1 + 5*2^-8, the tie between 0x3f82 (even) and 0x3f83.
	 * + 2^-100 (0x0d80) must round up; a double fma then a second
	 * rounding would see the exact tie and stay at 0x3f82. */
	CHECK_EQ_U64(alu_ffma(PT_BF16, 0x3f90, 0x3f68, 0x0000, RND_RN, 0), 0x3f82);
	CHECK_EQ_U64(alu_ffma(PT_BF16, 0x3f90, 0x3f68, 0x0d80, RND_RN, 0), 0x3f83);
	CHECK_EQ_U64(alu_ffma(PT_BF16, 0x3f90, 0x3f68, 0x8d80, RND_RN, 0), 0x3f82);
	CHECK_EQ_U64(alu_ffma(PT_BF16, 0x3f90, 0x3f68, 0x0d80, RND_RZ, 0), 0x3f82);
	CHECK_EQ_U64(alu_ffma(PT_BF16, 0x3f90, 0x3f68, 0x8d80, RND_RP, 0), 0x3f83);
	CHECK_EQ_U64(alu_ffma(PT_BF16X2, 0x3f903f90, 0x3f683f68, 0x8d800d80, RND_RN, 0),
	             0x3f823f83);
}

/* fma.relu: negative -> +0, NaN -> canonical NaN, positive unchanged */
TEST(alu_half_fma_relu)
{
	CHECK_EQ_U64(alu_ffma(PT_F16, 0xbc00, 0x3c00, 0x0000, RND_RN, MOD_RELU), 0x0000);
	CHECK_EQ_U64(alu_ffma(PT_F16, 0x3c00, 0x3c00, 0x3c00, RND_RN, MOD_RELU), 0x4000);
	CHECK_EQ_U64(alu_ffma(PT_F16, 0x7c00, 0x0000, 0x3c00, RND_RN, MOD_RELU), 0x7fff);
	CHECK_EQ_U64(alu_ffma(PT_BF16, 0xbf80, 0x3f80, 0x8000, RND_RN, MOD_RELU), 0x0000);
	CHECK_EQ_U64(alu_ffma(PT_F16X2, 0x3c00bc00, 0x3c003c00, 0, RND_RN, MOD_RELU),
	             0x3c000000);
}

/* abs/neg of halves touch only the sign bit (NaN payloads survive) */
TEST(alu_half_abs_neg_sign_only)
{
	CHECK_EQ_U64(alu_fabs(PT_F16, 0xbc00, 0), 0x3c00);
	CHECK_EQ_U64(alu_fneg(PT_F16, 0x3c00, 0), 0xbc00);
	CHECK_EQ_U64(alu_fneg(PT_F16, 0x7e01, 0), 0xfe01);
	CHECK_EQ_U64(alu_fabs(PT_BF16, 0xffc1, 0), 0x7fc1);
	CHECK_EQ_U64(alu_fneg(PT_F16X2, 0x80003c00, 0), 0x0000bc00);
	CHECK_EQ_U64(alu_fabs(PT_F16, 0x8001, MOD_FTZ), 0x0000);
}

/* ---- min, max, abs, neg, copysign, testp --------------------------------- */

/* a NaN loses to a number; two NaNs, or any NaN under .NaN, give the
 * canonical NaN; -0.0 < +0.0 */
TEST(alu_fminmax_nan_and_signed_zero)
{
	CHECK_EQ_U64(alu_fmin(PT_F32, FQNAN, F1, 0), F1);
	CHECK_EQ_U64(alu_fmin(PT_F32, F1, FQNAN, 0), F1);
	CHECK_EQ_U64(alu_fmax(PT_F32, FQNAN, FM1, 0), FM1);
	CHECK_EQ_U64(alu_fmin(PT_F32, FQNAN, 0xffc00001, 0), FNAN);
	CHECK_EQ_U64(alu_fmax(PT_F32, 0x7f800001, FQNAN, 0), FNAN);
	CHECK_EQ_U64(alu_fmin(PT_F32, FQNAN, F1, MOD_NAN), FNAN);
	CHECK_EQ_U64(alu_fmax(PT_F32, F1, FQNAN, MOD_NAN), FNAN);
	CHECK_EQ_U64(alu_fmin(PT_F32, F1, F2, MOD_NAN), F1);
	CHECK_EQ_U64(alu_fmin(PT_F32, FNZERO, FZERO, 0), FNZERO);
	CHECK_EQ_U64(alu_fmin(PT_F32, FZERO, FNZERO, 0), FNZERO);
	CHECK_EQ_U64(alu_fmax(PT_F32, FNZERO, FZERO, 0), FZERO);
	CHECK_EQ_U64(alu_fmax(PT_F32, FZERO, FNZERO, 0), FZERO);
	CHECK_EQ_U64(alu_fmin(PT_F32, FM1, F2, 0), FM1);
	CHECK_EQ_U64(alu_fmax(PT_F32, FNINF, F3, 0), F3);
	CHECK_EQ_U64(alu_fmin(PT_F32, FNINF, F3, 0), FNINF);
	/* .ftz flushes before comparing: -2^-149 vs 2^-149 become -0 vs +0 */
	CHECK_EQ_U64(alu_fmin(PT_F32, 0x80000001, FSUB1, 0), 0x80000001);
	CHECK_EQ_U64(alu_fmin(PT_F32, 0x80000001, FSUB1, MOD_FTZ), FNZERO);
	/* f64: numbers as IEEE; two NaNs give a NaN */
	CHECK_EQ_U64(alu_fmin(PT_F64, 0x7ff8000000000000, D1, 0), D1);
	CHECK_EQ_U64(alu_fmax(PT_F64, D1, D2, 0), D2);
	CHECK_EQ_U64(alu_fmin(PT_F64, 0, 0x8000000000000000ull, 0), 0x8000000000000000ull);
	CHECK(is_nan64(alu_fmax(PT_F64, 0x7ff8000000000001, 0xfff8000000000000, 0)));
	/* f16 / bf16 / packed */
	CHECK_EQ_U64(alu_fmin(PT_F16, 0x7e00, 0x3c00, 0), 0x3c00);
	CHECK_EQ_U64(alu_fmin(PT_F16, 0x7e00, 0x7c01, 0), 0x7fff);
	CHECK_EQ_U64(alu_fmax(PT_F16, 0x7e00, 0x3c00, MOD_NAN), 0x7fff);
	CHECK_EQ_U64(alu_fmax(PT_BF16, 0xbf80, 0x3f80, 0), 0x3f80);
	/* {min(1, 2), min(NaN, -1)} */
	CHECK_EQ_U64(alu_fmin(PT_F16X2, 0x7e003c00, 0xbc004000, 0), 0xbc003c00);
}

/* .xorsign.abs: |min|/|max| of the magnitudes, sign = sign(a) ^ sign(b);
 * a NaN result ignores both modifiers */
TEST(alu_fminmax_xorsign_abs)
{
	const uint32_t xa = MOD_XORSIGN | MOD_ABS;
	CHECK_EQ_U64(alu_fmin(PT_F32, 0xc0000000, F3, xa), 0xc0000000);  /* -2, 3 -> -2 */
	CHECK_EQ_U64(alu_fmax(PT_F32, 0xc0000000, 0xc0400000, xa), F3); /* -2,-3 -> +3 */
	CHECK_EQ_U64(alu_fmin(PT_F32, F2, F3, xa), F2);
	CHECK_EQ_U64(alu_fmin(PT_F32, FQNAN, FQNAN, xa), FNAN);
	CHECK_EQ_U64(alu_fmin(PT_F32, 0xffc00000, F2, xa | MOD_NAN), FNAN);
	CHECK_EQ_U64(alu_fmin(PT_F16, 0xc000, 0x4200, xa), 0xc000);     /* -2, 3 -> -2 */
	CHECK_EQ_U64(alu_fmax(PT_BF16, 0xc000, 0xc040, xa), 0x4040);    /* -2,-3 -> +3 */
	/* .abs alone (the three-input form): min(|-3|, |2|) = 2 */
	CHECK_EQ_U64(alu_fmin(PT_F32, 0xc0400000, F2, MOD_ABS), F2);
	CHECK_EQ_U64(alu_fmax(PT_F32, 0xc0400000, F2, MOD_ABS), F3);
}

TEST(alu_fabs_fneg_copysign)
{
	CHECK_EQ_U64(alu_fabs(PT_F32, FM1, 0), F1);
	CHECK_EQ_U64(alu_fneg(PT_F32, FZERO, 0), FNZERO);
	CHECK_EQ_U64(alu_fneg(PT_F32, FNINF, 0), FINF);
	CHECK_EQ_U64(alu_fabs(PT_F32, 0x80000001, 0), FSUB1);
	CHECK_EQ_U64(alu_fabs(PT_F32, 0x80000001, MOD_FTZ), FZERO);
	CHECK_EQ_U64(alu_fneg(PT_F32, FSUB1, MOD_FTZ), FNZERO);
	CHECK_EQ_U64(alu_fabs(PT_F32, 0xffc00001, 0), FNAN);   /* documented: canonical */
	CHECK_EQ_U64(alu_fabs(PT_F64, 0x8000000000000000ull, 0), 0);
	CHECK_EQ_U64(alu_fneg(PT_F64, D1, 0), 0xbff0000000000000);
	CHECK_EQ_U64(alu_fneg(PT_F64, 0x7ff8000000000001, 0), 0x7ff8000000000001);
	/* copysign(a, b) = |b| with a's sign */
	CHECK_EQ_U64(alu_fcopysign(PT_F32, FM1, F2), 0xc0000000);
	CHECK_EQ_U64(alu_fcopysign(PT_F32, F1, 0xc0400000), F3);
	CHECK_EQ_U64(alu_fcopysign(PT_F64, 0x8000000000000000ull, D1), 0xbff0000000000000);
	CHECK_EQ_U64(alu_fcopysign(PT_F32, 0xffffffff80000000ull, FQNAN), 0xffc00000);
}

/* testp (ISA 9.7.3.1): +-0 count as normal numbers */
TEST(alu_testp_classes)
{
	CHECK_EQ(alu_testp(MODE_FINITE, PT_F32, F1), 1);
	CHECK_EQ(alu_testp(MODE_FINITE, PT_F32, FINF), 0);
	CHECK_EQ(alu_testp(MODE_FINITE, PT_F32, FQNAN), 0);
	CHECK_EQ(alu_testp(MODE_INFINITE, PT_F32, FNINF), 1);
	CHECK_EQ(alu_testp(MODE_INFINITE, PT_F32, FQNAN), 0);
	CHECK_EQ(alu_testp(MODE_NUMBER, PT_F32, FQNAN), 0);
	CHECK_EQ(alu_testp(MODE_NUMBER, PT_F32, FINF), 1);
	CHECK_EQ(alu_testp(MODE_NOTANUMBER, PT_F32, 0xff800001), 1);
	CHECK_EQ(alu_testp(MODE_NORMAL, PT_F32, FZERO), 1);
	CHECK_EQ(alu_testp(MODE_NORMAL, PT_F32, FNZERO), 1);
	CHECK_EQ(alu_testp(MODE_NORMAL, PT_F32, FSUB1), 0);
	CHECK_EQ(alu_testp(MODE_NORMAL, PT_F32, FINF), 0);
	CHECK_EQ(alu_testp(MODE_SUBNORMAL, PT_F32, 0x807fffff), 1);
	CHECK_EQ(alu_testp(MODE_SUBNORMAL, PT_F32, FZERO), 0);
	CHECK_EQ(alu_testp(MODE_SUBNORMAL, PT_F64, 1), 1);
	CHECK_EQ(alu_testp(MODE_NORMAL, PT_F64, 0x0010000000000000ull), 1);
	CHECK_EQ(alu_testp(MODE_NOTANUMBER, PT_F64, DINF), 0);
	CHECK_EQ(alu_testp(MODE_INFINITE, PT_F64, DNINF), 1);
}

/* ---- approximations: documented bounds and special values --------------- */

/* |got - exact| / |exact| for an f32 result */
static double relerr32(uint64_t got, double exact)
{
	return fabs(((double)alu_f32(got) - exact) / exact);
}

TEST(alu_approx_rcp_sqrt_rsqrt_f32)
{
	/* rcp.approx.f32: 1 ulp over the full range; 1/3 -> 0x3eaaaaab +- 1 */
	CHECK(ulps32(alu_fapprox(OP_RCP, PT_F32, F3, 0), 0x3eaaaaab) <= 1);
	CHECK(ulps32(alu_fapprox(OP_RCP, PT_F32, 0x3dcccccd, 0), 0x41200000) <= 1); /* 1/0.1 */
	CHECK_EQ_U64(alu_fapprox(OP_RCP, PT_F32, FZERO, 0), FINF);
	CHECK_EQ_U64(alu_fapprox(OP_RCP, PT_F32, FNZERO, 0), FNINF);
	CHECK_EQ_U64(alu_fapprox(OP_RCP, PT_F32, FINF, 0), FZERO);
	CHECK_EQ_U64(alu_fapprox(OP_RCP, PT_F32, FNINF, 0), FNZERO);
	CHECK(is_nan32(alu_fapprox(OP_RCP, PT_F32, FQNAN, 0)));
	CHECK_EQ_U64(alu_fapprox(OP_RCP, PT_F32, 0x80000001, MOD_FTZ), FNINF);
	/* sqrt.approx.f32: relative 2^-23; sqrt(2) = 1.4142135623730951 */
	CHECK(relerr32(alu_fapprox(OP_SQRT, PT_F32, F2, 0), 1.4142135623730951) <= 0x1p-23);
	CHECK_EQ_U64(alu_fapprox(OP_SQRT, PT_F32, FNZERO, 0), FNZERO);
	CHECK_EQ_U64(alu_fapprox(OP_SQRT, PT_F32, FINF, 0), FINF);
	CHECK(is_nan32(alu_fapprox(OP_SQRT, PT_F32, FM1, 0)));
	CHECK(is_nan32(alu_fapprox(OP_SQRT, PT_F32, FNINF, 0)));
	/* rsqrt.approx.f32: relative 2^-22.9; 1/sqrt(2) = 0.7071067811865476 */
	CHECK(relerr32(alu_fapprox(OP_RSQRT, PT_F32, F2, 0), 0.7071067811865476) <= 0x1p-22);
	CHECK(relerr32(alu_fapprox(OP_RSQRT, PT_F32, 0x40800000, 0), 0.5) <= 0x1p-22);
	CHECK_EQ_U64(alu_fapprox(OP_RSQRT, PT_F32, FZERO, 0), FINF);
	CHECK_EQ_U64(alu_fapprox(OP_RSQRT, PT_F32, FNZERO, 0), FNINF);
	CHECK_EQ_U64(alu_fapprox(OP_RSQRT, PT_F32, FINF, 0), FZERO);
	CHECK(is_nan32(alu_fapprox(OP_RSQRT, PT_F32, FM1, 0)));
	CHECK(is_nan32(alu_fapprox(OP_RSQRT, PT_F32, FNINF, 0)));
	/* .ftz: -2^-149 -> -0 -> -inf */
	CHECK_EQ_U64(alu_fapprox(OP_RSQRT, PT_F32, 0x80000001, MOD_FTZ), FNINF);
}

TEST(alu_approx_ex2_lg2_f32)
{
	/* ex2.approx.f32: 2 ulp from the correctly rounded result.
	 * 2^0.5 rounds to 0x3fb504f3; 2^10 = 1024 = 0x44800000 exactly;
	 * 2^-1.5 = 0.35355339 rounds to 0x3eb504f3 */
	CHECK(ulps32(alu_fapprox(OP_EX2, PT_F32, FHALF, 0), 0x3fb504f3) <= 2);
	CHECK(ulps32(alu_fapprox(OP_EX2, PT_F32, 0x41200000, 0), 0x44800000) <= 2);
	CHECK(ulps32(alu_fapprox(OP_EX2, PT_F32, 0xbfc00000, 0), 0x3eb504f3) <= 2);
	CHECK_EQ_U64(alu_fapprox(OP_EX2, PT_F32, FNINF, 0), FZERO);
	CHECK_EQ_U64(alu_fapprox(OP_EX2, PT_F32, FINF, 0), FINF);
	CHECK_EQ_U64(alu_fapprox(OP_EX2, PT_F32, FZERO, 0), F1);
	CHECK_EQ_U64(alu_fapprox(OP_EX2, PT_F32, FNZERO, 0), F1);
	CHECK(is_nan32(alu_fapprox(OP_EX2, PT_F32, FQNAN, 0)));
	/* 2^-130 is subnormal (0x00080000): kept, or flushed with .ftz */
	CHECK(ulps32(alu_fapprox(OP_EX2, PT_F32, 0xc3020000, 0), 0x00080000) <= 2);
	CHECK_EQ_U64(alu_fapprox(OP_EX2, PT_F32, 0xc3020000, MOD_FTZ), FZERO);
	/* lg2.approx.f32: absolute 2^-22 on (0.5, 2), relative 2^-22 outside */
	CHECK(fabs(alu_f32(alu_fapprox(OP_LG2, PT_F32, 0x3fc00000, 0)) -
	           0.5849625007211562) <= 0x1p-22);                       /* lg2 1.5 */
	CHECK(fabs(alu_f32(alu_fapprox(OP_LG2, PT_F32, F1, 0))) <= 0x1p-22);
	CHECK(relerr32(alu_fapprox(OP_LG2, PT_F32, 0x41000000, 0), 3.0) <= 0x1p-22);
	CHECK(relerr32(alu_fapprox(OP_LG2, PT_F32, 0x3dcccccd, 0), -3.321928094887362) <=
	      0x1p-22);                                                   /* lg2 0.1 */
	CHECK_EQ_U64(alu_fapprox(OP_LG2, PT_F32, FZERO, 0), FNINF);
	CHECK_EQ_U64(alu_fapprox(OP_LG2, PT_F32, FNZERO, 0), FNINF);
	CHECK_EQ_U64(alu_fapprox(OP_LG2, PT_F32, FINF, 0), FINF);
	CHECK(is_nan32(alu_fapprox(OP_LG2, PT_F32, FM1, 0)));
	CHECK(is_nan32(alu_fapprox(OP_LG2, PT_F32, FNINF, 0)));
	CHECK(is_nan32(alu_fapprox(OP_LG2, PT_F32, FQNAN, 0)));
	CHECK_EQ_U64(alu_fapprox(OP_LG2, PT_F32, FSUB1, MOD_FTZ), FNINF);
	/* without .ftz a subnormal is a number: lg2(2^-149) = -149 */
	CHECK(relerr32(alu_fapprox(OP_LG2, PT_F32, FSUB1, 0), -149.0) <= 0x1p-22);
}

TEST(alu_approx_sin_cos_tanh_f32)
{
	/* sin/cos: absolute 2^-20.5 on [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi] */
	CHECK(fabs(alu_f32(alu_fapprox(OP_SIN, PT_F32, F1, 0)) - 0.8414709848078965) <=
	      0x1p-20);
	CHECK(fabs(alu_f32(alu_fapprox(OP_COS, PT_F32, F1, 0)) - 0.5403023058681398) <=
	      0x1p-20);
	CHECK(fabs(alu_f32(alu_fapprox(OP_SIN, PT_F32, 0x42c80000, 0)) + 0.5063656411097588) <=
	      0x1p-14);                                                   /* sin 100 */
	CHECK(fabs(alu_f32(alu_fapprox(OP_COS, PT_F32, 0x42c80000, 0)) - 0.8623188722876839) <=
	      0x1p-14);
	CHECK_EQ_U64(alu_fapprox(OP_SIN, PT_F32, FZERO, 0), FZERO);
	CHECK_EQ_U64(alu_fapprox(OP_SIN, PT_F32, FNZERO, 0), FNZERO);
	CHECK_EQ_U64(alu_fapprox(OP_COS, PT_F32, FNZERO, 0), F1);
	CHECK(is_nan32(alu_fapprox(OP_SIN, PT_F32, FINF, 0)));
	CHECK(is_nan32(alu_fapprox(OP_SIN, PT_F32, FNINF, 0)));
	CHECK(is_nan32(alu_fapprox(OP_COS, PT_F32, FINF, 0)));
	CHECK(is_nan32(alu_fapprox(OP_COS, PT_F32, FQNAN, 0)));
	/* tanh.approx.f32: relative 2^-11; tanh 0.5 = 0.46211715726000974 */
	CHECK(relerr32(alu_fapprox(OP_TANH, PT_F32, FHALF, 0), 0.46211715726000974) <=
	      0x1p-11);
	CHECK_EQ_U64(alu_fapprox(OP_TANH, PT_F32, FINF, 0), F1);
	CHECK_EQ_U64(alu_fapprox(OP_TANH, PT_F32, FNINF, 0), FM1);
	CHECK_EQ_U64(alu_fapprox(OP_TANH, PT_F32, FNZERO, 0), FNZERO);
	CHECK(is_nan32(alu_fapprox(OP_TANH, PT_F32, FQNAN, 0)));
	CHECK_EQ_U64(alu_fapprox(OP_TANH, PT_F32, FSUB1, 0), FSUB1);  /* passes through */
}

/* ex2 / tanh on halves: f16 relative 2^-9.9, bf16 2^-7 */
TEST(alu_approx_half)
{
	CHECK_EQ_U64(alu_fapprox(OP_EX2, PT_F16, 0x3c00, 0), 0x4000);       /* 2^1 */
	CHECK_EQ_U64(alu_fapprox(OP_EX2, PT_F16, 0xfc00, 0), 0x0000);       /* 2^-inf */
	CHECK_EQ_U64(alu_fapprox(OP_EX2, PT_F16, 0x8000, 0), 0x3c00);
	CHECK_EQ_U64(alu_fapprox(OP_EX2, PT_F16, 0x7c00, 0), 0x7c00);
	CHECK_EQ_U64(alu_fapprox(OP_EX2, PT_F16, 0x7e00, 0), 0x7fff);
	/* 2^0.5: f16 0x3da8 = 1.4140625 (relative error 1.1e-4 < 2^-9.9) */
	CHECK(ulps32(alu_fapprox(OP_EX2, PT_F16, 0x3800, 0), 0x3da8) <= 1);
	CHECK_EQ_U64(alu_fapprox(OP_EX2, PT_BF16, 0x4040, MOD_FTZ), 0x4100); /* 2^3 = 8 */
	CHECK_EQ_U64(alu_fapprox(OP_EX2, PT_BF16, 0x0001, MOD_FTZ), 0x3f80); /* subnormal */
	CHECK_EQ_U64(alu_fapprox(OP_EX2, PT_F16X2, 0xfc003c00, 0), 0x00004000);
	CHECK_EQ_U64(alu_fapprox(OP_TANH, PT_F16, 0x7c00, 0), 0x3c00);
	CHECK_EQ_U64(alu_fapprox(OP_TANH, PT_BF16, 0xff80, 0), 0xbf80);
}

/* rcp/rsqrt.approx.ftz.f64 work on the upper word only: low word zero,
 * subnormals flushed, NaN -> 0x7fffffff00000000 (ISA 9.7.3.14/17) */
TEST(alu_approx_f64_hiword)
{
	CHECK_EQ_U64(alu_frcp(PT_F64, D2, RND_NONE, MOD_APPROX | MOD_FTZ), 0x3fe0000000000000);
	uint64_t r3 = alu_frcp(PT_F64, D3, RND_NONE, MOD_APPROX | MOD_FTZ);
	CHECK_EQ_U64(r3 & 0xffffffffu, 0);
	CHECK(fabs(alu_f64(r3) * 3.0 - 1.0) <= 0x1p-19);
	CHECK_EQ_U64(alu_frcp(PT_F64, 0, RND_NONE, MOD_APPROX | MOD_FTZ), DINF);
	CHECK_EQ_U64(alu_frcp(PT_F64, 0x8000000000000001ull, RND_NONE, MOD_APPROX | MOD_FTZ),
	             DNINF);
	CHECK_EQ_U64(alu_frcp(PT_F64, DNINF, RND_NONE, MOD_APPROX | MOD_FTZ),
	             0x8000000000000000ull);
	CHECK_EQ_U64(alu_frcp(PT_F64, 0x7ff8000000000000, RND_NONE, MOD_APPROX | MOD_FTZ),
	             0x7fffffff00000000);
	/* rsqrt.approx.ftz.f64: 1/sqrt 4 = 0.5 */
	CHECK_EQ_U64(alu_fapprox(OP_RSQRT, PT_F64, 0x4010000000000000, MOD_FTZ),
	             0x3fe0000000000000);
	CHECK_EQ_U64(alu_fapprox(OP_RSQRT, PT_F64, 0, MOD_FTZ), DINF);
	CHECK_EQ_U64(alu_fapprox(OP_RSQRT, PT_F64, 0x8000000000000000ull, MOD_FTZ), DNINF);
	CHECK_EQ_U64(alu_fapprox(OP_RSQRT, PT_F64, DINF, MOD_FTZ), 0);
	CHECK_EQ_U64(alu_fapprox(OP_RSQRT, PT_F64, 0xbff0000000000000, MOD_FTZ),
	             0x7fffffff00000000);
	CHECK_EQ_U64(alu_fapprox(OP_RSQRT, PT_F64, DNINF, MOD_FTZ), 0x7fffffff00000000);
	/* rsqrt.approx.f64 (no .ftz): a full double; 1/sqrt 2 = 0.70710678118654752 */
	CHECK(fabs(alu_f64(alu_fapprox(OP_RSQRT, PT_F64, D2, 0)) - 0.70710678118654752) <=
	      0x1p-50);
	CHECK_EQ_U64(alu_fapprox(OP_RSQRT, PT_F64, 0x8000000000000000ull, 0), DNINF);
}

/* div.approx.f32: 2 ulp for |b| in [2^-126, 2^126]; for 2^126 < |b| <
 * 2^128 it is a * (1/b) with 1/b flushed: a signed zero, NaN for a = inf.
 * div.full.f32: 2 ulp over the whole range. */
TEST(alu_div_approx_full_f32)
{
	CHECK(ulps32(alu_fdiv(PT_F32, F1, F3, RND_NONE, MOD_APPROX), 0x3eaaaaab) <= 2);
	CHECK(ulps32(alu_fdiv(PT_F32, F1, F3, RND_NONE, MOD_FULL), 0x3eaaaaab) <= 2);
	CHECK_EQ_U64(alu_fdiv(PT_F32, F1, 0x7f000000, RND_NONE, MOD_APPROX), FZERO);
	CHECK_EQ_U64(alu_fdiv(PT_F32, FM1, 0x7f000000, RND_NONE, MOD_APPROX), FNZERO);
	CHECK_EQ_U64(alu_fdiv(PT_F32, F1, 0xff7fffff, RND_NONE, MOD_APPROX), FNZERO);
	CHECK(is_nan32(alu_fdiv(PT_F32, FINF, 0x7f000000, RND_NONE, MOD_APPROX)));
	/* div.full keeps the tiny quotient: 1 / 2^127 = 2^-127 = 0x00400000 */
	CHECK(ulps32(alu_fdiv(PT_F32, F1, 0x7f000000, RND_NONE, MOD_FULL), 0x00400000) <= 2);
	/* |b| = 2^126 is still in the accurate range: 4 / 2^126 = 2^-124 */
	CHECK_EQ_U64(alu_fdiv(PT_F32, 0x40800000, 0x7e800000, RND_NONE, MOD_APPROX),
	             0x01800000);
}

/* ---- cvt: float -> integer ------------------------------------------------ */

/* 2.5 and -2.5 under each integer rounding; 2.5 = 0x40200000 */
TEST(alu_cvt_f32_to_s32_integer_roundings)
{
	CHECK_EQ(alu_cvt(0x40200000, PT_S32, PT_F32, RND_RNI, 0), 2);    /* tie -> even */
	CHECK_EQ(alu_cvt(0x40200000, PT_S32, PT_F32, RND_RZI, 0), 2);
	CHECK_EQ(alu_cvt(0x40200000, PT_S32, PT_F32, RND_RMI, 0), 2);
	CHECK_EQ(alu_cvt(0x40200000, PT_S32, PT_F32, RND_RPI, 0), 3);
	CHECK_EQ(alu_cvt(0xc0200000, PT_S32, PT_F32, RND_RNI, 0), -2);
	CHECK_EQ(alu_cvt(0xc0200000, PT_S32, PT_F32, RND_RZI, 0), -2);
	CHECK_EQ(alu_cvt(0xc0200000, PT_S32, PT_F32, RND_RMI, 0), -3);
	CHECK_EQ(alu_cvt(0xc0200000, PT_S32, PT_F32, RND_RPI, 0), -2);
	CHECK_EQ(alu_cvt(0x40600000, PT_S32, PT_F32, RND_RNI, 0), 4);    /* 3.5 -> 4 */
	CHECK_EQ(alu_cvt(0x3f400000, PT_S32, PT_F32, RND_RNI, 0), 1);    /* 0.75 */
	CHECK_EQ(alu_cvt(0xbf400000, PT_S32, PT_F32, RND_RZI, 0), 0);    /* -0.75 */
	/* f64 source: 1.5 -> 2, 0.5 -> 0 (even), -0.5 rmi -> -1, rpi -> 0 */
	CHECK_EQ(alu_cvt(0x3ff8000000000000, PT_S32, PT_F64, RND_RNI, 0), 2);
	CHECK_EQ(alu_cvt(0x3fe0000000000000, PT_S32, PT_F64, RND_RNI, 0), 0);
	CHECK_EQ(alu_cvt(0xbfe0000000000000, PT_S32, PT_F64, RND_RMI, 0), -1);
	CHECK_EQ(alu_cvt(0xbfe0000000000000, PT_S32, PT_F64, RND_RPI, 0), 0);
	/* f16 source: -1.5 (0xbe00) rni -> -2; 65504 (0x7bff) */
	CHECK_EQ(alu_cvt(0xbe00, PT_S32, PT_F16, RND_RNI, 0), -2);
	CHECK_EQ(alu_cvt(0x7bff, PT_U32, PT_F16, RND_RZI, 0), 65504);
	/* .ftz on an f32 source: 2^-149 rpi -> 1 without, 0 with */
	CHECK_EQ(alu_cvt(FSUB1, PT_S32, PT_F32, RND_RPI, 0), 1);
	CHECK_EQ(alu_cvt(FSUB1, PT_S32, PT_F32, RND_RPI, MOD_FTZ), 0);
	CHECK_EQ(alu_cvt(0x80000001, PT_S32, PT_F32, RND_RMI, 0), -1);
}

/* float -> int saturates by default: +-inf and out-of-range clamp to the
 * destination's range; NaN gives 0 unless the source is f64 or the
 * destination 64-bit, where it gives 1 << (n-1) (ISA 9.7.9.21) */
TEST(alu_cvt_float_to_int_saturation_and_nan)
{
	/* s32: 2^31 = 0x4f000000 -> MAX, -2^31 exact, -2^32 -> MIN */
	CHECK_EQ(alu_cvt(0x4f000000, PT_S32, PT_F32, RND_RZI, 0), INT32_MAX);
	CHECK_EQ(alu_cvt(0xcf000000, PT_S32, PT_F32, RND_RZI, 0), INT32_MIN);
	CHECK_EQ(alu_cvt(0xcf800000, PT_S32, PT_F32, RND_RZI, 0), INT32_MIN);
	CHECK_EQ(alu_cvt(FINF, PT_S32, PT_F32, RND_RNI, 0), INT32_MAX);
	CHECK_EQ(alu_cvt(FNINF, PT_S32, PT_F32, RND_RNI, 0), INT32_MIN);
	CHECK_EQ(alu_cvt(FQNAN, PT_S32, PT_F32, RND_RZI, 0), 0);
	CHECK_EQ(alu_cvt(0xffffffff, PT_S32, PT_F32, RND_RNI, 0), 0);
	/* u32: negative -> 0, 2^32 = 0x4f800000 -> 0xffffffff */
	CHECK_EQ_U64(alu_cvt(0xbfc00000, PT_U32, PT_F32, RND_RZI, 0), 0);
	CHECK_EQ_U64(alu_cvt(0x4f800000, PT_U32, PT_F32, RND_RZI, 0), 0xffffffff);
	CHECK_EQ_U64(alu_cvt(FINF, PT_U32, PT_F32, RND_RZI, 0), 0xffffffff);
	CHECK_EQ_U64(alu_cvt(FNINF, PT_U32, PT_F32, RND_RZI, 0), 0);
	CHECK_EQ_U64(alu_cvt(FQNAN, PT_U32, PT_F32, RND_RZI, 0), 0);
	/* narrow destinations: 200 -> s8 127, -200 -> -128, 127.5 rni -> 128 -> 127 */
	CHECK_EQ(alu_cvt(0x43480000, PT_S8, PT_F32, RND_RZI, 0), 127);
	CHECK_EQ(alu_cvt(0xc3480000, PT_S8, PT_F32, RND_RZI, 0), -128);
	CHECK_EQ(alu_cvt(0x42ff0000, PT_S8, PT_F32, RND_RNI, 0), 127);
	CHECK_EQ_U64(alu_cvt(0x437f8000, PT_U8, PT_F32, RND_RNI, 0), 255);   /* 255.5 */
	CHECK_EQ_U64(alu_cvt(0xbf000000, PT_U8, PT_F32, RND_RNI, 0), 0);     /* -0.5 */
	CHECK_EQ(alu_cvt(0x471c4000, PT_S16, PT_F32, RND_RZI, 0), 32767);    /* 40000 */
	CHECK_EQ_U64(alu_cvt(0x471c4000, PT_U16, PT_F32, RND_RZI, 0), 40000);
	CHECK_EQ_U64(alu_cvt(0x4788b800, PT_U16, PT_F32, RND_RZI, 0), 0xffff); /* 70000 */
	CHECK_EQ_U64(alu_cvt(FQNAN, PT_S16, PT_F32, RND_RZI, 0), 0);
	CHECK_EQ_U64(alu_cvt(0x7e00, PT_U8, PT_F16, RND_RZI, 0), 0);
	/* 64-bit: 2^63 = 0x5f000000 -> s64 MAX, u64 exact; 2^64 -> u64 MAX */
	CHECK_EQ(alu_cvt(0x5f000000, PT_S64, PT_F32, RND_RZI, 0), INT64_MAX);
	CHECK_EQ(alu_cvt(0xdf000000, PT_S64, PT_F32, RND_RZI, 0), INT64_MIN);
	CHECK_EQ_U64(alu_cvt(0x5f000000, PT_U64, PT_F32, RND_RZI, 0), 0x8000000000000000ull);
	CHECK_EQ_U64(alu_cvt(0x5f800000, PT_U64, PT_F32, RND_RZI, 0), ~0ull);
	/* largest double below 2^64 = 2^64 - 2048 converts exactly */
	CHECK_EQ_U64(alu_cvt(0x43efffffffffffff, PT_U64, PT_F64, RND_RZI, 0),
	             0xfffffffffffff800ull);
	CHECK_EQ_U64(alu_cvt(0x43f0000000000000, PT_U64, PT_F64, RND_RZI, 0), ~0ull);
	CHECK_EQ(alu_cvt(0xc3e0000000000000, PT_S64, PT_F64, RND_RZI, 0), INT64_MIN);
	/* NaN -> 1 << (n-1) for an f64 source or a 64-bit destination */
	CHECK_EQ_U64(alu_cvt(FQNAN, PT_S64, PT_F32, RND_RZI, 0), 0x8000000000000000ull);
	CHECK_EQ_U64(alu_cvt(FQNAN, PT_U64, PT_F32, RND_RZI, 0), 0x8000000000000000ull);
	CHECK_EQ(alu_cvt(0x7ff8000000000000, PT_S32, PT_F64, RND_RZI, 0), INT32_MIN);
	CHECK_EQ_U64(alu_cvt(0x7ff8000000000000, PT_U32, PT_F64, RND_RZI, 0), 0x80000000);
	CHECK_EQ_U64(alu_cvt(0xfff8000000000000, PT_U16, PT_F64, RND_RZI, 0), 0x8000);
}

/* ---- cvt: integer -> float ----------------------------------------------- */

/* 2^24 + 1 lies halfway between 2^24 (0x4b800000, even) and 2^24 + 2
 * (0x4b800001); 2^24 + 3 halfway between 0x4b800001 (odd) and 0x4b800002 */
TEST(alu_cvt_int_to_f32_rounding)
{
	const uint64_t p1[4] = {0x4b800000, 0x4b800000, 0x4b800000, 0x4b800001};
	const uint64_t m1[4] = {0xcb800000, 0xcb800000, 0xcb800001, 0xcb800000};
	const uint64_t p3[4] = {0x4b800002, 0x4b800001, 0x4b800001, 0x4b800002};
	/* 0xffffffff: between 0x4f7fffff (2^32 - 256) and 2^32 (0x4f800000);
	 * 255 above the lower one, 1 below the upper */
	const uint64_t umax[4] = {0x4f800000, 0x4f7fffff, 0x4f7fffff, 0x4f800000};
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_U64(alu_cvt(16777217, PT_F32, PT_S32, RNDS[i], 0), p1[i]);
		CHECK_EQ_U64(alu_cvt(16777217, PT_F32, PT_U32, RNDS[i], 0), p1[i]);
		CHECK_EQ_U64(alu_cvt((uint32_t)-16777217, PT_F32, PT_S32, RNDS[i], 0), m1[i]);
		CHECK_EQ_U64(alu_cvt(16777219, PT_F32, PT_S64, RNDS[i], 0), p3[i]);
		CHECK_EQ_U64(alu_cvt(0xffffffff, PT_F32, PT_U32, RNDS[i], 0), umax[i]);
	}
	CHECK_EQ_U64(alu_cvt(16777217, PT_F32, PT_S32, RND_NONE, 0), 0x4b800000);
	/* the same bits as s32 are -1 */
	CHECK_EQ_U64(alu_cvt(0xffffffff, PT_F32, PT_S32, RND_RN, 0), FM1);
	/* 2^53 + 1 (s64) -> 2^53 = 0x5a000000 */
	CHECK_EQ_U64(alu_cvt(0x20000000000001ull, PT_F32, PT_S64, RND_RN, 0), 0x5a000000);
	/* narrow sources sign- or zero-extend: s8 0x80 = -128, u8 0x80 = 128 */
	CHECK_EQ_U64(alu_cvt(0x80, PT_F32, PT_S8, RND_RN, 0), 0xc3000000);
	CHECK_EQ_U64(alu_cvt(0x80, PT_F32, PT_U8, RND_RN, 0), 0x43000000);
	CHECK_EQ_U64(alu_cvt(0, PT_F32, PT_S32, RND_RM, 0), FZERO);
	/* .sat on int -> float clamps to [0, 1] */
	CHECK_EQ_U64(alu_cvt(5, PT_F32, PT_S32, RND_RN, MOD_SAT), F1);
	CHECK_EQ_U64(alu_cvt((uint32_t)-3, PT_F32, PT_S32, RND_RN, MOD_SAT), FZERO);
}

TEST(alu_cvt_int_to_f64_f16_bf16)
{
	/* u64 max: between 2^64 - 2048 and 2^64 */
	CHECK_EQ_U64(alu_cvt(~0ull, PT_F64, PT_U64, RND_RN, 0), 0x43f0000000000000);
	CHECK_EQ_U64(alu_cvt(~0ull, PT_F64, PT_U64, RND_RZ, 0), 0x43efffffffffffff);
	CHECK_EQ_U64(alu_cvt(~0ull, PT_F64, PT_U64, RND_RP, 0), 0x43f0000000000000);
	CHECK_EQ_U64(alu_cvt(0x8000000000000000ull, PT_F64, PT_S64, RND_RN, 0),
	             0xc3e0000000000000);
	CHECK_EQ_U64(alu_cvt(0x7fffffff, PT_F64, PT_S32, RND_RN, 0), 0x41dfffffffc00000);
	/* f16: 2049 halfway between 2048 (0x6800) and 2050 (0x6801) -> even */
	CHECK_EQ_U64(alu_cvt(2049, PT_F16, PT_U16, RND_RN, 0), 0x6800);
	CHECK_EQ_U64(alu_cvt(2049, PT_F16, PT_U16, RND_RP, 0), 0x6801);
	CHECK_EQ_U64(alu_cvt(2051, PT_F16, PT_U16, RND_RN, 0), 0x6802);
	/* 65520 = 65504 + half an ulp (16): rounds to inf; .rz keeps 65504 */
	CHECK_EQ_U64(alu_cvt(65520, PT_F16, PT_U32, RND_RN, 0), 0x7c00);
	CHECK_EQ_U64(alu_cvt(65519, PT_F16, PT_U32, RND_RN, 0), 0x7bff);
	CHECK_EQ_U64(alu_cvt(70000, PT_F16, PT_U32, RND_RZ, 0), 0x7bff);
	CHECK_EQ_U64(alu_cvt(65505, PT_F16, PT_U32, RND_RP, 0), 0x7c00);
	CHECK_EQ_U64(alu_cvt(65505, PT_F16, PT_U32, RND_RM, 0), 0x7bff);
	CHECK_EQ_U64(alu_cvt((uint32_t)-70000, PT_F16, PT_S32, RND_RM, 0), 0xfc00);
	CHECK_EQ_U64(alu_cvt((uint32_t)-70000, PT_F16, PT_S32, RND_RP, 0), 0xfbff);
	/* bf16 has 8 significant bits: 257 ties to 256 (0x4380), 259 to 260 */
	CHECK_EQ_U64(alu_cvt(257, PT_BF16, PT_S32, RND_RN, 0), 0x4380);
	CHECK_EQ_U64(alu_cvt(259, PT_BF16, PT_S32, RND_RN, 0), 0x4382);
	CHECK_EQ_U64(alu_cvt(259, PT_BF16, PT_S32, RND_RZ, 0), 0x4381);
}

/* ---- cvt: float -> float --------------------------------------------------- */

TEST(alu_cvt_f64_to_f32_rounding_and_range)
{
	/* double 1/3 (0x3fd5555555555555) -> the f32 1/3 roundings */
	const uint64_t third[4] = {0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaaa, 0x3eaaaaab};
	/* 1 + 2^-24 (0x3ff0000010000000) is an f32 tie */
	const uint64_t tie[4] = {F1, F1, F1, 0x3f800001};
	/* 1e300 overflows: .rz/.rm keep FLT_MAX; -1e300 mirrors */
	const uint64_t big[4] = {FINF, FMAX, FMAX, FINF};
	const uint64_t nbig[4] = {FNINF, 0xff7fffff, FNINF, 0xff7fffff};
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_U64(alu_cvt(0x3fd5555555555555, PT_F32, PT_F64, RNDS[i], 0), third[i]);
		CHECK_EQ_U64(alu_cvt(0x3ff0000010000000, PT_F32, PT_F64, RNDS[i], 0), tie[i]);
		CHECK_EQ_U64(alu_cvt(0x7e37e43c8800759c, PT_F32, PT_F64, RNDS[i], 0), big[i]);
		CHECK_EQ_U64(alu_cvt(0xfe37e43c8800759c, PT_F32, PT_F64, RNDS[i], 0), nbig[i]);
	}
	/* FLT_MAX + half an ulp = (2 - 2^-24) * 2^127 = 0x47effffff0000000:
	 * the tie above FLT_MAX (odd) rounds to even = overflow -> inf */
	CHECK_EQ_U64(alu_cvt(0x47effffff0000000, PT_F32, PT_F64, RND_RN, 0), FINF);
	CHECK_EQ_U64(alu_cvt(0x47efffffe0000000, PT_F32, PT_F64, RND_RN, 0), FMAX);
	/* into the subnormals: 1.5 * 2^-149 ties to 2^-148 (0x00000002);
	 * 2^-150 ties to 0; .rp gives the smallest subnormal */
	CHECK_EQ_U64(alu_cvt(0x36a8000000000000, PT_F32, PT_F64, RND_RN, 0), 0x00000002);
	CHECK_EQ_U64(alu_cvt(0x36a8000000000000, PT_F32, PT_F64, RND_RZ, 0), FSUB1);
	CHECK_EQ_U64(alu_cvt(0x3690000000000000, PT_F32, PT_F64, RND_RN, 0), FZERO);
	CHECK_EQ_U64(alu_cvt(0x3690000000000000, PT_F32, PT_F64, RND_RP, 0), FSUB1);
	CHECK_EQ_U64(alu_cvt(0xb690000000000000, PT_F32, PT_F64, RND_RM, 0), 0x80000001);
	/* .ftz applies to the f32 result: 2^-140 = 0x00000200 flushes */
	CHECK_EQ_U64(alu_cvt(0x3730000000000000, PT_F32, PT_F64, RND_RN, 0), 0x00000200);
	CHECK_EQ_U64(alu_cvt(0x3730000000000000, PT_F32, PT_F64, RND_RN, MOD_FTZ), FZERO);
	/* specials */
	CHECK_EQ_U64(alu_cvt(0x7ff8000000000001, PT_F32, PT_F64, RND_RN, 0), FNAN);
	CHECK_EQ_U64(alu_cvt(DNINF, PT_F32, PT_F64, RND_RZ, 0), FNINF);
	CHECK_EQ_U64(alu_cvt(0x8000000000000000ull, PT_F32, PT_F64, RND_RN, 0), FNZERO);
}

TEST(alu_cvt_f32_f64_widening)
{
	CHECK_EQ_U64(alu_cvt(0x3eaaaaab, PT_F64, PT_F32, RND_NONE, 0), 0x3fd5555560000000);
	CHECK_EQ_U64(alu_cvt(FSUB1, PT_F64, PT_F32, RND_NONE, 0), 0x36a0000000000000);
	CHECK_EQ_U64(alu_cvt(FSUB1, PT_F64, PT_F32, RND_NONE, MOD_FTZ), 0);
	CHECK_EQ_U64(alu_cvt(FNINF, PT_F64, PT_F32, RND_NONE, 0), DNINF);
	CHECK(is_nan64(alu_cvt(FQNAN, PT_F64, PT_F32, RND_NONE, 0)));
	/* f16 and bf16 widen exactly: 0x3555 = 1365/4096 = 0x3fd5540000000000 */
	CHECK_EQ_U64(alu_cvt(0x3555, PT_F64, PT_F16, RND_NONE, 0), 0x3fd5540000000000);
	CHECK_EQ_U64(alu_cvt(0x3f81, PT_F64, PT_BF16, RND_NONE, 0), 0x3ff0200000000000);
}

/* f32 -> f16: 10 fraction bits; 2^-11 above 1.0 is the tie */
TEST(alu_cvt_f32_to_f16)
{
	const uint64_t tie[4] = {0x3c00, 0x3c00, 0x3c00, 0x3c01};
	/* 1 + 3*2^-12 = 1 + 0.75 ulp (f32 0x3f801800) */
	const uint64_t tq[4] = {0x3c01, 0x3c00, 0x3c00, 0x3c01};
	/* 1e10f (0x501502f9) overflows: .rz/.rm keep 65504 */
	const uint64_t big[4] = {0x7c00, 0x7bff, 0x7bff, 0x7c00};
	const uint64_t nbig[4] = {0xfc00, 0xfbff, 0xfc00, 0xfbff};
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_U64(alu_cvt(0x3f801000, PT_F16, PT_F32, RNDS[i], 0), tie[i]);
		CHECK_EQ_U64(alu_cvt(0x3f801800, PT_F16, PT_F32, RNDS[i], 0), tq[i]);
		CHECK_EQ_U64(alu_cvt(0x501502f9, PT_F16, PT_F32, RNDS[i], 0), big[i]);
		CHECK_EQ_U64(alu_cvt(0xd01502f9, PT_F16, PT_F32, RNDS[i], 0), nbig[i]);
	}
	/* 65520 (0x477ff000) = 65504 + half an ulp: inf; 65519 stays finite */
	CHECK_EQ_U64(alu_cvt(0x477ff000, PT_F16, PT_F32, RND_RN, 0), 0x7c00);
	CHECK_EQ_U64(alu_cvt(0x477fef00, PT_F16, PT_F32, RND_RN, 0), 0x7bff);
	/* subnormals: 2^-24 = 0x0001; 2^-25 ties to 0; 1.5*2^-24 ties to 0x0002;
	 * 2^-14 is the smallest normal 0x0400 */
	CHECK_EQ_U64(alu_cvt(0x33800000, PT_F16, PT_F32, RND_RN, 0), 0x0001);
	CHECK_EQ_U64(alu_cvt(0x33000000, PT_F16, PT_F32, RND_RN, 0), 0x0000);
	CHECK_EQ_U64(alu_cvt(0x33000000, PT_F16, PT_F32, RND_RP, 0), 0x0001);
	CHECK_EQ_U64(alu_cvt(0x33c00000, PT_F16, PT_F32, RND_RN, 0), 0x0002);
	CHECK_EQ_U64(alu_cvt(0x38800000, PT_F16, PT_F32, RND_RN, 0), 0x0400);
	CHECK_EQ_U64(alu_cvt(0xb3000001, PT_F16, PT_F32, RND_RN, 0), 0x8001);
	/* specials */
	CHECK_EQ_U64(alu_cvt(FQNAN, PT_F16, PT_F32, RND_RN, 0), 0x7fff);
	CHECK_EQ_U64(alu_cvt(FINF, PT_F16, PT_F32, RND_RZ, 0), 0x7c00);
	CHECK_EQ_U64(alu_cvt(FNZERO, PT_F16, PT_F32, RND_RN, 0), 0x8000);
	/* .sat and .relu on an f16 result */
	CHECK_EQ_U64(alu_cvt(0x40000000, PT_F16, PT_F32, RND_RN, MOD_SAT), 0x3c00);
	CHECK_EQ_U64(alu_cvt(0xc0000000, PT_F16, PT_F32, RND_RN, MOD_RELU), 0x0000);
	CHECK_EQ_U64(alu_cvt(FQNAN, PT_F16, PT_F32, RND_RN, MOD_RELU), 0x7fff);
}

TEST(alu_cvt_f16_to_f32)
{
	CHECK_EQ_U64(alu_cvt(0x0001, PT_F32, PT_F16, RND_NONE, 0), 0x33800000);  /* 2^-24 */
	CHECK_EQ_U64(alu_cvt(0x03ff, PT_F32, PT_F16, RND_NONE, 0), 0x387fc000);  /* 1023*2^-24 */
	CHECK_EQ_U64(alu_cvt(0x3555, PT_F32, PT_F16, RND_NONE, 0), 0x3eaaa000);
	CHECK_EQ_U64(alu_cvt(0x7bff, PT_F32, PT_F16, RND_NONE, 0), 0x477fe000);  /* 65504 */
	CHECK_EQ_U64(alu_cvt(0xfc00, PT_F32, PT_F16, RND_NONE, 0), FNINF);
	CHECK_EQ_U64(alu_cvt(0x8000, PT_F32, PT_F16, RND_NONE, 0), FNZERO);
	CHECK_EQ_U64(alu_cvt(0x7e00, PT_F32, PT_F16, RND_NONE, 0), FNAN);
	/* the low 16 bits only */
	CHECK_EQ_U64(alu_cvt(0xabcd3c00, PT_F32, PT_F16, RND_NONE, 0), F1);
}

/* f32 -> bf16: 7 fraction bits; f32 0x3f808000 = 1 + 2^-8 is the tie */
TEST(alu_cvt_f32_bf16_both_ways)
{
	const uint64_t tie[4] = {0x3f80, 0x3f80, 0x3f80, 0x3f81};
	const uint64_t tq[4] = {0x3f81, 0x3f80, 0x3f80, 0x3f81};      /* 0x3f80c000 */
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_U64(alu_cvt(0x3f808000, PT_BF16, PT_F32, RNDS[i], 0), tie[i]);
		CHECK_EQ_U64(alu_cvt(0x3f80c000, PT_BF16, PT_F32, RNDS[i], 0), tq[i]);
	}
	CHECK_EQ_U64(alu_cvt(0x3f818000, PT_BF16, PT_F32, RND_RN, 0), 0x3f82);  /* odd tie up */
	CHECK_EQ_U64(alu_cvt(0x3f808001, PT_BF16, PT_F32, RND_RN, 0), 0x3f81);  /* past tie */
	/* FLT_MAX: 0x7f7f + 0xffff/0x10000 ulp -> carries into inf */
	CHECK_EQ_U64(alu_cvt(FMAX, PT_BF16, PT_F32, RND_RN, 0), 0x7f80);
	CHECK_EQ_U64(alu_cvt(FMAX, PT_BF16, PT_F32, RND_RZ, 0), 0x7f7f);
	/* subnormals share f32's exponent range */
	CHECK_EQ_U64(alu_cvt(0x00010000, PT_BF16, PT_F32, RND_RN, 0), 0x0001);
	CHECK_EQ_U64(alu_cvt(0x00008000, PT_BF16, PT_F32, RND_RN, 0), 0x0000);
	CHECK_EQ_U64(alu_cvt(0x00018000, PT_BF16, PT_F32, RND_RN, 0), 0x0002);
	CHECK_EQ_U64(alu_cvt(0x7fc00001, PT_BF16, PT_F32, RND_RN, 0), 0x7fff);
	CHECK_EQ_U64(alu_cvt(FNINF, PT_BF16, PT_F32, RND_RN, 0), 0xff80);
	/* bf16 -> f32 is exact: append 16 zero bits */
	CHECK_EQ_U64(alu_cvt(0x3f81, PT_F32, PT_BF16, RND_NONE, 0), 0x3f810000);
	CHECK_EQ_U64(alu_cvt(0x0001, PT_F32, PT_BF16, RND_NONE, 0), 0x00010000);
	CHECK_EQ_U64(alu_cvt(0xc2f7, PT_F32, PT_BF16, RND_NONE, 0), 0xc2f70000);
	/* bf16 <-> f16: 1/3 in f16 (0x3555 = 0.333251953125) -> bf16 0x3eab */
	CHECK_EQ_U64(alu_cvt(0x3555, PT_BF16, PT_F16, RND_RN, 0), 0x3eab);
	CHECK_EQ_U64(alu_cvt(0x3eab, PT_F16, PT_BF16, RND_RN, 0), 0x3558);
}

/* cvt.rna.tf32.f32: ties away from zero at 10 fraction bits; the result
 * is an f32 pattern with the 13 low bits clear */
TEST(alu_cvt_tf32_rna)
{
	CHECK_EQ_U64(alu_cvt(0x3f801000, PT_TF32, PT_F32, RND_RNA, 0), 0x3f802000);
	CHECK_EQ_U64(alu_cvt(0x3f801000, PT_TF32, PT_F32, RND_RN, 0), 0x3f800000);
	CHECK_EQ_U64(alu_cvt(0xbf801000, PT_TF32, PT_F32, RND_RNA, 0), 0xbf802000);
	CHECK_EQ_U64(alu_cvt(0x3f800fff, PT_TF32, PT_F32, RND_RNA, 0), 0x3f800000);
	CHECK_EQ_U64(alu_cvt(0x3f801fff, PT_TF32, PT_F32, RND_RZ, 0), 0x3f800000);
	CHECK_EQ_U64(alu_cvt(0x3f803000, PT_TF32, PT_F32, RND_RN, 0), 0x3f804000);
	CHECK_EQ_U64(alu_cvt(FMAX, PT_TF32, PT_F32, RND_RNA, 0), FINF);
}

/* same-size float with an integer rounding rounds to an integral value */
TEST(alu_cvt_round_to_integral_float)
{
	CHECK_EQ_U64(alu_cvt(0x40200000, PT_F32, PT_F32, RND_RNI, 0), F2);        /* 2.5 */
	CHECK_EQ_U64(alu_cvt(0x40200000, PT_F32, PT_F32, RND_RPI, 0), F3);
	CHECK_EQ_U64(alu_cvt(FHALF, PT_F32, PT_F32, RND_RNI, 0), FZERO);
	CHECK_EQ_U64(alu_cvt(0xbf000000, PT_F32, PT_F32, RND_RNI, 0), FNZERO);    /* -0.5 */
	CHECK_EQ_U64(alu_cvt(0xbf000000, PT_F32, PT_F32, RND_RZI, 0), FNZERO);
	CHECK_EQ_U64(alu_cvt(0xbf000000, PT_F32, PT_F32, RND_RMI, 0), FM1);
	CHECK_EQ_U64(alu_cvt(0x4b000001, PT_F32, PT_F32, RND_RMI, 0), 0x4b000001); /* 2^23+1 */
	CHECK_EQ_U64(alu_cvt(0x4000cccccccccccd, PT_F64, PT_F64, RND_RPI, 0), D3); /* 2.1 */
	CHECK_EQ_U64(alu_cvt(0x4004000000000000, PT_F64, PT_F64, RND_RNI, 0), D2); /* 2.5 */
	CHECK_EQ_U64(alu_cvt(0x3e00, PT_F16, PT_F16, RND_RNI, 0), 0x4000);        /* 1.5 */
	CHECK_EQ_U64(alu_cvt(FSUB1, PT_F32, PT_F32, RND_RPI, 0), F1);
	CHECK_EQ_U64(alu_cvt(FSUB1, PT_F32, PT_F32, RND_RPI, MOD_FTZ), FZERO);
	CHECK_EQ_U64(alu_cvt(FQNAN, PT_F32, PT_F32, RND_RNI, 0), FNAN);
	/* cvt.sat.f32.f32 */
	CHECK_EQ_U64(alu_cvt(0x40200000, PT_F32, PT_F32, RND_NONE, MOD_SAT), F1);
	CHECK_EQ_U64(alu_cvt(FQNAN, PT_F32, PT_F32, RND_NONE, MOD_SAT), FZERO);
}

/* ---- cvt: integer -> integer ------------------------------------------------ */

TEST(alu_cvt_int_truncate_extend_sat)
{
	CHECK_EQ(alu_cvt(0x1ff, PT_S8, PT_S32, RND_NONE, 0), -1);        /* chop to 0xff */
	CHECK_EQ_U64(alu_cvt((uint32_t)-1, PT_U8, PT_S32, RND_NONE, 0), 0xff);
	CHECK_EQ(alu_cvt(0x80, PT_S32, PT_S8, RND_NONE, 0), -128);       /* sext */
	CHECK_EQ_U64(alu_cvt(0xff, PT_U32, PT_S8, RND_NONE, 0), 0xffffffff);
	CHECK_EQ_U64(alu_cvt(0xff, PT_U32, PT_U8, RND_NONE, 0), 0xff);   /* zext */
	CHECK_EQ_U64(alu_cvt(0x1ff, PT_U16, PT_U8, RND_NONE, 0), 0xff);
	CHECK_EQ_U64(alu_cvt(0x80000000, PT_S64, PT_S32, RND_NONE, 0), 0xffffffff80000000ull);
	CHECK_EQ_U64(alu_cvt(0x80000000, PT_U64, PT_U32, RND_NONE, 0), 0x80000000);
	CHECK_EQ_U64(alu_cvt((uint32_t)-1, PT_U64, PT_S32, RND_NONE, 0), ~0ull);
	CHECK_EQ_U64(alu_cvt(0x123456789ull, PT_B32, PT_B64, RND_NONE, 0), 0x23456789);
	CHECK_EQ(alu_cvt(0x8000, PT_S16, PT_U16, RND_NONE, 0), -32768);
	/* .sat clamps to the destination's range */
	CHECK_EQ(alu_cvt(200, PT_S8, PT_S32, RND_NONE, MOD_SAT), 127);
	CHECK_EQ(alu_cvt((uint32_t)-200, PT_S8, PT_S32, RND_NONE, MOD_SAT), -128);
	CHECK_EQ_U64(alu_cvt((uint32_t)-5, PT_U8, PT_S32, RND_NONE, MOD_SAT), 0);
	CHECK_EQ_U64(alu_cvt(300, PT_U8, PT_S32, RND_NONE, MOD_SAT), 255);
	CHECK_EQ_U64(alu_cvt((uint32_t)-1, PT_U32, PT_S32, RND_NONE, MOD_SAT), 0);
	CHECK_EQ(alu_cvt(0xffffffff, PT_S32, PT_U32, RND_NONE, MOD_SAT), INT32_MAX);
	CHECK_EQ(alu_cvt(0x100000000ull, PT_S32, PT_S64, RND_NONE, MOD_SAT), INT32_MAX);
	CHECK_EQ(alu_cvt(0xffffffff00000000ull, PT_S32, PT_S64, RND_NONE, MOD_SAT), INT32_MIN);
	CHECK_EQ_U64(alu_cvt(70000, PT_U16, PT_U32, RND_NONE, MOD_SAT), 0xffff);
	CHECK_EQ(alu_cvt(~0ull, PT_S64, PT_U64, RND_NONE, MOD_SAT), INT64_MAX);
	CHECK_EQ_U64(alu_cvt(~0ull, PT_U64, PT_S64, RND_NONE, MOD_SAT), 0);
	CHECK_EQ(alu_cvt(100, PT_S8, PT_S32, RND_NONE, MOD_SAT), 100);
}

/* ---- integer arithmetic ------------------------------------------------------ */

/* 0xffffffff^2 = 2^64 - 2^33 + 1 = 0xfffffffe_00000001 */
TEST(alu_mul_hi_wide_32)
{
	CHECK_EQ_U64(alu_mul(PT_U32, MODE_HI, 0xffffffff, 0xffffffff), 0xfffffffe);
	CHECK_EQ_U64(alu_mul(PT_U32, MODE_LO, 0xffffffff, 0xffffffff), 1);
	CHECK_EQ_U64(alu_mul(PT_U32, MODE_NONE, 0xffffffff, 0xffffffff), 1);
	CHECK_EQ_U64(alu_mul(PT_U32, MODE_WIDE, 0xffffffff, 0xffffffff), 0xfffffffe00000001ull);
	/* as s32 the same bits are -1 * -1 = 1 */
	CHECK_EQ(alu_mul(PT_S32, MODE_HI, 0xffffffff, 0xffffffff), 0);
	CHECK_EQ(alu_mul(PT_S32, MODE_WIDE, 0xffffffff, 0xffffffff), 1);
	/* (-2^31)^2 = 2^62: hi 0x40000000, lo 0 */
	CHECK_EQ(alu_mul(PT_S32, MODE_HI, 0x80000000, 0x80000000), 0x40000000);
	CHECK_EQ(alu_mul(PT_S32, MODE_LO, 0x80000000, 0x80000000), 0);
	CHECK_EQ_U64(alu_mul(PT_S32, MODE_WIDE, 0x80000000, 0x80000000), 0x4000000000000000ull);
	/* -2^31 * 2 = -2^32: hi -1 */
	CHECK_EQ(alu_mul(PT_S32, MODE_HI, 0x80000000, 2), -1);
	CHECK_EQ(alu_mul(PT_S32, MODE_WIDE, 0x80000000, 2), -0x100000000ll);
	/* 0x10000^2 = 2^32: lo wraps to 0, hi 1 */
	CHECK_EQ(alu_mul(PT_S32, MODE_LO, 0x10000, 0x10000), 0);
	CHECK_EQ(alu_mul(PT_U32, MODE_HI, 0x10000, 0x10000), 1);
	/* 16-bit: 0xffff^2 = 0xfffe0001; (-2^15)^2 = 2^30; -1 * 2 = -2 */
	CHECK_EQ_U64(alu_mul(PT_U16, MODE_WIDE, 0xffff, 0xffff), 0xfffe0001);
	CHECK_EQ_U64(alu_mul(PT_U16, MODE_HI, 0xffff, 0xffff), 0xfffe);
	CHECK_EQ(alu_mul(PT_S16, MODE_WIDE, 0x8000, 0x8000), 0x40000000);
	CHECK_EQ(alu_mul(PT_S16, MODE_WIDE, 0xffff, 2), -2);
	CHECK_EQ(alu_mul(PT_S16, MODE_LO, 0x4000, 2), -32768);
	/* operand bits above the type are ignored */
	CHECK_EQ_U64(alu_mul(PT_U32, MODE_WIDE, 0xabcd00000003ull, 0x1200000005ull), 15);
}

/* (2^64 - 1)^2 = 2^128 - 2^65 + 1: hi 0xffff...fffe, lo 1 */
TEST(alu_mul_hi_64)
{
	CHECK_EQ_U64(alu_mul(PT_U64, MODE_HI, ~0ull, ~0ull), 0xfffffffffffffffeull);
	CHECK_EQ_U64(alu_mul(PT_U64, MODE_LO, ~0ull, ~0ull), 1);
	CHECK_EQ(alu_mul(PT_S64, MODE_HI, ~0ull, ~0ull), 0);                 /* -1 * -1 */
	CHECK_EQ_U64(alu_mul(PT_S64, MODE_HI, 0x8000000000000000ull, 0x8000000000000000ull),
	             0x4000000000000000ull);                                   /* 2^126 */
	CHECK_EQ(alu_mul(PT_S64, MODE_HI, 0x8000000000000000ull, 2), -1);       /* -2^64 */
	CHECK_EQ_U64(alu_mul(PT_U64, MODE_HI, 0x8000000000000000ull, 2), 1);
	CHECK_EQ_U64(alu_mul(PT_U64, MODE_HI, 0x100000000ull, 0x100000000ull), 1);
}

TEST(alu_mad_variants)
{
	CHECK_EQ_U64(alu_mad(PT_U32, MODE_LO, 3, 4, 5, 0), 17);
	CHECK_EQ_U64(alu_mad(PT_U32, MODE_LO, 0xffffffff, 2, 3, 0), 1);        /* wraps */
	CHECK_EQ_U64(alu_mad(PT_U32, MODE_HI, 0xffffffff, 0xffffffff, 1, 0), 0xffffffff);
	/* .wide: 0xfffffffe00000001 + 0xffffffff = 0xffffffff00000000 */
	CHECK_EQ_U64(alu_mad(PT_U32, MODE_WIDE, 0xffffffff, 0xffffffff, 0xffffffff, 0),
	             0xffffffff00000000ull);
	CHECK_EQ(alu_mad(PT_S32, MODE_WIDE, 0xffffffff, 5, 0xfffffffffffffff6ull, 0), -15);
	/* mad.hi.sat.s32: hi((2^31-1)^2) = 0x3fffffff; + 0x7fffffff overflows */
	CHECK_EQ(alu_mad(PT_S32, MODE_HI, 0x7fffffff, 0x7fffffff, 0x7fffffff, MOD_SAT),
	         INT32_MAX);
	CHECK_EQ(alu_mad(PT_S32, MODE_HI, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0),
	         (int32_t)0xbffffffe);
	CHECK_EQ(alu_mad(PT_S32, MODE_HI, 0x80000000, 0x7fffffff, 0x80000000, MOD_SAT),
	         INT32_MIN);
	CHECK_EQ_U64(alu_mad(PT_U64, MODE_HI, ~0ull, ~0ull, 1, 0), ~0ull);
}

/* mul24 uses the low 24 bits of each operand; .hi is bits 47..16 of the
 * 48-bit product.  (2^24 - 1)^2 = 0xfffffe000001 */
TEST(alu_mul24_mad24)
{
	CHECK_EQ_U64(alu_mul24(PT_U32, MODE_LO, 0xffffff, 0xffffff), 0xfe000001);
	CHECK_EQ_U64(alu_mul24(PT_U32, MODE_HI, 0xffffff, 0xffffff), 0xfffffe00);
	CHECK_EQ_U64(alu_mul24(PT_U32, MODE_LO, 0xff000002, 3), 6);
	/* .s32: 0xffffff is -1 in 24 bits */
	CHECK_EQ(alu_mul24(PT_S32, MODE_LO, 0xffffff, 2), -2);
	CHECK_EQ(alu_mul24(PT_S32, MODE_HI, 0xffffff, 1), -1);
	/* (-2^23)^2 = 2^46: bits 47..16 = 2^30 */
	CHECK_EQ(alu_mul24(PT_S32, MODE_HI, 0x800000, 0x800000), 0x40000000);
	CHECK_EQ(alu_mul24(PT_S32, MODE_LO, 0x800000, 0x800000), 0);
	CHECK_EQ_U64(alu_mad24(PT_U32, MODE_LO, 2, 3, 4, 0), 10);
	CHECK_EQ_U64(alu_mad24(PT_U32, MODE_HI, 0xffffff, 0xffffff, 1, 0), 0xfffffe01);
	CHECK_EQ(alu_mad24(PT_S32, MODE_HI, 0x800000, 0x800000, 0x7fffffff, MOD_SAT), INT32_MAX);
	CHECK_EQ(alu_mad24(PT_S32, MODE_HI, 0x800000, 0x800000, 0x7fffffff, 0),
	         (int32_t)0xbfffffff);
}

/* sad: c + |a - b| by the type's signedness */
TEST(alu_sad)
{
	CHECK_EQ_U64(alu_sad(PT_U32, 3, 10, 100), 107);
	CHECK_EQ_U64(alu_sad(PT_U32, 10, 3, 100), 107);
	CHECK_EQ(alu_sad(PT_S32, (uint32_t)-3, 4, 0), 7);
	CHECK_EQ_U64(alu_sad(PT_U32, 0xffffffff, 0, 0), 0xffffffff);
	CHECK_EQ(alu_sad(PT_S32, 0xffffffff, 0, 0), 1);
	CHECK_EQ_U64(alu_sad(PT_U16, 0, 0xffff, 2), 1);                    /* wraps */
}

/* integer division truncates toward zero; the remainder has the sign of
 * the dividend; INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0; x / 0 and
 * x % 0 are all ones (the documented NVIDIA result) */
TEST(alu_div_rem_signs_overflow_and_zero)
{
	CHECK_EQ(alu_div(PT_S32, 7, (uint32_t)-2), -3);
	CHECK_EQ(alu_rem(PT_S32, 7, (uint32_t)-2), 1);
	CHECK_EQ(alu_div(PT_S32, (uint32_t)-7, 2), -3);
	CHECK_EQ(alu_rem(PT_S32, (uint32_t)-7, 2), -1);
	CHECK_EQ(alu_div(PT_S32, (uint32_t)-7, (uint32_t)-2), 3);
	CHECK_EQ(alu_rem(PT_S32, (uint32_t)-7, (uint32_t)-2), -1);
	CHECK_EQ_U64(alu_div(PT_U32, 0xffffffff, 10), 429496729);
	CHECK_EQ_U64(alu_rem(PT_U32, 0xffffffff, 10), 5);
	CHECK_EQ_U64(alu_div(PT_U32, 0xfffffff9, 2), 0x7ffffffc);         /* not -7/2 */
	/* INT_MIN / -1 */
	CHECK_EQ(alu_div(PT_S32, 0x80000000, 0xffffffff), INT32_MIN);
	CHECK_EQ(alu_rem(PT_S32, 0x80000000, 0xffffffff), 0);
	CHECK_EQ(alu_div(PT_S64, 0x8000000000000000ull, ~0ull), INT64_MIN);
	CHECK_EQ(alu_rem(PT_S64, 0x8000000000000000ull, ~0ull), 0);
	CHECK_EQ(alu_div(PT_S16, 0x8000, 0xffff), -32768);
	/* division by zero */
	CHECK_EQ_U64(alu_div(PT_U32, 5, 0), 0xffffffff);
	CHECK_EQ_U64(alu_rem(PT_U32, 5, 0), 0xffffffff);
	CHECK_EQ(alu_div(PT_S32, 5, 0), -1);
	CHECK_EQ(alu_rem(PT_S32, (uint32_t)-5, 0), -1);
	CHECK_EQ_U64(alu_div(PT_U64, 1, 0), ~0ull);
	CHECK_EQ(alu_div(PT_S64, 1, 0), -1);
	CHECK_EQ_U64(alu_div(PT_U16, 5, 0), 0xffff);
	CHECK_EQ_U64(alu_div(PT_U32, 5, 0x100000000ull), 0xffffffff);      /* low bits 0 */
	/* only the low 32 bits of the operands count */
	CHECK_EQ(alu_div(PT_S32, 0x100000006ull, 2), 3);
	CHECK_EQ_U64(alu_div(PT_U64, 0xfffffffffffffff9ull, 2), 0x7ffffffffffffffcull);
	CHECK_EQ(alu_div(PT_S64, 0xfffffffffffffff9ull, 2), -3);
	CHECK_EQ(alu_rem(PT_S64, 0xfffffffffffffff9ull, 2), -1);
}

/* two's complement wrap: |INT_MIN| = INT_MIN, -INT_MIN = INT_MIN */
TEST(alu_abs_neg_int_min)
{
	CHECK_EQ(alu_iabs(PT_S32, 0x80000000), INT32_MIN);
	CHECK_EQ(alu_ineg(PT_S32, 0x80000000), INT32_MIN);
	CHECK_EQ(alu_iabs(PT_S32, (uint32_t)-5), 5);
	CHECK_EQ(alu_ineg(PT_S32, 5), -5);
	CHECK_EQ(alu_iabs(PT_S16, 0x8000), -32768);
	CHECK_EQ(alu_iabs(PT_S64, 0x8000000000000000ull), INT64_MIN);
	CHECK_EQ(alu_ineg(PT_S64, 0x8000000000000000ull), INT64_MIN);
	CHECK_EQ(alu_iabs(PT_S8, 0x81), 127);
	CHECK_EQ(alu_ineg(PT_S32, 0), 0);
}

TEST(alu_iadd_isub_sat_and_wrap)
{
	CHECK_EQ(alu_iadd(PT_S32, 0x7fffffff, 1, 0), INT32_MIN);           /* wraps */
	CHECK_EQ(alu_iadd(PT_S32, 0x7fffffff, 1, MOD_SAT), INT32_MAX);
	CHECK_EQ(alu_iadd(PT_S32, 0x80000000, 0xffffffff, MOD_SAT), INT32_MIN);
	CHECK_EQ(alu_isub(PT_S32, 0x80000000, 1, MOD_SAT), INT32_MIN);
	CHECK_EQ(alu_isub(PT_S32, 0x7fffffff, 0xffffffff, MOD_SAT), INT32_MAX);
	CHECK_EQ(alu_isub(PT_S32, 0x7fffffff, 0xffffffff, 0), INT32_MIN);
	CHECK_EQ(alu_iadd(PT_S32, 5, (uint32_t)-7, MOD_SAT), -2);
	CHECK_EQ_U64(alu_iadd(PT_U16, 0xffff, 1, 0), 0);
	CHECK_EQ_U64(alu_isub(PT_U32, 0, 1, 0), 0xffffffff);
	CHECK_EQ_U64(alu_iadd(PT_U64, ~0ull, 2, 0), 1);
}

TEST(alu_imin_imax_signedness_and_relu)
{
	CHECK_EQ(alu_imin(PT_S32, 0xffffffff, 1, 0), -1);
	CHECK_EQ_U64(alu_imin(PT_U32, 0xffffffff, 1, 0), 1);
	CHECK_EQ(alu_imax(PT_S32, 0x80000000, 0, 0), 0);
	CHECK_EQ_U64(alu_imax(PT_U32, 0x80000000, 0, 0), 0x80000000);
	CHECK_EQ(alu_imin(PT_S16, 0x8000, 0x7fff, 0), -32768);
	CHECK_EQ_U64(alu_imin(PT_U16, 0x8000, 0x7fff, 0), 0x7fff);
	CHECK_EQ(alu_imin(PT_S64, 0x8000000000000000ull, 0, 0), INT64_MIN);
	CHECK_EQ_U64(alu_imax(PT_U64, 0x8000000000000000ull, 1, 0), 0x8000000000000000ull);
	/* .relu: a negative result becomes 0 */
	CHECK_EQ(alu_imax(PT_S32, (uint32_t)-5, (uint32_t)-3, MOD_RELU), 0);
	CHECK_EQ(alu_imin(PT_S32, (uint32_t)-5, 3, MOD_RELU), 0);
	CHECK_EQ(alu_imax(PT_S32, 2, 7, MOD_RELU), 7);
}

/* ---- shifts and bit fields --------------------------------------------------- */

TEST(alu_shl_shr_beyond_width)
{
	CHECK_EQ_U64(alu_shl(PT_B32, 1, 31), 0x80000000);
	CHECK_EQ_U64(alu_shl(PT_B32, 1, 32), 0);
	CHECK_EQ_U64(alu_shl(PT_B32, 1, 0xffffffff), 0);
	CHECK_EQ_U64(alu_shl(PT_B32, 0xffffffff, 4), 0xfffffff0);
	CHECK_EQ_U64(alu_shl(PT_B16, 1, 16), 0);
	CHECK_EQ_U64(alu_shl(PT_B16, 0x8001, 1), 0x0002);
	CHECK_EQ_U64(alu_shl(PT_B64, 1, 63), 0x8000000000000000ull);
	CHECK_EQ_U64(alu_shl(PT_B64, 1, 64), 0);
	CHECK_EQ_U64(alu_shr(PT_U32, 0x80000000, 31), 1);
	CHECK_EQ_U64(alu_shr(PT_U32, 0x80000000, 32), 0);
	CHECK_EQ_U64(alu_shr(PT_B32, 0x80000000, 4), 0x08000000);         /* b: logical */
	CHECK_EQ(alu_shr(PT_S32, 0x80000000, 31), -1);
	CHECK_EQ(alu_shr(PT_S32, 0x80000000, 32), -1);                    /* sign fill */
	CHECK_EQ(alu_shr(PT_S32, 0x80000000, 100), -1);
	CHECK_EQ(alu_shr(PT_S32, 0x40000000, 40), 0);
	CHECK_EQ(alu_shr(PT_S32, 0xfffffff0, 2), -4);
	CHECK_EQ(alu_shr(PT_S16, 0x8000, 20), -1);
	CHECK_EQ(alu_shr(PT_S64, 0x8000000000000000ull, 64), -1);
	CHECK_EQ_U64(alu_shr(PT_U64, 0x8000000000000000ull, 63), 1);
	CHECK_EQ_U64(alu_shr(PT_U64, 0x8000000000000000ull, 64), 0);
}

/* bfe (ISA 9.7.7.6): d[i] = a[pos+i] for i < len and pos+i <= msb, else
 * sbit = (signed && len > 0) ? a[min(pos+len-1, msb)] : 0 */
TEST(alu_bfe_per_isa)
{
	CHECK_EQ_U64(alu_bfe(PT_U32, 0x12345678, 4, 8), 0x67);
	CHECK_EQ(alu_bfe(PT_S32, 0x12345678, 4, 8), 0x67);           /* a[11] = 0 */
	CHECK_EQ(alu_bfe(PT_S32, 0x0000f000, 12, 4), -1);             /* a[15] = 1 */
	CHECK_EQ_U64(alu_bfe(PT_U32, 0x0000f000, 12, 4), 0xf);
	CHECK_EQ_U64(alu_bfe(PT_U32, 0xf0000000, 28, 8), 0xf);        /* runs off msb */
	CHECK_EQ(alu_bfe(PT_S32, 0xf0000000, 28, 8), -1);             /* sbit = a[31] */
	CHECK_EQ(alu_bfe(PT_S32, 0x70000000, 28, 8), 7);
	CHECK_EQ_U64(alu_bfe(PT_U32, 0x12345678, 0, 0), 0);
	CHECK_EQ(alu_bfe(PT_S32, 0xffffffff, 5, 0), 0);               /* len 0: sbit 0 */
	CHECK_EQ_U64(alu_bfe(PT_U32, 0xffffffff, 40, 5), 0);          /* pos > msb */
	CHECK_EQ(alu_bfe(PT_S32, 0x80000000, 40, 5), -1);
	CHECK_EQ(alu_bfe(PT_S32, 0x7fffffff, 40, 5), 0);
	CHECK_EQ_U64(alu_bfe(PT_U32, 0x12345678, 0x104, 0x108), 0x67); /* low 8 bits */
	CHECK_EQ_U64(alu_bfe(PT_U32, 0x12345678, 0, 32), 0x12345678);
	CHECK_EQ(alu_bfe(PT_S32, 0x80000000, 0, 32), INT32_MIN);
	CHECK_EQ_U64(alu_bfe(PT_U32, 0x12345678, 0, 255), 0x12345678);
	CHECK_EQ_U64(alu_bfe(PT_U64, 0x123456789abcdef0ull, 32, 16), 0x5678);
	CHECK_EQ(alu_bfe(PT_S64, 0x8000000000000000ull, 63, 1), -1);
	CHECK_EQ(alu_bfe(PT_S64, 0x0000800000000000ull, 44, 4), -8);  /* 0b1000 */
}

/* bfi: f = b, then f[pos+i] = a[i] for i < len and pos+i <= msb */
TEST(alu_bfi_per_isa)
{
	CHECK_EQ_U64(alu_bfi(PT_B32, 0xff, 0x12345678, 8, 8), 0x1234ff78);
	CHECK_EQ_U64(alu_bfi(PT_B32, 0xab, 0, 28, 8), 0xb0000000);
	CHECK_EQ_U64(alu_bfi(PT_B32, 0xffffffff, 0x12345678, 0, 0), 0x12345678);
	CHECK_EQ_U64(alu_bfi(PT_B32, 0xffffffff, 0x12345678, 32, 4), 0x12345678);
	CHECK_EQ_U64(alu_bfi(PT_B32, 0x1, 0xffffffff, 0, 32), 1);
	CHECK_EQ_U64(alu_bfi(PT_B32, 0x5, 0, 0x101, 0x103), 0xa);     /* pos 1, len 3 */
	CHECK_EQ_U64(alu_bfi(PT_B64, 0xffff, 0, 48, 16), 0xffff000000000000ull);
	CHECK_EQ_U64(alu_bfi(PT_B64, 0xff, 0, 60, 8), 0xf000000000000000ull);
}

/* bmsk (ISA 9.7.7.x): mask of b bits starting at bit a; the ISA's example
 * bmsk.wrap(1, 2) = 0x6 */
TEST(alu_bmsk_clamp_wrap)
{
	CHECK_EQ_U64(alu_bmsk(1, 2, MOD_WRAP), 0x00000006);
	CHECK_EQ_U64(alu_bmsk(1, 2, MOD_CLAMP), 0x00000006);
	CHECK_EQ_U64(alu_bmsk(0, 32, MOD_CLAMP), 0xffffffff);  /* width 32 */
	CHECK_EQ_U64(alu_bmsk(0, 32, MOD_WRAP), 0);            /* width 32 & 31 = 0 */
	CHECK_EQ_U64(alu_bmsk(32, 4, MOD_CLAMP), 0);           /* start past bit 31 */
	CHECK_EQ_U64(alu_bmsk(32, 4, MOD_WRAP), 0xf);          /* start 32 & 31 = 0 */
	CHECK_EQ_U64(alu_bmsk(28, 8, MOD_CLAMP), 0xf0000000);  /* ends past bit 31 */
	CHECK_EQ_U64(alu_bmsk(28, 8, MOD_WRAP), 0xf0000000);
	CHECK_EQ_U64(alu_bmsk(4, 0, MOD_WRAP), 0);
	CHECK_EQ_U64(alu_bmsk(8, 40, MOD_CLAMP), 0xffffff00);
	CHECK_EQ_U64(alu_bmsk(8, 40, MOD_WRAP), 0x0000ff00);   /* width 40 & 31 = 8 */
	CHECK_EQ_U64(alu_bmsk(31, 1, MOD_CLAMP), 0x80000000);
}

TEST(alu_brev_clz_popc)
{
	CHECK_EQ_U64(alu_brev(PT_B32, 1), 0x80000000);
	CHECK_EQ_U64(alu_brev(PT_B32, 0x12345678), 0x1e6a2c48);
	CHECK_EQ_U64(alu_brev(PT_B32, 0xffff00000000ull), 0);     /* above the type */
	CHECK_EQ_U64(alu_brev(PT_B64, 1), 0x8000000000000000ull);
	CHECK_EQ_U64(alu_brev(PT_B64, 0x0123456789abcdefull), 0xf7b3d591e6a2c480ull);
	CHECK_EQ(alu_clz(PT_B32, 0), 32);
	CHECK_EQ(alu_clz(PT_B32, 1), 31);
	CHECK_EQ(alu_clz(PT_B32, 0x80000000), 0);
	CHECK_EQ(alu_clz(PT_B32, 0x00010000), 15);
	CHECK_EQ(alu_clz(PT_B32, 0x100000000ull), 32);
	CHECK_EQ(alu_clz(PT_B64, 0), 64);
	CHECK_EQ(alu_clz(PT_B64, 1), 63);
	CHECK_EQ(alu_clz(PT_B64, 0x8000000000000000ull), 0);
	CHECK_EQ(alu_popc(PT_B32, 0xffffffff), 32);
	CHECK_EQ(alu_popc(PT_B32, 0x12345678), 13);
	CHECK_EQ(alu_popc(PT_B32, 0xff00000000000001ull), 1);
	CHECK_EQ(alu_popc(PT_B64, ~0ull), 64);
	CHECK_EQ(alu_popc(PT_B64, 0), 0);
}

/* bfind: position of the most significant non-sign bit; .shiftamt gives
 * msb - position; nothing found is 0xffffffff either way */
TEST(alu_bfind_and_shiftamt)
{
	CHECK_EQ_U64(alu_bfind(PT_U32, 0, 0), 0xffffffff);
	CHECK_EQ_U64(alu_bfind(PT_U32, 1, 0), 0);
	CHECK_EQ_U64(alu_bfind(PT_U32, 0x80000000, 0), 31);
	CHECK_EQ_U64(alu_bfind(PT_U32, 0x00012345, 0), 16);
	CHECK_EQ_U64(alu_bfind(PT_U32, 0x80000000, MOD_SHIFTAMT), 0);
	CHECK_EQ_U64(alu_bfind(PT_U32, 1, MOD_SHIFTAMT), 31);
	CHECK_EQ_U64(alu_bfind(PT_U32, 0, MOD_SHIFTAMT), 0xffffffff);
	CHECK_EQ_U64(alu_bfind(PT_S32, 0xffffffff, 0), 0xffffffff);     /* -1: ~a = 0 */
	CHECK_EQ_U64(alu_bfind(PT_S32, 0x80000000, 0), 30);             /* ~a = 0x7fffffff */
	CHECK_EQ_U64(alu_bfind(PT_S32, 0xfffffff0, 0), 3);              /* -16: ~a = 15 */
	CHECK_EQ_U64(alu_bfind(PT_S32, 5, 0), 2);
	CHECK_EQ_U64(alu_bfind(PT_S32, 0xfffffff0, MOD_SHIFTAMT), 28);
	CHECK_EQ_U64(alu_bfind(PT_U64, 0x8000000000000000ull, 0), 63);
	CHECK_EQ_U64(alu_bfind(PT_S64, ~0ull, 0), 0xffffffff);
	CHECK_EQ_U64(alu_bfind(PT_U64, 1, MOD_SHIFTAMT), 63);
	CHECK_EQ_U64(alu_bfind(PT_S64, 0x8000000000000000ull, 0), 62);
}

/* fns: the |offset|-th set bit of mask from base, upward for offset > 0,
 * downward for < 0; offset 0 tests mask[base].  mask 0x16 = bits 1, 2, 4 */
TEST(alu_fns_per_isa)
{
	CHECK_EQ_U64(alu_fns(0x16, 0, 1), 1);
	CHECK_EQ_U64(alu_fns(0x16, 0, 2), 2);
	CHECK_EQ_U64(alu_fns(0x16, 0, 3), 4);
	CHECK_EQ_U64(alu_fns(0x16, 0, 4), 0xffffffff);
	CHECK_EQ_U64(alu_fns(0x16, 2, 1), 2);                  /* base itself counts */
	CHECK_EQ_U64(alu_fns(0x16, 4, -1), 4);
	CHECK_EQ_U64(alu_fns(0x16, 4, -2), 2);
	CHECK_EQ_U64(alu_fns(0x16, 3, -1), 2);
	CHECK_EQ_U64(alu_fns(0x16, 4, -4), 0xffffffff);
	CHECK_EQ_U64(alu_fns(0x16, 1, 0), 1);
	CHECK_EQ_U64(alu_fns(0x16, 0, 0), 0xffffffff);
	CHECK_EQ_U64(alu_fns(0xffffffff, 31, 2), 0xffffffff);
	CHECK_EQ_U64(alu_fns(0x80000001, 0, 2), 31);
	CHECK_EQ_U64(alu_fns(0x80000001, 31, -2), 0);
}

/* prmt with a = 0x44332211 (bytes 0..3 = 11 22 33 44) and b = 0x88776655
 * (bytes 4..7 = 55 66 77 88): default mode picks bytes by nibble, bit 3
 * of a nibble replicates the chosen byte's sign; the modes follow the
 * ISA's table of d.b3..d.b0 per c[1:0] */
TEST(alu_prmt_all_modes)
{
	const uint32_t a = 0x44332211, b = 0x88776655;
	CHECK_EQ_U64(alu_prmt(a, b, 0x3210, MODE_NONE), 0x44332211);
	CHECK_EQ_U64(alu_prmt(a, b, 0x7654, MODE_NONE), 0x88776655);
	CHECK_EQ_U64(alu_prmt(a, b, 0x0123, MODE_NONE), 0x11223344);
	CHECK_EQ_U64(alu_prmt(a, b, 0x5140, MODE_NONE), 0x66225511);
	CHECK_EQ_U64(alu_prmt(a, b, 0xffff3210, MODE_NONE), 0x44332211);  /* c[15:0] */
	/* sign replication: a = 0x7f80ff01, c = 0x89ab -> signs of bytes
	 * 3 (0x7f), 2 (0x80), 1 (0xff), 0 (0x01) into d.b0..d.b3 */
	CHECK_EQ_U64(alu_prmt(0x7f80ff01, 0, 0x89ab, MODE_NONE), 0x00ffff00);
	CHECK_EQ_U64(alu_prmt(0, 0x80000000, 0xf000, MODE_NONE), 0xff000000);
	/* f4e: d = bytes {sel+3, sel+2, sel+1, sel} of {b, a} */
	CHECK_EQ_U64(alu_prmt(a, b, 0, MODE_F4E), 0x44332211);
	CHECK_EQ_U64(alu_prmt(a, b, 1, MODE_F4E), 0x55443322);
	CHECK_EQ_U64(alu_prmt(a, b, 2, MODE_F4E), 0x66554433);
	CHECK_EQ_U64(alu_prmt(a, b, 3, MODE_F4E), 0x77665544);
	CHECK_EQ_U64(alu_prmt(a, b, 5, MODE_F4E), 0x55443322);             /* c[1:0] only */
	/* b4e: rows {5,6,7,0} {6,7,0,1} {7,0,1,2} {0,1,2,3} as d.b3..d.b0 */
	CHECK_EQ_U64(alu_prmt(a, b, 0, MODE_B4E), 0x66778811);
	CHECK_EQ_U64(alu_prmt(a, b, 1, MODE_B4E), 0x77881122);
	CHECK_EQ_U64(alu_prmt(a, b, 2, MODE_B4E), 0x88112233);
	CHECK_EQ_U64(alu_prmt(a, b, 3, MODE_B4E), 0x11223344);
	/* rc8: replicate byte sel */
	CHECK_EQ_U64(alu_prmt(a, b, 0, MODE_RC8), 0x11111111);
	CHECK_EQ_U64(alu_prmt(a, b, 1, MODE_RC8), 0x22222222);
	CHECK_EQ_U64(alu_prmt(a, b, 3, MODE_RC8), 0x44444444);
	/* ecl: rows {3,2,1,0} {3,2,1,1} {3,2,2,2} {3,3,3,3} */
	CHECK_EQ_U64(alu_prmt(a, b, 0, MODE_ECL), 0x44332211);
	CHECK_EQ_U64(alu_prmt(a, b, 1, MODE_ECL), 0x44332222);
	CHECK_EQ_U64(alu_prmt(a, b, 2, MODE_ECL), 0x44333333);
	CHECK_EQ_U64(alu_prmt(a, b, 3, MODE_ECL), 0x44444444);
	/* ecr: rows {0,0,0,0} {1,1,1,0} {2,2,1,0} {3,2,1,0} */
	CHECK_EQ_U64(alu_prmt(a, b, 0, MODE_ECR), 0x11111111);
	CHECK_EQ_U64(alu_prmt(a, b, 1, MODE_ECR), 0x22222211);
	CHECK_EQ_U64(alu_prmt(a, b, 2, MODE_ECR), 0x33332211);
	CHECK_EQ_U64(alu_prmt(a, b, 3, MODE_ECR), 0x44332211);
	/* rc16: rows {1,0,1,0} {3,2,3,2} {1,0,1,0} {3,2,3,2} */
	CHECK_EQ_U64(alu_prmt(a, b, 0, MODE_RC16), 0x22112211);
	CHECK_EQ_U64(alu_prmt(a, b, 1, MODE_RC16), 0x44334433);
	CHECK_EQ_U64(alu_prmt(a, b, 2, MODE_RC16), 0x22112211);
	CHECK_EQ_U64(alu_prmt(a, b, 3, MODE_RC16), 0x44334433);
}

/* lop3: result bit = immLut bit (a,b,c); with a = 0xf0, b = 0xcc,
 * c = 0xaa in every byte the result byte is immLut itself */
TEST(alu_lop3_truth_tables)
{
	const uint32_t a = 0xf0f0f0f0, b = 0xcccccccc, c = 0xaaaaaaaa;
	const uint32_t luts[] = {0x00, 0xff, 0xf0, 0xcc, 0xaa, 0x80, 0xfe, 0x96, 0xe8, 0xea,
	                         0x1e, 0x6a};
	for (unsigned i = 0; i < sizeof luts / sizeof luts[0]; i++)
		CHECK_EQ_U64(alu_lop3(a, b, c, luts[i]), luts[i] * 0x01010101u);
	/* 0xca = a ? b : c bitwise: (0x12345678 & 0x9abcdef0) | (~0x12345678 & 0x0f0f0f0f)
	 * = 0x12345670 | 0x0d0b0907 */
	CHECK_EQ_U64(alu_lop3(0x12345678, 0x9abcdef0, 0x0f0f0f0f, 0xca), 0x1f3f5f77);
	/* 0x3c = a ^ b; 0x5a = a ^ c */
	CHECK_EQ_U64(alu_lop3(0x12345678, 0x9abcdef0, 0, 0x3c), 0x88888888);
	CHECK_EQ_U64(alu_lop3(0x12345678, 0, 0xffffffff, 0x5a), 0xedcba987);
}

/* shf.l: (b << n) | (a >> (32 - n)); shf.r: (b << (32 - n)) | (a >> n);
 * .clamp: n = min(c, 32), .wrap: n = c & 31 */
TEST(alu_shf_clamp_wrap)
{
	const uint32_t a = 0x12345678, b = 0x9abcdef0;
	CHECK_EQ_U64(alu_shf(MODE_L, MOD_WRAP, a, b, 8), 0xbcdef012);
	CHECK_EQ_U64(alu_shf(MODE_R, MOD_WRAP, a, b, 8), 0xf0123456);
	CHECK_EQ_U64(alu_shf(MODE_L, MOD_CLAMP, a, b, 8), 0xbcdef012);
	CHECK_EQ_U64(alu_shf(MODE_L, MOD_CLAMP, a, b, 40), a);
	CHECK_EQ_U64(alu_shf(MODE_L, MOD_WRAP, a, b, 40), 0xbcdef012);
	CHECK_EQ_U64(alu_shf(MODE_R, MOD_CLAMP, a, b, 40), b);
	CHECK_EQ_U64(alu_shf(MODE_R, MOD_WRAP, a, b, 40), 0xf0123456);
	CHECK_EQ_U64(alu_shf(MODE_L, MOD_CLAMP, a, b, 32), a);
	CHECK_EQ_U64(alu_shf(MODE_R, MOD_CLAMP, a, b, 32), b);
	CHECK_EQ_U64(alu_shf(MODE_L, MOD_WRAP, a, b, 32), b);       /* 32 & 31 = 0 */
	CHECK_EQ_U64(alu_shf(MODE_L, MOD_CLAMP, a, b, 0), b);
	CHECK_EQ_U64(alu_shf(MODE_R, MOD_CLAMP, a, b, 0), a);
	CHECK_EQ_U64(alu_shf(MODE_R, MOD_CLAMP, a, b, 4), 0x01234567);
	CHECK_EQ_U64(alu_shf(MODE_L, MOD_CLAMP, a, b, 31), 0x091a2b3c);   /* b[0] . a[31:1] */
}

/* dp4a: c + sum of 4 byte products; dp2a: c + 2 half-word * byte products
 * (bytes 0,1 for .lo, 2,3 for .hi); result .u32 only if both are .u32 */
TEST(alu_dp4a_dp2a)
{
	/* bytes a = 4,3,2,1 (b0..b3), b = 8,7,6,5: 32 + 21 + 12 + 5 + 10 = 80 */
	CHECK_EQ_U64(alu_dp4a(PT_U32, PT_U32, 0x01020304, 0x05060708, 10), 80);
	CHECK_EQ(alu_dp4a(PT_S32, PT_S32, 0xffffffff, 0x01010101, 0), -4);
	/* 255 * -1 four times = -1020 */
	CHECK_EQ(alu_dp4a(PT_U32, PT_S32, 0xffffffff, 0xffffffff, 0), -1020);
	/* -128 * 255 four times = -130560 */
	CHECK_EQ(alu_dp4a(PT_S32, PT_U32, 0x80808080, 0xffffffff, 0), -130560);
	/* 255 * 255 * 4 = 260100 */
	CHECK_EQ_U64(alu_dp4a(PT_U32, PT_U32, 0xffffffff, 0xffffffff, 0), 260100);
	CHECK_EQ_U64(alu_dp4a(PT_U32, PT_U32, 1, 1, 0xffffffff), 0);          /* wraps */
	CHECK_EQ(alu_dp4a(PT_S32, PT_S32, 0x7f7f7f7f, 0x7f7f7f7f, 0x7fffffff),
	         (int32_t)0x8000fc03);                 /* 0x7fffffff + 4*127*127 wraps */
	/* dp2a: a halves = 1, 2; b bytes = 1, 2, 3, 4 */
	CHECK_EQ_U64(alu_dp2a(PT_U32, PT_U32, MODE_LO, 0x00020001, 0x04030201, 0), 5);
	CHECK_EQ_U64(alu_dp2a(PT_U32, PT_U32, MODE_HI, 0x00020001, 0x04030201, 0), 11);
	CHECK_EQ_U64(alu_dp2a(PT_U32, PT_U32, MODE_HI, 0x00020001, 0x04030201, 100), 111);
	/* a halves -32768, -1; b bytes -1, 2: 32768 - 2 = 32766 */
	CHECK_EQ(alu_dp2a(PT_S32, PT_S32, MODE_LO, 0xffff8000, 0x000002ff, 0), 32766);
	/* mixed: a u32 halves 65535, 65535; b s32 bytes -1 -1: -131070 */
	CHECK_EQ(alu_dp2a(PT_U32, PT_S32, MODE_LO, 0xffffffff, 0x0000ffff, 0), -131070);
}

TEST(alu_cnot)
{
	CHECK_EQ_U64(alu_cnot(PT_B32, 0), 1);
	CHECK_EQ_U64(alu_cnot(PT_B32, 5), 0);
	CHECK_EQ_U64(alu_cnot(PT_B32, 0x80000000), 0);
	CHECK_EQ_U64(alu_cnot(PT_B16, 0x10000), 1);              /* bits above the type */
	CHECK_EQ_U64(alu_cnot(PT_B64, 0x100000000ull), 0);
	CHECK_EQ_U64(alu_cnot(PT_B64, 0), 1);
}

/* ---- carry chains ------------------------------------------------------------- */

/* 128-bit add from four 32-bit limbs (low first):
 * 0x00000000_ffffffff_ffffffff_ffffffff + 1 = 0x00000001_00000000_00000000_00000000 */
TEST(alu_add_cc_128bit_chain)
{
	const uint64_t a[4] = {0xffffffff, 0xffffffff, 0xffffffff, 0};
	const uint64_t b[4] = {1, 0, 0, 0};
	const uint64_t want[4] = {0, 0, 0, 1};
	const unsigned carry[4] = {1, 1, 1, 0};
	unsigned cf = 0;
	for (int i = 0; i < 4; i++) {
		unsigned out = 9;
		CHECK_EQ_U64(alu_add_cc(a[i], b[i], cf, 32, &out), want[i]);
		CHECK_EQ(out, carry[i]);
		cf = out;
	}
	/* two 64-bit limbs: (2^64 - 1) + 1 then 0 + 0 + carry */
	unsigned c1, c2;
	CHECK_EQ_U64(alu_add_cc(~0ull, 1, 0, 64, &c1), 0);
	CHECK_EQ(c1, 1);
	CHECK_EQ_U64(alu_add_cc(0, 0, c1, 64, &c2), 1);
	CHECK_EQ(c2, 0);
	/* all ones + all ones + 1 = all ones, carry 1 */
	CHECK_EQ_U64(alu_add_cc(~0ull, ~0ull, 1, 64, &c1), ~0ull);
	CHECK_EQ(c1, 1);
	CHECK_EQ_U64(alu_add_cc(0x80000000, 0x80000000, 0, 32, &c1), 0);
	CHECK_EQ(c1, 1);
	CHECK_EQ_U64(alu_add_cc(0xffffffff, 0, 1, 32, &c1), 0);  /* carry-in alone */
	CHECK_EQ(c1, 1);
	CHECK_EQ_U64(alu_add_cc(5, 6, 1, 16, &c1), 12);
	CHECK_EQ(c1, 0);
	CHECK_EQ_U64(alu_add_cc(0x1ffffffffull, 1, 0, 32, &c1), 0);   /* bits above width */
	CHECK_EQ(c1, 1);
	CHECK_EQ_U64(alu_add_cc(0x7fffffff, 1, 0, 32, &c1), 0x80000000);  /* no carry */
	CHECK_EQ(c1, 0);
}

/* subc is d = a - (b + CC.CF) with CF a borrow:
 * 0x00000001_00000000_00000000_00000000 - 1 = 0x00000000_ffffffff_ffffffff_ffffffff */
TEST(alu_sub_cc_128bit_borrow_chain)
{
	const uint64_t a[4] = {0, 0, 0, 1};
	const uint64_t b[4] = {1, 0, 0, 0};
	const uint64_t want[4] = {0xffffffff, 0xffffffff, 0xffffffff, 0};
	const unsigned borrow[4] = {1, 1, 1, 0};
	unsigned bf = 0;
	for (int i = 0; i < 4; i++) {
		unsigned out = 9;
		CHECK_EQ_U64(alu_sub_cc(a[i], b[i], bf, 32, &out), want[i]);
		CHECK_EQ(out, borrow[i]);
		bf = out;
	}
	unsigned o;
	CHECK_EQ_U64(alu_sub_cc(0, 0, 1, 32, &o), 0xffffffff);
	CHECK_EQ(o, 1);
	CHECK_EQ_U64(alu_sub_cc(5, 5, 0, 32, &o), 0);
	CHECK_EQ(o, 0);
	CHECK_EQ_U64(alu_sub_cc(5, 5, 1, 32, &o), 0xffffffff);
	CHECK_EQ(o, 1);
	CHECK_EQ_U64(alu_sub_cc(0, 0xffffffff, 1, 32, &o), 0);   /* 0 - 2^32 */
	CHECK_EQ(o, 1);
	CHECK_EQ_U64(alu_sub_cc(7, 3, 1, 32, &o), 3);
	CHECK_EQ(o, 0);
	CHECK_EQ_U64(alu_sub_cc(0, 1, 0, 64, &o), ~0ull);
	CHECK_EQ(o, 1);
	CHECK_EQ_U64(alu_sub_cc(0, ~0ull, 1, 64, &o), 0);
	CHECK_EQ(o, 1);
	CHECK_EQ_U64(alu_sub_cc(~0ull, ~0ull, 0, 64, &o), 0);
	CHECK_EQ(o, 0);
}

/* ---- compares and set ---------------------------------------------------------- */

/* every Cmp on the bits 0xffffffff vs 1: -1 < 1 signed, 2^32-1 > 1 unsigned;
 * lo/ls/hi/hs are unsigned whatever the type */
TEST(alu_cmp_int_every_op)
{
	static const struct { Cmp c; int s, u; } t[] = {
		{CMP_EQ, 0, 0}, {CMP_NE, 1, 1}, {CMP_LT, 1, 0}, {CMP_LE, 1, 0},
		{CMP_GT, 0, 1}, {CMP_GE, 0, 1}, {CMP_LO, 0, 0}, {CMP_LS, 0, 0},
		{CMP_HI, 1, 1}, {CMP_HS, 1, 1},
	};
	for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
		CHECK_EQ(alu_cmp(t[i].c, PT_S32, 0xffffffff, 1), t[i].s);
		CHECK_EQ(alu_cmp(t[i].c, PT_U32, 0xffffffff, 1), t[i].u);
		CHECK_EQ(alu_cmp(t[i].c, PT_S64, ~0ull, 1), t[i].s);
		CHECK_EQ(alu_cmp(t[i].c, PT_U64, ~0ull, 1), t[i].u);
	}
	/* equal operands: 7 vs 7 */
	static const struct { Cmp c; int r; } e[] = {
		{CMP_EQ, 1}, {CMP_NE, 0}, {CMP_LT, 0}, {CMP_LE, 1}, {CMP_GT, 0}, {CMP_GE, 1},
		{CMP_LO, 0}, {CMP_LS, 1}, {CMP_HI, 0}, {CMP_HS, 1},
	};
	for (unsigned i = 0; i < sizeof e / sizeof e[0]; i++) {
		CHECK_EQ(alu_cmp(e[i].c, PT_S32, 7, 7), e[i].r);
		CHECK_EQ(alu_cmp(e[i].c, PT_U16, 7, 7), e[i].r);
	}
	/* width: s16 0x8000 = -32768 < 0x7fff; bits above 16 are ignored */
	CHECK_EQ(alu_cmp(CMP_LT, PT_S16, 0x8000, 0x7fff), 1);
	CHECK_EQ(alu_cmp(CMP_LT, PT_U16, 0x8000, 0x7fff), 0);
	CHECK_EQ(alu_cmp(CMP_EQ, PT_S16, 0x18000, 0x8000), 1);
	CHECK_EQ(alu_cmp(CMP_EQ, PT_B32, 0x100000005ull, 5), 1);
	CHECK_EQ(alu_cmp(CMP_LT, PT_S8, 0x80, 0x7f), 1);
	CHECK_EQ(alu_cmp(CMP_LT, PT_S64, 0x8000000000000000ull, 0), 1);
	CHECK_EQ(alu_cmp(CMP_GT, PT_U64, 0x8000000000000000ull, 0), 1);
}

/* ordered compares are false on NaN, the ...u ones true; num/nan test
 * for "neither is NaN" / "either is NaN" */
TEST(alu_cmp_float_every_op_with_nan)
{
	static const struct { Cmp c; int lt, nan, eq; } t[] = {
		/* 1 vs 2, NaN vs 1, 2 vs 2 */
		{CMP_EQ, 0, 0, 1}, {CMP_NE, 1, 0, 0}, {CMP_LT, 1, 0, 0}, {CMP_LE, 1, 0, 1},
		{CMP_GT, 0, 0, 0}, {CMP_GE, 0, 0, 1}, {CMP_EQU, 0, 1, 1}, {CMP_NEU, 1, 1, 0},
		{CMP_LTU, 1, 1, 0}, {CMP_LEU, 1, 1, 1}, {CMP_GTU, 0, 1, 0}, {CMP_GEU, 0, 1, 1},
		{CMP_NUM, 1, 0, 1}, {CMP_NAN, 0, 1, 0},
	};
	for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
		CHECK_EQ(alu_cmp(t[i].c, PT_F32, F1, F2), t[i].lt);
		CHECK_EQ(alu_cmp(t[i].c, PT_F32, FQNAN, F1), t[i].nan);
		CHECK_EQ(alu_cmp(t[i].c, PT_F32, F1, FQNAN), t[i].nan);
		CHECK_EQ(alu_cmp(t[i].c, PT_F32, F2, F2), t[i].eq);
		CHECK_EQ(alu_cmp(t[i].c, PT_F64, D1, D2), t[i].lt);
		CHECK_EQ(alu_cmp(t[i].c, PT_F64, 0x7ff8000000000000, D1), t[i].nan);
		CHECK_EQ(alu_cmp(t[i].c, PT_F16, 0x3c00, 0x4000), t[i].lt);
		CHECK_EQ(alu_cmp(t[i].c, PT_F16, 0x7e00, 0x3c00), t[i].nan);
		CHECK_EQ(alu_cmp(t[i].c, PT_BF16, 0x3f80, 0x4000), t[i].lt);
		CHECK_EQ(alu_cmp(t[i].c, PT_BF16, 0x7fc0, 0x3f80), t[i].nan);
	}
	/* -0 == +0; inf == inf; -inf < every number */
	CHECK_EQ(alu_cmp(CMP_EQ, PT_F32, FNZERO, FZERO), 1);
	CHECK_EQ(alu_cmp(CMP_LT, PT_F32, FNZERO, FZERO), 0);
	CHECK_EQ(alu_cmp(CMP_EQ, PT_F16, 0x8000, 0x0000), 1);
	CHECK_EQ(alu_cmp(CMP_EQ, PT_F32, FINF, FINF), 1);
	CHECK_EQ(alu_cmp(CMP_LT, PT_F64, DNINF, 0xffefffffffffffff), 1);
	CHECK_EQ(alu_cmp(CMP_GT, PT_BF16, 0x3f80, 0xbf80), 1);
	/* setp.ftz flushes first: 2^-149 == 0 only after alu_fflush */
	CHECK_EQ(alu_cmp(CMP_EQ, PT_F32, FSUB1, FZERO), 0);
	CHECK_EQ(alu_cmp(CMP_EQ, PT_F32, alu_fflush(PT_F32, FSUB1), FZERO), 1);
	CHECK_EQ(alu_cmp(CMP_GT, PT_F32, FSUB1, FZERO), 1);
}

/* set's destination: integer all ones (s32: -1), f32 1.0, halves 1.0 */
TEST(alu_set_encodings_and_boolop)
{
	CHECK_EQ_U64(alu_set_val(PT_U32, 1), 0xffffffff);
	CHECK_EQ_U64(alu_set_val(PT_U32, 0), 0);
	CHECK_EQ(alu_set_val(PT_S32, 1), -1);
	CHECK_EQ_U64(alu_set_val(PT_B32, 1), 0xffffffff);
	CHECK_EQ_U64(alu_set_val(PT_U16, 1), 0xffff);
	CHECK_EQ_U64(alu_set_val(PT_F32, 1), F1);
	CHECK_EQ_U64(alu_set_val(PT_F32, 0), FZERO);
	CHECK_EQ_U64(alu_set_val(PT_F16, 1), 0x3c00);
	CHECK_EQ_U64(alu_set_val(PT_BF16, 1), 0x3f80);
	CHECK_EQ_U64(alu_set_val(PT_F16X2, 1), 0x3c003c00);
	CHECK_EQ_U64(alu_set_val(PT_BF16X2, 0), 0);
	CHECK_EQ(alu_boolop(BOP_AND, 1, 0), 0);
	CHECK_EQ(alu_boolop(BOP_AND, 1, 1), 1);
	CHECK_EQ(alu_boolop(BOP_OR, 0, 1), 1);
	CHECK_EQ(alu_boolop(BOP_OR, 0, 0), 0);
	CHECK_EQ(alu_boolop(BOP_XOR, 1, 1), 0);
	CHECK_EQ(alu_boolop(BOP_XOR, 0, 1), 1);
	CHECK_EQ(alu_boolop(BOP_NONE, 1, 0), 1);
	/* set.lt.u32.f32 with NaN: false -> 0; set.ltu -> all ones */
	CHECK_EQ_U64(alu_set_val(PT_U32, alu_cmp(CMP_LT, PT_F32, FQNAN, F1)), 0);
	CHECK_EQ_U64(alu_set_val(PT_F32, alu_cmp(CMP_LTU, PT_F32, FQNAN, F1)), F1);
}

/* ---- atomics --------------------------------------------------------------------- */

TEST(alu_atom_add_int_and_float)
{
	CHECK_EQ_U64(alu_atom(AOP_ADD, PT_U32, 0xffffffff, 2, 0), 1);          /* wraps */
	CHECK_EQ(alu_atom(AOP_ADD, PT_S32, 0xffffffff, 1, 0), 0);
	CHECK_EQ_U64(alu_atom(AOP_ADD, PT_U64, ~0ull, 1, 0), 0);
	/* f32: round to nearest even (1 + 2^-24 -> 1.0), 1.5 + 2.25 = 3.75 */
	CHECK_EQ_U64(alu_atom(AOP_ADD, PT_F32, F1, 0x33800000, 0), F1);
	CHECK_EQ_U64(alu_atom(AOP_ADD, PT_F32, 0x3fc00000, 0x40100000, 0), 0x40700000);
	/* f32 atomics flush subnormals (FADD.FTZ.RN); f64 keeps them */
	CHECK_EQ_U64(alu_atom(AOP_ADD, PT_F32, FSUB1, FZERO, 0), FZERO);
	CHECK_EQ_U64(alu_atom(AOP_ADD, PT_F64, 1, 0, 0), 1);
	/* f64: 0.1 + 0.2 = 0.30000000000000004 */
	CHECK_EQ_U64(alu_atom(AOP_ADD, PT_F64, 0x3fb999999999999a, 0x3fc999999999999a, 0),
	             0x3fd3333333333334);
	CHECK_EQ_U64(alu_atom(AOP_ADD, PT_F64, D1, 0x3ca0000000000000, 0), D1);
	/* halves: f16x2 {1 + 1, 2 + 1}, bf16 1 + 1 */
	CHECK_EQ_U64(alu_atom(AOP_ADD, PT_F16X2, 0x40003c00, 0x3c003c00, 0), 0x42004000);
	CHECK_EQ_U64(alu_atom(AOP_ADD, PT_F16, 0x3c00, 0x3c00, 0), 0x4000);
	CHECK_EQ_U64(alu_atom(AOP_ADD, PT_BF16, 0x3f80, 0x3f80, 0), 0x4000);
}

/* inc: old >= b ? 0 : old + 1;  dec: (old == 0 || old > b) ? b : old - 1 */
TEST(alu_atom_inc_dec_wrap)
{
	CHECK_EQ_U64(alu_atom(AOP_INC, PT_U32, 4, 5, 0), 5);
	CHECK_EQ_U64(alu_atom(AOP_INC, PT_U32, 5, 5, 0), 0);
	CHECK_EQ_U64(alu_atom(AOP_INC, PT_U32, 6, 5, 0), 0);
	CHECK_EQ_U64(alu_atom(AOP_INC, PT_U32, 0xffffffff, 0xffffffff, 0), 0);
	CHECK_EQ_U64(alu_atom(AOP_INC, PT_U32, 0xfffffffe, 0xffffffff, 0), 0xffffffff);
	CHECK_EQ_U64(alu_atom(AOP_INC, PT_U32, 0, 0, 0), 0);
	CHECK_EQ_U64(alu_atom(AOP_DEC, PT_U32, 0, 5, 0), 5);
	CHECK_EQ_U64(alu_atom(AOP_DEC, PT_U32, 3, 5, 0), 2);
	CHECK_EQ_U64(alu_atom(AOP_DEC, PT_U32, 5, 5, 0), 4);
	CHECK_EQ_U64(alu_atom(AOP_DEC, PT_U32, 7, 5, 0), 5);
	CHECK_EQ_U64(alu_atom(AOP_DEC, PT_U32, 0, 0, 0), 0);
	CHECK_EQ_U64(alu_atom(AOP_DEC, PT_U32, 1, 0, 0), 0);
}

TEST(alu_atom_minmax_cas_exch_logic)
{
	CHECK_EQ(alu_atom(AOP_MIN, PT_S32, 0xffffffff, 1, 0), -1);
	CHECK_EQ_U64(alu_atom(AOP_MIN, PT_U32, 0xffffffff, 1, 0), 1);
	CHECK_EQ(alu_atom(AOP_MAX, PT_S32, 0xffffffff, 1, 0), 1);
	CHECK_EQ_U64(alu_atom(AOP_MAX, PT_U32, 0xffffffff, 1, 0), 0xffffffff);
	CHECK_EQ(alu_atom(AOP_MIN, PT_S64, 0x8000000000000000ull, 0, 0), INT64_MIN);
	CHECK_EQ_U64(alu_atom(AOP_MIN, PT_U64, 0x8000000000000000ull, 0, 0), 0);
	/* cas: store c when old == b */
	CHECK_EQ_U64(alu_atom(AOP_CAS, PT_B32, 5, 5, 9), 9);
	CHECK_EQ_U64(alu_atom(AOP_CAS, PT_B32, 5, 6, 9), 5);
	CHECK_EQ_U64(alu_atom(AOP_CAS, PT_B32, 0x100000005ull, 5, 9), 9);   /* width only */
	CHECK_EQ_U64(alu_atom(AOP_CAS, PT_B64, 0x100000005ull, 5, 9), 0x100000005ull);
	CHECK_EQ_U64(alu_atom(AOP_CAS, PT_B16, 0xffff, 0xffff, 0x1234), 0x1234);
	CHECK_EQ_U64(alu_atom(AOP_EXCH, PT_B32, 5, 9, 0), 9);
	CHECK_EQ_U64(alu_atom(AOP_EXCH, PT_B64, 5, ~0ull, 0), ~0ull);
	CHECK_EQ_U64(alu_atom(AOP_AND, PT_B32, 0xff00ff00, 0x0ff00ff0, 0), 0x0f000f00);
	CHECK_EQ_U64(alu_atom(AOP_OR, PT_B32, 0xff00ff00, 0x0ff00ff0, 0), 0xfff0fff0);
	CHECK_EQ_U64(alu_atom(AOP_XOR, PT_B32, 0xff00ff00, 0x0ff00ff0, 0), 0xf0f0f0f0);
	/* bar.red.popc counts the non-zero contributions */
	CHECK_EQ_U64(alu_atom(AOP_POPC, PT_U32, 3, 0x80, 0), 4);
	CHECK_EQ_U64(alu_atom(AOP_POPC, PT_U32, 3, 0, 0), 3);
}

/* regression: cvt.ftz.f16.f32 does not flush a subnormal f32 input on
 * NVIDIA hardware (ZLUDA's GPU-checked errata), so .rp still rounds
 * 2^-149 up to the smallest f16 subnormal; toward bf16 and f64 .ftz
 * flushes the input as the ISA says */
TEST(alu_cvt_ftz_f16_from_f32_keeps_subnormal_input)
{
	CHECK_EQ_U64(alu_cvt(FSUB1, PT_F16, PT_F32, RND_RP, 0), 0x0001);
	CHECK_EQ_U64(alu_cvt(FSUB1, PT_F16, PT_F32, RND_RP, MOD_FTZ), 0x0001);
	CHECK_EQ_U64(alu_cvt(0x80000001, PT_F16, PT_F32, RND_RM, MOD_FTZ), 0x8001);
	CHECK_EQ_U64(alu_cvt(FSUB1, PT_F16, PT_F32, RND_RN, MOD_FTZ), 0x0000);
	/* bf16: min subnormal 2^-133 (0x0001); the flushed input gives +0 */
	CHECK_EQ_U64(alu_cvt(FSUB1, PT_BF16, PT_F32, RND_RP, 0), 0x0001);
	CHECK_EQ_U64(alu_cvt(FSUB1, PT_BF16, PT_F32, RND_RP, MOD_FTZ), 0x0000);
}

/* regression: neg/abs of a half NaN used to return the input unchanged;
 * the documented choice is the IEEE sign-bit operation */
TEST(alu_half_nan_neg_flips_sign_bit)
{
	CHECK_EQ_U64(alu_fneg(PT_F16, 0x7e00, 0), 0xfe00);
	CHECK_EQ_U64(alu_fneg(PT_BF16, 0xffc0, 0), 0x7fc0);
	CHECK_EQ_U64(alu_fabs(PT_F16X2, 0xfe01bc00, 0), 0x7e013c00);
}

/* the plain f32 min/max path agrees with the general one */
TEST(alu_fminmax_f32_plain_path)
{
	CHECK_EQ_U64(alu_fmax(PT_F32, 0xffffffff00000000ull | FM1, F1, 0), F1);
	CHECK_EQ_U64(alu_fmin(PT_F32, FINF, FMAX, 0), FMAX);
	CHECK_EQ_U64(alu_fmax(PT_F32, FNZERO, FNZERO, 0), FNZERO);
	CHECK_EQ_U64(alu_fmin(PT_F32, FSUB1, 0x80000001, 0), 0x80000001);
	CHECK_EQ_U64(alu_fmax(PT_F32, FSUB1, 0x80000001, 0), FSUB1);
}
