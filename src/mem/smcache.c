/*
 * smcache.c -- an SM's L1 data cache and its constant cache.
 *
 * Reads.  A line whose data is there (ready <= now) hits: the data is
 * back l1.lat cycles later.  Lines are fetched whole.  A line being filled whose fill time is known
 * answers at max(now + lat, ready).  Otherwise the read waits on the MSHR
 * of that line (up to l1.mshr_merge readers, GPGPU-Sim's merging), or
 * takes a free MSHR and a victim line and goes to L2 when the lookup is
 * through the cache's pipeline, l1.lat cycles later (GPGPU-Sim 4's L1
 * latency queue, which hits and misses alike pass).  An MSHR is busy until its fill arrives;
 * the load/store unit asks smc_can_read first and holds the instruction
 * while the MSHRs or merge slots are short (GPGPU-Sim's reservation
 * failure), so a read never fails half-way; so it does while the SM's miss
 * queue is full (l1.miss_queue requests waiting for its interconnect port:
 * memsys_can_send).  Until an MSHR frees, the
 * cache then takes no reads at all, hits included (the in-order memory
 * pipeline of GPGPU-Sim stalls the same way), which also spares asking
 * again every cycle.
 *
 * Writes.  wt (write-through, no allocate; GPGPU-Sim's Fermi L1 for
 * global data): a hit line stays valid, the write goes to L2.  wb
 * (write-back, allocate without fetching the line: write-validate, whole
 * lines assumed): a write marks its line dirty; dirty victims go to L2.
 * Stores never wait for memory: the warp goes on.
 *
 * With l1.bytes = 0 there are no lines: every read is a miss that still
 * goes through an MSHR (so outstanding misses stay bounded and same-line
 * reads still merge), and writes go straight to L2.  The constant cache
 * is the same structure, read-only, 4-way with 8 MSHRs.
 */
#include "mem/mem.h"

#include <stdlib.h>

#include "base/base.h"

/* cycles from a read reaching the cache to its miss leaving for L2: the lookup,
 * none without a cache */
static int64_t lookup(const SmCache *s) { return s->c.sets ? s->lat : 0; }

void smc_init(SmCache *s, int kind, int32_t sm, MemSys *ms, int64_t bytes, int64_t assoc,
              int64_t mshrs, int64_t merge, int64_t lat, int wb, MemDone done, void *ctx,
              uint64_t *hits, uint64_t *misses)
{
	cache_init(&s->c, bytes, assoc, ms->line_bytes, 1);
	s->nm = (int32_t)mshrs;
	s->merge = (int32_t)merge;
	s->m = xcalloc((size_t)s->nm, sizeof *s->m);
	s->mfree = xcalloc((size_t)s->nm, sizeof *s->mfree);
	for (int32_t i = 0; i < s->nm; i++) s->m[i].w = xcalloc((size_t)s->merge, sizeof(int32_t));
	s->lat = lat;
	s->wb = wb;
	s->kind = kind;
	s->sm = sm;
	s->ms = ms;
	s->done = done;
	s->ctx = ctx;
	s->hits = hits;
	s->misses = misses;
	s->scan_at = -1;
}

void smc_fini(SmCache *s)
{
	for (int32_t i = 0; i < s->nm; i++) free(s->m[i].w);
	free(s->m);
	free(s->mfree);
	cache_fini(&s->c);
}

/* Free MSHRs at now, and the first cycle after now that one frees.  The
 * count stays right until then unless an MSHR is taken or a fill time
 * becomes known, which mark it stale: it is kept, not recounted on every
 * attempt of a refused access. */
static int32_t free_mshrs(SmCache *s, int64_t now)
{
	if (s->scan_at < 0 || now < s->scan_at || now >= s->scan_next) {
		int32_t n = 0;
		int64_t next = MEM_PENDING;
		for (int32_t j = 0; j < s->nm; j++) {
			int64_t f = s->mfree[j];
			if (f <= now) n++;
			else if (f < next) next = f;
		}
		s->scan_at = now;
		s->scan_next = next;
		s->scan_free = n;
	}
	return s->scan_free;
}

/* a read cannot be accepted: nothing changes before an MSHR frees (a fill
 * whose time is known, or one that becomes known: smc_fill lowers retry) */
static int blocked(SmCache *s, int64_t now)
{
	free_mshrs(s, now);
	s->retry = s->scan_next;
	return 0;
}

/* Counted against the lines' state now.  An access that misses in more
 * lines than the cache has MSHRs goes when all of them are free; so does one
 * whose own misses evict one of its later lines and find the MSHRs one short
 * while it sends: lines without an MSHR go to L2 as uncached reads. */
