/*
 * tex.h -- texture and surface objects as the simulated GPU keeps them.
 *
 * A cudaTextureObject_t / cudaSurfaceObject_t is a 64-bit handle that a
 * kernel receives as a parameter and names in tex/tld4/suld/sust.  The
 * runtime (src/cudart/texture.c) describes each object it creates here:
 * where its texels lie in device memory (an array's private layout or the
 * program's linear memory), their format and the sampling state.  The
 * GPU keeps one table per context; a handle is its index + 1, never
 * reused, so a handle destroyed before a launch (or never created) is
 * reported at the instruction that uses it (exec_tex.c).
 */
#ifndef RFSIM_FUNC_TEX_H
#define RFSIM_FUNC_TEX_H

#include <stdint.h>

enum { TEXK_NONE, TEXK_TEX, TEXK_SURF };                 /* TexObj.kind (NONE: destroyed) */
enum { TEXC_SIGNED, TEXC_UNSIGNED, TEXC_FLOAT };         /* channel kind */
enum { TEXA_WRAP, TEXA_CLAMP, TEXA_MIRROR, TEXA_BORDER }; /* cudaTextureAddressMode */

typedef struct TexObj {
	uint8_t kind;            /* TEXK_* */
	uint8_t dims;            /* 1, 2 or 3 (a layered array: of each layer) */
	uint8_t linear;          /* over linear memory (cudaResourceTypeLinear): tex1Dfetch */
	uint8_t nch;             /* channels: 1, 2 or 4 (a 3-channel format is refused) */
	uint8_t chbytes;         /* bytes per channel: 1, 2 or 4 */
	uint8_t chkind;          /* TEXC_*; a 2-byte float is half precision */
	uint8_t addr[3];         /* TEXA_* per dimension */
	uint8_t filter_linear;   /* cudaFilterModeLinear */
	uint8_t read_norm;       /* cudaReadModeNormalizedFloat */
	uint8_t norm_coords;     /* normalizedCoords */
	float border[4];         /* borderColor */
	uint64_t base;           /* device address of texel (0, 0, 0) */
	uint64_t size[3];        /* width, height, depth in texels (1 where unused) */
	uint64_t pitch;          /* bytes from one row to the next */
	uint64_t slice;          /* bytes from one 2D slice (or layer) to the next */
	uint32_t layers;         /* a layered array's layers (tex.a1d, .a2d); 0: not layered */
} TexObj;


#endif
