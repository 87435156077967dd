/*
 * exec_mbar.c -- the functional core's mbarrier objects (PTX ISA
 * 9.7.13.15), what libcu++'s cuda::barrier, cuda::pipeline and
 * cuda::memcpy_async are built on.
 *
 * An mbarrier is an opaque 8-byte object in shared memory; its layout is
 * the implementation's, and rfsim's is:
 *
 *   bits  0..19  pending arrivals of the current phase
 *   bits 20..39  expected arrivals of each later phase (init's count, less
 *                every arrive_drop)
 *   bits 40..61  tx-count (two's complement): bytes expected by expect_tx
 *                and not yet reported by complete_tx
 *   bit  62      valid: set by init, cleared by inval
 *   bit  63      phase parity
 *
 * A phase completes when its pending arrivals and its tx-count are both
 * zero: the parity flips and pending becomes expected.  Each instruction is
 * one atomic read-modify-write of the object per active lane, lowest lane
 * first (so of a warp's 32 arrivals the last may complete a phase and the
 * next lane arrive in the following one).  arrive returns a state: the
 * object as the arrival left it, before any completion, so its bit 63 is
 * the parity of the phase it arrived in and its pending count is what
 * pending_count reads.  test_wait and try_wait are true once that phase is
 * over (the object's parity differs from the state's, or, with .parity,
 * from the operand); waiting is the program's own loop around them, which
 * rfsim runs as written: try_wait does not suspend the thread, which the ISA
 * allows (its time limit may be zero).  A wait that finds a lane's phase not
 * over returns EX_YIELD, which ends the warp's slice in functional mode, so
 * the warps it waits for run before it spins again.  cp.async.mbarrier.arrive arrives
 * once the thread's earlier cp.async copies are complete; the functional
 * core copies at issue, so without .noinc (pending incremented, then the
 * arrival) it changes nothing here and with .noinc it is an arrival; the
 * timing model holds the warp until its copies land (async.c).
 *
 * What the ISA leaves undefined stops the kernel with a report instead:
 * using an object that is not initialized (or is invalidated), more
 * arrivals than the phase has pending, a .noComplete arrival that would
 * complete the phase, and init counts outside 1..2^20-1.  Objects in other
 * CTAs of the cluster are reached through their shared::cluster addresses
 * (exec_mem.c); cp.async.bulk's copies complete their bytes on one (below).
 */
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "func/exec_int.h"

#define MB_COUNT_MAX ((1u << 20) - 1)
#define MB_VALID (1ull << 62)
#define MB_PARITY (1ull << 63)

static uint32_t pending(uint64_t o) { return (uint32_t)(o & MB_COUNT_MAX); }
static uint32_t expected(uint64_t o) { return (uint32_t)(o >> 20 & MB_COUNT_MAX); }
static int32_t tx(uint64_t o) { return (int32_t)((int64_t)(o << 2) >> 42); }

static uint64_t pack(uint64_t parity, uint32_t pend, uint32_t exp, int32_t txc)
{
	return parity | MB_VALID | pend | (uint64_t)exp << 20 |
	       ((uint64_t)(uint32_t)txc & 0x3fffff) << 40;
}

static int bad(Cta *c, Warp *w, uint32_t l, const DIns *d, uint64_t a, const char *why)
{
	char msg[256];
	snprintf(msg, sizeof msg, "mbarrier at address 0x%llx: %s",
	         (unsigned long long)a, why);
	exec_fault(c, w, l, d, FAULT_TRAP, msg);
	return EX_FAULT;
}

/* the phase completes if nothing is pending: flip the parity, rearm */
static uint64_t settle(uint64_t o)
{
	if (pending(o) || tx(o)) return o;
	return pack((o & MB_PARITY) ^ MB_PARITY, expected(o), expected(o), 0);
}

