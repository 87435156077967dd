/*
 * sm.h -- one streaming multiprocessor of the timing model, shared by the
 * files that model its parts:
 *
 *   sm.c          the SM's cycle (stages in reverse pipeline order, as in
 *                 Multi2Sim: writeback, operand collection and dispatch,
 *                 issue), its event queue, CTAs arriving and leaving
 *   sched.c       warp schedulers (LRR, GTO, two-level) and issue
 *   scoreboard.c  pending register writes per warp
 *   collector.c   operand collector units reading through the RF model
 *   pipe.c        execution units and the load/store path into mem/
 *
 * A warp slot (TWarp) that cannot issue for a reason only an event can
 * end -- a pending register, a barrier, a branch in flight -- is parked:
 * its bit in its scheduler's `ready` mask is cleared and its `wait` says
 * why, and the event that ends the wait sets the bit again.  Schedulers
 * look only at ready bits, and an SM with no ready warp, no busy collector
 * and no event due sleeps until its next event: idle cycles cost nothing
 * and are skipped (timing.c).
 */
#ifndef RFSIM_TIMING_SM_H
#define RFSIM_TIMING_SM_H

#include <stdint.h>

#include "mem/mem.h"
#include "timing/events.h"
#include "timing/rf/rf.h"
#include "timing/tins.h"
#include "timing/tstats.h"
#include "func/warp.h"

#define SM_NEVER INT64_MAX
#define SCHED_MAXW 64        /* warps per scheduler (bits of a mask) */
#define CU_MAX 64            /* collector units per SM */
#define CPA_RING 8           /* cp.async groups counted apart per warp (async.c) */

enum {                       /* why a warp slot is parked (TWarp.wait) */
	WAIT_NONE,               /* ready: in its scheduler's ready mask */
	WAIT_SB,                 /* next instruction needs a pending register (ALU result) */
	WAIT_MEM,                /* ... a pending register a load will write */
	WAIT_ASYNC,              /* at cp.async.wait_group/wait_all: its copies (async.c) */
	WAIT_BR,                 /* a branch of it is in flight */
	WAIT_BAR,                /* at a barrier */
	WAIT_DONE,               /* exited; draining its last instructions */
	WAIT_FREE,               /* no warp in the slot */
	NWAIT
};

enum {                       /* why a scheduler slot issued nothing (Sched.reason) */
	ST_IDLE,                 /* no live warp */
	ST_RF,                   /* a ready warp was refused by the RF model or collectors */
	ST_MEM,                  /* memory pipeline full, or waiting on a load */
	ST_SB,                   /* waiting on a non-memory result */
	ST_BAR,                  /* waiting at a barrier */
	ST_MEMPIPE,              /* a ready warp was refused by the memory pipeline (stall_mem) */
	ST_RFMODEL,              /* ... by the RF model alone: its registers are not ready
	                            (stall_rf; GPGPU-Sim idle, not a pipeline stall) */
	ST_OTHER,                /* branch in flight, two-level pending, draining */
};

enum {                       /* Sched.refused */
	REF_RF  = 1,             /* by the RF model (may change its mind any cycle) */
	REF_CU  = 2,             /* no free arithmetic collector (none frees before cu_wake) */
	REF_MEM = 4,             /* no free memory collector */
};

