/*
 * report.h -- the record of a run (the kernels it launched and their
 * totals) and the statistics file it is written as (report.c).
 *
 * Shared by every way of running CUDA code on rfsim -- `rfsim run --stats`
 * (src/cli/) and an unmodified program's RFSIM_STATS (src/cudart/) -- so
 * that a stats file means the same thing, key for key, whichever wrote it.
 */
#ifndef RFSIM_API_REPORT_H
#define RFSIM_API_REPORT_H

#include <stdint.h>

#include "base/config.h"
#include "sim/gpu.h"

#define RFSIM_VERSION "0.1.0"

typedef struct Totals {      /* sums over a run's kernels */
	int nkernels;            /* kernels launched */
	uint64_t warp_insts;     /* warp instructions issued */
	uint64_t thread_insts;   /* thread instructions (active lanes) */
	double sim_seconds;      /* host seconds spent simulating them */
	int timed;               /* some kernel ran on the timing model */
	TStats ts;               /* their timing counters, summed (tstats.def) */
} Totals;

typedef struct Report {
	const char *workload;    /* workload name, the PTX file's path, or the program */
	const char *size;        /* "small"/"default"/"large"; NULL for others */
	const Config *cfg;
	const KernelStats *ks;   /* kernels in launch order */
	int nks;
	const char *check;       /* "pass", "fail" or "none" */
	const char *detail;      /* the workload's one-line account, or NULL */
} Report;

Totals report_totals(const KernelStats *ks, int n);
double report_rate(uint64_t insts, double seconds);  /* 0 when no time passed */
/* write the stats file; RF_OK, or an exit code after "rfsim: ..." on stderr */
int report_json(const char *path, const Report *r);

#endif
