/*
 * pitched.c -- 2D and 3D linear memory: cudaMallocPitch and cudaMalloc3D,
 * cudaMemcpy2D/3D and cudaMemset2D/3D (and their Async forms, which run
 * to completion like every call; rt.h).
 *
 * A pitched allocation is one ordinary device allocation of pitch x rows
 * (x depth) bytes; the pitch is the width rounded up to 512 bytes, the
 * device's texture pitch alignment (cudaDeviceProp.texturePitchAlignment
 * reports 32, the minimum a program may assume).  A 2D or 3D copy is
 * checked whole before any byte moves, as NVIDIA's runtime does: the
 * span from the first row's start to the last row's end must lie in
 * memory of the side the copy's kind names, and the width must fit in
 * both pitches; then rows are copied one by one.
 *
 * cudaMemcpy3D may name a CUDA array (array.c) on either side: the array
 * is then a pitched pointer over its private layout, its position and the
 * extent's width count its elements (the other side's x position stays in
 * bytes), and the copy must lie inside it.
 */
#include <string.h>

#include "api/api.h"
#include "base/base.h"
#include "cudart/rt.h"

enum { PITCH_ALIGN = 512 };

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
	RT_API();
	if (!pitch || !devPtr) return rt_err(cudaErrorInvalidValue);
	*pitch = (width + PITCH_ALIGN - 1) & ~(size_t)(PITCH_ALIGN - 1);
	return cudaMalloc(devPtr, *pitch * height);
}

cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pp, struct cudaExtent e)
{
	RT_API();
	if (!pp) return rt_err(cudaErrorInvalidValue);
	size_t pitch = (e.width + PITCH_ALIGN - 1) & ~(size_t)(PITCH_ALIGN - 1);
	void *p = NULL;
	cudaError_t err = cudaMalloc(&p, pitch * e.height * e.depth);
	if (err) return err;
	*pp = (struct cudaPitchedPtr){p, pitch, e.width, e.height};
	return cudaSuccess;
}

/* height rows of width bytes, pitch apart, from p: the host's view of the
 * span, or NULL (with the reason said) */
static char *span(const char *fn, const void *p, size_t pitch, size_t width, size_t rows,
                  int side)
{
	size_t n = (rows - 1) * pitch + width;
	char *v = mem_view(p, n, side);
	if (!v)
		rt_say("%s: %zu rows of %zu bytes, %zu apart, at %p are not %s memory", fn, rows,
		       width, pitch, p, side == MEM_DEV ? "device" : side == MEM_HOST ? "host"
		                                                                     : "allocated");
	return v;
}

/* rows of width bytes: checked whole, then copied */
cudaError_t pitched_copy(const char *fn, void *dst, size_t dpitch, const void *src,
                             size_t spitch, size_t width, size_t rows,
                             enum cudaMemcpyKind kind)
{
	if ((unsigned)kind > cudaMemcpyDefault) return rt_err(cudaErrorInvalidMemcpyDirection);
	cudaError_t e = rt_ready();
	if (e) return rt_err(e);
	if (width > dpitch || width > spitch) {
		rt_say("%s: width %zu exceeds the pitch (%zu destination, %zu source)", fn, width,
		       dpitch, spitch);
		return rt_err(cudaErrorInvalidPitchValue);
	}
	if (!width || !rows) return cudaSuccess;
	char *d = span(fn, dst, dpitch, width, rows, mem_kind_side(kind, 1));
	const char *s = d ? span(fn, src, spitch, width, rows, mem_kind_side(kind, 0)) : NULL;
	if (!d || !s) return rt_err(cudaErrorInvalidValue);
	for (size_t r = 0; r < rows; r++) memmove(d + r * dpitch, s + r * spitch, width);
	return cudaSuccess;
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind)
{
	RT_API();
	cudaError_t e = capture_sync_legacy("cudaMemcpy2D");
	return e ? e : pitched_copy("cudaMemcpy2D", dst, dpitch, src, spitch, width, height, kind);
}

