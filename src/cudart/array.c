/*
 * array.c -- CUDA arrays: cudaMallocArray, cudaMalloc3DArray, cudaFreeArray,
 * their queries, and the copies into and out of them (cudaMemcpy2DToArray,
 * cudaMemcpy2DFromArray, cudaMemcpy2DArrayToArray, their Async forms, the
 * deprecated cudaMemcpyToArray/FromArray/ArrayToArray; cudaMemcpy3D with
 * arrays is pitched.c's).
 *
 * Layout.  NVIDIA keeps arrays in an opaque, tiled layout; rfsim keeps
 * each one in a single device allocation (driver cuMemAlloc, so it is
 * device memory the simulator reads and checks like any other) in a
 * private linear layout: elements of a row packed (pitch = width x element
 * size), rows of a slice consecutive, slices consecutive.  Nothing outside
 * the runtime can tell, since programs reach an array only through these
 * calls and texture or surface objects (texture.c), which carry the
 * layout to the simulated GPU (func/tex.h).
 *
 * Formats: 1, 2 or 4 channels (x; x, y; x, y, z, w) of 8, 16 or 32 bits,
 * all channels of one size, signed, unsigned or float (float: 16 = half,
 * or 32 bits).  Three channels are refused as NVIDIA's runtime refuses
 * them (cudaErrorInvalidChannelDescriptor).  A layered array
 * (cudaArrayLayered: extent {width, 0, layers} or {width, height, layers})
 * keeps its layers as consecutive slices.  Cube-map, sparse and mipmapped
 * arrays are refused with cudaErrorNotSupported, saying so.
 */
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "base/base.h"
#include "cudart/rt.h"

struct cudaArray {
	struct cudaChannelFormatDesc desc;
	struct cudaExtent ext;           /* as created: height and depth 0 when unused */
	unsigned flags;
	CUdeviceptr dptr;                /* the texels, in the layout above */
	size_t esize;                    /* bytes per element */
	size_t pitch, slice;             /* bytes per row, per 2D slice */
	int dims;                        /* 1, 2 or 3 (layered: of a layer) */
	unsigned layers;                 /* layered: extent.depth; else 0 */
};

#define READY() do { cudaError_t e_ = rt_ready(); if (e_) return rt_err(e_); } while (0)

size_t array_format(const struct cudaChannelFormatDesc *d, int *nch, int *chbytes)
{
	if (!d || (d->x != 8 && d->x != 16 && d->x != 32)) return 0;
	int n = 1;
	if (d->y) n = 2;
	if (d->z || d->w) n = 4;
	if ((d->y && d->y != d->x) || (n == 4 && (d->y != d->x || d->z != d->x || d->w != d->x)))
		return 0;
	if (d->f != cudaChannelFormatKindSigned && d->f != cudaChannelFormatKindUnsigned &&
	    d->f != cudaChannelFormatKindFloat)
		return 0;
	if (d->f == cudaChannelFormatKindFloat && d->x == 8) return 0;
	if (nch) *nch = n;
	if (chbytes) *chbytes = d->x / 8;
	return (size_t)n * (size_t)d->x / 8;
}

struct cudaArray *array_live(cudaArray_const_t a)
{
	return handle_find(HANDLE_ARRAY, HANDLE_KEY(a));
}

void array_layout(cudaArray_const_t a, uint64_t *base, uint64_t size[3], uint64_t *pitch,
                  uint64_t *slice, int *dims, unsigned *flags)
{
	*base = a->dptr;
	size[0] = a->ext.width;
	size[1] = a->ext.height ? a->ext.height : 1;
	size[2] = a->ext.depth ? a->ext.depth : 1;
	*pitch = a->pitch, *slice = a->slice, *dims = a->dims, *flags = a->flags;
}

const struct cudaChannelFormatDesc *array_desc(cudaArray_const_t a) { return &a->desc; }
unsigned array_layers(cudaArray_const_t a) { return a->layers; }

void array_reset(void)
{
	handle_free_kind(HANDLE_ARRAY);  /* the context, and the memory, went with the reset */
}