/* one lane's operation on object *o; *out its result (state or predicate bit) */
static int apply(Cta *c, Warp *w, uint32_t l, const DIns *d, uint64_t a, uint64_t *o,
                 uint64_t arg, uint64_t *out)
{
	uint64_t v = *o, par = v & MB_PARITY;
	int f = d->aux;
	if (d->op == OP_MBAR_INIT) {
		if (arg < 1 || arg > MB_COUNT_MAX) return bad(c, w, l, d, a, "init count out of "
		                                              "range 1..2^20-1");
		*o = pack(0, (uint32_t)arg, (uint32_t)arg, 0);
		return EX_OK;
	}
	if (d->op == OP_MBAR_INVAL) {
		*o = 0;
		return EX_OK;
	}
	if (!(v & MB_VALID))
		return bad(c, w, l, d, a, "not initialized (mbarrier.init), or invalidated");
	switch (d->op) {
	case OP_MBAR_TEST: case OP_MBAR_TRY:
		*out = par != ((f & MBF_PARITY) ? (arg & 1) << 63 : (arg & MB_PARITY));
		return EX_OK;
	case OP_MBAR_EXPECT_TX: case OP_MBAR_COMPLETE_TX: {
		int64_t t = tx(v) + (d->op == OP_MBAR_EXPECT_TX ? (int64_t)arg : -(int64_t)arg);
		if (t < -(int64_t)MB_COUNT_MAX || t > MB_COUNT_MAX)
			return bad(c, w, l, d, a, "tx-count out of range");
		*o = settle(pack(par, pending(v), expected(v), (int32_t)t));
		return EX_OK;
	}
	case OP_CP_MBAR:
		if (!(f & MBF_NOINC)) return EX_OK;        /* +1, then the copies' arrival */
		arg = 1;
		break;
	default:
		break;
	}
	/* arrive, arrive_drop, cp.async.mbarrier.arrive.noinc: arg arrivals (.expect_tx: 1
	   arrival after expecting arg bytes) */
	int32_t t = tx(v);
	if (f & MBF_EXPECT_TX) {
		t += (int32_t)arg;
		arg = 1;
	}
	if (arg > pending(v)) return bad(c, w, l, d, a, "more arrivals than the phase has "
	                                  "pending");
	uint32_t exp = expected(v);
	if (d->op == OP_MBAR_DROP) {
		if (arg > exp) return bad(c, w, l, d, a, "arrive_drop below zero expected arrivals");
		exp -= (uint32_t)arg;
	}
	uint64_t nv = pack(par, pending(v) - (uint32_t)arg, exp, t);
	*out = nv;
	if ((f & MBF_NOCOMPLETE) && !pending(nv) && !tx(nv))
		return bad(c, w, l, d, a, ".noComplete arrival completes the phase");
	*o = settle(nv);
	return EX_OK;
}

int exec_mbar(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	const Image *img = c->L->img;
	if (d->op == OP_MBAR_PENDING) {
		const uint32_t *s = srcp(w, img, d->s[0]);
		uint32_t *dp = dstp(w, d->d[0]);
		LANES(act, l) dp[l] = pending(rd64(s, l));
		return EX_OK;
	}
	int store = d->op != OP_MBAR_TEST && d->op != OP_MBAR_TRY;
	uint32_t done = 0;
	LANES(act, l) {
		uint64_t a = exec_addr_of(w, img, d, l);
		uint8_t *p = exec_addr(c, w, l, d, d->space, a, 8, store);
		if (!p) return EX_FAULT;
		uint64_t arg = d->ns ? rdw(srcp(w, img, d->s[0]), l, d->sw[0]) : 0, out = 0;
		if (d->op == OP_MBAR_ARRIVE || d->op == OP_MBAR_DROP) arg = d->ns ? arg : 1;
		uint64_t o = load_le(p, 8), old = o;
		if (apply(c, w, l, d, a, &o, arg, &out)) return EX_FAULT;
		store_le(p, 8, o);
		w->nwrites += o != old;
		if (d->op == OP_MBAR_TEST || d->op == OP_MBAR_TRY) done |= (uint32_t)out << l;
		else if (d->nd && d->d[0] >= 0) wrw(dstp(w, d->d[0]), l, d->dw[0], out);
	}
	if (d->op != OP_MBAR_TEST && d->op != OP_MBAR_TRY) return EX_OK;
	if (d->d[0] >= 0) set_pred(w, d->d[0], act, done);
	return done == act ? EX_OK : EX_YIELD;
}

/* ---- cp.async.bulk ------------------------------------------------------------ */

