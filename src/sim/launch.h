/*
 * launch.h -- the checks a launch passes before it runs (launch.c).
 */
#ifndef RFSIM_SIM_LAUNCH_H
#define RFSIM_SIM_LAUNCH_H

#include "analysis/occupancy.h"
#include "base/config.h"
#include "func/kernel.h"
#include "func/prog.h"

struct Launch;

/* the launch's shape against the config's limits and kernel k's:
 * RF_EINPUT with err_set when it is out of range */
int launch_check(const Config *cfg, const Program *p, int k, Dim3 grid, Dim3 block,
                 uint32_t dyn, size_t psize);
/* sets L's clusters: asked for (cluster, non-zero), or the kernel's
 * .reqnctapercluster (__cluster_dims__), or one CTA each */
int launch_set_clusters(const Program *p, int k, struct Launch *L, Dim3 cluster, int coop);
/* CTAs of the launch the GPU holds at once; *o and *per_sm say why */
uint64_t launch_resident_ctas(const Config *cfg, const struct Launch *L, Occupancy *o,
                              int32_t *per_sm);
/* a cooperative grid fits the GPU at once (else RF_EINPUT, FAULT_COOP_TOO_LARGE) */
int launch_check_coop(const Config *cfg, const struct Launch *L);

#endif
