/*
 * listing.h -- what `rfsim analyze` shows of a function's registers:
 * the live-register profile and the annotated listing (listing.c).
 */
#ifndef RFSIM_ANALYSIS_LISTING_H
#define RFSIM_ANALYSIS_LISTING_H

#include <stdint.h>
#include <stdio.h>

#include "ptx/ir.h"

enum { NPCT = 6 };
extern const int listing_pct[NPCT];          /* 0, 25, 50, 75, 90, 100 */

typedef struct LiveProfile {
	int32_t n;               /* static instructions (pseudos left out) */
	int32_t pct[NPCT];       /* live 32-bit registers: percentiles over them */
	double mean;
} LiveProfile;

/* live 32-bit registers before each instruction of f, per thread (warp = 0)
   or warp-level (warp = 1, live_div.c) */
void listing_profile(const Func *f, int warp, LiveProfile *p);
/* f's code: each instruction with its live counts (thread, warp), the
   registers it reads for the last time, and its labels */
void listing_print(const Module *m, const Func *f, FILE *out);

#endif
