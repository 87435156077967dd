/*
 * exec_mma.c -- the functional core's cp.async and wmma instructions.
 *
 * cp.async copies at issue: a legal execution, since the destination may
 * not be read before the cp.async.wait_group that covers it, and a
 * program that reads it earlier has no defined result anyway.  Lane l
 * reads src-size bytes of its global source (0 with ignore-src set) and
 * writes cp-size bytes to its shared destination, zero-filling the rest;
 * both addresses are checked as ld/st check theirs (bounds, cp-size
 * alignment) and a failure gives the usual fault report.  The timing
 * model (sched.c, pipe.c) makes the waits cost what the copies take.
 *
 * wmma.  PTX leaves the mapping of matrix elements to the registers of a
 * fragment unspecified; rfsim's is the same for every layout and space:
 *
 *   Let the fragment hold an R x C matrix (a: M x K, b: K x N, c and d:
 *   M x N) in nregs registers of per_reg elements each (mma.c), P =
 *   nregs * per_reg element slots per lane.  Slot k of lane l (element k %
 *   per_reg, lowest bits first, of register k / per_reg) holds element
 *   e = (l * P + k) mod (R * C) of the matrix in row-major order: row
 *   e / C, column e % C.
 *
 * So lane l of a 16x16 .f32 accumulator holds row l / 2, columns 8 (l % 2)
 * .. + 7; every accumulator element lives in exactly one lane and slot,
 * and since the mapping ignores the layout, a c fragment loaded with any
 * layout lines up element by element with a d fragment of the same shape,
 * so element-wise code on fragments (scaling, adding) means what CUDA's
 * wmma API promises.  The .f16 a and b fragments have more slots than
 * elements (eight .f16x2 registers for 256 or 128 elements): the copies
 * wrap around, lane 16 + l holding what lane l holds (m8n32k16's a and
 * m32n8k16's b: four copies); wmma.mma reads the first copy.
 *
 * Memory.  The base address and the stride (in elements; default: the
 * matrix packed) are warp-uniform: rfsim takes them from the first active
 * lane.  A row-major matrix is R row segments of C elements at base +
 * r * stride * esize, a column-major one C column segments; each segment
 * is one traced access (StepTrace lane = segment number, nbytes = its
 * bytes), so the coalescer sees exactly the lines and banks the matrix
 * touches.  A segment must be aligned to 16 bytes (or its size, if
 * smaller): the PTX ISA's rule for the base and the stride.  A fault in
 * segment i names thread i of the warp.
 *
 * wmma.mma (and mma.sync, exec_mmasync.c, through exec_mma_compute)
 * computes each d[i][j] from the first copy of each element: the
 * products of the k-th elements are summed in double precision, k in
 * order, c[i][j] added last, and the sum rounded once (to nearest even) to
 * d's type, .satfinite turning an infinity into the largest finite value
 * of its sign; .tf32 inputs drop their 13 low mantissa bits first, as the
 * tensor cores read them; .f64 is an fma chain d = fma(a, b, d) from
 * d = c, k in order; integers are exact in 64 bits, then wrap to 32
 * (.satfinite: clamp).  Real tensor cores add in an order and precision
 * NVIDIA does not document; results can differ from rfsim's in the last
 * bits of f32, never for sums that are exact.
 */
#include <float.h>
#include <math.h>

#include "base/base.h"
#include "func/alu.h"
#include "func/exec_int.h"

/* ---- cp.async ------------------------------------------------------------------ */

int exec_cp_async(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	const Image *img = c->L->img;
	uint32_t cp = d->elt, ign = 0;
	StepTrace *tr = w->trace;
	if (d->flags & DF_IGNSRC) {
		ign = pred(w, d->s[2]);
		if (d->sneg >> 2 & 1) ign = ~ign;
	}
	w->nwrites++;
	LANES(act, l) {
		uint64_t dst = rdw(srcp(w, img, d->s[0]), l, d->sw[0]) + (uint64_t)d->imm;
		uint32_t n = srcp(w, img, d->s[1])[l];
		if (ign >> l & 1) n = 0;
		if (n > cp) n = cp;
		uint8_t *q = exec_span(c, w, l, d, XS_SHARED, dst, cp, cp, 1, 0);
		if (!q) return EX_FAULT;
		uint8_t buf[16] = {0};
		if (n) {
			const uint8_t *p = exec_span(c, w, l, d, XS_GLOBAL, exec_addr_of(w, img, d, l), n,
			                             cp, 0, 1);
			if (!p) return EX_FAULT;
			memcpy(buf, p, n);
		}
		memcpy(q, buf, cp);
		if (tr) {
			tr->saddr[l] = dst;
			tr->mem_lanes |= 1u << l;
			tr->cp_src |= (uint32_t)(n != 0) << l;
		}
	}
	if (tr) tr->nbytes = cp;
	return EX_OK;
}

