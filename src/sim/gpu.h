/*
 * gpu.h -- the simulated GPU as the host side sees it: device memory,
 * loaded programs, kernel launches, and per-kernel statistics.
 *
 * The driver-API layer (src/api/driver.c) is a thin skin over this; the
 * CLI's `run FILE.ptx` uses it directly.  Every function returns RF_OK, or
 * RF_EINPUT / RF_ERUNTIME with the reason in err_msg() (base.h).
 *
 * Address spaces.  Device (global) memory lives at addresses from
 * GPU_GLOBAL_BASE up; the generic address space also has a window for
 * shared memory, one for local memory and one for constant memory, as on
 * NVIDIA hardware, so cvta and generic ld/st work.  Every global access is
 * checked against the live allocations: a kernel that touches memory it
 * does not own stops with a compute-sanitizer-like report.
 */
#ifndef RFSIM_SIM_GPU_H
#define RFSIM_SIM_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "base/config.h"
#include "timing/tstats.h"

#define GPU_GLOBAL_BASE  0x0000000100000000ull   /* first device allocation */
#define GPU_GLOBAL_END   0x0000100000000000ull
#define GPU_CONST_WIN    0x0000200000000000ull   /* generic window of .const */
#define GPU_LOCAL_WIN    0x0000300000000000ull   /* generic window of .local */
#define GPU_SHARED_WIN   0x0000400000000000ull   /* generic window of .shared */
#define GPU_PARAM_WIN    0x0000500000000000ull   /* generic window of kernel .param */
#define GPU_WIN_SIZE     0x0000010000000000ull   /* each window's size */
#define GPU_FUNC_STRIDE  16                      /* bytes between function addresses */

typedef struct Dim3 { uint32_t x, y, z; } Dim3;

typedef struct KernelStats {
	char name[1024];         /* kernel's PTX name (C++ mangled names run long) */
	Dim3 grid, block;
	uint32_t dyn_shmem;      /* dynamic shared memory bytes */
	int regs_per_thread;     /* registers the kernel runs with */
	uint64_t warp_insts;     /* warp instructions issued */
	uint64_t thread_insts;   /* thread instructions (active lanes summed) */
	double sim_seconds;      /* host time spent simulating it */
	uint64_t mem_digest;     /* sim.digest: gmem_digest() after it (and its children) ran */
	int digested;            /* mem_digest is set */
	int timed;               /* ran on the timing model: ts is valid */
	TStats ts;               /* the timing model's counters (tstats.def) */
} KernelStats;

typedef struct ParamInfo {
	uint32_t offset;         /* byte offset in the kernel's parameter buffer */
	uint32_t size;           /* bytes */
	uint32_t align;
} ParamInfo;

typedef struct KernelAttr {
	int regs_per_thread;
	uint32_t shared_bytes;   /* static shared memory */
	uint32_t local_bytes;    /* per-thread local memory (frame of the kernel) */
	uint32_t const_bytes;    /* module constant memory */
	uint32_t param_bytes;    /* kernel parameter buffer size */
	int max_threads;         /* per block: min(1024, .maxntid product) */
	int ptx_arch;            /* the module's .target as major * 10 + minor (sm_75: 75) */
	int cluster[3];          /* .reqnctapercluster (__cluster_dims__), 0 0 0: none */
	int explicit_cluster;    /* .explicitcluster */
	int nparam;
	const ParamInfo *params;
} KernelAttr;

typedef struct Gpu Gpu;
typedef struct Program Program;

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
int prog_find_kernel(const Program *p, const char *name);        /* -> index, -1 */
const char *prog_kernel_name(const Program *p, int k);
int prog_nkernels(const Program *p);
void prog_kernel_attr(const Program *p, int k, KernelAttr *out);
/* address and size of a module-scope .global/.const variable */
int prog_find_global(const Program *p, const char *name, uint64_t *dptr, uint64_t *bytes);

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

/* what stopped the last kernel that returned RF_ERUNTIME, or (the last four)
 * why a launch was refused with RF_EINPUT */
enum { FAULT_NONE, FAULT_ADDRESS, FAULT_MISALIGNED, FAULT_TRAP, FAULT_STACK,
       FAULT_DEADLOCK, FAULT_LIMIT, FAULT_ASSERT,
       FAULT_BAD_LAUNCH,      /* grid, block, shared memory or parameters out of range */
       FAULT_NO_RESOURCES,    /* one block does not fit on an SM (registers, ...) */
       FAULT_CONFIG,          /* a config key the kernel's compile refuses at this launch
                                 (a forced regmutex.es breaking a deadlock rule) */
       FAULT_COOP_TOO_LARGE };   /* a cooperative grid that cannot be resident at once */
int gpu_last_fault(const Gpu *g);

/* statistics of every kernel launched so far, in launch order */
const KernelStats *gpu_kernel_stats(const Gpu *g, int *n);

#endif
