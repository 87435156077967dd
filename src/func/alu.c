/*
 * alu.c -- integer, bit-manipulation, compare and atomic-combine semantics
 * of PTX, one lane at a time (the floating-point half is alufp.c).
 *
 * Source: PTX ISA 9.x, sections 9.7.1 (integer arithmetic), 9.7.2
 * (extended precision: add.cc/addc/sub.cc/subc/mad.cc/madc), 9.7.7 (logic
 * and shift), 9.7.8 (setp/set/selp), 9.7.9.7 (prmt) and 9.7.13 (atom/red),
 * whose "Semantics" pseudo-code each function transcribes; the closed forms
 * used instead of the manual's bit loops (bfe, bfi) are argued beside them.
 *
 * Where the ISA leaves a result unspecified, rfsim returns what NVIDIA
 * hardware returns:
 *   - Integer division by zero: "yields an unspecified, machine-specific
 *     value" (ISA 9.7.1.8).  Every integer quotient and remainder by zero
 *     has all bits set, signed or unsigned, any width (0xffffffff for
 *     u32 x/0 and x%0, -1 for s32).  This is what the SASS sequence ptxas
 *     emits for div/rem ends with (`@!P LOP3.LUT r, RZ, b, RZ, 0x33`,
 *     i.e. r = ~b = ~0 when b == 0), and what NVIDIA's engineers report
 *     measuring (NVIDIA forums / StackOverflow q. 12965050: "integer
 *     division operators on NVIDIA GPUs return a result with all bits set
 *     to 1 ... the same applies to a modulo operator").  Note this is NOT
 *     the "x % 0 = x" of some CPUs.  64-bit division is a ptxas subroutine
 *     with the same final fix-up; rfsim assumes the same all-ones result.
 *   - INT_MIN / -1 = INT_MIN and INT_MIN % -1 = 0 (the quotient of the
 *     magnitudes, 2^(n-1), negated modulo 2^n); abs(INT_MIN) = INT_MIN
 *     and neg(INT_MIN) = INT_MIN (two's complement wrap, as ISA 9.7.1.9
 *     and 9.7.1.10 compute d = |a|, d = -a in n bits).
 *   - Shifts: "shift amounts greater than the register width N are
 *     clamped to N": shl gives 0, shr.u 0, shr.s the sign fill.
 *   - mul24.hi / mad24.hi return bits 47..16 of the 48-bit product of the
 *     low 24 bits of each operand (sign-extended for .s32), ISA 9.7.1.5.
 *   - add.cc/sub.cc: CC.CF is one carry flag, as the hardware keeps it.
 *     A subtraction computes a + ~b + 1 (subc: a + ~b + CF), so the flag it
 *     leaves is the carry out, 1 when nothing was borrowed.  The ISA writes
 *     subc as d = a - (b + CC.CF) "with borrow-in", which gives the same
 *     results along a chain of subtractions, but not where a chain mixes
 *     the two: CUDA's own 128-bit division (nvcc's code for unsigned
 *     __int128 / and %) ends a subc.cc chain with addc.u32 r, 0, 0 and
 *     takes r == 1 to mean "no borrow", and is wrong under a borrow flag
 *     (tests/cudart/int128.cu).  alu_sub_cc in alu.h works with a borrow;
 *     eval.c inverts it at the flag.  madc is alu_mul then alu_add_cc.
 *   - atom.inc/dec wrap as ISA 9.7.13.4 defines them:
 *     inc: old >= b ? 0 : old + 1;  dec: (old == 0 || old > b) ? b : old - 1.
 *     atom.add.f32 rounds to nearest even and flushes subnormal inputs and
 *     results: the global-memory form (ISA atom: "atom.add.f32 on global
 *     memory flushes subnormal inputs and results ... whereas atom.add.f32
 *     on shared memory supports subnormal inputs and results"); exec.c
 *     calls alu_fadd without .ftz for the shared form.  Half and bf16 adds
 *     are .noftz.
 *     AOP_POPC (bar.red.popc) counts: old + (b != 0).
 */
#include "func/alu.h"

