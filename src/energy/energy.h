/*
 * energy.h -- register-file energy and area of a run, computed after the
 * run from its statistics and its effective config (energy.c explains the
 * model; caches.def lists each model's register file cache).
 */
#ifndef RFSIM_ENERGY_ENERGY_H
#define RFSIM_ENERGY_ENERGY_H

#include "base/config.h"
#include "timing/tstats.h"

enum {
	ENERGY_LANES = 32,         /* SIMT lanes: threads of a warp */
	ENERGY_WORD_BITS = 32,     /* a register */
	ENERGY_ACCESS_BITS = 128,  /* the width Gebhart's per-access energies are for */
	/* 128-bit accesses per warp-wide 32-bit register: 32 x 32 / 128 = 8 */
	ENERGY_ACCESSES_PER_REG = ENERGY_LANES * ENERGY_WORD_BITS / ENERGY_ACCESS_BITS,
};

typedef struct RfcCost {       /* one register file cache geometry (Gebhart Table 2) */
	double read_pj, write_pj;  /* per 128-bit access */
	double area_um2;           /* one SIMT lane's RFC bank */
} RfcCost;

typedef struct Energy {
	double entries;            /* RFC entries per SIMT lane (0: no cache, -1: unknown) */
	double mrf_read_pj, mrf_write_pj;  /* per 128-bit access, rf.tech's power applied */
	double rfc_read_pj, rfc_write_pj;  /* per 128-bit access */
	double mrf_pj;             /* main register file array accesses */
	double rfc_pj;             /* register file cache array accesses */
	double wire_pj;            /* operands moved between the arrays and the ALUs */
	double total_pj;
	double baseline_pj;        /* the baseline design doing the same work */
	double total_normalized;   /* total_pj / baseline_pj; 0 when nothing was accessed */
	double mrf_area_mm2, rfc_area_mm2, area_mm2;  /* one SM's register file */
	double area_normalized;    /* area_mm2 / the baseline design's (rf.tech 1, no cache) */
} Energy;

struct Json;

/* Gebhart Table 2 at `entries` per lane: the table's entry, or interpolated */
RfcCost energy_rfc_cost(double entries);
/* RFC entries per lane of register-file model `model` (caches.def) under cfg:
 * 0 no cache, -1 unknown (a key this build lacks) */
double energy_rfc_entries(const Config *cfg, const char *model);
void energy_compute(const Config *cfg, const TStats *t, Energy *e);
/* "energy": {...} as a member of the open JSON object */
void energy_json(struct Json *j, const Config *cfg, const TStats *t);

#endif
