/*
 * cdp.h -- dynamic parallelism (CDP2): kernels launching kernels.  See cdp.c.
 */
#ifndef RFSIM_FUNC_CDP_H
#define RFSIM_FUNC_CDP_H

#include <stdint.h>

#include "func/kernel.h"
#include "func/devmem.h"

enum {
	CDP_MAX_DEPTH = 24,       /* nesting levels of device launches CUDA allows */
	CDP_MAX_PENDING = 2048,   /* cudaLimitDevRuntimePendingLaunchCount's default */
	CDP_STREAM_TAIL = 3,      /* cudaStreamTailLaunch */
	CDP_STREAM_FIRE = 4,      /* cudaStreamFireAndForget */
	CDP_ERR_INVALID_VALUE = 1,        /* cudaErrorInvalidValue */
	CDP_ERR_MAX_DEPTH = 65,           /* cudaErrorLaunchMaxDepthExceeded */
	CDP_ERR_PENDING = 69,             /* cudaErrorLaunchPendingCountExceeded */
};

typedef struct CdpLaunch {   /* one device-side launch */
	uint64_t buf;            /* its parameter buffer (a device heap allocation) */
	int32_t k;               /* the kernel, an index of the Program's kernels */
	Dim3 grid, block;
	uint32_t dyn;            /* dynamic shared memory bytes */
	uint8_t launched;        /* LaunchDevice took it (else only its buffer was asked for) */
	uint8_t tail;            /* into cudaStreamTailLaunch: after the grid's other work */
} CdpLaunch;

typedef struct Cdp {         /* the device launches of the grids now running, one Gpu's */
	const Program *p;        /* the program of the running grid */
	CdpLaunch *v;            /* launches recorded, oldest first; a grid's are a suffix */
	int32_t n, cap;
	int32_t npending;        /* launched, not yet started */
	int32_t max_pending;     /* the limit on npending (CDP_MAX_PENDING unless set) */
	int32_t depth;           /* nesting level of the running grid: host launches are 0 */
} Cdp;

/* __cudaCDP2GetParameterBufferV2: a parameter buffer for kernel fptr, 0 if fptr is
 * no kernel of the program or the heap is full */
uint64_t cdp_param_buffer(Cdp *cd, GMem *gm, uint64_t fptr, Dim3 grid, Dim3 block,
                          uint32_t dyn);
/* __cudaCDP2LaunchDeviceV2 into stream (NULL or a special handle): the
 * cudaError_t the device caller gets */
int32_t cdp_launch(Cdp *cd, uint64_t buf, uint64_t stream);

#endif
