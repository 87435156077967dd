/*
 * occupancy.h -- how many CTAs of a kernel fit on one SM, and which
 * resource decides it (occupancy.c).
 */
#ifndef RFSIM_ANALYSIS_OCCUPANCY_H
#define RFSIM_ANALYSIS_OCCUPANCY_H

#include <stdint.h>

#include "base/config.h"

typedef enum OccLimit { OCC_THREADS, OCC_CTAS, OCC_SHARED, OCC_REGISTERS, NOCCLIMIT } OccLimit;
extern const char *const occ_limit_name[NOCCLIMIT];  /* "threads", "ctas", "shared", "registers" */

typedef struct Occupancy {
	/* the inputs */
	int32_t threads;         /* per CTA */
	int32_t regs;            /* per thread */
	int64_t shared;          /* bytes per CTA: static + dynamic */
	/* what each resource allows, CTAs per SM (0: the CTA does not fit at all) */
	int32_t by[NOCCLIMIT];
	int32_t warps_per_cta;
	int32_t regs_per_cta;    /* registers allocated to one CTA, with granularity */
	int64_t shared_per_cta;  /* shared bytes allocated to one CTA, with granularity */
	/* the result */
	int32_t ctas_per_sm;
	int32_t warps_per_sm;
	double occupancy;        /* warps_per_sm / sm.max_warps */
	OccLimit limiter;        /* the binding limit (ties: the first in OccLimit order) */
} Occupancy;

void occupancy_compute(const Config *c, int32_t threads, int32_t regs, int64_t shared,
                       Occupancy *o);
/* CTAs per SM the register file allows at regs registers per thread */
int32_t occupancy_by_regs(const Config *c, int32_t threads, int32_t regs);
/* the register cap nvcc derives from launch bounds (__launch_bounds__(threads,
   min_ctas) = .maxntid, .minnctapersm): the most registers per thread that
   still fit min_ctas CTAs of that many threads; 0 if none fits */
int32_t occupancy_launch_cap(const Config *c, int32_t threads, int32_t min_ctas);

#endif
