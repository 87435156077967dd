/*
 * rt.h -- what the files of rfsim's CUDA runtime (src/cudart/) share.
 *
 * The runtime is a layer over rfsim's Driver API (src/api/driver.c), the
 * way NVIDIA's runtime is a layer over libcuda: one primary context,
 * created on first use from the environment's config (runtime.c); the
 * PTX that nvcc embedded in the program, pulled out of its fatbins
 * (fatbin.c) and loaded as one driver module per translation unit, or
 * per device link for relocatable device code, whose units' PTX is linked
 * first (register.c, src/ptx/link.c); kernels, device variables and launches looked up by the
 * host addresses nvcc registered (register.c, launch.c); memory (memory.c,
 * and pitched.c for 2D and 3D);
 * streams and events (stream.c); graphs (graph.c, graphexec.c) and stream
 * capture (capture.c); device queries (device.c); and the statistics file
 * and per-kernel summaries (stats.c).
 *
 * Every runtime call is synchronous: a kernel has finished, and its
 * results are in memory, when its launch returns.  That is a legal
 * schedule of CUDA's stream semantics, so correct programs cannot tell,
 * and it makes the statistics of a run independent of the host.
 *
 * Error discipline, as in NVIDIA's runtime: every call returns its status
 * and, if it is an error, also records it as the "last error" (rt_err),
 * which cudaGetLastError returns and clears.  A kernel fault is sticky:
 * from then on every call that needs the device returns it (rt_ready).
 *
 * Host threads: every exported function holds one process-wide lock for
 * its whole call (RT_API, a recursive mutex: a call may make others), so
 * a program's threads take turns, as they would through one context; the
 * last error is per thread, as in NVIDIA's runtime, and a sticky error is
 * seen by all.
 *
 * State.  Everything the runtime remembers between calls is in one
 * RtState (below), libcudart's part of src/api/state.h's Runtime, made on
 * first use (rt_state); the handles it gives out are in that Runtime's
 * registry.  What is each host thread's own -- the last error, the launch
 * configurations nvcc's <<< >>> pushes, the thread's capture mode -- is in
 * one RtThread per thread (rt_thread: _Thread_local), and needs no lock.
 * These two, and the Runtime, are the library's only mutable variables.
 */
#ifndef RFSIM_CUDART_RT_H
#define RFSIM_CUDART_RT_H

#include <stddef.h>
#include <stdint.h>

#include "api/api.h"
#include "api/cuda.h"
#include "api/state.h"
#include "base/config.h"
#include "cudart/cudart.h"

typedef struct RtModule RtModule;
typedef struct RtFunc RtFunc;
typedef struct RtVar RtVar;

/* ---- runtime.c: the state, start-up, configuration, errors ---- */

enum { CONFIG_DEPTH = 16 };      /* launch configurations a thread may have pushed */

typedef struct CallConfig {      /* one <<<grid, block, shmem, stream>>> (launch.c) */
	dim3 grid, block;
	size_t shmem;
	cudaStream_t stream;
} CallConfig;

typedef struct RtThread {        /* a host thread's own state */
	cudaError_t last_error;      /* cudaGetLastError's (runtime.c) */
	CallConfig configs[CONFIG_DEPTH];   /* pushed, not yet popped (launch.c) */
	int nconfigs;
	enum cudaStreamCaptureMode capture_mode;   /* cudaThreadExchangeStreamCaptureMode's
	                                               (capture.c); Global (0) at first */
} RtThread;

