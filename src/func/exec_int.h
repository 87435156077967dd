/*
 * exec_int.h -- what the functional core's files share (not public): the
 * lane loop, register-slot access, and the cross-file entry points of
 * exec.c (arithmetic, exchange, control), exec_mem.c (memory and fault
 * reports) and simt.c (the reconvergence stack, calls and returns).
 */
#ifndef RFSIM_FUNC_EXEC_INT_H
#define RFSIM_FUNC_EXEC_INT_H

#include <string.h>

#include "func/warp.h"

/* for each set bit l of lane mask m, lowest first */
/* a hot function compiled twice, for x86-64-v3 (AVX2, FMA, BMI, POPCNT) and for the
 * baseline, the loader picking by the CPU (an ifunc): the same binary runs everywhere.
 * GCC on x86-64 only; not under the sanitizers */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(__SANITIZE_ADDRESS__)
#define SIMD_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define SIMD_CLONES
#endif

#define LANES(m, l) \
	for (uint32_t m_##l = (m), l; m_##l && ((l = (uint32_t)__builtin_ctz(m_##l)), 1); \
	     m_##l &= m_##l - 1)

static inline const uint32_t *srcp(const Warp *w, const Image *img, int32_t s)
{
	return s >= 0 ? w->regs + ((size_t)(w->rbase + s) << 5)
	              : img->imm + ((size_t)(-s - 1) << 5);
}

static inline uint32_t *dstp(const Warp *w, int32_t d)
{
	return w->regs + ((size_t)(w->rbase + d) << 5);
}

static inline uint64_t rd64(const uint32_t *p, uint32_t l)
{
	return p[l] | (uint64_t)p[l + 32] << 32;
}

static inline uint64_t rdw(const uint32_t *p, uint32_t l, int w)
{
	return w > 1 ? rd64(p, l) : p[l];
}

static inline void wrw(uint32_t *p, uint32_t l, int w, uint64_t v)
{
	p[l] = (uint32_t)v;
	if (w > 1) p[l + 32] = (uint32_t)(v >> 32);
}

static inline uint32_t pred(const Warp *w, int32_t p)
{
	return w->preds[w->pbase + p];
}

/* predicate source k as a lane mask: a predicate register, '!' applied, or a
 * constant (decode_ins.c gives it a row of 1 or 0, its '!' folded in) */
static inline uint32_t src_pred(const Warp *w, const Image *img, const DIns *d, int k)
{
	if (!(d->spred >> k & 1)) return srcp(w, img, d->s[k])[0] ? ~0u : 0;
	uint32_t p = pred(w, d->s[k]);
	return d->sneg >> k & 1 ? ~p : p;
}

static inline void set_pred(Warp *w, int32_t p, uint32_t lanes, uint32_t bits)
{
	uint32_t *q = &w->preds[w->pbase + p];
	*q = (*q & ~lanes) | (bits & lanes);
}

/* sign- or zero-extend the low `bytes` of v as type t says */
static inline uint64_t extend(uint64_t v, int bytes, int sgn)
{
	if (bytes >= 8) return v;
	int sh = 64 - 8 * bytes;
	return sgn ? (uint64_t)((int64_t)(v << sh) >> sh) : (v << sh) >> sh;
}

/* (fixed-size copies for the common sizes: one move each, where a
 * variable-size memcpy into v made every load a store-forwarding stall) */
static inline uint64_t load_le(const uint8_t *p, int n)
{
	uint8_t b; uint16_t h; uint32_t x; uint64_t v = 0;
	switch (n) {
	case 1: memcpy(&b, p, 1); return b;
	case 2: memcpy(&h, p, 2); return h;
	case 4: memcpy(&x, p, 4); return x;
	case 8: memcpy(&v, p, 8); return v;
	default: memcpy(&v, p, (size_t)n); return v;
	}
}

static inline void store_le(uint8_t *p, int n, uint64_t v)
{
	uint8_t b = (uint8_t)v; uint16_t h = (uint16_t)v; uint32_t x = (uint32_t)v;
	switch (n) {
	case 1: memcpy(p, &b, 1); break;
	case 2: memcpy(p, &h, 2); break;
	case 4: memcpy(p, &x, 4); break;
	default: memcpy(p, &v, (size_t)n); break;
	}
}

/* a memory instruction's address [abase + aoff] in lane l */
static inline uint64_t exec_addr_of(const Warp *w, const Image *img, const DIns *d, uint32_t l)
{
	uint64_t a = (uint64_t)d->aoff;
	if (d->abase >= 0) {
		const uint32_t *p = srcp(w, img, d->abase);
		if (d->aw > 1) return a + rd64(p, l);
		a = (uint32_t)(a + p[l]);   /* a 32-bit address wraps: [%r+4] with %r = -4 is 0 */
	}
	return a;
}

/* exec_mem.c */
void exec_fault(const Cta *c, const Warp *w, uint32_t l, const DIns *d, int kind,
                const char *what);
int exec_ld(Cta *c, Warp *w, const DIns *d, uint32_t act);
int exec_st(Cta *c, Warp *w, const DIns *d, uint32_t act);
int exec_atom(Cta *c, Warp *w, const DIns *d, uint32_t act);
void exec_thread_of(const Launch *L, const Warp *w, uint32_t l, uint32_t t[3]);

/* builtin.c: vprintf and __assertfail, RF_OK or RF_ERUNTIME (fault set) */
int exec_builtin(Cta *c, Warp *w, const DIns *d, uint32_t act);
/* host pointer of n bytes at a generic/typed address, NULL after a fault (exec_mem.c) */
uint8_t *exec_addr(Cta *c, Warp *w, uint32_t l, const DIns *d, int xs, uint64_t a, uint32_t n,
                   int store);
/* the same for a span of n bytes aligned to `align`, recorded in the step trace as lane
 * l's access when `trace` */
uint8_t *exec_span(Cta *c, Warp *w, uint32_t l, const DIns *d, int xs, uint64_t a,
                   uint32_t n, uint32_t align, int store, int trace);

/* exec_mma.c: cp.async and wmma */
int exec_cp_async(Cta *c, Warp *w, const DIns *d, uint32_t act);
int exec_wmma_load(Cta *c, Warp *w, const DIns *d, uint32_t act);
int exec_wmma_store(Cta *c, Warp *w, const DIns *d, uint32_t act);
void exec_wmma_mma(Warp *w, const Image *img, const DIns *d, uint32_t act);
/* d (M x N, row-major) = a (M x K) b (K x N) + c with wmma.mma's arithmetic (its essay) */
void exec_mma_compute(PtxType at, PtxType bt, PtxType ct, PtxType dt, int M, int N, int K,
                      int sat, const uint64_t *a, const uint64_t *b, const uint64_t *cm,
                      uint64_t *dm);

/* exec_mbar.c: mbarrier.* and cp.async.mbarrier.arrive */
int exec_mbar(Cta *c, Warp *w, const DIns *d, uint32_t act);
int exec_cp_bulk(Cta *c, Warp *w, const DIns *d, uint32_t act);   /* exec_mbar.c */

/* exec_mmasync.c: mma.sync, ldmatrix, stmatrix */
void exec_mma_sync(Warp *w, const Image *img, const DIns *d, uint32_t act);
int exec_ldmatrix(Cta *c, Warp *w, const DIns *d, uint32_t act);
int exec_stmatrix(Cta *c, Warp *w, const DIns *d, uint32_t act);

/* exec_tex.c: tex and tld4; suld and sust */
int exec_tex(Cta *c, Warp *w, const DIns *d, uint32_t act);
int exec_surf(Cta *c, Warp *w, const DIns *d, uint32_t act);

/* simt.c */
void simt_push(Warp *w, SimtEntry e);
void simt_settle(Cta *c, Warp *w);
void simt_exit(Cta *c, Warp *w, uint32_t lanes);
void simt_ret(Cta *c, Warp *w, uint32_t lanes);
void simt_branch(Cta *c, Warp *w, const DIns *d, uint32_t act, uint32_t taken);
void simt_yield(Warp *w);
void simt_spin(Cta *c, Warp *w, const DIns *d, uint32_t act);
int simt_syncwait(Warp *w, uint32_t missing);
int simt_join(Warp *w, uint32_t missing);
int simt_callwait(Warp *w, uint32_t missing);
int simt_call(Cta *c, Warp *w, const DIns *d, uint32_t act);

#endif
