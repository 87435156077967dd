/*
 * mempool.c -- memory pools of the stream-ordered allocator
 * (cudaMallocAsync, cudaMallocFromPoolAsync, cudaFreeAsync): the device's
 * default pool, pools the program creates (cudaMemPoolCreate), the
 * device's current pool (cudaDeviceSetMemPool) and each pool's attributes.
 *
 * Every runtime call completes in order (rt.h), so an allocation on a
 * stream is an allocation now and a free is a free now: the bytes come
 * from and go back to the device allocator at once.  What a pool keeps is
 * its accounting, as NVIDIA's runtime reports it:
 *   used      bytes handed out and not yet freed (UsedMemCurrent);
 *   reserved  bytes the pool holds: what is used plus what was freed and
 *             kept for reuse (ReservedMemCurrent).  A free keeps its bytes
 *             while the pool stays at or below its release threshold
 *             (default 0: nothing is kept), the effect of the
 *             synchronization that would follow it on a GPU, which our
 *             frees already are; an allocation reuses kept bytes first;
 *             cudaMemPoolTrimTo(min) gives back kept bytes above min;
 *   high      watermarks of both, reset by setting them to 0.
 * The reuse policies are kept and reported (the order of frees and
 * allocations they govern is always satisfied here).  A pool's maxSize, if
 * set, bounds its reserved bytes: an allocation past it fails with
 * cudaErrorMemoryAllocation.  Pools live on device 0 (rfsim's one GPU),
 * pinned; a pool of host memory, exports and imports are refused, saying
 * so.
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "cudart/rt.h"

struct CUmemPoolHandle_st {
	struct cudaMemPoolProps props;
	int reuse[3];                        /* the three Reuse* attributes */
	unsigned long long threshold, used, used_high, reserved, reserved_high;
};

/* a pool's attributes as it is made: every reuse policy on */
static void pool_init(cudaMemPool_t p)
{
	memset(p, 0, sizeof *p);
	p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
}

/* the runtime's state, its default pool made (and current) on first use */
static RtState *pools(void)
{
	RtState *rs = rt_state();
	if (!rs->default_pool) {
		rs->default_pool = xmalloc(sizeof *rs->default_pool);
		pool_init(rs->default_pool);
		rs->current_pool = rs->default_pool;
	}
	return rs;
}

int mempool_valid(cudaMemPool_t pool)
{
	return pool == pools()->default_pool || handle_find(HANDLE_MEMPOOL, HANDLE_KEY(pool));
}

cudaMemPool_t mempool_current(void) { return pools()->current_pool; }

int mempool_take(cudaMemPool_t pool, size_t bytes)
{
	unsigned long long kept = pool->reserved - pool->used;
	unsigned long long grow = bytes > kept ? bytes - kept : 0;
	if (pool->props.maxSize && pool->reserved + grow > pool->props.maxSize) return 0;
	pool->used += bytes;
	pool->reserved += grow;
	if (pool->used > pool->used_high) pool->used_high = pool->used;
	if (pool->reserved > pool->reserved_high) pool->reserved_high = pool->reserved;
	return 1;
}

/* give kept bytes back until the pool holds at most keep, or only what is used */
static void trim(cudaMemPool_t pool, unsigned long long keep)
{
	if (pool->reserved > keep) pool->reserved = pool->used > keep ? pool->used : keep;
}

void mempool_give(cudaMemPool_t pool, size_t bytes)
{
	pool->used -= bytes;
	trim(pool, pool->threshold);
}

