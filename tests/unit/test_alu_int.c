/* test_alu_int.c -- integer, bit, compare and atomic ALU tests (see alu_test.h). */
#include "alu_test.h"

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

/* alu_sub_cc works with a borrow (eval.c turns it into the hardware's
 * carry flag, tests/sem/int_carry.ptx):
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
