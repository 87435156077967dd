/*
 * sched_int.h -- what the scheduler's two files share (schedule.h has the
 * interface): a straight-line region with its reads, writes and dependence
 * graph (schedule.c builds it), and the latency-mode parts that sched_lat.c
 * adds: the memory dependences between loads and stores, and the list
 * scheduler that starts long-latency work first.
 */
#ifndef RFSIM_ANALYSIS_SCHED_INT_H
#define RFSIM_ANALYSIS_SCHED_INT_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/live.h"
#include "ptx/ir.h"

typedef struct Region {
	const Func *f;
	int32_t s, n;            /* instructions f->ins[s .. s + n) */
	int32_t id;              /* its index among the function's regions */
	const int32_t *in, *out; /* live before the region and after it (lists) */
	int32_t nin, nout;
	int32_t *ustart, *ureg;  /* n + 1: reads of local instruction i: ureg[ustart[i] ..) */
	int32_t *dstart, *dreg;  /* the same for writes */
	uint8_t *guarded;        /* n: 1 if the instruction has a guard (its writes may not
	                            happen, so they do not end the old value) */
	int32_t *sstart, *succ;  /* n + 1: dependence successors of i: succ[sstart[i] ..) */
	int32_t *slat;           /* beside succ: cycles from i's issue to the successor's */
	int32_t *npred;          /* n: dependence predecessors (with repeats) */
	int32_t *deadline;       /* n: latest position that keeps ordered ones in place */
} Region;

typedef struct Edges { int32_t *from, *to, *lat; size_t n, cap; } Edges;

void sched_edge(Edges *e, int32_t a, int32_t b, int32_t lat);   /* a < 0: none */

/* ---- latency mode (sched_lat.c) ----------------------------------------- */

typedef struct MemDeps {     /* memory dependences while a region's edges are built */
	int32_t last_order;      /* the last ordering instruction (barrier, atomic, ...) */
	int32_t *acc, nacc;      /* loads and stores since it (local indices) */
	int32_t *ver;            /* n: local index of the last write of the address's base
	                            register before the instruction, -1 outside the region */
} MemDeps;

int sched_lat_movable(const Func *f, const Ins *in);   /* may move among its kind */
int32_t sched_lat_of(const Func *f, const Ins *in);     /* cycles to its result */
void sched_mem_init(MemDeps *md, int32_t n);
void sched_mem_free(MemDeps *md);
/* memory edges into local instruction i (ver[i] already set) */
void sched_mem_edges(const Region *r, MemDeps *md, int32_t i, Edges *e);
typedef struct LatState {    /* one latency-first scheduling of a region */
	int32_t *height;         /* n: longest latency-weighted path to the region's end */
	int64_t *at;             /* n: cycle the instruction's operands arrive */
	int32_t *delta;          /* n: slots it would add to those live (the caller's) */
	uint8_t *store;          /* n: 1 for a store */
	int64_t cycle;           /* the next issue cycle */
} LatState;

void sched_lat_init(LatState *lt, const Region *r);
void sched_lat_free(LatState *lt);
/* the ready instruction to issue next, cur general slots live now */
int32_t sched_lat_pick(const LatState *lt, const int32_t *ready, int32_t nready, int32_t cur,
                       int32_t limit);
void sched_lat_issue(LatState *lt, const Region *r, int32_t x);   /* x issued */
/* 1 if local instruction i of r is what SASS reads as an operand: a load of
   a kernel parameter (c[0x0][..]; remat.c's copies) or a conversion to a
   global address (the identity on the GPU) */
int sched_lat_operand(const Region *r, int32_t i);
/* each read of a kernel parameter and each conversion to a global address
   in ord moved to just before the first instruction that depends on it, as
   SASS reads them as operands (remat.c) */
void sched_lat_sink(const Region *r, int32_t *ord);

#endif
