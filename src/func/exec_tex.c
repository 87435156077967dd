/*
 * exec_tex.c -- the functional core's texture and surface instructions:
 * tex and tld4 on texture objects, suld.b and sust.b on surface objects
 * (decode_tex.c gives their operands; tex.h the objects).
 *
 * Texture fetch, as the CUDA Programming Guide's appendix "Texture
 * Fetching" describes it, per dimension of size N:
 *
 *   coordinate  float coordinates are scaled by N when normalizedCoords;
 *               integer (.s32) coordinates are texel indices as given.
 *   point       i = floor(x).
 *   linear      xb = x - 0.5, i = floor(xb), alpha = frac(xb) rounded to
 *               9-bit fixed point with 8 fractional bits (round to nearest);
 *               the result is the sum over the 2, 4 or 8 corners of weight
 *               x texel, the weight being the product of (1 - alpha) or
 *               alpha of each dimension, corners in order x fastest, all in
 *               f32 arithmetic (tests/cudart/textures.cu's reference
 *               repeats it operation for operation).
 *   address     each texel index is mapped by the dimension's mode: clamp
 *               to [0, N-1]; wrap (i mod N) and mirror (period 2N, reflected)
 *               with normalized coordinates only -- unnormalized, they clamp,
 *               as on NVIDIA's hardware; border: an index outside [0, N-1]
 *               reads the border colour.  A linear-memory resource
 *               (tex1Dfetch) returns zero outside its texels.
 *   element     8/16/32-bit signed, unsigned or float channels (16-bit float
 *               is half precision).  readMode normalizedFloat turns an
 *               unsigned n-bit channel into x / (2^n - 1) and a signed one
 *               into max(x / (2^(n-1) - 1), -1).  A channel the format lacks
 *               reads 0, and 1 for the fourth (w).
 *   tld4        the given component of the four texels of the bilinear
 *               footprint: (i, j+1), (i+1, j+1), (i+1, j), (i, j).
 *
 * Surfaces: the x coordinate is in bytes and must be a multiple of the
 * access size; out of range, .trap stops the kernel, .clamp moves the
 * coordinate to the nearest valid one, .zero loads zero and drops stores.
 * Layered geometries (a1d, a2d) name the layer first, an integer clamped
 * to the layers there are (textures; surfaces apply their out-of-range
 * mode to it like to any coordinate); the rest is one layer's fetch.
 *
 * Timing: the texels a lane reads are recorded in the step trace as a
 * global load -- its first row of texels (two wide when filtering), and the
 * other rows and slices of a filtered fetch (StepTrace.xaddr) -- so fetches
 * go through the L1 and the memory system like ld.global (coalesce.c).
 * The result follows the texels by tex.lat cycles (pipe.c).
 *
 * Left out: the texture unit's own rounding of the weighted sum (rfsim
 * sums in f32, so results may differ from a GPU's in the last bits),
 * filtering with integer (.s32) coordinates (they sample a point), mipmap
 * levels, anisotropy, sRGB and cube maps (refused where they are asked
 * for: the parser, cudart/texture.c).
 */
#include <math.h>
#include <stdio.h>

#include "base/base.h"
#include "func/alu.h"
#include "func/exec_int.h"
#include "func/tex.h"

/* the live object of kind in lane l's handle, or NULL after a fault */
static const TexObj *object(Cta *c, Warp *w, const DIns *d, uint32_t l, int kind)
{
	const Launch *L = c->L;
	uint64_t h = rd64(srcp(w, L->img, d->s[0]), l);
	const TexObj *t = h && h <= (uint64_t)L->ntex ? &L->tex[h - 1] : NULL;
	char msg[200];
	const char *what = kind == TEXK_TEX ? "texture" : "surface";
	if (!t || t->kind != kind) {
		snprintf(msg, sizeof msg, "%s object handle %llu is not a live %s object "
		         "(destroyed, never created, or of the other kind)", what,
		         (unsigned long long)h, what);
		exec_fault(c, w, l, d, FAULT_ADDRESS, msg);
		return NULL;
	}
	int g = (int)d->aux, layered = g == TEXG_A1D || g == TEXG_A2D;
	int dims = g == TEXG_1D || g == TEXG_A1D ? 1 : g == TEXG_2D || g == TEXG_A2D ? 2 : 3;
	if (dims != t->dims || layered != (t->layers != 0)) {
		snprintf(msg, sizeof msg, "a %s access on a %dD%s %s object", texgeom_name[g],
		         t->dims, t->layers ? " layered" : "", what);
		exec_fault(c, w, l, d, FAULT_ADDRESS, msg);
		return NULL;
	}
	return t;
}

