/*
 * register.c -- what nvcc's start-up code registers, and the modules
 * loaded from it.
 *
 * Before main() runs, the host code nvcc generated for each translation
 * unit calls __cudaRegisterFatBinary with the unit's fatbin wrapper, then
 * __cudaRegisterFunction once per kernel (host stub address -> PTX name)
 * and __cudaRegisterVar once per __device__/__constant__ variable (host
 * shadow address -> PTX name, size), then __cudaRegisterFatBinaryEnd.
 * At exit it calls __cudaUnregisterFatBinary.  Relocatable device code
 * (nvcc -rdc) registers once per device link instead: the link stub
 * collects its units, registers one version-2 wrapper listing their
 * fatbins (fatbin.c), and runs every unit's registrations under that one
 * handle; loading links the units' PTX into one module (src/ptx/link.c),
 * so kernels and variables of every unit live in it.  Nothing here touches the
 * simulator: registration only records.  The first runtime call that
 * needs the device (rt_ready) creates the context and loads every
 * registered unit as one driver module, PTX pulled out of its fatbin
 * (fatbin.c); a unit registered later (a dlopen'd library) is loaded by
 * the next call.  A unit whose PTX cannot be had or does not load is
 * reported once on stderr; its kernels then fail to launch with the
 * reason (cudaErrorNoKernelImageForDevice, cudaErrorInvalidPtx), which is
 * when NVIDIA's lazily-loading runtime reports it too.
 *
 * The handle returned to the program is the RtModule itself; programs
 * never look inside it.  cudaKernel_t handles (__cudaGetKernel) are
 * RtFunc pointers.
 *
 * __managed__ variables: nvcc's code reaches one through a pointer that
 * __cudaInitModule must fill in.  Loading the module places the variable
 * in device memory at some address A; memory.c maps host memory at A too
 * and mirrors it across launches, as it does for cudaMallocManaged, so
 * the pointer is A on both sides.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "base/base.h"
#include "ptx/ptx.h"
#include "func/decode.h"
#include "cudart/rt.h"

struct RtModule {
	const void *wrapper;     /* what __cudaRegisterFatBinary got: first, so never NULL */
	CUmodule mod;            /* NULL until loaded, or if loading failed */
	cudaError_t status;      /* cudaSuccess, or why the module has no code */
	int tried;               /* loading attempted in the current context */
	int unmapped;            /* a __managed__ variable could not be mapped */
	int dead;                /* unregistered */
};


/* the program's name, for messages */
static const char *prog(void) { return program_invocation_short_name; }

void **__cudaRegisterFatBinary(void *fatCubin)
{
	RT_API();
	RtState *rs = rt_state();
	RtModule *m = xcalloc(1, sizeof *m);
	m->wrapper = fatCubin;
	VEC_RESERVE(rs->mods, rs->capmods, rs->nmods + 1);
	rs->mods[rs->nmods++] = m;
	return (void **)m;
}

void __cudaRegisterFatBinaryEnd(void **handle) { RT_API(); (void)handle; }

void __cudaUnregisterFatBinary(void **handle)
{
	RT_API();
	RtModule *m = (RtModule *)handle;
	if (m) m->dead = 1;      /* at exit: keep the records, the stats still name them */
}

void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, void *tid, void *bid,
                            dim3 *bDim, dim3 *gDim, int *wSize)
{
	RT_API();
	RtState *rs = rt_state();
	RtFunc *f = xcalloc(1, sizeof *f);
	f->host = hostFun;
	f->name = xstrdup(deviceName ? deviceName : deviceFun);
	f->mod = (RtModule *)handle;
	f->max_dyn_shared = -1;
	f->carveout = -1;
	VEC_RESERVE(rs->funcs, rs->capfuncs, rs->nfuncs + 1);
	rs->funcs[rs->nfuncs++] = f;
}

void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size, int constant, int global)
{
	RT_API();
	RtState *rs = rt_state();
	RtVar *v = xcalloc(1, sizeof *v);
	v->host = hostVar;
	v->name = xstrdup(deviceName ? deviceName : deviceAddress);
	v->mod = (RtModule *)handle;
	v->size = size;
	v->constant = constant;
	VEC_RESERVE(rs->vars, rs->capvars, rs->nvars + 1);
	rs->vars[rs->nvars++] = v;
}

void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant,
                              int global)
{
	RT_API();
	RtState *rs = rt_state();
	__cudaRegisterVar(handle, (char *)hostVarPtrAddress, deviceAddress, deviceName, ext, size,
	                  constant, global);
	rs->vars[rs->nvars - 1]->managed = hostVarPtrAddress;
}