/* whether a call on stream runs now (0), or is captured or refused (1, *e says how) */
static int captured(cudaStream_t stream, const char *fn, cudaError_t *e)
{
	int on = 0;
	*e = stream_valid(stream) ? capture_enqueue(stream, fn, &on)
	                          : rt_err(cudaErrorInvalidResourceHandle);
	return *e || on;
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream)
{
	RT_API();
	cudaError_t e;
	if (!captured(stream, "cudaMemcpy2DAsync", &e))
		return pitched_copy("cudaMemcpy2DAsync", dst, dpitch, src, spitch, width, height, kind);
	if (e) return e;
	struct cudaMemcpy3DParms p;
	memset(&p, 0, sizeof p);
	p.srcPtr = (struct cudaPitchedPtr){(void *)src, spitch, width, height};
	p.dstPtr = (struct cudaPitchedPtr){dst, dpitch, width, height};
	p.extent = (struct cudaExtent){width, height, 1};
	p.kind = kind;
	return capture_add(stream, cudaGraphNodeTypeMemcpy, &p);
}

static cudaError_t set_rows(const char *fn, void *p, size_t pitch, int value, size_t width,
                            size_t rows)
{
	cudaError_t e = rt_ready();
	if (e) return rt_err(e);
	if (width > pitch) {
		rt_say("%s: width %zu exceeds the pitch %zu", fn, width, pitch);
		return rt_err(cudaErrorInvalidPitchValue);
	}
	if (!width || !rows) return cudaSuccess;
	char *d = span(fn, p, pitch, width, rows, MEM_DEV);
	if (!d) return rt_err(cudaErrorInvalidValue);
	for (size_t r = 0; r < rows; r++) memset(d + r * pitch, value, width);
	return cudaSuccess;
}

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
	RT_API();
	cudaError_t e = capture_sync_legacy("cudaMemset2D");
	return e ? e : set_rows("cudaMemset2D", devPtr, pitch, value, width, height);
}

cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                              size_t height, cudaStream_t stream)
{
	RT_API();
	cudaError_t e;
	if (!captured(stream, "cudaMemset2DAsync", &e))
		return set_rows("cudaMemset2DAsync", devPtr, pitch, value, width, height);
	if (e) return e;
	struct cudaMemsetParams p = {devPtr, pitch, (unsigned char)value, 1, width, height};
	return capture_add(stream, cudaGraphNodeTypeMemset, &p);
}

/* ---- 3D: a stack of 2D slices, each ysize rows of the pitched pointer ---- */

/* the byte address of pos in the pitched pointer */
static char *at(struct cudaPitchedPtr p, struct cudaPos pos)
{
	return (char *)p.ptr + (pos.z * p.ysize + pos.y) * p.pitch + pos.x;
}

/* array a as a pitched pointer, pos.x turned into bytes and *esize its element size,
 * after checking that e (in elements) from pos lies inside it; 0 if it does not */
static int array_side(const char *fn, cudaArray_const_t a, struct cudaPos *pos,
                      struct cudaExtent e, struct cudaPitchedPtr *pp, size_t *esize)
{
	uint64_t base, size[3], pitch, slice;
	int dims;
	unsigned flags;
	if (!array_live(a)) {
		rt_say("%s: %p is not a live CUDA array", fn, (const void *)a);
		return 0;
	}
	array_layout(a, &base, size, &pitch, &slice, &dims, &flags);
	*esize = array_format(array_desc(a), NULL, NULL);
	if (pos->x > size[0] || e.width > size[0] - pos->x || pos->y > size[1] ||
	    e.height > size[1] - pos->y || pos->z > size[2] || e.depth > size[2] - pos->z) {
		rt_say("%s: the extent %zu x %zu x %zu at (%zu, %zu, %zu) runs outside the array "
		       "(%llu x %llu x %llu elements)", fn, e.width, e.height, e.depth, pos->x, pos->y,
		       pos->z, (unsigned long long)size[0], (unsigned long long)size[1],
		       (unsigned long long)size[2]);
		return 0;
	}
	pos->x *= *esize;
	*pp = (struct cudaPitchedPtr){(void *)(uintptr_t)base, pitch, size[0], size[1]};
	return 1;
}

