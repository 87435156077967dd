/*
 * ra_int.h -- what the register allocator's files share (regalloc.h has
 * the interface): the allocation context Ra, the interference graph, and
 * the instruction-stream editor.
 *
 * Node ids are register ids of the function being allocated; the graph
 * grows as spilling adds temporaries.  Registers belong to one of two
 * classes, general (32-bit slots; a value takes `wid` 1, 2 or 4 aligned
 * slots) and predicate, and interfere only within their class.
 */
#ifndef RFSIM_ANALYSIS_RA_INT_H
#define RFSIM_ANALYSIS_RA_INT_H

#include <stdint.h>

#include "analysis/cfg.h"
#include "analysis/live.h"
#include "analysis/regalloc.h"

enum { CL_NONE, CL_GEN, CL_PRED };   /* register classes (Ra.cls) */
enum { RA_MAXSLOT = 1 + INS_MAXOPD * 256 };   /* registers one instruction names */
enum { RA_EDGE_BUDGET = 1 << 22 };  /* interference edges a build may add before
                                       igraph_prespill steps in (igraph.c) */

typedef struct IVec { int32_t *v, n, cap; } IVec;

typedef struct Move {        /* a register copy the coalescer may remove */
	int32_t dst, src;
	double weight;           /* execution-frequency estimate, 10^loop depth */
} Move;

typedef struct Ra {
	Module *m;
	Func *f;
	int32_t fi;              /* f's index in m->funcs */
	const RaOpts *o;
	RaStats *st;
	int32_t cap;             /* general slots available (>= kmin) */
	int32_t nreg0;           /* registers of the input; ids above are new */
	/* per register id, n of them (capacity ncap) */
	int32_t n, ncap;
	uint8_t *regtype;        /* PtxType; Func.regtype points here while allocating */
	uint8_t *cls;            /* CL_*; CL_NONE for ids no instruction names */
	uint8_t *wid;            /* 32-bit slots of a general register: 1, 2, 4 */
	uint8_t *temp;           /* 1: spill temporary (or unspillable): never spilled */
	double *cost;            /* spill cost: occurrences weighted by 10^loop depth */
	int32_t *rep;            /* coalescing: union-find parent */
	int32_t *colour;         /* slot (general) or predicate index; -1 none */
	int32_t *rank;           /* order of first definition, in reverse postorder */
	uint8_t *spill;          /* chosen for spilling in this round (set on reps) */
	int32_t *aoff, *anb;     /* interference neighbours from the build (CSR, ncsr nodes) */
	int32_t ncsr;
	IVec *adj;               /* ... and those added since, by coalescing; both may hold
	                            merged-away ids (map them through ra_find) */
	IVec elist;              /* edges during the build, as pairs */
	uint32_t nedge;          /* distinct edges of the build */
	int over;                /* the build passed RA_EDGE_BUDGET and stopped */
	int unbounded;           /* build whatever the edges (pre-spilling did not help) */
	int moves_seen;          /* RaStats.moves is set (the first whole build) */
	Move *mv;
	int32_t nmv, capmv;
	int32_t pressure[3];     /* per class: most slots live at once */
	int32_t kmin;            /* general slots one instruction names at once */
	IVec pool;               /* scratch nodes of macro-instructions (igraph.c), reused
	                            round after round */
	/* spill state kept across rounds */
	int32_t spill_sym;       /* Sym id of __rfsim_spill, -1 before the first spill */
	int32_t spill_bytes;
	int32_t pack_reg;        /* general register holding spilled predicates' bits, -1 */
	int32_t pack_bits;       /* bits of it in use */
} Ra;

/* ra ids */
static inline int32_t ra_find(Ra *ra, int32_t r)
{
	while (ra->rep[r] != r) {
		ra->rep[r] = ra->rep[ra->rep[r]];
		r = ra->rep[r];
	}
	return r;
}

static inline int32_t igraph_degree(const Ra *ra, int32_t x)
{
	int32_t n = x < ra->ncsr ? ra->aoff[x + 1] - ra->aoff[x] : 0;
	return n + ra->adj[x].n;
}

/* neighbour i of x, 0 <= i < igraph_degree(ra, x) */
static inline int32_t igraph_nb(const Ra *ra, int32_t x, int32_t i)
{
	int32_t n = x < ra->ncsr ? ra->aoff[x + 1] - ra->aoff[x] : 0;
	return i < n ? ra->anb[ra->aoff[x] + i] : ra->adj[x].v[i - n];
}

/* igraph.c */
void ra_grow(Ra *ra, int32_t n);                  /* per-register arrays hold n ids */
int32_t ra_new_reg(Ra *ra, PtxType t, int temp);  /* a fresh register id */
int ra_reg_width(PtxType t);                      /* slots: 1, 2, 4; 0 for predicates */
/* the graph; 0 (and no graph) if it would pass RA_EDGE_BUDGET edges */
int igraph_build(Ra *ra, const Cfg *c, const LiveSets *l);
/* marks in ra->spill registers to spill so that no point holds more than the
   cap (general) or compiler.pred_regs (predicates); returns how many */
int32_t igraph_prespill(Ra *ra, const Cfg *c, const LiveSets *l);
void igraph_free(Ra *ra);
int igraph_edge(Ra *ra, int32_t a, int32_t b);   /* reps a and b interfere */
void igraph_add(Ra *ra, int32_t a, int32_t b);
int ra_scratch(const Ins *in);   /* scratch registers ptxas's expansion of in needs */

/* ra_check.c: conflicts of the colouring found by an independent liveness
   check (RaOpts.verify); 0 if none */
int ra_check(Ra *ra);

/* spill.c: rewrite f with spill code for every rep marked in ra->spill */
void spill_rewrite(Ra *ra, const Cfg *c);

/* edit.c: rebuild a function's instruction stream */
typedef struct Edit {
	Module *m;
	Func *f;
	Ins *out;
	int32_t nout, cap;
	int32_t *at;             /* old index -> new index where it starts (labels) */
	int32_t *self;           /* old index -> new index of the instruction itself */
	int32_t cur;             /* old instruction being rewritten */
	int32_t nold;            /* instructions of the old stream */
} Edit;

void edit_begin(Edit *e, Module *m, Func *f);
int32_t edit_new_reg(Module *m, Func *f, int32_t *cap, PtxType t);   /* f's next register */
void edit_mark(Edit *e, int32_t old);    /* what is emitted next belongs to old */
Ins *edit_emit(Edit *e, const Ins *in);  /* append a copy; returns it */
void edit_keep(Edit *e, const Ins *in);  /* append old instruction cur itself */
void edit_end(Edit *e);                  /* install the stream, remap labels etc. */
/* rename register operands of in (guard included) through map, where set */
typedef int32_t (*RegMap)(void *ctx, int32_t reg, int is_def);
void edit_rename(Func *f, Ins *in, RegMap map, void *ctx);

#endif
