/*
 * alu_test.h -- shared by test_alu_fp.c and test_alu_int.c: the scalar PTX
 * semantics of src/func/alu.h, pinned by
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
#ifndef RFSIM_ALU_TEST_H
#define RFSIM_ALU_TEST_H

#include <math.h>
#include <stdint.h>

#include "func/alu.h"
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

static const Rnd RNDS[4] __attribute__((unused)) = {RND_RN, RND_RZ, RND_RM, RND_RP};

/* distance in ulps between two f32 encodings of the same sign */
static inline uint64_t ulps32(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

static inline int is_nan32(uint64_t a) { return (a & 0x7f800000u) == 0x7f800000u && (a & 0x7fffffu); }
static inline int is_nan64(uint64_t a)
{
	return (a & DINF) == DINF && (a & 0x000fffffffffffffull);
}

#endif