/* called by nvcc's code on the first use of a __managed__ variable: nonzero =
 * ready.  The code then dereferences the pointer whatever we answer, so a
 * module whose variables could not be placed stops the program here, with
 * the reason already on stderr, rather than with a segmentation fault. */
char __cudaInitModule(void **handle)
{
	RT_API();
	RtModule *m = (RtModule *)handle;
	if (!rt_ready() && m && m->mod && !m->unmapped) return 1;
	fprintf(stderr, "rfsim: %s: stopping: __managed__ variables are unavailable\n", prog());
	exit(1);
}

/* the compute_XX rfsim prefers: the simulated device's compute capability */
static int ptx_arch(void)
{
	int major = 8, minor = 0;
	cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0);
	cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0);
	return major * 10 + minor;
}

/* give a loaded __managed__ variable its host mapping and tell the program */
static void managed_place(RtVar *v)
{
	CUdeviceptr a;
	size_t n;
	if (cuModuleGetGlobal(&a, &n, v->mod->mod, v->name) || mem_managed_map(a, n)) {
		rt_say("%s: __managed__ variable %s cannot be mapped for the host", prog(), v->name);
		v->mod->unmapped = 1;
		return;
	}
	*v->managed = (void *)(uintptr_t)a;
}

static int provided(const char *name) { return builtin_lookup(name) != BUILTIN_NONE; }

/* libcudadevrt's unit: nvcc names its static kernels after cuda_device_runtime.cu */
static int devrt(const char *text) { return strstr(text, "_cuda_device_runtime_cu_") != NULL; }

/* a device link's PTX: its units' PTX linked into one module's text (link.c);
 * -1 with the reason said and m->status set */
static int linked_ptx(RtModule *m, const char *base, FatbinPtx *ptx)
{
	FatbinPtx *tu;
	size_t n;
	if (fatbin_linked_ptx(m->wrapper, ptx_arch(), &tu, &n)) {
		rt_say("%s: %s", prog(), err_msg());
		m->status = cudaErrorNoKernelImageForDevice;
		return -1;
	}
	PtxUnit *u = xcalloc(n, sizeof *u);
	char (*names)[400] = xcalloc(n, sizeof *names);
	int nu = 0;
	for (size_t i = 0; i < n; i++) {
		/* libcudadevrt's unit (device-side launches, memcpy, ...: its PTX calls the
		 * driver's cnp* and __cuda_syscall_* entry points), which PTX-only builds
		 * always list: left out, so that a unit needing it is refused by name */
		if (devrt(tu[i].text)) continue;
		snprintf(names[nu], sizeof names[nu], "%s.rdc%zu.compute_%d.ptx", base, i + 1,
		         tu[i].arch);
		u[nu] = (PtxUnit){tu[i].text, tu[i].len, names[nu]};
		nu++;
	}
	memset(ptx, 0, sizeof *ptx);
	ptx->text = ptx_link(u, nu, provided, &ptx->len);
	ptx->arch = tu[0].arch;
	if (!ptx->text) {
		rt_say("%s: %s", prog(), err_msg());
		m->status = cudaErrorInvalidPtx;
	}
	for (size_t i = 0; i < n; i++) free(tu[i].text);
	free(tu), free(u), free(names);
	return ptx->text ? 0 : -1;
}

/* RFSIM_PTX_DIR=DIR: each module's PTX, as loaded, into DIR/name (a linked rdc
 * module's text is where its load errors point) */
static void ptx_dump(const char *name, const FatbinPtx *ptx)
{
	const char *dir = getenv("RFSIM_PTX_DIR");
	if (!dir || !*dir) return;
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f || fwrite(ptx->text, 1, ptx->len, f) != ptx->len)
		rt_say("%s: RFSIM_PTX_DIR: cannot write %s", prog(), path);
	if (f) fclose(f);
}