/* ---- texels -------------------------------------------------------------- */

static int64_t mod(int64_t a, int64_t n) { return ((a % n) + n) % n; }

/* a float as an s32 result (a float texture read into integer registers):
 * truncated, saturated, NaN 0 -- defined for every input, unlike a C cast */
static uint32_t to_s32(float f)
{
	if (!(f == f)) return 0;
	if (f >= 2147483647.0f) return 0x7fffffffu;
	if (f <= -2147483648.0f) return 0x80000000u;
	return (uint32_t)(int32_t)f;
}

/* index i of a dimension of size n under mode: -1 for the border */
static int64_t address(const TexObj *t, int k, int64_t i)
{
	int64_t n = (int64_t)t->size[k];
	int m = t->addr[k];
	if (!t->norm_coords && (m == TEXA_WRAP || m == TEXA_MIRROR)) m = TEXA_CLAMP;
	if (i >= 0 && i < n) return i;
	switch (m) {
	case TEXA_WRAP: return mod(i, n);
	case TEXA_MIRROR: {
		int64_t r = mod(i, 2 * n);
		return r < n ? r : 2 * n - 1 - r;
	}
	case TEXA_CLAMP: return i < 0 ? 0 : n - 1;
	default: return -1;
	}
}

/* channel k of the texel at p: float (as f32 would hold it) and integer bits */
static void channels(const TexObj *t, const uint8_t *p, float f[4], uint32_t u[4])
{
	for (int k = 0; k < 4; k++) {
		if (k >= t->nch) {
			f[k] = k == 3 ? 1.0f : 0.0f;
			u[k] = k == 3;
			continue;
		}
		int b = t->chbytes;
		uint64_t raw = load_le(p + k * b, b);
		if (t->chkind == TEXC_FLOAT) {
			uint64_t bits = b == 2 ? alu_cvt(raw, PT_F32, PT_F16, RND_NONE, 0) : raw;
			uint32_t x = (uint32_t)bits;
			memcpy(&f[k], &x, 4);
			u[k] = to_s32(f[k]);
			continue;
		}
		int sgn = t->chkind == TEXC_SIGNED;
		int64_t v = (int64_t)extend(raw, b, sgn);
		u[k] = (uint32_t)v;
		if (t->read_norm && b < 4) {
			float den = sgn ? (float)((1ll << (8 * b - 1)) - 1) : (float)((1ll << (8 * b)) - 1);
			f[k] = (float)v / den;
			if (f[k] < -1.0f) f[k] = -1.0f;
		} else {
			f[k] = sgn ? (float)(int32_t)v : (float)(uint32_t)v;
		}
	}
}

/* the texel at indices ix (address modes applied here), into f/u; 0 after a fault.
 * trace: 1 records it as the lane's access in the step trace, 2 + r as row r of
 * the fetch's other rows (StepTrace.xaddr), 0 not at all */
static int texel(Cta *c, Warp *w, uint32_t l, const DIns *d, const TexObj *t, uint64_t base,
                 const int64_t *ix, float f[4], uint32_t u[4], int trace)
{
	uint64_t a = base;
	for (int k = 0; k < t->dims; k++) {
		int64_t i = t->linear ? (ix[k] >= 0 && ix[k] < (int64_t)t->size[k] ? ix[k] : -1)
		                      : address(t, k, ix[k]);
		if (i < 0) {                        /* border (linear memory: zero) */
			for (int q = 0; q < 4; q++) {
				f[q] = t->linear ? 0.0f : t->border[q];
				u[q] = t->linear ? 0 : to_s32(t->border[q]);
			}
			return 1;
		}
		a += (uint64_t)i * (k == 0 ? (uint64_t)t->nch * t->chbytes : k == 1 ? t->pitch
		                                                                  : t->slice);
	}
	uint32_t n = (uint32_t)t->nch * t->chbytes;
	const uint8_t *p = exec_span(c, w, l, d, XS_GLOBAL, a, n, 1, 0, trace == 1);
	if (p && trace >= 2 && w->trace) w->trace->xaddr[trace - 2][l] = a;
	if (!p) return 0;
	channels(t, p, f, u);
	return 1;
}

/* ---- tex, tld4 ------------------------------------------------------------ */

