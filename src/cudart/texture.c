/*
 * texture.c -- texture and surface objects: cudaCreateTextureObject,
 * cudaDestroyTextureObject, cudaGetTextureObjectResourceDesc and
 * ...TextureDesc, cudaCreateSurfaceObject, cudaDestroySurfaceObject,
 * cudaGetSurfaceObjectResourceDesc.
 *
 * A created object is described to the simulated GPU (func/tex.h: where
 * its texels are, their format, the sampling state), which returns the
 * handle the program passes to its kernels; kernels fetch through it
 * (func/exec_tex.c).  Here the descriptors are checked the way NVIDIA's
 * runtime checks them, cudaErrorInvalidValue for what is malformed:
 *
 *   resource   an array (live; for a surface, made with
 *              cudaArraySurfaceLoadStore), linear memory (device memory of
 *              sizeInBytes, 256-byte aligned: see TEX_ALIGN) or pitch2D
 *              (device memory, pitch a multiple of 32 bytes:
 *              texturePitchAlignment, holding width elements); flags 0;
 *              a supported channel format (array.c).
 *   texture    address, filter and read modes in range; linear filtering
 *              only where the fetch returns floats (a float format, or
 *              normalizedFloat reads); normalizedFloat only for 8- and
 *              16-bit integer channels (ignored for float ones, as NVIDIA
 *              does).
 *
 * Refused with cudaErrorNotSupported, saying so: mipmapped arrays,
 * resource views, sRGB conversion.  A linear-memory texture is for
 * tex1Dfetch: it has no filtering and returns zero outside its texels.
 */
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "base/base.h"
#include "cudart/rt.h"
#include "func/tex.h"

typedef struct Rec {             /* what the program gave, for the Get* queries */
	struct cudaResourceDesc res;
	struct cudaTextureDesc tex;
} Rec;                           /* registered under the object's number (state.h) */

/* devPtr alignment: NVIDIA asks textureAlignment (512); rfsim's cudaMalloc promises
 * 256, as CUDA does, so 256 is what a program's cudaMalloc'd buffer can be held to */
enum { TEX_ALIGN = 256, PITCH_ALIGN = 32 };

#define READY() do { cudaError_t e_ = rt_ready(); if (e_) return rt_err(e_); } while (0)

void texture_reset(void)
{
	handle_free_kind(HANDLE_TEXTURE);
	handle_free_kind(HANDLE_SURFACE);
}

/* the registry's kind of a TEXK_TEX or TEXK_SURF object */
static HandleKind handle_kind(int kind)
{
	return kind == TEXK_SURF ? HANDLE_SURFACE : HANDLE_TEXTURE;
}

static Rec *rec_find(unsigned long long h, int kind)
{
	return handle_find(handle_kind(kind), h);
}

/* an array resource's texels into t; its channel format, or NULL (said) */
static const struct cudaChannelFormatDesc *array_res(const char *fn, cudaArray_const_t a,
                                                     TexObj *t, int surf)
{
	unsigned flags;
	int dims;
	if (!array_live(a)) {
		rt_say("%s: the resource's array %p is not a live CUDA array", fn, (const void *)a);
		return NULL;
	}
	array_layout(a, &t->base, t->size, &t->pitch, &t->slice, &dims, &flags);
	t->dims = (uint8_t)dims;
	t->layers = array_layers(a);
	if (surf && !(flags & cudaArraySurfaceLoadStore)) {
		rt_say("%s: the array was not made with cudaArraySurfaceLoadStore", fn);
		return NULL;
	}
	return array_desc(a);
}

/* a linear or pitch2D resource's texels into t; its channel format, or NULL (said) */
static const struct cudaChannelFormatDesc *linear_res(const char *fn,
                                                      const struct cudaResourceDesc *r,
                                                      TexObj *t, int surf)
{
	int lin = r->resType == cudaResourceTypeLinear;
	if (surf) {
		rt_say("%s: a surface needs a CUDA array resource", fn);
		return NULL;
	}
	const struct cudaChannelFormatDesc *desc = lin ? &r->res.linear.desc
	                                               : &r->res.pitch2D.desc;
	size_t es = array_format(desc, NULL, NULL);
	void *p = lin ? r->res.linear.devPtr : r->res.pitch2D.devPtr;
	size_t w = lin ? (es ? r->res.linear.sizeInBytes / es : 0) : r->res.pitch2D.width;
	size_t h = lin ? 1 : r->res.pitch2D.height;
	size_t pitch = lin ? w * es : r->res.pitch2D.pitchInBytes;
	if (!es) return desc;                   /* (the caller says what is wrong with it) */
	if (!w || !h || ((uintptr_t)p % TEX_ALIGN) || (!lin && pitch % PITCH_ALIGN) ||
	    pitch < w * es || !api_mem_host((uintptr_t)p, pitch * (h - 1) + w * es)) {
		rt_say("%s: the %s resource (%p, %zu x %zu elements of %zu bytes, pitch %zu) is "
		       "not %s device memory", fn, lin ? "linear" : "pitch2D", p, w, h, es, pitch,
		       lin ? "256-byte aligned" : "256-byte aligned, 32-byte pitched");
		return NULL;
	}
	t->linear = (uint8_t)lin;
	t->dims = (uint8_t)(lin ? 1 : 2);
	t->base = (uintptr_t)p;
	t->size[0] = w, t->size[1] = h, t->size[2] = 1;
	t->pitch = pitch, t->slice = pitch * h;
	return desc;
}

