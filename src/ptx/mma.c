/*
 * mma.c -- the geometry of wmma fragments (PTX ISA 9.7.14.4.1, "Matrix
 * fragments for WMMA"): which matrix a fragment holds, its element size in
 * memory, and how many registers of what width a thread holds it in.
 *
 * The tables of the ISA give, per shape and type, the registers per
 * thread: .f16 a and b are always eight .f16x2 registers (the 16x16 and
 * 8x32/32x8 matrices then hold each element in two or four threads), .bf16
 * and .s8/.u8 pack two or four elements per .b32 register with no
 * duplication, .tf32 and the .f32/.s32 accumulators one per register, .f64
 * one per .f64 register.  The parser checks fragment sizes against this,
 * and the functional core (src/sim/exec_mma.c) maps elements to them.
 */
#include "ir.h"

const char *const mma_shape_name[NMMASHAPE] = {
	"", "m16n16k16", "m32n8k16", "m8n32k16", "m16n16k8", "m8n8k4",
};

static const struct { int m, n, k; } dims[NMMASHAPE] = {
	{0, 0, 0}, {16, 16, 16}, {32, 8, 16}, {8, 32, 16}, {16, 16, 8}, {8, 8, 4},
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

int mma_frag(int shape, int frag, PtxType t, MmaFrag *out)
{
	if (shape <= MMA_NONE || shape >= NMMASHAPE || frag < FRAG_A || frag > FRAG_D) return 0;
	int ab = frag == FRAG_A || frag == FRAG_B;
	if (!type_ok(shape, ab, t)) return 0;
	MmaFrag f;
	f.rows = frag == FRAG_B ? dims[shape].k : dims[shape].m;
	f.cols = frag == FRAG_A ? dims[shape].k : dims[shape].n;
	f.esize = t == PT_TF32 ? 4 : ptxtype_size(t);
	f.per_reg = f.esize == 8 ? 1 : 4 / f.esize;
	f.reg_bits = f.esize == 8 ? 64 : 32;
	f.nregs = t == PT_F16 && ab ? 8 : f.rows * f.cols / (32 * f.per_reg);
	*out = f;
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
