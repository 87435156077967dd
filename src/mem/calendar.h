/*
 * calendar.h -- when a shared resource (an L2 bank's tag port, a DRAM
 * channel's data bus) is booked, as a short sorted list of busy intervals.
 *
 * Requests reach the memory system in the order the SMs generate them,
 * which is not the order of the cycles they arrive at a resource: a
 * load/store unit sends a divergent access's lines at t, t+1, ..., t+31
 * in one go, and the SMs of one cycle are stepped in turn.  A single
 * "free from" time per resource would then make an access that arrives
 * earlier but is booked later wait behind one that arrives later -- up to
 * 31 cycles for the next SM's coalesced access, an artefact of the
 * simulator's loop order, not of the hardware.  A calendar lets each
 * request take the first gap at or after its arrival that is long enough:
 * first come in arrival time, booking order only breaking ties.
 *
 * Intervals that end at or before `past` -- the cycle before which no
 * request can arrive any more (the memory system's current cycle) -- are
 * dropped; adjacent ones merge, so the list stays a few entries long.  If
 * it is full all the same (CAL_MAX disjoint intervals ahead: a saturated
 * resource) the request goes after the last one, which is what a
 * saturated FIFO does anyway.
 */
#ifndef RFSIM_MEM_CALENDAR_H
#define RFSIM_MEM_CALENDAR_H

#include <stdint.h>
#include <string.h>

#define CAL_MAX 16

typedef struct Calendar {
	int32_t n;
	int64_t s[CAL_MAX], e[CAL_MAX];   /* busy [s, e), sorted, disjoint, not adjacent */
} Calendar;

/* book len units at the first gap at or after t; the start */
static inline int64_t cal_book(Calendar *c, int64_t t, int64_t len, int64_t past)
{
	int32_t i = 0;
	while (i < c->n && c->e[i] <= past) i++;         /* over: drop them */
	if (i) {
		memmove(c->s, c->s + i, (size_t)(c->n - i) * sizeof *c->s);
		memmove(c->e, c->e + i, (size_t)(c->n - i) * sizeof *c->e);
		c->n -= i;
		i = 0;
	}
	while (i < c->n && c->e[i] <= t) i++;            /* over before t */
	for (; i < c->n; i++) {                          /* gap before interval i? */
		if (c->s[i] >= t + len) break;
		if (c->e[i] > t) t = c->e[i];
	}
	if (c->n == CAL_MAX && i < c->n) {               /* full: go after the last */
		t = c->e[c->n - 1] > t ? c->e[c->n - 1] : t;
		i = c->n;
	}
	int64_t end = t + len;
	int left = i > 0 && c->e[i - 1] == t, right = i < c->n && c->s[i] == end;
	if (left && right) {                             /* fills the gap exactly */
		c->e[i - 1] = c->e[i];
		memmove(c->s + i, c->s + i + 1, (size_t)(c->n - i - 1) * sizeof *c->s);
		memmove(c->e + i, c->e + i + 1, (size_t)(c->n - i - 1) * sizeof *c->e);
		c->n--;
	} else if (left) {
		c->e[i - 1] = end;
	} else if (right) {
		c->s[i] = t;
	} else if (c->n < CAL_MAX) {
		memmove(c->s + i + 1, c->s + i, (size_t)(c->n - i) * sizeof *c->s);
		memmove(c->e + i + 1, c->e + i, (size_t)(c->n - i) * sizeof *c->e);
		c->s[i] = t;
		c->e[i] = end;
		c->n++;
	} else {                                         /* full, after the last: extend it */
		c->e[c->n - 1] = end;
	}
	return t;
}

#endif
