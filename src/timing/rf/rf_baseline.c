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
#include "timing/rf/mrf.h"
#include "timing/rf/rf.h"

static void *init(const RfSm *sm)
{
	Mrf *f = xcalloc(1, sizeof *f);
	mrf_init(f, sm->cfg, sm->st);
	return f;
}

static void fini(void *p)
{
	mrf_fini(p);
	free(p);
}

static int64_t rf_read(void *p, int64_t now, int warp, int32_t reg, int32_t pc, int k)
{
	return mrf_read(p, now, warp, reg);
}

static int rf_write(void *p, int64_t now, int warp, int32_t reg, int32_t pc, int k)
{
	return mrf_write(p, now, warp, reg);
}

const RfModel rf_model_baseline = {
	.init = init,
	.fini = fini,
	.read = rf_read,
	.write = rf_write,
};
