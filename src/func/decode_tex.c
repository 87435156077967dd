/*
 * decode_tex.c -- lowering of tex, tld4, suld and sust (parse_tex.c has
 * checked their operands).
 *
 *   tex, tld4  d[0..3] = the four results (-1 for a sink); s[0] = the
 *              64-bit object handle, s[1..] the coordinates that matter
 *              (1d: x; 2d: x, y; 3d: x, y, z; a1d: layer, x; a2d: layer,
 *              x, y: the fourth element of a 4-vector is not read).
 *   suld       d[0..vec) = the values, s[] as tex; elt = the .b type's bytes.
 *   sust       s[0] the handle, then the coordinates, then the values.
 *
 * aux = the geometry (TexGeom); mode, type and type2 are the IR's.  The
 * space is global: the timing model sees the texels a fetch touches as
 * global loads (exec_tex.c records them in the step trace).
 */
#include "base/base.h"
#include "func/decode_int.h"

static const int ncoords[NTEXGEOM] = {0, 1, 2, 3, 2, 3};

int decode_tex(DecodeCtx *dc, int32_t fi, const Ins *in)
{
	const Func *fn = &dc->m->funcs[dc->img->funcs[fi].ir_func];
	int st = in->op == OP_SUST, su = st || in->op == OP_SULD;
	DIns *d = dec_cur(dc);
	d->space = XS_GLOBAL;
	d->aux = in->shape;
	d->elt = (uint8_t)(su ? ptxtype_size((PtxType)in->type) : 4);
	d->flags &= (uint16_t)~(DF_SIGNED | DF_FLOAT);
	const Operand *h = &in->o[in->nd], *c = &in->o[in->nd + 1];
	if (dec_add_src(dc, fi, in, h, PT_B64)) return RF_EINPUT;
	for (int i = 0; i < ncoords[in->shape]; i++) {
		const Operand *e = &fn->vops[c->reg + i];
		PtxType t = su ? PT_B32 : (PtxType)in->type2;
		if (e->kind == OPK_REG) t = (PtxType)fn->regtype[e->reg];
		if (dec_add_src(dc, fi, in, e, t)) return RF_EINPUT;
	}
	const Operand *v = st ? &in->o[in->nd + 2] : &in->o[0];
	int n = v->kind == OPK_VEC ? v->n : 1;
	for (int i = 0; i < n; i++) {
		const Operand *e = v->kind == OPK_VEC ? &fn->vops[v->reg + i] : v;
		if (st) {
			if (dec_add_src(dc, fi, in, e, (PtxType)in->type)) return RF_EINPUT;
		} else if (dec_set_dst(dc, fi, in, e, i)) {
			return RF_EINPUT;
		}
	}
	if (!st) dec_cur(dc)->nd = (uint8_t)n;
	return RF_OK;
}
