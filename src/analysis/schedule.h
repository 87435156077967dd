/*
 * schedule.h -- register-pressure-reducing instruction scheduling inside
 * basic blocks, before register allocation (schedule.c; compiler.schedule).
 */
#ifndef RFSIM_ANALYSIS_SCHEDULE_H
#define RFSIM_ANALYSIS_SCHEDULE_H

#include <stdint.h>

#include "ptx/ir.h"

typedef struct SchedStats {
	int32_t regions;         /* straight-line regions considered */
	int32_t reordered;       /* regions given a new order */
	int32_t moved;           /* instructions whose index changed */
	int32_t peak_before;     /* most general 32-bit slots live in any region, nvcc's order */
	int32_t peak_after;      /* the same after scheduling */
} SchedStats;

enum { SCHED_NONE, SCHED_PRESSURE, SCHED_LATENCY };   /* compiler.schedule's choices */

/* reorder f's straight-line regions: SCHED_PRESSURE to lower its peak
   register pressure (schedule.c), SCHED_LATENCY to start long-latency work
   first as ptxas does (sched_lat.c); npred: predicate registers before
   predicates spill to general ones (no region's predicate peak is raised
   above it).  Fills *st if not NULL */
void schedule_func(Func *f, int mode, int32_t npred, SchedStats *st);

#endif
