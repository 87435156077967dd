/*
 * driver.c -- rfsim's implementation of the CUDA Driver API subset in
 * cuda.h, on top of the simulated GPU (sim/gpu.h).
 *
 * One device exists, ordinal 0, described by the process-wide config
 * (api_set_config).  A context owns one simulated GPU: its device memory
 * and its modules.  Only the legacy NULL stream exists and every call is
 * synchronous, which is a legal implementation of CUDA's stream semantics.
 *
 * Errors follow NVIDIA's conventions: bad arguments give
 * CUDA_ERROR_INVALID_VALUE and the like, PTX that does not parse gives
 * CUDA_ERROR_INVALID_PTX, and a kernel fault gives CUDA_ERROR_ILLEGAL_ADDRESS
 * (or MISALIGNED_ADDRESS, LAUNCH_FAILED) and, as on a GPU, is sticky: the
 * context answers every later call with the same error.  Because host
 * programs often print only the error name, rfsim also writes the full
 * report (kernel, block, thread, PTX line, address) to stderr when a
 * module fails to load or a kernel faults.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "base/base.h"
#include "base/rftech.h"
#include "api/cuda.h"
#include "api/state.h"
#include "sim/gpu.h"

struct CUctx_st {
	Gpu *g;
	CUresult sticky;         /* a kernel fault poisons the context */
	size_t limit[CU_LIMIT_MAX];   /* cuCtxSetLimit's values */
};

struct CUmod_st {
	struct CUctx_st *ctx;
	Program *p;
	struct CUfunc_st *funcs; /* one per kernel */
};

struct CUfunc_st {
	struct CUmod_st *mod;
	int k;
};


void api_set_config(const Config *c)
{
	runtime()->cfg = *c;
	runtime()->cfg_set = 1;
}

const KernelStats *api_kernel_log(int *n)
{
	*n = runtime()->nlog;
	return runtime()->log;
}

void api_kernel_log_clear(void) { runtime()->nlog = 0; }

int api_last_fault(void) { return runtime()->fault; }

Gpu *api_gpu(void) { return runtime()->cur ? runtime()->cur->g : NULL; }

void *api_mem_host(CUdeviceptr dptr, size_t bytes)
{
	return runtime()->cur ? gpu_mem_host(runtime()->cur->g, dptr, bytes) : NULL;
}

void api_copied_in(CUdeviceptr dptr, size_t bytes)
{
	if (runtime()->cur) gpu_copied_in(runtime()->cur->g, dptr, bytes);
}

static const Config *cfg(void)
{
	if (!runtime()->cfg_set) {
		config_defaults(&runtime()->cfg);
		runtime()->cfg_set = 1;
	}
	return &runtime()->cfg;
}

/* ---- errors ---------------------------------------------------------------- */

CUresult cuGetErrorName(CUresult error, const char **pStr)
{
	if (!pStr) return CUDA_ERROR_INVALID_VALUE;
	switch (error) {
#define X(name, value, desc) case name: *pStr = #name; return CUDA_SUCCESS;
#include "api/cuerrors.def"
#undef X
	}
	*pStr = NULL;
	return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult error, const char **pStr)
{
	if (!pStr) return CUDA_ERROR_INVALID_VALUE;
	switch (error) {
#define X(name, value, desc) case name: *pStr = desc; return CUDA_SUCCESS;
#include "api/cuerrors.def"
#undef X
	}
	*pStr = NULL;
	return CUDA_ERROR_INVALID_VALUE;
}

#define NEED_INIT() do { if (!runtime()->init) return CUDA_ERROR_NOT_INITIALIZED; } while (0)
#define NEED_CTX() do { NEED_INIT(); if (!runtime()->cur) return CUDA_ERROR_INVALID_CONTEXT; \
	if (runtime()->cur->sticky) return runtime()->cur->sticky; } while (0)

/* ---- devices --------------------------------------------------------------- */

CUresult cuInit(unsigned int Flags)
{
	if (Flags) return CUDA_ERROR_INVALID_VALUE;
	runtime()->init = 1;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count)
{
	NEED_INIT();
	if (!count) return CUDA_ERROR_INVALID_VALUE;
	*count = 1;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
	NEED_INIT();
	if (!device) return CUDA_ERROR_INVALID_VALUE;
	if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
	*device = 0;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	NEED_INIT();
	if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
	if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
	snprintf(name, (size_t)len, "rfsim %s (%lld SMs)", cfg()->name[0] ? cfg()->name : "default",
	         (long long)cfg()->sm_count);
	return CUDA_SUCCESS;
}

