/* test_alu_cvt.c -- conversion (cvt) tests of the ALU (see alu_test.h). */
#include "alu_test.h"

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