static uint64_t mask_of(int w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

static int64_t sext(uint64_t v, int w)
{
	return w >= 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
}

static uint64_t zext(uint64_t v, int w) { return v & mask_of(w); }

static int64_t clamp_s32(int64_t v)
{
	return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
}

static int is_ftype(PtxType t)
{
	return t == PT_F16 || t == PT_BF16 || t == PT_F32 || t == PT_F64 || t == PT_TF32 ||
	       t == PT_F16X2 || t == PT_BF16X2;
}

/* ---- add, sub, mul, mad ------------------------------------------------ */

/* .u16x2 / .s16x2 (sm_90): op on each half word, in s16 or u16 */
static uint64_t halves(PtxType t, uint64_t a, uint64_t b, uint32_t mods,
                       uint64_t (*op)(PtxType, uint64_t, uint64_t, uint32_t))
{
	PtxType e = t == PT_S16X2 ? PT_S16 : PT_U16;
	uint64_t lo = op(e, a & 0xffff, b & 0xffff, mods) & 0xffff;
	uint64_t hi = op(e, a >> 16 & 0xffff, b >> 16 & 0xffff, mods) & 0xffff;
	return lo | hi << 16;
}

uint64_t alu_iadd(PtxType t, uint64_t a, uint64_t b, uint32_t mods)
{
	if (t == PT_U16X2 || t == PT_S16X2) return halves(t, a, b, mods, alu_iadd);
	if ((mods & MOD_SAT) && t == PT_S32)
		return alu_norm(t, (uint64_t)clamp_s32((int64_t)(int32_t)a + (int32_t)b));
	return alu_norm(t, a + b);
}

uint64_t alu_isub(PtxType t, uint64_t a, uint64_t b, uint32_t mods)
{
	if ((mods & MOD_SAT) && t == PT_S32)
		return alu_norm(t, (uint64_t)clamp_s32((int64_t)(int32_t)a - (int32_t)b));
	return alu_norm(t, a - b);
}

/* the type of a .wide result */
static PtxType wide_of(PtxType t)
{
	switch (alu_width(t)) {
	case 16: return alu_is_signed(t) ? PT_S32 : PT_U32;
	case 32: return alu_is_signed(t) ? PT_S64 : PT_U64;
	default: return t;      /* mul.wide.64 is not PTX: keep the low half */
	}
}

uint64_t alu_mul(PtxType t, Mode m, uint64_t a, uint64_t b)
{
	int w = alu_width(t), sg = alu_is_signed(t);
	if (w >= 64) {
		if (m != MODE_HI) return a * b;
		if (sg) {
			__extension__ __int128 p = (__int128)(int64_t)a * (int64_t)b;
			return (uint64_t)(p >> 64);
		}
		__extension__ unsigned __int128 p = (unsigned __int128)a * b;
		return (uint64_t)(p >> 64);
	}
	/* n <= 32: the exact 2n-bit product fits in 64 bits */
	uint64_t p = sg ? (uint64_t)(sext(a, w) * sext(b, w)) : zext(a, w) * zext(b, w);
	if (m == MODE_HI) return alu_norm(t, sg ? (uint64_t)((int64_t)p >> w) : p >> w);
	if (m == MODE_WIDE) return alu_norm(wide_of(t), p);
	return alu_norm(t, p);
}

uint64_t alu_mad(PtxType t, Mode m, uint64_t a, uint64_t b, uint64_t c, uint32_t mods)
{
	if (m == MODE_WIDE) {
		PtxType wt = wide_of(t);
		return alu_norm(wt, alu_mul(t, m, a, b) + c);
	}
	uint64_t p = alu_mul(t, m, a, b);
	if (m == MODE_HI && (mods & MOD_SAT) && t == PT_S32)
		return alu_norm(t, (uint64_t)clamp_s32((int64_t)(int32_t)p + (int32_t)c));
	return alu_norm(t, p + c);
}

/* 48-bit product of the low 24 bits of a and b, as a 64-bit integer */
static int64_t mul24_prod(PtxType t, uint64_t a, uint64_t b)
{
	if (alu_is_signed(t)) return sext(a, 24) * sext(b, 24);
	return (int64_t)(zext(a, 24) * zext(b, 24));
}

uint64_t alu_mul24(PtxType t, Mode m, uint64_t a, uint64_t b)
{
	int64_t p = mul24_prod(t, a, b);
	return alu_norm(t, m == MODE_HI ? (uint64_t)(p >> 16) : (uint64_t)p);
}

uint64_t alu_mad24(PtxType t, Mode m, uint64_t a, uint64_t b, uint64_t c, uint32_t mods)
{
	uint64_t p = alu_mul24(t, m, a, b);
	if (m == MODE_HI && (mods & MOD_SAT) && t == PT_S32)
		return alu_norm(t, (uint64_t)clamp_s32((int64_t)(int32_t)p + (int32_t)c));
	return alu_norm(t, p + c);
}

uint64_t alu_sad(PtxType t, uint64_t a, uint64_t b, uint64_t c)
{
	int w = alu_width(t);
	int lt = alu_is_signed(t) ? sext(a, w) < sext(b, w) : zext(a, w) < zext(b, w);
	return alu_norm(t, c + (lt ? b - a : a - b));
}

/* ---- div, rem, abs, neg, min, max -------------------------------------- */

uint64_t alu_div(PtxType t, uint64_t a, uint64_t b)
{
	int w = alu_width(t);
	if (zext(b, w) == 0) return alu_norm(t, ~0ull);
	if (!alu_is_signed(t)) return zext(a, w) / zext(b, w);
	int64_t x = sext(a, w), y = sext(b, w);
	if (w == 64 && x == INT64_MIN && y == -1) return (uint64_t)INT64_MIN;
	return alu_norm(t, (uint64_t)(x / y));    /* n < 64: MIN/-1 = 2^(n-1) wraps */
}

uint64_t alu_rem(PtxType t, uint64_t a, uint64_t b)
{
	int w = alu_width(t);
	if (zext(b, w) == 0) return alu_norm(t, ~0ull);
	if (!alu_is_signed(t)) return zext(a, w) % zext(b, w);
	int64_t x = sext(a, w), y = sext(b, w);
	if (y == -1) return 0;                    /* also INT64_MIN % -1 */
	return alu_norm(t, (uint64_t)(x % y));
}

uint64_t alu_iabs(PtxType t, uint64_t a)
{
	int64_t x = sext(a, alu_width(t));
	return alu_norm(t, x < 0 ? 0 - (uint64_t)x : (uint64_t)x);
}

uint64_t alu_ineg(PtxType t, uint64_t a) { return alu_norm(t, 0 - a); }

static int ilt(PtxType t, uint64_t a, uint64_t b)
{
	int w = alu_width(t);
	return alu_is_signed(t) ? sext(a, w) < sext(b, w) : zext(a, w) < zext(b, w);
}

static uint64_t relu(PtxType t, uint64_t v, uint32_t mods)
{
	if ((mods & MOD_RELU) && alu_is_signed(t) && (int64_t)v < 0) return 0;
	return v;
}

uint64_t alu_imin(PtxType t, uint64_t a, uint64_t b, uint32_t mods)
{
	if (t == PT_U16X2 || t == PT_S16X2) return halves(t, a, b, mods, alu_imin);
	return relu(t, alu_norm(t, ilt(t, b, a) ? b : a), mods);
}

uint64_t alu_imax(PtxType t, uint64_t a, uint64_t b, uint32_t mods)
{
	if (t == PT_U16X2 || t == PT_S16X2) return halves(t, a, b, mods, alu_imax);
	return relu(t, alu_norm(t, ilt(t, a, b) ? b : a), mods);
}

/* ---- shifts and bit fields --------------------------------------------- */

uint64_t alu_shl(PtxType t, uint64_t a, uint32_t n)
{
	return n >= (uint32_t)alu_width(t) ? 0 : alu_norm(t, a << n);
}

uint64_t alu_shr(PtxType t, uint64_t a, uint32_t n)
{
	int w = alu_width(t);
	if (alu_is_signed(t))
		return alu_norm(t, (uint64_t)(sext(a, w) >> (n >= (uint32_t)w ? w - 1 : (int)n)));
	return n >= (uint32_t)w ? 0 : zext(a, w) >> n;
}

uint32_t alu_shf(Mode dir, uint32_t mods, uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t n = (mods & MOD_WRAP) ? c & 31 : (c > 32 ? 32 : c);
	uint64_t v = (uint64_t)b << 32 | a;       /* b holds bits 63:32 */
	return dir == MODE_L ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n);
}

