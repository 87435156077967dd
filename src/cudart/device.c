/*
 * device.c -- the one simulated device, as the runtime API describes it.
 *
 * Device 0 is the machine of the environment's config (runtime.c).  Its
 * attributes are the Driver API layer's (cuDeviceGetAttribute), which
 * takes them from devattr.def, one table of every attribute of CUDA 13;
 * cudaDeviceGetAttribute asks for them by the same numbers, and
 * cudaGetDeviceProperties fills every cudaDeviceProp field that has an
 * attribute from the same table, so the two APIs and the struct agree
 * (tests/cudart/devattr.c).  The rest of the struct is the name, the
 * memory size (gpu.global_bytes) and zeros (uuid aside).
 *
 * Limits and cache preferences are accepted and remembered but change
 * nothing: rfsim's local memory and L1 are not sized by them.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "cudart/rt.h"


#define READY() do { cudaError_t e_ = rt_ready(); if (e_) return rt_err(e_); } while (0)

static int attr(CUdevice_attribute a)
{
	int v = 0;
	CUresult r = cuDeviceGetAttribute(&v, a, 0);
	assert(r == CUDA_SUCCESS);      /* devattr.def lists every number asked for */
	(void)r;
	return v;
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
	RtState *rs = rt_state();
	if (device != 0) return rt_err(cudaErrorInvalidDevice);
	rs->device_flags = deviceFlags;
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
	RtState *rs = rt_state();
	if (flags & ~0x1Fu) return rt_err(cudaErrorInvalidValue);
	rs->device_flags = flags;
	return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
	RT_API();
	RtState *rs = rt_state();
	if (!flags) return rt_err(cudaErrorInvalidValue);
	*flags = rs->device_flags | cudaDeviceMapHost;
	return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr a, int device)
{
	RT_API();
	if (!value) return rt_err(cudaErrorInvalidValue);
	if (device != 0) return rt_err(cudaErrorInvalidDevice);
	READY();
	CUresult r = cuDeviceGetAttribute(value, (CUdevice_attribute)a, 0);   /* same numbers */
	return r ? rt_err(cudaErrorInvalidValue) : cudaSuccess;
}

/* every field with an attribute (devattr.def's DP rows) */
static void props_from_attributes(struct cudaDeviceProp *p)
{
#define DA(name, num, rtname, value)
#define DD(name, num, value)
#define DP(name, num, rtname, field, value) p->field = attr(CU_DEVICE_ATTRIBUTE_##name);
#include "api/devattr.def"
#undef DA
#undef DP
#undef DD
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
	props_from_attributes(prop);
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
	RtState *rs = rt_state();
	rs->cache_config = c;
	return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *c)
{
	RT_API();
	RtState *rs = rt_state();
	if (!c) return rt_err(cudaErrorInvalidValue);
	*c = rs->cache_config;
	return cudaSuccess;
}

cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig c)
{
	RT_API();
	RtState *rs = rt_state();
	rs->shmem_config = c;
	return cudaSuccess;
}

cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *c)
{
	RT_API();
	RtState *rs = rt_state();
	if (!c) return rt_err(cudaErrorInvalidValue);
	*c = rs->shmem_config ? rs->shmem_config : cudaSharedMemBankSizeFourByte;
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