/* ---- wmma fragments ------------------------------------------------------------- */

enum { MAXEL = 512 };        /* elements of the largest fragment matrix (32 x 16) */

static void frag_of(const DIns *d, int frag, PtxType t, MmaFrag *f)
{
	if (!mma_frag(dins_shape(d), frag, t, f)) die("wmma: fragment not checked at load");
}

/* element slot k of lane l of the fragment in slots regs[] (w slots per register) */
static uint64_t frag_get(const Warp *w, const int32_t *regs, int ws, const MmaFrag *f,
                         uint32_t l, int k)
{
	const uint32_t *p = w->regs + ((size_t)(w->rbase + regs[k / f->per_reg]) << 5);
	if (ws > 1) return rd64(p, l);
	int bits = 32 / f->per_reg;
	return bits == 32 ? p[l] : p[l] >> (k % f->per_reg * bits) & ((1u << bits) - 1);
}

/* the fragment's registers d->d[] of lanes act from matrix m (row-major) */
static void frag_put(Warp *w, const DIns *d, const MmaFrag *f, const uint64_t *m, uint32_t act)
{
	int P = f->nregs * f->per_reg, E = f->rows * f->cols, bits = 8 * f->esize;
	LANES(act, l) {
		for (int r = 0; r < f->nregs; r++) {
			uint64_t v = 0;
			for (int s = 0; s < f->per_reg; s++)
				v |= m[((int)l * P + r * f->per_reg + s) % E] << (s * bits);
			if (d->d[r] >= 0) wrw(dstp(w, d->d[r]), l, d->dw[r], v);
		}
	}
}

/* the matrix (row-major, first copies) of the fragment in regs */
static void frag_take(const Warp *w, const int32_t *regs, int ws, const MmaFrag *f,
                      uint64_t *m)
{
	int P = f->nregs * f->per_reg;
	for (int e = 0; e < f->rows * f->cols; e++)
		m[e] = frag_get(w, regs, ws, f, (uint32_t)(e / P), e % P);
}

/* load (store = 0) or store the R x C matrix m at the instruction's address */
static int mat_access(Cta *c, Warp *w, const DIns *d, const MmaFrag *f, uint32_t act,
                      uint64_t *m, int store)
{
	const Image *img = c->L->img;
	uint32_t l0 = (uint32_t)__builtin_ctz(act);
	uint64_t base = exec_addr_of(w, img, d, l0);
	uint64_t ld = srcp(w, img, d->s[0])[l0];
	int row = (dins_layout(d) & 15) == LAYOUT_ROW, es = f->esize;
	int nseg = row ? f->rows : f->cols, len = row ? f->cols : f->rows;
	uint32_t bytes = (uint32_t)(len * es), align = bytes < 16 ? bytes : 16;
	for (int i = 0; i < nseg; i++) {
		uint64_t a = base + (uint64_t)i * ld * (uint64_t)es;
		uint8_t *p = exec_span(c, w, (uint32_t)i, d, d->space, a, bytes, align, store, 1);
		if (!p) return EX_FAULT;
		for (int j = 0; j < len; j++) {
			int e = row ? i * f->cols + j : j * f->cols + i;
			if (store) store_le(p + j * es, es, m[e]);
			else m[e] = load_le(p + j * es, es);
		}
	}
	return EX_OK;
}

int exec_wmma_load(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	MmaFrag f;
	uint64_t m[MAXEL];
	frag_of(d, dins_frag(d), (PtxType)d->type, &f);
	if (mat_access(c, w, d, &f, act, m, 0)) return EX_FAULT;
	frag_put(w, d, &f, m, act);
	return EX_OK;
}

