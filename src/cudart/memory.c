/*
 * memory.c -- device, pinned-host and managed memory, copies and symbols.
 *
 * Device memory is the simulator's (cuMemAlloc through the driver layer);
 * rfsim gives it addresses of its own (GPU_GLOBAL_BASE up) that the host
 * cannot dereference, and every copy goes through the host's view of the
 * allocation (api_mem_host).  Because device and host addresses never
 * overlap, cudaMemcpyDefault can tell them apart, as unified addressing
 * promises.
 *
 * Managed memory (cudaMallocManaged, __managed__ variables, and
 * cudaHostAlloc with cudaHostAllocMapped) must have one address that both
 * the host and kernels dereference.  We allocate device memory at A and
 * map fresh host pages at the same virtual address A (mmap with
 * MAP_FIXED_NOREPLACE: the simulator's address range is otherwise unused
 * in a Linux process, and its allocations are 64 KiB apart, so pages never
 * overlap two of them).  The host copy is the real one between kernels:
 * a launch copies every managed block into the device before the kernel
 * and back after it (launch.c), and copies and memsets treat managed
 * addresses as host memory.  That costs two copies of all managed memory
 * per launch -- fine for tests and small programs, and the price of
 * needing no page-fault machinery.  Concurrent host access during a
 * kernel cannot happen: every launch is synchronous.  Under
 * AddressSanitizer the simulator's address range is ASan's shadow memory,
 * so managed memory is unavailable in sanitizer builds.
 *
 * Pinned host memory (cudaMallocHost, cudaHostAlloc) is mirrored the same
 * way, whatever its flags: under unified addressing, which the device
 * reports, kernels may dereference any pinned pointer, and programs that
 * read results straight from pinned memory ("zero-copy") rely on it.
 * Where the mapping cannot be had (sanitizer builds) pinned memory without
 * cudaHostAllocMapped falls back to ordinary host memory, good for copies.
 * Memory the program registers (cudaHostRegister) is its own, at an
 * address the simulator cannot give device memory: it serves copies only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "api/api.h"
#include "base/base.h"
#include "cudart/rt.h"

typedef struct Block {           /* one allocation the runtime handed out */
	uintptr_t addr;              /* what the program got */
	size_t bytes;
	enum cudaMemoryType type;    /* Device, Host or Managed */
	unsigned flags;              /* cudaHostAlloc's */
	size_t map_off, map_bytes;   /* Managed: host pages mapped at addr - map_off */
	int owned;                   /* device memory allocated here (not a __managed__ var) */
	int registered;              /* Host: the program's memory, cudaHostRegister'ed */
	cudaMemPool_t pool;          /* Device: from this pool (stream-ordered allocator) */
} Block;


#define READY() do { cudaError_t e_ = rt_ready(); if (e_) return rt_err(e_); } while (0)

static Block *block_add(uintptr_t addr, size_t bytes, enum cudaMemoryType type)
{
	RtState *rs = rt_state();
	VEC_RESERVE(rs->blocks, rs->capblocks, rs->nblocks + 1);
	rs->blocks[rs->nblocks] = (Block){.addr = addr, .bytes = bytes, .type = type};
	return &rs->blocks[rs->nblocks++];
}

/* the block holding [p, p+n), or NULL */
static Block *block_find(const void *p, size_t n)
{
	RtState *rs = rt_state();
	uintptr_t a = (uintptr_t)p;
	for (size_t i = 0; i < rs->nblocks; i++) {
		Block *b = &rs->blocks[i];
		size_t len = b->bytes ? b->bytes : 1;   /* a 0-byte block has an address */
		if (a - b->addr < len && n <= len - (a - b->addr)) return b;
	}
	return NULL;
}

static int is_mirrored(const Block *b) { return b->map_bytes != 0; }

static void block_drop(Block *b)
{
	RtState *rs = rt_state();
	if (is_mirrored(b)) munmap((void *)(b->addr - b->map_off), b->map_bytes);
	*b = rs->blocks[--rs->nblocks];
}

/* ---- managed memory ---------------------------------------------------------- */

