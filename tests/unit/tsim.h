/*
 * tsim.h -- running one hand-written PTX kernel on the timing model, for
 * the exact-cycle and exact-count tests of the timing model and the
 * register-file models (test_timing.c, test_rfc.c, test_rf_regshare.c,
 * test_energy.c): a config to start from, a launch that returns the
 * kernel's statistics, and the kernel header most of their PTX shares.
 */
#ifndef RFSIM_TSIM_H
#define RFSIM_TSIM_H

#include <stdint.h>

#include "base/config.h"
#include "sim/gpu.h"

/* the defaults (fermi-gtx480) in timing mode on one SM, no progress line */
Config tsim_config(void);

/* run the kernel of ptx -- one .u64 parameter, given a 4 KB device buffer --
   on grid x threads (1-D); its statistics, all zero after a load or launch
   failure, which is recorded as a test failure */
KernelStats tsim_run(const Config *c, const char *ptx, uint32_t grid, uint32_t threads);

/* an entry k(.param .u64 out) with %r1-7, %rd1-3, %p1 and 4 KB of shared
   memory `sh`; the body and its closing "}" follow */
#define TSIM_HEAD ".version 7.0\n.target sm_70\n.address_size 64\n" \
                  ".visible .entry k(.param .u64 out)\n{\n" \
                  ".reg .u32 %r<8>;\n.reg .u64 %rd<4>;\n.reg .pred %p<2>;\n" \
                  ".shared .align 4 .b8 sh[4096];\n"

#endif
