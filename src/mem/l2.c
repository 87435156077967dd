/*
 * l2.c -- the shared side of the memory system: interconnect, banked L2,
 * the path to DRAM (MemSys of mem.h).
 *
 * Interconnect: a fixed icnt.lat each way, no contention (GPGPU-Sim's
 * crossbar with its latency and without its flit arbitration).
 *
 * L2: l2.banks banks interleaved by line, each a set-associative cache of
 * l2.bytes / l2.banks bytes that takes one request per cycle (a request
 * arriving while its bank is busy waits for the first free cycle: bank
 * contention, first come first served by arrival cycle, calendar.h).  A hit answers
 * l2.lat cycles after the bank took it (plus the way back).  A miss takes
 * an L2 MSHR, which merges later misses to the same line without limit,
 * and goes to DRAM once the tags are checked; the line is allocated at
 * once (pending) and filled when DRAM answers.  L2 is write-back and
 * allocates on write without fetching (write-validate); dirty victims are
 * written to DRAM.  Atomics are performed at L2 (GPGPU-Sim's ROP): a read
 * that leaves the line dirty.  l2.bytes = 0 removes the cache: requests
 * go from the interconnect to DRAM.
 *
 * Left out: L2 set-index hashing, the MSHR limit (bounded in practice by
 * the SMs' MSHRs), sectored lines, the partition camping of real GPUs.
 */
#include "mem/mem.h"

#include <stdlib.h>

#include "base/base.h"

MemSys *memsys_new(const Config *cfg, int32_t nsm)
{
	MemSys *ms = xcalloc(1, sizeof *ms);
	ms->nsm = nsm;
	ms->line_bytes = (uint32_t)cfg->mem_line_bytes;
	ms->icnt = cfg->icnt_lat;
	ms->l2_lat = cfg->l2_bytes ? cfg->l2_lat : 0;
	ms->nbank = (int32_t)cfg->l2_banks;
	ms->bank = xcalloc((size_t)ms->nbank, sizeof *ms->bank);
	for (int32_t b = 0; b < ms->nbank; b++)
		cache_init(&ms->bank[b].c, cfg->l2_bytes / ms->nbank, cfg->l2_assoc, ms->line_bytes,
		           (uint32_t)ms->nbank);
	ms->freem = ms->freew = -1;
	ms->l1 = xcalloc((size_t)nsm, sizeof *ms->l1);
	ms->cc = xcalloc((size_t)nsm, sizeof *ms->cc);
	ms->done = xcalloc((size_t)nsm, sizeof *ms->done);
	ms->ctx = xcalloc((size_t)nsm, sizeof *ms->ctx);
	ms->dram = dram_new(cfg, ms);
	return ms;
}

void memsys_free(MemSys *ms)
{
	if (!ms) return;
	for (int32_t b = 0; b < ms->nbank; b++) cache_fini(&ms->bank[b].c);
	free(ms->bank);
	free(ms->m);
	free(ms->w);
	free(ms->l1);
	free(ms->cc);
	free(ms->done);
	free(ms->ctx);
	dram_free(ms->dram);
	free(ms);
}

/* MSHRs and waiters come from free lists that only grow (rarely: their
 * number is bounded by the SMs' outstanding misses) */
static int32_t new_mshr(MemSys *ms)
{
	if (ms->freem >= 0) {
		int32_t i = ms->freem;
		ms->freem = ms->m[i].head;
		return i;
	}
	VEC_RESERVE(ms->m, ms->capm, (size_t)ms->nm + 1);
	return ms->nm++;
}

static void add_waiter(MemSys *ms, int32_t m, int32_t sm, int kind, int32_t id)
{
	int32_t i;
	if (ms->freew >= 0) {
		i = ms->freew;
		ms->freew = ms->w[i].next;
	} else {
		VEC_RESERVE(ms->w, ms->capw, (size_t)ms->nw + 1);
		i = ms->nw++;
	}
	ms->w[i] = (struct L2Wait){sm, kind, id, ms->m[m].head};
	ms->m[m].head = i;
}