/* the source index of the first coordinate after the layer (layered geometries) */
static int first_coord(const DIns *d)
{
	return d->aux == TEXG_A1D || d->aux == TEXG_A2D ? 2 : 1;
}

static float coord(const Warp *w, const Image *img, const DIns *d, int k, uint32_t l)
{
	uint32_t x = srcp(w, img, d->s[first_coord(d) + k])[l];
	if (d->type2 == PT_S32) return (float)(int32_t)x;
	float f;
	memcpy(&f, &x, 4);
	if (!(f == f)) f = 0.0f;                 /* NaN: texel 0 */
	if (f > 1e9f) f = 1e9f;                  /* (scaled by a size <= 2^17, still an int64) */
	if (f < -1e9f) f = -1e9f;
	return f;
}

/* lane l's fetch: the four results as f32 (f) and integer (u) values */
static int fetch(Cta *c, Warp *w, const DIns *d, uint32_t l, const TexObj *t, float f[4],
                 uint32_t u[4])
{
	const Image *img = c->L->img;
	int64_t i0[3] = {0, 0, 0};
	float al[3] = {0, 0, 0};
	int lin = t->filter_linear && d->type2 == PT_F32, ints = d->type2 == PT_S32;
	uint64_t base = t->base;
	if (t->layers) {                         /* the layer: an integer, clamped */
		int32_t ly = (int32_t)srcp(w, img, d->s[1])[l];
		ly = ly < 0 ? 0 : (uint32_t)ly >= t->layers ? (int32_t)t->layers - 1 : ly;
		base += (uint64_t)ly * t->slice;
	}
	for (int k = 0; k < t->dims; k++) {
		float x = coord(w, img, d, k, l);
		if (ints) {
			i0[k] = (int64_t)(int32_t)srcp(w, img, d->s[first_coord(d) + k])[l];
			continue;
		}
		if (t->norm_coords) x *= (float)t->size[k];
		if (lin || d->op == OP_TLD4) x -= 0.5f;
		float fl = floorf(x);
		i0[k] = (int64_t)fl;
		al[k] = floorf((x - fl) * 256.0f + 0.5f) / 256.0f;
	}
	if (d->op == OP_TLD4) {
		static const int corner[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
		int comp = d->mode - MODE_TLD4_R;
		for (int q = 0; q < 4; q++) {
			int64_t ix[3] = {i0[0] + corner[q][0], i0[1] + corner[q][1], 0};
			float tf[4];
			uint32_t tu[4];
			if (!texel(c, w, l, d, t, base, ix, tf, tu, q == 3 ? 1 : q == 0 ? 2 : 0)) return 0;
			f[q] = tf[comp], u[q] = tu[comp];
		}
		return 1;
	}
	if (!lin) return texel(c, w, l, d, t, base, i0, f, u, 1);
	int ncorner = 1 << t->dims;
	for (int q = 0; q < 4; q++) f[q] = 0.0f;
	for (int k = 0; k < ncorner; k++) {
		int64_t ix[3];
		float wt = 1.0f, tf[4];
		uint32_t tu[4];
		for (int dim = 0; dim < 3; dim++) {
			int hi = k >> dim & 1;
			ix[dim] = i0[dim] + hi;
			if (dim < t->dims) wt *= hi ? al[dim] : 1.0f - al[dim];
		}
		int row = k & 1 ? 0 : 1 + (k >> 1);    /* the x-low corner of each row traces it */
		if (!texel(c, w, l, d, t, base, ix, tf, tu, row)) return 0;
		for (int q = 0; q < 4; q++) f[q] += wt * tf[q];
	}
	for (int q = 0; q < 4; q++) u[q] = to_s32(f[q]);
	return 1;
}

/* the other rows of texels the fetch may read, cleared in the trace */
static void trace_rows(Warp *w, const DIns *d, const TexObj *t)
{
	StepTrace *tr = w->trace;
	uint32_t rows = d->op == OP_TLD4 ? 1 : t->filter_linear && d->type2 == PT_F32
	              ? (1u << t->dims) / 2 - 1 : 0;
	if (!tr || rows <= tr->xrows) return;
	for (uint32_t r = tr->xrows; r < rows; r++) memset(tr->xaddr[r], 0, sizeof tr->xaddr[r]);
	tr->xrows = rows;
}

int exec_tex(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	LANES(act, l) {
		const TexObj *t = object(c, w, d, l, TEXK_TEX);
		float f[4];
		uint32_t u[4];
		if (t) trace_rows(w, d, t);
		if (!t || !fetch(c, w, d, l, t, f, u)) return EX_FAULT;
		if (w->trace && t->filter_linear) w->trace->nbytes = 2u * t->nch * t->chbytes;
		for (int q = 0; q < d->nd && q < 4; q++) {
			if (d->d[q] < 0) continue;
			uint32_t v = u[q];
			if (d->type == PT_F32) memcpy(&v, &f[q], 4);
			dstp(w, d->d[q])[l] = v;
		}
	}
	return EX_OK;
}

/* ---- suld, sust ----------------------------------------------------------- */

/* lane l's surface address, 0 with *skip for .zero out of range, or 0 after a fault */
static uint64_t surf_addr(Cta *c, Warp *w, const DIns *d, uint32_t l, const TexObj *t,
                          uint32_t n, int *skip)
{
	const Image *img = c->L->img;
	int64_t ix[3] = {0, 0, 0};
	uint64_t esz = (uint64_t)t->nch * t->chbytes;
	int64_t lim[3] = {(int64_t)(t->size[0] * esz) - n, (int64_t)t->size[1] - 1,
	                  (int64_t)t->size[2] - 1};
	int nd = t->dims + (t->layers != 0);     /* a layered array's layer index is its z */
	*skip = 0;
	for (int k = 0; k < nd; k++) {
		int layer = t->layers && k == t->dims;   /* sources: {layer, x, y} */
		ix[k] = (int64_t)(int32_t)srcp(w, img, d->s[layer ? 1 : t->layers ? 2 + k : 1 + k])[l];
		if (layer) lim[k] = (int64_t)t->layers - 1;
		if (ix[k] >= 0 && ix[k] <= lim[k]) continue;
		if (d->mode == MODE_SU_ZERO) {
			*skip = 1;
			return 0;
		}
		if (d->mode == MODE_SU_CLAMP) {
			ix[k] = ix[k] < 0 ? 0 : lim[k] < 0 ? 0 : lim[k];
			if (k == 0) ix[0] -= ix[0] % n;
			continue;
		}
		char msg[200];
		snprintf(msg, sizeof msg, "surface access out of range: %s = %lld%s, the "
		         "surface is %llu x %llu x %llu elements of %llu bytes",
		         layer ? "layer" : k == 0 ? "x" : k == 1 ? "y" : "z", (long long)ix[k],
		         k == 0 ? " bytes" : "", (unsigned long long)t->size[0],
		         (unsigned long long)t->size[1], (unsigned long long)t->size[2],
		         (unsigned long long)esz);
		exec_fault(c, w, l, d, FAULT_ADDRESS, msg);
		return 0;
	}
	if (ix[0] % n) {
		exec_fault(c, w, l, d, FAULT_MISALIGNED, "misaligned surface access: the x "
		           "coordinate (bytes) is not a multiple of the access size");
		return 0;
	}
	if (t->layers && t->dims == 1) ix[2] = ix[1], ix[1] = 0;  /* {layer, x}: layer -> z */
	return t->base + (uint64_t)ix[0] + (uint64_t)ix[1] * t->pitch + (uint64_t)ix[2] * t->slice;
}

int exec_surf(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	const Image *img = c->L->img;
	int st = d->op == OP_SUST, e = d->elt;
	static const int ncoords[NTEXGEOM] = {0, 1, 2, 3, 2, 3};   /* decode_tex.c's */
	int nv = st ? d->ns - 1 - ncoords[d->aux] : d->nd;
	uint32_t n = (uint32_t)(e * nv);
	if (st) w->nwrites++;
	LANES(act, l) {
		const TexObj *t = object(c, w, d, l, TEXK_SURF);
		int skip;
		uint64_t a = t ? surf_addr(c, w, d, l, t, n, &skip) : 0;
		if (!t || (!a && !skip)) return EX_FAULT;
		uint8_t *p = skip ? NULL : exec_span(c, w, l, d, XS_GLOBAL, a, n, 1, st, 1);
		if (!skip && !p) return EX_FAULT;
		for (int i = 0; i < nv; i++) {
			if (st) {
				if (p) store_le(p + i * e, e, rdw(srcp(w, img, d->s[d->ns - nv + i]), l,
				                                  d->sw[d->ns - nv + i]));
			} else if (d->d[i] >= 0) {
				wrw(dstp(w, d->d[i]), l, d->dw[i], p ? load_le(p + i * e, e) : 0);
			}
		}
	}
	return EX_OK;
}
