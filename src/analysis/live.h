/*
 * live.h -- register liveness of one function, per block and per
 * instruction, with last-use bits and remaining-use counts (live.c).
 *
 * Reads and writes.  live_uses() and live_defs() list the registers an
 * instruction reads and writes, in one canonical order that every pass
 * shares: reads are the guard, then each operand in order -- a register
 * source, the base register of an address (wherever it appears), the
 * register elements of a source vector; writes are the register
 * destinations and the register elements of destination vectors.  The
 * i-th read of instruction k is "use slot" use_start[k] + i below.
 *
 * Sets are bit sets of `words` 64-bit words over register ids.
 */
#ifndef RFSIM_ANALYSIS_LIVE_H
#define RFSIM_ANALYSIS_LIVE_H

#include <stdint.h>
#include <stdio.h>

#include "cfg.h"

enum { LIVE_MORE = 1 << 30 };    /* in use_remain: the value outlives its block */

typedef struct Live {
	const Cfg *c;
	struct Arena *arena;     /* owns every array below */
	int32_t nreg;            /* = Func.nreg */
	int32_t words;           /* uint64_t per register set */
	uint64_t *blk_in;        /* (nblock + 1) sets: live on entry to each block */
	uint64_t *blk_out;       /* (nblock + 1) sets: live on exit */
	uint64_t *ins_in;        /* nins sets: live just before each instruction */
	int32_t *use_start;      /* nins + 1: instruction k's reads are slots
	                            use_start[k] .. use_start[k + 1] */
	int32_t *use_reg;        /* register read by each slot */
	uint8_t *use_last;       /* 1: the value read is dead afterwards (no path
	                            reads it again before an unguarded write) */
	int32_t *use_remain;     /* reads of the same value after this instruction
	                            and before an unguarded write, within the block;
	                            | LIVE_MORE if it is still live at the block's end */
	int32_t maxlive;         /* most registers live before any one instruction */
	int8_t warp;             /* 1: divergence-aware (live_compute_div), 0: per thread */
} Live;

/* per-thread liveness (live.c): what register allocation uses */
Live *live_compute(const Cfg *c);
/* only the per-block sets blk_in, blk_out (ins_in, use_* are NULL, maxlive
   0): what a pass that walks the blocks itself needs (igraph.c) */
Live *live_compute_blocks(const Cfg *c);
/* warp-level, divergence-aware liveness (live_div.c, RegMutex section III-A1):
   per-thread sets widened over divergent regions up to the reconvergence
   point; same fields, warp = 1 */
Live *live_compute_div(const Cfg *c);
void live_free(Live *l);
/* the registers an instruction reads / writes into reg[0 .. max), canonical
   order; returns how many there are (which may exceed max) */
int live_uses(const Func *f, const Ins *in, int32_t *reg, int max);
int live_defs(const Func *f, const Ins *in, int32_t *reg, int max);
/* live just before / just after instruction ins */
const uint64_t *live_in(const Live *l, int32_t ins);
const uint64_t *live_out(const Live *l, int32_t ins);
int live_count(const Live *l, const uint64_t *set);   /* registers in set */
/* maybe-defined registers just before each instruction: f->nins + 1 sets of
   `words` 64-bit words, malloc'd (the caller frees).  A register is in the
   set when some write of it reaches that point along some path (forward
   dataflow); a register read before any write is not live there in fact */
uint64_t *live_maydef(const Cfg *c, int32_t words);
/* golden-test text: block sets, then per instruction its live-in set and
   its reads (r! last use, r:n n more in the block, r:n+ and beyond) */
void live_dump(const Live *l, const Module *m, FILE *out);

static inline int live_has(const uint64_t *set, int32_t reg)
{
	return (int)(set[reg >> 6] >> (reg & 63) & 1);
}

#endif
