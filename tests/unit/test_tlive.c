/*
 * test_tlive.c -- the liveness facts the register-file models read
 * (tlive.c: TProg.ann last-use and dead-value bits, degree of use, live
 * sets), on hand-written kernels whose answers are worked out below.
 */
#include <stdlib.h>

#include "analysis/schedule.h"
#include "base/base.h"
#include "sim/gpu.h"
#include "func/prog.h"
#include "timing/tins.h"
#include "unit.h"

typedef struct T { Gpu *g; Program *p; TProg tp; const Image *img; } T;

static int open_ptx(T *t, const char *ptx)
{
	Config c;
	config_defaults(&c);
	c.compiler_schedule = SCHED_NONE;   /* the checks name instructions by nvcc's index */
	t->g = gpu_new(&c);
	t->p = NULL;
	if (gpu_load_ptx(t->g, ptx, strlen(ptx), "tlive.ptx", &t->p)) {
		gpu_free(t->g);
		return 0;
	}
	t->img = t->p->img[0];
	tprog_build(&t->tp, t->img);
	return 1;
}

static void close_ptx(T *t)
{
	tprog_free(&t->tp);
	gpu_unload(t->g, t->p);
	gpu_free(t->g);
}

static int32_t pc_at(const T *t, uint32_t line)
{
	for (int32_t pc = 0; pc < t->img->ncode; pc++)
		if (t->img->code[pc].line == line && !(t->img->code[pc].flags & DF_INTERNAL)) return pc;
	return -1;
}

/* annotation of read k / write k of the instruction on PTX line `line` */
static int rd_ann(const T *t, uint32_t line, int k)
{
	int32_t pc = pc_at(t, line);
	if (pc < 0 || k >= t->tp.ins[pc].nrd_reg) return -1;
	return t->tp.ann[t->tp.ins[pc].regs + (uint32_t)k] & (TA_LAST | TA_DEAD);
}

static int wr_uses(const T *t, uint32_t line, int k, int *ann)
{
	int32_t pc = pc_at(t, line);
	if (pc < 0 || k >= t->tp.ins[pc].nwr_reg) return -1;
	uint32_t at = t->tp.ins[pc].regs + t->tp.ins[pc].nrd + (uint32_t)k;
	*ann = t->tp.ann[at] & (TA_LAST | TA_DEAD);
	return t->tp.uses[at];
}

#define HEAD ".version 7.0\n.target sm_70\n.address_size 64\n"                 /* 1-3 */ \
             ".visible .entry k()\n{\n"                                       /* 4-5 */ \
             ".reg .u32 %r<8>;\n.reg .pred %p<2>;\n"                           /* 6-7 */ \
             ".shared .align 4 .b8 sh[64];\n"                                  /* 8 */

TEST(tlive_if_else_is_warp_level)
{
	static const char ptx[] = HEAD
		"mov.u32 %r1, %tid.x;\n"              /* 9: r1 read twice below */
		"add.u32 %r2, %r1, 1;\n"              /* 10: r2 read once on each side */
		"setp.lt.u32 %p1, %r1, 16;\n"         /* 11: last read of r1 */
		"@%p1 bra ELSE;\n"                    /* 12: divergent */
		"add.u32 %r3, %r2, 5;\n"              /* 13: r2 dead per thread, live per warp */
		"st.shared.u32 [sh], %r3;\n"          /* 14: last read of r3 */
		"bra.uni JOIN;\n"                     /* 15 */
		"ELSE:\n"                             /* 16 */
		"add.u32 %r3, %r2, 9;\n"              /* 17: same */
		"st.shared.u32 [sh+4], %r3;\n"        /* 18 */
		"JOIN:\n"                             /* 19 */
		"mov.u32 %r4, 7;\n"                   /* 20: never read */
		"ret;\n}\n";                          /* 21 */
	T t;
	if (!open_ptx(&t, ptx)) {
		unit_fail(__FILE__, __LINE__, "load: %s", err_msg());
		return;
	}
	int a = 0;
	CHECK_EQ(wr_uses(&t, 9, 0, &a), 2);
	CHECK_EQ(a, 0);
	CHECK_EQ(rd_ann(&t, 10, 0), 0);                 /* r1 read again at 11 */
	CHECK_EQ(rd_ann(&t, 11, 0), TA_LAST);
	CHECK_EQ(wr_uses(&t, 10, 0, &a), 1);            /* 1 on either path */
	CHECK_EQ(rd_ann(&t, 13, 0), 0);                 /* the other side still needs r2 */
	CHECK_EQ(rd_ann(&t, 17, 0), 0);
	CHECK_EQ(rd_ann(&t, 14, 1) & TA_LAST, TA_LAST); /* r3: the value stored */
	CHECK_EQ(wr_uses(&t, 20, 0, &a), 0);
	CHECK_EQ(a, TA_DEAD);
	/* live sets: r2 is live into both sides, not at the join */
	int32_t s2 = t.img->code[pc_at(&t, 10)].d[0];
	CHECK(tprog_live(&t.tp, pc_at(&t, 13), s2));
	CHECK(tprog_live(&t.tp, pc_at(&t, 17), s2));
	CHECK(!tprog_live(&t.tp, pc_at(&t, 20), s2));
	close_ptx(&t);
}

