/*
 * launch.c -- kernel launches and kernel queries.
 *
 * What nvcc makes of `kernel<<<grid, block, shmem, stream>>>(a, b)`: the
 * call site pushes the configuration (__cudaPushCallConfiguration) and
 * calls the kernel's host stub with the arguments; the stub pops the
 * configuration (__cudaPopCallConfiguration) and launches with an array
 * of pointers to its arguments -- CUDA 13 through a cudaKernel_t handle
 * it fetched once (__cudaGetKernel, __cudaLaunchKernel), older code and
 * hand-written calls through cudaLaunchKernel(host stub, ...).  All paths
 * end in launch_run, which hands the argument pointers to the driver
 * layer's cuLaunchKernel: it copies each argument, sized and placed as
 * the kernel's PTX parameter list says (PTX ISA alignment rules), into
 * the parameter buffer before the launch returns, which is all the
 * runtime API promises about argument lifetime.
 *
 * Around the kernel, managed memory is copied in and out (memory.c), the
 * per-kernel line is printed (stats.c), and a fault makes the runtime's
 * error sticky.  Launch-configuration errors are not sticky: the launch
 * just returns cudaErrorInvalidConfiguration (or ...OutOfResources) and
 * records it for cudaGetLastError, which is how `<<<>>>` reports them.
 *
 * A launch on a capturing stream becomes a kernel node instead (capture.c);
 * a graph's kernel nodes run through launch_now, the part after the
 * checks.  A cooperative launch (cudaLaunchCooperativeKernel, or
 * cudaLaunchKernelEx's cooperative attribute) goes to the driver layer's
 * cuLaunchCooperativeKernel: the whole grid resident, grid.sync()'s
 * workspace provided (src/sim/gpu.c).
 *
 * The configuration stack is per host thread, like NVIDIA's, so a kernel
 * launched inside another launch's argument list still pairs correctly.
 */
#include <limits.h>
#include <string.h>

#include "analysis/occupancy.h"
#include "api/api.h"
#include "base/base.h"
#include "cudart/rt.h"


unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                     cudaStream_t stream)
{
	RT_API();
	RtThread *th = rt_thread();
	if (th->nconfigs == CONFIG_DEPTH) return 1;
	th->configs[th->nconfigs++] = (CallConfig){gridDim, blockDim, sharedMem, stream};
	return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                       void *stream)
{
	RT_API();
	RtThread *th = rt_thread();
	if (!th->nconfigs) return rt_err(cudaErrorMissingConfiguration);
	CallConfig *c = &th->configs[--th->nconfigs];
	*gridDim = c->grid;
	*blockDim = c->block;
	*sharedMem = c->shmem;
	*(cudaStream_t *)stream = c->stream;
	return cudaSuccess;
}

/* the runtime's answer to a failed cuLaunchKernel; faults become sticky */
static cudaError_t launch_error(CUresult r)
{
	switch (r) {
	case CUDA_ERROR_INVALID_VALUE: return cudaErrorInvalidConfiguration;
	case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: return cudaErrorLaunchOutOfResources;
	case CUDA_ERROR_ILLEGAL_ADDRESS:
	case CUDA_ERROR_MISALIGNED_ADDRESS:
	case CUDA_ERROR_HARDWARE_STACK_ERROR:
	case CUDA_ERROR_ILLEGAL_INSTRUCTION:
	case CUDA_ERROR_LAUNCH_FAILED:
	case CUDA_ERROR_LAUNCH_TIMEOUT:
	case CUDA_ERROR_ASSERT:
		rt_set_sticky(rt_from_cu(r));
		return rt_from_cu(r);
	default: return rt_from_cu(r);
	}
}

static int fattr(const RtFunc *f, CUfunction_attribute a)
{
	int v = 0;
	cuFuncGetAttribute(&v, a, f->f);
	return v;
}

/* dynamic shared memory beyond the kernel's limit -- 48 KB less its static
 * shared memory, unless raised with cudaFuncAttributeMaxDynamicSharedMemorySize
 * -- is an invalid argument, as NVIDIA's driver says */
