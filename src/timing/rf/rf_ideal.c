/*
 * rf_ideal.c -- the ideal register file: any number of operands from any
 * registers in one cycle, no bank conflicts, no extra latency.
 *
 * It is the upper bound every design is compared with (LTRF 5's "Ideal":
 * capacity without the latency), and the reference of an invariant the
 * tests check: `baseline` with rf.mrf_latency = 1 and rf.banks = 0
 * (unlimited) gives exactly the same cycles, since both grant every read
 * in the cycle it is asked for with the value there the next cycle.
 * Accesses are still counted as main register file reads and writes, so
 * the compare table's MRF columns stay comparable across models.
 */
#include <stdlib.h>

#include "base/base.h"
#include "timing/rf/rf.h"

typedef struct Ideal { TStats *st; } Ideal;

static void *init(const RfSm *sm)
{
	Ideal *m = xcalloc(1, sizeof *m);
	m->st = sm->st;
	return m;
}

static void fini(void *p) { free(p); }

static int64_t rf_read(void *p, int64_t now, int warp, int32_t reg, int32_t pc, int k)
{
	((Ideal *)p)->st->mrf_reads++;
	return now + 1;
}

static int rf_write(void *p, int64_t now, int warp, int32_t reg, int32_t pc, int k)
{
	((Ideal *)p)->st->mrf_writes++;
	return 1;
}

const RfModel rf_model_ideal = {
	.init = init,
	.fini = fini,
	.read = rf_read,
	.write = rf_write,
};