typedef struct RtState {         /* the runtime's memory between calls */
	/* runtime.c */
	CUcontext ctx;               /* the primary context, NULL until it is needed */
	int configured;              /* the environment's config was read (the driver holds it) */
	cudaError_t init_error;      /* a bad configuration: permanent */
	cudaError_t sticky;          /* a kernel fault: every thread's */
	char **said;                 /* rt_say's lines so far, each said once */
	size_t nsaid, capsaid;
	/* device.c */
	unsigned device_flags;       /* cudaSetDeviceFlags' */
	enum cudaFuncCache cache_config;
	enum cudaSharedMemConfig shmem_config;
	/* register.c: what nvcc registered, in registration order */
	RtModule **mods;
	size_t nmods, capmods;
	RtFunc **funcs;
	size_t nfuncs, capfuncs;
	RtVar **vars;
	size_t nvars, capvars;
	/* memory.c: every allocation handed out */
	struct Block *blocks;
	size_t nblocks, capblocks;
	/* mempool.c */
	struct CUmemPoolHandle_st *default_pool;   /* made on first use */
	cudaMemPool_t current_pool;  /* cudaDeviceSetMemPool's; NULL: the default pool */
	/* stream.c */
	unsigned long long next_stream_id;   /* 0..2: the default streams' ids */
	double clock_ms;             /* stream_clock_ms() so far */
	int clock_counted;           /* kernels of the log already in clock_ms */
	/* capture.c */
	struct Member *members, *tags;   /* streams, events in captures */
	size_t nmembers, capmembers, ntags, captags;
	unsigned long long next_capture_id;
	cudaGraphEdgeData *zeros;    /* edge data of no edges, handed out (all zero) */
	size_t capzeros;
	/* stats.c: the C++ runtime's __cxa_demangle, looked up once */
	char *(*demangle)(const char *, char *, size_t *, int *);
	int demangle_looked;
} RtState;

RtState *rt_state(void);         /* the runtime's state, made on first use */
RtThread *rt_thread(void);       /* the calling host thread's state */


/* the first statement of every exported function: holds the runtime's lock
 * until the function returns (released by the variable's cleanup) */
#define RT_API() int rt_api_held_ __attribute__((cleanup(rt_unlock), unused)) = rt_lock()
int rt_lock(void);
void rt_unlock(int *held);

cudaError_t rt_ready(void);              /* context up and modules loaded, or why not */
cudaError_t rt_err(cudaError_t e);       /* record e as the last error (unless success) */
cudaError_t rt_from_cu(CUresult r);      /* the runtime's code for a driver status */
void rt_set_sticky(cudaError_t e);       /* a kernel fault poisons the runtime */
const Config *rt_config(void);           /* the machine simulated (from the environment) */
int rt_quiet(void);                      /* RFSIM_QUIET=1: no per-kernel lines */
void rt_reset(void);                     /* cudaDeviceReset: drop the context */
/* a one-line complaint "rfsim: <what>" on stderr, once per distinct text */
void rt_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* what every stub of stubs.c does: say "FN is not supported", record and
 * return cudaErrorNotSupported (stubs.c declares it again: it cannot
 * include this header, whose prototypes its stubs contradict) */
int rt_unsupported(const char *fn);

/* ---- fatbin.c: the PTX inside nvcc's fatbinary ---- */

typedef struct FatbinPtx {
	char *text;              /* NUL-terminated PTX, malloc'd */
	size_t len;
	int arch;                /* the XX of compute_XX it was generated for */
} FatbinPtx;

/* the PTX of the fatbin wrapper nvcc registers: the entry with the highest
 * arch <= max_arch, else the lowest.  RF_EINPUT with err_msg() when there is
 * none (saying how to rebuild) or the fatbin is malformed. */
int fatbin_ptx(const void *wrapper, int max_arch, FatbinPtx *out);
/* 1 if the wrapper is a device link's (nvcc -rdc: version 2) */
int fatbin_linked(const void *wrapper);
/* a device link's units, in link order: the PTX of each (chosen as fatbin_ptx
 * does), *n of them in a malloc'd array; RF_EINPUT with err_msg() naming the
 * unit whose PTX cannot be had */
int fatbin_linked_ptx(const void *wrapper, int max_arch, FatbinPtx **out, size_t *n);
/* the PTX of one container (as fatbin_ptx chooses it), of which avail bytes may be read:
 * UINT64_MAX trusts its header, as the two above do with what nvcc registered; the
 * fuzz target (fuzz/fatbin.c) gives its input's length */
int fatbin_container_ptx(const void *container, uint64_t avail, int max_arch, FatbinPtx *out);

/* ---- register.c: what nvcc registered, and the loaded modules ---- */

