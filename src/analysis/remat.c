/*
 * remat.c -- kernel parameters read where they are used, as ptxas reads
 * them: from the constant bank, as an operand of the instruction that
 * needs them (c[0x0][0x160]), never held in a register across the kernel.
 *
 * nvcc's PTX loads every parameter at the top of the kernel (ld.param)
 * and converts pointers there (cvta.to.global), so an allocator that takes
 * the PTX as it stands keeps each of them live from the first instruction
 * to its last use: two slots per pointer, across every loop that uses it
 * (pf_resample: eight parameters, 13 slots live before the bounds check).
 * On the GPU they cost nothing until an instruction reads them.  This pass
 * rewrites each use of a value that is a kernel parameter -- loaded by a
 * scalar ld.param of one of the kernel's own parameters, or that load
 * through cvta.to.global, each its register's only write -- to read a
 * fresh register that a copy of the load (and the conversion) sets, once
 * per block, before the block's first reader, and deletes the originals.
 * The scheduler then moves each copy next to its first reader
 * (sched_lat.c), so the value lives from there to the block's last read.
 * Kernel parameters are read-only, so a load may be repeated anywhere.
 *
 * Constants are treated alike, in every function: a register whose one
 * write is a `mov` of an immediate or of a variable's address (mov.u32
 * %r4, sarr), and a cvta of one, is read at each use from a copy made in
 * the reader's block.  ptxas folds such values into the instruction that
 * reads them -- an immediate operand, a shared variable's address into
 * the address's offset ([R9.X4+0x240] for `mov.u32 %r4, sarr; add.s32
 * %r9, %r4, %r7`, tests/sem/mem_shared.ptx), a global variable's from
 * the constant bank (c[0x4][..]) -- and never keeps them live across the
 * kernel.
 *
 * Global variables addressed by name (ld.global.u64 %rd3, [gp+8]) need a
 * register pair in SASS, which has no absolute global address: ptxas
 * loads the address from the constant bank into a pair next to the
 * access (MOV R10, c[0x4][0x8]; MOV R11, c[0x4][0xc]; LDG.E.64 R2,
 * [R10.64+0x8]: tests/ptx/misc.sm80.ptx's ptrinit).  So each such access,
 * global or generic, reads its variable's address from a `mov.u64` copy
 * made in its block, [gp+8] becoming [%rdN+8].
 *
 * Cost: one ld.param (and a cvta) more per block that reads a parameter,
 * and a mov more per block that reads a constant, executed where they are
 * read -- in a loop body, every iteration (3-15% more warp instructions on
 * the workloads); ptxas's operand is free.  The timing model issues these
 * kernel-parameter loads to the SP unit, as the MOV R, c[0x0][..] ptxas
 * emits at most, not through the constant cache (Module.kparam_cbank,
 * timing/tins.c): at cc.lat on every use's path they slowed a pointer chase
 * at one CTA per SM (calibrate's occupancy: speedup 3.89 against 3.75 in
 * nvcc's order; 3.73 as operands).  Left out:
 * parameters read in device functions (passed in registers by the ABI),
 * and values computed from parameters (ptxas keeps those in registers
 * too, or in uniform registers, which `ptxas -v` does not count).
 */
#include "analysis/remat.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/cfg.h"
#include "analysis/live.h"
#include "analysis/ra_int.h"
#include "base/base.h"

enum { MAXOPR = 1 + INS_MAXOPD * 256 };

typedef struct Remat {
	Module *m;
	Func *f;
	int32_t *src;            /* nreg: the ld.param or mov setting a parameter value or
	                            constant, -1 */
	int32_t *via;            /* nreg: the cvta between, -1 */
	int32_t *map;            /* nreg: the fresh register of the block at hand, -1 */
	int32_t *gmap;           /* nsym: a global variable's address register, this block */
	int32_t *gtouch, ngtouch;  /* variables whose gmap is set */
	int32_t cap;             /* registers f->regtype has room for */
	int32_t nreg0;           /* registers before the pass */
	int32_t *touch, ntouch;  /* registers whose map is set, in the block at hand */
} Remat;

