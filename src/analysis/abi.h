/*
 * abi.h -- registers the calling convention forces on a function that
 * makes calls ptxas cannot allocate across (abi.c).
 */
#ifndef RFSIM_ANALYSIS_ABI_H
#define RFSIM_ANALYSIS_ABI_H

#include <stdint.h>

#include "ptx/ir.h"

/* registers ptxas counts beyond those the code names, on sm_70 and later:
   R1, the stack pointer every kernel sets up (ABI_SP), and two more that
   every `ptxas -v` count includes: the count is the highest register the
   SASS names + 1 + 2 (ABI_EXTRA), and the cubin's EIATTR_REGCOUNT says the
   same.  Evidence (ptxas 13.0, -arch=sm_80 and sm_90, nvdisasm): an empty
   kernel, `MOV R1, c[0x0][0x28]; EXIT`, reports 4; one storing %tid.x
   through a parameter names R1, R2:R3 and R5 and reports 8; one with three
   128-bit loads names up to R15 and reports 18.  Over the tests' PTX
   corpus and the workloads (268 kernels ptxas accepts), 253 count exactly
   highest + 3 by a scan of the register names; the other 15 call
   functions or end on a 64- or 128-bit operand (LDS.128 R4 writes R4..R7),
   and those checked by hand fit as well */
enum { ABI_SP = 1, ABI_EXTRA = 2 };

/* the registers R0..R(n-1) ptxas uses at least in allocated function f
   because of its own calls under the ABI (0 if it makes none); ABI_EXTRA
   is not included */
int32_t abi_regs(const Module *m, const Func *f);

#endif