static void module_load(RtModule *m)
{
	RtState *rs = rt_state();
	m->tried = 1;
	FatbinPtx ptx;
	char base[300], name[400];
	size_t k = 0;
	while (k < rs->nmods && rs->mods[k] != m) k++;
	if (k) snprintf(base, sizeof base, "%s.%zu", prog(), k);
	else snprintf(base, sizeof base, "%s", prog());
	if (fatbin_linked(m->wrapper)) {
		if (linked_ptx(m, base, &ptx)) return;
	} else if (fatbin_ptx(m->wrapper, ptx_arch(), &ptx)) {
		rt_say("%s: %s", prog(), err_msg());
		m->status = cudaErrorNoKernelImageForDevice;
		return;
	}
	snprintf(name, sizeof name, "%s%s.compute_%d.ptx", base,
	         fatbin_linked(m->wrapper) ? ".linked" : "", ptx.arch);
	ptx_dump(name, &ptx);
	CUresult r = api_module_load(&m->mod, ptx.text, name);   /* prints the located error */
	free(ptx.text);
	if (r) {
		m->mod = NULL;
		m->status = rt_from_cu(r);
		rt_say("%s: the program's compute_%d PTX does not load into rfsim (%s)", prog(),
		       ptx.arch, cudaGetErrorName(m->status));
		return;
	}
	m->status = cudaSuccess;
	for (size_t i = 0; i < rs->nfuncs; i++) {
		RtFunc *f = rs->funcs[i];
		if (f->mod == m && cuModuleGetFunction(&f->f, m->mod, f->name)) {
			f->f = NULL;
			if (!devrt(f->name))   /* libcudadevrt's kernels: its unit is left out */
				rt_say("%s: kernel %s was registered but is not in the PTX", prog(),
				       f->name);
		}
	}
	for (size_t i = 0; i < rs->nvars; i++)
		if (rs->vars[i]->mod == m && rs->vars[i]->managed) managed_place(rs->vars[i]);
}

void reg_load_all(void)
{
	RtState *rs = rt_state();
	for (size_t i = 0; i < rs->nmods; i++)
		if (!rs->mods[i]->tried && !rs->mods[i]->dead) module_load(rs->mods[i]);
}

void reg_unload_all(void)
{
	RtState *rs = rt_state();
	for (size_t i = 0; i < rs->nmods; i++) {
		rs->mods[i]->mod = NULL;     /* the context destroys the modules with itself */
		rs->mods[i]->tried = rs->mods[i]->unmapped = 0;
		rs->mods[i]->status = cudaSuccess;
	}
	for (size_t i = 0; i < rs->nfuncs; i++) rs->funcs[i]->f = NULL;
}

RtFunc *reg_func(const void *p)
{
	RtState *rs = rt_state();
	if (!p) return NULL;
	for (size_t i = 0; i < rs->nfuncs; i++)   /* a host stub address, or an RtFunc handle */
		if (rs->funcs[i]->host == p || (const void *)rs->funcs[i] == p) return rs->funcs[i];
	return NULL;
}

RtVar *reg_var(const void *host)
{
	RtState *rs = rt_state();
	if (!host) return NULL;
	for (size_t i = 0; i < rs->nvars; i++)
		if (rs->vars[i]->host == host) return rs->vars[i];
	return NULL;
}

cudaError_t reg_module_status(const RtModule *m)
{
	if (!m->tried) return cudaErrorInitializationError;
	return m->mod ? cudaSuccess : m->status;
}

cudaError_t reg_var_addr(const RtVar *v, CUdeviceptr *dptr, size_t *bytes)
{
	cudaError_t e = reg_module_status(v->mod);
	if (e) return e;
	return cuModuleGetGlobal(dptr, bytes, v->mod->mod, v->name) ? cudaErrorInvalidSymbol
	                                                             : cudaSuccess;
}

/* ---- lookups by host address, as the runtime API names kernels and variables ---- */

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
	RT_API();
	if (!kernel) return rt_err(cudaErrorInvalidValue);
	RtFunc *f = reg_func(hostFun);
	*kernel = (cudaKernel_t)f;
	return f ? cudaSuccess : rt_err(cudaErrorInvalidDeviceFunction);
}

cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
	RT_API();
	return __cudaGetKernel(kernelPtr, entryFuncAddr);
}

cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr)
{
	RT_API();
	cudaError_t e = rt_ready();
	if (e) return rt_err(e);
	RtFunc *f = reg_func(symbolPtr);
	if (!functionPtr) return rt_err(cudaErrorInvalidValue);
	if (!f) return rt_err(cudaErrorInvalidDeviceFunction);
	if ((e = reg_module_status(f->mod))) return rt_err(e);
	*functionPtr = f->f;
	return f->f ? cudaSuccess : rt_err(cudaErrorInvalidDeviceFunction);
}

cudaError_t cudaFuncGetName(const char **name, const void *func)
{
	RT_API();
	RtFunc *f = reg_func(func);
	if (!name) return rt_err(cudaErrorInvalidValue);
	if (!f) return rt_err(cudaErrorInvalidDeviceFunction);
	*name = f->name;
	return cudaSuccess;
}
