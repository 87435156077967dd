/*
 * kernel.h -- what the functional core shares with the timing model and
 * the host side (src/sim): the simulated GPU's address map, a launch's
 * dimensions, parameters and faults, and the loaded program's type.
 *
 * Address spaces.  Device (global) memory lives at addresses from
 * GPU_GLOBAL_BASE up; the generic address space also has a window for
 * shared memory, one for local memory and one for constant memory, as on
 * NVIDIA hardware, so cvta and generic ld/st work.  Every global access is
 * checked against the live allocations: a kernel that touches memory it
 * does not own stops with a compute-sanitizer-like report.
 */
#ifndef RFSIM_FUNC_KERNEL_H
#define RFSIM_FUNC_KERNEL_H

#include <stdint.h>

#define GPU_GLOBAL_BASE  0x0000000100000000ull   /* first device allocation */
#define GPU_GLOBAL_END   0x0000100000000000ull
#define GPU_CONST_WIN    0x0000200000000000ull   /* generic window of .const */
#define GPU_LOCAL_WIN    0x0000300000000000ull   /* generic window of .local */
#define GPU_SHARED_WIN   0x0000400000000000ull   /* generic window of .shared */
#define GPU_PARAM_WIN    0x0000500000000000ull   /* generic window of kernel .param */
#define GPU_WIN_SIZE     0x0000010000000000ull   /* each window's size */
#define GPU_FUNC_STRIDE  16                      /* bytes between function addresses */

typedef struct Dim3 { uint32_t x, y, z; } Dim3;

typedef struct ParamInfo {
	uint32_t offset;         /* byte offset in the kernel's parameter buffer */
	uint32_t size;           /* bytes */
	uint32_t align;
} ParamInfo;

typedef struct Program Program;   /* a loaded PTX module (func/prog.h) */

/* what stopped a kernel that returned RF_ERUNTIME, or (the last four) why a
 * launch was refused with RF_EINPUT (Launch.fault; gpu_last_fault) */
enum { FAULT_NONE, FAULT_ADDRESS, FAULT_MISALIGNED, FAULT_TRAP, FAULT_STACK,
       FAULT_DEADLOCK, FAULT_LIMIT, FAULT_ASSERT,
       FAULT_BAD_LAUNCH,      /* grid, block, shared memory or parameters out of range */
       FAULT_NO_RESOURCES,    /* one block does not fit on an SM (registers, ...) */
       FAULT_CONFIG,          /* a config key the kernel's compile refuses at this launch
                                 (a forced regmutex.es breaking a deadlock rule) */
       FAULT_COOP_TOO_LARGE };   /* a cooperative grid that cannot be resident at once */

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

/* what the host asks of a loaded program (prog.c) */
int prog_find_kernel(const Program *p, const char *name);        /* -> index, -1 */
const char *prog_kernel_name(const Program *p, int k);
int prog_nkernels(const Program *p);
void prog_kernel_attr(const Program *p, int k, KernelAttr *out);
/* address and size of a module-scope .global/.const variable */
int prog_find_global(const Program *p, const char *name, uint64_t *dptr, uint64_t *bytes);

#endif