static int kparam_load(const Func *f, const Ins *in)
{
	if (in->op != OP_LD || in->space != SP_PARAM || in->vec || in->guard >= 0 ||
	    in->nd != 1 || in->o[0].kind != OPK_REG || in->o[1].kind != OPK_ADDR ||
	    !(in->o[1].flags & OPDF_SYMBASE))
		return 0;
	for (int32_t i = 0; i < f->nparam; i++)
		if (f->params[i] == in->o[1].reg) return 1;
	return 0;
}

static int to_global(const Ins *in)
{
	return in->op == OP_CVTA && (in->mods & MOD_TO) && in->space == SP_GLOBAL &&
	       in->guard < 0 && in->nd == 1 && in->o[0].kind == OPK_REG && in->o[1].kind == OPK_REG;
}

/* 1 if in is `mov d, IMM` or `mov d, VAR` (a variable's address), unguarded */
static int const_mov(const Module *m, const Ins *in)
{
	if (in->op != OP_MOV || in->guard >= 0 || in->nd != 1 || in->ns != 1 ||
	    in->o[0].kind != OPK_REG || in->vec)
		return 0;
	const Operand *a = &in->o[1];
	return a->kind == OPK_IMM || (a->kind == OPK_SYM && m->syms[a->reg].kind == SYM_VAR);
}

/* any cvta of a register, unguarded: a constant's converts a constant */
static int any_cvta(const Ins *in)
{
	return in->op == OP_CVTA && in->guard < 0 && in->nd == 1 && in->o[0].kind == OPK_REG &&
	       in->o[1].kind == OPK_REG;
}

/* 1 if operand o of in is a global variable's address by name, [gv+k],
   which SASS can only read through a register pair */
static int global_by_name(const Module *m, const Ins *in, const Operand *o)
{
	if (o->kind != OPK_ADDR || !(o->flags & OPDF_SYMBASE) || m->address_size != 64) return 0;
	if (in->op != OP_LD && in->op != OP_ST && in->op != OP_ATOM && in->op != OP_RED) return 0;
	const Sym *s = &m->syms[o->reg];
	return s->kind == SYM_VAR && s->space == SP_GLOBAL &&
	       (in->space == SP_GLOBAL || in->space == SP_NONE);
}

static int32_t new_reg(Remat *x, PtxType t)
{
	return edit_new_reg(x->m, x->f, &x->cap, t);
}

static int32_t map_reg(void *ctx, int32_t reg, int is_def)
{
	const Remat *x = ctx;
	return !is_def && x->map[reg] >= 0 ? x->map[reg] : reg;
}

/* the parameter values and constants of f (x->src, x->via) and its
   accesses to global variables by name; how many */
static int32_t find(Remat *x, const Func *f)
{
	int entry = (f->attr & ATTR_ENTRY) != 0;
	int32_t *ndef = xcalloc((size_t)f->nreg + 1, sizeof(int32_t)), buf[MAXOPR], n = 0;
	for (int32_t i = 0; i < f->nins; i++) {
		int d = live_defs(f, &f->ins[i], buf, MAXOPR);
		for (int q = 0; q < d && d <= MAXOPR; q++) ndef[buf[q]]++;
	}
	for (int32_t i = 0; i < f->nins; i++) {
		const Ins *in = &f->ins[i];
		for (int q = in->nd; q < in->nd + in->ns; q++) n += global_by_name(x->m, in, &in->o[q]);
		if (((entry && kparam_load(f, in)) || const_mov(x->m, in)) && ndef[in->o[0].reg] == 1)
			x->src[in->o[0].reg] = i, n++;
	}
	for (int32_t i = 0; i < f->nins; i++) {
		const Ins *in = &f->ins[i];
		int32_t s = in->nd == 1 && in->o[0].kind == OPK_REG && in->o[1].kind == OPK_REG
		            ? x->src[in->o[1].reg] : -1;
		if (s >= 0 && f->ins[s].o[0].reg != in->o[1].reg) s = -1;   /* one cvta, no chain */
		int cv = s >= 0 && (f->ins[s].op == OP_MOV ? any_cvta(in) : to_global(in));
		if (cv && ndef[in->o[0].reg] == 1) {
			x->src[in->o[0].reg] = x->src[in->o[1].reg];
			x->via[in->o[0].reg] = i, n++;
		}
	}
	free(ndef);
	return n;
}

/* the copies instruction in needs that its block has not made yet, emitted
   before it; its reads renamed to the block's copies */
