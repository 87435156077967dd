/*
 * mrf.h -- the banked main register file (MRF) as the register-file
 * models use it: one read or write of (warp, reg) in the current cycle.
 *
 * An access takes a port of the bank holding (warp, reg) (banks.h) and is
 * counted in the SM's statistics: mrf_reads or mrf_writes when granted,
 * bank_conflicts when the bank's ports are taken (the collector asks
 * again next cycle, a write is retried before any read).  A granted read
 * delivers its value rf.mrf_latency cycles later, scaled by rf.tech
 * (rftech.h) as every model's MRF is.  rf_baseline.c is exactly this;
 * the other models put their policy in front of it (a register cache
 * answers hits before the MRF is asked; RegMutex passes the (warp, reg)
 * of an extended register's pool section, whose bank serves it).
 */
#ifndef RFSIM_TIMING_RF_MRF_H
#define RFSIM_TIMING_RF_MRF_H

#include <stdint.h>

#include "base/config.h"
#include "base/rftech.h"
#include "timing/rf/banks.h"
#include "timing/tstats.h"

typedef struct Mrf {
	Banks b;                 /* the banks and their per-cycle arbitration */
	int64_t lat;             /* cycles from a granted read to its value */
	TStats *st;              /* the SM's counters */
} Mrf;

static inline void mrf_init(Mrf *f, const Config *cfg, TStats *st)
{
	banks_init(&f->b, cfg);
	f->lat = rftech_mrf_latency(cfg);
	f->st = st;
}

static inline void mrf_fini(Mrf *f) { banks_fini(&f->b); }

/* read (warp, reg) in cycle now: the cycle its value is there, 0 on a bank conflict */
static inline int64_t mrf_read(Mrf *f, int64_t now, int warp, int32_t reg)
{
	if (!banks_take(&f->b, now, warp, reg)) {
		f->st->bank_conflicts++;
		return 0;
	}
	f->st->mrf_reads++;
	return now + f->lat;
}

/* write (warp, reg) in cycle now: 1 done, 0 on a bank conflict */
static inline int mrf_write(Mrf *f, int64_t now, int warp, int32_t reg)
{
	if (!banks_take(&f->b, now, warp, reg)) {
		f->st->bank_conflicts++;
		return 0;
	}
	f->st->mrf_writes++;
	return 1;
}

#endif
