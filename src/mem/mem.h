/*
 * mem.h -- the simulated GPU's memory system, as the SMs see it.
 *
 * One mechanism per file:
 *
 *   coalesce.c  a warp's memory instruction (the per-lane addresses the
 *               functional core reports, StepTrace) turned into a MemOp:
 *               the distinct cache lines of its global and local accesses
 *               with the parts of each line it touches, its shared-memory
 *               wavefronts (bank conflicts) and its constant-cache
 *               serialisation.
 *   cache.c     a set-associative tag array with LRU replacement, a per-line
 *               "data ready" time and a mask of the line's parts present.
 *   smcache.c   an SM's L1 data cache and constant cache: hits, MSHRs that
 *               merge misses to the same line, the miss queue, write policy.
 *   icnt.c      the interconnect: a crossbar whose ports each move one flit
 *               per interconnect cycle, requests one way, replies the other.
 *   l2.c        the L2 slices (MemSys): a request queue each, a tag lookup
 *               per L2 cycle, MSHRs, a data port, a return queue, and the
 *               way to their DRAM channel.
 *   dram.c      DRAM channels: bounded FR-FCFS queues over banks, bank
 *               groups and open rows with GDDR5/HBM command timing, or a
 *               fixed latency at the channel's bandwidth.
 *
 * Clocks.  The SMs count core cycles (gpu.clock_mhz); the interconnect, the
 * L2 and DRAM have clocks of their own (icnt.clock_mhz, l2.clock_mhz,
 * dram.clock_mhz), and every latency key counts in its part's clock.
 * Inside the memory system time is kept in ticks, MEM_TICKS to a core
 * cycle, and each part acts on the edges of its own clock (its period in
 * ticks, rounded: the error is below 0.2%, deterministic).  The SMs see
 * core cycles: an answer reaches them at the first core cycle at or after
 * its tick.
 *
 * Events.  A request is sent at the cycle the SM's load/store unit issues
 * it; the interconnect is a set of port calendars booked at once
 * (calendar.h: first come, first served by arrival), so a request's arrival
 * at its L2 slice is known when it is sent.  The slices and DRAM channels
 * are stepped: each has a queue and the tick it can next act
 * (MemSys.next), so loaded latency rises as queues fill, and idle parts
 * cost nothing.  Answers travel through callbacks (SmCache.done, MemSys.done)
 * into the SM's event queue.
 *
 * Addresses.  Caches work on line addresses (byte address >> line bits).
 * Local memory is interleaved per thread in its own window (4-byte words
 * of consecutive threads adjacent, as NVIDIA lays it out), so a warp's
 * access to one local variable is one coalesced line; the constant bank
 * and the kernel parameters have windows of their own.  Consecutive lines
 * go to consecutive L2 slices; the slices of one DRAM channel are
 * consecutive (mem_map in l2.c).
 */
#ifndef RFSIM_MEM_MEM_H
#define RFSIM_MEM_MEM_H

#include <stdint.h>

#include "base/config.h"
#include "mem/calendar.h"
#include "timing/tstats.h"

#define MEM_PENDING  INT64_MAX            /* a time not known yet */
#define MEM_TICKS    256                  /* memory-system ticks per core cycle */
#define MEM_LOCAL_WIN  (1ull << 52)       /* byte-address windows of the memory system */
#define MEM_CONST_WIN  (2ull << 52)
#define MEM_PARAM_WIN  (3ull << 52)
#define MEM_PARTS      8                  /* a line's parts (MemOp.part, Cache.valid) */
#define MEM_WHOLE      0xffu              /* every part of a line */

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
	uint8_t part[MEMOP_MAXLINES];   /* parts of line[i] touched: bit k = bytes
	                                   [k, k+1) * line_bytes / MEM_PARTS */
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
	int64_t *ready;          /* when the line's data is there; MEM_PENDING = unknown */
	uint64_t *stamp;         /* last use, for LRU */
	uint8_t *dirty;
	uint8_t *valid;          /* parts present (MEM_PARTS bits; MEM_WHOLE for unsectored) */
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
/* every line's data there at time 0 (a new kernel's time base), MSHRs forgotten */
void cache_settle(Cache *c);

/* ---- an SM's caches (smcache.c) --------------------------------------------- */

typedef struct MemSys MemSys;

typedef struct Mshr {
	uint64_t la;
	int32_t line;            /* cache line being filled, -1 = not allocated */
	int32_t nw;              /* waiters */
	int32_t *w;              /* waiter ids (SmCache.merge of them) */
} Mshr;

/* an answer for `waiter` arrives at core cycle t; waiter -1: the cache takes
 * reads again at t */
typedef void (*MemDone)(void *ctx, int32_t waiter, int64_t t);

enum { SMC_L1, SMC_CC };     /* which cache of the SM (replies from L2) */