typedef struct TWarp {
	Warp *fw;                /* the functional warp */
	int32_t cta;             /* CTA slot, -1 when free */
	int32_t npc;             /* pc of its next instruction (peeked), -1 = none */
	uint64_t *sb;            /* pending register writes (scoreboard.c) */
	uint64_t *lsb;           /* ... of which by long-latency loads */
	int32_t nsb;             /* bits set in sb */
	int32_t inflight;        /* issued, not written back */
	int32_t wait_bit;        /* WAIT_SB, WAIT_MEM: the register waited for, -1 = any */
	uint8_t wait;            /* WAIT_* */
	uint8_t sched;           /* its scheduler */
	uint8_t lidx;            /* its index inside the scheduler */
	uint8_t active;          /* in the scheduler's active set */
	uint8_t ll_deact;        /* statistics: deactivated waiting for wait_bit's load */
	int32_t susp_pc;         /* two-level, sched.suspend=marked: suspended before this pc */
	uint64_t age;            /* launch order (GTO's "oldest") */
	uint32_t cpa_open;       /* cp.async groups committed: the id of the open group */
	uint32_t cpa_oldest;     /* oldest group that may have copies in flight */
	uint16_t cpa_cnt[CPA_RING];   /* copies in flight per group id mod CPA_RING */
	int32_t ll_pc;           /* livelock.c: pc of the state snapshot, -1 = none */
	uint8_t ll_repeat;       /* ... the warp came back to that state */
	uint8_t ll_tries;        /* ... returns to ll_pc compared with it (LL_TRIES at most) */
	uint64_t ll_hash;        /* ... the snapshot's state hash */
	uint64_t ll_insts;       /* ... instructions issued before it */
} TWarp;

typedef struct Sched {        /* hot fields first: one cache line */
	uint64_t ready;          /* local warps not parked */
	uint64_t live;           /* local warps holding a warp that has not exited */
	uint64_t active;         /* active set (all live warps unless two-level) */
	uint64_t nx_mem, nx_alu; /* warps whose next instruction needs a memory / another
	                            collector (a full set of them rules these out at once) */
	int32_t nactive;
	int32_t last;            /* local index issued last (greedy, round robin) */
	uint8_t reason;          /* stall reason of the last cycle it could not issue */
	uint8_t refused;         /* this cycle, REF_* bits: why ready warps were refused
	                            (one byte, written and read as one) */
	uint8_t pad_;
	uint8_t issued;          /* this cycle: it issued */
	uint8_t dirty;           /* a warp changed state since it last looked */
	uint8_t stuck;           /* its last look issued nothing and only full collectors
	                            refused it: until a warp changes state or a collector
	                            frees (cu_epoch), looking again finds the same */
	uint32_t epoch;          /* cu_epoch at its last look */
	int32_t nwait[NWAIT];    /* parked warps per reason */
	int32_t nw;              /* warp slots it owns */
	int32_t slot[SCHED_MAXW];/* local index -> SM warp slot */
	uint64_t stamp;          /* two-level: deactivations so far */
	uint64_t pend_stamp[SCHED_MAXW];   /* two-level: when each warp left the active set */
} Sched;


typedef struct Tracker {     /* a load waiting for its lines */
	int32_t left;            /* lines (plus a guard while being sent) */
	int64_t t;               /* latest answer so far */
	int64_t extra;           /* cycles from the last answer to the writeback (tex.lat) */
	int64_t t0;              /* cycle the load/store unit took it ... */
	int gload;               /* ... if a global load (TStats.gload_*) */
	Event ev;                /* its writeback */
	int32_t next_free;
} Tracker;

typedef struct CU {          /* an operand collector unit */
	int32_t warp, pc, rbase;
	uint64_t pending;        /* register reads not granted yet (bit i = read i) */
	int64_t ready;           /* cycle all granted reads have arrived */
	int64_t extra;           /* extra cycles in its unit (a divergent branch) */
	Event ev;                /* its writeback, prepared at issue */
	MemOp *mop;              /* memory collectors: the access, built at issue */
} CU;

typedef struct CtaSlot {
	Cta c;                   /* the functional CTA (its warps are SM warp slots) */
	int32_t warp0;           /* first warp slot */
	int32_t running;         /* warps not finished (exited and drained) */
	int used;
	int alloc;               /* its functional warps have their buffers */
	int held;                /* finished, kept for its cluster (its shared memory) */
	Cluster own;             /* the cluster of a launch without clusters: this CTA */
} CtaSlot;

typedef struct Unit { int64_t free; } Unit;   /* one execution unit instance */