/* The manual's loop sets d[i] = a[pos+i] for i < len with pos+i <= msb,
 * and sbit elsewhere, sbit = a[min(pos+len-1, msb)] for signed types and
 * len > 0, else 0.  Closed form: the n = min(len, w-pos) extracted bits
 * (none when pos > msb), then sbit above them. */
uint64_t alu_bfe(PtxType t, uint64_t a, uint32_t pos, uint32_t len)
{
	int w = alu_width(t);
	uint64_t x = zext(a, w);
	pos &= 0xff; len &= 0xff;
	if (len == 0) return 0;
	uint32_t top = pos + len - 1 < (uint32_t)w - 1 ? pos + len - 1 : (uint32_t)w - 1;
	int sbit = alu_is_signed(t) ? (int)(x >> top & 1) : 0;
	uint32_t n = pos >= (uint32_t)w ? 0 : (len < w - pos ? len : w - pos);
	uint64_t d = n ? (x >> pos) & mask_of((int)n) : 0;
	if (sbit) d |= ~mask_of((int)n);
	return alu_norm(t, d);
}

/* bfi: f = b, then f[pos+i] = a[i] for i < len and pos+i <= msb */
uint64_t alu_bfi(PtxType t, uint64_t a, uint64_t b, uint32_t pos, uint32_t len)
{
	int w = alu_width(t);
	pos &= 0xff; len &= 0xff;
	if (len == 0 || pos >= (uint32_t)w) return alu_norm(t, b);
	uint32_t n = len < w - pos ? len : w - pos;
	uint64_t m = mask_of((int)n) << pos;
	return alu_norm(t, (b & ~m) | ((a << pos) & m));
}

