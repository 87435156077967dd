/*
 * warp.h -- the state the functional core keeps per warp and per CTA, and
 * the launch context they share.
 *
 * SIMT stack.  Divergence is handled with the classic post-dominator
 * reconvergence stack (Fung et al., MICRO 2007; GPGPU-Sim): each entry is
 * a (pc, reconvergence pc, lane mask) triple; a divergent branch turns the
 * top entry into the reconvergence entry and pushes one entry per path;
 * an entry is popped when its pc reaches its reconvergence pc or its mask
 * empties.  The reconvergence pc is the first instruction of the branch's
 * immediate post-dominator (src/analysis/cfg.c); -1 means the paths only
 * meet at exit.  A call pushes a call entry, which remembers the caller's
 * frame and the lanes that made the call; `ret` removes lanes down to the
 * nearest call entry, and popping the call entry copies return values
 * back and restores the caller's frame.  `exit` removes lanes everywhere.
 * Paths run one at a time.  Lanes that wait in a loop for other lanes of
 * their own warp (a spin lock, an mbarrier phase, a flag) would wait for
 * ever; Volta's independent thread scheduling lets the others go on, and
 * CUDA code since sm_70 relies on it.  So when the top path waits -- an
 * mbarrier wait that fails or a nanosleep (EX_YIELD), or a polling loop
 * (DF_SPIN) whose back edge it takes with its registers and predicates
 * unchanged over an iteration and no memory written, or SIMT_SPIN_LONG
 * times in a row without a write -- simt_yield first runs another pending
 * path of the warp, and if there is none, lets the lanes waiting at the
 * path's reconvergence point go on past it (simt_release): they, the
 * spinning path and its siblings then reconverge one level further out.
 * A warp-synchronous instruction or barrier those lanes reach waits for
 * the spinning lanes (simt_syncwait), in a called function too: there the
 * warp runs the lanes' paths in their own frame (SIMT_FOREIGN entries) and
 * lanes that make the same calls to the same instruction join the waiting
 * path (simt_callwait, simt_join).
 * Until a path spins, reconvergence is the stack's, as on the hardware,
 * whose compiler-placed convergence barriers give way only to a yield.
 *
 * Barriers are counted at warp granularity (pre-Volta semantics, which
 * the papers' machines have): a warp arriving at bar.sync waits until the
 * barrier's expected number of warps -- every warp of the CTA that has not
 * exited, or the thread count operand / 32 -- has arrived.
 */
#ifndef RFSIM_FUNC_WARP_H
#define RFSIM_FUNC_WARP_H

#include <stdint.h>

#include "func/decode.h"
#include "func/kernel.h"
#include "func/devmem.h"

typedef struct SimtEntry {
	int32_t pc;              /* next instruction of this path */
	int32_t rpc;             /* reconvergence pc, -1 = none (exit) */
	uint32_t mask;           /* lanes on this path */
	int32_t call;            /* call entry: Image.calls index of the call site; -1 otherwise;
	                            SIMT_FOREIGN: a path simt_yield runs in its own (caller's)
	                            frame, rbase/pbase/lbase the frame to go back to, cmask the
	                            call depth between them */
	uint32_t cmask;          /* call entry: lanes that made the call */
	int32_t rbase, pbase;    /* call entry: caller's frame bases (slots, predicates) */
	uint32_t lbase;          /* call entry: caller's local frame base (bytes) */
	int32_t func;            /* Image.funcs index of the function this path runs in */
	int32_t its;             /* 1: simt_release made it (lanes let past a spinning path) or
	                            moved its reconvergence point: it and its siblings wait for
	                            each other at warp-synchronous instructions and barriers */
	int32_t rotate;          /* SIMT_FOREIGN: 1 if run for a path waiting at a warp-synchronous
	                            instruction (simt_callwait): when it waits in turn, it goes
	                            back to its frame and the other paths get their turn */
} SimtEntry;

enum { SIMT_FOREIGN = -2 };

enum { W_READY, W_BARRIER, W_DONE };

/* What one executed instruction did, for a timing model: filled by
 * exec_step() when the warp has a trace buffer (Warp.trace). */