typedef struct Sm {           /* fields used every cycle first */
	int64_t now;             /* cycle being simulated */
	int64_t next;            /* next cycle it must be stepped (SM_NEVER: asleep) */
	int64_t acct;            /* stall slots accounted up to (excluding) this cycle */
	uint64_t cu_busy;        /* bit i: collector unit i holds an instruction */
	uint32_t cu_epoch;       /* collector units freed so far */
	int64_t cu_wake;         /* earliest cycle a busy unit can make progress */
	uint64_t cu_mask_alu, cu_mask_mem;  /* the units of each kind */
	int32_t ncu_ord;         /* busy units ... */
	int8_t cu_ord[CU_MAX];   /* ... oldest instruction first */
	int64_t cu_wk[CU_MAX];   /* per unit: cycle it can next make progress (here, not in
	                            CU: the stage's sweep reads one line, not one per unit) */
	int32_t ncu, ncu_mem;    /* units: [0, ncu) non-memory, [ncu, ncu + ncu_mem) memory */
	int32_t nsched;
	int32_t resident;        /* live warps (occupancy) */
	int32_t nactive_max;
	int32_t issue_per_warp;   /* sched.issue_per_warp */
	int policy, inner;
	int suspend_marked;      /* sched.suspend = marked */
	Sched *sched;
	TWarp *w;
	const TProg *tp;
	const DIns *code;
	const RfModel *rf;
	void *rfm;
	int64_t rf_tick;         /* next cycle the model wants a tick */
	struct Timing *tg;       /* the GPU it belongs to */
	int64_t usoon[NTU];      /* per unit class: earliest cycle one of them is free */
	EventQ evq;
	TStats st;
	/* warps and CTAs */
	int32_t id;
	int32_t nwarps;          /* warp slots */
	const Config *cfg;
	const struct Launch *L;
	Warp *fw;                /* functional warps of its slots */
	uint8_t *shared;         /* shared memory of its CTA slots */
	int32_t ncta;            /* CTA slots */
	int32_t cta_free;        /* free CTA slots */
	CtaSlot *cta;
	uint64_t *sbbits;        /* scoreboard storage */
	int32_t sbwords;         /* words per warp per bitmap */
	/* execution units */
	int32_t nunit[NTU];
	int64_t lat[NTU], ii[NTU];
	int64_t diverge;         /* extra cycles of a divergent branch */
	/* memory */
	Tracker *trk; int32_t ntrk, trk_free;
	int64_t smem_lat, smem_cluster_lat;
	int64_t tex_lat;         /* tex.lat */
	CoalesceCfg coal;
	SmCache l1, cc;
	StepTrace trace;         /* what the warp being issued did */
	/* operand collectors */
	CU cu[CU_MAX];
	Unit unit[NTU][64];
} Sm;

typedef struct Timing {      /* the GPU: its SMs, memory and CTA dispatcher (timing.c) */
	const Config *cfg;
	const struct Launch *L;
	TProg tp;
	Sm *sm; int32_t nsm;
	MemSys *ms;
	uint64_t ncta;           /* CTAs in the grid */
	uint64_t next_cta;       /* next CTA to dispatch (linear id) */
	uint64_t done_cta;       /* CTAs finished */
	int32_t warps_per_cta;
	int32_t ctas_per_sm;     /* resident CTAs per SM (occupancy, model's say) */
	int want_cta;            /* an SM freed a CTA slot this cycle */
	int fault;               /* the functional core faulted */
	int64_t now;
	int64_t last_issue;      /* cycle of the last issue anywhere (watchdog) */
	uint64_t age;            /* warps launched (their age for GTO) */
	int64_t issued, budget;  /* warp instructions issued / allowed */
	uint64_t warp_insts, thread_insts;   /* of finished CTAs (KernelStats) */
	Warp *fw;                /* functional warps of every SM's slots */
	uint8_t *shared;         /* shared memory of every CTA slot */
	uint32_t shared_bytes;   /* per CTA */
	void *rf_gpu;            /* the RF models' state shared by the SMs (RfSm.gpu) */
	int64_t ll_next;         /* livelock.c: cycle of the next check */
	int ll_armed;            /* ... warps hold snapshots taken with no CTA finishing */
	uint64_t ll_writes, ll_done;   /* ... Warp.nwrites summed and done_cta at the last check */
	Cluster *clpool;         /* thread-block clusters (Launch.csize > 1): resident ones */
	int32_t *clfree, nclfree;
	uint64_t next_cluster, ncluster;
	int32_t cl_rr;           /* SM the next cluster's search starts at */
	int woke;                /* a cluster barrier woke warps of another SM this cycle */
} Timing;

