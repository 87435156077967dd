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
#include "timing/sm.h"

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

/* One pass over the busy units, oldest instruction first (cu_ord): a
 * unit reads its operands, or dispatches once they are there.  Reads and
 * dispatches touch different resources and a unit granted operands this
 * cycle cannot dispatch before the next, so this is the same as all reads
 * then all dispatches.  A unit whose wake has not come is skipped: nothing
 * it waits for (operands in flight, an execution unit, MSHRs) can come
 * sooner -- except a cache that takes reads again early, which lowers the
 * memory units' wake (cu_mem_wake).  The load/store unit takes memory
 * instructions in order: once the oldest one ready to dispatch is
 * refused (MSHRs, merge slots, the unit busy), no younger one overtakes
 * it, as in GPGPU-Sim's in-order LD/ST pipeline -- otherwise an access
 * that needs many MSHRs could wait forever behind ones that need few. */
void cu_stage(Sm *s)
{
	int64_t wake = SM_NEVER, now = s->now, mem_t = 0;
	int32_t n = 0;
	s->cu_wake = SM_NEVER;                  /* (cu_mem_wake may lower it meanwhile) */
	for (int32_t k = 0; k < s->ncu_ord; k++) {
		int i = s->cu_ord[k];
		CU *u = &s->cu[i];
		int mem = (int)(s->cu_mask_mem >> i & 1);
		if (s->cu_wk[i] > now) {
			if (mem && !mem_t && !u->pending && u->ready <= now) mem_t = s->cu_wk[i];
		} else if (u->pending && (read_operands(s, u), u->pending)) {
			s->cu_wk[i] = now + 1;
		} else if (u->ready > now) {
			s->cu_wk[i] = u->ready;
		} else {
			int64_t t = mem && mem_t ? mem_t : pipe_dispatch(s, u);
			if (!t) {
				s->cu_busy &= ~(1ull << i);
				s->cu_epoch++;
				continue;
			}
			if (mem && !mem_t) mem_t = t;
			s->cu_wk[i] = t;
		}
		s->cu_ord[n++] = (int8_t)i;
		if (s->cu_wk[i] < wake) wake = s->cu_wk[i];
	}
	s->ncu_ord = n;
	if (wake < s->cu_wake) s->cu_wake = wake;
}

void cu_mem_wake(Sm *s, int64_t t)
{
	for (int32_t k = 0; k < s->ncu_ord; k++) {
		int i = s->cu_ord[k];
		if (s->cu_mask_mem >> i & 1 && s->cu_wk[i] > t) s->cu_wk[i] = t;
	}
	if (s->cu_busy && t < s->cu_wake) s->cu_wake = t;
}