typedef struct StepTrace {
	int32_t pc;              /* the instruction's pc in Image.code */
	uint32_t active;         /* lanes of the SIMT path that issued it */
	uint32_t exec;           /* lanes that executed it (guard applied) */
	uint8_t space[32];       /* memory ops: XS_* per lane, generic addresses resolved */
	uint64_t addr[32];       /* memory ops: address per lane in that space (wmma.load and
	                            .store: of row or column segment `lane` of the matrix) */
	uint32_t nbytes;         /* memory ops: bytes per lane access (segment) */
	uint32_t mem_lanes;      /* lanes whose addr[] is valid */
	uint32_t cp_src;         /* cp.async: lanes that read their global source (addr[]) */
	uint32_t phase;          /* shared memory: lanes served per phase, 0 = the whole warp
	                            (ldmatrix/stmatrix: 8, one 8x8 matrix per phase) */
	uint64_t saddr[32];      /* cp.async: each lane's shared destination (mem_lanes) */
	uint32_t xrows;          /* tex, tld4: rows of xaddr in use (a filtered fetch's other
	                            rows and slices of texels), 0 for every other instruction */
	uint64_t xaddr[3][32];   /* their global addresses per lane, nbytes each; 0: none */
} StepTrace;

typedef struct Warp {
	StepTrace *trace;        /* NULL in functional mode */
	SimtEntry *stk;          /* SIMT stack, stk[nstk-1] is the top */
	int32_t nstk, capstk;
	uint32_t *regs;          /* register slots of all frames: [slot][32] */
	uint32_t *preds;         /* predicate masks of all frames */
	uint8_t *local;          /* local memory: lane l at local + l * local_bytes */
	uint32_t local_bytes;
	int32_t rbase, pbase;    /* current frame's first slot / predicate */
	uint32_t lbase;          /* current frame's local base (bytes) */
	int32_t depth;           /* call depth */
	uint32_t valid;          /* lanes that exist (a CTA's last warp may be partial) */
	uint32_t exited;         /* lanes that have executed exit */
	uint32_t cc;             /* carry flag, one bit per lane */
	uint8_t state;           /* W_* */
	uint8_t bar_id;          /* barrier waited on */
	int32_t bar_pc;          /* pc of the barrier instruction waited at */
	uint32_t bar_mask;       /* lanes that arrived (for bar.red results) */
	int32_t widx;            /* warp index in its CTA */
	uint64_t ninsts;         /* warp instructions executed */
	uint64_t npseudo;        /* register-file pseudo-ops executed (rfsim.prefetch, .acquire,
	                            .release): issued, but not program instructions, so not in
	                            ninsts or IPC */
	uint64_t nthread;        /* thread instructions executed */
	int32_t mem_hint;        /* last global allocation touched */
	uint64_t nwrites;        /* instructions that may have changed memory (stores, atomics
	                            that changed a value, builtin calls): the livelock
	                            watchdog's sign of progress; never reset */
	uint64_t nlocal;         /* of those, stores to local memory, which no other thread sees */
	int32_t spin_pc;         /* DF_SPIN branch the top path last looped at (-1: none) */
	uint32_t spin_n;         /* its back edges in a row with no write by the warp */
	uint64_t spin_writes;    /* nwrites - nlocal when that run began */
	uint64_t spin_hash;      /* the path's registers and predicates at back edge SIMT_SPIN_SNAP */
	uint32_t cl_phase;       /* the cluster barrier's phase at its last barrier.cluster.arrive */
} Warp;

typedef struct Barrier {
	int32_t arrived;         /* warps arrived */
	int32_t expected;        /* warps needed (0: all live warps) */
	uint32_t red_popc;       /* bar.red accumulators */
	uint8_t red_and, red_or;
} Barrier;

typedef struct Launch Launch;
typedef struct Cta Cta;

/* A thread-block cluster (sm_90): the CTAs of one cluster are resident
 * together, may read and write each other's shared memory (a shared::cluster
 * address is ((rank + 1) << CLUSTER_RANK_SHIFT) | offset; below that it is
 * the CTA's own), and meet at barrier.cluster, which counts warps as bar.sync
 * does: a phase completes when every live warp of the cluster has arrived.
 * wake, when set (the timing model), is called for each member CTA whose
 * warps a completed phase made ready. */
enum { CLUSTER_MAX = 16, CLUSTER_RANK_SHIFT = 24, CLUSTER_BAR = 16 /* Warp.bar_id */ };
typedef struct Cluster {
	Cta *cta[CLUSTER_MAX];   /* by rank */
	int32_t n;
	int32_t arrived;         /* warps arrived in this phase */
	uint32_t phase;
	int32_t done;            /* member CTAs finished */
	void (*wake)(Cta *c);
} Cluster;

