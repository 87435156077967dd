/*
 * cache.c -- a set-associative tag array: lookup, LRU victim, per-line
 * ready cycle.  The data itself is never stored (the functional core owns
 * memory contents); a line only says whether, and from when, it is there.
 *
 * A line being filled has ready = MEM_PENDING and the index of the MSHR
 * that fills it; such a line is never chosen as a victim, so a fill always
 * finds its line.  valid says which parts of a line are there: MEM_WHOLE
 * for a cache of whole lines, a sector mask for a sectored one (l2.c).  Sets are indexed by (line / set_div) mod sets: a
 * banked cache (the L2) passes its bank count so the bank-select bits do
 * not also pick the set.
 */
#include "mem/mem.h"

#include <stdlib.h>

#include "base/base.h"

void cache_init(Cache *c, int64_t bytes, int64_t assoc, uint32_t line_bytes, uint32_t set_div)
{
	int64_t lines = bytes / line_bytes;
	c->ways = (int32_t)(assoc < lines ? assoc : lines);
	c->sets = c->ways ? (int32_t)(lines / c->ways) : 0;
	c->set_div = set_div ? set_div : 1;
	c->pow2 = c->sets && !(c->sets & (c->sets - 1)) && !(c->set_div & (c->set_div - 1));
	c->set_mask = c->sets ? (uint32_t)c->sets - 1 : 0;
	c->div_shift = 0;
	while ((1u << c->div_shift) < c->set_div) c->div_shift++;
	c->clock = 0;
	size_t n = (size_t)c->sets * (size_t)c->ways + 1;
	c->tag = xcalloc(n, sizeof *c->tag);
	c->ready = xcalloc(n, sizeof *c->ready);
	c->stamp = xcalloc(n, sizeof *c->stamp);
	c->dirty = xcalloc(n, sizeof *c->dirty);
	c->valid = xcalloc(n, sizeof *c->valid);
	c->mshr = xcalloc(n, sizeof *c->mshr);
}

void cache_fini(Cache *c)
{
	free(c->tag);
	free(c->ready);
	free(c->stamp);
	free(c->dirty);
	free(c->valid);
	free(c->mshr);
}

void cache_settle(Cache *c)
{
	size_t n = (size_t)c->sets * (size_t)c->ways;
	for (size_t i = 0; i < n; i++) {
		if (c->ready[i] == MEM_PENDING) c->tag[i] = 0, c->dirty[i] = 0, c->valid[i] = 0;
		c->ready[i] = 0;
		c->mshr[i] = -1;
	}
}

static inline int32_t set_base(const Cache *c, uint64_t la)
{
	if (c->pow2) return (int32_t)((la >> c->div_shift) & c->set_mask) * c->ways;
	return (int32_t)((la / c->set_div) % (uint64_t)c->sets) * c->ways;
}

int32_t cache_find(Cache *c, uint64_t la)
{
	if (!c->sets) return -1;
	int32_t b = set_base(c, la);
	for (int32_t i = b; i < b + c->ways; i++)
		if (c->tag[i] == la + 1) return i;
	return -1;
}

int32_t cache_victim(Cache *c, uint64_t la, int64_t now)
{
	if (!c->sets) return -1;
	int32_t b = set_base(c, la), v = -1;
	for (int32_t i = b; i < b + c->ways; i++) {
		if (!c->tag[i]) return i;
		if (c->ready[i] > now) continue;         /* being filled */
		if (v < 0 || c->stamp[i] < c->stamp[v]) v = i;
	}
	return v;
}
