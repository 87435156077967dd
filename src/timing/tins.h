/*
 * tins.h -- the timing model's view of the code it runs: one TIns per
 * decoded instruction, and the compiler's liveness facts about each
 * register access (TProg).
 *
 * TIns is the timing view of one decoded instruction (DIns): its unit,
 * what it is (load, store, branch, barrier...) and the registers it reads
 * and writes, expanded to 32-bit slots (a 64-bit operand is two reads)
 * and de-duplicated.  tins.c builds one array per launched kernel, once.
 */
#ifndef RFSIM_TIMING_TINS_H
#define RFSIM_TIMING_TINS_H

#include <stdint.h>

#include "func/decode.h"

enum {                       /* execution units (TIns.unit) */
	TU_SP, TU_SFU, TU_DP, TU_LDST, TU_BR, TU_TC, NTU,
	TU_NONE = NTU            /* issue-only: completes at issue (bar, exit, membar) */
};

enum {                       /* TIns.flags */
	TF_LOAD    = 1 << 0,     /* memory instruction with destinations */
	TF_STORE   = 1 << 1,     /* writes memory */
	TF_ATOMIC  = 1 << 2,     /* read-modify-write */
	TF_MEM     = 1 << 3,     /* goes through the load/store unit */
	TF_BRANCH  = 1 << 4,     /* may redirect fetch: the warp waits until it resolves */
	TF_BARRIER = 1 << 5,     /* bar.sync and friends */
	TF_NOREGS  = 1 << 6,     /* its registers are unknown (an internal ret): issue with an
	                            empty scoreboard */
	TF_LONGLAT = 1 << 7,     /* a load whose result is long-latency (global, local, const,
	                            generic memory: not shared memory; Gebhart 3.3) */
};

enum {                       /* TProg.ann: the compiler's facts about one register access */
	TA_LAST = 1 << 0,        /* read: no later read of this value (warp-level liveness) */
	TA_DEAD = 1 << 1,        /* write: the value written is never read */
	TA_NRBL = 1 << 2,        /* read or write: the value is not read (again) before the
	                            warp's next long-latency stall (tlive.c; Gebhart 5.3) */
};
enum { TUSES_UNKNOWN = 255 };/* TProg.uses: degree of use not known statically */

enum {                       /* TIns.pseudo: compiler pseudo-ops for the register file */
	TP_NONE,
	TP_PREFETCH,             /* rfsim.prefetch (LTRF): TIns.arg = its register set */
	TP_ACQUIRE,              /* rfsim.acquire (RegMutex) */
	TP_RELEASE,              /* rfsim.release */
};

enum {                       /* TIns.cpa */
	CPA_NONE,
	CPA_COPY,                /* cp.async: a global read and a shared write, not waited for */
	CPA_COPY_L2,             /* cp.async.cg: the same, the read bypassing L1 */
	CPA_COMMIT,              /* cp.async.commit_group */
	CPA_WAIT,                /* cp.async.wait_group TIns.arg: may wait for copies */
	CPA_WAITALL,             /* cp.async.wait_all */
	CPA_MBAR,                /* cp.async.mbarrier.arrive: issues once the copies are done */
};

/* registers in TIns lists: >= 0 a register slot, < 0 predicate -(v+1),
 * both relative to the warp's current frame (Warp.rbase / Warp.pbase) */
typedef struct TIns {
	uint8_t unit;            /* TU_* */
	uint8_t flags;           /* TF_* */
	uint8_t nrd;             /* reads: register slots first, then predicates */
	uint8_t nrd_reg;         /* of which register slots (main register file reads) */
	uint8_t nwr;             /* writes: register slots first, then predicates */
	uint8_t nwr_reg;         /* of which register slots */
	uint8_t pseudo;          /* TP_*: a compiler pseudo-op for the register-file model */
	uint8_t cpa;             /* CPA_*: cp.async and its group instructions */
	uint8_t ii_shift;        /* the unit is busy ii >> ii_shift cycles (at least 1): mma.sync
	                            shapes with 1/2, 1/4, ... of m16n16k16's multiply-adds */
	uint8_t tex;             /* tex, tld4: tex.lat cycles of filtering follow the texels */
	uint8_t poll;            /* a load that polls for other warps (.volatile, .acquire, .relaxed,
	                            mbarrier waits): a warp waiting for its result waits as for
	                            memory, so the two-level scheduler deactivates it and the
	                            warps it waits for (a spin in shared memory) get to run */
	uint32_t regs;           /* offset of reads then writes in TProg.regs */
	int32_t arg;             /* pseudo-op operand (DIns.imm): PREFETCH's register set;
	                            cp.async.wait_group's N */
} TIns;

typedef struct TProg {       /* the timing view of one Image */
	TIns *ins;               /* one per Image.code pc */
	int32_t *regs;           /* register lists */
	int32_t nslots;          /* register slots per warp (Image.max_slots) */
	int32_t npreds;          /* predicates per warp */
	/* liveness of the executed code (tlive.c), warp level: a register of a
	   diverged warp stays live until the reconvergence point */
	uint8_t *ann;            /* per TProg.regs entry: TA_* */
	uint8_t *uses;           /* per write entry of TProg.regs: reads of the value
	                            written (degree of use), TUSES_UNKNOWN when it depends
	                            on the path; 0 for read entries */
	uint64_t *live;          /* per pc: slots live just before it, lwords words */
	int32_t lwords;
	int32_t rm_bs, rm_es;    /* RegMutex base/extended set sizes (Image.rm_*; 0: none) */
	uint8_t *llstall;        /* per pc: 1 if it may read a long-latency load's result
	                            not read since (tlive.c; Gebhart 3.2's marked consumers) */
} TProg;

/* slot (frame-relative) live just before pc, at warp level */
static inline int tprog_live(const TProg *tp, int32_t pc, int32_t slot)
{
	return (int)(tp->live[(size_t)pc * (size_t)tp->lwords + (size_t)(slot >> 6)] >> (slot & 63) & 1);
}

void tprog_build(TProg *tp, const Image *img);
void tprog_annotate(TProg *tp, const Image *img);   /* ann, uses, live (tlive.c) */
void tprog_free(TProg *tp);

#endif