struct Cta {
	const Launch *L;
	Dim3 id;                 /* %ctaid */
	int32_t nwarps;
	Warp *warps;
	uint8_t *shared;         /* shared memory of the CTA */
	uint32_t shared_bytes;
	int32_t live_warps;      /* warps not done */
	Barrier bars[16];
	int32_t smid;
	const int64_t *clock;    /* the SM's cycle in timing mode (%clock), NULL functionally */
	Cluster *cl;             /* its cluster (every launch has them: 1 CTA when not asked) */
	int32_t rank;            /* %cluster_ctarank */
	void *owner;             /* the timing model's CTA slot, for Cluster.wake */
};

struct Launch {
	const Image *img;
	const char *kname;       /* kernel name, for reports */
	const char *file;        /* PTX file name, for reports */
	const char *src;         /* PTX text (quoted in reports), may be NULL */
	Dim3 grid, block;
	uint32_t nthreads;       /* threads per CTA */
	uint32_t dyn_shmem;
	const uint8_t *params;   /* kernel parameter buffer */
	uint32_t param_bytes;
	GMem *gm;
	uint8_t *cbank;          /* constant bank */
	uint32_t cbank_bytes;
	const struct TexObj *tex; /* texture and surface objects (tex.h): handle h is tex[h-1] */
	int32_t ntex;
	int32_t nsm;
	double clock_ghz;
	const char *limit_why;   /* which instruction limit applies, for the report */
	int *fault;              /* the launch's FAULT_* (gpu.h) goes here: the Gpu's, read back
	                            by gpu_last_fault(); NULL: nowhere */
	double *run_t0;          /* host time the GPU's first timing kernel began: progress
	                            lines wait 2 s from it (timing.c); NULL: this kernel's */
	uint64_t grid_ws;        /* cooperative launch: the grid-sync workspace (%envreg1:2), else 0 */
	struct Cdp *cdp;         /* device-side launches of this grid are recorded here (cdp.c) */
	Dim3 cluster;            /* CTAs per cluster in each dimension (1,1,1: none asked) */
	uint32_t csize;          /* CTAs per cluster */
	uint8_t explicit_cluster; /* %is_explicit_cluster */
	struct MemSys **mem;     /* the GPU's memory system, kept between kernels (its L2
	                            contents); NULL: the timing model makes its own */
};

/* cluster barrier (exec.c): a warp left the cluster's count (it exited) */
void cluster_warp_exited(Cta *c);
/* CTA number id of launch L: its rank in its cluster */
uint32_t cluster_rank_of(const Launch *L, Dim3 id);
/* the linear CTA numbers of cluster number k (x fastest, as CTAs), by rank (gpu.c) */
void cluster_members(const Launch *L, uint64_t k, uint64_t *ids);

/* EX_YIELD: an mbarrier wait found its phase not over (exec_mbar.c), or lanes went to
 * sleep (nanosleep, which libcu++'s waits back off with); the warp goes on as after
 * EX_OK, but exec_run ends its slice so the warps it waits for run first, and step()
 * lets another pending path of the warp run (simt_yield) */
enum { EX_OK, EX_BARRIER, EX_DONE, EX_FAULT, EX_YIELD };

/* what stopped the launch (FAULT_*, gpu.h), for gpu_last_fault() */
static inline void launch_fault(const Launch *L, int kind) { if (L->fault) *L->fault = kind; }

/* prepare warp w (index widx) of CTA c for a fresh run; buffers must be sized */
void warp_reset(Warp *w, const Cta *c, int32_t widx);
/* run warp w until it waits at a barrier, finishes, faults, or has issued
 * `budget` instructions; returns EX_* */
int exec_run(Cta *c, Warp *w, int64_t budget);
/* execute exactly one warp instruction (internal special-register reads
 * included) and return EX_*; with w->trace set, describe it there */
int exec_step(Cta *c, Warp *w);
/* functional mode's livelock test (livelock.c): run each ready warp of c
 * one instruction at a time until it comes back to its present state;
 * 1 if every one does with no memory written (it never can finish) */
int livelock_cta(Cta *c, int64_t *budget);
/* instructions of c's warps that may have written memory (Warp.nwrites) */
uint64_t cta_writes(const Cta *c);
/* a hash of everything that decides what w does next, memory apart: its
 * registers, predicates and SIMT stack (both livelock tests compare it) */
uint64_t warp_state_hash(const Warp *w, const Image *img);
/* both livelock tests compare a warp's state with its snapshot on its first
 * LL_TRIES returns to the snapshot's pc, not on every one */
enum { LL_TRIES = 8 };
/* pc of the warp's next instruction, -1 when done */
static inline int32_t warp_pc(const Warp *w) { return w->nstk ? w->stk[w->nstk - 1].pc : -1; }
/* a barrier whose expected count is met: release its waiting warps */
void cta_release_barriers(Cta *c);

#endif
