/* banks.c -- setting up the register banks of banks.h. */
#include "timing/rf/banks.h"

#include <stdlib.h>

#include "base/base.h"
#include "base/rftech.h"

void banks_init(Banks *b, const Config *cfg)
{
	b->n = (int32_t)rftech_banks(cfg);
	b->nsched = (int32_t)cfg->sched_count;
	b->ports = (int32_t)cfg->rf_bank_ports;
	b->subcore = cfg->rf_subcore && b->n >= b->nsched;
	b->per = b->n ? (b->subcore ? b->n / b->nsched : b->n) : 1;
	b->cyc = xmalloc((size_t)(b->n + 1) * sizeof *b->cyc);
	b->used = xcalloc((size_t)b->n + 1, 1);
	for (int32_t i = 0; i <= b->n; i++) b->cyc[i] = -1;
}

void banks_fini(Banks *b)
{
	free(b->cyc);
	free(b->used);
}