struct RtFunc {
	const void *host;        /* host stub: the kernel's identity in the runtime API */
	char *name;              /* its PTX (mangled) name */
	RtModule *mod;
	CUfunction f;            /* NULL until the module is loaded */
	int max_dyn_shared;      /* cudaFuncAttributeMaxDynamicSharedMemorySize, -1 unset */
	int carveout;            /* cudaFuncAttributePreferredSharedMemoryCarveout */
	int cluster[3];          /* cudaFuncAttributeRequiredCluster{Width,Height,Depth} set at
	                            run time (0: not set; the kernel's __cluster_dims__ apply) */
	int nonportable;         /* cudaFuncAttributeNonPortableClusterSizeAllowed */
	int cluster_policy;      /* cudaFuncAttributeClusterSchedulingPolicyPreference */
};

struct RtVar {
	const void *host;        /* the host shadow variable nvcc made */
	char *name;              /* its PTX name */
	RtModule *mod;
	size_t size;
	int constant;            /* __constant__ rather than __device__ */
	void **managed;          /* __managed__: where the program reads its address */
};

/* load every registered module that is not loaded yet into the current
 * context; a module without usable PTX is reported once and skipped */
void reg_load_all(void);
void reg_unload_all(void);               /* the context is going away */
RtFunc *reg_func(const void *host_or_handle);   /* NULL if not a kernel */
RtVar *reg_var(const void *host);
/* the module of f or v, if it loaded: cudaSuccess, else why not */
cudaError_t reg_module_status(const RtModule *m);
/* where the variable lives in the device: cudaSuccess, or why it does not */
cudaError_t reg_var_addr(const RtVar *v, CUdeviceptr *dptr, size_t *bytes);

/* ---- memory.c ---- */

enum { MEM_HOST = 0, MEM_DEV = 1, MEM_ANY = -1 };   /* which side a copy's pointer is on */

/* the host's view of [p, p+n) on `side`, or NULL if p is not there */
void *mem_view(const void *p, size_t n, int side);
int mem_kind_side(enum cudaMemcpyKind kind, int dst);   /* kind valid; dst: 1, src: 0 */
/* "fn(...): the destination/source is not ... memory of that size" */
void mem_bad_copy(const char *fn, const void *dst, const void *src, size_t n,
                  enum cudaMemcpyKind kind, int dst_bad);
/* cudaMemcpy: checked, recorded as the last error */
cudaError_t mem_copy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind);

/* managed memory lives at the same address on host and device; the host
 * copy is the real one between kernels, so a launch copies it in and out */
int mem_managed_map(CUdeviceptr dptr, size_t bytes);   /* host view at dptr; 0 ok */
void mem_managed_to_device(void);
void mem_managed_to_host(void);
void mem_reset(void);                    /* forget every allocation (device reset) */
/* memory pools (mempool.c): take/give count a pool's bytes in use (take: 0 when
 * the pool's maxSize would be passed); the device's current pool serves
 * cudaMallocAsync */
int mempool_take(cudaMemPool_t pool, size_t bytes);
void mempool_give(cudaMemPool_t pool, size_t bytes);
int mempool_valid(cudaMemPool_t pool);
cudaMemPool_t mempool_current(void);
void mempool_reset(void);                /* device reset: the default pool only, emptied */

/* ---- pitched.c ---- */

/* rows of width bytes, pitch apart: checked whole (the spans must be memory of the
 * sides kind names), then copied; recorded as the last error */
cudaError_t pitched_copy(const char *fn, void *dst, size_t dpitch, const void *src,
                         size_t spitch, size_t width, size_t rows, enum cudaMemcpyKind kind);

/* ---- array.c: CUDA arrays ---- */

/* bytes per element of a channel format rfsim supports (1, 2 or 4 channels of 8, 16
 * or 32 bits), its channels and bytes per channel; 0 if unsupported */
size_t array_format(const struct cudaChannelFormatDesc *d, int *nch, int *chbytes);
struct cudaArray *array_live(cudaArray_const_t a);      /* NULL if not a live array */
/* where a live array's texels lie (its layout: array.c), and its flags */
void array_layout(cudaArray_const_t a, uint64_t *base, uint64_t size[3], uint64_t *pitch,
                  uint64_t *slice, int *dims, unsigned *flags);