typedef struct SmCache {
	Cache c;
	Mshr *m; int32_t nm;
	int64_t *mfree;          /* per MSHR: cycle it is free again, MEM_PENDING while
	                            unknown (apart from Mshr: scans read one array) */
	int32_t merge;           /* waiters per MSHR */
	int64_t lat;             /* hit latency, core cycles */
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
/* can reads of these lines (distinct) all be accepted at cycle now?  0 sets
 * retry: when to ask again */
int smc_can_read(SmCache *s, const uint64_t *la, int n, int64_t now);
/* read line la at cycle t for `waiter`: the cycle the data is there, or
 * MEM_PENDING when it will come through done(ctx, waiter, t) */
int64_t smc_read(SmCache *s, uint64_t la, int64_t t, int32_t waiter);
void smc_write(SmCache *s, uint64_t la, uint8_t part, int64_t t);
void smc_fill(SmCache *s, int32_t mshr, int64_t t);       /* L2's answer to a miss */

/* ---- the shared side: interconnect, L2 and DRAM (icnt.c, l2.c, dram.c) ------- */

typedef struct Dram Dram;
typedef struct Slice Slice;

#define PORT_QMAX 128        /* the longest queue a port's record covers */

typedef struct Port {        /* an interconnect port: one flit per icnt cycle */
	Calendar cal;            /* bookings, ticks */
	int64_t ready[PORT_QMAX], start[PORT_QMAX];   /* its last packets: when each was
	                            ready to leave and when it left (a ring from head) */
	int32_t head;
} Port;

/* packets waiting for port p at tick t: ready by then, not left yet (0 if fewer than
 * cap); when there are cap or more, *free is when one of them leaves */
int port_waiting(const Port *p, int64_t t, int cap, int64_t *free);

struct MemSys {
	int32_t nsm, nslice;
	int64_t now;             /* the tick being stepped (memsys_step): nothing arrives earlier */
	uint32_t line_bytes;
	int64_t core_period;     /* MEM_TICKS */
	int64_t icnt_period, l2_period, dram_period;   /* ticks per cycle of each clock */
	/* interconnect (icnt.c) */
	int64_t icnt_lat;        /* ticks, each way */
	int32_t flit_bytes;
	int32_t miss_queue;      /* l1.miss_queue: packets an SM may have waiting to leave */
	Port *sm_out, *sm_in;    /* per SM: requests out, replies in */
	Port *sl_in, *sl_out;    /* per slice: requests in, replies out */
	int32_t header_bytes;    /* of every packet */
	/* L2 slices (l2.c) */
	Slice *sl;
	int64_t l2_lat;          /* ticks before a request's lookup */
	int32_t mshr_merge, return_queue, port_bytes;
	int32_t sector_parts;    /* parts per sector (MEM_PARTS: whole lines) */
	int32_t spc;             /* slices per DRAM channel */
	/* the clockwork: slices 0.. nslice-1, then DRAM channels, in a heap */
	int32_t ncomp;
	void *heap;
	int64_t next;            /* earliest tick a component acts */
	Dram *dram;
	SmCache **l1, **cc;      /* per SM: where answers to misses go */
	MemDone *done; void **ctx;   /* per SM: where answers to atomics and direct reads go */
	TStats st;
};

enum { MW_L1 = SMC_L1, MW_CC = SMC_CC, MW_DIRECT };   /* who waits for a read */

MemSys *memsys_new(const Config *cfg, int32_t nsm);
void memsys_free(MemSys *ms);
/* keep the L2's contents for the next kernel: a new time base, nothing in flight */
void memsys_settle(MemSys *ms);
/* a read (or atomic) of the parts `part` of line la sent by SM sm at core cycle t;
 * answered through smc_fill (MW_L1, MW_CC: id = MSHR) or done (MW_DIRECT: id =
 * waiter) */
void memsys_read(MemSys *ms, int32_t sm, int kind, int32_t id, uint64_t la, uint8_t part,
                 int64_t t, int atomic);
void memsys_write(MemSys *ms, int32_t sm, uint64_t la, uint8_t part, int64_t t);
/* may SM sm send another request at core cycle t (l1.miss_queue)?  0 sets *retry */
int memsys_can_send(const MemSys *ms, int32_t sm, int64_t t, int64_t *retry);
int64_t memsys_next(const MemSys *ms);                    /* next core cycle to step */
void memsys_step(MemSys *ms, int64_t now);
/* the memory system's contents of line la at the host's copy (mem.memcpy_l2) */
void memsys_preload(MemSys *ms, uint64_t la);

/* icnt.c: a packet of `bytes` leaving at tick t; the tick its tail arrives */
int64_t icnt_to_slice(MemSys *ms, int32_t sm, int32_t slice, int32_t bytes, int64_t t);
int64_t icnt_to_sm(MemSys *ms, int32_t slice, int32_t sm, int32_t bytes, int64_t t);
/* the first tick at or after t on the edge of a clock of `period` ticks */
static inline int64_t mem_edge(int64_t t, int64_t period)
{
	return (t + period - 1) / period * period;
}
/* core cycles to ticks and back (rounding up: an answer is there at the cycle after) */
static inline int64_t mem_tick(int64_t cycle) { return cycle * MEM_TICKS; }
static inline int64_t mem_cycle(int64_t tick) { return (tick + MEM_TICKS - 1) / MEM_TICKS; }

/* l2.c, for dram.c: component comp (a slice, or nslice + a DRAM channel) acts
 * next at tick (INT64_MAX: when something wakes it) */
void mem_schedule(MemSys *ms, int32_t comp, int64_t tick);
void mem_schedule_min(MemSys *ms, int32_t comp, int64_t tick);   /* if earlier */
void l2_fill(MemSys *ms, int32_t slice, int32_t mshr, int64_t t);
void l2_wake(MemSys *ms, int32_t channel, int64_t t);      /* a channel took a request */

/* dram.c */
Dram *dram_new(const Config *cfg, MemSys *ms);
void dram_free(Dram *d);
/* may channel ch take n more requests? */
int dram_room(const Dram *d, int32_t ch, int n);
/* a read (mshr >= 0: answered through l2_fill) or a write (mshr < 0) of `bytes`
 * of line la, for slice sl, arriving at tick t */
void dram_access(Dram *d, int32_t sl, uint64_t la, int32_t bytes, int64_t t, int32_t mshr);
void dram_step(Dram *d, int32_t ch, int64_t now);          /* channel ch acts at tick now */
void dram_settle(Dram *d);

#endif