TEST(tlive_loop_counts_are_unknown)
{
	static const char ptx[] = HEAD
		"mov.u32 %r1, %tid.x;\n"              /* 9: read every iteration: unknown */
		"mov.u32 %r2, 0;\n"                   /* 10 */
		"LOOP:\n"                             /* 11 */
		"add.u32 %r2, %r2, %r1;\n"            /* 12: r2 read once, then overwritten */
		"setp.lt.u32 %p1, %r2, 100;\n"        /* 13 */
		"@%p1 bra LOOP;\n"                    /* 14 */
		"st.shared.u32 [sh], %r2;\n"          /* 15 */
		"ret;\n}\n";
	T t;
	if (!open_ptx(&t, ptx)) {
		unit_fail(__FILE__, __LINE__, "load: %s", err_msg());
		return;
	}
	int a = 0;
	CHECK_EQ(wr_uses(&t, 9, 0, &a), TUSES_UNKNOWN);
	CHECK_EQ(wr_uses(&t, 10, 0, &a), 1);            /* read once by line 12 */
	CHECK_EQ(wr_uses(&t, 12, 0, &a), 2);            /* setp, then the store or line 12 */
	CHECK_EQ(rd_ann(&t, 12, 0) & TA_LAST, TA_LAST); /* r2: overwritten by the add */
	CHECK_EQ(rd_ann(&t, 12, 1) & TA_LAST, 0);       /* r1: live around the loop */
	close_ptx(&t);
}

/* raw annotation bits of read (w = 0) or write (w = 1) k on PTX line `line` */
static int ann_raw(const T *t, uint32_t line, int w, int k)
{
	int32_t pc = pc_at(t, line);
	if (pc < 0) return -1;
	const TIns *ti = &t->tp.ins[pc];
	if (k >= (w ? ti->nwr_reg : ti->nrd_reg)) return -1;
	return t->tp.ann[ti->regs + (uint32_t)(w ? ti->nrd : 0) + (uint32_t)k];
}

TEST(tlive_not_read_before_the_next_long_latency_stall)
{
	static const char ptx[] =
		".version 7.0\n.target sm_70\n.address_size 64\n"   /* 1-3 */
		".visible .entry k(.param .u64 out)\n{\n"           /* 4-5 */
		".reg .u32 %r<8>;\n.reg .u64 %rd<4>;\n"             /* 6-7 */
		"ld.param.u64 %rd1, [out];\n"         /* 8: rd1 read by line 11: before the stall */
		"mov.u32 %r1, %tid.x;\n"              /* 9: r1 read by line 10 */
		"add.u32 %r4, %r1, 1;\n"              /* 10: r1 next read at line 13, the stall */
		"ld.global.u32 %r2, [%rd1];\n"        /* 11: long latency; first read at line 13 */
		"add.u32 %r5, %r4, 2;\n"              /* 12: r5 read only after the stall */
		"add.u32 %r3, %r2, %r1;\n"            /* 13: the stall point (reads r2) */
		"add.u32 %r6, %r3, %r5;\n"            /* 14: no stall after: read before */
		"st.global.u32 [%rd1+4], %r6;\n"      /* 15 */
		"ret;\n}\n";
	T t;
	if (!open_ptx(&t, ptx)) {
		unit_fail(__FILE__, __LINE__, "load: %s", err_msg());
		return;
	}
	CHECK_EQ(ann_raw(&t, 8, 1, 0) & TA_NRBL, 0);
	CHECK_EQ(ann_raw(&t, 9, 1, 0) & TA_NRBL, 0);
	CHECK_EQ(ann_raw(&t, 10, 0, 0) & TA_NRBL, TA_NRBL);   /* r1 */
	CHECK_EQ(ann_raw(&t, 10, 1, 0) & TA_NRBL, 0);         /* r4, read at line 12 */
	CHECK_EQ(ann_raw(&t, 11, 0, 0) & TA_NRBL, TA_NRBL);   /* rd1: next read at 15, after */
	CHECK_EQ(ann_raw(&t, 11, 0, 0) & TA_LAST, 0);
	CHECK_EQ(ann_raw(&t, 11, 1, 0) & TA_NRBL, TA_NRBL);   /* r2 */
	CHECK_EQ(ann_raw(&t, 12, 1, 0) & TA_NRBL, TA_NRBL);   /* r5 */
	CHECK_EQ(ann_raw(&t, 13, 1, 0) & TA_NRBL, 0);         /* r3, read at line 14 */
	CHECK_EQ(ann_raw(&t, 14, 1, 0) & TA_NRBL, 0);         /* r6, read at line 15 */
	CHECK_EQ(ann_raw(&t, 14, 0, 0) & TA_NRBL, TA_NRBL);   /* last reads */
	for (uint32_t line = 8; line <= 15; line++)           /* the only marked consumer */
		CHECK_EQ(t.tp.llstall[pc_at(&t, line)], line == 13);
	close_ptx(&t);
}