const struct cudaChannelFormatDesc *array_desc(cudaArray_const_t a);
unsigned array_layers(cudaArray_const_t a);   /* a layered array's layers, else 0 */
void array_reset(void);                  /* forget every array (device reset) */

/* ---- texture.c ---- */

void texture_reset(void);                /* forget every object (device reset) */

/* ---- stream.c ---- */

int stream_valid(cudaStream_t s);        /* a live stream, or a default one */
int stream_event_valid(cudaEvent_t ev);  /* a live event */
void stream_event_stamp(cudaEvent_t ev); /* record it now (a graph's event record node) */
double stream_clock_ms(void);            /* simulated time so far (see stream.c) */
void stream_reset(void);

/* ---- pitched.c ---- */

/* cudaMemcpy3D's copy, its errors recorded and said under the name fn */
cudaError_t pitched_copy3d(const struct cudaMemcpy3DParms *p, const char *fn);

/* ---- launch.c ---- */

/* a launch from the program: checked, captured if the stream is capturing;
 * coop: a cooperative launch (the whole grid resident, grid.sync() works) */
cudaError_t launch_run(RtFunc *fn, dim3 grid, dim3 block, void **args, size_t shmem,
                       cudaStream_t stream, int coop, dim3 cluster);
/* run the kernel now (a graph's kernel node): errors are not recorded; cluster:
 * thread-block clusters asked for (0,0,0: none) */
cudaError_t launch_now(RtFunc *fn, dim3 grid, dim3 block, void **args, size_t shmem, int coop,
                       dim3 cluster);

/* ---- graph.c ---- */

/* a 1D copy as the one-row 3D copy a memcpy node holds */
struct cudaMemcpy3DParms graph_copy1d(void *dst, const void *src, size_t count,
                                      enum cudaMemcpyKind kind);
/* a node running (a clone of) executable graph x: a graph launched while capturing */
cudaError_t graph_add_exec(cudaGraphNode_t *out, cudaGraph_t g, const cudaGraphNode_t *deps,
                           size_t ndeps, cudaGraphExec_t x);
void graph_reset(void);                  /* cudaDeviceReset: drop every graph */

/* ---- capture.c: stream capture (the rules atop capture.c) ---- */

/* before a call enqueues work on s: cudaSuccess with *on set if s is
 * capturing (the call then adds a node with capture_add instead of
 * running), or the error -- recorded -- that capture makes of the call */
cudaError_t capture_enqueue(cudaStream_t s, const char *fn, int *on);
/* the node of a call on capturing stream s: params as cudaGraphAdd<type>Node
 * takes them (a cudaGraphExec_t for Graph, a cudaEvent_t for EventRecord) */
cudaError_t capture_add(cudaStream_t s, enum cudaGraphNodeType type, const void *params);
/* a call on s that rfsim cannot capture, refused by name */
cudaError_t capture_refuse(cudaStream_t s, const char *fn, const char *what);
cudaError_t capture_unsafe(const char *fn);      /* cudaMalloc, cudaDeviceSynchronize, ... */
cudaError_t capture_sync_legacy(const char *fn); /* cudaMemcpy, cudaMemset, ... */
cudaError_t capture_stream_sync(cudaStream_t s, const char *fn);   /* Synchronize, Query */
cudaError_t capture_event_check(cudaEvent_t ev); /* cudaErrorCapturedEvent if captured */
int capture_record(cudaEvent_t ev, cudaStream_t s);  /* 1: s captures, ev tagged */
cudaError_t capture_wait(cudaStream_t s, cudaEvent_t ev);   /* fork or join */
int capture_owns(cudaGraph_t g);                 /* g is being captured into */
void capture_forget(const void *stream_or_event);   /* it is being destroyed */
void capture_reset(void);

/* ---- stats.c ---- */

void stats_kernel_line(int i);           /* summary of logged kernel i on stderr */

#endif
