/*
 * wlrun.h -- running one built-in workload in this process
 * (run_workload.c): `rfsim run WORKLOAD`, and the workload and size
 * arguments `rfsim compare` shares with it.
 */
#ifndef RFSIM_CLI_WLRUN_H
#define RFSIM_CLI_WLRUN_H

#include "base/config.h"
#include "cli/cli.h"
#include "sim/gpu.h"
#include "../../workloads/workloads.h"

typedef struct WlRun {
	int rc;                  /* the workload's: 0 pass, 1 mismatch, 2 CUDA error */
	char msg[1024];          /* its explanation */
	KernelStats *ks;         /* copy of the driver's kernel log (free it) */
	int nks;
} WlRun;

const Workload *wl_find(const char *name);            /* NULL after listing the known ones */
int wl_parse_size(const Opts *o, WlSize *size);       /* RF_OK or a usage error */
void wl_run(const Workload *w, WlSize size, const Config *cfg, WlRun *r);
int wl_complain(const Workload *w, const WlRun *r);   /* its complaint on stderr; 0 or 1 */

#endif