/* the mbarrier at shared address a (of this CTA or, a shared::cluster address,
 * another of its cluster) is told bytes arrived: its tx-count drops by them */
static int complete_tx(Cta *c, Warp *w, uint32_t l, const DIns *d, uint64_t a, uint32_t bytes)
{
	uint8_t *p = exec_span(c, w, l, d, XS_SHARED, a, 8, 8, 1, 0);
	if (!p) return EX_FAULT;
	uint64_t v = load_le(p, 8);
	if (!(v & MB_VALID))
		return bad(c, w, l, d, a, "not initialized (mbarrier.init), or invalidated, when "
		           "cp.async.bulk completed on it");
	int64_t t = tx(v) - (int64_t)bytes;
	if (t < -(int64_t)MB_COUNT_MAX) return bad(c, w, l, d, a, "tx-count out of range");
	store_le(p, 8, settle(pack(v & MB_PARITY, pending(v), expected(v), (int32_t)t)));
	return EX_OK;
}

/* Bulk copies (decode.h's form) happen at issue, each active lane's its own:
 * into shared memory (of this CTA, another of the cluster, or with
 * .multicast::cluster every CTA of the mask at the same offset), each copy
 * then completing its bytes on the mbarrier at the same place; or from
 * shared memory to global memory, whose bulk groups are then already
 * complete (commit_group and wait_group have nothing to wait for).  Sizes
 * are multiples of 16 and addresses 16-byte aligned, as the ISA requires. */
int exec_cp_bulk(Cta *c, Warp *w, const DIns *d, uint32_t act)
{
	const Image *img = c->L->img;
	if (d->mode == BULK_COMMIT || d->mode == BULK_WAIT || d->mode == BULK_PREFETCH)
		return EX_OK;
	w->nwrites++;
	const uint64_t rmask = (1ull << CLUSTER_RANK_SHIFT) - 1;
	LANES(act, l) {
		uint64_t ga = exec_addr_of(w, img, d, l);
		uint64_t sa = rdw(srcp(w, img, d->s[0]), l, d->sw[0]) + (uint64_t)d->imm;
		uint32_t n = srcp(w, img, d->s[1])[l];
		if (n % 16) {
			char m[120];
			snprintf(m, sizeof m, "cp.async.bulk of %u bytes: the size must be a multiple "
			         "of 16", n);
			exec_fault(c, w, l, d, FAULT_MISALIGNED, m);
			return EX_FAULT;
		}
		if (!n) continue;
		if (d->mode == BULK_S2G) {
			const uint8_t *src = exec_span(c, w, l, d, XS_SHARED, sa, n, 16, 0, 0);
			uint8_t *dst = src ? exec_span(c, w, l, d, XS_GLOBAL, ga, n, 16, 1, 0) : NULL;
			if (!dst) return EX_FAULT;
			memmove(dst, src, n);
			continue;
		}
		const uint8_t *src = exec_span(c, w, l, d, d->mode == BULK_G2S ? XS_GLOBAL : XS_SHARED,
		                               ga, n, 16, 0, 0);
		if (!src) return EX_FAULT;
		uint64_t ma = rdw(srcp(w, img, d->s[2]), l, d->sw[2]) + (uint64_t)d->aux;
		uint32_t ranks = (d->elt & BULKF_MULTICAST) ? srcp(w, img, d->s[3])[l] & 0xffff : 0;
		for (uint32_t r = 0; r < 16 || !ranks; r++) {
			uint64_t ta = sa, tm = ma;
			if (ranks) {                   /* the same offsets in CTA r */
				if (!(ranks >> r & 1)) continue;
				ta &= rmask, tm &= rmask;
				if ((int32_t)r != c->rank) {
					ta |= (uint64_t)(r + 1) << CLUSTER_RANK_SHIFT;
					tm |= (uint64_t)(r + 1) << CLUSTER_RANK_SHIFT;
				}
			}
			uint8_t *dst = exec_span(c, w, l, d, XS_SHARED, ta, n, 16, 1, 0);
			if (!dst) return EX_FAULT;
			memmove(dst, src, n);
			if (complete_tx(c, w, l, d, tm, n)) return EX_FAULT;
			if (!ranks) break;
		}
	}
	return EX_OK;
}
