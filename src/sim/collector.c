/*
 * collector.c -- operand collector units (GPGPU-Sim's opndcoll_rfu, after
 * the NVIDIA patent it models).
 *
 * An issued instruction takes a free collector unit (oc.units for
 * arithmetic and branches, oc.mem_units for memory instructions; none
 * free: the instruction cannot issue).  From the next cycle on, the unit
 * asks the register-file model for each register it still needs; the
 * model grants what its banks allow this cycle and says when each
 * granted operand arrives.  Units are served round robin, starting one
 * further each cycle, so no unit starves; a unit may receive operands
 * from several banks in one cycle.  Once every operand has arrived the
 * unit dispatches to a free execution unit (pipe.c) and is free again.
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
		s->st.reg_reads++;
		u->pending &= ~(1ull << i);
		if (t > u->ready) u->ready = t;
	}
}

/* Reads and dispatch in one pass over the busy units, round robin from
 * cu_rr: a unit granted operands this cycle cannot also dispatch this cycle
 * (operands arrive at the earliest next cycle), so one pass is the same as
 * all reads first, then all dispatches. */
static void serve(Sm *s, CU *u, int i)
{
	int64_t wake = s->now + 1;
	if (u->pending) read_operands(s, u);
	if (!u->pending) {
		if (u->ready > s->now) wake = u->ready;
		else if ((wake = pipe_dispatch(s, u)) == 0) s->cu_busy &= ~(1ull << i);
	}
	if (wake && wake < s->cu_wake) s->cu_wake = wake;
}

void cu_stage(Sm *s)
{
	s->cu_wake = SM_NEVER;
	int start = s->cu_rr;
	uint64_t b = s->cu_busy, hi = b & (~0ull << start), lo = b & ~hi;
	for (; hi; hi &= hi - 1) serve(s, &s->cu[__builtin_ctzll(hi)], __builtin_ctzll(hi));
	for (; lo; lo &= lo - 1) serve(s, &s->cu[__builtin_ctzll(lo)], __builtin_ctzll(lo));
	int total = s->ncu + s->ncu_mem;
	s->cu_rr = s->cu_rr + 1 < total ? s->cu_rr + 1 : 0;
}