static cudaError_t make(cudaArray_t *out, const struct cudaChannelFormatDesc *desc,
                        struct cudaExtent e, unsigned flags, const char *fn)
{
	if (!out || !desc) return rt_err(cudaErrorInvalidValue);
	READY();
	size_t esize = array_format(desc, NULL, NULL);
	if (!esize) {
		rt_say("%s: channel format {%d, %d, %d, %d, kind %d} is not 1, 2 or 4 channels of "
		       "one size of 8, 16 or 32 bits (float: 16 or 32)", fn, desc->x, desc->y,
		       desc->z, desc->w, (int)desc->f);
		return rt_err(cudaErrorInvalidChannelDescriptor);
	}
	if (flags & (cudaArrayCubemap | 0x40 | 0x80)) {
		rt_say("%s: cube-map, sparse and deferred-mapping CUDA arrays are not supported by "
		       "rfsim (flags 0x%x)", fn, flags);
		return rt_err(cudaErrorNotSupported);
	}
	int layered = (flags & cudaArrayLayered) != 0;
	int dims = layered ? (e.height ? 2 : 1) : e.depth ? 3 : e.height ? 2 : 1;
	size_t maxw = layered ? ARRAY_MAX_LAYERED_W : dims == 1 ? ARRAY_MAX_1D
	            : dims == 2 ? ARRAY_MAX_2D_W : ARRAY_MAX_3D;
	size_t maxh = layered ? ARRAY_MAX_LAYERED_W : dims == 2 ? ARRAY_MAX_2D_H : ARRAY_MAX_3D;
	size_t maxd = layered ? ARRAY_MAX_LAYERS : ARRAY_MAX_3D;
	if (flags & ~(unsigned)(cudaArrayLayered | cudaArraySurfaceLoadStore |
	                        cudaArrayTextureGather | 0x20) ||
	    !e.width || (!layered && !e.height && e.depth) || (layered && !e.depth) ||
	    e.width > maxw || e.height > maxh || e.depth > maxd) {
		rt_say("%s: extent %zu x %zu x %zu or flags 0x%x out of range", fn, e.width, e.height,
		       e.depth, flags);
		return rt_err(cudaErrorInvalidValue);
	}
	struct cudaArray *a = xcalloc(1, sizeof *a);
	a->desc = *desc, a->ext = e, a->flags = flags, a->esize = esize;
	a->dims = dims;
	a->layers = layered ? (unsigned)e.depth : 0;
	a->pitch = e.width * esize;
	a->slice = a->pitch * (e.height ? e.height : 1);
	CUresult r = cuMemAlloc(&a->dptr, a->slice * (e.depth ? e.depth : 1));
	if (r) {
		free(a);
		return rt_err(rt_from_cu(r));
	}
	void *h = api_mem_host(a->dptr, a->slice * (e.depth ? e.depth : 1));
	if (h) memset(h, 0, a->slice * (e.depth ? e.depth : 1));
	handle_add(HANDLE_ARRAY, HANDLE_KEY(a), a);
	*out = a;
	return cudaSuccess;
}

cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                            size_t width, size_t height, unsigned int flags)
{
	RT_API();
	return make(array, desc, (struct cudaExtent){width, height, 0}, flags, "cudaMallocArray");
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                              struct cudaExtent extent, unsigned int flags)
{
	RT_API();
	return make(array, desc, extent, flags, "cudaMalloc3DArray");
}

cudaError_t cudaFreeArray(cudaArray_t array)
{
	RT_API();
	if (!array) return cudaSuccess;
	READY();
	if (handle_drop(HANDLE_ARRAY, HANDLE_KEY(array))) {
		cuMemFree(array->dptr);
		free(array);
		return cudaSuccess;
	}
	rt_say("cudaFreeArray: %p is not a live CUDA array", (void *)array);
	return rt_err(cudaErrorInvalidValue);
}

cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                             unsigned int *flags, cudaArray_t array)
{
	RT_API();
	if (!array_live(array)) return rt_err(cudaErrorInvalidResourceHandle);
	if (desc) *desc = array->desc;
	if (extent) *extent = array->ext;
	if (flags) *flags = array->flags;
	return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
	RT_API();
	if (!desc) return rt_err(cudaErrorInvalidValue);
	if (!array_live(array)) return rt_err(cudaErrorInvalidResourceHandle);
	*desc = array->desc;
	return cudaSuccess;
}

/* ---- copies -------------------------------------------------------------- */

/* the device address of byte (x, row y) of a, after checking that width x height
 * bytes from there lie inside it; 0 (said, recorded) if not */
static void *array_at(const char *fn, cudaArray_const_t a, size_t x, size_t y, size_t width,
                      size_t height)
{
	if (!array_live(a)) {
		rt_say("%s: %p is not a live CUDA array", fn, (const void *)a);
		return NULL;
	}
	size_t rows = a->slice / a->pitch;
	if (x > a->pitch || width > a->pitch - x || y > rows || height > rows - y) {
		rt_say("%s: %zu bytes x %zu rows at byte %zu, row %zu run outside the array "
		       "(%zu bytes x %zu rows)", fn, width, height, x, y, a->pitch, rows);
		return NULL;
	}
	return (void *)(uintptr_t)(a->dptr + y * a->pitch + x);
}

static cudaError_t to_array(const char *fn, cudaArray_t dst, size_t wOffset, size_t hOffset,
                            const void *src, size_t spitch, size_t width, size_t height,
                            enum cudaMemcpyKind kind)
{
	READY();
	if ((unsigned)kind > cudaMemcpyDefault) return rt_err(cudaErrorInvalidMemcpyDirection);
	void *d = array_at(fn, dst, wOffset, hOffset, width, height);
	if (!d) return rt_err(cudaErrorInvalidValue);
	return pitched_copy(fn, d, dst->pitch, src, spitch, width, height, kind);
}

static cudaError_t from_array(const char *fn, void *dst, size_t dpitch, cudaArray_const_t src,
                              size_t wOffset, size_t hOffset, size_t width, size_t height,
                              enum cudaMemcpyKind kind)
{
	READY();
	if ((unsigned)kind > cudaMemcpyDefault) return rt_err(cudaErrorInvalidMemcpyDirection);
	void *s = array_at(fn, src, wOffset, hOffset, width, height);
	if (!s) return rt_err(cudaErrorInvalidValue);
	return pitched_copy(fn, dst, dpitch, s, src->pitch, width, height, kind);
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                const void *src, size_t spitch, size_t width, size_t height,
                                enum cudaMemcpyKind kind)
{
	RT_API();
	return to_array("cudaMemcpy2DToArray", dst, wOffset, hOffset, src, spitch, width, height,
	                kind);
}

cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src,
                                  size_t wOffset, size_t hOffset, size_t width, size_t height,
                                  enum cudaMemcpyKind kind)
{
	RT_API();
	return from_array("cudaMemcpy2DFromArray", dst, dpitch, src, wOffset, hOffset, width,
	                  height, kind);
}

cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                     const void *src, size_t spitch, size_t width,
                                     size_t height, enum cudaMemcpyKind kind,
                                     cudaStream_t stream)
{
	RT_API();
	if (!stream_valid(stream)) return rt_err(cudaErrorInvalidResourceHandle);
	return to_array("cudaMemcpy2DToArrayAsync", dst, wOffset, hOffset, src, spitch, width,
	                height, kind);
}

cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src,
                                       size_t wOffset, size_t hOffset, size_t width,
                                       size_t height, enum cudaMemcpyKind kind,
                                       cudaStream_t stream)
{
	RT_API();
	if (!stream_valid(stream)) return rt_err(cudaErrorInvalidResourceHandle);
	return from_array("cudaMemcpy2DFromArrayAsync", dst, dpitch, src, wOffset, hOffset, width,
	                  height, kind);
}

/* the deprecated forms copy count bytes from (wOffset, hOffset) on, row after row:
 * with rows packed that is one span of the array; its device address, or NULL (said) */
