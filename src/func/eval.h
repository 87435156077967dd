/* eval.h -- per-lane arithmetic of a decoded instruction (see eval.c). */
#ifndef RFSIM_FUNC_EVAL_H
#define RFSIM_FUNC_EVAL_H

#include <stdint.h>

#include "func/decode.h"

/* result bits of one lane; v: source bits; *cc: carry flag in/out */
uint64_t sim_eval(const DIns *d, const uint64_t *v, uint32_t *cc);
/* setp/set on packed halves: bit h = the comparison of half h (0 the low half) */
int sim_cmp_halves(const DIns *d, PtxType t2, uint64_t a, uint64_t b);
/* NULL if rfsim executes this form; else what it does not implement */
const char *sim_eval_check(const DIns *d);
const char *sim_atom_check(AtomOp op, PtxType t);

#endif
