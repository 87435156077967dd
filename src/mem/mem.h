/*
 * mem.h -- the simulated GPU's memory system, as the SMs see it.
 *
 * Three layers, one mechanism per file:
 *
 *   coalesce.c  a warp's memory instruction (the per-lane addresses the
 *               functional core reports, StepTrace) turned into a MemOp:
 *               the distinct cache lines of its global and local accesses,
 *               its shared-memory wavefronts (bank conflicts) and its
 *               constant-cache serialisation.
 *   cache.c     a set-associative tag array with LRU replacement and a
 *               per-line "data ready" cycle, used by every cache.
 *   smcache.c   an SM's L1 data cache and constant cache: hits, MSHRs that
 *               merge misses to the same line, write policy.
 *   l2.c        the shared side (MemSys): interconnect latency, banked L2
 *               with its own miss merging, write-back of dirty lines.
 *   dram.c      DRAM channels: FR-FCFS over banks with open rows, or a
 *               fixed latency at the channel's bandwidth.
 *
 * Time.  Requests carry the cycle they reach each component, and the
 * components answer with the cycle the data comes back, as soon as that
 * is known: at once for hits and for the fixed-latency DRAM, when a DRAM
 * channel schedules the request for FR-FCFS.  Answers travel through
 * callbacks (SmCache.done) into the SM's event queue.  Only the DRAM
 * channels have queues that need stepping (MemSys.next says when), so an
 * idle memory system costs nothing.  A component's state (tags, LRU) is
 * updated in the order requests are generated, which is cycle order; the
 * interconnect has a fixed latency and no contention.
 *
 * Addresses.  Caches work on line addresses (byte address >> line bits).
 * Local memory is interleaved per thread in its own window (4-byte words
 * of consecutive threads adjacent, as NVIDIA lays it out), so a warp's
 * access to one local variable is one coalesced line; the constant bank
 * and the kernel parameters have windows of their own.
 */
#ifndef RFSIM_MEM_MEM_H
#define RFSIM_MEM_MEM_H

#include <stdint.h>

#include "base/config.h"
#include "mem/calendar.h"
#include "sim/tstats.h"

#define MEM_PENDING  INT64_MAX            /* a time not known yet */
#define MEM_LOCAL_WIN  (1ull << 52)       /* byte-address windows of the memory system */
#define MEM_CONST_WIN  (2ull << 52)
#define MEM_PARAM_WIN  (3ull << 52)

/* ---- coalescing (coalesce.c) ---------------------------------------------- */

#define MEMOP_MAXLINES 32

enum { MOC_DEFAULT, MOC_L1, MOC_L2 };   /* MemOp.cache: as l1.cache_global says, through
                                           L1 (cp.async.ca), L2 only (cp.async.cg) */

typedef struct MemOp {       /* what one warp memory instruction asks of memory */
	uint8_t store;           /* writes memory (st, red, atom) */
	uint8_t load;            /* returns data to registers */
	uint8_t atomic;          /* read-modify-write at L2 (global) */
	uint8_t long_lat;        /* touches global or local memory */
	uint8_t cache;           /* global lines: MOC_* */
	uint16_t smem_waves;     /* shared memory: wavefronts (1 = no conflict), 0 = none */
	uint8_t dsmem;           /* some lane's shared address is another CTA's of the cluster */
	uint16_t cc_waves;       /* constant/param: distinct words (serialisation), 0 = none */
	uint16_t nline;          /* global and local lines */
	uint32_t lmask;          /* bit i: line[i] is local memory */
	uint16_t ncline;         /* constant and parameter lines */
	uint64_t line[MEMOP_MAXLINES];
	uint64_t cline[32];
} MemOp;

struct StepTrace;
typedef struct CoalesceCfg {
	uint32_t line_shift;     /* log2 of mem.line_bytes */
	uint32_t smem_banks;
	uint32_t local_words;    /* per-thread local memory, 4-byte words */
	uint64_t warp_gid;       /* this warp's global hardware id (local interleaving) */
} CoalesceCfg;

void memop_build(MemOp *op, const struct StepTrace *tr, const CoalesceCfg *cc,
                 int store, int load, int atomic);
/* a cp.async: the global lines its lanes read (cache: MOC_L1 or MOC_L2) and the
 * wavefronts of its shared writes */
void memop_build_cp(MemOp *op, const struct StepTrace *tr, const CoalesceCfg *cc, int cache);

/* ---- a set-associative tag array (cache.c) --------------------------------- */

typedef struct Cache {
	int32_t sets, ways;      /* sets = 0: no cache (every lookup misses) */
	uint32_t set_div;        /* line address is divided by this before the set index */
	uint32_t div_shift, set_mask;   /* both powers of two: shift and mask instead */
	int pow2;
	uint64_t *tag;           /* line address + 1; 0 = invalid */
	int64_t *ready;          /* cycle the line's data is there; MEM_PENDING = unknown */
	uint64_t *stamp;         /* last use, for LRU */
	uint8_t *dirty;
	int32_t *mshr;           /* while pending: the MSHR filling it */
	uint64_t clock;          /* LRU stamps */
} Cache;

