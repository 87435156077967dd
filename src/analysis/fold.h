/*
 * fold.h -- constant pointer offsets folded into address operands, as
 * ptxas folds them (fold.c; compiler.schedule=latency).
 */
#ifndef RFSIM_ANALYSIS_FOLD_H
#define RFSIM_ANALYSIS_FOLD_H

#include <stdint.h>

#include "ptx/ir.h"

/* fold f's chains of 64-bit constant additions into the addresses that
   read them; returns how many additions were deleted */
int32_t fold_func(Module *m, Func *f);

#endif
