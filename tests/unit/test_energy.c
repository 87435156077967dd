/*
 * test_energy.c -- the register-file energy model (src/energy/energy.c):
 * Gebhart Table 2 as a curve over entries per lane, the cache geometry of
 * each model, hand-computed energies from known access counts (made up,
 * and measured on a tiny kernel), the baseline normalization and rf.tech's
 * power and area factors.
 */
#include <math.h>
#include <stdlib.h>

#include "base/base.h"
#include "base/rftech.h"
#include "energy/energy.h"
#include "tsim.h"
#include "unit.h"

#define CHECK_NEAR(a, b) do { double a_ = (a), b_ = (b); \
	if (!(fabs(a_ - b_) <= 1e-9 * (1 + fabs(b_)))) unit_fail(__FILE__, __LINE__, \
	    "%s == %.12g, expected %.12g", #a, a_, b_); } while (0)

TEST(energy_table2_is_one_curve_over_entries_per_lane)
{
	/* Gebhart Table 2, as printed: entries per thread x active warps */
	static const struct { int e, w; double area, r, wr; } t2[] = {
		{4, 4, 5100, 1.2, 3.8},  {4, 6, 7400, 1.2, 4.4},   {4, 8, 9600, 1.9, 6.1},
		{6, 4, 7400, 1.2, 4.4},  {6, 6, 10800, 1.7, 5.4},  {6, 8, 14300, 2.2, 6.7},
		{8, 4, 9600, 1.9, 6.1},  {8, 6, 14300, 2.2, 6.7},  {8, 8, 18800, 3.4, 10.9},
	};
	for (size_t i = 0; i < sizeof t2 / sizeof t2[0]; i++) {
		RfcCost c = energy_rfc_cost(t2[i].e * t2[i].w);
		CHECK_NEAR(c.read_pj, t2[i].r);
		CHECK_NEAR(c.write_pj, t2[i].wr);
		CHECK_NEAR(c.area_um2, t2[i].area);
	}
	RfcCost c = energy_rfc_cost(40);      /* a third of the way from 36 to 48 */
	CHECK_NEAR(c.read_pj, 1.7 + 0.5 / 3);
	CHECK_NEAR(c.write_pj, 5.4 + 1.3 / 3);
	CHECK_NEAR(c.area_um2, 10800 + 3500.0 / 3);
	c = energy_rfc_cost(128);             /* LTRF's 16 x 8: two 64-entry banks */
	CHECK_NEAR(c.read_pj, 3.4);
	CHECK_NEAR(c.write_pj, 10.9);
	CHECK_NEAR(c.area_um2, 2 * 18800);
	c = energy_rfc_cost(8);               /* half a 16-entry bank */
	CHECK_NEAR(c.read_pj, 1.2);
	CHECK_NEAR(c.write_pj, 3.8);
	CHECK_NEAR(c.area_um2, 5100 / 2.0);
}

TEST(energy_cache_geometry_per_model)
{
	Config c;
	config_defaults(&c);
	CHECK_NEAR(energy_rfc_entries(&c, "baseline"), 0);
	CHECK_NEAR(energy_rfc_entries(&c, "ideal"), 0);
	CHECK_NEAR(energy_rfc_entries(&c, "nosuch"), 0);
	c.ltrf_regs_per_interval = 16;
	c.sched_active_warps = 8;
	c.sched_count = 4;
	CHECK(config_set(&c, "sched.policy", "lrr") == RF_OK);
	CHECK_NEAR(energy_rfc_entries(&c, "ltrf"), 128);      /* LTRF runs two-level anyway */
	CHECK(config_set(&c, "sched.policy", "twolevel") == RF_OK);
	CHECK_NEAR(energy_rfc_entries(&c, "ltrf"), 128);      /* LTRF Table 3: 16 KB */
	CHECK_NEAR(energy_rfc_entries(&c, "ltrfplus"), 128);
	c.sched_active_warps = 6;                             /* 2 per scheduler */
	CHECK_NEAR(energy_rfc_entries(&c, "ltrf"), 128);
	c.sched_count = 1;
	CHECK_NEAR(energy_rfc_entries(&c, "ltrf"), 96);
	c.sched_active_warps = 2048;                          /* at most every slot */
	CHECK_NEAR(energy_rfc_entries(&c, "ltrf"), 16 * c.sm_max_warps);
	c.sched_active_warps = 8;
	const ConfigKey *k = config_key_find("rfc.entries");
	if (k) {                              /* the rfc model is in this build */
		CHECK(!config_key_parse(k, "6", (char *)&c + k->off));
		CHECK_NEAR(energy_rfc_entries(&c, "rfc"), 48);
		CHECK(config_set(&c, "sched.policy", "gto") == RF_OK);   /* all warps active */
		CHECK_NEAR(energy_rfc_entries(&c, "rfc"), 6 * c.sm_max_warps);
	} else {
		CHECK_NEAR(energy_rfc_entries(&c, "rfc"), -1);
	}
}

/* made-up counts of a cached design on the defaults (rf.model baseline, so
 * the cache geometry is unknown: the paper's 6 x 8 design point) */
TEST(energy_hand_computed_with_a_cache)
{
	Config c;
	config_defaults(&c);
	TStats t = {.mrf_reads = 10, .mrf_writes = 5, .rfc_reads = 30, .rfc_hits = 20,
	            .rfc_writes = 13, .rfc_writebacks = 3, .reg_reads = 30, .reg_writes = 15};
	Energy e;
	energy_compute(&c, &t, &e);
	CHECK_NEAR(e.entries, -1);
	CHECK_NEAR(e.mrf_pj, 8 * (10 * 8 + 5 * 11));                 /* 1080 */
	CHECK_NEAR(e.rfc_pj, 8 * ((20 + 3) * 2.2 + 13 * 6.7));        /* 1101.6 */
	/* 10 operands from the MRF, 2 results straight to it, 3 write-backs over
	 * 0.8 mm, 20 hits and 13 results into the RFC over 0.2 mm */
	CHECK_NEAR(e.wire_pj, 32 * 1.9 * (1 * (10 + 2) + 0.2 * (20 + 13) + 0.8 * 3));  /* 1276.8 */
	CHECK_NEAR(e.total_pj, 1080 + 1101.6 + 1276.8);
	CHECK_NEAR(e.baseline_pj, 8 * (30 * 8 + 15 * 11) + 32 * 1.9 * 45);  /* 5976 */
	CHECK_NEAR(e.total_normalized, 3458.4 / 5976);
	c.energy_rfc_alu_mm = 1;              /* both arrays 1 mm away: the baseline's wires */
	energy_compute(&c, &t, &e);
	CHECK_NEAR(e.wire_pj, 32 * 1.9 * 45);
	c.energy_rfc_alu_mm = 0.2;

	/* LTRF-like: every operand from the cache, 12 MRF reads fill it (prefetch),
	 * results into the cache, 4 write-backs */
	TStats l = {.mrf_reads = 12, .mrf_writes = 4, .rfc_reads = 30, .rfc_hits = 30,
	            .rfc_writes = 12 + 15, .rfc_writebacks = 4, .reg_reads = 30, .reg_writes = 15};
	energy_compute(&c, &l, &e);
	CHECK_NEAR(e.wire_pj, 32 * 1.9 * (0.2 * (30 + 15) + 0.8 * (12 + 4)));
	/* usecache-like: write-through, 5 reads from the writeback path (no wire) */
	TStats u = {.mrf_reads = 5, .mrf_writes = 15, .rfc_reads = 25, .rfc_hits = 20,
	            .rfc_writes = 9, .reg_reads = 30, .reg_writes = 15};
	energy_compute(&c, &u, &e);
	CHECK_NEAR(e.wire_pj, 32 * 1.9 * (1 * (5 + 15) + 0.2 * (20 + 9)));
	CHECK_NEAR(e.mrf_area_mm2, 32 * 0.038);                      /* 128 KB in 4 KB banks */
	CHECK_NEAR(e.rfc_area_mm2, 32 * 14300e-6);
	CHECK_NEAR(e.area_normalized, (32 * 0.038 + 32 * 0.0143) / (32 * 0.038));

	c.energy_rfc_read_pj = 1;             /* the keys replace Table 2 */
	c.energy_rfc_write_pj = 2;
	c.energy_mrf_alu_mm = c.energy_rfc_alu_mm = 0;   /* Figure 12: no wires */
	energy_compute(&c, &t, &e);
	CHECK_NEAR(e.rfc_pj, 8 * (23 * 1 + 13 * 2));
	CHECK_NEAR(e.wire_pj, 0);
	CHECK_NEAR(e.total_normalized, (1080 + 8 * 49.0) / (8 * 405.0));

	TStats none = {0};                    /* nothing accessed: 0, not NaN */
	energy_compute(&c, &none, &e);
	CHECK_NEAR(e.total_pj, 0);
	CHECK_NEAR(e.total_normalized, 0);
}

/* ---- measured on a kernel ------------------------------------------------ */

/* mov %r1, %tid.x, then three dependent adds: 3 register reads (the special
 * register is not in the register file), 4 register writes, one warp */
static const char chain_ptx[] =
	".version 7.0\n.target sm_70\n.address_size 64\n"
	".visible .entry k(.param .u64 out)\n{\n.reg .u32 %r<4>;\n"
	"mov.u32 %r1, %tid.x;\n"
	"add.u32 %r1, %r1, 3;\nadd.u32 %r1, %r1, 3;\nadd.u32 %r1, %r1, 3;\n"
	"ret;\n}\n";

TEST(energy_of_a_tiny_kernel_exact_pj)
{
	Config c = tsim_config();
	for (int model = 0; model < 2; model++) {           /* baseline, ideal */
		c.rf_model = model;
		c.rf_tech = 0;
		TStats t = tsim_run(&c, chain_ptx, 1, 32).ts;
		CHECK_EQ(t.reg_reads, 3);
		CHECK_EQ(t.reg_writes, 4);
		CHECK_EQ(t.mrf_reads, 3);
		CHECK_EQ(t.mrf_writes, 4);
		Energy e;
		energy_compute(&c, &t, &e);
		CHECK_NEAR(e.mrf_pj, 8 * (3 * 8 + 4 * 11));        /* 544 */
		CHECK_NEAR(e.rfc_pj, 0);
		CHECK_NEAR(e.wire_pj, 32 * 1.9 * 1 * 7);           /* 425.6 */
		CHECK_NEAR(e.total_pj, 969.6);
		CHECK_NEAR(e.total_normalized, 1);
		for (int tech = 1; tech <= RF_NTECH; tech++) {
			c.rf_tech = tech;
			double p = rf_tech[tech].power;
			energy_compute(&c, &t, &e);
			CHECK_NEAR(e.mrf_read_pj, 8 * p);
			CHECK_NEAR(e.mrf_pj, 544 * p);                  /* #7: 0.65 x 544 = 353.6 */
			CHECK_NEAR(e.wire_pj, 425.6);
			CHECK_NEAR(e.baseline_pj, 969.6);               /* always configuration #1 */
			CHECK_NEAR(e.total_normalized, (544 * p + 425.6) / 969.6);
			CHECK_NEAR(e.area_normalized, rf_tech[tech].area);
		}
		c.rf_tech = 1;
		energy_compute(&c, &t, &e);
		CHECK_NEAR(e.total_normalized, 1);
	}
}
