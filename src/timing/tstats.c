/*
 * tstats.c -- summing and reporting the timing model's counters.
 *
 * The JSON members come straight from tstats.def, in its order: every
 * counter (TS rows), then the derived figures marked for the JSON (TD
 * rows: ipc, occupancy, hit rates, dram_bytes, RegMutex's and LTRF's
 * averages, ...).  tstats_derived() is the one place a derived figure is
 * computed: each TD row's formula becomes a case of its switch, so the
 * JSON, the run summary, `compare` and `plot --y` cannot disagree about
 * what "ipc" means.  Rows marked TS_MIN or TS_MAX in tstats.def combine by
 * min or max, the rest by a sum.
 */
#include "timing/tstats.h"

#include <stddef.h>
#include <string.h>

#include "base/json.h"

void tstats_add(TStats *dst, const TStats *src)
{
#define TS(f, h) dst->f += src->f;
#define TS_MIN(f, h) if (src->f && (!dst->f || src->f < dst->f)) dst->f = src->f;
#define TS_MAX(f, h) if (src->f > dst->f) dst->f = src->f;
#include "timing/tstats.def"
#undef TS_MAX
#undef TS_MIN
#undef TS
}

const TDerived tstats_derived_rows[NTDERIVED] = {
#define TS(f, h)
#define TD(n, json, f, u, h) {#n, json, u, h},
#include "timing/tstats.def"
#undef TD
#undef TS
};

/* the helpers TD formulas are written in; each is 0 where its denominator is */
static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0; }
static double rate(uint64_t hits, uint64_t misses) { return ratio(hits, hits + misses); }

/* scheduler slots: the issued one and the six stall_* rows (a share's whole) */
static uint64_t slots(const TStats *t)
{
	return t->issued + t->stall_idle + t->stall_rf + t->stall_mem + t->stall_scoreboard +
	       t->stall_barrier + t->stall_other;
}

/* a as a percentage of b, computed as the run summary always has: a * (100 / b) */
static double pct(uint64_t a, uint64_t b)
{
	return (double)a * (b ? 100.0 / (double)b : 0);
}

double tstats_derived(const TStats *t, uint64_t wi, int which)
{
	/* per 1000 warp instructions: a * (1000 / wi) */
	double k = wi ? 1000.0 / (double)wi : 0;
#define pki(a) ((double)(a) * k)
	switch (which) {
#define TS(f, h)
#define TD(n, json, f, u, h) case TD_##n: return f;
#include "timing/tstats.def"
#undef TD
#undef TS
	}
#undef pki
	return 0;
}

int tstats_derived_find(const char *name)
{
	for (int i = 0; i < NTDERIVED; i++)
		if (!strcmp(tstats_derived_rows[i].name, name)) return i;
	return -1;
}

uint64_t *tstats_counter(TStats *t, const char *name)
{
#define TS(f, h) if (!strcmp(name, #f)) return &t->f;
#include "timing/tstats.def"
#undef TS
	return NULL;
}

void tstats_json(struct Json *j, const TStats *t, uint64_t warp_insts)
{
#define TS(f, h) json_uint(j, #f, t->f);
#include "timing/tstats.def"
#undef TS
	for (int i = 0; i < NTDERIVED; i++) {
		const TDerived *d = &tstats_derived_rows[i];
		double v = tstats_derived(t, warp_insts, i);
		if (d->json == 'u') json_uint(j, d->name, (uint64_t)v);   /* exact below 2^53 */
		else if (d->json) json_num(j, d->name, v);
	}
}
