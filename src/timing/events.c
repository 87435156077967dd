/* events.c -- the timing wheel and heap of events.h. */
#include "timing/events.h"

#include <stdlib.h>

#include "base/base.h"

#define MASK (EVQ_WHEEL - 1)

void evq_init(EventQ *q, int32_t cap)
{
	q->cap = cap > 16 ? cap : 16;
	q->pool = xmalloc((size_t)q->cap * sizeof *q->pool);
	for (int32_t i = 0; i < q->cap; i++) q->pool[i].next = i + 1 < q->cap ? i + 1 : -1;
	q->free = 0;
	q->head = xmalloc(EVQ_WHEEL * sizeof *q->head);
	q->tail = xmalloc(EVQ_WHEEL * sizeof *q->tail);
	for (int i = 0; i < EVQ_WHEEL; i++) q->head[i] = q->tail[i] = -1;
	for (int i = 0; i < EVQ_WHEEL / 64; i++) q->occ[i] = 0;
	q->nwheel = 0;
	q->capheap = 16;
	q->heap = xmalloc((size_t)q->capheap * sizeof *q->heap);
	q->nheap = 0;
	q->htop = INT64_MAX;
	q->seq = 0;
	q->next_ok = 0;
}

void evq_fini(EventQ *q)
{
	free(q->pool);
	free(q->heap);
	free(q->head);
	free(q->tail);
}

static inline int before(const Event *a, const Event *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void heap_push(EventQ *q, const Event *x)
{
	VEC_RESERVE(q->heap, q->capheap, (size_t)q->nheap + 1);
	int32_t i = q->nheap++;
	while (i > 0) {
		int32_t p = (i - 1) / 2;
		if (!before(x, &q->heap[p])) break;
		q->heap[i] = q->heap[p];
		i = p;
	}
	q->heap[i] = *x;
	q->htop = q->heap[0].t;
}

static void heap_pop(EventQ *q, Event *top)
{
	*top = q->heap[0];
	Event x = q->heap[--q->nheap];
	int32_t i = 0, n = q->nheap;
	for (;;) {
		int32_t c = 2 * i + 1;
		if (c >= n) break;
		if (c + 1 < n && before(&q->heap[c + 1], &q->heap[c])) c++;
		if (!before(&q->heap[c], &x)) break;
		q->heap[i] = q->heap[c];
		i = c;
	}
	if (n) q->heap[i] = x;
	q->htop = n ? q->heap[0].t : INT64_MAX;
}

static int32_t take(EventQ *q)
{
	if (q->free < 0) {                        /* grow: rare */
		int32_t n = q->cap;
		q->cap *= 2;
		q->pool = xrealloc(q->pool, (size_t)q->cap * sizeof *q->pool);
		for (int32_t i = n; i < q->cap; i++) q->pool[i].next = i + 1 < q->cap ? i + 1 : -1;
		q->free = n;
	}
	int32_t i = q->free;
	q->free = q->pool[i].next;
	return i;
}

void evq_push(EventQ *q, const Event *e, int64_t now)
{
	Event x = *e;
	if (x.t <= now) x.t = now + 1;
	x.seq = q->seq++;
	if (q->next_ok && x.t < q->next) q->next = x.t;
	if (x.t - now >= EVQ_WHEEL) {
		heap_push(q, &x);
		return;
	}
	int32_t i = take(q), b = (int32_t)(x.t & MASK);
	x.next = -1;
	q->pool[i] = x;
	if (q->tail[b] >= 0) q->pool[q->tail[b]].next = i;
	else q->head[b] = i;
	q->tail[b] = i;
	q->occ[b >> 6] |= 1ull << (b & 63);
	q->nwheel++;
}

int evq_pop(EventQ *q, int64_t now, Event *e)
{
	if (q->htop <= now) {
		heap_pop(q, e);
		q->next_ok = 0;
		return 1;
	}
	int32_t b = (int32_t)(now & MASK), i = q->head[b];
	if (i < 0 || q->pool[i].t > now) return 0;
	*e = q->pool[i];
	q->next_ok = 0;
	q->head[b] = e->next;
	if (e->next < 0) {
		q->tail[b] = -1;
		q->occ[b >> 6] &= ~(1ull << (b & 63));
	}
	q->pool[i].next = q->free;
	q->free = i;
	q->nwheel--;
	return 1;
}

static int64_t scan(const EventQ *q, int64_t now)
{
	int64_t t = q->htop;
	if (!q->nwheel) return t;
	int32_t b0 = (int32_t)(now & MASK);
	for (int32_t k = 0; k <= EVQ_WHEEL / 64; k++) {   /* buckets from now on, circularly */
		int32_t w = ((b0 >> 6) + k) % (EVQ_WHEEL / 64);
		uint64_t m = q->occ[w];
		if (k == 0) m &= ~0ull << (b0 & 63);
		else if (k == EVQ_WHEEL / 64) m &= (b0 & 63) ? ~(~0ull << (b0 & 63)) : 0;
		if (!m) continue;
		int32_t b = w * 64 + __builtin_ctzll(m);
		int64_t tw = q->pool[q->head[b]].t;
		return tw < t ? tw : t;
	}
	return t;
}

int64_t evq_next(EventQ *q, int64_t now)
{
	if (!q->next_ok) {
		q->next = scan(q, now);
		q->next_ok = 1;
	}
	return q->next;
}
