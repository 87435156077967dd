/*
 * rcache.h -- the entry array of a register cache: per warp slot, a few
 * entries each holding one warp-wide register, grouped into sets.  The
 * register file cache of rf_rfc.c (Gebhart et al.) and the use-based
 * cache of rf_usecache.c (Butts and Sohi) are both this array with their
 * own policy around it; what they share is here, once.
 *
 * Shape.  Each warp slot owns `entries` entries, split into sets of
 * `ways` ways (ways >= entries: one fully associative set).  If entries is
 * not a multiple of the ways, the sets differ by one way: entries / sets
 * each, the first entries % sets one more.  The tag is (warp, register):
 * the warp picks its slice of the array, the caller picks the set (the
 * cache knows no index function: RFC has one set, the use-based cache
 * indexes modulo or round robin), and the register is searched in it.
 * reg < 0 marks a free (invalid) entry.
 *
 * Per entry: dirty (newer than the main register file's copy: what a
 * flush reports), mark (the model's own bits; the victim choice may prefer
 * entries carrying some of them), uses (remaining uses, for the use-count
 * policy) and a stamp from one counter per cache, so stamps are unique.
 *
 * Policy, fixed at init: FIFO (stamp set when the value is put in), LRU
 * (also renewed by every hit: rcache_touch) and USE (fewest remaining
 * uses first, least recently used among equals; hits renew the stamp as
 * under LRU).  The victim of a set is its first free entry, else the
 * policy's first entry -- among those whose mark has a `prefer` bit when
 * there are any (Gebhart 5.3: values not read before the next long-latency
 * stall go first).  Whether a victim's value is written back is the
 * model's decision, since the write can lose its bank port and be retried.
 *
 * A warp holds entries only while it is held (rcache_hold; RFC and the
 * use-based cache hold the two-level scheduler's active warps, 3.3);
 * rcache_flush lets go of it, reporting each dirty value on the way out.
 *
 * Not here: LTRF's register cache (rf_ltrf.c).  Its entries are not
 * looked up by tag nor chosen as victims: the compiler's PREFETCH names
 * the working set, a warp's registers map to cache banks through the
 * warp control block, and residence is a bit-vector per register slot
 * (Sadrosadati et al. 4.1) -- an array of tagged entries would only hide
 * that.  RegMutex and register sharing have no register cache.
 *
 * Hot path: every operand access of the two models looks here, so lookup,
 * victim choice and the per-access updates are inline (the models were
 * measured at the same instruction count as with their hand-rolled arrays);
 * rcache_find_any skips the set arithmetic for a one-set cache.  Nothing
 * allocates after rcache_init.
 */
#ifndef RFSIM_TIMING_RF_RCACHE_H
#define RFSIM_TIMING_RF_RCACHE_H

#include <stddef.h>
#include <stdint.h>

typedef enum { RC_FIFO, RC_LRU, RC_USE } RcPolicy;

typedef struct RcEnt {
	uint64_t stamp;          /* FIFO: when put in; LRU, USE: last access */
	int32_t reg;             /* register held, -1 = free */
	int32_t uses;            /* remaining uses (RC_USE's victim order) */
	uint8_t dirty;           /* newer than the main register file's copy */
	uint8_t mark;            /* the model's bits (rcache_victim's prefer) */
} RcEnt;

typedef struct Rcache {
	RcEnt *e;                /* nwarps * entries, a warp's slice in set order */
	uint8_t *held;           /* per warp: holds entries (active) */
	int32_t nwarps;
	int32_t entries;         /* per warp */
	int32_t nsets;           /* per warp */
	int32_t *first;          /* per set: its first entry in a warp's slice; then `entries` */
	RcPolicy pol;
	uint64_t stamp;          /* the last stamp given */
} Rcache;

/* a dirty value leaving the cache in rcache_flush; now is the caller's, passed along */
typedef void RcWriteBack(void *ctx, int64_t now, int warp, RcEnt *e);

void rcache_init(Rcache *c, int32_t nwarps, int32_t entries, int32_t ways, RcPolicy pol);
void rcache_fini(Rcache *c);
void rcache_flush(Rcache *c, int64_t now, int warp, RcWriteBack *wb, void *ctx);

/* every entry of warp, its sets in order */
static inline RcEnt *rcache_warp(const Rcache *c, int warp)
{
	return c->e + (size_t)warp * (size_t)c->entries;
}

/* the entries of set s of warp (*n of them), in order */
static inline RcEnt *rcache_set(const Rcache *c, int warp, int32_t s, int32_t *n)
{
	*n = c->first[s + 1] - c->first[s];
	return rcache_warp(c, warp) + c->first[s];
}

/* the entry of set s holding warp's reg, NULL if none */
static inline RcEnt *rcache_find(const Rcache *c, int warp, int32_t s, int32_t reg)
{
	int32_t n;
	RcEnt *e = rcache_set(c, warp, s, &n);
	for (int32_t i = 0; i < n; i++)
		if (e[i].reg == reg) return &e[i];
	return NULL;
}

/* the entry of warp holding reg in any set, NULL if none: a one-set
   cache's lookup without the set arithmetic */
static inline RcEnt *rcache_find_any(const Rcache *c, int warp, int32_t reg)
{
	RcEnt *e = rcache_warp(c, warp);
	for (int32_t i = 0; i < c->entries; i++)
		if (e[i].reg == reg) return &e[i];
	return NULL;
}

/* a hit on e: LRU and USE renew its stamp, FIFO keeps the allocation order */
static inline void rcache_touch(Rcache *c, RcEnt *e)
{
	if (c->pol != RC_FIFO) e->stamp = ++c->stamp;
}

/* does a go before b in the policy's victim order? (stamps are unique) */
static inline int rcache_before(const Rcache *c, const RcEnt *a, const RcEnt *b)
{
	if (c->pol == RC_USE && a->uses != b->uses) return a->uses < b->uses;
	return a->stamp < b->stamp;
}

/* the entry a new value of set s goes into: the first free one, else the
   policy's first among the entries marked with a prefer bit, else among all */
static inline RcEnt *rcache_victim(Rcache *c, int warp, int32_t set, uint8_t prefer)
{
	int32_t n;
	RcEnt *e = rcache_set(c, warp, set, &n), *v = NULL, *vp = NULL;
	for (int32_t i = 0; i < n; i++) {
		if (e[i].reg < 0) return &e[i];
		if (!v || rcache_before(c, &e[i], v)) v = &e[i];
		if (e[i].mark & prefer && (!vp || rcache_before(c, &e[i], vp))) vp = &e[i];
	}
	return vp ? vp : v;
}

/* put reg into e (from rcache_victim), clean, no mark, no uses */
static inline RcEnt *rcache_put(Rcache *c, RcEnt *e, int32_t reg)
{
	*e = (RcEnt){.reg = reg, .stamp = ++c->stamp};
	return e;
}

static inline void rcache_drop(RcEnt *e) { e->reg = -1; }

static inline void rcache_hold(Rcache *c, int warp) { c->held[warp] = 1; }
static inline int rcache_held(const Rcache *c, int warp) { return c->held[warp]; }

#endif
