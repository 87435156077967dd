/*
 * ra_check.c -- an independent check of a colouring, for tests
 * (RaOpts.verify): before the code is rewritten onto architected
 * registers, no register may be written where another one that shares a
 * slot with it holds a value that some path still reads.
 *
 * It recomputes what it needs from scratch rather than trusting the
 * interference graph: per-instruction liveness and maybe-defined sets
 * from live.c (igraph.c computes its own), then tests every
 * write against everything live after it (except the source of a copy,
 * which holds the same value), and the writes of one instruction against
 * each other.  A conflict is a bug in igraph.c, the coalescer or select;
 * each one found is reported on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ra_int.h"
#include "base/base.h"

/* do registers a and b, coloured, share a slot? */
static int clash(Ra *ra, int32_t a, int32_t b)
{
	if (ra->cls[a] != ra->cls[b] || !ra->cls[a]) return 0;
	int32_t ca = ra->colour[ra_find(ra, a)], cb = ra->colour[ra_find(ra, b)];
	int wa = ra->cls[a] == CL_GEN ? ra->wid[a] : 1, wb = ra->cls[b] == CL_GEN ? ra->wid[b] : 1;
	return ca < cb + wb && cb < ca + wa;
}

static int report(Ra *ra, int32_t i, int32_t d, int32_t x)
{
	char a[64], b[64];
	fprintf(stderr, "%s:%u: regalloc check: %s: writing %s clobbers %s\n", ra->m->filename,
	        ra->f->ins[i].line, ir_str(ra->m, ra->m->syms[ra->f->sym].name),
	        ir_regname(ra->m, ra->f, d, a, sizeof a), ir_regname(ra->m, ra->f, x, b, sizeof b));
	return 1;
}

int ra_check(Ra *ra)
{
	const Func *f = ra->f;
	Cfg *c = cfg_build(f);
	Live *l = live_compute(c);
	int32_t *buf = xmalloc(sizeof(int32_t) * RA_MAXSLOT);
	uint64_t *md = live_maydef(c, l->words);
	int bad = 0;
	for (int32_t i = 0; i < f->nins; i++) {
		const Ins *in = &f->ins[i];
		const uint64_t *out = live_out(l, i), *mi = md + (size_t)i * (size_t)l->words;
		int nd = live_defs(f, in, buf, RA_MAXSLOT);
		int32_t src = in->op == OP_MOV && in->nd == 1 && in->ns == 1 &&
		              in->o[1].kind == OPK_REG ? in->o[1].reg : -1;
		for (int k = 0; k < nd; k++) {
			for (int q = 0; q < k; q++) bad += buf[q] != buf[k] && clash(ra, buf[k], buf[q]) &&
			                                   report(ra, i, buf[k], buf[q]);
			for (int32_t j = 0; j < l->words; j++)
				for (uint64_t m = out[j] & mi[j]; m; m &= m - 1) {
					int32_t x = j * 64 + __builtin_ctzll(m);
					if (x != buf[k] && x != src && clash(ra, buf[k], x))
						bad += report(ra, i, buf[k], x);
				}
		}
	}
	free(md);
	free(buf);
	live_free(l);
	cfg_free(c);
	return bad;
}
