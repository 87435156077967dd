/* test_alu_fp.c -- floating-point half of the ALU tests (see alu_test.h). */
#include "alu_test.h"

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