/* sm.c */
void sm_init(Sm *s, struct Timing *tg, int32_t id, int32_t ncta, int32_t warps_per_cta);
void sm_finish(Sm *s, int64_t end);                /* account up to end, fold RF counters */
void sm_fini(Sm *s);
void sm_cycle(Sm *s, int64_t now);                 /* one cycle; sets s->next */
void sm_launch_cta(Sm *s, int32_t slot, uint64_t cta_id, int64_t t);  /* warps issue from t */
void sm_cluster_wake(Cta *c);                      /* Cluster.wake: c's warps may go on */
void sm_push(Sm *s, const Event *e);               /* queue an event */
void sm_unpark(Sm *s, TWarp *w);
void sm_park(Sm *s, TWarp *w, int why);
void sm_account(Sm *s, int64_t upto);              /* stall slots up to cycle upto */
void sm_mem_done(void *ctx, int32_t tracker, int64_t t);
void sm_warp_finished(Sm *s, TWarp *w);            /* exited and drained */
int32_t sm_peek(const Sm *s, const Warp *fw);       /* pc of the next instruction to issue */
void sm_release_barriers(Sm *s, CtaSlot *cs);
int sm_dump(const Sm *s, int lines);               /* warps' states into err_append; lines used */

/* livelock.c */
int livelock_check(Timing *tg);                    /* 1: the warps repeat a state for ever */
void livelock_seen(const Sm *s, TWarp *w);          /* w is about to issue at its ll_pc */

/* sched.c */
void sched_init(Sm *s);
int sched_issue(Sm *s);                            /* the issue stage; 1: busy next cycle */
void sched_warp_added(Sm *s, TWarp *w);
void sched_set_npc(Sm *s, TWarp *w, int32_t pc);   /* the warp's next instruction is pc */
void sched_warp_exited(Sm *s, TWarp *w);

/* scoreboard.c */
/* a pending register the instruction reads or writes (its bit), -1 if none;
 * *is_mem = 1 if it is a load's (preferred) */
int32_t sb_hazard(const Sm *s, const TWarp *w, const TIns *ti, int *is_mem);
int sb_pending(const TWarp *w, int32_t bit);
int sb_long_pending(const Sm *s, const TWarp *w, const TIns *ti);
void sb_set(Sm *s, TWarp *w, const TIns *ti, int32_t rbase, int32_t pbase, int long_lat);
void sb_clear(Sm *s, TWarp *w, const Event *e);
void sb_reset(Sm *s, TWarp *w);

/* async.c: cp.async groups */
void cpa_reset(TWarp *w);
int cpa_ready(const TWarp *w, const TIns *ti);       /* may this wait issue now? */
void cpa_issue(Sm *s, TWarp *w, const TIns *ti, CU *u);   /* after exec; u: a copy's unit */
void cpa_done(Sm *s, TWarp *w, uint32_t group);      /* a copy of `group` completed */

/* collector.c */
int cu_alloc(Sm *s, int mem);                      /* a free unit, -1 if none */
static inline int cu_free(const Sm *s, int mem)    /* is one free? */
{
	return (~s->cu_busy & (mem ? s->cu_mask_mem : s->cu_mask_alu)) != 0;
}
void cu_stage(Sm *s);                              /* read arbitration and dispatch */
void cu_mem_wake(Sm *s, int64_t t);                /* a cache takes reads again at t */

/* pipe.c */
void pipe_init(Sm *s);
int64_t pipe_dispatch(Sm *s, CU *cu);             /* 0 dispatched, else when to retry */
void pipe_memop(Sm *s, TWarp *w, CU *cu, const TIns *ti);   /* build the MemOp at issue */

#endif
