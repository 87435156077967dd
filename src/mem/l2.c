/*
 * l2.c -- the shared side of the memory system: the L2 slices and the
 * memory system's clockwork (MemSys of mem.h).
 *
 * Slices.  l2.banks slices (GPGPU-Sim's memory sub-partitions), consecutive
 * lines in consecutive slices, the slices of one DRAM channel consecutive,
 * each a set-associative cache of l2.bytes / l2.banks.  A request reaches
 * its slice through the interconnect (icnt.c) and spends l2.lat L2 cycles
 * in its pipeline (GPGPU-Sim's ROP latency), then joins the slice's queue,
 * which looks up one request per L2 cycle, in order of arrival:
 *
 *   hit     the data is read through the slice's data port (l2.port_bytes
 *           per L2 cycle) and the reply goes back through the interconnect;
 *   miss    it takes an MSHR, or merges into the one fetching its line (up
 *           to l2.mshr_merge requests), and the line, chosen by LRU among
 *           those not being filled, is allocated pending; a dirty victim is
 *           written to DRAM.  The read goes to the slice's DRAM channel,
 *           whose answer fills the line and answers every request merged;
 *   write   write-back, allocating without fetching (write-validate);
 *   atomic  a read that leaves the line dirty (GPGPU-Sim's ROP atomics).
 *
 * A request that finds no MSHR, no room in its DRAM channel's queue, or a
 * set whose every line is being filled waits at the head of the queue, and
 * everything behind it waits too (GPGPU-Sim's reservation failures), until
 * a fill or the channel frees one; so does the slice when its return queue
 * (replies waiting for its interconnect port) holds l2.return_queue
 * replies.  That is where loaded latency grows: a DRAM-bound kernel fills
 * the DRAM queues, then the MSHRs, then the slices' queues, and the SMs'
 * MSHRs and miss queues stop the load/store units.
 *
 * Sectors.  With l2.sector_bytes, a line is fetched a sector at a time: a
 * miss fetches the sectors its request touches (MemOp.part), a hit needs
 * them all present, and a reply carries only them.  A request that merges
 * into a fill of other sectors of its line is answered by that fill (its
 * own sectors are not fetched: a small undercount of DRAM traffic).
 *
 * Kernels.  The L2 keeps its contents from one kernel to the next, as the
 * hardware does (memsys_settle gives the lines the next kernel's time base);
 * with mem.memcpy_l2 host-to-device copies leave their lines in it too
 * (memsys_preload), as GPGPU-Sim's -gpgpu_perf_sim_memcpy does.
 *
 * Clockwork.  The slices and the DRAM channels are the components that have
 * queues.  Each has the tick it can next act; a binary heap orders them
 * (ties by component number, so the order is deterministic), and
 * memsys_step acts on every component due before the end of the core cycle,
 * earliest first.  Components with nothing to do are not in the heap's
 * front and cost nothing.
 *
 * Left out: L2 set-index hashing, the input queue's limit (the SMs' MSHRs
 * bound what is in flight), partition camping, write acknowledgements
 * (stores never hold a warp).
 */
#include "mem/mem.h"

#include <math.h>
#include <stdlib.h>

#include "base/base.h"

enum { SR_READ, SR_ATOM, SR_WRITE };

typedef struct SReq {
	uint64_t la;
	int64_t t;               /* tick it joins the slice's queue */
	int32_t sm, id;          /* reader and its waiter id */
	uint8_t kind;            /* MW_* of the reader */
	uint8_t op;              /* SR_* */
	uint8_t part;            /* parts of the line it touches */
} SReq;

typedef struct L2Mshr {
	uint64_t la;
	int32_t line;            /* cache line being filled, -1 = none (no victim) */
	int32_t head;            /* first waiter; the free list's link when free */
	int32_t nw;              /* waiters */
	uint8_t part;            /* parts being fetched */
} L2Mshr;

typedef struct L2Wait { int32_t sm, id, next; uint8_t kind, part; } L2Wait;

