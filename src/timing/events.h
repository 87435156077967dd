/*
 * events.h -- an SM's queue of timed events (writebacks, branch
 * resolutions, memory answers): a timing wheel for the near future and a
 * binary heap for the rest.
 *
 * Nearly every event is due within a few hundred cycles of being queued,
 * so a wheel of EVQ_WHEEL buckets (one per cycle, FIFO inside) makes push
 * and pop O(1); events further out wait in a heap ordered by (cycle,
 * sequence).  Order is deterministic and the same as a single heap's: at
 * a cycle, the heap's events come first -- they were queued earlier than
 * any wheel event for that cycle, which was queued fewer than EVQ_WHEEL
 * cycles before it -- then the bucket's, in the order they were queued.
 * A bucket only ever holds one cycle's events because the SM is stepped
 * at every cycle an event is due (evq_next).
 */
#ifndef RFSIM_TIMING_EVENTS_H
#define RFSIM_TIMING_EVENTS_H

#include <stdint.h>

#define EVQ_WHEEL 512        /* buckets: a power of two */

typedef struct Event {       /* a writeback (or branch resolution) due at t */
	int64_t t;
	uint64_t seq;            /* heap ties: the order events were queued */
	int32_t warp;
	int32_t pc;              /* its instruction (TIns write list) */
	int32_t rbase, pbase;    /* the warp's frame at issue */
	uint32_t left;           /* register writes still to do (bit i = write i) */
	int32_t next;            /* wheel: next event of the bucket */
	uint8_t long_lat;        /* written by a long-latency load */
	uint8_t branch;          /* resolves a branch: unpark the warp */
	uint8_t cpa;             /* completes a cp.async of group cpa_group (async.c) */
	uint8_t l1hit;           /* statistics: a load whose every line hit in L1 (pipe.c) */
	uint32_t cpa_group;
} Event;

typedef struct EventQ {
	int32_t nwheel;          /* events in the wheel */
	int32_t nheap;           /* events in the heap */
	int64_t htop;            /* the heap's earliest cycle, INT64_MAX if empty (spares a
	                            cache miss on every pop) */
	int32_t free;            /* pool's free list (through .next) */
	int32_t cap, capheap;
	uint64_t seq;
	int64_t next;            /* earliest due cycle, when next_ok (evq_next's answer kept
	                            until an event due then is taken) */
	int next_ok;
	Event *pool;             /* wheel events */
	Event *heap;
	int32_t *head, *tail;    /* per bucket: first and last event */
	uint64_t occ[EVQ_WHEEL / 64];        /* non-empty buckets */
} EventQ;

void evq_init(EventQ *q, int32_t cap);
void evq_fini(EventQ *q);
/* queue e (its t is raised to now + 1 if earlier); now = the owner's current cycle */
void evq_push(EventQ *q, const Event *e, int64_t now);
/* take the next event due at or before now into *e: 1, or 0 if none */
int evq_pop(EventQ *q, int64_t now, Event *e);
int64_t evq_next(EventQ *q, int64_t now);         /* earliest due cycle, INT64_MAX if none */

#endif