int mem_managed_map(CUdeviceptr dptr, size_t bytes)
{
	void *dev = api_mem_host(dptr, bytes);
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = dptr & ~(page - 1), hi = (dptr + bytes + page - 1) & ~(page - 1);
	if (!dev || hi <= lo) return -1;
	void *m = mmap((void *)lo, hi - lo, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (m == MAP_FAILED) return -1;
	if (m != (void *)lo) {       /* a kernel without MAP_FIXED_NOREPLACE put it elsewhere */
		munmap(m, hi - lo);
		return -1;
	}
	memcpy((void *)(uintptr_t)dptr, dev, bytes);   /* e.g. a __managed__ initializer */
	Block *b = block_add(dptr, bytes, cudaMemoryTypeManaged);
	b->map_off = dptr - lo;
	b->map_bytes = hi - lo;
	return 0;
}

static void managed_copy(int to_device)
{
	RtState *rs = rt_state();
	for (size_t i = 0; i < rs->nblocks; i++) {
		Block *b = &rs->blocks[i];
		if (!is_mirrored(b) || !b->bytes) continue;
		void *dev = api_mem_host(b->addr, b->bytes);
		if (!dev) continue;      /* freed behind our back: nothing to mirror */
		if (to_device) memcpy(dev, (void *)b->addr, b->bytes);
		else memcpy((void *)b->addr, dev, b->bytes);
	}
}

void mem_managed_to_device(void) { managed_copy(1); }
void mem_managed_to_host(void) { managed_copy(0); }

void mem_reset(void)
{
	RtState *rs = rt_state();
	while (rs->nblocks) {
		Block *b = &rs->blocks[rs->nblocks - 1];
		if (b->type == cudaMemoryTypeHost && !is_mirrored(b) && !b->registered)
			free((void *)b->addr);
		block_drop(b);
	}
	mempool_reset();
}

/* ---- allocation --------------------------------------------------------------- */

static cudaError_t pool_alloc(void **devPtr, size_t size, cudaMemPool_t pool)
{
	if (!devPtr) return rt_err(cudaErrorInvalidValue);
	READY();
	*devPtr = NULL;
	if (!size) return cudaSuccess;
	if (pool && !mempool_take(pool, size)) return rt_err(cudaErrorMemoryAllocation);
	CUdeviceptr a;
	CUresult r = cuMemAlloc(&a, size);
	if (r) {
		if (pool) mempool_give(pool, size);
		return rt_err(rt_from_cu(r));
	}
	Block *b = block_add(a, size, cudaMemoryTypeDevice);
	b->owned = 1;
	b->pool = pool;
	*devPtr = (void *)(uintptr_t)a;
	return cudaSuccess;
}

static cudaError_t dev_alloc(void **devPtr, size_t size)
{
	return pool_alloc(devPtr, size, NULL);
}

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
	RT_API();
	cudaError_t e = capture_unsafe("cudaMalloc");
	return e ? e : dev_alloc(devPtr, size);
}

/* device memory at A with host pages mapped at A too: cudaSuccess, or why not
 * (quietly, for a caller that can do without) */
static cudaError_t mirrored_alloc(void **p, size_t size, unsigned flags,
                                  enum cudaMemoryType type, int quiet)
{
	RtState *rs = rt_state();
	CUdeviceptr a;
	CUresult r = cuMemAlloc(&a, size ? size : 1);
	if (r) return rt_from_cu(r);
	if (mem_managed_map(a, size)) {
		int err = errno;
		cuMemFree(a);
		if (!quiet)
			rt_say("cannot map managed memory at device address %#llx for the host: %s (in "
			       "a sanitizer build, AddressSanitizer's shadow memory takes these "
			       "addresses)", (unsigned long long)a, strerror(err));
		return cudaErrorMemoryAllocation;
	}
	Block *b = &rs->blocks[rs->nblocks - 1];
	b->owned = 1;
	b->flags = flags;
	b->type = type;              /* Host for pinned memory: still mirrored */
	*p = (void *)(uintptr_t)a;
	return cudaSuccess;
}

