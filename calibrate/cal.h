/*
 * cal.h -- the microbenchmarks of `rfsim calibrate` and what they report.
 *
 * Each benchmark is a CUDA program in the workloads' mould (workloads.h):
 * kernels in calibrate/NAME/NAME.cu, nvcc's PTX committed beside them and
 * embedded as cal_ptx_NAME, host code in NAME.c written against the driver
 * API subset only, so the same program runs inside rfsim (src/cli/
 * calibrate.c) and on a real GPU with NVIDIA's libcuda (calrun, real.mk).
 *
 * A kernel times itself with clock64() (core cycles, one SM's clock) or
 * %globaltimer (nanoseconds, one clock for the whole GPU): on a real GPU
 * only in-kernel timers exist, so those numbers are the primary ones
 * (CalMetric.value).  Where a kernel's whole run is the measurement
 * (bandwidth, throughput, speedup), the host also derives the figure from
 * the cycles rfsim counted for the launch (CalMetric.sim; NaN on a real
 * GPU, where CalEnv.kernel_stat is NULL).  A simulator's own statistics of
 * the launch (rfsim's --stats names: "cycles", "gload_cycles", ...) come
 * the same way, for metrics that only a simulator has (occupancy.fetch_*).
 *
 * Results are named metrics ("chase.l1", cycles) and curves (a plot and
 * a series of (x, y) points: latency against footprint, ...).  A metric's
 * name is its key in the JSON (cal_json) and in refs.def, the published or
 * measured reference values per config; cal_refs looks them up.
 *
 * run() owns what it uses (context, module, memory) and releases it on
 * every path; it returns 0 when the benchmark's own check passed (the
 * chase returned to where its chain says, the counters hold every atomic
 * add, ...), 1 when the check failed and 2 on a CUDA or host error, with
 * msg saying what (workloads.h's convention).
 */
#ifndef RFSIM_CAL_H
#define RFSIM_CAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cuda.h>

typedef enum CalSize {
	CAL_SMALL,    /* seconds per config in rfsim: the tests */
	CAL_DEFAULT,  /* under two minutes per config in rfsim */
	CAL_LARGE     /* longer runs for a real GPU's timer resolution */
} CalSize;

enum { CAL_MAX_METRICS = 40, CAL_MAX_CURVES = 8, CAL_MAX_POINTS = 40, CAL_NAME = 40 };

typedef struct CalMetric {
	char name[CAL_NAME];     /* "bench.what": JSON and refs.def key */
	double value;            /* measured by the kernels' own timers */
	double sim;              /* from rfsim's cycles per launch; NaN: none */
	const char *unit;        /* "cycles", "GB/s", "fraction", ... */
	const char *what;        /* one line: what was measured */
} CalMetric;

typedef struct CalCurve {
	char plot[CAL_NAME];     /* curves of one plot share it: "latency" */
	char series[CAL_NAME];   /* "chase", "stream", "random" */
	const char *xlabel, *ylabel;
	int log2x;               /* x doubles from point to point: label as 1K, 2K, ... */
	int n;
	double x[CAL_MAX_POINTS], y[CAL_MAX_POINTS];
} CalCurve;

typedef struct CalOut {
	CalMetric m[CAL_MAX_METRICS];
	int nm;
	CalCurve c[CAL_MAX_CURVES];
	int nc;
} CalOut;

typedef struct CalEnv {
	CalSize size;
	const char *ptx;         /* NUL-terminated PTX text to load */
	/* the kernel launched last: its statistic `name` (tstats.def's names), or NaN
	 * if there is none; NULL on a real GPU */
	double (*kernel_stat)(void *ctx, const char *name);
	void *ctx;
} CalEnv;

typedef struct Calib {
	const char *name, *desc;
	const char *ptx;         /* embedded PTX (cal_ptx_name) */
	int (*run)(const CalEnv *env, CalOut *out, char *msg, size_t msgn);
} Calib;

#define X(name, desc) \
	extern const char cal_ptx_##name[]; \
	int cal_##name##_run(const CalEnv *env, CalOut *out, char *msg, size_t msgn);
#include "calibrate.def"
#undef X

extern const Calib calibs[];
extern const int ncalibs;
const Calib *calib_find(const char *name);        /* NULL if unknown */
const char *cal_size_name(CalSize s);             /* "small", "default", "large" */
int cal_size_parse(const char *s, CalSize *out);  /* 0, or -1 for an unknown name */

/* ---- the device, as its attributes describe it ---- */

typedef struct CalDev {
	char name[128];
	int sms, cc;             /* multiprocessors; compute capability x 10 */
	double clock_mhz;        /* core clock: cycles per ns = clock_mhz / 1000 */
	double peak_gbs;         /* 2 x memory clock x bus width / 8 */
	int64_t l2_bytes;
	int l1_global;           /* global loads are cached in an L1 */
	int max_threads_sm, max_ctas_sm, max_threads_block;
	int64_t smem_sm;         /* shared memory per SM */
} CalDev;

CUresult cal_dev_query(CUdevice dev, CalDev *d);

/* ---- recording results ---- */

/* a new metric (value, sim = NaN); NULL if the table is full */
CalMetric *cal_metric(CalOut *o, const char *name, double value, const char *unit,
                      const char *what);
/* a new curve of plot `plot`; NULL if the table is full */
CalCurve *cal_curve(CalOut *o, const char *plot, const char *series, const char *xlabel,
                    const char *ylabel);
void cal_point(CalCurve *c, double x, double y);  /* ignored past CAL_MAX_POINTS */
const CalMetric *cal_get(const CalOut *o, const char *name);  /* NULL if absent */
/* statistic `name` of the last kernel, or NaN (a real GPU, not timed, no such) */
double cal_stat(const CalEnv *env, const char *name);

/* ---- references (refs.def) ---- */

typedef struct CalRef {
	const char *config, *metric;
	double value;
	double tol;              /* percent a check allows this row at least; 0: --check's */
	const char *source;
} CalRef;

extern const CalRef cal_refs[];
extern const int ncal_refs;
/* the reference of metric for config (the first refs.def row), or NULL */
const CalRef *cal_ref(const char *config, const char *metric);

/* ---- output ---- */

typedef struct CalResult {
	const Calib *b;
	int rc;                  /* run()'s: 0 pass, 1 check failed, 2 error */
	char msg[512];
	double seconds;          /* host time */
	CalOut out;
} CalResult;

/* how to describe a metric's reference: the config's refs.def row, or one
 * the caller supplies (rfsim calibrate --refs FILE); NULL: none */
typedef const CalRef *(*CalRefFn)(const char *metric, void *ctx);

/* the JSON document of calibrate/README.md: device, then per benchmark its
 * check, metrics (with reference, source and deviation where ref gives one)
 * and curves */
void cal_json(FILE *f, const char *producer, const char *config, CalSize size,
              const CalDev *d, const CalResult *r, int n, CalRefFn ref, void *ctx);
/* 100 * (value - ref) / ref */
double cal_deviation(double value, double ref);
/* "1K", "64M": a byte count that is a power of two */
void cal_bytes_label(double x, char *buf, size_t n);

#endif /* RFSIM_CAL_H */