int64_t api_default_shared(const Config *c)
{
	return c->block_max_shared_bytes < 49152 ? c->block_max_shared_bytes : 49152;
}

/* the value devattr.def gives attribute a on machine c; 0 if a is no attribute */
static int dev_attr(int a, const Config *c, long long *v)
{
	switch (a) {
#define DA(name, num, rtname, value) case num: *v = (value); return 1;
#define DP(name, num, rtname, field, value) DA(name, num, rtname, value)
#define DD(name, num, value) DA(name, num, -, value)
#include "api/devattr.def"
#undef DA
#undef DP
#undef DD
	}
	return 0;
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
	NEED_INIT();
	if (!pi) return CUDA_ERROR_INVALID_VALUE;
	if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
	long long v;
	if (!dev_attr((int)attrib, cfg(), &v)) return CUDA_ERROR_INVALID_VALUE;
	*pi = v > INT_MAX ? INT_MAX : (int)v;     /* a huge config's memory clock, say */
	return CUDA_SUCCESS;
}

/* ---- contexts -------------------------------------------------------------- */

/* NVIDIA's defaults; of the limits only the malloc heap's changes what the
 * simulator does (stack depth is bounded by its own frames, printf has no
 * FIFO to fill) */
static const size_t limit_default[CU_LIMIT_MAX] = {1024, 1 << 20, 8 << 20, 2, 2048, 32, 0};

CUresult cuCtxCreate(CUcontext *pctx, CUctxCreateParams *params, unsigned int flags,
                     CUdevice dev)
{
	NEED_INIT();
	if (!pctx || params || (flags & ~0xFFu)) return CUDA_ERROR_INVALID_VALUE;
	if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
	struct CUctx_st *c = xcalloc(1, sizeof *c);
	c->g = gpu_new(cfg());
	memcpy(c->limit, limit_default, sizeof c->limit);
	runtime()->cur = c;
	*pctx = c;
	return CUDA_SUCCESS;
}

static void module_free(struct CUmod_st *m)
{
	gpu_unload(m->ctx->g, m->p);
	free(m->funcs);
	free(m);
}

CUresult cuCtxDestroy(CUcontext ctx)
{
	NEED_INIT();
	if (!ctx) return CUDA_ERROR_INVALID_VALUE;
	struct CUmod_st *m;
	for (size_t i = 0; (m = handle_next(HANDLE_MODULE, &i));)
		if (m->ctx == ctx) {     /* its modules go with it */
			handle_drop(HANDLE_MODULE, HANDLE_KEY(m));
			module_free(m);
			i--;             /* the next handle moved into m's place */
		}
	gpu_free(ctx->g);
	if (runtime()->cur == ctx) runtime()->cur = NULL;
	free(ctx);
	return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void)
{
	NEED_CTX();
	return CUDA_SUCCESS;
}

CUresult cuCtxSetLimit(CUlimit limit, size_t value)
{
	NEED_CTX();
	if ((unsigned)limit >= CU_LIMIT_MAX) return CUDA_ERROR_UNSUPPORTED_LIMIT;
	runtime()->cur->limit[limit] = value;
	if (limit == CU_LIMIT_MALLOC_HEAP_SIZE) gpu_set_heap_limit(runtime()->cur->g, value);
	if (limit == CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT)
		gpu_set_pending_limit(runtime()->cur->g, value);
	return CUDA_SUCCESS;
}

CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit)
{
	NEED_CTX();
	if (!pvalue) return CUDA_ERROR_INVALID_VALUE;
	if ((unsigned)limit >= CU_LIMIT_MAX) return CUDA_ERROR_UNSUPPORTED_LIMIT;
	*pvalue = limit == CU_LIMIT_MALLOC_HEAP_SIZE ? (size_t)gpu_heap_limit(runtime()->cur->g)
	        : limit == CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT
	        ? (size_t)gpu_pending_limit(runtime()->cur->g) : runtime()->cur->limit[limit];
	return CUDA_SUCCESS;
}

