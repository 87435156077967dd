/*
 * rename.c -- one virtual register per value inside a basic block, before
 * latency scheduling (compiler.schedule = latency; pass.c).
 *
 * ptxas schedules values, not PTX register names: where PTX writes the
 * same register again for an unrelated value (hand-written PTX does it
 * all the time, `mov %f9, ...; cvt %r1, %f9; st [%rd1], %r1` over and
 * over; nvcc's -G code and loop bodies too), only the true dependences
 * constrain its order.  rfsim's scheduler orders by register dependences,
 * so a reused name would chain every such value after the last reader of
 * the previous one (write after read) and the schedule could not overlap
 * them as ptxas does.  This pass gives each value that lives and dies
 * inside one block -- written, read, then written again further down the
 * same block -- a fresh register; the value a block's last write of a
 * register sets, and whatever flows in from other blocks, keep their
 * names, so nothing outside the block changes.
 *
 * A write under a guard (@p mov %r1, ...) may leave the old value in place,
 * so it neither starts a renamed value nor ends one: a value whose register
 * is written under a guard before the next unguarded write keeps its name.
 * Instructions writing the same register twice keep theirs too.
 */
#include "analysis/rename.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/cfg.h"
#include "analysis/live.h"
#include "analysis/ra_int.h"
#include "base/base.h"

enum { MAXOPR = 1 + INS_MAXOPD * 256 };

typedef struct Ren {
	Module *m;
	Func *f;
	int32_t nreg0;           /* registers before the pass */
	int32_t cap;             /* registers f->regtype has room for */
	int32_t *map;            /* nreg0: the name the register's current value has, -1 */
	int32_t *next;           /* nreg0: scratch of the backward walk */
	uint8_t *fresh;          /* nins: 1 if the instruction's writes start renamed values */
	int32_t *touch;          /* registers of the block whose map is set (each once) */
	int32_t buf[MAXOPR];
} Ren;

static int32_t new_reg(Ren *x, PtxType t)
{
	return edit_new_reg(x->m, x->f, &x->cap, t);
}

static int32_t map_reg(void *ctx, int32_t reg, int is_def)
{
	const Ren *x = ctx;
	if (reg < 0 || reg >= x->nreg0) return reg;
	if (is_def) return x->next[reg] >= 0 ? x->next[reg] : reg;
	return x->map[reg] >= 0 ? x->map[reg] : reg;
}

/* x->fresh over block bb: an unguarded write whose register is written
   again, unguarded, later in the block with no guarded write between */
static void mark(Ren *x, const Block *bb)
{
	const Func *f = x->f;
	for (int32_t i = bb->last; i >= bb->first; i--) {   /* next: 1 unguarded next, 2 guarded */
		const Ins *in = &f->ins[i];
		int d = live_defs(f, in, x->buf, MAXOPR), ok = in->guard < 0 && d > 0 && d <= MAXOPR;
		for (int q = 0; q < d && ok; q++) {
			ok = x->next[x->buf[q]] == 1;
			for (int p = 0; p < q && ok; p++) ok = x->buf[p] != x->buf[q];
		}
		x->fresh[i] = (uint8_t)ok;
		for (int q = 0; q < d && d <= MAXOPR; q++) x->next[x->buf[q]] = in->guard < 0 ? 1 : 2;
	}
	for (int32_t i = bb->first; i <= bb->last; i++) {
		int d = live_defs(f, &f->ins[i], x->buf, MAXOPR);
		for (int q = 0; q < d && d <= MAXOPR; q++) x->next[x->buf[q]] = -1;
	}
}

/* rename block bb's local values; returns how many */
static int32_t block(Ren *x, const Block *bb)
{
	Func *f = x->f;
	int32_t made = 0, ntouch = 0;
	mark(x, bb);
	for (int32_t i = bb->first; i <= bb->last; i++) {
		Ins *in = &f->ins[i];
		int d = live_defs(f, in, x->buf, MAXOPR);
		if (d > MAXOPR) d = 0;
		for (int q = 0; q < d; q++)      /* the names this instruction's writes take */
			x->next[x->buf[q]] = x->fresh[i] ? new_reg(x, (PtxType)f->regtype[x->buf[q]]) : -1;
		made += x->fresh[i] ? d : 0;
		edit_rename(f, in, map_reg, x);  /* reads: the current names; writes: the new */
		for (int q = 0; q < d; q++) {
			int32_t g = x->buf[q];
			if (x->next[g] >= 0 && x->map[g] < 0) x->touch[ntouch++] = g;
			x->map[g] = x->next[g];
			x->next[g] = -1;
		}
	}
	for (int32_t k = 0; k < ntouch; k++) x->map[x->touch[k]] = -1;   /* names at the exit */
	return made;
}

int32_t rename_func(Module *m, Func *f)
{
	if (f->nins < 2) return 0;
	for (int32_t i = 0; i < f->nrdecl; i++)
		if (f->rdecl[i].vec) return 0;     /* vector registers stay as declared */
	Ren x = {.m = m, .f = f, .nreg0 = f->nreg, .cap = f->nreg};
	x.map = xmalloc(sizeof(int32_t) * ((size_t)f->nreg + 1));
	x.next = xmalloc(sizeof(int32_t) * ((size_t)f->nreg + 1));
	x.fresh = xcalloc((size_t)f->nins + 1, 1);
	x.touch = xmalloc(sizeof(int32_t) * ((size_t)f->nreg + 1));
	for (int32_t g = 0; g < f->nreg; g++) x.map[g] = x.next[g] = -1;
	Cfg *c = cfg_build(f);
	int32_t made = 0;
	for (int32_t b = 0; b < c->nblock; b++) made += block(&x, &c->blocks[b]);
	cfg_free(c);
	free(x.map), free(x.next), free(x.fresh), free(x.touch);
	return made;
}
