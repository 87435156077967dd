/*
 * strand.c -- strands: the prefetch subgraphs of LTRF-strand and SHRF
 * (paper ltrf-asplos18 §6.6, after Gebhart et al., MICRO 2011 [20]).
 *
 * A strand is a region in which a warp is never descheduled, so a
 * register cache filled at its entry serves it to the end: "long/variable-
 * latency operations (e.g., cache misses) and backward branches are
 * disallowed within a strand" (§6.6).  rfsim forms strands with the same
 * pass-1 machinery as register-intervals (interval.c: single entry, <= N
 * registers, calls alone, cuts mid-block), with two more rules and no
 * pass 2:
 *
 *   Long latency.  The two-level scheduler of [19] (Gebhart ISCA 2011,
 *   §4.1) suspends a warp when an instruction consumes a value produced by
 *   a long-latency operation, and counts "texture operations and global
 *   (cached) memory accesses" as long-latency.  So a strand ends just
 *   before the first instruction that reads a register written by such an
 *   operation inside the strand -- the point where the warp would wait --
 *   as [20] places its strand boundaries.  Long-latency here: ld/ldu/atom
 *   from global, local (spills live in cached off-chip memory too), generic
 *   addresses (which may be global) and texture memory.  Shared, constant,
 *   and parameter loads have fixed short latency and SFU operations a fixed
 *   pipeline latency that the active warps hide, so neither ends a strand.
 *   Which registers are still pending is tracked as a union over the strand
 *   (conservative where paths join).  cp.async.wait_group and wait_all wait
 *   for global memory too, with no register to show it: a strand ends just
 *   before each of them (strand_waits).
 *
 *   Backward branches.  A piece joins a strand only when all its
 *   predecessors are in it, so the only edges back to an earlier point of
 *   a strand go to its entry: the backward branch is where a strand ends,
 *   and the loop's next iteration is a new dynamic instance that runs the
 *   entry's PREFETCH again.  Pass 2 is not run: merging would put whole
 *   loops, and long-latency waits of the merged parts, inside one strand.
 *
 * strand_check() verifies both rules independently of the formation.
 */
#include "analysis/interval.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"

int strand_long_latency(const Ins *in)
{
	if (!(op_info[in->op].flags & OPF_LOAD)) return 0;
	switch ((Space)in->space) {
	case SP_GLOBAL: case SP_LOCAL: case SP_NONE: case SP_TEX:
		return 1;
	case SP_REG: case SP_SREG: case SP_CONST: case SP_PARAM: case SP_SHARED:
	case SP_SHARED_CLUSTER: case NSPACE:
		return 0;
	}
	return 0;
}

int strand_waits(const Ins *in)
{
	return in->op == OP_CP_WAIT || in->op == OP_CP_WAITALL || in->op == OP_CP_MBAR;
}

Part *strand_form(const Func *f, const Cfg *c, int32_t n)
{
	Part *p = ivl_pass1(f, c, n, PART_STRAND);
	ivl_finish(p);
	return p;
}

/* pieces of strand v (its members: mem) in a topological order of its
   edges that do not go back to its entry, into ord; returns how many, or -1
   if there is a cycle */
static int32_t topo(const Part *p, int32_t v, const IvlLists *mem, int32_t *ord, int32_t *indeg)
{
	int32_t n = 0, head = 0, want = mem->start[v + 1] - mem->start[v];
	for (int32_t m = mem->start[v]; m < mem->start[v + 1]; m++) indeg[mem->item[m]] = 0;
	for (int32_t m = mem->start[v]; m < mem->start[v + 1]; m++) {
		int32_t u = mem->item[m];
		for (int32_t k = 0; k < p->pc[u].nsucc; k++) {
			int32_t w = p->pc[u].succ[k];
			if (p->pc[w].ivl == v && w != p->iv[v].entry) indeg[w]++;
		}
	}
	ord[n++] = p->iv[v].entry;
	while (head < n) {
		int32_t u = ord[head++];
		for (int32_t k = 0; k < p->pc[u].nsucc; k++) {
			int32_t w = p->pc[u].succ[k];
			if (p->pc[w].ivl == v && w != p->iv[v].entry && --indeg[w] == 0)
				ord[n++] = w;
		}
	}
	return n == want ? n : -1;
}

/* reads of a register that a long-latency load of an ancestor piece (or an
   earlier instruction of the same piece) in strand v wrote: -1 if none, else
   the instruction */
static int32_t first_wait(const Func *f, const Part *p, int32_t v, const int32_t *ord,
                          int32_t n, RegSet *out)
{
	for (int32_t j = 0; j < n; j++) {
		int32_t u = ord[j];
		RegSet pend;
		memset(&pend, 0, sizeof pend);
		for (int32_t k = 0; u != p->iv[v].entry && k < p->pc[u].npred; k++)
			for (int w = 0; w < 4; w++) pend.w[w] |= out[p->pc[u].pred[k]].w[w];
		for (int32_t k = p->pc[u].first; k <= p->pc[u].last; k++) {
			RegSet rd, wr;
			if (strand_waits(&f->ins[k]) && !(u == p->iv[v].entry && k == p->pc[u].first))
				return k;
			ivl_ins_rw(f, &f->ins[k], &rd, &wr);
			for (int w = 0; w < 4; w++)
				if (rd.w[w] & pend.w[w]) return k;
			if (strand_long_latency(&f->ins[k]))
				for (int w = 0; w < 4; w++) pend.w[w] |= wr.w[w];
		}
		out[u] = pend;
	}
	return -1;
}

const char *strand_check(const Func *f, const Part *p, IvlWhy *why)
{
	int32_t *ord = xmalloc(sizeof(int32_t) * ((size_t)p->npiece + 1));
	int32_t *indeg = xmalloc(sizeof(int32_t) * ((size_t)p->npiece + 1));
	RegSet *out = xcalloc((size_t)p->npiece + 1, sizeof *out);
	IvlLists mem = ivl_member_lists(p);
	const char *r = NULL;
	for (int32_t v = 0; v < p->nivl && !r; v++) {
		int32_t n = topo(p, v, &mem, ord, indeg), k;
		if (n < 0) {
			snprintf(why->s, sizeof why->s, "strand %d has a backward branch inside", v);
			r = why->s;
		} else if ((k = first_wait(f, p, v, ord, n, out)) >= 0) {
			snprintf(why->s, sizeof why->s, "strand %d waits on a long-latency %s at "
			         "instruction %d", v, strand_waits(&f->ins[k]) ? "copy" : "load", k);
			r = why->s;
		}
	}
	free(ord), free(indeg), free(out);
	ivl_lists_free(&mem);
	return r;
}
