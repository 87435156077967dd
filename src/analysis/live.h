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

#include "analysis/cfg.h"

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
/* warp-level, divergence-aware liveness (live_div.c, RegMutex section III-A1):
   per-thread sets widened over divergent regions up to the reconvergence
   point; same fields, warp = 1 */
Live *live_compute_div(const Cfg *c);
void live_free(Live *l);

/* per-block liveness as sorted register lists (live_sets.c): what the passes
   on virtual registers use, in time and memory proportional to the sets */
typedef struct LiveSets {
	const Cfg *c;
	struct Arena *arena;     /* owns every array below */
	int32_t *in_start;       /* nblock + 2: live into block b are the registers */
	int32_t *in;             /*   in[in_start[b] .. in_start[b + 1]), ascending */
	uint8_t *in_def;         /* per entry of in: some write of it reaches b's entry */
	int32_t *out_start;      /* nblock + 2: live out of block b, the same way */
	int32_t *out;
} LiveSets;

LiveSets *live_sets(const Cfg *c);
void live_sets_free(LiveSets *ls);

/* a register set that lists and empties itself in time proportional to its
   members, not to the registers there are: a bit set with a summary bit per
   64-bit word (live_sets.c) */
typedef struct ScanSet {
	uint64_t *w;             /* bit r: r is in the set */
	uint64_t *top;           /* bit j: w[j] is not zero */
	int32_t words;           /* uint64_t in w */
} ScanSet;

void scanset_init(ScanSet *s, int32_t nreg);   /* empty, for registers 0 .. nreg - 1 */
void scanset_free(ScanSet *s);
int32_t scanset_members(const ScanSet *s, int32_t *out);   /* ascending; how many */
void scanset_clear(ScanSet *s);

static inline int scanset_has(const ScanSet *s, int32_t r)
{
	return (int)(s->w[r >> 6] >> (r & 63) & 1);
}

static inline void scanset_add(ScanSet *s, int32_t r)
{
	s->w[r >> 6] |= (uint64_t)1 << (r & 63);
	s->top[r >> 12] |= (uint64_t)1 << (r >> 6 & 63);
}

static inline void scanset_del(ScanSet *s, int32_t r)
{
	s->w[r >> 6] &= ~((uint64_t)1 << (r & 63));
	if (!s->w[r >> 6]) s->top[r >> 12] &= ~((uint64_t)1 << (r >> 6 & 63));
}
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
