/*
 * cuda.h -- rfsim's subset of the CUDA Driver API.
 *
 * Host code written against NVIDIA's driver API compiles unchanged against
 * this header, and host code written against this header compiles
 * unchanged against NVIDIA's (CUDA 13, /usr/local/cuda/include/cuda.h).
 * That is the whole contract, so every name, argument type and enum value
 * below is NVIDIA's; what is ours is the selection and the wording.
 * src/api/driver.c implements the functions on top of the simulator; the
 * same workload host code links against NVIDIA's libcuda to run on a real
 * GPU (workloads/real.mk).
 *
 * Versioned symbols.  NVIDIA's header maps several API names onto
 * versioned entry points with macros (cuMemAlloc is really cuMemAlloc_v2,
 * the 64-bit-size version; cuCtxCreate is cuCtxCreate_v4 since CUDA 13).
 * We mirror exactly those macros, so an object file compiled against
 * either header references the same symbols, and driver.c must define the
 * suffixed names.  We do not mirror the per-thread-default-stream variants
 * (CUDA_API_PER_THREAD_DEFAULT_STREAM): rfsim has one stream.
 *
 * cuCtxCreate takes NVIDIA's CUDA 13 argument list,
 * (CUcontext *, CUctxCreateParams *, unsigned flags, CUdevice).  rfsim
 * models neither execution affinity nor graphics interop, so
 * CUctxCreateParams is left incomplete here and callers pass NULL.  Code
 * that must also build against CUDA 12 headers tests CUDA_VERSION.
 *
 * Left out: streams beyond the NULL stream, events, arrays and textures,
 * unified and host-pinned memory, graphs, libraries, the JIT options of
 * cuModuleLoadDataEx.  Add declarations here only together with their
 * implementation in driver.c.
 */
#ifndef RFSIM_CUDA_H
#define RFSIM_CUDA_H

#include <stddef.h>

#define CUDA_VERSION 13000  /* the driver API version whose names we follow */

#ifdef __cplusplus
extern "C" {
#endif

#define CUDAAPI  /* calling convention; empty on the Linux/x86-64 hosts we support */

/* API name -> versioned symbol, exactly as in NVIDIA's header */
#define cuCtxCreate       cuCtxCreate_v4
#define cuCtxDestroy      cuCtxDestroy_v2
#define cuModuleGetGlobal cuModuleGetGlobal_v2
#define cuMemAlloc        cuMemAlloc_v2
#define cuMemFree         cuMemFree_v2
#define cuMemcpyHtoD      cuMemcpyHtoD_v2
#define cuMemcpyDtoH      cuMemcpyDtoH_v2
#define cuMemcpyDtoD      cuMemcpyDtoD_v2
#define cuMemsetD8        cuMemsetD8_v2
#define cuMemsetD32       cuMemsetD32_v2

/* ---- handles ---- */

#if defined(_WIN64) || defined(__LP64__)
typedef unsigned long long CUdeviceptr_v2;   /* device address, pointer-sized */
#else
typedef unsigned int CUdeviceptr_v2;
#endif
typedef CUdeviceptr_v2 CUdeviceptr;
typedef int CUdevice_v1;                     /* device ordinal */
typedef CUdevice_v1 CUdevice;
typedef struct CUctx_st *CUcontext;          /* a context: address space + modules */
typedef struct CUmod_st *CUmodule;           /* a loaded PTX module */
typedef struct CUfunc_st *CUfunction;        /* a kernel (.entry) of a module */
typedef struct CUstream_st *CUstream;        /* only the NULL stream exists in rfsim */
typedef struct CUctxCreateParams_st CUctxCreateParams;  /* incomplete: pass NULL */

/* ---- status codes (values in cuerrors.def) ---- */

typedef enum cudaError_enum {
#define X(name, value, desc) name = value,
#include "cuerrors.def"
#undef X
} CUresult;

/* ---- context creation flags (rfsim accepts and ignores the scheduling ones) ---- */

typedef enum CUctx_flags_enum {
	CU_CTX_SCHED_AUTO          = 0x00,
	CU_CTX_SCHED_SPIN          = 0x01,
	CU_CTX_SCHED_YIELD         = 0x02,
	CU_CTX_SCHED_BLOCKING_SYNC = 0x04,
	CU_CTX_BLOCKING_SYNC       = 0x04,   /* old name of SCHED_BLOCKING_SYNC */
	CU_CTX_SCHED_MASK          = 0x07,
	CU_CTX_MAP_HOST            = 0x08,
	CU_CTX_LMEM_RESIZE_TO_MAX  = 0x10,
	CU_CTX_FLAGS_MASK          = 0xFF
} CUctx_flags;

/* ---- device attributes (cuDeviceGetAttribute): every one of CUDA 13, with
   NVIDIA's numbers and rfsim's values in devattr.def ---- */

typedef enum CUdevice_attribute_enum {
	/* NVIDIA's older names of some numbers */
	CU_DEVICE_ATTRIBUTE_SHARED_MEMORY_PER_BLOCK = 8,
	CU_DEVICE_ATTRIBUTE_REGISTERS_PER_BLOCK = 12,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_WIDTH = 27,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_HEIGHT = 28,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_NUMSLICES = 29,
	CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED = 102,
#define DA(name, num, rtname, value) CU_DEVICE_ATTRIBUTE_##name = num,
#define DP(name, num, rtname, field, value) CU_DEVICE_ATTRIBUTE_##name = num,
#define DD(name, num, value) CU_DEVICE_ATTRIBUTE_##name = num,
#include "devattr.def"
#undef DA
#undef DP
#undef DD
	CU_DEVICE_ATTRIBUTE_MAX = 148
} CUdevice_attribute;

/* ---- context limits (cuCtxSetLimit); NVIDIA's values ---- */

typedef enum CUlimit_enum {
	CU_LIMIT_STACK_SIZE = 0, CU_LIMIT_PRINTF_FIFO_SIZE = 1, CU_LIMIT_MALLOC_HEAP_SIZE = 2,
	CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH = 3, CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT = 4,
	CU_LIMIT_MAX_L2_FETCH_GRANULARITY = 5, CU_LIMIT_PERSISTING_L2_CACHE_SIZE = 6,
	CU_LIMIT_MAX
} CUlimit;

/* ---- kernel attributes (cuFuncGetAttribute); NVIDIA's values ---- */

typedef enum CUfunction_attribute_enum {
	CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,   /* largest launchable block */
	CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,       /* static shared memory */
	CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,        /* user constant memory */
	CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,        /* local memory per thread */
	CU_FUNC_ATTRIBUTE_NUM_REGS = 4,                /* registers per thread */
	CU_FUNC_ATTRIBUTE_PTX_VERSION = 5,             /* major*10 + minor */
	CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6,          /* major*10 + minor */
	CU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7,
	CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
	CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
	CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET = 10,  /* .explicitcluster */
	CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH = 11,    /* .reqnctapercluster, 0: none */
	CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT = 12,
	CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH = 13
} CUfunction_attribute;

/* ---- cuLaunchKernel's `extra` array: packed-argument-buffer form ---- */

#define CU_LAUNCH_PARAM_END_AS_INT            0x00
#define CU_LAUNCH_PARAM_END                   ((void *)CU_LAUNCH_PARAM_END_AS_INT)
#define CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT 0x01
#define CU_LAUNCH_PARAM_BUFFER_POINTER        ((void *)CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT)
#define CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT    0x02
#define CU_LAUNCH_PARAM_BUFFER_SIZE           ((void *)CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT)

/* ---- error reporting ---- */

CUresult CUDAAPI cuGetErrorString(CUresult error, const char **pStr);
CUresult CUDAAPI cuGetErrorName(CUresult error, const char **pStr);

/* ---- initialisation and devices ---- */

CUresult CUDAAPI cuInit(unsigned int Flags);
CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal);
CUresult CUDAAPI cuDeviceGetCount(int *count);
CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev);
CUresult CUDAAPI cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev);

