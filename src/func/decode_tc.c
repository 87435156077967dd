/*
 * decode_tc.c -- lowering of cp.async, wmma, mma, ldmatrix and stmatrix
 * (decode.h gives the DIns form of each; mma lowers as wmma.mma does).
 * The parser has checked their operands (parse_tc.c); here they become
 * slots and immediate rows, with the source fragments that do not fit a
 * DIns's eight sources in the Image's MmaRegs table, and the forms the
 * functional core does not model are refused: wmma.mma .f64 with a
 * rounding other than .rn.
 */
#include "base/base.h"
#include "func/decode_int.h"

static Operand imm_opd(int64_t v)
{
	Operand o = {0};
	o.kind = OPK_IMM, o.imm = v;
	return o;
}

/* a shared-memory [address] operand as a source (its base: register, symbol or
 * 0) and an offset */
static int shared_src(DecodeCtx *dc, int32_t fi, const Ins *in, const Operand *o, int64_t *off)
{
	Operand base = imm_opd(0);
	if (o->flags & OPDF_SYMBASE) {
		if (sym_class(dc, o->reg) != SC_SHARED)
			return dec_bad(dc, in, "a shared-memory operand of cp.async outside shared memory");
		Operand s = *o;
		s.kind = OPK_SYM, s.flags = 0, s.imm = 0;
		base = s;
	} else if (o->reg >= 0) {
		base = (Operand){.kind = OPK_REG, .reg = o->reg};
	}
	const Func *fn = &dc->m->funcs[dc->img->funcs[fi].ir_func];
	PtxType bt = base.kind == OPK_REG ? (PtxType)fn->regtype[base.reg] : PT_U64;
	*off = o->imm;
	return dec_add_src(dc, fi, in, &base, ptxtype_size(bt) == 8 ? PT_U64 : PT_U32);
}

int decode_cp_async(DecodeCtx *dc, int32_t fi, const Ins *in)
{
	const Operand *dst = &in->o[0];
	if (dec_set_addr(dc, fi, in, &in->o[1])) return RF_EINPUT;
	DIns *d = dec_cur(dc);
	d->space = XS_GLOBAL;                      /* cp.async reads .global only */
	d->elt = (uint8_t)in->o[2].imm;
	int64_t off;                               /* the shared destination: s[0] + imm */
	if (shared_src(dc, fi, in, dst, &off)) return RF_EINPUT;
	dec_cur(dc)->imm = off;
	const Func *fn = &dc->m->funcs[dc->img->funcs[fi].ir_func];
	const Operand *size = &in->o[2], *ign = NULL, *pol = NULL;
	for (int k = 3; k < in->ns; k++) {
		const Operand *o = &in->o[k];
		PtxType t = o->kind == OPK_REG ? (PtxType)fn->regtype[o->reg] : PT_U32;
		if (t == PT_PRED) ign = o;
		else if (ptxtype_size(t) == 8) pol = o;
		else size = o;
	}
	if (dec_add_src(dc, fi, in, size, PT_U32)) return RF_EINPUT;
	if (ign) {
		if (dec_add_src(dc, fi, in, ign, PT_PRED)) return RF_EINPUT;
		dec_cur(dc)->flags |= DF_IGNSRC;
	}
	if (pol && dec_add_src(dc, fi, in, pol, PT_B64)) return RF_EINPUT;   /* read, unused */
	return RF_OK;
}

/* cp.async.bulk (decode.h) */
int decode_cp_bulk(DecodeCtx *dc, int32_t fi, const Ins *in)
{
	Ins g = *in;
	DIns *d = dec_cur(dc);
	d->elt = in->frag;
	int64_t off = 0;
	switch (in->mode) {
	case BULK_COMMIT: case BULK_WAIT:
		return RF_OK;
	case BULK_PREFETCH:
		g.space = SP_GLOBAL;
		if (dec_set_addr(dc, fi, &g, &in->o[0])) return RF_EINPUT;
		return dec_add_src(dc, fi, in, &in->o[1], PT_U32);
	case BULK_S2G:
		g.space = SP_GLOBAL;
		if (dec_set_addr(dc, fi, &g, &in->o[0]) || shared_src(dc, fi, in, &in->o[1], &off))
			return RF_EINPUT;
		break;
	default:                                   /* into shared memory, with an mbarrier */
		g.space = in->mode == BULK_G2S ? SP_GLOBAL : SP_SHARED;
		if (dec_set_addr(dc, fi, &g, &in->o[1]) || shared_src(dc, fi, in, &in->o[0], &off))
			return RF_EINPUT;
		break;
	}
	dec_cur(dc)->imm = off;
	if (dec_add_src(dc, fi, in, &in->o[2], PT_U32)) return RF_EINPUT;
	if (in->mode == BULK_S2G) return RF_OK;
	int64_t moff;
	if (shared_src(dc, fi, in, &in->o[3], &moff)) return RF_EINPUT;
	dec_cur(dc)->aux = (int32_t)moff;
	if ((in->frag & BULKF_MULTICAST) && dec_add_src(dc, fi, in, &in->o[4], PT_U32))
		return RF_EINPUT;
	return RF_OK;
}