/* ---- modules --------------------------------------------------------------- */

static CUresult load(CUmodule *module, const char *text, size_t len, const char *name)
{
	Program *p;
	int rc = gpu_load_ptx(runtime()->cur->g, text, len, name, &p);
	if (rc) {
		fprintf(stderr, "rfsim: %s\n", err_msg());
		err_clear();                /* said; callers need not say it again */
		return rc == RF_EINPUT ? CUDA_ERROR_INVALID_PTX : CUDA_ERROR_OUT_OF_MEMORY;
	}
	struct CUmod_st *m = xcalloc(1, sizeof *m);
	m->ctx = runtime()->cur;
	m->p = p;
	int n = prog_nkernels(p);
	m->funcs = xcalloc((size_t)n + 1, sizeof *m->funcs);
	for (int k = 0; k < n; k++) m->funcs[k] = (struct CUfunc_st){m, k};
	handle_add(HANDLE_MODULE, HANDLE_KEY(m), m);
	*module = m;
	return CUDA_SUCCESS;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
	NEED_CTX();
	if (!module || !image) return CUDA_ERROR_INVALID_VALUE;
	const char *text = image;
	if (!strstr(text, ".version") && !strstr(text, ".target")) {
		fprintf(stderr, "rfsim: cuModuleLoadData: the image is not PTX text (rfsim loads "
		        "PTX; cubins carry no PTX)\n");
		return CUDA_ERROR_INVALID_IMAGE;
	}
	return load(module, text, strlen(text), "<cuModuleLoadData>");
}

CUresult api_module_load(CUmodule *module, const char *ptx, const char *name)
{
	NEED_CTX();
	if (!module || !ptx || !name) return CUDA_ERROR_INVALID_VALUE;
	return load(module, ptx, strlen(ptx), name);
}

CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
	NEED_CTX();
	if (!module || !fname) return CUDA_ERROR_INVALID_VALUE;
	size_t len;
	char *text = read_file(fname, FILE_PTX, &len);
	if (!text) return CUDA_ERROR_FILE_NOT_FOUND;
	CUresult r = load(module, text, len, fname);
	free(text);
	return r;
}

/* hmod, if it is a live module of the current context; else NULL */
static struct CUmod_st *find_mod(CUmodule hmod)
{
	struct CUmod_st *m = handle_find(HANDLE_MODULE, HANDLE_KEY(hmod));
	return m && m->ctx == runtime()->cur ? m : NULL;
}

CUresult cuModuleUnload(CUmodule hmod)
{
	NEED_INIT();
	if (!find_mod(hmod)) return CUDA_ERROR_INVALID_HANDLE;
	handle_drop(HANDLE_MODULE, HANDLE_KEY(hmod));
	module_free(hmod);
	return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
	NEED_CTX();
	if (!hfunc || !name) return CUDA_ERROR_INVALID_VALUE;
	if (!find_mod(hmod)) return CUDA_ERROR_INVALID_HANDLE;
	int k = prog_find_kernel(hmod->p, name);
	if (k < 0) return CUDA_ERROR_NOT_FOUND;
	*hfunc = &hmod->funcs[k];
	return CUDA_SUCCESS;
}

CUresult cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
	NEED_CTX();
	if (!name) return CUDA_ERROR_INVALID_VALUE;
	if (!find_mod(hmod)) return CUDA_ERROR_INVALID_HANDLE;
	uint64_t a, n;
	if (prog_find_global(hmod->p, name, &a, &n)) return CUDA_ERROR_NOT_FOUND;
	if (dptr) *dptr = a;
	if (bytes) *bytes = n;
	return CUDA_SUCCESS;
}

/* ---- memory ------------------------------------------------------------------ */

CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize)
{
	NEED_CTX();
	if (!dptr || !bytesize) return CUDA_ERROR_INVALID_VALUE;
	uint64_t a;
	if (gpu_mem_alloc(runtime()->cur->g, bytesize, &a)) return CUDA_ERROR_OUT_OF_MEMORY;
	*dptr = a;
	return CUDA_SUCCESS;
}