cudaError_t pitched_copy3d(const struct cudaMemcpy3DParms *p, const char *fn)
{
	if (!p) return rt_err(cudaErrorInvalidValue);
	if (p->srcArray || p->dstArray) {
		struct cudaMemcpy3DParms q = *p;
		size_t es = 0, ed = 0;
		cudaError_t e = rt_ready();
		if (e) return rt_err(e);
		if ((p->srcArray && !array_side(fn, p->srcArray, &q.srcPos, p->extent, &q.srcPtr, &es))
		    || (p->dstArray && !array_side(fn, p->dstArray, &q.dstPos, p->extent, &q.dstPtr,
		                                   &ed)))
			return rt_err(cudaErrorInvalidValue);
		if (es && ed && es != ed) {
			rt_say("%s: the arrays' elements differ in size (%zu and %zu bytes)", fn, es, ed);
			return rt_err(cudaErrorInvalidValue);
		}
		q.srcArray = q.dstArray = NULL;
		q.extent.width *= es ? es : ed;
		return pitched_copy3d(&q, fn);
	}
	struct cudaExtent e = p->extent;
	if (!e.width || !e.height || !e.depth) return cudaSuccess;
	if ((e.depth > 1 || p->srcPos.z || p->dstPos.z) &&
	    (p->srcPtr.ysize < p->srcPos.y + e.height || p->dstPtr.ysize < p->dstPos.y + e.height)) {
		rt_say("%s: the extent's height %zu does not fit in a slice's ysize (%zu source, "
		       "%zu destination)", fn, e.height, p->srcPtr.ysize, p->dstPtr.ysize);
		return rt_err(cudaErrorInvalidValue);
	}
	for (size_t z = 0; z < e.depth; z++) {
		struct cudaPos s = p->srcPos, d = p->dstPos;
		s.z += z;
		d.z += z;
		cudaError_t err = pitched_copy(fn, at(p->dstPtr, d), p->dstPtr.pitch, at(p->srcPtr, s),
		                            p->srcPtr.pitch, e.width, e.height, p->kind);
		if (err) return err;
	}
	return cudaSuccess;
}

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
	RT_API();
	cudaError_t e = capture_sync_legacy("cudaMemcpy3D");
	return e ? e : pitched_copy3d(p, "cudaMemcpy3D");
}

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
	RT_API();
	cudaError_t e;
	if (!captured(stream, "cudaMemcpy3DAsync", &e))
		return pitched_copy3d(p, "cudaMemcpy3DAsync");
	if (e) return e;
	return p ? capture_add(stream, cudaGraphNodeTypeMemcpy, p) : rt_err(cudaErrorInvalidValue);
}

static cudaError_t set3d(struct cudaPitchedPtr p, int value, struct cudaExtent e,
                         const char *fn)
{
	if (e.depth > 1 && p.ysize < e.height) {
		rt_say("%s: the extent's height %zu exceeds the pointer's ysize %zu", fn, e.height,
		       p.ysize);
		return rt_err(cudaErrorInvalidValue);
	}
	for (size_t z = 0; z < e.depth; z++) {
		cudaError_t err = set_rows(fn, at(p, (struct cudaPos){0, 0, z}), p.pitch, value,
		                           e.width, e.height);
		if (err) return err;
	}
	return cudaSuccess;
}

cudaError_t cudaMemset3D(struct cudaPitchedPtr p, int value, struct cudaExtent e)
{
	RT_API();
	cudaError_t err = capture_sync_legacy("cudaMemset3D");
	return err ? err : set3d(p, value, e, "cudaMemset3D");
}

cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr p, int value, struct cudaExtent e,
                              cudaStream_t stream)
{
	RT_API();
	cudaError_t err;
	if (!captured(stream, "cudaMemset3DAsync", &err))
		return set3d(p, value, e, "cudaMemset3DAsync");
	if (err) return err;
	return capture_refuse(stream, "cudaMemset3DAsync", "3D memsets");
}
