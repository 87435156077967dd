/*
 * decode_fast.c -- DIns.fast: the hot (op, type) pairs with no modifiers,
 * all 32-bit or all 64-bit operands and no predicate destination, that
 * exec.c runs through a loop of its own instead of eval.c's general path
 * (decode.h's FAST_* list).  Decoding picks one where it applies; the
 * result is the same either way.
 */
#include "func/decode_int.h"

void dec_pick_fast(DIns *d)
{
	if (d->spred & 3 || d->mods || d->d[0] < 0 || (d->flags & DF_PRED_DST)) return;
	PtxType t = (PtxType)d->type;
	int sz = ptxtype_size(t), isf = t == PT_F32;
	int isint = !ptxtype_is_float(t) && t != PT_U16X2 && t != PT_S16X2;
	int w1 = d->dw[0] == 1 && d->sw[0] == 1 && (d->ns < 2 || d->sw[1] == 1) &&
	         (d->ns < 3 || d->sw[2] == 1);
	int rn = d->rnd == RND_NONE || d->rnd == RND_RN;
	int w2 = t == PT_F64 && d->dw[0] == 2 && d->sw[0] == 2 && d->ns >= 2 && d->sw[1] == 2 &&
	         (d->ns < 3 || d->sw[2] == 2) && rn;
	switch ((Op)d->op) {
	case OP_ADD:
		if (isint && sz == 4 && w1) d->fast = FAST_ADD_I32;
		else if (isint && sz == 8 && d->dw[0] == 2 && d->sw[0] == 2 && d->sw[1] == 2)
			d->fast = FAST_ADD_I64;
		else if (isf && rn && w1) d->fast = FAST_ADD_F32;
		else if (w2) d->fast = FAST_ADD_F64;
		break;
	case OP_SUB:
		if (isint && sz == 4 && w1) d->fast = FAST_SUB_I32;
		else if (isf && rn && w1) d->fast = FAST_SUB_F32;
		else if (w2) d->fast = FAST_SUB_F64;
		break;
	case OP_MUL:
		if (isint && sz == 4 && d->mode == MODE_LO && w1) d->fast = FAST_MUL_LO32;
		else if (isint && sz == 4 && d->mode == MODE_WIDE && d->dw[0] == 2 &&
		         d->sw[0] == 1 && d->sw[1] == 1)
			d->fast = ptxtype_is_signed(t) ? FAST_MUL_WIDE_S32 : FAST_MUL_WIDE_U32;
		else if (isf && rn && w1) d->fast = FAST_MUL_F32;
		else if (w2) d->fast = FAST_MUL_F64;
		break;
	case OP_MAD:
		if (isint && sz == 4 && d->mode == MODE_LO && w1 && !(d->spred & 4))
			d->fast = FAST_MAD_LO32;
		break;
	case OP_FMA:
		if (isf && rn && w1 && !(d->spred & 4)) d->fast = FAST_FMA_F32;
		else if (w2 && !(d->spred & 4)) d->fast = FAST_FMA_F64;
		break;
	case OP_AND: if (isint && sz == 4 && w1) d->fast = FAST_AND_B32; break;
	case OP_OR: if (isint && sz == 4 && w1) d->fast = FAST_OR_B32; break;
	case OP_XOR: if (isint && sz == 4 && w1) d->fast = FAST_XOR_B32; break;
	case OP_SHL: if (sz == 4 && w1) d->fast = FAST_SHL_B32; break;
	case OP_SHR:
		if (sz == 4 && w1) d->fast = ptxtype_is_signed(t) ? FAST_SHR_S32 : FAST_SHR_U32;
		break;
	case OP_SELP:
		if (sz == 4 && w1 && (d->spred & 4)) d->fast = FAST_SELP32;
		break;
	case OP_CVT:
		if (d->rnd || d->dw[0] != 2 || d->sw[0] != 1) break;
		if (t == PT_U64 && d->type2 == PT_U32) d->fast = FAST_CVT_U64_U32;
		if (t == PT_S64 && d->type2 == PT_S32) d->fast = FAST_CVT_S64_S32;
		break;
	default:
		break;
	}
}