/* the resource's texels and format into t; cudaSuccess or the error (said) */
static cudaError_t resource(const char *fn, const struct cudaResourceDesc *r, TexObj *t,
                            int surf)
{
	const struct cudaChannelFormatDesc *desc;
	int nch = 0, chb = 0;
	switch (r->resType) {
	case cudaResourceTypeArray:
		desc = array_res(fn, r->res.array.array, t, surf);
		break;
	case cudaResourceTypeLinear: case cudaResourceTypePitch2D:
		desc = linear_res(fn, r, t, surf);
		break;
	case cudaResourceTypeMipmappedArray:
		rt_say("%s: mipmapped arrays are not supported by rfsim", fn);
		return cudaErrorNotSupported;
	default:
		return cudaErrorInvalidValue;
	}
	if (!desc) return cudaErrorInvalidValue;
	if (!array_format(desc, &nch, &chb)) {
		rt_say("%s: unsupported channel format", fn);
		return cudaErrorInvalidChannelDescriptor;
	}
	t->nch = (uint8_t)nch;
	t->chbytes = (uint8_t)chb;
	t->chkind = desc->f == cudaChannelFormatKindSigned ? TEXC_SIGNED
	          : desc->f == cudaChannelFormatKindUnsigned ? TEXC_UNSIGNED : TEXC_FLOAT;
	return r->flags ? cudaErrorInvalidValue : cudaSuccess;
}

/* the sampling state into t; cudaSuccess or the error (said) */
static cudaError_t sampling(const char *fn, const struct cudaTextureDesc *d, TexObj *t)
{
	for (int k = 0; k < 3; k++)
		if ((unsigned)d->addressMode[k] > cudaAddressModeBorder) return cudaErrorInvalidValue;
	if ((unsigned)d->filterMode > cudaFilterModeLinear ||
	    (unsigned)d->readMode > cudaReadModeNormalizedFloat)
		return cudaErrorInvalidValue;
	if (d->sRGB) {
		rt_say("%s: sRGB textures are not supported by rfsim", fn);
		return cudaErrorNotSupported;
	}
	int fl = t->chkind == TEXC_FLOAT;
	int norm = d->readMode == cudaReadModeNormalizedFloat && !fl;
	if (norm && t->chbytes == 4) {
		rt_say("%s: cudaReadModeNormalizedFloat needs 8- or 16-bit integer channels", fn);
		return cudaErrorInvalidValue;
	}
	if (d->filterMode == cudaFilterModeLinear && !fl && !norm) {
		rt_say("%s: linear filtering needs a float format or cudaReadModeNormalizedFloat", fn);
		return cudaErrorInvalidValue;
	}
	for (int k = 0; k < 3; k++) t->addr[k] = (uint8_t)d->addressMode[k];
	t->filter_linear = d->filterMode == cudaFilterModeLinear && !t->linear;
	t->read_norm = (uint8_t)norm;
	t->norm_coords = d->normalizedCoords != 0 && !t->linear;
	memcpy(t->border, d->borderColor, sizeof t->border);
	return cudaSuccess;
}

static cudaError_t create(const char *fn, unsigned long long *out,
                          const struct cudaResourceDesc *r, const struct cudaTextureDesc *d,
                          int kind)
{
	TexObj t = {0};
	t.kind = (uint8_t)kind;
	cudaError_t e = resource(fn, r, &t, kind == TEXK_SURF);
	if (!e && d) e = sampling(fn, d, &t);
	if (e) return rt_err(e);
	Gpu *g = api_gpu();
	if (!g) return rt_err(cudaErrorInitializationError);
	Rec *rc = xcalloc(1, sizeof *rc);
	*out = gpu_tex_create(g, &t);
	handle_add(handle_kind(kind), *out, rc);
	rc->res = *r;
	if (d) rc->tex = *d;
	return cudaSuccess;
}

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                    const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc,
                                    const struct cudaResourceViewDesc *pResViewDesc)
{
	RT_API();
	if (!pTexObject || !pResDesc || !pTexDesc) return rt_err(cudaErrorInvalidValue);
	READY();
	if (pResViewDesc) {
		rt_say("cudaCreateTextureObject: resource views are not supported by rfsim");
		return rt_err(cudaErrorNotSupported);
	}
	return create("cudaCreateTextureObject", pTexObject, pResDesc, pTexDesc, TEXK_TEX);
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                    const struct cudaResourceDesc *pResDesc)
{
	RT_API();
	if (!pSurfObject || !pResDesc) return rt_err(cudaErrorInvalidValue);
	READY();
	return create("cudaCreateSurfaceObject", pSurfObject, pResDesc, NULL, TEXK_SURF);
}

static cudaError_t destroy(unsigned long long h, int kind)
{
	READY();
	Rec *r = rec_find(h, kind);
	Gpu *g = api_gpu();
	if (!r || !g || gpu_tex_destroy(g, h, kind)) return rt_err(cudaErrorInvalidValue);
	free(handle_drop(handle_kind(kind), h));
	return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
	RT_API();
	return destroy(texObject, TEXK_TEX);
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
	RT_API();
	return destroy(surfObject, TEXK_SURF);
}

cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                             cudaTextureObject_t texObject)
{
	RT_API();
	Rec *r = rec_find(texObject, TEXK_TEX);
	if (!pResDesc || !r) return rt_err(cudaErrorInvalidValue);
	*pResDesc = r->res;
	return cudaSuccess;
}

cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
                                            cudaTextureObject_t texObject)
{
	RT_API();
	Rec *r = rec_find(texObject, TEXK_TEX);
	if (!pTexDesc || !r) return rt_err(cudaErrorInvalidValue);
	*pTexDesc = r->tex;
	return cudaSuccess;
}

cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                             cudaSurfaceObject_t surfObject)
{
	RT_API();
	Rec *r = rec_find(surfObject, TEXK_SURF);
	if (!pResDesc || !r) return rt_err(cudaErrorInvalidValue);
	*pResDesc = r->res;
	return cudaSuccess;
}
