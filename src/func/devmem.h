/*
 * devmem.h -- simulated device (global) memory: allocations and checked access.
 *
 * Every cuMemAlloc and every module-scope .global variable is one
 * allocation with host backing store.  Device addresses are handed out
 * from GPU_GLOBAL_BASE upward, each allocation aligned to 256 bytes (as
 * cudaMalloc guarantees) and followed by a 64 KiB unmapped gap, so that a
 * kernel running a little past the end of a buffer touches no allocation
 * and is reported instead of silently corrupting its neighbour.  Freed
 * address ranges are never reused, so a use-after-free is reported too.
 * A real GPU maps memory a page at a time, so an access a little past a
 * buffer's end reads whatever shares its page, silently; with mem.oob =
 * warn|allow (gmem_map_pages) each allocation is backed up to the end of
 * its last page of mem.page_bytes, or the start of the gap's next
 * allocation if that comes first, and such accesses read and write there.
 *
 * Lookup is a binary search over allocations sorted by address (they are
 * created in address order, so the array stays sorted) behind a one-entry
 * cache per caller, which hits for almost every access of a kernel.
 *
 * Device-side malloc (and C++ new) allocates the same way, from a heap of
 * heap_limit bytes (cudaLimitMallocHeapSize through cuCtxSetLimit;
 * GMEM_HEAP_BYTES, CUDA's default, unless set): beyond it
 * malloc returns NULL, as CUDA's does.  Device free takes only what device
 * malloc returned; cudaFree refuses those (gmem_free), as CUDA does.
 */
#ifndef RFSIM_FUNC_DEVMEM_H
#define RFSIM_FUNC_DEVMEM_H

#include <stdint.h>

typedef struct Alloc {
	uint64_t base, size;     /* device address range [base, base+size) */
	uint8_t *host;           /* backing store */
	int live;                /* 0 once freed */
	int heap;                /* from device-side malloc */
	uint64_t slack;          /* bytes backed past size: the rest of its last page
	                            (mem.oob = warn|allow), up to the next allocation */
} Alloc;

typedef struct GMem {
	Alloc *a; int32_t n, cap;
	uint64_t next;           /* next free device address */
	uint64_t used, capacity; /* bytes live / allowed */
	uint64_t heap_used;      /* bytes live from device-side malloc */
	uint64_t heap_limit;     /* cudaLimitMallocHeapSize: GMEM_HEAP_BYTES unless set */
	uint64_t page;           /* mem.page_bytes when accesses past an end are mapped
	                            (mem.oob = warn|allow), else 0 */
	int warn;                /* mem.oob = warn: report the first such access ... */
	int warned;              /* ... of each kernel (gpu.c clears it at launch) */
} GMem;

#define GMEM_HEAP_BYTES (8ull << 20)

void gmem_init(GMem *g, uint64_t capacity);
void gmem_fini(GMem *g);
int gmem_alloc(GMem *g, uint64_t bytes, uint64_t *dptr);  /* RF_ERUNTIME when full */
int gmem_free(GMem *g, uint64_t dptr);                      /* RF_EINPUT if not a base */
/* device-side malloc: *dptr = 0 when the heap is full; free: RF_EINPUT if
   dptr is not what malloc returned (0 is allowed and does nothing) */
int gmem_heap_alloc(GMem *g, uint64_t bytes, uint64_t *dptr);
int gmem_heap_free(GMem *g, uint64_t dptr);
/* a hash of every live allocation's address, size and bytes: two runs that left the
   same device memory behind have the same digest (config key sim.digest) */
uint64_t gmem_digest(const GMem *g);
/* map the rest of each allocation's last page of `page` bytes (mem.oob = warn|allow);
   0 = fault past every end (the default).  Applies to later allocations. */
void gmem_map_pages(GMem *g, uint64_t page);
/* host pointer of [addr, addr+n) when it lies in an allocation's mapped slack past
   its end (gmem_map_pages), else NULL */
uint8_t *gmem_slack_ptr(const GMem *g, uint64_t addr, uint64_t n);
/* index of the live allocation containing [addr, addr+n), or -1 */
int32_t gmem_find(const GMem *g, uint64_t addr, uint64_t n);

/* host pointer of [addr, addr+n) or NULL; *hint caches the last allocation */
static inline uint8_t *gmem_ptr(const GMem *g, uint64_t addr, uint64_t n, int32_t *hint)
{
	const Alloc *a = &g->a[*hint];
	if (*hint < g->n && addr - a->base < a->size && n <= a->size - (addr - a->base) && a->live)
		return a->host + (addr - a->base);
	int32_t i = gmem_find(g, addr, n);
	if (i < 0) return 0;
	*hint = i;
	return g->a[i].host + (addr - g->a[i].base);
}

#endif