static cudaError_t managed_alloc(void **p, size_t size, unsigned flags,
                                 enum cudaMemoryType type)
{
	return rt_err(mirrored_alloc(p, size, flags, type, 0));
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
	RT_API();
	if (!devPtr || !size || (flags & ~(unsigned)(cudaMemAttachGlobal | cudaMemAttachHost)))
		return rt_err(cudaErrorInvalidValue);
	READY();
	return managed_alloc(devPtr, size, flags, cudaMemoryTypeManaged);
}

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
	RT_API();
	if (!pHost || (flags & ~0x7u)) return rt_err(cudaErrorInvalidValue);
	READY();
	/* with unified addressing all pinned memory is device-accessible, so it is
	   mirrored like managed memory; where that cannot be (sanitizer builds) it
	   is plain host memory, for copies only, unless the program asked for
	   cudaHostAllocMapped */
	if (flags & cudaHostAllocMapped)
		return managed_alloc(pHost, size, flags, cudaMemoryTypeHost);
	if (!mirrored_alloc(pHost, size, flags, cudaMemoryTypeHost, 1)) return cudaSuccess;
	void *p = NULL;
	if (posix_memalign(&p, 4096, size ? size : 1)) return rt_err(cudaErrorMemoryAllocation);
	block_add((uintptr_t)p, size, cudaMemoryTypeHost)->flags = flags;
	*pHost = p;
	return cudaSuccess;
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
	RT_API();
	return cudaHostAlloc(ptr, size, cudaHostAllocDefault);
}

static cudaError_t free_block(void *p, int host)
{
	Block *b = block_find(p, 0);
	const char *fn = host ? "cudaFreeHost" : "cudaFree";
	if (!b || b->addr != (uintptr_t)p || (b->type == cudaMemoryTypeHost) != host ||
	    b->registered) {
		rt_say("%s(%p): %s", fn, p,
		       b && b->registered ? "memory registered with cudaHostRegister: unregister it "
		                            "with cudaHostUnregister and free it as it was allocated"
		       : b && b->addr == (uintptr_t)p ? (host ? "not pinned host memory (cudaFree it)"
		                                           : "pinned host memory (cudaFreeHost it)")
		       : b ? "not the start of an allocation"
		       : "not allocated by the runtime, or already freed");
		return rt_err(cudaErrorInvalidValue);
	}
	if (b->type == cudaMemoryTypeHost && !is_mirrored(b)) free(p);
	else if (b->owned) cuMemFree(b->addr);
	if (b->pool) mempool_give(b->pool, b->bytes);
	block_drop(b);
	return cudaSuccess;
}

static cudaError_t dev_free(void *devPtr)
{
	READY();                     /* cudaFree(0) is the idiom that starts the runtime */
	return devPtr ? free_block(devPtr, 0) : cudaSuccess;
}

cudaError_t cudaFree(void *devPtr)
{
	RT_API();
	cudaError_t e = capture_unsafe("cudaFree");
	return e ? e : dev_free(devPtr);
}

cudaError_t cudaFreeHost(void *ptr)
{
	RT_API();
	return ptr ? free_block(ptr, 1) : cudaSuccess;
}

/* cudaHostRegister: the program's own memory becomes pinned memory for
 * copies.  rfsim's kernels reach only the simulator's addresses, so
 * registered memory cannot be mapped for the device the way
 * cudaHostAlloc(..., cudaHostAllocMapped) memory is (that one lives at a
 * simulator address to begin with): cudaHostRegisterMapped and
 * cudaHostRegisterIoMemory are refused, and
 * cudaDevAttrCanUseHostPointerForRegisteredMem reads 0. */
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
	RT_API();
	RtState *rs = rt_state();
	if (!ptr || !size || (flags & ~0xFu)) return rt_err(cudaErrorInvalidValue);
	READY();
	if (flags & (cudaHostRegisterMapped | cudaHostRegisterIoMemory)) {
		rt_say("cudaHostRegister: flag %s is not supported by rfsim (kernels cannot reach "
		       "the program's own memory); use cudaHostAlloc(..., cudaHostAllocMapped) or "
		       "cudaMallocManaged for memory both sides use",
		       flags & cudaHostRegisterMapped ? "cudaHostRegisterMapped"
		                                      : "cudaHostRegisterIoMemory");
		return rt_err(cudaErrorNotSupported);
	}
	for (size_t i = 0; i < rs->nblocks; i++)       /* overlapping pinned or device memory */
		if ((uintptr_t)ptr < rs->blocks[i].addr + rs->blocks[i].bytes &&
		    rs->blocks[i].addr < (uintptr_t)ptr + size)
			return rt_err(rs->blocks[i].type == cudaMemoryTypeHost
			              ? cudaErrorHostMemoryAlreadyRegistered : cudaErrorInvalidValue);
	Block *b = block_add((uintptr_t)ptr, size, cudaMemoryTypeHost);
	b->flags = flags;
	b->registered = 1;
	return cudaSuccess;
}

