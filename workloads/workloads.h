/*
 * workloads.h -- the interface between rfsim and its built-in workloads.
 *
 * A workload is a CUDA program in two halves: kernels in name.cu, which
 * nvcc turns into the committed name.ptx, and host code in name.c, which
 * talks to a GPU only through the driver-API subset of src/api/cuda.h.
 * Inside rfsim that GPU is the simulator; built with workloads/real.mk
 * against NVIDIA's libcuda the same host code runs on a real GPU, which
 * is how we know a workload (and its CPU reference) is right before
 * blaming the simulator.
 *
 * run() owns everything it uses: it creates its own context, loads
 * args->ptx with cuModuleLoadData, makes inputs from args->seed, runs, and
 * checks the output against a CPU reference, releasing every resource on
 * every path.  It returns 0 when the output matches, 1 on a mismatch (msg:
 * which array, index, value got, value expected) and 2 when a CUDA call or
 * a host allocation fails (msg: "cuLaunchKernel: CUDA_ERROR_... (...)").
 * On success msg holds a one-line summary of what ran.
 *
 * The PTX of each workload is embedded by the build as the NUL-terminated
 * wl_ptx_name; Workload.ptx points at it.  Callers normally pass it as
 * args->ptx, but may pass other PTX text (a modified kernel) instead.
 */
#ifndef RFSIM_WORKLOADS_H
#define RFSIM_WORKLOADS_H

#include <stddef.h>
#include <stdint.h>

typedef enum WlSize {
	WL_SMALL,    /* seconds in a functional simulator: tests, CI */
	WL_DEFAULT,  /* fills every SM of a 24-SM GPU several times over */
	WL_LARGE     /* about 4-8x default */
} WlSize;

typedef struct WlArgs {
	WlSize size;      /* problem size class */
	uint64_t seed;    /* all inputs are a function of this */
	const char *ptx;  /* NUL-terminated PTX text to load */
} WlArgs;

typedef enum WlCategory {
	WL_REGLIMITED,     /* occupancy limited by registers (the papers' target set) */
	WL_INSENSITIVE     /* limited by threads, shared memory or CTA slots */
} WlCategory;

typedef struct Workload {
	const char *name;  /* short name: saxpy, sgemm, ... */
	WlCategory category;
	const char *standin;  /* the paper benchmark it stands in for */
	const char *desc;  /* one line */
	const char *ptx;   /* embedded PTX (wl_ptx_name) */
	int (*run)(const WlArgs *a, char *msg, size_t msgn);  /* 0 ok, 1 mismatch, 2 error */
} Workload;

#define X(name, cat, standin, desc) \
	extern const char wl_ptx_##name[]; \
	int wl_##name##_run(const WlArgs *a, char *msg, size_t msgn);
#include "workloads.def"
#undef X

extern const Workload workloads[];
extern const int nworkloads;

const Workload *workload_find(const char *name);  /* NULL if unknown */
const char *wl_size_name(WlSize s);                /* "small", "default", "large" */
const char *wl_category_name(WlCategory c);        /* "register-limited", "insensitive" */
int wl_size_parse(const char *s, WlSize *out);     /* 0 ok, -1 unknown name */

#endif /* RFSIM_WORKLOADS_H */
