/*
 * collector.c -- operand collector units (GPGPU-Sim's opndcoll_rfu, after
 * the NVIDIA patent it models).
 *
 * An issued instruction takes a free collector unit (oc.units for
 * arithmetic and branches, oc.mem_units for memory instructions; none
 * free: the instruction cannot issue).  From the next cycle on, the unit
 * asks the register-file model for each register it still needs; the
 * model grants what its banks allow this cycle and says when each
 * granted operand arrives.  Units are served oldest instruction first, so
 * no unit starves; a unit may receive operands from several banks in one
 * cycle.  Once every operand has arrived the unit dispatches to a free
 * execution unit (pipe.c), again oldest first, and is free again.  (An
 * earlier version served units round robin from a pointer that moved
 * once per stepped cycle: which unit won a bank then depended on how many
 * cycles the simulator had skipped, an artefact of the loop; issue order
 * is a property of the program's schedule.)
 * Each unit also says when it can next make progress (cu_wake: the next
 * cycle while it reads, else when its operands arrive or its execution
 * unit or memory resources free up), so an SM whose collectors are only
 * waiting can sleep until then.
 *
 * Not modelled: the collectors' own read ports (one operand per bank per
 * cycle is the limit), GPGPU-Sim's per-unit-type dispatch ports.
 */
#include "sim/sm.h"

int cu_alloc(Sm *s, int mem)
{
	uint64_t f = ~s->cu_busy & (mem ? s->cu_mask_mem : s->cu_mask_alu);
	return f ? __builtin_ctzll(f) : -1;
}

static void read_operands(Sm *s, CU *u)
{
	const TIns *ti = &s->tp->ins[u->pc];
	const int32_t *rd = s->tp->regs + ti->regs;
	for (uint64_t m = u->pending; m; m &= m - 1) {
		int i = __builtin_ctzll(m);
		int64_t t = s->rf->read(s->rfm, s->now, u->warp, rd[i] + u->rbase, u->pc, i);
		if (!t) continue;
		u->pending &= ~(1ull << i);
		if (t > u->ready) u->ready = t;
	}
}

/* Reads first, then dispatch, each oldest instruction first.  The load/store unit takes
 * memory instructions in order: once the oldest ready one is refused
 * (MSHRs, merge slots, the unit busy), no younger one overtakes it, as in
 * GPGPU-Sim's in-order LD/ST pipeline -- otherwise an access that needs
 * many MSHRs could wait forever behind ones that need few. */
void cu_stage(Sm *s)
{
	int64_t wake = SM_NEVER;
	uint64_t b = s->cu_busy, rdy = 0;
	while (b) {                                   /* oldest first */
		int i = __builtin_ctzll(b);
		for (uint64_t m = b & (b - 1); m; m &= m - 1) {
			int k = __builtin_ctzll(m);
			if (s->cu[k].seq < s->cu[i].seq) i = k;
		}
		b &= ~(1ull << i);
		CU *u = &s->cu[i];
		if (u->pending) read_operands(s, u);
		if (u->pending) wake = s->now + 1;
		else if (u->ready > s->now) { if (u->ready < wake) wake = u->ready; }
		else rdy |= 1ull << i;
	}
	int mem_blocked = 0;
	while (rdy) {
		int best = __builtin_ctzll(rdy);
		for (uint64_t m = rdy & (rdy - 1); m; m &= m - 1) {
			int i = __builtin_ctzll(m);
			if (s->cu[i].seq < s->cu[best].seq) best = i;
		}
		rdy &= ~(1ull << best);
		int mem = s->cu_mask_mem >> best & 1;
		if (mem && mem_blocked) continue;
		int64_t t = pipe_dispatch(s, &s->cu[best]);
		if (!t) {
			s->cu_busy &= ~(1ull << best);
			continue;
		}
		if (mem) mem_blocked = 1;
		if (t < wake) wake = t;
	}
	s->cu_wake = wake;
}
