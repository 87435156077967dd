/*
 * device.c -- the one simulated device, as the runtime API describes it.
 *
 * Device 0 is the machine of the environment's config (runtime.c).  Its
 * numbers come from the Driver API layer (cuDeviceGetAttribute), which
 * derives them from the config, so both APIs and `rfsim config` agree:
 * cudaGetDeviceProperties reports sm.count SMs, sm.registers registers
 * per SM, block.max_shared_bytes per block, gpu.global_bytes of memory and
 * gpu.clock_mhz.  Things rfsim does not model (PCI, ECC, NUMA)
 * read as zero, which programs take to mean "not supported".
 *
 * Limits and cache preferences are accepted and remembered but change
 * nothing: rfsim's local memory and L1 are not sized by them.
 */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "rt.h"

static unsigned device_flags;
static enum cudaFuncCache cache_config;
static enum cudaSharedMemConfig shmem_config;

#define READY() do { cudaError_t e_ = rt_ready(); if (e_) return rt_err(e_); } while (0)

static int attr(CUdevice_attribute a)
{
	int v = 0;
	switch (a) {                 /* what the runtime adds to the driver layer */
	case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY:
	case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY:
		return 1;                /* both mirrored by memory.c */
	default:
		cuDeviceGetAttribute(&v, a, 0);
		return v;
	}
}

cudaError_t cudaGetDeviceCount(int *count)
{
	RT_API();
	if (!count) return rt_err(cudaErrorInvalidValue);
	*count = 1;
	return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
	RT_API();
	if (device != 0) return rt_err(cudaErrorInvalidDevice);
	READY();
	return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device)
{
	RT_API();
	if (!device) return rt_err(cudaErrorInvalidValue);
	*device = 0;
	return cudaSuccess;
}

cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
	RT_API();
	if (device != 0) return rt_err(cudaErrorInvalidDevice);
	device_flags = deviceFlags;
	READY();
	return cudaSuccess;
}

cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
	RT_API();
	if (!device || !prop) return rt_err(cudaErrorInvalidValue);
	*device = 0;
	return cudaSuccess;
}

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
	RT_API();
	if (flags & ~0x1Fu) return rt_err(cudaErrorInvalidValue);
	device_flags = flags;
	return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
	RT_API();
	if (!flags) return rt_err(cudaErrorInvalidValue);
	*flags = device_flags | cudaDeviceMapHost;
	return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr a, int device)
{
	RT_API();
	if (!value) return rt_err(cudaErrorInvalidValue);
	if (device != 0) return rt_err(cudaErrorInvalidDevice);
	READY();
	*value = attr((CUdevice_attribute)a);    /* the two APIs number attributes alike */
	return cudaSuccess;
}

