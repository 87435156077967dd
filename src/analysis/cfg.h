/*
 * cfg.h -- control-flow graph of one function, with dominators,
 * post-dominators, natural loops and Hecht intervals.
 *
 * cfg_build() runs three passes, one per file:
 *   cfg.c   basic blocks and edges, the virtual exit        (Block, succ, pred)
 *   dom.c   orders, dominators, post-dominators, fake edges (rpo, idom, ipdom)
 *   loop.c  natural loops, reducibility, intervals          (Loop, ivl_*, derived)
 *
 * Node ids.  Blocks are 0..nblock-1 in instruction order; block 0 is the
 * entry.  `exit` (= nblock) is a virtual block with no instructions that
 * every ret/exit/trap and the fall-off at the end of the body flows into;
 * it has an entry in blocks[], rpo[], idom[] and ipdom[], so arrays over
 * nodes have nblock + 1 entries.  An empty body has nblock = 0 and the
 * exit is block 0, the entry.
 *
 * Everything lives in the Cfg's arena; cfg_free() releases it at once.
 * The Cfg points at its Func and must not outlive it or see it change.
 */
#ifndef RFSIM_ANALYSIS_CFG_H
#define RFSIM_ANALYSIS_CFG_H

#include <stdint.h>
#include <stdio.h>

#include "ptx/ir.h"

typedef struct Block {
	int32_t first, last;     /* instructions [first, last]; exit: nins, nins - 1 */
	int32_t term;            /* last non-pseudo instruction (the control transfer,
	                            if any), -1 if the block holds only pseudos */
	int32_t *succ, nsucc;    /* successors; a conditional transfer lists its
	                            target (or exit) first, the fall-through second */
	int32_t *pred, npred;    /* predecessors, ascending block id */
} Block;

typedef struct Loop {
	int32_t header;          /* block that dominates every latch */
	int32_t parent;          /* innermost enclosing loop, -1 if outermost */
	int32_t depth;           /* 1 = outermost */
	int32_t nbody;           /* blocks in body (header included) */
	int32_t lo, hi;          /* the least and greatest block id in body */
	uint64_t *body;          /* bit set over block ids lo .. hi: block b is bit b & 63 of
	                            word (b >> 6) - (lo >> 6) (cfg_in_loop) */
} Loop;

typedef struct Cfg {
	const Func *f;
	struct Arena *arena;     /* owns every array below */
	/* cfg.c */
	Block *blocks;           /* nblock + 1 entries, blocks[exit] virtual */
	int32_t nblock;          /* real blocks */
	int32_t exit;            /* = nblock */
	int32_t *block_of;       /* nins: block of each instruction */
	/* dom.c */
	int32_t *rpo;            /* nblock + 1 nodes: those reachable from the entry
	                            in reverse postorder, then the rest, each
	                            unreachable DFS tree in its own reverse postorder */
	int32_t nreach;          /* rpo[0 .. nreach) are reachable (exit included if so) */
	int32_t *rpo_index;      /* position of each node in rpo */
	int32_t *idom;           /* immediate dominator; idom[0] = 0; -1 if unreachable */
	int32_t *ipdom;          /* immediate post-dominator; ipdom[exit] = exit */
	int32_t *fake;           /* blocks given a fake edge to exit (infinite loops) */
	int32_t nfake;
	int32_t *dom_pre, *dom_end;    /* dominator tree preorder number, and the
	                                  largest one in the subtree (-1 unreachable) */
	int32_t *pdom_pre, *pdom_end;  /* same for the post-dominator tree */
	int32_t *pdom_depth;     /* edges from the exit in the post-dominator tree */
	/* loop.c */
	Loop *loops;             /* in header RPO order: outer before inner */
	int32_t nloop;
	int32_t *loop_of;        /* innermost loop of each node, -1 if none */
	int32_t *loop_depth;     /* loops around each node, 0 if none */
	int8_t reducible;        /* 1 if every retreating edge of the reachable
	                            graph is a back edge (its target dominates it) */
	int32_t nirredge;        /* retreating edges that are not back edges */
	int32_t *ivl_of;         /* Hecht interval of each block; -1 for exit */
	int32_t nivl;
	int32_t *ivl_header;     /* nivl: header block of each interval */
	int32_t *ivl_start;      /* nivl + 1: interval i is ivl_blocks[ivl_start[i] ..
	                            ivl_start[i + 1]), header first, then in the order
	                            blocks joined (a topological order of the interval
	                            without its back edges to the header) */
	int32_t *ivl_blocks;     /* nblock */
	int32_t nderived;        /* graphs in the derived sequence G0 (blocks), G1
	                            (intervals), ... up to its limit */
	int32_t limit_size;      /* nodes of the limit graph; <= 1 iff reducible */
} Cfg;

/* cfg.c */
Cfg *cfg_build(const Func *f);   /* blocks, then dom_compute, then loop_compute */
void cfg_free(Cfg *c);
/* first instruction of the immediate post-dominator of the block holding
   branch_ins, where a diverged warp reconverges; -1 if that is the exit.
   The instruction may be a SCOPE pseudo: execution starts at the first
   real instruction from there on. */
int32_t cfg_reconverge_pc(const Cfg *c, int32_t branch_ins);
/* text dump for golden tests; m names the function and labels (NULL: L<id>) */
void cfg_dump(const Cfg *c, const Module *m, FILE *out);

/* dom.c */
void dom_compute(Cfg *c);        /* rpo, idom, fake edges, ipdom, tree numbers */
int cfg_dominates(const Cfg *c, int32_t a, int32_t b);      /* a dom b (reflexive) */
int cfg_postdominates(const Cfg *c, int32_t a, int32_t b);  /* a pdom b (reflexive) */

/* loop.c */
void loop_compute(Cfg *c);       /* loops, depths, reducibility, intervals */

static inline int cfg_in_loop(const Cfg *c, int32_t loop, int32_t b)
{
	const Loop *l = &c->loops[loop];
	if (b < l->lo || b > l->hi) return 0;
	return (int)(l->body[(b >> 6) - (l->lo >> 6)] >> (b & 63) & 1);
}

#endif