/* ---- contexts ---- */

CUresult CUDAAPI cuCtxCreate(CUcontext *pctx, CUctxCreateParams *ctxCreateParams,
                             unsigned int flags, CUdevice dev);
CUresult CUDAAPI cuCtxDestroy(CUcontext ctx);
CUresult CUDAAPI cuCtxSynchronize(void);
CUresult CUDAAPI cuCtxSetLimit(CUlimit limit, size_t value);
CUresult CUDAAPI cuCtxGetLimit(size_t *pvalue, CUlimit limit);

/* ---- modules ---- */

CUresult CUDAAPI cuModuleLoad(CUmodule *module, const char *fname);
CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image);
CUresult CUDAAPI cuModuleUnload(CUmodule hmod);
CUresult CUDAAPI cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name);
CUresult CUDAAPI cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod,
                                   const char *name);

/* ---- memory ---- */

CUresult CUDAAPI cuMemAlloc(CUdeviceptr *dptr, size_t bytesize);
CUresult CUDAAPI cuMemFree(CUdeviceptr dptr);
CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount);
CUresult CUDAAPI cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N);
CUresult CUDAAPI cuMemsetD32(CUdeviceptr dstDevice, unsigned int ui, size_t N);

/* ---- execution ---- */

CUresult CUDAAPI cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc);
CUresult CUDAAPI cuLaunchKernel(CUfunction f,
                                unsigned int gridDimX, unsigned int gridDimY,
                                unsigned int gridDimZ,
                                unsigned int blockDimX, unsigned int blockDimY,
                                unsigned int blockDimZ,
                                unsigned int sharedMemBytes, CUstream hStream,
                                void **kernelParams, void **extra);
/* the whole grid resident at once, with grid.sync()'s workspace;
 * CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE if it cannot be */
CUresult CUDAAPI cuLaunchCooperativeKernel(CUfunction f,
                                           unsigned int gridDimX, unsigned int gridDimY,
                                           unsigned int gridDimZ,
                                           unsigned int blockDimX, unsigned int blockDimY,
                                           unsigned int blockDimZ,
                                           unsigned int sharedMemBytes, CUstream hStream,
                                           void **kernelParams);

#ifdef __cplusplus
}
#endif

#endif /* RFSIM_CUDA_H */