static int32_t new_mma(DecodeCtx *dc)
{
	Image *img = dc->img;
	VEC_RESERVE(img->mma, dc->capmma, (size_t)img->nmma + 1);
	MmaRegs *r = &img->mma[img->nmma];
	*r = (MmaRegs){{{0}}, {0}, {0}};
	return img->nmma++;
}

/* the fragment vector v into MmaRegs entry e, list k */
static void put_frag(DecodeCtx *dc, int32_t fi, int32_t e, int k, const Operand *v)
{
	const ImgFunc *f = &dc->img->funcs[fi];
	const Func *fn = &dc->m->funcs[f->ir_func];
	MmaRegs *r = &dc->img->mma[e];
	r->n[k] = v->n;
	for (int i = 0; i < v->n; i++) {
		int32_t reg = fn->vops[v->reg + i].reg;
		r->r[k][i] = f->slot_of[reg];
		r->w[k] = (uint8_t)dec_slots((PtxType)fn->regtype[reg]);
	}
}

int decode_wmma_mem(DecodeCtx *dc, int32_t fi, const Ins *in)
{
	const Func *fn = &dc->m->funcs[dc->img->funcs[fi].ir_func];
	int ld = in->op == OP_WMMA_LOAD;
	const Operand *frag = &in->o[ld ? 0 : 1], *a = &in->o[ld ? 1 : 0];
	MmaFrag f;
	if (!mma_frag(in->shape, in->frag, (PtxType)in->type, &f))
		return dec_bad(dc, in, "this wmma fragment");
	if (dec_set_addr(dc, fi, in, a)) return RF_EINPUT;
	int64_t ldm = in->layout == LAYOUT_ROW ? f.cols : f.rows;    /* default: packed */
	Operand stride = in->ns == (ld ? 2 : 3) ? in->o[2] : imm_opd(ldm);
	if (dec_add_src(dc, fi, in, &stride, PT_U32)) return RF_EINPUT;
	DIns *d = dec_cur(dc);
	d->aux = in->shape | in->frag << 4 | in->layout << 8;
	d->elt = (uint8_t)f.esize;
	if (ld) {
		for (int i = 0; i < frag->n; i++)
			if (dec_set_dst(dc, fi, in, &fn->vops[frag->reg + i], i)) return RF_EINPUT;
		return RF_OK;
	}
	int32_t e = new_mma(dc);
	dec_cur(dc)->imm = e;
	put_frag(dc, fi, e, 0, frag);
	return RF_OK;
}

int decode_wmma_mma(DecodeCtx *dc, int32_t fi, const Ins *in)
{
	const Func *fn = &dc->m->funcs[dc->img->funcs[fi].ir_func];
	PtxType dt = mma_type(in, FRAG_D);
	if (dt == PT_F64 && in->rnd != RND_NONE && in->rnd != RND_RN)
		return dec_bad(dc, in, "wmma.mma .f64 with a rounding other than .rn");
	DIns *d = dec_cur(dc);
	d->type = (uint8_t)dt;
	d->type2 = (uint8_t)mma_type(in, FRAG_C);
	d->aux = in->shape | in->layout << 8 | (int32_t)mma_type(in, FRAG_A) << 16 |
	         (int32_t)mma_type(in, FRAG_B) << 24;
	const Operand *v = &in->o[0];
	for (int i = 0; i < v->n; i++)
		if (dec_set_dst(dc, fi, in, &fn->vops[v->reg + i], i)) return RF_EINPUT;
	int32_t e = new_mma(dc);
	dec_cur(dc)->imm = e;
	for (int k = 0; k < 3; k++) put_frag(dc, fi, e, k, &in->o[1 + k]);
	return RF_OK;
}

/* ldmatrix: d[] = r, each lane's [abase + aoff] one row; stmatrix: Image.mma[imm].r[0] = r */
int decode_matrix_mem(DecodeCtx *dc, int32_t fi, const Ins *in)
{
	const Func *fn = &dc->m->funcs[dc->img->funcs[fi].ir_func];
	int ld = in->op == OP_LDMATRIX;
	const Operand *r = &in->o[ld ? 0 : 1];
	if (dec_set_addr(dc, fi, in, &in->o[ld ? 1 : 0])) return RF_EINPUT;
	DIns *d = dec_cur(dc);
	d->aux = in->shape | in->frag << 4 | (in->mods & MOD_TRANS ? 1 << 8 : 0);
	d->elt = 2;
	if (ld) {
		for (int i = 0; i < in->frag; i++) {
			const Operand *e = r->kind == OPK_VEC ? &fn->vops[r->reg + i] : r;
			if (dec_set_dst(dc, fi, in, e, i)) return RF_EINPUT;
		}
		return RF_OK;
	}
	int32_t e = new_mma(dc);
	dec_cur(dc)->imm = e;
	if (r->kind == OPK_VEC) {
		put_frag(dc, fi, e, 0, r);
	} else {                                   /* x1 with a bare register */
		MmaRegs *m = &dc->img->mma[e];
		m->n[0] = 1, m->w[0] = 1, m->r[0][0] = dc->img->funcs[fi].slot_of[r->reg];
	}
	return RF_OK;
}