static int32_t copies(Remat *x, Edit *e, Ins *in)
{
	int32_t buf[MAXOPR], n = 0;
	int u = live_uses(x->f, in, buf, MAXOPR);
	for (int q = 0; q < u && u <= MAXOPR; q++) {
		int32_t g = buf[q];
		if (x->src[g] < 0 || x->map[g] >= 0) continue;
		x->touch[x->ntouch++] = g;
		Ins ld = x->f->ins[x->src[g]];
		int32_t v = x->via[g];
		ld.o[0].reg = new_reg(x, (PtxType)x->f->regtype[ld.o[0].reg]);
		edit_emit(e, &ld);
		if (v >= 0) {
			Ins cv = x->f->ins[v];
			cv.o[1].reg = ld.o[0].reg;
			cv.o[0].reg = new_reg(x, (PtxType)x->f->regtype[cv.o[0].reg]);
			edit_emit(e, &cv);
			x->map[g] = cv.o[0].reg;
		} else {
			x->map[g] = ld.o[0].reg;
		}
		n++;
	}
	edit_rename(x->f, in, map_reg, x);
	for (int q = in->nd; q < in->nd + in->ns; q++) {   /* [gv+k] -> [%rdN+k] */
		Operand *o = &in->o[q];
		if (!global_by_name(x->m, in, o)) continue;
		if (x->gmap[o->reg] < 0) {
			Ins mv = {0};
			mv.op = OP_MOV, mv.type = PT_U64, mv.guard = -1, mv.nd = 1, mv.ns = 1;
			mv.line = in->line, mv.col = in->col;
			mv.o[0].kind = OPK_REG, mv.o[0].reg = new_reg(x, PT_U64);
			mv.o[1].kind = OPK_SYM, mv.o[1].reg = o->reg;
			edit_emit(e, &mv);
			x->gmap[o->reg] = mv.o[0].reg;
			x->gtouch[x->ngtouch++] = o->reg;
			n++;
		}
		o->flags &= (uint8_t)~OPDF_SYMBASE;
		o->reg = x->gmap[o->reg];
	}
	return n;
}

int32_t remat_func(Module *m, Func *f)
{
	if (!f->nins) return 0;
	for (int32_t i = 0; i < f->nrdecl; i++)
		if (f->rdecl[i].vec) return 0;     /* vector registers stay as declared */
	Remat x = {.m = m, .f = f, .cap = f->nreg, .nreg0 = f->nreg};
	size_t cap = (size_t)f->nreg + 1;
	x.src = xmalloc(sizeof(int32_t) * cap);
	x.via = xmalloc(sizeof(int32_t) * cap);
	x.map = xmalloc(sizeof(int32_t) * cap);
	for (size_t g = 0; g < cap; g++) x.src[g] = x.via[g] = x.map[g] = -1;
	x.touch = xmalloc(sizeof(int32_t) * cap);
	x.gmap = xmalloc(sizeof(int32_t) * ((size_t)m->nsym + 1));
	x.gtouch = xmalloc(sizeof(int32_t) * ((size_t)m->nsym + 1));
	for (int32_t k = 0; k < m->nsym; k++) x.gmap[k] = -1;
	Cfg *c = cfg_build(f);
	int32_t made = 0;
	if (find(&x, f)) {
		Edit e;
		edit_begin(&e, m, f);
		int32_t nold = f->nins;
		for (int32_t j = 0; j < nold; j++) {
			Ins in = f->ins[j];
			edit_mark(&e, j);
			if (j && c->block_of[j] != c->block_of[j - 1]) {
				for (int32_t k = 0; k < x.ntouch; k++) x.map[x.touch[k]] = -1;
				for (int32_t k = 0; k < x.ngtouch; k++) x.gmap[x.gtouch[k]] = -1;
				x.ntouch = x.ngtouch = 0;
			}
			int32_t d = in.nd == 1 && in.o[0].kind == OPK_REG ? in.o[0].reg : -1;
			if (d >= 0 && d < x.nreg0 && x.src[d] >= 0 && (x.src[d] == j || x.via[d] == j))
				continue;                 /* an original: every reader has its copy */
			made += copies(&x, &e, &in);
			edit_keep(&e, &in);
		}
		edit_end(&e);
	}
	cfg_free(c);
	free(x.src), free(x.via), free(x.map), free(x.touch), free(x.gmap), free(x.gtouch);
	return made;
}