static void *span_at(const char *fn, cudaArray_const_t a, size_t wOffset, size_t hOffset,
                     size_t count)
{
	if (!array_live(a)) {
		rt_say("%s: %p is not a live CUDA array", fn, (const void *)a);
		return NULL;
	}
	size_t total = a->slice * (a->ext.depth ? a->ext.depth : 1);
	size_t off = hOffset * a->pitch + wOffset;
	if (wOffset > a->pitch || hOffset > total / a->pitch || off > total || count > total - off) {
		rt_say("%s: %zu bytes at byte %zu of row %zu run past the array's end (%zu bytes)",
		       fn, count, wOffset, hOffset, total);
		return NULL;
	}
	return (void *)(uintptr_t)(a->dptr + off);
}

static cudaError_t to_span(const char *fn, cudaArray_t dst, size_t wOffset, size_t hOffset,
                           const void *src, size_t count, enum cudaMemcpyKind kind)
{
	READY();
	void *d = span_at(fn, dst, wOffset, hOffset, count);
	if (!d) return rt_err(cudaErrorInvalidValue);
	return pitched_copy(fn, d, count, src, count, count, 1, kind);
}

static cudaError_t from_span(const char *fn, void *dst, cudaArray_const_t src, size_t wOffset,
                             size_t hOffset, size_t count, enum cudaMemcpyKind kind)
{
	READY();
	void *s = span_at(fn, src, wOffset, hOffset, count);
	if (!s) return rt_err(cudaErrorInvalidValue);
	return pitched_copy(fn, dst, count, s, count, count, 1, kind);
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t count, enum cudaMemcpyKind kind)
{
	RT_API();
	return to_span("cudaMemcpyToArray", dst, wOffset, hOffset, src, count, kind);
}

cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset,
                                size_t hOffset, size_t count, enum cudaMemcpyKind kind)
{
	RT_API();
	return from_span("cudaMemcpyFromArray", dst, src, wOffset, hOffset, count, kind);
}

cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                   const void *src, size_t count, enum cudaMemcpyKind kind,
                                   cudaStream_t stream)
{
	RT_API();
	if (!stream_valid(stream)) return rt_err(cudaErrorInvalidResourceHandle);
	return to_span("cudaMemcpyToArrayAsync", dst, wOffset, hOffset, src, count, kind);
}

cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset,
                                     size_t hOffset, size_t count, enum cudaMemcpyKind kind,
                                     cudaStream_t stream)
{
	RT_API();
	if (!stream_valid(stream)) return rt_err(cudaErrorInvalidResourceHandle);
	return from_span("cudaMemcpyFromArrayAsync", dst, src, wOffset, hOffset, count, kind);
}

/* ---- array to array: both are device memory, so kind must allow device to device ---- */

cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                     cudaArray_const_t src, size_t wOffsetSrc,
                                     size_t hOffsetSrc, size_t width, size_t height,
                                     enum cudaMemcpyKind kind)
{
	RT_API();
	const char *fn = "cudaMemcpy2DArrayToArray";
	READY();
	if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
		return rt_err(cudaErrorInvalidMemcpyDirection);
	void *d = array_at(fn, dst, wOffsetDst, hOffsetDst, width, height);
	void *s = d ? array_at(fn, src, wOffsetSrc, hOffsetSrc, width, height) : NULL;
	if (!s) return rt_err(cudaErrorInvalidValue);
	return pitched_copy(fn, d, dst->pitch, s, src->pitch, width, height, kind);
}

cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                   cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                   size_t count, enum cudaMemcpyKind kind)
{
	RT_API();
	const char *fn = "cudaMemcpyArrayToArray";
	READY();
	if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
		return rt_err(cudaErrorInvalidMemcpyDirection);
	void *d = span_at(fn, dst, wOffsetDst, hOffsetDst, count);
	void *s = d ? span_at(fn, src, wOffsetSrc, hOffsetSrc, count) : NULL;
	if (!s) return rt_err(cudaErrorInvalidValue);
	return pitched_copy(fn, d, count, s, count, count, 1, kind);
}
