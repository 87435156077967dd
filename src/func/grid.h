/*
 * grid.h -- functional mode's grid runner (grid.c).
 */
#ifndef RFSIM_FUNC_GRID_H
#define RFSIM_FUNC_GRID_H

#include <stdint.h>

#include "func/warp.h"

/* what a grid ran: its warp and thread instructions */
typedef struct GridCount { uint64_t warp_insts, thread_insts; } GridCount;

/* the CTAs of the grid one after another, at most `fit` resident at once
 * where one spins for another; its counts are added to ks.  RF_OK, or
 * RF_ERUNTIME with the fault in L->fault and err_msg() */
int grid_run(const Launch *L, uint64_t fit, int64_t budget, GridCount *ks);
/* a cooperative grid: every CTA resident, run in rounds */
int grid_run_coop(const Launch *L, int64_t budget, GridCount *ks);

#endif
