/*
 * edit.c -- rebuilding a function's instruction stream: the one place
 * that inserts and deletes instructions, for spill code (spill.c) and
 * for the moves that coalescing empties (regalloc.c).
 *
 * The editor walks the old instructions in order; for each it is told
 * edit_mark(old), then emits whatever goes before it, the instruction
 * itself (edit_keep, maybe renamed) or nothing, then whatever goes after.
 * Everything that points into the stream is then remapped:
 *   labels and statement pragmas  to the first instruction emitted for
 *                                 the old one (its reloads run on every
 *                                 path into a label);
 *   Sym.scope, RegDecl.scope      to the SCOPE_BEGIN itself (never
 *                                 deleted).
 * The new array lives in the module's arena, like the one it replaces;
 * when it is no longer than the old one it takes the old one's place (an
 * arena frees nothing, and a big function goes through several edits).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/ra_int.h"
#include "base/base.h"

/* a new virtual register of type t in f (remat.c, rename.c); *cap is how many
   f->regtype has room for, doubled in the module's arena when full */
int32_t edit_new_reg(Module *m, Func *f, int32_t *cap, PtxType t)
{
	if (f->nreg + 1 > *cap) {
		*cap = 2 * (f->nreg + 1);
		uint8_t *rt = arena_alloc(m->arena, (size_t)*cap);
		memcpy(rt, f->regtype, (size_t)f->nreg);
		f->regtype = rt;
	}
	f->regtype[f->nreg] = (uint8_t)t;
	return f->nreg++;
}

void edit_begin(Edit *e, Module *m, Func *f)
{
	memset(e, 0, sizeof *e);
	e->m = m;
	e->f = f;
	e->at = xmalloc(sizeof(int32_t) * ((size_t)f->nins + 1));
	e->self = xmalloc(sizeof(int32_t) * ((size_t)f->nins + 1));
	for (int32_t i = 0; i <= f->nins; i++) e->self[i] = -1;
	e->cur = -1;
	e->nold = f->nins;
}

void edit_mark(Edit *e, int32_t old)
{
	e->cur = old;
	e->at[old] = e->nout;
}

Ins *edit_emit(Edit *e, const Ins *in)
{
	VEC_RESERVE(e->out, e->cap, (size_t)e->nout + 1);
	e->out[e->nout] = *in;
	return &e->out[e->nout++];
}

void edit_keep(Edit *e, const Ins *in)
{
	e->self[e->cur] = e->nout;
	edit_emit(e, in);
}

static int32_t remap_scope(const Edit *e, int32_t s)
{
	return s >= 0 && s < e->f->nins ? e->self[s] : s;
}

void edit_end(Edit *e)
{
	Func *f = e->f;
	Module *m = e->m;
	edit_mark(e, f->nins);
	for (int32_t i = 0; i < f->nlabel; i++)
		if (f->labels[i].ins >= 0 && f->labels[i].ins <= f->nins)
			f->labels[i].ins = e->at[f->labels[i].ins];
	for (int32_t i = 0; i < f->nbpragma; i++)
		if (f->bpragmas[i].ins >= 0 && f->bpragmas[i].ins <= f->nins)
			f->bpragmas[i].ins = e->at[f->bpragmas[i].ins];
	for (int32_t i = 0; i < f->nrdecl; i++) f->rdecl[i].scope = remap_scope(e, f->rdecl[i].scope);
	for (int32_t i = 0; i < f->nlocal; i++) {
		Sym *s = &m->syms[f->locals[i]];
		s->scope = remap_scope(e, s->scope);
	}
	if (e->nout <= e->nold && e->nout) memcpy(f->ins, e->out, sizeof(Ins) * (size_t)e->nout);
	else if (e->nout) f->ins = arena_dup(m->arena, e->out, sizeof(Ins) * (size_t)e->nout);
	else f->ins = arena_alloc(m->arena, sizeof(Ins));   /* an empty body: no e->out */
	f->nins = e->nout;
	free(e->out);
	free(e->at);
	free(e->self);
	e->out = NULL;
}

static void rename_opd(Operand *o, int is_def, RegMap map, void *ctx)
{
	if (o->kind == OPK_REG) o->reg = map(ctx, o->reg, is_def);
	else if (o->kind == OPK_ADDR && !(o->flags & OPDF_SYMBASE) && o->reg >= 0)
		o->reg = map(ctx, o->reg, 0);
}

void edit_rename(Func *f, Ins *in, RegMap map, void *ctx)
{
	if (in->guard >= 0) in->guard = map(ctx, in->guard, 0);
	for (int k = 0; k < in->nd + in->ns; k++) {
		Operand *o = &in->o[k];
		if (o->kind != OPK_VEC) {
			rename_opd(o, k < in->nd, map, ctx);
			continue;
		}
		for (int j = 0; j < o->n; j++) rename_opd(&f->vops[o->reg + j], k < in->nd, map, ctx);
	}
}
