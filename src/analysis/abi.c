/*
 * abi.c -- the registers the calling convention takes where ptxas cannot
 * allocate across a call (compiler.schedule = latency; pass.c counts them).
 *
 * ptxas allocates a kernel and the device functions it calls together,
 * each call using whatever registers are free (CALL.REL ... RET.REL R2).
 * Where it cannot see the callee -- an indirect call through a register,
 * a call to a function without a body (vprintf, malloc, free), or any
 * call in a module compiled for debugging (`.target sm_80, debug`: -G,
 * where each function is compiled on its own) -- the call follows the
 * ABI: arguments in R4 upwards, the return address in R20:R21, and
 * values live across the call in the callee-saved registers from R16,
 * past the return address.  `ptxas -v` then reports at least 24
 * registers (R0..R21 and its two more) for any such kernel (tests/sem/
 * indirect.ptx: a two-instruction body with one indirect call, 24), and
 * more the more is live across a call.
 *
 * Left out: the caller's saving of R0..R15 values live across the call to
 * the stack (ptxas spills them; rfsim counts them as they were allocated).
 */
#include "analysis/abi.h"

#include "analysis/cfg.h"
#include "analysis/live.h"
#include "analysis/ra_int.h"
#include "base/base.h"

enum { RET_ADDR = 20,        /* R20:R21: the return address */
       CALLEE_SAVED = 16 };  /* values live across a call: R16 upwards */

static int abi_call(const Module *m, const Ins *in, int debug)
{
	if (in->op != OP_CALL) return 0;
	const Operand *t = &in->o[in->nd];
	if (debug || t->kind == OPK_REG) return 1;
	if (t->kind != OPK_SYM) return 0;
	const Sym *s = &m->syms[t->reg];
	return s->kind == SYM_FUNC && (s->func < 0 || !m->funcs[s->func].has_body);
}

int32_t abi_regs(const Module *m, const Func *f)
{
	int debug = m->debug, any = 0;
	for (int32_t i = 0; i < f->nins && !any; i++) any = abi_call(m, &f->ins[i], debug);
	if (!any || !f->phys) return 0;
	Cfg *c = cfg_build(f);
	Live *l = live_compute(c);
	int32_t across = 0, buf[RA_MAXSLOT];
	for (int32_t i = 0; i < f->nins; i++) {
		if (!abi_call(m, &f->ins[i], debug)) continue;
		const uint64_t *out = live_out(l, i);
		int nd = live_defs(f, &f->ins[i], buf, RA_MAXSLOT), n = 0;
		for (int32_t g = 0; g < f->nreg; g++) {
			int def = 0;
			for (int q = 0; q < nd && q < RA_MAXSLOT && !def; q++) def = buf[q] == g;
			if (live_has(out, g) && !def) n += ra_reg_width((PtxType)f->regtype[g]);
		}
		if (n > across) across = n;
	}
	live_free(l);
	cfg_free(c);
	int32_t below = RET_ADDR - CALLEE_SAVED;       /* R16..R19 hold the first */
	return RET_ADDR + 2 + (across > below ? across - below : 0);
}
