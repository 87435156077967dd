/*
 * rf_baseline.c -- the baseline register file: one banked main register
 * file (MRF), every operand read from it and every result written to it.
 *
 * This is GPGPU-Sim's operand-collector register file (and the "BL" of
 * LTRF 5): rf.banks banks, bank = (reg + warp) mod banks, one access per
 * bank port per cycle, writes before reads.  A read granted in cycle c
 * delivers its operand in cycle c + rf.mrf_latency, so the latency key
 * models slow, large register files (LTRF Table 2 #2-#7: 1.25x-6.3x the
 * baseline's access latency) without changing the banking.  Not
 * modelled: the crossbar between banks and collectors (its latency can be
 * folded into rf.mrf_latency), bank read/write energy (the energy model
 * multiplies mrf_reads/mrf_writes later).
 */
#include <stdlib.h>

#include "base/base.h"
#include "base/rftech.h"
#include "sim/rf/banks.h"
#include "sim/rf/rf.h"

typedef struct Baseline {
	Banks b;
	int64_t lat;             /* rf.mrf_latency */
	TStats *st;
} Baseline;

static void *init(const RfSm *sm)
{
	Baseline *m = xcalloc(1, sizeof *m);
	banks_init(&m->b, sm->cfg);
	m->lat = rftech_mrf_latency(sm->cfg);
	m->st = sm->st;
	return m;
}

static void fini(void *p)
{
	Baseline *m = p;
	banks_fini(&m->b);
	free(m);
}

static int64_t rf_read(void *p, int64_t now, int warp, int32_t reg, int32_t pc, int k)
{
	Baseline *m = p;
	if (!banks_take(&m->b, now, warp, reg)) {
		m->st->bank_conflicts++;
		return 0;
	}
	m->st->mrf_reads++;
	return now + m->lat;
}

static int rf_write(void *p, int64_t now, int warp, int32_t reg, int32_t pc, int k)
{
	Baseline *m = p;
	if (!banks_take(&m->b, now, warp, reg)) {
		m->st->bank_conflicts++;
		return 0;
	}
	m->st->mrf_writes++;
	return 1;
}

const RfModel rf_model_baseline = {
	.init = init,
	.fini = fini,
	.read = rf_read,
	.write = rf_write,
};
