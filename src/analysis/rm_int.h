/*
 * rm_int.h -- what RegMutex's placement (rm_plan.c) and compaction
 * (rm_home.c) share: the plan of one kernel at one |Bs|.
 *
 * Program points: node 2i is just before instruction i, node 2i + 1 just
 * after it.  A web is one value of an extended register: the points where
 * it is live within one run of released instructions of one block, joined
 * along control flow and split at its unguarded writes; a group is the
 * same across acquired instructions and block boundaries.
 */
#ifndef RFSIM_ANALYSIS_RM_INT_H
#define RFSIM_ANALYSIS_RM_INT_H

#include <stdint.h>

#include "analysis/cfg.h"
#include "analysis/live.h"
#include "analysis/ra_int.h"

enum { RM_MAXSLOT = 256, RM_SW = RM_MAXSLOT / 64 };

typedef struct Plan {
	const Func *f;
	Cfg *c;
	Live *lt;                /* per-thread liveness */
	int32_t bs, nb;
	const int32_t *need;     /* regmutex_need */
	uint8_t *M;              /* mode of each instruction: 1 acquired */
	uint8_t *bar;            /* block holds a CTA barrier */
	uint8_t *uni;            /* divergent branch whose region holds a CTA barrier: taken
	                            as uniform, never closed */
	int whole;               /* fallback: every divergent region with an acquired point is
	                            acquired whole, and so is its reconvergence point's head */
	uint8_t *ext;            /* nreg: extended register (a slot at or above bs) */
	const char *why;         /* why the plan failed */
	/* rm_home.c */
	int32_t nx;              /* extended registers */
	int32_t *xid;            /* nreg: index among them, -1 */
	int32_t *web;            /* nx * 2 * nins: web of each point, -1 if none */
	int32_t nweb;
	int32_t *home;           /* nweb: home slot below bs, -1 if none needed */
	int32_t *wreg;           /* nweb: its register */
	int32_t *wgrp;           /* nweb: its group (the web across blocks) */
} Plan;

static inline int rm_wid(const Func *f, int32_t r)
{
	return ra_reg_width((PtxType)f->regtype[r]);
}

/* build the webs of the extended registers for the current modes */
void rm_webs(Plan *p);
/* give every web used at a released point a home; 0 if one found none, after
   turning the released instructions where it lives acquired */
int rm_homes(Plan *p);
/* home slot of register r's value at point node, or -1 (keep r) */
int32_t rm_home_at(const Plan *p, int32_t r, int32_t node);
void rm_webs_free(Plan *p);

typedef struct RmSave {      /* a function as it was before rewrite (rm_plan.c) */
	Ins *ins;        int32_t nins;
	Label *labels;   int32_t nlabel;
	Ins *in;                 /* copies of what is changed in place */
	Label *lab;
	Pragma *bp;
	Operand *vop;
	int32_t *scope;          /* the register declarations', then the locals' */
} RmSave;

void rm_save(const Module *m, const Func *f, RmSave *s);
void rm_undo(Module *m, Func *f, const RmSave *s);     /* f as saved */
void rm_save_free(RmSave *s);

#endif
