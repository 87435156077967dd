/*
 * rcache.c -- the register caches' entry array (rcache.h): its shape and
 * the flush of a warp.  Lookup, victim choice and the per-access updates
 * are inline in the header, since every operand access of RFC and the
 * use-based cache goes through them.
 */
#include <assert.h>
#include <stdlib.h>

#include "base/base.h"
#include "timing/rf/rcache.h"

void rcache_init(Rcache *c, int32_t nwarps, int32_t entries, int32_t ways, RcPolicy pol)
{
	assert(entries >= 1 && ways >= 1);
	if (ways > entries) ways = entries;
	*c = (Rcache){.nwarps = nwarps, .entries = entries, .pol = pol};
	c->nsets = entries / ways;
	c->first = xmalloc(((size_t)c->nsets + 1) * sizeof *c->first);
	int32_t base = entries / c->nsets, extra = entries % c->nsets;
	for (int32_t s = 0; s <= c->nsets; s++) c->first[s] = s * base + (s < extra ? s : extra);
	size_t n = (size_t)nwarps * (size_t)entries;
	c->e = xmalloc((n + 1) * sizeof *c->e);
	for (size_t i = 0; i < n; i++) c->e[i] = (RcEnt){.reg = -1};
	c->held = xcalloc((size_t)nwarps + 1, 1);
}

void rcache_fini(Rcache *c)
{
	free(c->e);
	free(c->held);
	free(c->first);
}

/* warp lets go of its entries: wb (if any) sees each dirty value, in
   entry order, before all are freed */
void rcache_flush(Rcache *c, int64_t now, int warp, RcWriteBack *wb, void *ctx)
{
	RcEnt *e = rcache_warp(c, warp);
	for (int32_t i = 0; i < c->entries; i++) {
		if (wb && e[i].reg >= 0 && e[i].dirty) wb(ctx, now, warp, &e[i]);
		e[i].reg = -1;
	}
	c->held[warp] = 0;
}