void mempool_reset(void)
{
	handle_free_kind(HANDLE_MEMPOOL);
	RtState *rs = pools();
	pool_init(rs->default_pool);
	rs->current_pool = rs->default_pool;
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
	RT_API();
	if (!memPool) return rt_err(cudaErrorInvalidValue);
	if (device != 0) return rt_err(cudaErrorInvalidDevice);
	*memPool = pools()->default_pool;
	return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
	RT_API();
	if (!memPool) return rt_err(cudaErrorInvalidValue);
	if (device != 0) return rt_err(cudaErrorInvalidDevice);
	*memPool = pools()->current_pool;
	return cudaSuccess;
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
	RT_API();
	if (device != 0) return rt_err(cudaErrorInvalidDevice);
	if (!mempool_valid(memPool)) return rt_err(cudaErrorInvalidValue);
	pools()->current_pool = memPool;
	return cudaSuccess;
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps)
{
	RT_API();
	if (!memPool || !poolProps) return rt_err(cudaErrorInvalidValue);
	if (poolProps->location.type == cudaMemLocationTypeHost) {
		rt_say("cudaMemPoolCreate: pools of host memory are not supported by rfsim");
		return rt_err(cudaErrorNotSupported);
	}
	if (poolProps->allocType != cudaMemAllocationTypePinned ||
	    poolProps->location.type != cudaMemLocationTypeDevice)
		return rt_err(cudaErrorInvalidValue);
	if (poolProps->location.id != 0) return rt_err(cudaErrorInvalidDevice);
	if (poolProps->handleTypes & ~(unsigned)cudaMemHandleTypePosixFileDescriptor)
		return rt_err(cudaErrorInvalidValue);
	cudaMemPool_t p = calloc(1, sizeof *p);
	if (!p) return rt_err(cudaErrorMemoryAllocation);
	pool_init(p);
	p->props = *poolProps;
	handle_add(HANDLE_MEMPOOL, HANDLE_KEY(p), p);
	*memPool = p;
	return cudaSuccess;
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool)
{
	RT_API();
	RtState *rs = pools();
	if (!memPool || memPool == rs->default_pool || !mempool_valid(memPool))
		return rt_err(cudaErrorInvalidValue);
	/* allocations still out stay valid until freed (as NVIDIA's runtime
	   defers the destruction); their pool's accounting goes with it */
	if (memPool->used) {
		rt_say("cudaMemPoolDestroy: the pool still has %llu bytes allocated; rfsim "
		       "keeps the pool until they are freed", memPool->used);
		memPool->props.maxSize = 0;
		if (rs->current_pool == memPool) rs->current_pool = rs->default_pool;
		return cudaSuccess;
	}
	handle_drop(HANDLE_MEMPOOL, HANDLE_KEY(memPool));
	if (rs->current_pool == memPool) rs->current_pool = rs->default_pool;
	free(memPool);
	return cudaSuccess;
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
	RT_API();
	if (!mempool_valid(memPool) || !value) return rt_err(cudaErrorInvalidValue);
	unsigned long long v;
	switch (attr) {
	case cudaMemPoolReuseFollowEventDependencies: case cudaMemPoolReuseAllowOpportunistic:
	case cudaMemPoolReuseAllowInternalDependencies:
		memPool->reuse[attr - 1] = *(int *)value != 0;
		return cudaSuccess;
	case cudaMemPoolAttrReleaseThreshold:
		memPool->threshold = *(unsigned long long *)value;
		trim(memPool, memPool->threshold);
		return cudaSuccess;
	case cudaMemPoolAttrReservedMemHigh: case cudaMemPoolAttrUsedMemHigh:
		v = *(unsigned long long *)value;
		if (v) return rt_err(cudaErrorInvalidValue);  /* only a reset, to 0 */
		if (attr == cudaMemPoolAttrUsedMemHigh) memPool->used_high = memPool->used;
		else memPool->reserved_high = memPool->reserved;
		return cudaSuccess;
	default:
		return rt_err(cudaErrorInvalidValue);
	}
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
	RT_API();
	if (!mempool_valid(memPool) || !value) return rt_err(cudaErrorInvalidValue);
	unsigned long long *u = value;
	switch (attr) {
	case cudaMemPoolReuseFollowEventDependencies: case cudaMemPoolReuseAllowOpportunistic:
	case cudaMemPoolReuseAllowInternalDependencies:
		*(int *)value = memPool->reuse[attr - 1];
		return cudaSuccess;
	case cudaMemPoolAttrReleaseThreshold: *u = memPool->threshold; return cudaSuccess;
	case cudaMemPoolAttrReservedMemCurrent: *u = memPool->reserved; return cudaSuccess;
	case cudaMemPoolAttrReservedMemHigh: *u = memPool->reserved_high; return cudaSuccess;
	case cudaMemPoolAttrUsedMemCurrent: *u = memPool->used; return cudaSuccess;
	case cudaMemPoolAttrUsedMemHigh: *u = memPool->used_high; return cudaSuccess;
	default:
		return rt_err(cudaErrorInvalidValue);
	}
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
	RT_API();
	if (!mempool_valid(memPool)) return rt_err(cudaErrorInvalidValue);
	trim(memPool, minBytesToKeep);
	return cudaSuccess;
}

cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList,
                                 size_t count)
{
	RT_API();
	if (!mempool_valid(memPool) || (count && !descList)) return rt_err(cudaErrorInvalidValue);
	for (size_t i = 0; i < count; i++) {
		if (descList[i].location.type != cudaMemLocationTypeDevice)
			return rt_err(cudaErrorInvalidValue);
		if (descList[i].location.id != 0) return rt_err(cudaErrorInvalidDevice);
		/* the pool's own device always has read-write access */
		if (descList[i].flags != cudaMemAccessFlagsProtReadWrite)
			return rt_err(cudaErrorInvalidValue);
	}
	return cudaSuccess;
}

cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                 struct cudaMemLocation *location)
{
	RT_API();
	if (!flags || !location || !mempool_valid(memPool) ||
	    location->type != cudaMemLocationTypeDevice)
		return rt_err(cudaErrorInvalidValue);
	if (location->id != 0) return rt_err(cudaErrorInvalidDevice);
	*flags = cudaMemAccessFlagsProtReadWrite;
	return cudaSuccess;
}
