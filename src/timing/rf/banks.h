/*
 * banks.h -- register banks and their per-cycle arbitration, shared by
 * the register-file models.
 *
 * A warp-wide register lives in one bank (Gebhart 2.1: each 128-bit
 * entry holds the same-named register of 4 lanes, the 8 clusters' banks
 * are accessed together, so a warp register is one bank access).  The
 * bank function is GPGPU-Sim's: bank = (reg + warp) mod banks, which
 * spreads the same register of different warps over the banks.  With
 * rf.subcore the banks are split evenly among the warp schedulers
 * (Volta-style sub-cores) and a warp maps into its scheduler's share.
 *
 * Each bank serves rf.bank_ports accesses per cycle; reads and writes
 * share them (single-ported SRAM as in GPGPU-Sim; Gebhart's dual-ported
 * banks are rf.bank_ports = 2 to first order).  Writes are offered first
 * each cycle by the SM, so they win.  rf.banks = 0 means as many banks as
 * needed: nothing ever conflicts.
 *
 * Arbitration state is one (cycle, count) pair per bank, reset lazily
 * when a bank is first used in a new cycle: no per-cycle sweep.
 */
#ifndef RFSIM_TIMING_RF_BANKS_H
#define RFSIM_TIMING_RF_BANKS_H

#include <stdint.h>

#include "base/config.h"

typedef struct Banks {
	int32_t n;               /* banks; 0 = unlimited */
	int32_t per;             /* banks one warp maps into (n, or n / schedulers) */
	int32_t nsched;          /* schedulers (sub-core partitioning) */
	int32_t ports;           /* accesses per bank per cycle */
	int subcore;
	int64_t *cyc;            /* per bank: the cycle `used` counts */
	uint8_t *used;           /* per bank: accesses granted in that cycle */
} Banks;

void banks_init(Banks *b, const Config *cfg);
void banks_fini(Banks *b);

static inline int banks_of(const Banks *b, int warp, int32_t reg)
{
	int k = (int)(((uint32_t)reg + (uint32_t)warp) % (uint32_t)b->per);
	return b->subcore ? (warp % b->nsched) * b->per + k : k;
}

/* claim a port of the bank holding (warp, reg) in cycle now: 1 granted, 0 taken */
static inline int banks_take(Banks *b, int64_t now, int warp, int32_t reg)
{
	if (!b->n) return 1;
	int k = banks_of(b, warp, reg);
	if (b->cyc[k] != now) {
		b->cyc[k] = now;
		b->used[k] = 0;
	}
	if (b->used[k] >= b->ports) return 0;
	b->used[k]++;
	return 1;
}

#endif