static void props_limits(struct cudaDeviceProp *p)
{
	p->sharedMemPerBlock = (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
	p->regsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
	p->warpSize = attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
	p->memPitch = (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_PITCH);
	p->maxThreadsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
	for (int i = 0; i < 3; i++) {
		p->maxThreadsDim[i] = attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + i);
		p->maxGridSize[i] = attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + i);
	}
	p->totalConstMem = (size_t)attr(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
	p->major = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
	p->minor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
	p->textureAlignment = (size_t)attr(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT);
	p->texturePitchAlignment = 32;
	p->surfaceAlignment = (size_t)attr(CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT);
	/* CUDA arrays and texture/surface objects (array.c, texture.c): no mipmaps
	   or cube maps, so those limits stay zero */
	p->maxTexture1D = p->maxSurface1D = ARRAY_MAX_1D;
	p->maxTexture2D[0] = p->maxSurface2D[0] = ARRAY_MAX_2D_W;
	p->maxTexture2D[1] = p->maxSurface2D[1] = ARRAY_MAX_2D_H;
	p->maxTexture2DLinear[0] = ARRAY_MAX_2D_W, p->maxTexture2DLinear[1] = ARRAY_MAX_2D_H;
	p->maxTexture2DLinear[2] = 1 << 21;
	p->maxTexture2DGather[0] = p->maxTexture2DGather[1] = 32768;
	for (int i = 0; i < 3; i++) p->maxTexture3D[i] = p->maxSurface3D[i] = ARRAY_MAX_3D;
	p->maxTexture1DLayered[0] = p->maxSurface1DLayered[0] = ARRAY_MAX_LAYERED_W;
	p->maxTexture1DLayered[1] = p->maxSurface1DLayered[1] = ARRAY_MAX_LAYERS;
	for (int i = 0; i < 2; i++)
		p->maxTexture2DLayered[i] = p->maxSurface2DLayered[i] = ARRAY_MAX_LAYERED_W;
	p->maxTexture2DLayered[2] = p->maxSurface2DLayered[2] = ARRAY_MAX_LAYERS;
	p->multiProcessorCount = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
	p->maxThreadsPerMultiProcessor = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
	p->sharedMemPerMultiprocessor =
		(size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
	p->regsPerMultiprocessor = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
	p->sharedMemPerBlockOptin =
		(size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
	p->maxBlocksPerMultiProcessor = attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
	p->reservedSharedMemPerBlock = (size_t)rt_config()->sm_shared_reserved_bytes;
	p->l2CacheSize = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
	p->memoryBusWidth = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
	RT_API();
	if (!prop) return rt_err(cudaErrorInvalidValue);
	if (device != 0) return rt_err(cudaErrorInvalidDevice);
	READY();
	memset(prop, 0, sizeof *prop);
	cuDeviceGetName(prop->name, sizeof prop->name, 0);
	memcpy(prop->uuid.bytes, "rfsim-simulated", 16);
	prop->totalGlobalMem = (size_t)rt_config()->gpu_global_bytes;
	props_limits(prop);
	prop->canMapHostMemory = attr(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY);
	prop->unifiedAddressing = attr(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING);
	prop->managedMemory = attr(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY);
	prop->concurrentKernels = attr(CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS);
	prop->cooperativeLaunch = attr(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH);
	prop->clusterLaunch = attr(CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH);
	prop->globalL1CacheSupported = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED);
	prop->localL1CacheSupported = attr(CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED);
	prop->computePreemptionSupported = 0;
	prop->hostNumaId = -1;
	prop->deviceNumaId = -1;
	return cudaSuccess;
}

cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
	RT_API();
	if (!pciBusId || len <= 0) return rt_err(cudaErrorInvalidValue);
	if (device != 0) return rt_err(cudaErrorInvalidDevice);
	snprintf(pciBusId, (size_t)len, "0000:00:00.0");
	return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
	RT_API();
	cudaError_t e = capture_unsafe("cudaDeviceSynchronize");
	if (e) return e;
	READY();                     /* every call already ran to completion */
	return cudaSuccess;
}

cudaError_t cudaDeviceReset(void)
{
	RT_API();
	rt_reset();
	return cudaSuccess;
}

/* the context's limits (cuCtxSetLimit): the malloc heap's sizes device-side
 * malloc; cudaDeviceReset restores NVIDIA's defaults with the new context */
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
	RT_API();
	READY();
	CUresult r = cuCtxSetLimit((CUlimit)limit, value);
	return r ? rt_err(rt_from_cu(r)) : cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
	RT_API();
	READY();
	CUresult r = cuCtxGetLimit(pValue, (CUlimit)limit);
	return r ? rt_err(rt_from_cu(r)) : cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache c)
{
	RT_API();
	cache_config = c;
	return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *c)
{
	RT_API();
	if (!c) return rt_err(cudaErrorInvalidValue);
	*c = cache_config;
	return cudaSuccess;
}

cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig c)
{
	RT_API();
	shmem_config = c;
	return cudaSuccess;
}

cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *c)
{
	RT_API();
	if (!c) return rt_err(cudaErrorInvalidValue);
	*c = shmem_config ? shmem_config : cudaSharedMemBankSizeFourByte;
	return cudaSuccess;
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
	RT_API();
	if (leastPriority) *leastPriority = 0;      /* one priority: streams run in order */
	if (greatestPriority) *greatestPriority = 0;
	return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *driverVersion)
{
	RT_API();
	if (!driverVersion) return rt_err(cudaErrorInvalidValue);
	*driverVersion = CUDA_VERSION;
	return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
	RT_API();
	if (!runtimeVersion) return rt_err(cudaErrorInvalidValue);
	*runtimeVersion = CUDART_VERSION;
	return cudaSuccess;
}

cudaError_t cudaProfilerStart(void) { RT_API(); return cudaSuccess; }
cudaError_t cudaProfilerStop(void) { RT_API(); return cudaSuccess; }