static cudaError_t shared_fits(const RtFunc *fn, size_t shmem)
{
	int limit = fn->max_dyn_shared >= 0 ? fn->max_dyn_shared
	                                    : fattr(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
	if (shmem <= (size_t)limit) return cudaSuccess;
	int stat = fattr(fn, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
	int64_t optin = rt_config()->block_max_shared_bytes - stat;
	if (fn->max_dyn_shared < 0 && shmem <= (uint64_t)optin)
		rt_say("launch of %s: %zu bytes of dynamic shared memory exceed the %d a kernel "
		       "with %d bytes of static shared memory may have without opting in: call "
		       "cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, "
		       "%zu) first (cudaErrorInvalidValue)", fn->name, shmem, limit, stat, shmem);
	else
		rt_say("launch of %s: %zu bytes of dynamic shared memory exceed the kernel's "
		       "limit of %d (%lld at most with its %d bytes of static shared memory: "
		       "cudaDevAttrMaxSharedMemoryPerBlockOptin, config key block.max_shared_bytes)"
		       " (cudaErrorInvalidValue)", fn->name, shmem, limit,
		       (long long)(optin > 0 ? optin : 0), stat);
	return cudaErrorInvalidValue;
}

/* whether fn can be launched at all: its module loaded */
static cudaError_t launchable(const RtFunc *fn)
{
	cudaError_t e = rt_ready();
	if (e) return e;
	if (!fn) return cudaErrorInvalidDeviceFunction;
	if ((e = reg_module_status(fn->mod)) || (!fn->f && (e = cudaErrorInvalidDeviceFunction))) {
		/* said once, since a program that checks no errors would go on silently */
		rt_say("kernel %s is not launched: %s (see above)", fn->name, cudaGetErrorName(e));
		return e;
	}
	return cudaSuccess;
}

cudaError_t launch_now(RtFunc *fn, dim3 grid, dim3 block, void **args, size_t shmem, int coop,
                       dim3 cluster)
{
	cudaError_t e = launchable(fn);
	if (e || (e = shared_fits(fn, shmem))) return e;
	int before, after;
	api_kernel_log(&before);
	mem_managed_to_device();
	const unsigned g3[3] = {grid.x, grid.y, grid.z}, b3[3] = {block.x, block.y, block.z};
	const unsigned c3[3] = {cluster.x, cluster.y, cluster.z};
	CUresult r = api_launch_ex(fn->f, g3, b3, (unsigned)shmem, args, coop, c3);
	mem_managed_to_host();
	api_kernel_log(&after);
	for (int i = before; i < after; i++) stats_kernel_line(i);   /* children after their parent */
	return r ? launch_error(r) : cudaSuccess;
}

cudaError_t launch_run(RtFunc *fn, dim3 grid, dim3 block, void **args, size_t shmem,
                       cudaStream_t stream, int coop, dim3 cluster)
{
	cudaError_t e = launchable(fn);
	if (e) return rt_err(e);
	if (!stream_valid(stream)) return rt_err(cudaErrorInvalidResourceHandle);
	int on;
	if ((e = capture_enqueue(stream, "kernel launch", &on))) return e;
	if (on && coop)
		return capture_refuse(stream, "cudaLaunchCooperativeKernel", "cooperative launches");
	if (!cluster.x && fn->cluster[0])     /* cudaFuncAttributeRequiredClusterWidth ... */
		cluster = (dim3){(unsigned)fn->cluster[0], fn->cluster[1] ? (unsigned)fn->cluster[1] : 1,
		                 fn->cluster[2] ? (unsigned)fn->cluster[2] : 1};
	if (on && cluster.x)
		return capture_refuse(stream, "cudaLaunchKernelEx", "launches with a cluster dimension");
	if (on) {
		struct cudaKernelNodeParams p = {(void *)fn->host, grid, block, (unsigned)shmem,
		                                 args, NULL};
		return capture_add(stream, cudaGraphNodeTypeKernel, &p);
	}
	return rt_err(launch_now(fn, grid, block, args, shmem, coop, cluster));
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                               size_t sharedMem, cudaStream_t stream)
{
	RT_API();
	return launch_run(reg_func(kernel), gridDim, blockDim, args, sharedMem, stream, 0, (dim3){0, 0, 0});
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, cudaStream_t stream)
{
	RT_API();
	return launch_run(reg_func(func), gridDim, blockDim, args, sharedMem, stream, 0, (dim3){0, 0, 0});
}

/* the whole grid resident at once (cudaErrorCooperativeLaunchTooLarge if it
 * cannot be), so that its blocks may wait for each other: grid.sync() */
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                        void **args, size_t sharedMem, cudaStream_t stream)
{
	RT_API();
	return launch_run(reg_func(func), gridDim, blockDim, args, sharedMem, stream, 1, (dim3){0, 0, 0});
}

/* cudaLaunchKernelEx: attributes are hints to a real GPU's scheduler, which
 * rfsim's synchronous launches satisfy trivially, except two: a cooperative
 * launch, and thread-block clusters (src/sim/gpu.c) */
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
	RT_API();
	if (!config || (config->numAttrs && !config->attrs)) return rt_err(cudaErrorInvalidValue);
	int coop = 0;
	dim3 cluster = {0, 0, 0};
	for (unsigned i = 0; i < config->numAttrs; i++) {
		const cudaLaunchAttribute *a = &config->attrs[i];
		if (a->id == cudaLaunchAttributeCooperative) coop = a->val.cooperative != 0;
		if (a->id == cudaLaunchAttributeClusterDimension) {
			cluster = (dim3){a->val.clusterDim.x, a->val.clusterDim.y, a->val.clusterDim.z};
			if (!cluster.x || !cluster.y || !cluster.z) return rt_err(cudaErrorInvalidValue);
		}
	}
	return launch_run(reg_func(func), config->gridDim, config->blockDim, args,
	                  config->dynamicSmemBytes, config->stream, coop, cluster);
}