int smc_can_read(SmCache *s, const uint64_t *la, int n, int64_t now)
{
	if (now < s->retry) return 0;
	int need = 0, free_m = free_mshrs(s, now);
	int64_t later;
	if (!s->nfull && free_m >= n && memsys_can_send(s->ms, s->sm, now + lookup(s), &later))
		return 1;                            /* nothing below can refuse */
	for (int i = 0; i < n; i++) {
		int32_t k = cache_find(&s->c, la[i]);
		if (k >= 0 && s->c.ready[k] != MEM_PENDING) continue;
		if (k >= 0) {
			if (s->m[s->c.mshr[k]].nw >= s->merge) return blocked(s, now);
			continue;
		}
		int merged = 0;                      /* no line (no cache, or no victim): by MSHR */
		for (int32_t j = 0; j < s->nm && !merged && s->unalloc; j++)
			merged = s->mfree[j] == MEM_PENDING && s->m[j].la == la[i] &&
			         s->m[j].nw < s->merge;
		if (!merged && ++need > free_m && free_m < s->nm) return blocked(s, now);
	}
	if (need && !memsys_can_send(s->ms, s->sm, now + lookup(s), &later)) {
		s->retry = later - lookup(s);        /* misses leave after the lookup */
		return 0;
	}
	return 1;
}

static int32_t take_mshr(SmCache *s, int64_t now)
{
	for (int32_t j = 0; j < s->nm; j++)
		if (s->mfree[j] <= now) return j;
	return -1;
}

int64_t smc_read(SmCache *s, uint64_t la, int64_t t, int32_t waiter)
{
	int32_t k = cache_find(&s->c, la);
	if (k >= 0) {
		cache_touch(&s->c, k);
		int64_t r = s->c.ready[k];
		if (r <= t) {
			(*s->hits)++;
			return t + s->lat;
		}
		(*s->misses)++;
		if (r != MEM_PENDING) return r > t + s->lat ? r : t + s->lat;
		Mshr *m = &s->m[s->c.mshr[k]];
		m->w[m->nw++] = waiter;
		s->nfull += m->nw == s->merge;
		return MEM_PENDING;
	}
	(*s->misses)++;
	for (int32_t j = 0; j < s->nm && s->unalloc; j++) {   /* an unallocated miss in flight */
		Mshr *m = &s->m[j];
		if (s->mfree[j] == MEM_PENDING && m->la == la && m->nw < s->merge) {
			m->w[m->nw++] = waiter;
			s->nfull += m->nw == s->merge;
			return MEM_PENDING;
		}
	}
	int32_t j = take_mshr(s, t);
	if (j < 0) {                              /* see smc_can_read's comment */
		memsys_read(s->ms, s->sm, MW_DIRECT, waiter, la, MEM_WHOLE, t + lookup(s), 0);
		return MEM_PENDING;
	}
	Mshr *m = &s->m[j];
	s->scan_at = -1;
	m->la = la;
	s->mfree[j] = MEM_PENDING;
	m->nw = 1;
	m->w[0] = waiter;
	s->nfull += s->merge == 1;
	m->line = cache_victim(&s->c, la, t);
	s->unalloc += m->line < 0;
	if (m->line >= 0) {
		int32_t v = m->line;
		if (s->c.tag[v] && s->c.dirty[v])
			memsys_write(s->ms, s->sm, s->c.tag[v] - 1, MEM_WHOLE, t);
		s->c.tag[v] = la + 1;
		s->c.ready[v] = MEM_PENDING;
		s->c.dirty[v] = 0;
		s->c.mshr[v] = j;
		cache_touch(&s->c, v);
	}
	memsys_read(s->ms, s->sm, s->kind, j, la, MEM_WHOLE, t + lookup(s), 0);
	return MEM_PENDING;
}

void smc_fill(SmCache *s, int32_t j, int64_t t)
{
	Mshr *m = &s->m[j];
	if (m->line >= 0) {
		s->c.ready[m->line] = t;
		s->c.mshr[m->line] = -1;
	} else {
		s->unalloc--;
	}
	s->mfree[j] = t;
	s->scan_at = -1;
	if (t < s->retry) {                       /* reads were refused: try again at t */
		s->retry = t;
		s->done(s->ctx, -1, t);
	}
	s->nfull -= m->nw >= s->merge;
	for (int32_t i = 0; i < m->nw; i++) s->done(s->ctx, m->w[i], t);
	m->nw = 0;
}

void smc_write(SmCache *s, uint64_t la, uint8_t part, int64_t t)
{
	int32_t k = cache_find(&s->c, la);
	if (!s->wb) {
		if (k >= 0) cache_touch(&s->c, k);
		memsys_write(s->ms, s->sm, la, part, t);
		return;
	}
	if (k < 0) {
		k = cache_victim(&s->c, la, t);
		if (k < 0) {
			memsys_write(s->ms, s->sm, la, part, t);
			return;
		}
		if (s->c.tag[k] && s->c.dirty[k])
			memsys_write(s->ms, s->sm, s->c.tag[k] - 1, MEM_WHOLE, t);
		s->c.tag[k] = la + 1;
		s->c.ready[k] = t;
		s->c.mshr[k] = -1;
	}
	s->c.dirty[k] = 1;
	cache_touch(&s->c, k);
}