struct Slice {
	Cache c;
	SReq *q; int32_t qh, qn, qcap;     /* queue, ring in arrival order */
	int blocked;             /* its head waits for an MSHR, DRAM room or a line */
	L2Mshr *m; int32_t nm, freem;      /* l2.mshrs of them, a free list */
	L2Wait *w; int32_t nw, capw, freew;
	Calendar data;           /* the data port, ticks */
};

/* ---- the component heap ---------------------------------------------------------- */

typedef struct Heap { int32_t n; int32_t *item, *pos; int64_t *key; } Heap;

static int before(const Heap *h, int32_t a, int32_t b)
{
	return h->key[a] < h->key[b] || (h->key[a] == h->key[b] && a < b);
}

static void heap_swap(Heap *h, int32_t i, int32_t j)
{
	int32_t a = h->item[i], b = h->item[j];
	h->item[i] = b, h->item[j] = a;
	h->pos[b] = i, h->pos[a] = j;
}

static void heap_fix(Heap *h, int32_t i)
{
	while (i > 0 && before(h, h->item[i], h->item[(i - 1) / 2])) {
		heap_swap(h, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	for (;;) {
		int32_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < h->n && before(h, h->item[l], h->item[m])) m = l;
		if (r < h->n && before(h, h->item[r], h->item[m])) m = r;
		if (m == i) return;
		heap_swap(h, i, m);
		i = m;
	}
}

static Heap *heap_of(MemSys *ms) { return (Heap *)ms->heap; }

void mem_schedule(MemSys *ms, int32_t comp, int64_t tick)
{
	Heap *h = heap_of(ms);
	if (h->key[comp] == tick) return;
	h->key[comp] = tick;
	heap_fix(h, h->pos[comp]);
	ms->next = h->key[h->item[0]];
}

void mem_schedule_min(MemSys *ms, int32_t comp, int64_t tick)
{
	if (tick < heap_of(ms)->key[comp]) mem_schedule(ms, comp, tick);
}

/* ---- set-up ------------------------------------------------------------------- */

/* every MSHR and waiter free, nothing queued */
static void free_all(Slice *s)
{
	for (int32_t j = 0; j < s->nm; j++) s->m[j].head = j + 1 < s->nm ? j + 1 : -1;
	s->freem = s->nm ? 0 : -1;
	s->nw = 0, s->freew = -1;
	s->qh = s->qn = 0;
	s->blocked = 0;
	s->data = (Calendar){0};
}

static int64_t period(double core_mhz, double mhz)
{
	int64_t p = llround(MEM_TICKS * core_mhz / mhz);
	return p > 0 ? p : 1;
}

MemSys *memsys_new(const Config *cfg, int32_t nsm)
{
	MemSys *ms = xcalloc(1, sizeof *ms);
	ms->nsm = nsm;
	ms->nslice = (int32_t)cfg->l2_banks;
	ms->line_bytes = (uint32_t)cfg->mem_line_bytes;
	ms->icnt_period = period(cfg->gpu_clock_mhz, cfg->icnt_clock_mhz);
	ms->l2_period = period(cfg->gpu_clock_mhz, cfg->l2_clock_mhz);
	ms->dram_period = period(cfg->gpu_clock_mhz, cfg->dram_clock_mhz);
	ms->icnt_lat = cfg->icnt_lat * ms->icnt_period;
	ms->flit_bytes = (int32_t)cfg->icnt_flit_bytes;
	ms->header_bytes = (int32_t)cfg->icnt_header_bytes;
	ms->miss_queue = (int32_t)cfg->l1_miss_queue;
	ms->l2_lat = cfg->l2_lat * ms->l2_period;
	ms->mshr_merge = (int32_t)cfg->l2_mshr_merge;
	ms->return_queue = (int32_t)cfg->l2_return_queue;
	ms->port_bytes = (int32_t)cfg->l2_port_bytes;
	int32_t sect = (int32_t)cfg->l2_sector_bytes;
	ms->sector_parts = sect && (uint32_t)sect < ms->line_bytes
	                   ? (int32_t)(sect * MEM_PARTS / ms->line_bytes) : MEM_PARTS;
	if (ms->sector_parts < 1) ms->sector_parts = 1;
	ms->spc = ms->nslice / (int32_t)cfg->dram_channels;
	ms->sm_out = xcalloc((size_t)nsm, sizeof *ms->sm_out);
	ms->sm_in = xcalloc((size_t)nsm, sizeof *ms->sm_in);
	ms->sl_in = xcalloc((size_t)ms->nslice, sizeof *ms->sl_in);
	ms->sl_out = xcalloc((size_t)ms->nslice, sizeof *ms->sl_out);
	ms->sl = xcalloc((size_t)ms->nslice, sizeof *ms->sl);
	for (int32_t k = 0; k < ms->nslice; k++) {
		Slice *s = &ms->sl[k];
		cache_init(&s->c, cfg->l2_bytes / ms->nslice, cfg->l2_assoc, ms->line_bytes,
		           (uint32_t)ms->nslice);
		s->nm = (int32_t)cfg->l2_mshrs;
		s->m = xcalloc((size_t)s->nm, sizeof *s->m);
		free_all(s);
	}
	ms->ncomp = ms->nslice + (int32_t)cfg->dram_channels;
	Heap *h = xcalloc(1, sizeof *h);
	h->n = ms->ncomp;
	h->item = xmalloc((size_t)h->n * sizeof *h->item);
	h->pos = xmalloc((size_t)h->n * sizeof *h->pos);
	h->key = xmalloc((size_t)h->n * sizeof *h->key);
	for (int32_t i = 0; i < h->n; i++) h->item[i] = h->pos[i] = i, h->key[i] = INT64_MAX;
	ms->heap = h;
	ms->next = INT64_MAX;
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
	for (int32_t k = 0; k < ms->nslice; k++) {
		cache_fini(&ms->sl[k].c);
		free(ms->sl[k].q);
		free(ms->sl[k].m);
		free(ms->sl[k].w);
	}
	Heap *h = heap_of(ms);
	free(h->item), free(h->pos), free(h->key), free(h);
	free(ms->sl), free(ms->sm_out), free(ms->sm_in), free(ms->sl_in), free(ms->sl_out);
	free(ms->l1), free(ms->cc), free(ms->done), free(ms->ctx);
	dram_free(ms->dram);
	free(ms);
}

void memsys_settle(MemSys *ms)
{
	for (int32_t k = 0; k < ms->nslice; k++) {
		cache_settle(&ms->sl[k].c);
		free_all(&ms->sl[k]);
	}
	for (int32_t i = 0; i < ms->nsm; i++) ms->sm_out[i] = ms->sm_in[i] = (Port){0};
	for (int32_t k = 0; k < ms->nslice; k++) ms->sl_in[k] = ms->sl_out[k] = (Port){0};
	Heap *h = heap_of(ms);
	for (int32_t i = 0; i < h->n; i++) h->item[i] = h->pos[i] = i, h->key[i] = INT64_MAX;
	ms->next = INT64_MAX;
	ms->now = 0;
	ms->st = (TStats){0};
	dram_settle(ms->dram);
}

/* ---- requests in ------------------------------------------------------------------ */

static int32_t slice_of(const MemSys *ms, uint64_t la) { return (int32_t)(la % (uint64_t)ms->nslice); }

/* bytes of data the parts `part` of a line stand for, in whole sectors */
static int32_t part_bytes(const MemSys *ms, uint8_t part)
{
	if (ms->sector_parts == MEM_PARTS) return (int32_t)ms->line_bytes;
	int32_t n = 0;
	for (int32_t k = 0; k < MEM_PARTS; k += ms->sector_parts)
		n += (part >> k & ((1u << ms->sector_parts) - 1)) != 0;
	return n * (int32_t)ms->line_bytes * ms->sector_parts / MEM_PARTS;
}

/* part rounded out to whole sectors (MEM_WHOLE unsectored) */
static uint8_t sectors(const MemSys *ms, uint8_t part)
{
	if (ms->sector_parts == MEM_PARTS) return MEM_WHOLE;
	uint8_t out = 0, m = (uint8_t)((1u << ms->sector_parts) - 1);
	for (int32_t k = 0; k < MEM_PARTS; k += ms->sector_parts)
		if (part >> k & m) out |= (uint8_t)(m << k);
	return out;
}

static void enqueue(MemSys *ms, int32_t k, SReq r)
{
	Slice *s = &ms->sl[k];
	if (s->qn == s->qcap) {                   /* grow the ring, unrolled from qh */
		int32_t cap = s->qcap ? 2 * s->qcap : 64;
		SReq *q = xmalloc((size_t)cap * sizeof *q);
		for (int32_t i = 0; i < s->qn; i++) q[i] = s->q[(s->qh + i) % s->qcap];
		free(s->q);
		s->q = q, s->qcap = cap, s->qh = 0;
	}
	int32_t i = s->qn++;                      /* insert by arrival (sends are nearly in order) */
	while (i > 0 && s->q[(s->qh + i - 1) % s->qcap].t > r.t) {
		s->q[(s->qh + i) % s->qcap] = s->q[(s->qh + i - 1) % s->qcap];
		i--;
	}
	s->q[(s->qh + i) % s->qcap] = r;
	if (i == 0 && !s->blocked) mem_schedule_min(ms, k, mem_edge(r.t, ms->l2_period));
}

void memsys_read(MemSys *ms, int32_t sm, int kind, int32_t id, uint64_t la, uint8_t part,
                 int64_t t, int atomic)
{
	int32_t k = slice_of(ms, la);
	int64_t a = icnt_to_slice(ms, sm, k, ms->header_bytes, mem_tick(t));
	enqueue(ms, k, (SReq){la, a + ms->l2_lat, sm, id, (uint8_t)kind,
	                      (uint8_t)(atomic ? SR_ATOM : SR_READ), part});
}

void memsys_write(MemSys *ms, int32_t sm, uint64_t la, uint8_t part, int64_t t)
{
	int32_t k = slice_of(ms, la);
	int64_t a = icnt_to_slice(ms, sm, k, ms->header_bytes + part_bytes(ms, part), mem_tick(t));
	enqueue(ms, k, (SReq){la, a + ms->l2_lat, sm, -1, 0, SR_WRITE, part});
}

/* ---- replies out --------------------------------------------------------------------- */

static void answer(MemSys *ms, int32_t sm, int kind, int32_t id, int64_t tick)
{
	int64_t t = mem_cycle(tick);
	switch (kind) {
	case MW_L1: smc_fill(ms->l1[sm], id, t); break;
	case MW_CC: smc_fill(ms->cc[sm], id, t); break;
	default: ms->done[sm](ms->ctx[sm], id, t); break;
	}
}

/* the data of `part` of a line is read at tick t and sent to the reader */
static void reply(MemSys *ms, int32_t k, int32_t sm, int kind, int32_t id, uint8_t part,
                  int64_t t)
{
	Slice *s = &ms->sl[k];
	int32_t bytes = part_bytes(ms, part);
	int64_t len = (bytes + ms->port_bytes - 1) / ms->port_bytes * ms->l2_period;
	int64_t d = cal_book(&s->data, mem_edge(t, ms->l2_period), len, ms->now) + len;
	answer(ms, sm, kind, id, icnt_to_sm(ms, k, sm, ms->header_bytes + bytes, d));
}

/* ---- lookups ------------------------------------------------------------------------ */

static int32_t channel_of(const MemSys *ms, int32_t k) { return k / ms->spc; }

static void add_waiter(Slice *s, int32_t j, const SReq *r)
{
	int32_t i;
	if (s->freew >= 0) {
		i = s->freew;
		s->freew = s->w[i].next;
	} else {
		VEC_RESERVE(s->w, s->capw, (size_t)s->nw + 1);
		i = s->nw++;
	}
	s->w[i] = (L2Wait){r->sm, r->id, s->m[j].head, r->kind, r->part};
	s->m[j].head = i;
	s->m[j].nw++;
}

/* the victim for la at tick now, its dirty data sent to DRAM; -1: every way of
 * the set is being filled (or no cache) */
static int32_t evict(MemSys *ms, int32_t k, uint64_t la, int64_t now)
{
	Slice *s = &ms->sl[k];
	int32_t v = cache_victim(&s->c, la, now);
	if (v >= 0 && s->c.tag[v] && s->c.dirty[v])
		dram_access(ms->dram, k, s->c.tag[v] - 1, part_bytes(ms, s->c.valid[v]), now, -1);
	return v;
}

/* a read or atomic missing at tick now: 0 if it must wait */
static int miss(MemSys *ms, int32_t k, const SReq *r, uint8_t need, int64_t now)
{
	Slice *s = &ms->sl[k];
	if (s->freem < 0 || !dram_room(ms->dram, channel_of(ms, k), 2)) return 0;
	int32_t v = -1;
	if (s->c.sets && (v = evict(ms, k, r->la, now)) < 0) return 0;
	int32_t j = s->freem;
	s->freem = s->m[j].head;
	s->m[j] = (L2Mshr){r->la, v, -1, 0, need};
	add_waiter(s, j, r);
	if (v >= 0) {
		s->c.tag[v] = r->la + 1;
		s->c.ready[v] = MEM_PENDING;
		s->c.valid[v] = 0;
		s->c.dirty[v] = r->op == SR_ATOM;
		s->c.mshr[v] = j;
		cache_touch(&s->c, v);
	}
	dram_access(ms->dram, k, r->la, part_bytes(ms, need), now, j);
	return 1;
}

static int write_in(MemSys *ms, int32_t k, const SReq *r, uint8_t need, int64_t now)
{
	Slice *s = &ms->sl[k];
	int32_t i = cache_find(&s->c, r->la);
	if (i < 0) {
		if (!dram_room(ms->dram, channel_of(ms, k), 1)) return 0;
		i = evict(ms, k, r->la, now);
		if (i < 0) {                          /* no line to take it: straight to DRAM */
			dram_access(ms->dram, k, r->la, part_bytes(ms, need), now, -1);
			return 1;
		}
		s->c.tag[i] = r->la + 1;
		s->c.ready[i] = now;
		s->c.valid[i] = 0;
		s->c.mshr[i] = -1;
	}
	s->c.valid[i] |= need;
	s->c.dirty[i] = 1;
	cache_touch(&s->c, i);
	return 1;
}

/* look the request up at tick now: 1 done, 0 it must wait */
static int lookup(MemSys *ms, int32_t k, const SReq *r, int64_t now)
{
	Slice *s = &ms->sl[k];
	uint8_t need = sectors(ms, r->part);
	if (r->op == SR_WRITE) return write_in(ms, k, r, need, now);
	int32_t i = cache_find(&s->c, r->la);
	if (i >= 0 && s->c.ready[i] == MEM_PENDING) {      /* being filled: merge */
		int32_t j = s->c.mshr[i];
		if (s->m[j].nw >= ms->mshr_merge) return 0;
		ms->st.l2_misses++;
		add_waiter(s, j, r);
		if (r->op == SR_ATOM) s->c.dirty[i] = 1;
		return 1;
	}
	if (i >= 0 && (s->c.valid[i] & need) == need) {
		ms->st.l2_hits++;
		cache_touch(&s->c, i);
		if (r->op == SR_ATOM) s->c.dirty[i] = 1;
		reply(ms, k, r->sm, r->kind, r->id, need, s->c.ready[i] > now ? s->c.ready[i] : now);
		return 1;
	}
	if (i >= 0) need &= (uint8_t)~s->c.valid[i];      /* fetch the sectors it lacks */
	if (!miss(ms, k, r, need, now)) return 0;
	ms->st.l2_misses++;
	return 1;
}

/* the replies waiting for the slice's port fill its return queue: when one
 * leaves (0 if they do not now) */
static int64_t return_full(const MemSys *ms, int32_t k, int64_t now)
{
	int64_t free;
	return port_waiting(&ms->sl_out[k], now, ms->return_queue, &free) ? free : 0;
}

static void slice_step(MemSys *ms, int32_t k, int64_t now)
{
	Slice *s = &ms->sl[k];
	if (!s->qn) {
		mem_schedule(ms, k, INT64_MAX);
		return;
	}
	const SReq *r = &s->q[s->qh];
	if (r->t > now) {
		mem_schedule(ms, k, mem_edge(r->t, ms->l2_period));
		return;
	}
	int64_t drain = return_full(ms, k, now);
	if (drain) {
		mem_schedule(ms, k, mem_edge(drain, ms->l2_period));
		return;
	}
	if (!lookup(ms, k, r, now)) {              /* wait for a fill or for DRAM */
		s->blocked = 1;
		mem_schedule(ms, k, INT64_MAX);
		return;
	}
	s->qh = (s->qh + 1) % s->qcap;
	s->qn--;
	mem_schedule(ms, k, s->qn ? now + ms->l2_period : INT64_MAX);
	if (s->qn && s->q[s->qh].t > now + ms->l2_period)
		mem_schedule(ms, k, mem_edge(s->q[s->qh].t, ms->l2_period));
}

static void unblock(MemSys *ms, int32_t k, int64_t t)
{
	Slice *s = &ms->sl[k];
	if (!s->blocked) return;
	s->blocked = 0;
	mem_schedule(ms, k, mem_edge(t > ms->now ? t : ms->now, ms->l2_period));
}

void l2_fill(MemSys *ms, int32_t k, int32_t j, int64_t t)
{
	Slice *s = &ms->sl[k];
	L2Mshr *m = &s->m[j];
	if (m->line >= 0) {
		s->c.ready[m->line] = t;
		s->c.valid[m->line] |= m->part;
		s->c.mshr[m->line] = -1;
	}
	for (int32_t w = m->head; w >= 0;) {
		L2Wait x = s->w[w];
		s->w[w].next = s->freew;
		s->freew = w;
		reply(ms, k, x.sm, x.kind, x.id, sectors(ms, x.part), t);
		w = x.next;
	}
	m->head = s->freem;
	s->freem = j;
	unblock(ms, k, t);
}

void l2_wake(MemSys *ms, int32_t ch, int64_t t)
{
	for (int32_t k = ch * ms->spc; k < (ch + 1) * ms->spc; k++) unblock(ms, k, t);
}

void memsys_preload(MemSys *ms, uint64_t la)
{
	Slice *s = &ms->sl[slice_of(ms, la)];
	if (!s->c.sets) return;
	int32_t i = cache_find(&s->c, la);
	if (i < 0) {
		i = cache_victim(&s->c, la, 0);
		if (i < 0) return;
		s->c.tag[i] = la + 1;
		s->c.dirty[i] = 0;              /* a victim's data went to DRAM with the copy */
		s->c.mshr[i] = -1;
	}
	s->c.ready[i] = 0;
	s->c.valid[i] = MEM_WHOLE;
	cache_touch(&s->c, i);
}

/* ---- the clockwork ---------------------------------------------------------------------- */

int64_t memsys_next(const MemSys *ms)
{
	return ms->next == INT64_MAX ? INT64_MAX : ms->next / MEM_TICKS;
}

void memsys_step(MemSys *ms, int64_t now)
{
	int64_t end = mem_tick(now + 1);
	ms->now = mem_tick(now);
	while (ms->next < end) {
		Heap *h = heap_of(ms);
		int32_t c = h->item[0];
		int64_t t = h->key[c];
		ms->now = t;
		if (c < ms->nslice) slice_step(ms, c, t);
		else dram_step(ms->dram, c - ms->nslice, t);
	}
	ms->now = mem_tick(now);
}
