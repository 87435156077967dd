/*
 * gpu.h -- the simulated GPU as the host side sees it: device memory,
 * loaded programs, kernel launches, and per-kernel statistics.
 *
 * The driver-API layer (src/api/driver.c) is a thin skin over this; the
 * CLI's `run FILE.ptx` uses it directly.  Every function returns RF_OK, or
 * RF_EINPUT / RF_ERUNTIME with the reason in err_msg() (base.h).
 */
#ifndef RFSIM_SIM_GPU_H
#define RFSIM_SIM_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "base/config.h"
#include "func/kernel.h"
#include "func/tex.h"
#include "timing/tstats.h"

typedef struct Gpu Gpu;

/* texture and surface objects (func/tex.h): a new one's handle (never 0);
 * the live object of a handle and kind, or NULL; RF_OK, RF_EINPUT */
uint64_t gpu_tex_create(Gpu *g, const TexObj *t);
const TexObj *gpu_tex_get(const Gpu *g, uint64_t handle, int kind);
int gpu_tex_destroy(Gpu *g, uint64_t handle, int kind);

Gpu *gpu_new(const Config *cfg);
void gpu_free(Gpu *g);
const Config *gpu_config(const Gpu *g);

/* device memory */
int gpu_mem_alloc(Gpu *g, uint64_t bytes, uint64_t *dptr);
int gpu_mem_free(Gpu *g, uint64_t dptr);              /* dptr must be an allocation's base */
/* host pointer to [dptr, dptr+bytes) if it lies inside one allocation, else NULL */
/* the host wrote device memory [dptr, dptr + bytes) (a copy, a memset): with
 * mem.memcpy_l2 its lines are left in the timing model's L2 */
void gpu_copied_in(Gpu *g, uint64_t dptr, uint64_t bytes);
void *gpu_mem_host(Gpu *g, uint64_t dptr, uint64_t bytes);
/* the device-side malloc heap's size (cudaLimitMallocHeapSize) */
uint64_t gpu_heap_limit(const Gpu *g);
void gpu_set_heap_limit(Gpu *g, uint64_t bytes);
/* device-side launches pending at once (cudaLimitDevRuntimePendingLaunchCount, 2048) */
uint64_t gpu_pending_limit(const Gpu *g);
void gpu_set_pending_limit(Gpu *g, uint64_t n);

/* programs: parse, check every instruction is implemented, place variables */
int gpu_load_ptx(Gpu *g, const char *text, size_t len, const char *filename,
                 Program **out);
void gpu_unload(Gpu *g, Program *p);
/* a program's kernels and variables: prog_* (func/prog.h) */

/* run one kernel to completion (synchronously).  params is the kernel's
 * parameter buffer laid out as KernelAttr.params says. */
int gpu_launch(Gpu *g, Program *p, int kernel, Dim3 grid, Dim3 block, uint32_t dyn_shmem,
               const void *params, size_t params_size);
/* the same as a cooperative launch (cudaLaunchCooperativeKernel): the whole
 * grid must be resident at once (else RF_EINPUT, FAULT_COOP_TOO_LARGE), its
 * CTAs run interleaved, and grid.sync() finds its workspace */
int gpu_launch_coop(Gpu *g, Program *p, int kernel, Dim3 grid, Dim3 block, uint32_t dyn_shmem,
                    const void *params, size_t params_size);
/* either, with thread-block clusters of cluster.x * .y * .z CTAs (0: none asked; the
 * kernel's __cluster_dims__ apply): a cluster's CTAs are resident together, share
 * their shared memory and meet at barrier.cluster */
int gpu_launch_ex(Gpu *g, Program *p, int kernel, Dim3 grid, Dim3 block, uint32_t dyn_shmem,
                  const void *params, size_t params_size, int coop, Dim3 cluster);

int gpu_last_fault(const Gpu *g);

/* statistics of every kernel launched so far, in launch order */
const KernelStats *gpu_kernel_stats(const Gpu *g, int *n);

#endif
