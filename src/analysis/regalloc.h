/*
 * regalloc.h -- register allocation: PTX virtual registers to architected
 * registers R0..R(n-1) (64-bit values in aligned pairs) and predicate
 * registers P0..P(k-1), with spilling to .local memory under a cap.
 *
 * regalloc_func() rewrites one Func in place (see regalloc.c's essay for
 * the method): new instructions (spill code; coalesced moves removed), a
 * new register table whose names (%r3, %rd4, %p1) are the architected
 * registers, and Func.phys mapping each register id to its slot, which
 * the functional core (src/func/decode.c) uses as the frame layout.
 *
 * Files: igraph.c builds the interference graph, regalloc.c coalesces,
 * colours and assigns, spill.c writes spill and rematerialisation code,
 * edit.c is the instruction-stream editor the last two share, ra_check.c
 * re-checks a colouring for the tests.
 */
#ifndef RFSIM_ANALYSIS_REGALLOC_H
#define RFSIM_ANALYSIS_REGALLOC_H

#include <stdint.h>
#include <stdio.h>

#include "ptx/ir.h"

typedef struct RaOpts {
	int32_t cap;             /* 32-bit registers one thread may use (>= 1) */
	int32_t npred;           /* predicate registers */
	FILE *dump;              /* 'a' dump (assignment), or NULL */
	FILE *dump_spill;        /* 's' dump (spill decisions, spill code), or NULL */
	int verify;              /* 1: check the colouring independently (ra_check.c; tests) */
	int32_t hold;            /* instructions after a memory or shuffle instruction during
	                            which no register it reads is rewritten (igraph.c) */
} RaOpts;

typedef struct RaStats {
	int32_t regs;            /* architected 32-bit registers used: R0..R(regs-1) */
	int32_t preds;           /* predicate registers used */
	int32_t pressure;        /* most 32-bit registers live at once before allocation */
	int32_t cap;             /* the cap honoured (raised to what one instruction needs) */
	int32_t spilled;         /* values kept in .local memory */
	int32_t spill_bytes;     /* size of the function's __rfsim_spill area */
	int32_t spill_loads;     /* ld.local inserted */
	int32_t spill_stores;    /* st.local inserted */
	int32_t remat;           /* values recomputed at their uses instead of spilled */
	int32_t remat_ins;       /* instructions inserted to recompute them */
	int32_t pred_spilled;    /* predicates kept in general registers */
	int32_t moves;           /* register moves in the input */
	int32_t moves_removed;   /* moves deleted because both sides share a register */
	int32_t rounds;          /* build-colour-spill rounds */
	int32_t skipped;         /* 1: left in virtual registers (see regalloc.c) */
	int32_t conflicts;       /* with RaOpts.verify: clobbers ra_check.c found (a bug) */
} RaStats;

/* allocate function fi of m in place; RF_OK, or RF_EINPUT with err_set() */
int regalloc_func(Module *m, int32_t fi, const RaOpts *o, RaStats *st);

#endif
