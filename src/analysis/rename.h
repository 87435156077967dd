/*
 * rename.h -- a fresh virtual register for each value that lives and dies
 * inside one basic block (rename.c; compiler.schedule=latency), so that
 * only true dependences constrain the scheduler.
 */
#ifndef RFSIM_ANALYSIS_RENAME_H
#define RFSIM_ANALYSIS_RENAME_H

#include <stdint.h>

#include "ptx/ir.h"

/* rename f's block-local values in place; returns how many writes got a
   fresh register */
int32_t rename_func(Module *m, Func *f);

#endif