cudaError_t cudaHostUnregister(void *ptr)
{
	RT_API();
	Block *b = block_find(ptr, 0);
	if (!ptr) return rt_err(cudaErrorInvalidValue);
	if (!b || !b->registered || b->addr != (uintptr_t)ptr)
		return rt_err(cudaErrorHostMemoryNotRegistered);
	block_drop(b);
	return cudaSuccess;
}

/* the stream-ordered allocator: every call completes in order (rt.h), so an
 * allocation on a stream is an allocation now */
cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream)
{
	RT_API();
	if (!stream_valid(stream)) return rt_err(cudaErrorInvalidResourceHandle);
	int on;
	cudaError_t e = capture_enqueue(stream, "cudaMallocAsync", &on);
	if (e) return e;
	if (on) return capture_refuse(stream, "cudaMallocAsync", "memory allocation nodes");
	return pool_alloc(devPtr, size, mempool_current());
}

cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                    cudaStream_t stream)
{
	RT_API();
	if (!stream_valid(stream)) return rt_err(cudaErrorInvalidResourceHandle);
	if (!mempool_valid(memPool)) return rt_err(cudaErrorInvalidValue);
	int on;
	cudaError_t e = capture_enqueue(stream, "cudaMallocFromPoolAsync", &on);
	if (e) return e;
	if (on) return capture_refuse(stream, "cudaMallocFromPoolAsync", "memory allocation nodes");
	return pool_alloc(ptr, size, memPool);
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream)
{
	RT_API();
	if (!stream_valid(stream)) return rt_err(cudaErrorInvalidResourceHandle);
	int on;
	cudaError_t e = capture_enqueue(stream, "cudaFreeAsync", &on);
	if (e) return e;
	if (on) return capture_refuse(stream, "cudaFreeAsync", "memory free nodes");
	return dev_free(devPtr);
}

cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
	RT_API();
	Block *b = block_find(pHost, 0);
	if (!pDevice || flags || !b || !is_mirrored(b)) return rt_err(cudaErrorInvalidValue);
	*pDevice = pHost;            /* one address on both sides */
	return cudaSuccess;
}

cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
	RT_API();
	Block *b = block_find(pHost, 0);
	if (!pFlags || !b || b->type != cudaMemoryTypeHost) return rt_err(cudaErrorInvalidValue);
	*pFlags = b->flags;
	return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
	RT_API();
	RtState *rs = rt_state();
	READY();
	size_t used = 0, cap = (size_t)rt_config()->gpu_global_bytes;
	for (size_t i = 0; i < rs->nblocks; i++) {   /* device memory, not pinned host memory */
		const Block *b = &rs->blocks[i];
		if (b->owned && b->type != cudaMemoryTypeHost) used += b->bytes;
	}
	if (free_bytes) *free_bytes = used < cap ? cap - used : 0;
	if (total) *total = cap;
	return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *at, const void *ptr)
{
	RT_API();
	if (!at) return rt_err(cudaErrorInvalidValue);
	READY();
	memset(at, 0, sizeof *at);
	Block *b = block_find(ptr, 0);
	at->type = b ? b->type : cudaMemoryTypeUnregistered;
	if (!b && api_mem_host((uintptr_t)ptr, 0)) at->type = cudaMemoryTypeDevice;
	at->device = 0;
	if (at->type != cudaMemoryTypeDevice) at->hostPointer = (void *)ptr;
	if (at->type == cudaMemoryTypeDevice || (b && is_mirrored(b)))
		at->devicePointer = (void *)ptr;
	return cudaSuccess;
}

/* ---- copies --------------------------------------------------------------------- */

static const char *kind_name(enum cudaMemcpyKind kind)
{
	static const char *names[] = {"cudaMemcpyHostToHost", "cudaMemcpyHostToDevice",
	                              "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice",
	                              "cudaMemcpyDefault"};
	return names[kind];
}

/* where the bytes of [p, p+n) are for the host to copy, given which side
 * the copy's kind says p is on (MEM_HOST, MEM_DEV, MEM_ANY); NULL if p is
 * not there */