/* ---- kernel attributes -------------------------------------------------------- */

/* the loaded kernel behind func, or an error recorded and returned */
static cudaError_t loaded(const void *func, RtFunc **out)
{
	cudaError_t e = rt_ready();
	if (e) return rt_err(e);
	RtFunc *f = reg_func(func);
	if (!f) return rt_err(cudaErrorInvalidDeviceFunction);
	if ((e = reg_module_status(f->mod))) return rt_err(e);
	if (!f->f) return rt_err(cudaErrorInvalidDeviceFunction);
	*out = f;
	return cudaSuccess;
}


cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
	RT_API();
	RtFunc *f;
	if (!attr) return rt_err(cudaErrorInvalidValue);
	cudaError_t e = loaded(func, &f);
	if (e) return e;
	memset(attr, 0, sizeof *attr);
	attr->sharedSizeBytes = (size_t)fattr(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
	attr->constSizeBytes = (size_t)fattr(f, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
	attr->localSizeBytes = (size_t)fattr(f, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
	attr->maxThreadsPerBlock = fattr(f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
	attr->numRegs = fattr(f, CU_FUNC_ATTRIBUTE_NUM_REGS);
	attr->ptxVersion = fattr(f, CU_FUNC_ATTRIBUTE_PTX_VERSION);
	attr->binaryVersion = fattr(f, CU_FUNC_ATTRIBUTE_BINARY_VERSION);
	attr->maxDynamicSharedSizeBytes = f->max_dyn_shared >= 0
		? f->max_dyn_shared : fattr(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
	attr->preferredShmemCarveout = f->carveout;
	int cw = fattr(f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH);
	attr->clusterDimMustBeSet = fattr(f, CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET);
	attr->requiredClusterWidth = cw ? cw : f->cluster[0];
	attr->requiredClusterHeight = cw ? fattr(f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT)
	                                 : f->cluster[1];
	attr->requiredClusterDepth = cw ? fattr(f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH)
	                                : f->cluster[2];
	attr->clusterSchedulingPolicyPreference = f->cluster_policy;
	attr->nonPortableClusterSizeAllowed = f->nonportable;
	return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
	RT_API();
	RtFunc *f;
	cudaError_t e = loaded(func, &f);
	if (e) return e;
	switch (attr) {
	case cudaFuncAttributeMaxDynamicSharedMemorySize:   /* up to the opt-in limit */
		if (value < 0 || value > rt_config()->block_max_shared_bytes -
		                         fattr(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)) {
			rt_say("cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, "
			       "%d): at most %lld with its %d bytes of static shared memory "
			       "(config key block.max_shared_bytes)", f->name, value,
			       (long long)rt_config()->block_max_shared_bytes -
			       fattr(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES),
			       fattr(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES));
			return rt_err(cudaErrorInvalidValue);
		}
		f->max_dyn_shared = value;
		return cudaSuccess;
	case cudaFuncAttributePreferredSharedMemoryCarveout:
		if (value < -1 || value > 100) return rt_err(cudaErrorInvalidValue);
		f->carveout = value;     /* rfsim's shared memory is not carved from L1 */
		return cudaSuccess;
	case cudaFuncAttributeRequiredClusterWidth: case cudaFuncAttributeRequiredClusterHeight:
	case cudaFuncAttributeRequiredClusterDepth:
		if (fattr(f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH))   /* __cluster_dims__ */
			return rt_err(cudaErrorNotPermitted);
		if (value < 0 || value > 16) return rt_err(cudaErrorInvalidValue);
		f->cluster[attr - cudaFuncAttributeRequiredClusterWidth] = value;
		return cudaSuccess;
	case cudaFuncAttributeNonPortableClusterSizeAllowed:
		if (value < 0 || value > 1) return rt_err(cudaErrorInvalidValue);
		f->nonportable = value;
		return cudaSuccess;
	case cudaFuncAttributeClusterSchedulingPolicyPreference:
		if (value < 0 || value > 2) return rt_err(cudaErrorInvalidValue);
		f->cluster_policy = value;      /* a scheduling hint */
		return cudaSuccess;
	default:
		rt_say("cudaFuncSetAttribute: attribute %d is not supported by rfsim", (int)attr);
		return rt_err(cudaErrorNotSupported);
	}
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
	RT_API();
	RtFunc *f;
	return loaded(func, &f);     /* a preference rfsim's memory model ignores */
}

cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config)
{
	RT_API();
	RtFunc *f;
	return loaded(func, &f);
}

/* ---- occupancy ------------------------------------------------------------------ */

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                                   const void *func,
                                                                   int blockSize,
                                                                   size_t dynamicSMemSize,
                                                                   unsigned int flags)
{
	RT_API();
	RtFunc *f;
	if (!numBlocks || blockSize <= 0 || flags > 1) return rt_err(cudaErrorInvalidValue);
	cudaError_t e = loaded(func, &f);
	if (e) return e;
	Occupancy o;
	occupancy_compute(rt_config(), blockSize, fattr(f, CU_FUNC_ATTRIBUTE_NUM_REGS),
	                  fattr(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES) + (int64_t)dynamicSMemSize,
	                  &o);
	*numBlocks = blockSize > fattr(f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK) ? 0
	                                                                          : o.ctas_per_sm;
	return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t dynamicSMemSize)
{
	RT_API();
	return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
	                                                              dynamicSMemSize, 0);
}

/* thread-block clusters: a cluster's blocks may be on any SMs (src/timing/timing.c), so as
 * many clusters fit as the GPU's resident blocks make whole clusters */
static cudaError_t cluster_query(const void *func, const cudaLaunchConfig_t *config,
                                 int *fit, int *csize, int *limit)
{
	RtFunc *f;
	if (!config) return rt_err(cudaErrorInvalidValue);
	cudaError_t e = loaded(func, &f);
	if (e) return e;
	int c[3] = {fattr(f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH),
	            fattr(f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT),
	            fattr(f, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH)};
	if (!c[0]) memcpy(c, f->cluster, sizeof c);
	for (unsigned i = 0; i < config->numAttrs; i++)
		if (config->attrs[i].id == cudaLaunchAttributeClusterDimension) {
			c[0] = (int)config->attrs[i].val.clusterDim.x;
			c[1] = (int)config->attrs[i].val.clusterDim.y;
			c[2] = (int)config->attrs[i].val.clusterDim.z;
		}
	for (int i = 0; i < 3; i++) c[i] = c[i] > 0 ? c[i] : 1;
	int block = (int)(config->blockDim.x * config->blockDim.y * config->blockDim.z);
	if (block <= 0) return rt_err(cudaErrorInvalidValue);
	Occupancy o;
	occupancy_compute(rt_config(), block, fattr(f, CU_FUNC_ATTRIBUTE_NUM_REGS),
	                  fattr(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES) +
	                  (int64_t)config->dynamicSmemBytes, &o);
	int per_sm = block > fattr(f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK) ? 0 : o.ctas_per_sm;
	*fit = (int)(per_sm * rt_config()->sm_count);
	*csize = c[0] * c[1] * c[2];
	*limit = f->nonportable ? 16 : 8;
	return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, const void *func,
                                           const cudaLaunchConfig_t *config)
{
	RT_API();
	int fit, csize, limit;
	if (!numClusters) return rt_err(cudaErrorInvalidValue);
	cudaError_t e = cluster_query(func, config, &fit, &csize, &limit);
	if (e) return e;
	*numClusters = csize > 16 ? 0 : fit / csize;
	return cudaSuccess;
}

cudaError_t cudaOccupancyMaxPotentialClusterSize(int *clusterSize, const void *func,
                                                 const cudaLaunchConfig_t *config)
{
	RT_API();
	int fit, csize, limit;
	if (!clusterSize) return rt_err(cudaErrorInvalidValue);
	cudaError_t e = cluster_query(func, config, &fit, &csize, &limit);
	if (e) return e;
	*clusterSize = fit < limit ? fit : limit;
	return cudaSuccess;
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func,
                                                      int numBlocks, int blockSize)
{
	RT_API();
	RtFunc *f;
	if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0)
		return rt_err(cudaErrorInvalidValue);
	cudaError_t e = loaded(func, &f);
	if (e) return e;
	const Config *c = rt_config();
	int64_t stat = fattr(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
	Occupancy o;
	occupancy_compute(c, blockSize, fattr(f, CU_FUNC_ATTRIBUTE_NUM_REGS), stat, &o);
	*dynamicSmemSize = 0;
	if (o.ctas_per_sm < numBlocks) return cudaSuccess;   /* not even without dynamic memory */
	int64_t unit = c->sm_shared_alloc_unit;
	int64_t per = c->sm_shared_bytes / numBlocks / unit * unit;   /* each block's share */
	int64_t dyn = per - stat - c->sm_shared_reserved_bytes;
	if (dyn > c->block_max_shared_bytes - stat) dyn = c->block_max_shared_bytes - stat;
	*dynamicSmemSize = dyn > 0 ? (size_t)dyn : 0;
	return cudaSuccess;
}
