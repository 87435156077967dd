/*
 * api.h -- what the CLI tells the driver-API layer (driver.c) and asks it.
 *
 * The built-in workloads' host code calls the CUDA Driver API subset
 * (cuda.h) and knows nothing of rfsim; the CLI chooses the machine before
 * it runs that host code and reads the kernel records afterwards.  The
 * config is process-wide because the Driver API has no place to pass one:
 * cuInit/cuCtxCreate build their simulated GPU from the config set here
 * (the built-in defaults if none was set).
 */
#ifndef RFSIM_API_API_H
#define RFSIM_API_API_H

#include "base/config.h"
#include "api/cuda.h"
#include "sim/gpu.h"

/* the config later contexts' GPUs are built from (copied) */
void api_set_config(const Config *c);

/* the host's view of device memory [dptr, dptr+bytes) in the current
 * context, or NULL if that is not inside one live allocation (or there is
 * no context): how libcudart tells device pointers from host pointers */
void *api_mem_host(CUdeviceptr dptr, size_t bytes);
/* the host copied into device memory [dptr, dptr + bytes) (mem.memcpy_l2) */
void api_copied_in(CUdeviceptr dptr, size_t bytes);

/* the current context's simulated GPU, NULL if there is none: how libcudart
 * reaches what the Driver API subset lacks (texture and surface objects) */
Gpu *api_gpu(void);

/* shared memory a block may have without opting in to more: 48 KB, as on
 * NVIDIA's GPUs, or block.max_shared_bytes if that is less
 * (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK; the _OPTIN limit is
 * block.max_shared_bytes) */
int64_t api_default_shared(const Config *c);

/* the largest CUDA arrays libcudart makes (as sm_80 reports them): the texture and
 * surface attributes of devattr.def, cudaDeviceProp.maxTexture*, maxSurface* */
enum { ARRAY_MAX_1D = 131072, ARRAY_MAX_2D_W = 131072, ARRAY_MAX_2D_H = 65536,
       ARRAY_MAX_3D = 16384, ARRAY_MAX_LAYERED_W = 32768, ARRAY_MAX_LAYERS = 2048 };

/* cuModuleLoadData, with the name that error messages give the PTX
 * (libcudart names what it pulls out of a program "PROG.compute_XX.ptx") */
CUresult api_module_load(CUmodule *module, const char *ptx, const char *name);

/* the kernel's parameter list as its PTX declares it (offsets and sizes
 * in the parameter buffer): how libcudart copies a graph kernel node's
 * arguments when the node is made.  CUDA_ERROR_INVALID_HANDLE for a
 * function of no loaded module. */
CUresult api_func_params(CUfunction f, KernelAttr *attr);

/* every kernel launched through the driver API since the last clear, in
 * launch order, across contexts */
const KernelStats *api_kernel_log(int *n);
/* cuLaunchKernel / cuLaunchCooperativeKernel (coop) with thread-block clusters of
 * cluster[0..2] CTAs (NULL or zeros: none asked; the kernel's __cluster_dims__ apply) */
CUresult api_launch_ex(CUfunction f, const unsigned grid[3], const unsigned block[3],
                       unsigned shmem, void **kernelParams, int coop, const unsigned cluster[3]);
void api_kernel_log_clear(void);
/* what stopped the last launch through the driver API (gpu.h's FAULT_*) */
int api_last_fault(void);

#endif