uint32_t alu_bmsk(uint32_t a, uint32_t b, uint32_t mods)
{
	uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
	uint32_t mask0 = ~0u << a1, mask1 = sum < 32 ? ~0u << sum : 0;
	int over = sum >= 32;
	if (mods & MOD_CLAMP) {
		if (a >= 32) { over = 1; mask0 = 0; }
		if (b >= 32) over = 1;
	}
	if (over) mask1 = 0;
	else if (b1 == 0) mask1 = ~0u;
	return mask0 & ~mask1;
}

uint64_t alu_brev(PtxType t, uint64_t a)
{
	int w = alu_width(t);
	uint64_t r = 0;
	for (int i = 0; i < w; i++) r |= (a >> i & 1) << (w - 1 - i);
	return r;
}

uint32_t alu_clz(PtxType t, uint64_t a)
{
	int w = alu_width(t);
	uint64_t x = zext(a, w);
	return x ? (uint32_t)(__builtin_clzll(x) - (64 - w)) : (uint32_t)w;
}

uint32_t alu_popc(PtxType t, uint64_t a)
{
	return (uint32_t)__builtin_popcountll(zext(a, alu_width(t)));
}

uint32_t alu_bfind(PtxType t, uint64_t a, uint32_t mods)
{
	int w = alu_width(t);
	uint64_t x = zext(a, w);
	if (alu_is_signed(t) && (x >> (w - 1) & 1)) x = zext(~x, w);
	if (x == 0) return 0xffffffffu;
	uint32_t d = 63 - (uint32_t)__builtin_clzll(x);
	return (mods & MOD_SHIFTAMT) ? (uint32_t)(w - 1) - d : d;
}

uint32_t alu_fns(uint32_t mask, uint32_t base, int32_t offset)
{
	if (offset == 0) return base < 32 && (mask >> base & 1) ? base : 0xffffffffu;
	int64_t count = (offset > 0 ? (int64_t)offset : -(int64_t)offset) - 1;
	int inc = offset > 0 ? 1 : -1;
	for (int64_t pos = base; pos >= 0 && pos < 32; pos += inc) {
		if (!(mask >> pos & 1)) continue;
		if (count == 0) return (uint32_t)pos;
		count--;
	}
	return 0xffffffffu;
}

/* prmt's specialised modes: source byte of d.b0..d.b3 per selector c[1:0]
 * (ISA 9.7.9.7, table "prmt modes"); rows F4E, B4E, RC8, ECL, ECR, RC16 */
