/*
 * parse_tex.c -- texture and surface instructions on texture and surface
 * objects (PTX ISA 9.7.10 and 9.7.11), in the unified form nvcc emits for
 * CUDA's cudaTextureObject_t / cudaSurfaceObject_t:
 *
 *   tex.geom.v4.dtype.ctype      {d0, d1, d2, d3}, [tobj, {c...}];
 *       geom 1d 2d 3d a1d a2d; dtype f32 s32 u32; ctype s32 f32; the
 *       coordinate vector holds 1 (1d), 2 (2d, a1d: layer, x) or 4 (3d:
 *       x, y, z, ignored; a2d: layer, x, y, ignored) elements.
 *   tld4.comp.2d.v4.dtype.f32    {d0, d1, d2, d3}, [tobj, {x, y}];
 *       comp r g b a: that component of the four texels of a bilinear
 *       footprint (tex2Dgather).
 *   suld.b.geom{.vec}.btype.mode [surf, {c...}] loaded into d (or {d...});
 *   sust.b.geom{.vec}.btype.mode [surf, {c...}], a (or {a...});
 *       btype b8 b16 b32 b64, vec v2 v4, mode trap clamp zero (trap if
 *       none); the x coordinate is in bytes.
 *
 * A destination element may be the sink `_`.  The handle is a 64-bit
 * register (a texture object is a kernel parameter).  Refused by name:
 * texture references and samplers (the [tex, sampler, {c}] form and .tex
 * symbols), mipmap levels and gradients (tex.level, tex.grad), cube maps,
 * multisample geometries, depth compare, texel offsets, formatted surface
 * stores (sust.p), sured, suq and txq.
 */
#include <string.h>

#include "ptx/parse.h"

static int eq(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && !memcmp(s, w, n);
}

__attribute__((noreturn))
static void refuse(Parser *p, const Tok *t, const char *s, size_t n)
{
	p_error_at(p, t, "unsupported PTX instruction form '%.*s.%.*s' (rfsim implements tex, "
	           "tld4, suld.b and sust.b on texture and surface objects only)",
	           (int)(strchr(t->s, '.') ? (size_t)(strchr(t->s, '.') - t->s) : t->len), t->s,
	           (int)n, s);
}

void ptex_modifier(Parser *p, const Tok *t, Ins *in, const char *s, size_t n)
{
	static const char *const geo[] = {"", "1d", "2d", "3d", "a1d", "a2d"};
	for (int g = 1; g < NTEXGEOM; g++)
		if (eq(s, n, geo[g])) {
			if (in->shape) p_error_at(p, t, "two geometries in '%.*s'", (int)t->len, t->s);
			in->shape = (uint8_t)g;
			return;
		}
	static const char *const comp[] = {"r", "g", "b", "a"};
	for (int k = 0; k < 4; k++)
		if (in->op == OP_TLD4 && eq(s, n, comp[k]) && !in->mode) {
			in->mode = (uint8_t)(MODE_TLD4_R + k);
			return;
		}
	if ((in->op == OP_SULD || in->op == OP_SUST) && eq(s, n, "b") && !(in->mods & MOD_FULL)) {
		in->mods |= MOD_FULL;               /* (.b seen: the unformatted form) */
		return;
	}
	static const char *const mode[] = {"trap", "clamp", "zero"};
	for (int k = 0; k < 3; k++)
		if ((in->op == OP_SULD || in->op == OP_SUST) && eq(s, n, mode[k])) {
			in->mode = (uint8_t)(MODE_SU_TRAP + k);
			return;
		}
	if (eq(s, n, "v2") || eq(s, n, "v4")) {
		in->vec = (uint8_t)(s[1] - '0');
		return;
	}
	PtxType ty = ptxtype_lookup(s, n);
	if (ty != PT_NONE) {
		if (!in->type) in->type = (uint8_t)ty;
		else if (!in->type2) in->type2 = (uint8_t)ty;
		else p_error_at(p, t, "too many types in '%.*s'", (int)t->len, t->s);
		return;
	}
	if (memchr(s, ':', n)) return;          /* cache hints: ignored */
	refuse(p, t, s, n);
}

/* the checks once operands are in: o[nd] the handle, o[nd+1] the coordinates */
void ptex_check(Parser *p, const Tok *t, const Ins *in)
{
	int su = in->op == OP_SULD || in->op == OP_SUST;
	int at = in->nd;
	if (!in->shape) p_error_at(p, t, "'%.*s' needs a geometry (.1d .2d .3d .a1d .a2d)",
	                           (int)t->len, t->s);
	if (in->op == OP_TLD4 && (in->shape != TEXG_2D || !in->mode))
		p_error_at(p, t, "tld4 needs .r/.g/.b/.a and .2d");
	if (su) {
		if (!(in->mods & MOD_FULL)) p_error_at(p, t, "'%.*s': rfsim implements only the .b "
		                                       "(unformatted) surface form", (int)t->len, t->s);
		int sz = ptxtype_size((PtxType)in->type);
		if (in->type < PT_B8 || in->type > PT_B64 || in->type2)
			p_error_at(p, t, "'%.*s' needs one type of .b8 .b16 .b32 .b64", (int)t->len, t->s);
		if (sz == 8 && in->vec == 4)
			p_error_at(p, t, "'%.*s': .v4.b64 is not a PTX form", (int)t->len, t->s);
	} else {
		if (in->vec != 4) p_error_at(p, t, "'%.*s' needs .v4", (int)t->len, t->s);
		if (in->type != PT_F32 && in->type != PT_S32 && in->type != PT_U32)
			p_error_at(p, t, "'%.*s': the destination type must be .f32, .s32 or .u32 "
			           "(rfsim does not implement .f16 texture results)", (int)t->len, t->s);
		if (in->type2 != PT_F32 && in->type2 != PT_S32)
			p_error_at(p, t, "'%.*s': the coordinate type must be .f32 or .s32", (int)t->len,
			           t->s);
	}
	const Operand *h = &in->o[at], *c = &in->o[at + 1];
	if (h->kind != OPK_REG || ptxtype_size((PtxType)p->regtype[h->reg]) != 8)
		p_error_at(p, t, "'%.*s': the texture or surface must be a 64-bit register holding an "
		           "object handle (texture references are not supported)", (int)t->len, t->s);
	static const int ncoord[] = {0, 1, 2, 4, 2, 4};
	if (c->kind != OPK_VEC || c->n != ncoord[in->shape])
		p_error_at(p, t, "'%.*s' takes a vector of %d coordinates", (int)t->len, t->s,
		           ncoord[in->shape]);
	const Operand *v = su && in->op == OP_SUST ? &in->o[at + 2] : &in->o[0];
	int want = su ? (in->vec ? in->vec : 1) : 4;
	if ((v->kind == OPK_VEC ? v->n : 1) != want)
		p_error_at(p, t, "'%.*s' takes %d value register%s", (int)t->len, t->s, want,
		           want > 1 ? "s" : "");
}
