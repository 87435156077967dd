/*
 * async.c -- cp.async groups in the timing model (PTX ISA 9.7.9.25.3).
 *
 * A warp's cp.async instructions join its open group; commit_group closes
 * it (group ids count up: TWarp.cpa_open is the open group's), and
 * wait_group N lets the warp go on only when every group but the N most
 * recently committed has completed; wait_all is commit + wait_group 0.
 * The functional core copies at issue; here a copy is a load/store-unit
 * access (pipe.c: the global lines through L1 for .ca or L2 only for .cg,
 * and the shared wavefronts of the write), the issuing warp goes on, and
 * the access's completion event (Event.cpa) counts the copy done.
 *
 * Per warp, copies in flight are counted per group id mod CPA_RING, and
 * cpa_oldest is the oldest group that may still have some.  It moves past
 * a group only when that group's count is zero, so a wait never ends
 * early; with more than CPA_RING groups in flight, groups CPA_RING apart
 * share a count, which only makes waits longer (never forever: every
 * counted copy is in flight).  A wait that cannot go on parks the warp
 * (WAIT_ASYNC, a memory stall) and, under the two-level scheduler,
 * deactivates it like a long-latency wait; the completing access wakes it.
 *
 * cp.async.mbarrier.arrive (CPA_MBAR) makes an mbarrier's phase wait for
 * the thread's copies so far (exec_mbar.c).  Here it waits like wait_all,
 * without closing a group, and its arrival (an atomic on the object) issues
 * once they are done: a consumer's test_wait sees the phase complete no
 * earlier than the hardware would.  The hardware lets the producer warp run
 * on meanwhile; rfsim holds it, so a producer that does other work between
 * its copies and the barrier is timed too slow.
 */
#include "timing/sm.h"

void cpa_reset(TWarp *w)
{
	w->cpa_open = w->cpa_oldest = 0;
	for (int i = 0; i < CPA_RING; i++) w->cpa_cnt[i] = 0;
}

static void advance(TWarp *w)
{
	while (w->cpa_oldest != w->cpa_open && !w->cpa_cnt[w->cpa_oldest % CPA_RING])
		w->cpa_oldest++;
}

int cpa_ready(const TWarp *w, const TIns *ti)
{
	if (ti->cpa == CPA_WAITALL || ti->cpa == CPA_MBAR)
		return w->cpa_oldest == w->cpa_open && !w->cpa_cnt[w->cpa_open % CPA_RING];
	/* groups before cpa_open - N must be done: cpa_oldest has passed them */
	uint32_t pending = w->cpa_open - w->cpa_oldest;
	return ti->cpa != CPA_WAIT || pending <= (uint32_t)ti->arg;
}

void cpa_issue(Sm *s, TWarp *w, const TIns *ti, CU *u)
{
	(void)s;
	switch (ti->cpa) {
	case CPA_COPY: case CPA_COPY_L2:
		w->cpa_cnt[w->cpa_open % CPA_RING]++;
		u->ev.cpa = 1;
		u->ev.cpa_group = w->cpa_open;
		break;
	case CPA_COMMIT: case CPA_WAITALL:
		w->cpa_open++;
		advance(w);
		break;
	default:
		break;
	}
}

void cpa_done(Sm *s, TWarp *w, uint32_t group)
{
	w->cpa_cnt[group % CPA_RING]--;
	advance(w);
	if (w->wait == WAIT_ASYNC && cpa_ready(w, &s->tp->ins[w->npc])) sm_unpark(s, w);
}
