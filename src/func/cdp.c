/*
 * cdp.c -- dynamic parallelism, CUDA 12+ semantics (CDP2): a kernel launches
 * a kernel with the same <<<...>>> syntax as the host.
 *
 * nvcc (with -rdc=true) lowers `child<<<g, b, shm, s>>>(args)` into two calls
 * of the device runtime (libcudadevrt), which rfsim provides as builtins
 * (builtin.c):
 *   buf = __cudaCDP2GetParameterBufferV2(&child, g, b, shm);   (dim3s by value)
 *   if (buf) { store args into buf as child's .param list lays them out;
 *              err = __cudaCDP2LaunchDeviceV2(buf, s); }
 * The buffer is device memory from the device heap (malloc's, devmem.h), 256-byte
 * aligned (CUDA asks 64); each launch gets its own and rfsim frees it when
 * the child starts.
 *
 * Schedule.  A launch only records the child (Cdp.v); the children of a grid
 * run after the grid's last CTA finishes, in launch order, each with its
 * own descendants before the next, and those launched into
 * cudaStreamTailLaunch after all the others, in their launch order (gpu.c).
 * That is a legal CDP2 schedule: a grid is complete only when the work it
 * launched is, a tail launch starts when its parent and the parent's other
 * work are done, and CDP2 gives a parent no way to wait for a child
 * (device-side cudaDeviceSynchronize was removed).  The streams accepted
 * are the default one (NULL), cudaStreamTailLaunch and
 * cudaStreamFireAndForget; device-created streams need
 * cudaStreamCreateWithFlags, which the linker refuses.
 *
 * Limits, as CUDA: 24 nesting levels (a launch from level 24 returns
 * cudaErrorLaunchMaxDepthExceeded) and 2048 launches pending at once
 * (cudaLimitDevRuntimePendingLaunchCount: cudaDeviceSetLimit changes it;
 * beyond it cudaErrorLaunchPendingCountExceeded).  Each child is an ordinary launch
 * (gpu.c launch()): checked, compiled, run by the functional core or the
 * timing model, and listed in the per-kernel statistics after its parent.
 */
#include "func/cdp.h"

#include "base/base.h"
#include "func/decode.h"
#include "func/prog.h"

uint64_t cdp_param_buffer(Cdp *cd, GMem *gm, uint64_t fptr, Dim3 grid, Dim3 block,
                          uint32_t dyn)
{
	const Program *p = cd->p;
	if (fptr < p->code_dptr || (fptr - p->code_dptr) % GPU_FUNC_STRIDE) return 0;
	uint64_t mf = (fptr - p->code_dptr) / GPU_FUNC_STRIDE;
	int32_t k = 0;
	while (k < p->nkernel && (uint64_t)p->kernels[k] != mf) k++;
	if (k == p->nkernel) return 0;
	uint32_t bytes = p->img[k]->param_bytes;
	uint64_t buf;
	gmem_heap_alloc(gm, bytes ? bytes : 1, &buf);
	if (!buf) return 0;
	VEC_RESERVE(cd->v, cd->cap, (size_t)cd->n + 1);
	cd->v[cd->n++] = (CdpLaunch){buf, k, grid, block, dyn, 0, 0};
	return buf;
}

int32_t cdp_launch(Cdp *cd, uint64_t buf, uint64_t stream)
{
	int32_t i = cd->n - 1;
	while (i >= 0 && (cd->v[i].buf != buf || cd->v[i].launched)) i--;
	if (i < 0) return CDP_ERR_INVALID_VALUE;
	if (cd->depth >= CDP_MAX_DEPTH) return CDP_ERR_MAX_DEPTH;
	if (cd->npending >= cd->max_pending) return CDP_ERR_PENDING;
	cd->v[i].launched = 1;
	cd->v[i].tail = stream == CDP_STREAM_TAIL;
	cd->npending++;
	return 0;
}
