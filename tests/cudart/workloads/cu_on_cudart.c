/*
 * cu_on_cudart.c -- the Driver API subset the built-in workloads' host code
 * uses, implemented on the CUDA runtime API, so that a workload becomes an
 * ordinary nvcc-built runtime program (tests/test_cudart.py).
 *
 * The test compiles a workload's kernels (workloads/NAME/NAME.cu) and its
 * unchanged host code (NAME.c, wl_util.c) with nvcc into one program
 * linked against libcudart.  Kernels and device variables are then the
 * program's own, registered by nvcc's start-up code; the host code still
 * asks for them by name (cuModuleGetFunction(mod, "saxpy")).  nvcc's host
 * stubs are local symbols, so to learn which host address is which kernel
 * this file sits between nvcc's start-up code and the runtime: it defines
 * __cudaRegisterFunction and __cudaRegisterVar itself (the executable's
 * definitions take precedence for its own calls), notes PTX name -> host
 * address, and passes each call on to the runtime's (dlsym RTLD_NEXT).
 * Launches then go through cudaLaunchKernel with the host stub, memory
 * through cudaMalloc/cudaMemcpy: the path an unmodified CUDA program
 * takes.  The PTX text the host code passes to cuModuleLoadData is
 * ignored -- the program runs its own embedded PTX.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

/* ---- PTX name -> host address, noted at registration ---- */

enum { MAXSYM = 64 };
static struct { const char *name; const void *host; } syms[MAXSYM];
static int nsyms;

static void note(const char *name, const void *host)
{
	if (nsyms < MAXSYM) syms[nsyms].name = name, syms[nsyms++].host = host;
}

static const void *lookup(const char *name)
{
	for (int i = 0; i < nsyms; i++)
		if (!strcmp(syms[i].name, name)) return syms[i].host;
	return NULL;
}

void __cudaRegisterFunction(void **h, const char *hostFun, char *deviceFun,
                            const char *deviceName, int limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize);
void __cudaRegisterFunction(void **h, const char *hostFun, char *deviceFun,
                            const char *deviceName, int limit, uint3 *tid, uint3 *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize)
{
	void (*next)(void **, const char *, char *, const char *, int, uint3 *, uint3 *, dim3 *,
	             dim3 *, int *);
	*(void **)&next = dlsym(RTLD_NEXT, "__cudaRegisterFunction");
	note(deviceName, hostFun);
	next(h, hostFun, deviceFun, deviceName, limit, tid, bid, bDim, gDim, wSize);
}

void __cudaRegisterVar(void **h, char *hostVar, char *deviceAddress, const char *deviceName,
                       int ext, size_t size, int constant, int global);
void __cudaRegisterVar(void **h, char *hostVar, char *deviceAddress, const char *deviceName,
                       int ext, size_t size, int constant, int global)
{
	void (*next)(void **, char *, char *, const char *, int, size_t, int, int);
	*(void **)&next = dlsym(RTLD_NEXT, "__cudaRegisterVar");
	note(deviceName, hostVar);
	next(h, hostVar, deviceAddress, deviceName, ext, size, constant, global);
}

/* ---- the driver calls ---- */

/* the two APIs number their common errors alike */
static CUresult rc(cudaError_t e) { return (CUresult)e; }

CUresult cuGetErrorName(CUresult error, const char **pStr)
{
	*pStr = cudaGetErrorName((cudaError_t)error);
	return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char **pStr)
{
	*pStr = cudaGetErrorString((cudaError_t)error);
	return CUDA_SUCCESS;
}

CUresult cuInit(unsigned int flags) { return flags ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS; }

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
	*device = ordinal;
	return rc(cudaSetDevice(ordinal));
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
	return rc(cudaDeviceGetAttribute(pi, (enum cudaDeviceAttr)attrib, dev));
}

CUresult cuCtxCreate(CUcontext *pctx, CUctxCreateParams *params, unsigned int flags,
                     CUdevice dev)
{
	*pctx = (CUcontext)1;       /* the runtime's primary context stands in */
	return rc(cudaFree(0));
}

CUresult cuCtxDestroy(CUcontext ctx) { return CUDA_SUCCESS; }
CUresult cuCtxSynchronize(void) { return rc(cudaDeviceSynchronize()); }

CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
	*module = (CUmodule)1;
	return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule hmod) { return CUDA_SUCCESS; }

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
	const void *stub = lookup(name);
	if (!stub) return CUDA_ERROR_NOT_FOUND;
	*hfunc = (CUfunction)stub;
	return CUDA_SUCCESS;
}

CUresult cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
	const void *shadow = lookup(name);
	void *d = NULL;
	size_t n = 0;
	if (!shadow) return CUDA_ERROR_NOT_FOUND;
	cudaError_t e = cudaGetSymbolAddress(&d, shadow);
	if (!e) e = cudaGetSymbolSize(&n, shadow);
	if (dptr) *dptr = (CUdeviceptr)d;
	if (bytes) *bytes = n;
	return rc(e);
}

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction f)
{
	struct cudaFuncAttributes a;
	cudaError_t e = cudaFuncGetAttributes(&a, (const void *)f);
	if (e) return rc(e);
	switch (attrib) {
	case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = a.maxThreadsPerBlock; break;
	case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = a.numRegs; break;
	case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)a.sharedSizeBytes; break;
	default: return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                        unsigned int bx, unsigned int by, unsigned int bz, unsigned int shmem,
                        CUstream stream, void **kernelParams, void **extra)
{
	dim3 grid = {gx, gy, gz}, block = {bx, by, bz};
	if (extra) return CUDA_ERROR_INVALID_VALUE;
	return rc(cudaLaunchKernel((const void *)f, grid, block, kernelParams, shmem,
	                           (cudaStream_t)stream));
}

CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytes)
{
	void *p = NULL;
	cudaError_t e = cudaMalloc(&p, bytes);
	*dptr = (CUdeviceptr)p;
	return rc(e);
}

CUresult cuMemFree(CUdeviceptr d) { return rc(cudaFree((void *)d)); }

CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n)
{
	return rc(cudaMemcpy((void *)dst, src, n, cudaMemcpyHostToDevice));
}

CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n)
{
	return rc(cudaMemcpy(dst, (const void *)src, n, cudaMemcpyDeviceToHost));
}

CUresult cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	return rc(cudaMemcpy((void *)dst, (const void *)src, n, cudaMemcpyDeviceToDevice));
}

CUresult cuMemsetD8(CUdeviceptr d, unsigned char uc, size_t n)
{
	return rc(cudaMemset((void *)d, uc, n));
}

CUresult cuMemsetD32(CUdeviceptr d, unsigned int ui, size_t n)
{
	/* the runtime API has no 32-bit memset: write the pattern from the host */
	enum { CHUNK = 4096 };
	unsigned int buf[CHUNK];
	for (size_t i = 0; i < CHUNK; i++) buf[i] = ui;
	for (size_t done = 0; done < n; done += CHUNK) {
		size_t k = n - done < CHUNK ? n - done : CHUNK;
		cudaError_t e = cudaMemcpy((unsigned int *)d + done, buf, k * 4,
		                           cudaMemcpyHostToDevice);
		if (e) return rc(e);
	}
	return CUDA_SUCCESS;
}
