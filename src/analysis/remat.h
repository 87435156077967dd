/*
 * remat.h -- kernel parameters and constants read at their uses, as
 * constant-bank and immediate operands are (remat.c;
 * compiler.schedule=latency).
 */
#ifndef RFSIM_ANALYSIS_REMAT_H
#define RFSIM_ANALYSIS_REMAT_H

#include <stdint.h>

#include "ptx/ir.h"

/* give every reader of a kernel-parameter value of kernel f, or of a
   constant or variable address of any function f, its own copy of the
   load or mov (and cvta) just before it, and every access to a global
   variable by name a register holding its address; returns how many */
int32_t remat_func(Module *m, Func *f);

#endif