CUresult cuMemFree(CUdeviceptr dptr)
{
	NEED_CTX();
	if (!dptr) return CUDA_SUCCESS;
	return gpu_mem_free(runtime()->cur->g, dptr) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

static void *dev(CUdeviceptr p, size_t n)
{
	return gpu_mem_host(runtime()->cur->g, p, n);
}

CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n)
{
	NEED_CTX();
	void *d = dev(dst, n);
	if (!d || (!src && n)) return CUDA_ERROR_INVALID_VALUE;
	if (n) memmove(d, src, n);
	gpu_copied_in(runtime()->cur->g, dst, n);
	return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n)
{
	NEED_CTX();
	void *s = dev(src, n);
	if (!s || (!dst && n)) return CUDA_ERROR_INVALID_VALUE;
	if (n) memmove(dst, s, n);
	return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	NEED_CTX();
	void *d = dev(dst, n), *s = dev(src, n);
	if (!d || !s) return CUDA_ERROR_INVALID_VALUE;
	if (n) memmove(d, s, n);
	gpu_copied_in(runtime()->cur->g, dst, n);
	return CUDA_SUCCESS;
}

CUresult cuMemsetD8(CUdeviceptr dst, unsigned char uc, size_t n)
{
	NEED_CTX();
	void *d = dev(dst, n);
	if (!d) return CUDA_ERROR_INVALID_VALUE;
	memset(d, uc, n);
	return CUDA_SUCCESS;
}

CUresult cuMemsetD32(CUdeviceptr dst, unsigned int ui, size_t n)
{
	NEED_CTX();
	if (dst & 3 || n > SIZE_MAX / 4) return CUDA_ERROR_INVALID_VALUE;
	uint8_t *d = dev(dst, n * 4);
	if (!d) return CUDA_ERROR_INVALID_VALUE;
	for (size_t i = 0; i < n; i++) memcpy(d + 4 * i, &ui, 4);
	return CUDA_SUCCESS;
}

/* ---- execution -------------------------------------------------------------- */

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction f)
{
	NEED_CTX();
	if (!pi) return CUDA_ERROR_INVALID_VALUE;
	if (!f || !find_mod(f->mod)) return CUDA_ERROR_INVALID_HANDLE;
	KernelAttr a;
	prog_kernel_attr(f->mod->p, f->k, &a);
	switch (attrib) {
	case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = a.max_threads; break;
	case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)a.shared_bytes; break;
	case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = (int)a.const_bytes; break;
	case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = (int)a.local_bytes; break;
	case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = a.regs_per_thread; break;
	/* the PTX's virtual architecture, as the driver reports it; the binary is
	   rfsim's own, "built" for the compute capability 8.0 it reports */
	case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = a.ptx_arch ? a.ptx_arch : 80; break;
	case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = 80; break;
	case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = 0; break;
	case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:   /* before any opt-in */
		*pi = a.shared_bytes < api_default_shared(cfg())
		      ? (int)(api_default_shared(cfg()) - a.shared_bytes) : 0;
		break;
	case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = -1; break;
	case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET: *pi = a.explicit_cluster; break;
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH: *pi = a.cluster[0]; break;
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT: *pi = a.cluster[1]; break;
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH: *pi = a.cluster[2]; break;
	default: return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

CUresult api_func_params(CUfunction f, KernelAttr *attr)
{
	NEED_CTX();
	if (!f || !find_mod(f->mod)) return CUDA_ERROR_INVALID_HANDLE;
	prog_kernel_attr(f->mod->p, f->k, attr);
	return CUDA_SUCCESS;
}

/* lay the arguments out in the kernel's parameter buffer */
static CUresult pack_params(const KernelAttr *a, void **kp, void **extra, uint8_t *buf)
{
	if (kp) {
		for (int i = 0; i < a->nparam; i++) {
			if (!kp[i]) return CUDA_ERROR_INVALID_VALUE;
			memcpy(buf + a->params[i].offset, kp[i], a->params[i].size);
		}
		return CUDA_SUCCESS;
	}
	if (!extra) return a->nparam ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
	const void *pb = NULL;
	size_t psize = 0;
	for (int i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
		if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) pb = extra[i + 1];
		else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) psize = *(size_t *)extra[i + 1];
		else return CUDA_ERROR_INVALID_VALUE;
	}
	if (!pb || psize < a->param_bytes) return CUDA_ERROR_INVALID_VALUE;
	memcpy(buf, pb, a->param_bytes);
	return CUDA_SUCCESS;
}

