/*
 * timing.h -- the cycle-level timing model's entry point.
 *
 * The timing model drives the functional core (exec.c) rather than
 * replaying it: every cycle each warp scheduler picks a warp whose next
 * instruction (known without executing it: warp_pc) is free of hazards,
 * and exec_step() executes it on the spot -- execute at issue, as in
 * Multi2Sim and GPGPU-Sim's functional-first mode.  Program output is
 * therefore whatever the functional core computes, in the order the
 * schedulers issue; cycles come from what the issued instruction then
 * costs in the pipeline (operand collection, execution unit, memory).
 * The per-instruction facts it reads on the hot path are tins.h's.
 */
#ifndef RFSIM_TIMING_TIMING_H
#define RFSIM_TIMING_TIMING_H

#include <stdint.h>

#include "base/config.h"
#include "timing/tins.h"
#include "timing/tstats.h"

struct Launch;
/* RF_OK if the timing model can run cfg, else RF_EINPUT with err_msg() naming the keys,
 * their values and what is allowed: the constraints between keys that config.def's
 * per-key ranges cannot express.  The CLI checks this when it builds a config (exit 2
 * before anything runs); each launch checks it again for the CUDA runtime's configs. */
int timing_check_config(const Config *cfg);

/* run a launch on the timing model; RF_OK, or RF_ERUNTIME with err_msg()
 * (a kernel fault, the watchdog, sim.max_cycles, the instruction budget) */
int timing_launch(const struct Launch *L, const Config *cfg, int64_t budget,
                  KernelStats *ks);

#endif
