/*
 * scoreboard.c -- which registers of a warp have a write in flight.
 *
 * One bit per register slot and predicate of the warp's register space
 * (frames of called functions included: a register's bit is its slot plus
 * the frame base), set when an instruction that writes it issues and
 * cleared when the write completes.  An instruction may issue only when
 * none of the registers it reads or writes is pending (RAW and WAW, as
 * GPGPU-Sim's scoreboard; there is no WAR hazard to check, since the
 * functional core reads every operand at issue).  A second bit map marks the writes of
 * long-latency loads, which the two-level scheduler and the stall
 * breakdown ask about.
 */
#include "timing/sm.h"

#include <string.h>

static inline int32_t bit(const Sm *s, int32_t r, int32_t rbase, int32_t pbase)
{
	return r >= 0 ? rbase + r : s->tp->nslots + pbase + (-r - 1);
}

static inline int test(const uint64_t *b, int32_t i) { return (int)(b[i >> 6] >> (i & 63) & 1); }

int32_t sb_hazard(const Sm *s, const TWarp *w, const TIns *ti, int *is_mem)
{
	if (!w->nsb) return -1;
	const int32_t *r = s->tp->regs + ti->regs;
	int n = ti->nrd + ti->nwr;
	int32_t rb = w->fw->rbase, pb = w->fw->pbase, hazard = -1;
	for (int i = 0; i < n; i++) {
		int32_t b = bit(s, r[i], rb, pb);
		if (!test(w->sb, b)) continue;
		if (test(w->lsb, b)) {
			*is_mem = 1;
			return b;
		}
		if (hazard < 0) hazard = b;
	}
	return hazard;
}

int sb_pending(const TWarp *w, int32_t b) { return test(w->sb, b); }

void sb_set(Sm *s, TWarp *w, const TIns *ti, int32_t rb, int32_t pb, int long_lat)
{
	const int32_t *r = s->tp->regs + ti->regs + ti->nrd;
	for (int i = 0; i < ti->nwr; i++) {
		int32_t b = bit(s, r[i], rb, pb);
		w->sb[b >> 6] |= 1ull << (b & 63);
		if (long_lat) w->lsb[b >> 6] |= 1ull << (b & 63);
		w->nsb++;
	}
}

void sb_clear(Sm *s, TWarp *w, const Event *e)
{
	const TIns *ti = &s->tp->ins[e->pc];
	const int32_t *r = s->tp->regs + ti->regs + ti->nrd;
	for (int i = 0; i < ti->nwr; i++) {
		int32_t b = bit(s, r[i], e->rbase, e->pbase);
		w->sb[b >> 6] &= ~(1ull << (b & 63));
		w->lsb[b >> 6] &= ~(1ull << (b & 63));
		w->nsb--;
	}
}

void sb_reset(Sm *s, TWarp *w)
{
	memset(w->sb, 0, (size_t)s->sbwords * 2 * sizeof *w->sb);
	w->nsb = 0;
}
