/*
 * mma.c -- the geometry of wmma fragments (PTX ISA 9.7.14.4.1, "Matrix
 * fragments for WMMA"): which matrix a fragment holds, its element size in
 * memory, and how many registers of what width a thread holds it in; and
 * of mma.sync's fragments (9.7.14.5.x, "Matrix fragments for mma.m*n*k*"),
 * whose element-to-lane mapping the ISA specifies and mma_sync_elem gives.
 *
 * The tables of the ISA give, per shape and type, the registers per
 * thread: .f16 a and b are always eight .f16x2 registers (the 16x16 and
 * 8x32/32x8 matrices then hold each element in two or four threads), .bf16
 * and .s8/.u8 pack two or four elements per .b32 register with no
 * duplication, .tf32 and the .f32/.s32 accumulators one per register, .f64
 * one per .f64 register.  The parser checks fragment sizes against this,
 * and the functional core (src/func/exec_mma.c) maps elements to them.
 */
#include "ptx/ir.h"

const char *const mma_shape_name[NMMASHAPE] = {
	"", "m16n16k16", "m32n8k16", "m8n32k16", "m16n16k8", "m8n8k4",
	"m16n8k16", "m16n8k8", "m16n8k4", "m16n8k32", "m8n8",
};

static const struct { int m, n, k; } dims[NMMASHAPE] = {
	{0, 0, 0}, {16, 16, 16}, {32, 8, 16}, {8, 32, 16}, {16, 16, 8}, {8, 8, 4},
	{16, 8, 16}, {16, 8, 8}, {16, 8, 4}, {16, 8, 32}, {8, 8, 0},
};

/* may a fragment of shape s hold elements of type t (ab: an a or b fragment)? */
static int type_ok(int s, int ab, PtxType t)
{
	switch (s) {
	case MMA_M16N16K16: case MMA_M32N8K16: case MMA_M8N32K16:
		return ab ? t == PT_F16 || t == PT_BF16 || t == PT_S8 || t == PT_U8
		          : t == PT_F16 || t == PT_F32 || t == PT_S32;
	case MMA_M16N16K8: return ab ? t == PT_TF32 : t == PT_F32;
	case MMA_M8N8K4: return t == PT_F64;
	}
	return 0;
}

/* a fragment's matrix and its packing: each element held once by the warp */
static MmaFrag geometry(int shape, int frag, PtxType t)
{
	MmaFrag f;
	f.rows = frag == FRAG_B ? dims[shape].k : dims[shape].m;
	f.cols = frag == FRAG_A ? dims[shape].k : dims[shape].n;
	f.esize = t == PT_TF32 ? 4 : ptxtype_size(t);
	f.per_reg = f.esize == 8 ? 1 : 4 / f.esize;
	f.reg_bits = f.esize == 8 ? 64 : 32;
	f.nregs = f.rows * f.cols / (32 * f.per_reg);
	return f;
}

int mma_frag(int shape, int frag, PtxType t, MmaFrag *out)
{
	if (shape <= MMA_NONE || shape > MMA_M8N8K4 || frag < FRAG_A || frag > FRAG_D) return 0;
	int ab = frag == FRAG_A || frag == FRAG_B;
	if (!type_ok(shape, ab, t)) return 0;
	*out = geometry(shape, frag, t);
	if (t == PT_F16 && ab) out->nregs = 8;  /* wmma's f16 a/b fragments hold copies */
	return 1;
}

PtxType mma_type(const Ins *in, int frag)
{
	if (in->type3) {                       /* .dtype.atype.btype.ctype */
		static const int at[] = {0, 1, 2, 3, 0};
		const uint8_t t[4] = {in->type, in->type2, in->type3, in->type4};
		return (PtxType)t[at[frag]];
	}
	switch (frag) {                        /* .dtype.ctype: a and b are .f16 */
	case FRAG_A: case FRAG_B: return PT_F16;
	case FRAG_C: return (PtxType)in->type2;
	default: return (PtxType)in->type;
	}
}

/* ---- mma.sync ------------------------------------------------------------------

   The shapes and types rfsim runs (.row.col only):
     m16n8k16, m16n8k8   a, b .f16 (c = d .f16 or .f32) or .bf16 (c, d .f32)
     m16n8k8, m16n8k4    a, b .tf32, c, d .f32
     m16n8k16, m16n8k32  a, b .s8/.u8, c, d .s32
     m8n8k4              a, b, c, d .f64
   Registers pack 32 bits of 16-, 8-bit elements (f16x2, four s8), one
   .tf32/.f32/.s32 or .f64 each; a warp holds each element once, so a
   fragment is rows * cols / (32 * per_reg) registers per thread. */

static int sync_type_ok(int s, int ab, PtxType t)
{
	switch (s) {
	case MMA_M16N8K16:
		return ab ? t == PT_F16 || t == PT_BF16 || t == PT_S8 || t == PT_U8
		          : t == PT_F16 || t == PT_F32 || t == PT_S32;
	case MMA_M16N8K8:
		return ab ? t == PT_F16 || t == PT_BF16 || t == PT_TF32 : t == PT_F16 || t == PT_F32;
	case MMA_M16N8K4: return ab ? t == PT_TF32 : t == PT_F32;
	case MMA_M16N8K32: return ab ? t == PT_S8 || t == PT_U8 : t == PT_S32;
	case MMA_M8N8K4: return t == PT_F64;
	}
	return 0;
}

int mma_sync_frag(int shape, int frag, PtxType t, MmaFrag *out)
{
	if (shape < MMA_M8N8K4 || shape > MMA_M16N8K32 || frag < FRAG_A || frag > FRAG_D)
		return 0;
	if (!sync_type_ok(shape, frag == FRAG_A || frag == FRAG_B, t)) return 0;
	*out = geometry(shape, frag, t);
	return 1;
}

/* the ISA's tables with g = groupID = lane >> 2, q = threadID_in_group = lane % 4 */
void mma_sync_elem(int shape, int frag, PtxType t, int lane, int i, int *row, int *col)
{
	int g = lane >> 2, q = lane & 3, es = t == PT_TF32 ? 4 : ptxtype_size(t);
	if (shape == MMA_M8N8K4) {                     /* .f64 */
		*row = frag == FRAG_A ? g : frag == FRAG_B ? q : g;
		*col = frag == FRAG_A ? q : frag == FRAG_B ? g : 2 * q + i;
		return;
	}
	switch (frag) {
	case FRAG_A:
		if (es == 2) *row = g + 8 * (i >> 1 & 1), *col = 2 * q + (i & 1) + 8 * (i >> 2);
		else if (es == 4) *row = g + 8 * (i & 1), *col = q + 4 * (i >> 1);
		else *row = g + 8 * (i >> 2 & 1), *col = 4 * q + (i & 3) + 16 * (i >> 3);
		return;
	case FRAG_B:
		if (es == 2) *row = 2 * q + (i & 1) + 8 * (i >> 1);
		else if (es == 4) *row = q + 4 * i;
		else *row = 4 * q + (i & 3) + 16 * (i >> 2);
		*col = g;
		return;
	default:                                       /* c, d: 16 x 8 */
		*row = g + 8 * (i >> 1), *col = 2 * q + (i & 1);
		return;
	}
}

int mma_sync_macs(int shape)
{
	return dims[shape].m * dims[shape].n * dims[shape].k;
}