int exec_wmma_store(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	const MmaRegs *mr = &c->L->img->mma[d->imm];
	MmaFrag f;
	uint64_t m[MAXEL];
	frag_of(d, FRAG_D, (PtxType)d->type, &f);
	frag_take(w, mr->r[0], mr->w[0], &f, m);
	w->nwrites++;
	return mat_access(c, w, d, &f, act, m, 1);
}

/* ---- wmma.mma ----------------------------------------------------------------------- */

static double to_double(PtxType t, uint64_t v)
{
	double x;
	float f;
	uint32_t u = (uint32_t)v;
	switch (t) {
	case PT_F16: case PT_BF16: v = alu_cvt(v, PT_F64, t, RND_NONE, 0); break;
	case PT_TF32: u &= 0xffffe000u; /* fall through */
	case PT_F32: memcpy(&f, &u, 4); return f;
	default: break;
	}
	memcpy(&x, &v, 8);
	return x;
}

static int64_t to_int(PtxType t, uint64_t v)
{
	return t == PT_S8 ? (int8_t)v : t == PT_U8 ? (int64_t)(uint8_t)v : (int32_t)v;
}

static uint64_t from_double(PtxType t, double x, int sat)
{
	uint64_t b;
	if (t == PT_F64) {
		memcpy(&b, &x, 8);
		return b;
	}
	if (t == PT_F16) {
		memcpy(&b, &x, 8);
		b = alu_cvt(b, PT_F16, PT_F64, RND_RN, 0);
		if (sat && (b & 0x7fff) == 0x7c00) b = (b & 0x8000) | 0x7bff;
		return b;
	}
	float f = (float)x;
	if (sat && isinf(f)) f = copysignf(FLT_MAX, f);
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

void exec_mma_compute(PtxType at, PtxType bt, PtxType ct, PtxType dt, int M, int N, int K,
                      int sat, const uint64_t *a, const uint64_t *b, const uint64_t *cm,
                      uint64_t *dm)
{
	int integer = at == PT_S8 || at == PT_U8;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			uint64_t cv = cm[i * N + j];
			if (integer) {
				int64_t s = to_int(ct, cv);
				for (int k = 0; k < K; k++)
					s += to_int(at, a[i * K + k]) * to_int(bt, b[k * N + j]);
				if (sat) s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
				dm[i * N + j] = (uint32_t)s;
			} else if (dt == PT_F64) {
				double s = to_double(ct, cv);
				for (int k = 0; k < K; k++)
					s = fma(to_double(at, a[i * K + k]), to_double(bt, b[k * N + j]), s);
				dm[i * N + j] = from_double(dt, s, 0);
			} else {
				double s = 0;
				for (int k = 0; k < K; k++)
					s += to_double(at, a[i * K + k]) * to_double(bt, b[k * N + j]);
				s += to_double(ct, cv);
				dm[i * N + j] = from_double(dt, s, sat);
			}
		}
}

void exec_wmma_mma(Warp *w, const Image *img, const DIns *d, uint32_t act)
{
	const MmaRegs *mr = &img->mma[d->imm];
	PtxType at = dins_atype(d), bt = dins_btype(d), ct = (PtxType)d->type2;
	PtxType dt = (PtxType)d->type;
	MmaFrag fa, fb, fc, fd;
	frag_of(d, FRAG_A, at, &fa), frag_of(d, FRAG_B, bt, &fb);
	frag_of(d, FRAG_C, ct, &fc), frag_of(d, FRAG_D, dt, &fd);
	uint64_t a[MAXEL], b[MAXEL], cm[MAXEL], dm[MAXEL];
	frag_take(w, mr->r[0], mr->w[0], &fa, a);
	frag_take(w, mr->r[1], mr->w[1], &fb, b);
	frag_take(w, mr->r[2], mr->w[2], &fc, cm);
	exec_mma_compute(at, bt, ct, dt, fa.rows, fb.cols, fa.cols,
	                 (d->mods & MOD_SATFINITE) != 0, a, b, cm, dm);
	frag_put(w, d, &fd, dm, act);
}
