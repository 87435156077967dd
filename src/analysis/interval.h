/*
 * interval.h -- LTRF prefetch subgraphs of one allocated function:
 * register-intervals (interval.c, paper ltrf-asplos18 §3.3, Algorithms 1
 * and 2) or strands (strand.c, §6.6), and the rfsim.prefetch directives
 * put at their entries (prefetch.c, §3.2).
 *
 * Pieces.  A partition may cut a basic block where a subgraph must begin
 * mid-block (its registers do not fit, a call, a strand's long-latency
 * wait), so it works on pieces: a basic block, or a contiguous part of one
 * after cuts.  Pieces are numbered in instruction order; piece 0 holds
 * instruction 0.  Their edges are the CFG's, the virtual exit left out, plus
 * a fall-through edge from each cut-off head to its tail.  This piece graph
 * is "the CFG on which intervals were formed" that `rfsim analyze` prints.
 *
 * Working set.  The registers an instruction names: every register it reads
 * (the guard, sources, address bases, vector elements) or writes
 * (live_uses/live_defs), as architected general registers: a 32-bit
 * register is one slot, a 64-bit pair two, a 128-bit quad four.  Predicate
 * registers are not counted: they live in their own predicate file, not in
 * the main register file LTRF caches.  A subgraph's working set is the union
 * over its instructions, and that is its PREFETCH bit-vector.
 *
 * Invariants (ivl_check, asserted by the pass): every instruction is in
 * exactly one piece and every piece in exactly one subgraph; an edge from
 * outside a subgraph enters it only at its entry piece, and the function's
 * entry is an entry; every working set has at most N registers -- except
 * a subgraph of one instruction that alone names more than N (an
 * instruction's operands must all be in the cache), counted in `wide`.
 */
#ifndef RFSIM_ANALYSIS_INTERVAL_H
#define RFSIM_ANALYSIS_INTERVAL_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/cfg.h"
#include "ptx/ir.h"

enum { PART_NONE, PART_INTERVAL, PART_STRAND };   /* ltrf.partition choices, in order */

typedef struct Piece {
	int32_t first, last;     /* instructions [first, last] of the pre-PREFETCH code */
	int32_t block;           /* CFG block it is part of */
	int32_t ivl;             /* subgraph it belongs to */
	int32_t *succ, nsucc, capsucc;   /* successor pieces (exit left out) */
	int32_t *pred, npred, cappred;   /* predecessor pieces */
	int8_t exits;            /* 1: has an edge to the virtual exit */
} Piece;

typedef struct Ivl {
	int32_t entry;           /* entry piece */
	RegSet regs;             /* working set: the PREFETCH bit-vector */
	int32_t nregs;           /* registers in it */
	RegSet pend;             /* strands: written by long-latency ops so far */
	int8_t call;             /* 1: holds a call; closed to joining and merging */
} Ivl;

typedef struct Part {
	int kind;                /* PART_INTERVAL or PART_STRAND */
	int32_t n;               /* N, registers per subgraph */
	int32_t nins;            /* instructions of the function */
	Piece *pc;  int32_t npiece, cappiece;
	Ivl *iv;    int32_t nivl, capivl;
	int32_t nivl_pass1;      /* subgraphs after pass 1 (before merging) */
	int32_t rounds;          /* pass-2 repetitions until nothing merged */
	int32_t cuts;            /* blocks cut (pieces - blocks) */
	int32_t wide;            /* subgraphs over N: one instruction naming more */
} Part;

/* interval.c: register-intervals of an allocated function (f->phys set) */
Part *ivl_form(const Func *f, const Cfg *c, int32_t n);
/* the working set of one instruction, into *s; returns its size */
int ivl_ins_regs(const Func *f, const Ins *in, RegSet *s);
void ivl_ins_rw(const Func *f, const Ins *in, RegSet *rd, RegSet *wr);  /* reads, writes */
/* a broken invariant's message, in the caller's storage */
typedef struct IvlWhy { char s[256]; } IvlWhy;
/* NULL if the invariants hold, else a message saying which broke (in *why) */
const char *ivl_check(const Func *f, const Part *p, IvlWhy *why);
/* golden-test text: pieces with edges, then subgraphs with entry, regs, preds */
void ivl_dump(const Part *p, FILE *out);
void ivl_free(Part *p);
/* lists per subgraph, ascending: item[start[v] .. start[v + 1]) */
typedef struct IvlLists { int32_t *start, *item; } IvlLists;
IvlLists ivl_pred_lists(const Part *p);     /* subgraphs with an edge into v */
IvlLists ivl_member_lists(const Part *p);   /* pieces of v */
void ivl_lists_free(IvlLists *l);
/* pass-1 machinery strand.c shares */
Part *ivl_pass1(const Func *f, const Cfg *c, int32_t n, int kind);
void ivl_finish(Part *p);    /* number pieces and subgraphs in order, count sizes */
int regset_count(const RegSet *s);
static inline int regset_has(const RegSet *s, int r)
{
	return (int)(s->w[r >> 6] >> (r & 63) & 1);
}

/* strand.c: strands (§6.6) */
Part *strand_form(const Func *f, const Cfg *c, int32_t n);
int strand_long_latency(const Ins *in);     /* 1: a load whose wait deschedules a warp */
int strand_waits(const Ins *in);            /* 1: cp.async.wait_group/wait_all (a strand ends before) */
/* NULL if no strand has a backward branch or a long-latency wait inside, else which
 * (in *why) */
const char *strand_check(const Func *f, const Part *p, IvlWhy *why);

/* the partition the compiler forms: ltrf.partition, except that rf.model
   ltrf or ltrfplus turns none into interval (the hardware needs PREFETCHes) */
struct Config;
int ltrf_partition_of(const struct Config *cfg);
/* prefetch.c: form the configured partition of function fi, insert one
   rfsim.prefetch per subgraph entry, fill Func.rsets; returns the
   partition (ivl_free) or NULL when there is nothing to do */
Part *prefetch_insert(Module *m, int32_t fi, int kind, int32_t n);

typedef struct CodeSize {    /* static code-size overhead of PREFETCH (§3.2, §4.3) */
	int64_t ins;             /* instructions before insertion (pseudos excluded) */
	int64_t prefetches;      /* PREFETCHes inserted */
	int64_t bits_base;       /* ins * ins_bits */
	int64_t bits_bit;        /* extra bits, encoding "bit": ins + prefetches * vector */
	int64_t bits_ins;        /* extra bits, encoding "instruction": prefetches *
	                            (ins_bits + vector) */
} CodeSize;
/* adds function f's sizes (p: its partition, NULL if none) to *cs */
void prefetch_code_size(const Part *p, const Func *f, int32_t ins_bits, int32_t vec_bits,
                        CodeSize *cs);
/* rfsim analyze: one text line; JSON "ltrf" and "intervals" (encoding: the
   ltrf.prefetch_encoding index); the piece graph as "blocks", "cfg", "exits" */
struct Json;
void prefetch_print(const Part *p, const CodeSize *cs, FILE *out);
void prefetch_json(struct Json *j, const Part *p, const CodeSize *cs, int encoding);
void prefetch_json_cfg(struct Json *j, const Part *p);

#endif