void *mem_view(const void *p, size_t n, int side)
{
	Block *b = block_find(p, n);
	if (b && is_mirrored(b)) return (void *)p;     /* managed: the host copy is current */
	void *d = api_mem_host((uintptr_t)p, n);
	if (side == MEM_DEV) return d;
	if (side == MEM_HOST) return d || !p ? NULL : (void *)p;
	return d ? d : (void *)p;
}

int mem_kind_side(enum cudaMemcpyKind kind, int dst)
{
	static const signed char sides[5][2] = {           /* [kind] = {dst, src} */
		{MEM_HOST, MEM_HOST}, {MEM_DEV, MEM_HOST}, {MEM_HOST, MEM_DEV}, {MEM_DEV, MEM_DEV},
		{MEM_ANY, MEM_ANY}};
	return sides[kind][!dst];
}

/* the complaint about a copy whose kind does not match its pointers */
void mem_bad_copy(const char *fn, const void *dst, const void *src, size_t n,
                  enum cudaMemcpyKind kind, int dst_bad)
{
	int side = mem_kind_side(kind, dst_bad);
	rt_say("%s(%p, %p, %zu bytes, %s): the %s is not %s of that size", fn, dst, src, n,
	       kind_name(kind), dst_bad ? "destination" : "source",
	       side == MEM_DEV ? "device memory" : side == MEM_HOST ? "host memory"
	                                                         : "memory");
}

cudaError_t mem_copy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
	if ((unsigned)kind > cudaMemcpyDefault) return rt_err(cudaErrorInvalidMemcpyDirection);
	READY();
	if (!n) return cudaSuccess;
	void *d = mem_view(dst, n, mem_kind_side(kind, 1));
	const void *s = mem_view(src, n, mem_kind_side(kind, 0));
	if (!d || !s) {
		mem_bad_copy("cudaMemcpy", dst, src, n, kind, !d);
		return rt_err(cudaErrorInvalidValue);
	}
	memmove(d, s, n);
	if (d != dst) api_copied_in((uintptr_t)dst, n);       /* into device memory */
	return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
	RT_API();
	cudaError_t e = capture_sync_legacy("cudaMemcpy");
	return e ? e : mem_copy(dst, src, count, kind);
}

/* an asynchronous 1D copy: now, or a memcpy node of the capture */
static cudaError_t copy_on(cudaStream_t stream, const char *fn, void *dst, const void *src,
                          size_t count, enum cudaMemcpyKind kind)
{
	if (!stream_valid(stream)) return rt_err(cudaErrorInvalidResourceHandle);
	int on;
	cudaError_t e = capture_enqueue(stream, fn, &on);
	if (e) return e;
	if (!on) return mem_copy(dst, src, count, kind);
	struct cudaMemcpy3DParms p = graph_copy1d(dst, src, count, kind);
	return capture_add(stream, cudaGraphNodeTypeMemcpy, &p);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream)
{
	RT_API();
	return copy_on(stream, "cudaMemcpyAsync", dst, src, count, kind);
}

static cudaError_t memset_now(void *devPtr, int value, size_t count)
{
	READY();
	if (!count) return cudaSuccess;
	void *d = mem_view(devPtr, count, MEM_DEV);
	if (!d) {
		rt_say("cudaMemset(%p, %d, %zu): not device memory of that size", devPtr, value, count);
		return rt_err(cudaErrorInvalidValue);
	}
	memset(d, value, count);
	return cudaSuccess;
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
	RT_API();
	cudaError_t e = capture_sync_legacy("cudaMemset");
	return e ? e : memset_now(devPtr, value, count);
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
	RT_API();
	if (!stream_valid(stream)) return rt_err(cudaErrorInvalidResourceHandle);
	int on;
	cudaError_t e = capture_enqueue(stream, "cudaMemsetAsync", &on);
	if (e) return e;
	if (!on) return memset_now(devPtr, value, count);
	struct cudaMemsetParams p = {devPtr, 0, (unsigned char)value, 1, count, 1};
	return capture_add(stream, cudaGraphNodeTypeMemset, &p);
}

cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation loc,
                                 unsigned int flags, cudaStream_t stream)
{
	RT_API();
	if (!stream_valid(stream)) return rt_err(cudaErrorInvalidResourceHandle);
	Block *b = block_find(devPtr, count);
	return b && is_mirrored(b) ? cudaSuccess : rt_err(cudaErrorInvalidValue);
}

cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                          struct cudaMemLocation loc)
{
	RT_API();
	Block *b = block_find(devPtr, count);
	return b && is_mirrored(b) ? cudaSuccess : rt_err(cudaErrorInvalidValue);
}

/* which streams may touch managed memory: every launch mirrors all of it and
 * runs alone (rt.h), so any attachment holds; only the arguments are checked */
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
                                     unsigned int flags)
{
	RT_API();
	if (!stream_valid(stream)) return rt_err(cudaErrorInvalidResourceHandle);
	if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost &&
	    flags != cudaMemAttachSingle)
		return rt_err(cudaErrorInvalidValue);
	Block *b = block_find(devPtr, length);
	if (!b || b->type != cudaMemoryTypeManaged || (length && b->addr != (uintptr_t)devPtr))
		return rt_err(cudaErrorInvalidValue);
	return cudaSuccess;
}

struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                   enum cudaChannelFormatKind f)
{
	RT_API();
	return (struct cudaChannelFormatDesc){x, y, z, w, f};
}

/* ---- device variables ------------------------------------------------------------ */

/* device address and size of the variable whose host shadow is sym */
static cudaError_t symbol(const void *sym, CUdeviceptr *dptr, size_t *bytes)
{
	READY();
	RtVar *v = reg_var(sym);
	if (!v) return rt_err(cudaErrorInvalidSymbol);
	cudaError_t e = reg_var_addr(v, dptr, bytes);
	return e ? rt_err(e) : cudaSuccess;
}

/* a copy to or from a symbol: synchronous (sync), or on stream */
static cudaError_t symbol_copy(void *dst, const void *src, const void *sym, size_t count,
                               size_t offset, enum cudaMemcpyKind kind, int to_symbol,
                               int sync, cudaStream_t stream)
{
	const char *fn = to_symbol ? (sync ? "cudaMemcpyToSymbol" : "cudaMemcpyToSymbolAsync")
	                           : (sync ? "cudaMemcpyFromSymbol" : "cudaMemcpyFromSymbolAsync");
	if (sync) {
		cudaError_t e = capture_sync_legacy(fn);
		if (e) return e;
	}
	CUdeviceptr a;
	size_t bytes;
	cudaError_t e = symbol(sym, &a, &bytes);
	if (e) return e;
	if (offset > bytes || count > bytes - offset) return rt_err(cudaErrorInvalidValue);
	void *dev = (void *)(uintptr_t)(a + offset);
	if (to_symbol) {
		if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
		    kind != cudaMemcpyDefault)
			return rt_err(cudaErrorInvalidMemcpyDirection);
		return sync ? mem_copy(dev, src, count, kind) : copy_on(stream, fn, dev, src, count, kind);
	}
	if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
	    kind != cudaMemcpyDefault)
		return rt_err(cudaErrorInvalidMemcpyDirection);
	return sync ? mem_copy(dst, dev, count, kind) : copy_on(stream, fn, dst, dev, count, kind);
}

cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind)
{
	RT_API();
	return symbol_copy(NULL, src, sym, count, offset, kind, 1, 1, NULL);
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind)
{
	RT_API();
	return symbol_copy(dst, NULL, sym, count, offset, kind, 0, 1, NULL);
}

cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t count,
                                    size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream)
{
	RT_API();
	if (!stream_valid(stream)) return rt_err(cudaErrorInvalidResourceHandle);
	return symbol_copy(NULL, src, sym, count, offset, kind, 1, 0, stream);
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream)
{
	RT_API();
	if (!stream_valid(stream)) return rt_err(cudaErrorInvalidResourceHandle);
	return symbol_copy(dst, NULL, sym, count, offset, kind, 0, 0, stream);
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *sym)
{
	RT_API();
	CUdeviceptr a;
	size_t bytes;
	if (!devPtr) return rt_err(cudaErrorInvalidValue);
	cudaError_t e = symbol(sym, &a, &bytes);
	if (!e) *devPtr = (void *)(uintptr_t)a;
	return e;
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *sym)
{
	RT_API();
	CUdeviceptr a;
	size_t bytes;
	if (!size) return rt_err(cudaErrorInvalidValue);
	cudaError_t e = symbol(sym, &a, &bytes);
	if (!e) *size = bytes;
	return e;
}