static CUresult launch(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                       unsigned int bx, unsigned int by, unsigned int bz, unsigned int shmem,
                       CUstream stream, void **kernelParams, void **extra, int coop,
                       const unsigned *cluster)
{
	NEED_CTX();
	if (!f || !find_mod(f->mod)) return CUDA_ERROR_INVALID_HANDLE;
	if (stream) return CUDA_ERROR_INVALID_HANDLE;   /* only the NULL stream exists */
	if (kernelParams && extra) return CUDA_ERROR_INVALID_VALUE;
	KernelAttr a;
	prog_kernel_attr(f->mod->p, f->k, &a);
	uint8_t *buf = xcalloc(a.param_bytes + 1, 1);
	CUresult r = pack_params(&a, kernelParams, extra, buf);
	if (r) {
		free(buf);
		return r;
	}
	Gpu *g = runtime()->cur->g;
	int n0;
	gpu_kernel_stats(g, &n0);
	Dim3 cl = cluster ? (Dim3){cluster[0], cluster[1], cluster[2]} : (Dim3){0, 0, 0};
	int rc = gpu_launch_ex(g, f->mod->p, f->k, (Dim3){gx, gy, gz}, (Dim3){bx, by, bz}, shmem,
	                       buf, a.param_bytes, coop, cl);
	free(buf);
	runtime()->fault = gpu_last_fault(g);
	int n;
	const KernelStats *ks = gpu_kernel_stats(g, &n);
	for (int i = n0; i < n; i++) {   /* the kernel, then those it launched (dynamic parallelism) */
		VEC_RESERVE(runtime()->log, runtime()->caplog, (size_t)runtime()->nlog + 1);
		runtime()->log[runtime()->nlog++] = ks[i];
	}
	if (rc == RF_OK) return CUDA_SUCCESS;
	fprintf(stderr, "rfsim: %s\n", err_msg());
	err_clear();                /* said; callers need not say it again */
	if (rc == RF_EINPUT)        /* refused before it ran: not sticky */
		return runtime()->fault == FAULT_NO_RESOURCES ? CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
		       : runtime()->fault == FAULT_COOP_TOO_LARGE ? CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE
		       : CUDA_ERROR_INVALID_VALUE;
	switch (runtime()->fault) {
	case FAULT_MISALIGNED: r = CUDA_ERROR_MISALIGNED_ADDRESS; break;
	case FAULT_ADDRESS: r = CUDA_ERROR_ILLEGAL_ADDRESS; break;
	case FAULT_STACK: r = CUDA_ERROR_HARDWARE_STACK_ERROR; break;
	case FAULT_ASSERT: r = CUDA_ERROR_ASSERT; break;
	/* a kernel the watchdog or a limit stopped would run for ever, or too long:
	   what NVIDIA's watchdog reports for a kernel it kills */
	case FAULT_DEADLOCK: case FAULT_LIMIT: r = CUDA_ERROR_LAUNCH_TIMEOUT; break;
	default: r = CUDA_ERROR_LAUNCH_FAILED; break;
	}
	runtime()->cur->sticky = r;
	return r;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                        unsigned int bx, unsigned int by, unsigned int bz,
                        unsigned int shmem, CUstream stream, void **kernelParams, void **extra)
{
	return launch(f, gx, gy, gz, bx, by, bz, shmem, stream, kernelParams, extra, 0, NULL);
}

CUresult api_launch_ex(CUfunction f, const unsigned grid[3], const unsigned block[3],
                       unsigned shmem, void **kernelParams, int coop, const unsigned cluster[3])
{
	return launch(f, grid[0], grid[1], grid[2], block[0], block[1], block[2], shmem, NULL,
	              kernelParams, NULL, coop, cluster);
}

CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gx, unsigned int gy,
                                   unsigned int gz, unsigned int bx, unsigned int by,
                                   unsigned int bz, unsigned int shmem, CUstream stream,
                                   void **kernelParams)
{
	return launch(f, gx, gy, gz, bx, by, bz, shmem, stream, kernelParams, NULL, 1, NULL);
}
