/* test_rcache.c -- the register caches' entry array (src/timing/rf/rcache.h):
 * set shape, lookup, victim choice under FIFO, LRU and USE with and without
 * preferred marks, and the flush of a warp with its dirty write-backs. */
#include "timing/rf/rcache.h"
#include "unit.h"

/* put reg in warp's set s (into the policy's victim), dirty or not */
static RcEnt *put(Rcache *c, int warp, int32_t s, int32_t reg, int dirty)
{
	RcEnt *e = rcache_put(c, rcache_victim(c, warp, s, 0), reg);
	e->dirty = (uint8_t)dirty;
	return e;
}

TEST(rcache_sets_differ_by_one_way)
{
	Rcache c;
	rcache_init(&c, 2, 7, 2, RC_LRU);               /* 3 sets: 3, 2, 2 ways */
	CHECK_EQ(c.nsets, 3);
	int32_t n0, n1, n2;
	RcEnt *s0 = rcache_set(&c, 1, 0, &n0), *s1 = rcache_set(&c, 1, 1, &n1);
	RcEnt *s2 = rcache_set(&c, 1, 2, &n2);
	CHECK_EQ(n0, 3);
	CHECK_EQ(n1, 2);
	CHECK_EQ(n2, 2);
	CHECK(s0 == rcache_warp(&c, 1));
	CHECK(s1 == s0 + 3);
	CHECK(s2 == s0 + 5);
	CHECK(rcache_warp(&c, 1) == c.e + 7);
	rcache_fini(&c);
	rcache_init(&c, 1, 6, 64, RC_FIFO);             /* more ways than entries: one set */
	CHECK_EQ(c.nsets, 1);
	CHECK(rcache_set(&c, 0, 0, &n0) == c.e);
	CHECK_EQ(n0, 6);
	rcache_fini(&c);
}

TEST(rcache_lookup_is_by_warp_set_and_register)
{
	Rcache c;
	rcache_init(&c, 2, 4, 2, RC_LRU);               /* 2 sets of 2 */
	CHECK(!rcache_find(&c, 0, 0, 5));
	RcEnt *e = put(&c, 0, 1, 5, 0);
	CHECK(rcache_find(&c, 0, 1, 5) == e);
	CHECK(!rcache_find(&c, 0, 0, 5));               /* another set */
	CHECK(!rcache_find(&c, 1, 1, 5));               /* another warp */
	rcache_drop(e);
	CHECK(!rcache_find(&c, 0, 1, 5));
	rcache_fini(&c);
}

TEST(rcache_victim_free_first_then_fifo_or_lru)
{
	Rcache f, l;
	rcache_init(&f, 1, 3, 3, RC_FIFO);
	rcache_init(&l, 1, 3, 3, RC_LRU);
	Rcache *cs[] = {&f, &l};
	for (int i = 0; i < 2; i++) {
		Rcache *c = cs[i];
		RcEnt *a = put(c, 0, 0, 1, 0), *b = put(c, 0, 0, 2, 0), *d = put(c, 0, 0, 3, 0);
		CHECK(a != b && b != d && a != d);          /* free entries go first */
		rcache_touch(c, a);                          /* a hit on the oldest */
		rcache_drop(b);
		CHECK(rcache_victim(c, 0, 0, 0) == b);      /* a freed entry before any victim */
		put(c, 0, 0, 4, 0);
		/* FIFO: a is still the oldest allocation; LRU: d was used least recently */
		CHECK(rcache_victim(c, 0, 0, 0) == (c == &f ? a : d));
	}
	rcache_fini(&f);
	rcache_fini(&l);
}

TEST(rcache_victim_prefers_marked_entries)
{
	Rcache c;
	rcache_init(&c, 1, 4, 4, RC_FIFO);
	RcEnt *a = put(&c, 0, 0, 1, 0), *b = put(&c, 0, 0, 2, 0);
	RcEnt *d = put(&c, 0, 0, 3, 0), *e = put(&c, 0, 0, 4, 0);
	d->mark = 2;
	e->mark = 2 | 1;
	CHECK(rcache_victim(&c, 0, 0, 0) == a);         /* no preference: the oldest */
	CHECK(rcache_victim(&c, 0, 0, 2) == d);         /* the oldest marked */
	CHECK(rcache_victim(&c, 0, 0, 4) == a);         /* none marked so: the oldest */
	(void)b;
	rcache_fini(&c);
}

TEST(rcache_use_policy_fewest_uses_then_lru)
{
	Rcache c;
	rcache_init(&c, 1, 3, 3, RC_USE);
	RcEnt *a = put(&c, 0, 0, 1, 0), *b = put(&c, 0, 0, 2, 0), *d = put(&c, 0, 0, 3, 0);
	a->uses = 2, b->uses = 1, d->uses = 1;
	CHECK(rcache_victim(&c, 0, 0, 0) == b);         /* fewest uses; b older than d */
	rcache_touch(&c, b);                            /* USE renews stamps on hits */
	CHECK(rcache_victim(&c, 0, 0, 0) == d);
	d->uses = 3;
	CHECK(rcache_victim(&c, 0, 0, 0) == b);
	rcache_fini(&c);
}

typedef struct Wb {
	int n;
	int32_t regs[8];
	int64_t now;
	int warp;
} Wb;

static void record(void *ctx, int64_t now, int warp, RcEnt *e)
{
	Wb *w = ctx;
	w->regs[w->n++] = e->reg;
	w->now = now;
	w->warp = warp;
}

TEST(rcache_flush_reports_dirty_values_and_frees)
{
	Rcache c;
	rcache_init(&c, 2, 4, 4, RC_LRU);
	rcache_hold(&c, 1);
	rcache_hold(&c, 0);
	put(&c, 1, 0, 10, 1);
	put(&c, 1, 0, 11, 0);
	put(&c, 1, 0, 12, 1);
	put(&c, 0, 0, 20, 1);
	Wb w = {0};
	rcache_flush(&c, 77, 1, record, &w);
	CHECK_EQ(w.n, 2);                               /* the dirty ones, in entry order */
	CHECK_EQ(w.regs[0], 10);
	CHECK_EQ(w.regs[1], 12);
	CHECK_EQ(w.now, 77);
	CHECK_EQ(w.warp, 1);
	CHECK(!rcache_held(&c, 1));
	CHECK(rcache_held(&c, 0));
	CHECK(!rcache_find(&c, 1, 0, 11));              /* clean ones are freed too */
	CHECK(rcache_find(&c, 0, 0, 20));               /* other warps keep theirs */
	rcache_flush(&c, 78, 0, NULL, NULL);            /* no write-back: just dropped */
	CHECK(!rcache_find(&c, 0, 0, 20));
	rcache_fini(&c);
}