void cache_init(Cache *c, int64_t bytes, int64_t assoc, uint32_t line_bytes, uint32_t set_div);
void cache_fini(Cache *c);
int32_t cache_find(Cache *c, uint64_t la);                /* line index, -1 = miss */
/* a line to put la in: invalid first, else the LRU line whose data is there
 * by now; -1 if every way is being filled */
int32_t cache_victim(Cache *c, uint64_t la, int64_t now);
static inline void cache_touch(Cache *c, int32_t i) { c->stamp[i] = ++c->clock; }

/* ---- an SM's caches (smcache.c) --------------------------------------------- */

typedef struct MemSys MemSys;

typedef struct Mshr {
	uint64_t la;
	int32_t line;            /* cache line being filled, -1 = not allocated */
	int32_t nw;              /* waiters */
	int32_t *w;              /* waiter ids (SmCache.merge of them) */
} Mshr;

/* an answer for `waiter` arrives at t; waiter -1: the cache takes reads again at t */
typedef void (*MemDone)(void *ctx, int32_t waiter, int64_t t);

enum { SMC_L1, SMC_CC };     /* which cache of the SM (replies from L2) */

typedef struct SmCache {
	Cache c;
	Mshr *m; int32_t nm;
	int64_t *mfree;          /* per MSHR: cycle it is free again, MEM_PENDING while
	                            unknown (apart from Mshr: scans read one array) */
	int32_t merge;           /* waiters per MSHR */
	int64_t lat;             /* hit latency */
	int wb;                  /* write-back, allocate on write */
	int kind;                /* SMC_* */
	int32_t sm;
	MemSys *ms;
	MemDone done; void *ctx; /* where answers go */
	uint64_t *hits, *misses; /* counters in the SM's TStats */
	int64_t retry;           /* smc_can_read fails before this cycle (MSHRs short) */
	int32_t unalloc;         /* MSHRs in flight without a cache line (looked up by address) */
	int64_t scan_at, scan_next;   /* MSHR count valid from scan_at until scan_next ... */
	int32_t scan_free;            /* ... : MSHRs free (scan_at = -1: stale) */
	int32_t nfull;                /* MSHRs with every merge slot taken */
} SmCache;

void smc_init(SmCache *s, int kind, int32_t sm, MemSys *ms, int64_t bytes, int64_t assoc,
              int64_t mshrs, int64_t merge, int64_t lat, int wb, MemDone done, void *ctx,
              uint64_t *hits, uint64_t *misses);
void smc_fini(SmCache *s);
/* can reads of these lines (distinct) all be accepted at cycle now? */
int smc_can_read(SmCache *s, const uint64_t *la, int n, int64_t now);
/* read line la at cycle t for `waiter`: the cycle the data is there, or
 * MEM_PENDING when it will come through done(ctx, waiter, t) */
int64_t smc_read(SmCache *s, uint64_t la, int64_t t, int32_t waiter);
void smc_write(SmCache *s, uint64_t la, int64_t t);
void smc_fill(SmCache *s, int32_t mshr, int64_t t);       /* L2's answer to a miss */

/* ---- the shared side: L2 and DRAM (l2.c, dram.c) ---------------------------- */

typedef struct Dram Dram;

struct MemSys {
	int32_t nsm;
	int64_t now;             /* the current cycle (memsys_step): no request arrives before */
	uint32_t line_bytes;
	int64_t icnt;            /* interconnect latency, each way */
	int64_t l2_lat;
	int32_t nbank;
	struct L2Bank { Cache c; Calendar busy; } *bank;
	struct L2Mshr { uint64_t la; int32_t bank, line, head; } *m;
	int32_t nm, capm, freem;
	struct L2Wait { int32_t sm, kind, id, next; } *w;
	int32_t nw, capw, freew;
	Dram *dram;
	SmCache **l1, **cc;      /* per SM: where answers to misses go */
	MemDone *done; void **ctx;   /* per SM: where answers to atomics go */
	TStats st;
};

enum { MW_L1 = SMC_L1, MW_CC = SMC_CC, MW_DIRECT };   /* L2Wait.kind */

MemSys *memsys_new(const Config *cfg, int32_t nsm);
void memsys_free(MemSys *ms);
/* a read (or atomic) of line la sent by SM sm at cycle t; answered through
 * smc_fill (MW_L1, MW_CC: id = MSHR) or done (MW_DIRECT: id = waiter) */
void memsys_read(MemSys *ms, int32_t sm, int kind, int32_t id, uint64_t la, int64_t t,
                 int atomic);
void memsys_write(MemSys *ms, int32_t sm, uint64_t la, int64_t t);
int64_t memsys_next(const MemSys *ms);                    /* next cycle to step */
void memsys_step(MemSys *ms, int64_t now);
void memsys_l2_fill(MemSys *ms, int32_t mshr, int64_t t); /* DRAM's answer */

/* dram.c */
Dram *dram_new(const Config *cfg, MemSys *ms);
void dram_free(Dram *d);
/* read (mshr >= 0: answered through memsys_l2_fill) or write (mshr < 0) of
 * line la arriving at cycle t */
void dram_access(Dram *d, uint64_t la, int64_t t, int32_t mshr);
int64_t dram_next(const Dram *d);
void dram_step(Dram *d, int64_t now);

#endif
