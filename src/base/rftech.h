/*
 * rftech.h -- rf.tech: LTRF Table 2's main register file designs applied
 * to a config (rftech.def has the table).
 *
 * rf.tech = 0 leaves the config's register file as it is; 1..7 scale it
 * by that row of Table 2, relative to the config's own register file
 * taken as configuration #1: capacity multiplies sm.registers (so
 * occupancy follows through the occupancy calculator), the bank-count
 * factor multiplies rf.banks, and the latency factor multiplies
 * rf.mrf_latency.  The scaling is applied where the values are used, by
 * the accessors below, so `-s rf.tech=6` means the same whatever order
 * keys are set in, and sweeps over rf.mrf_latency scale too.
 *
 * Latency in whole cycles: round(rf.mrf_latency x factor), at least one
 * cycle more than rf.mrf_latency for every factor above 1 (a slower
 * technology is never modelled as free; with a 1-cycle base, #2 1.25x
 * becomes 2 cycles).  Area and power columns are the energy model's.
 */
#ifndef RFSIM_BASE_RFTECH_H
#define RFSIM_BASE_RFTECH_H

#include <stdint.h>

#include "base/config.h"

typedef struct RfTech {
	int n;                   /* Table 2 configuration number */
	const char *cell;        /* cell technology */
	double banks, bank_size; /* relative to 16 banks of 16 KB */
	const char *network;
	double capacity, area, power, cap_per_area, cap_per_power, latency;
} RfTech;

enum { RF_NTECH = 7 };
extern const RfTech rf_tech[RF_NTECH + 1];   /* [0]: as configured (all 1), [1..7]: Table 2 */

const RfTech *rftech_of(const Config *c);    /* &rf_tech[c->rf_tech] */
int64_t rftech_registers(const Config *c);   /* sm.registers x capacity */
int64_t rftech_banks(const Config *c);       /* rf.banks x banks (0 stays unlimited) */
int64_t rftech_mrf_latency(const Config *c); /* rf.mrf_latency x latency, whole cycles */

#endif
