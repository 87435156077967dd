/*
 * pass.h -- the compiler pipeline between the parser and the functional
 * core (pass.c): analyses, register allocation, and per-pass dumps.
 */
#ifndef RFSIM_ANALYSIS_PASS_H
#define RFSIM_ANALYSIS_PASS_H

#include <stdint.h>

#include "analysis/regalloc.h"
#include "analysis/regmutex.h"
#include "analysis/schedule.h"
#include "base/config.h"
#include "ptx/ir.h"

typedef struct PassFunc {    /* what the pipeline did to one function */
	SchedStats sched;        /* instruction scheduling (zero if compiler.schedule=none) */
	RaStats ra;              /* register allocation (zero if not allocated) */
	int32_t cap;             /* the register cap it was given */
	const char *cap_why;     /* what set it: "sm.max_regs_per_thread", "maxrregcount",
	                            ".maxnreg", "launch bounds" */
	double seconds;          /* CPU time of its analyses and allocation */
	RmStats rm;              /* RegMutex (regmutex.enable; zero if off) */
	int32_t *rs_perm;        /* regshare reordering: old slot -> new slot (nphys
	                            entries), NULL if the pass did not run (regshare.c) */
	struct Part *part;       /* LTRF prefetch subgraphs (interval.h), NULL if
	                            ltrf.partition is none or the code is virtual */
} PassFunc;

typedef struct PassReport {
	PassFunc *funcs;         /* one per Module.funcs entry */
	int32_t nfunc;
} PassReport;

/* run the pipeline on every function with a body (gpu_load_ptx calls this);
   RF_OK or RF_EINPUT with err_set() */
int pass_run(Module *m, const Config *cfg);
/* the same, recording what happened in *r (pass_report_free) */
int pass_run_report(Module *m, const Config *cfg, PassReport *r);
void pass_report_free(PassReport *r);
/* functions reachable from fi by direct calls, fi included: seen[k] = 1
   (m->nfunc bytes) */
void pass_reachable(const Module *m, int32_t fi, uint8_t *seen);
/* the register cap of kernel (or device function) fi under cfg */
int32_t pass_reg_cap(const Module *m, int32_t fi, const Config *cfg, const char **why);

#endif