static const uint8_t prmt_sel[6][4][4] = {
	{{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
	{{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
	{{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
	{{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
	{{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
	{{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
};

uint32_t alu_prmt(uint32_t a, uint32_t b, uint32_t c, Mode m)
{
	uint64_t src = (uint64_t)b << 32 | a;
	uint32_t d = 0;
	for (int i = 0; i < 4; i++) {
		uint32_t byte;
		if (m >= MODE_F4E && m <= MODE_RC16) {
			byte = (uint32_t)(src >> (8 * prmt_sel[m - MODE_F4E][c & 3][i])) & 0xff;
		} else {
			uint32_t sel = c >> (4 * i) & 0xf;
			byte = (uint32_t)(src >> (8 * (sel & 7))) & 0xff;
			if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;   /* replicate the sign */
		}
		d |= byte << (8 * i);
	}
	return d;
}

uint64_t alu_cnot(PtxType t, uint64_t a) { return zext(a, alu_width(t)) == 0; }

/* byte (or half-word) i of v, sign- or zero-extended by t */
static int64_t lane(PtxType t, uint32_t v, int bits, int i)
{
	uint64_t x = v >> (bits * i);
	return alu_is_signed(t) ? sext(x, bits) : (int64_t)zext(x, bits);
}

/* c is .u32 when both inputs are, else .s32; so is d */
static uint64_t dp_result(PtxType ta, PtxType tb, int64_t sum)
{
	int sg = alu_is_signed(ta) || alu_is_signed(tb);
	return alu_norm(sg ? PT_S32 : PT_U32, (uint64_t)sum);
}

uint64_t alu_dp4a(PtxType ta, PtxType tb, uint32_t a, uint32_t b, uint32_t c)
{
	int sg = alu_is_signed(ta) || alu_is_signed(tb);
	int64_t d = sg ? (int64_t)(int32_t)c : (int64_t)c;
	for (int i = 0; i < 4; i++) d += lane(ta, a, 8, i) * lane(tb, b, 8, i);
	return dp_result(ta, tb, d);
}

uint64_t alu_dp2a(PtxType ta, PtxType tb, Mode m, uint32_t a, uint32_t b, uint32_t c)
{
	int sg = alu_is_signed(ta) || alu_is_signed(tb), sel = m == MODE_HI ? 2 : 0;
	int64_t d = sg ? (int64_t)(int32_t)c : (int64_t)c;
	for (int i = 0; i < 2; i++) d += lane(ta, a, 16, i) * lane(tb, b, 8, sel + i);
	return dp_result(ta, tb, d);
}

/* ---- comparison -------------------------------------------------------- */

/* the value of a float operand, exactly, as a double */
static double fval(PtxType t, uint64_t a)
{
	switch (t) {
	case PT_F32: case PT_TF32: return alu_f32(a);
	case PT_F64: return alu_f64(a);
	case PT_BF16: case PT_BF16X2: return alu_f32((a & 0xffff) << 16);
	default: return alu_f64(alu_cvt(a, PT_F64, PT_F16, RND_NONE, 0));
	}
}

static int fcmp(Cmp c, double x, double y)
{
	int un = x != x || y != y;
	switch (c) {
	case CMP_EQ: return !un && x == y;
	case CMP_NE: return !un && x != y;
	case CMP_LT: case CMP_LO: return !un && x < y;
	case CMP_LE: case CMP_LS: return !un && x <= y;
	case CMP_GT: case CMP_HI: return !un && x > y;
	case CMP_GE: case CMP_HS: return !un && x >= y;
	case CMP_EQU: return un || x == y;
	case CMP_NEU: return un || x != y;
	case CMP_LTU: return un || x < y;
	case CMP_LEU: return un || x <= y;
	case CMP_GTU: return un || x > y;
	case CMP_GEU: return un || x >= y;
	case CMP_NUM: return !un;
	case CMP_NAN: return un;
	case CMP_NONE: case NCMP: return 0;
	}
	return 0;
}

int alu_cmp(Cmp c, PtxType t, uint64_t a, uint64_t b)
{
	if (is_ftype(t)) return fcmp(c, fval(t, a), fval(t, b));
	int w = alu_width(t);
	uint64_t ua = zext(a, w), ub = zext(b, w);
	int eq = ua == ub, lt = ilt(t, a, b);
	switch (c) {
	case CMP_EQ: case CMP_EQU: return eq;
	case CMP_NE: case CMP_NEU: return !eq;
	case CMP_LT: case CMP_LTU: return lt;
	case CMP_LE: case CMP_LEU: return lt || eq;
	case CMP_GT: case CMP_GTU: return !lt && !eq;
	case CMP_GE: case CMP_GEU: return !lt;
	case CMP_LO: return ua < ub;
	case CMP_LS: return ua <= ub;
	case CMP_HI: return ua > ub;
	case CMP_HS: return ua >= ub;
	case CMP_NUM: return 1;
	case CMP_NAN: return 0;
	case CMP_NONE: case NCMP: return 0;
	}
	return 0;
}

uint64_t alu_set_val(PtxType dst, int v)
{
	if (!v) return 0;
	switch (dst) {
	case PT_F32: return 0x3f800000u;
	case PT_F16: return 0x3c00u;
	case PT_BF16: return 0x3f80u;
	case PT_F16X2: return 0x3c003c00u;
	case PT_BF16X2: return 0x3f803f80u;
	case PT_F64: return 0x3ff0000000000000ull;
	default: return alu_norm(dst, ~0ull);
	}
}

/* ---- atomics ------------------------------------------------------------ */

uint64_t alu_atom(AtomOp op, PtxType t, uint64_t old, uint64_t b, uint64_t c)
{
	int w = alu_width(t);
	uint64_t o = zext(old, w), v = zext(b, w);
	switch (op) {
	case AOP_AND: return alu_norm(t, o & v);
	case AOP_OR: return alu_norm(t, o | v);
	case AOP_XOR: return alu_norm(t, o ^ v);
	case AOP_EXCH: return alu_norm(t, v);
	case AOP_CAS: return alu_norm(t, o == v ? c : o);
	case AOP_ADD:
		if (is_ftype(t)) return alu_fadd(t, o, v, RND_RN, t == PT_F32 ? MOD_FTZ : 0);
		return alu_norm(t, o + v);
	case AOP_INC: return o >= v ? 0 : alu_norm(t, o + 1);
	case AOP_DEC: return (o == 0 || o > v) ? alu_norm(t, v) : alu_norm(t, o - 1);
	case AOP_MIN:
		return is_ftype(t) ? alu_fmin(t, o, v, 0) : alu_imin(t, o, v, 0);
	case AOP_MAX:
		return is_ftype(t) ? alu_fmax(t, o, v, 0) : alu_imax(t, o, v, 0);
	case AOP_POPC: return alu_norm(t, o + (v != 0));
	case AOP_NONE: case NATOMOP: return alu_norm(t, o);
	}
	return alu_norm(t, o);
}

/* one lane of width w bits at bit k, sign-extended when sgn */
static int64_t vlane(uint32_t x, int k, int w, int sgn)
{
	uint32_t v = (x >> k) & ((1u << w) - 1);
	return sgn && (v >> (w - 1)) ? (int64_t)v - ((int64_t)1 << w) : (int64_t)v;
}

uint32_t alu_video(Op op, PtxType td, PtxType ta, uint32_t mods, int acc, uint32_t a,
                   uint32_t b, uint32_t c)
{
	int four = op == OP_VADD4 || op == OP_VSUB4 || op == OP_VAVRG4 || op == OP_VABSDIFF4 ||
	           op == OP_VMIN4 || op == OP_VMAX4;
	int w = four ? 8 : 16, ds = td == PT_S32;
	uint32_t m = (1u << w) - 1, r = acc ? c : 0;
	for (int k = 0; k < 32; k += w) {
		int64_t x = vlane(a, k, w, ta == PT_S32), y = vlane(b, k, w, (mods & MOD_VB_S32) != 0);
		int64_t v = 0;
		switch (op) {
		case OP_VADD2: case OP_VADD4: v = x + y; break;
		case OP_VSUB2: case OP_VSUB4: v = x - y; break;
		case OP_VAVRG2: case OP_VAVRG4: v = (x + y + 1) >> 1; break;
		case OP_VABSDIFF2: case OP_VABSDIFF4: v = x > y ? x - y : y - x; break;
		case OP_VMIN2: case OP_VMIN4: v = x < y ? x : y; break;
		case OP_VMAX2: case OP_VMAX4: v = x > y ? x : y; break;
		default: break;
		}
		if (acc) {                    /* .add: the lanes' results summed into c */
			r += (uint32_t)v;
			continue;
		}
		if (mods & MOD_SAT) {         /* clamp to the destination lane's range */
			int64_t lo = ds ? -((int64_t)1 << (w - 1)) : 0;
			int64_t hi = ds ? ((int64_t)1 << (w - 1)) - 1 : (int64_t)m;
			v = v < lo ? lo : v > hi ? hi : v;
		}
		r |= ((uint32_t)v & m) << k;
	}
	return r;
}