static void answer(MemSys *ms, int32_t sm, int kind, int32_t id, int64_t t)
{
	switch (kind) {
	case MW_L1: smc_fill(ms->l1[sm], id, t); break;
	case MW_CC: smc_fill(ms->cc[sm], id, t); break;
	default: ms->done[sm](ms->ctx[sm], id, t); break;
	}
}

void memsys_l2_fill(MemSys *ms, int32_t j, int64_t t)
{
	struct L2Mshr *m = &ms->m[j];
	if (m->line >= 0) {
		Cache *c = &ms->bank[m->bank].c;
		c->ready[m->line] = t;
		c->mshr[m->line] = -1;
	}
	int32_t w = m->head;
	while (w >= 0) {
		struct L2Wait x = ms->w[w];
		ms->w[w].next = ms->freew;
		ms->freew = w;
		answer(ms, x.sm, x.kind, x.id, t + ms->icnt);
		w = x.next;
	}
	m->head = ms->freem;
	ms->freem = j;
}

/* the bank of line la takes a request arriving at t: the cycle it starts */
static int64_t bank_slot(MemSys *ms, uint64_t la, int64_t t, struct L2Bank **bk)
{
	struct L2Bank *b = &ms->bank[la % (uint64_t)ms->nbank];
	*bk = b;
	return cal_book(&b->busy, t, 1, ms->now);
}

void memsys_read(MemSys *ms, int32_t sm, int kind, int32_t id, uint64_t la, int64_t t,
                 int atomic)
{
	struct L2Bank *b;
	int64_t s = bank_slot(ms, la, t + ms->icnt, &b);
	Cache *c = &b->c;
	int32_t k = cache_find(c, la);
	if (k >= 0) {
		cache_touch(c, k);
		if (atomic) c->dirty[k] = 1;
		if (c->ready[k] != MEM_PENDING) {
			ms->st.l2_hits++;
			int64_t r = c->ready[k] > s ? c->ready[k] : s;
			answer(ms, sm, kind, id, r + ms->l2_lat + ms->icnt);
			return;
		}
		ms->st.l2_misses++;
		add_waiter(ms, c->mshr[k], sm, kind, id);
		return;
	}
	ms->st.l2_misses++;
	int32_t j = new_mshr(ms);
	ms->m[j] = (struct L2Mshr){la, (int32_t)(b - ms->bank), cache_victim(c, la, s), -1};
	add_waiter(ms, j, sm, kind, id);
	int32_t v = ms->m[j].line;
	if (v >= 0) {
		if (c->tag[v] && c->dirty[v]) dram_access(ms->dram, c->tag[v] - 1, s, -1);
		c->tag[v] = la + 1;
		c->ready[v] = MEM_PENDING;
		c->dirty[v] = (uint8_t)(atomic != 0);
		c->mshr[v] = j;
		cache_touch(c, v);
	}
	dram_access(ms->dram, la, s + ms->l2_lat, j);
}

void memsys_write(MemSys *ms, int32_t sm, uint64_t la, int64_t t)
{
	struct L2Bank *b;
	int64_t s = bank_slot(ms, la, t + ms->icnt, &b);
	Cache *c = &b->c;
	int32_t k = cache_find(c, la);
	if (k < 0) {
		k = cache_victim(c, la, s);
		if (k < 0) {
			dram_access(ms->dram, la, s, -1);
			return;
		}
		if (c->tag[k] && c->dirty[k]) dram_access(ms->dram, c->tag[k] - 1, s, -1);
		c->tag[k] = la + 1;
		c->ready[k] = s;
		c->mshr[k] = -1;
	}
	c->dirty[k] = 1;
	cache_touch(c, k);
}

int64_t memsys_next(const MemSys *ms) { return dram_next(ms->dram); }

void memsys_step(MemSys *ms, int64_t now)
{
	ms->now = now;
	dram_step(ms->dram, now);
}
