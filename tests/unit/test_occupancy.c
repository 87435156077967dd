/*
 * test_occupancy.c -- CTAs per SM and the launch-bounds register cap
 * (src/analysis/occupancy.c), against values worked out by hand with the
 * formulas of NVIDIA's CUDA Occupancy Calculator; each case says its
 * arithmetic.
 */
#include "unit.h"

#include "analysis/occupancy.h"
#include "base/base.h"
#include "base/config.h"

static Config cfg_named(const char *name)
{
	Config c;
	config_defaults(&c);
	if (name) CHECK_EQ(config_load(&c, name), RF_OK);
	return c;
}

static void check(const Config *c, int32_t threads, int32_t regs, int64_t shared,
                  int32_t ctas, int32_t warps, OccLimit lim)
{
	Occupancy o;
	occupancy_compute(c, threads, regs, shared, &o);
	CHECK_EQ(o.ctas_per_sm, ctas);
	CHECK_EQ(o.warps_per_sm, warps);
	CHECK_EQ(o.limiter, lim);
}

/* Fermi (CC 2.0): 32768 registers, 64-register units per warp, warps in
   pairs, 48 warps, 8 CTAs, 48 KB shared in 128-byte units */
TEST(occupancy_fermi)
{
	Config c = cfg_named(NULL);
	/* 20 regs: 20*32 = 640 per warp; 32768/640 = 51 -> 50 warps -> 6 CTAs of 8;
	   threads allow 48/8 = 6 too: the tie goes to threads */
	check(&c, 256, 20, 0, 6, 48, OCC_THREADS);
	/* 32 regs: 1024 per warp; 32 warps -> 4 CTAs of 8 */
	check(&c, 256, 32, 0, 4, 32, OCC_REGISTERS);
	/* 63 regs: 2016 -> 2048 per warp; 16 warps -> 4 CTAs of 4 */
	check(&c, 128, 63, 0, 4, 16, OCC_REGISTERS);
	/* 64 regs exceed the 63 a Fermi thread may have: nothing fits */
	check(&c, 128, 64, 0, 0, 0, OCC_REGISTERS);
	/* 12000 bytes of shared: 12032 allocated; 49152/12032 = 4 CTAs */
	check(&c, 256, 10, 12000, 4, 32, OCC_SHARED);
	/* 64 threads: 2 warps, 24 CTAs by warps, 8 by slots */
	check(&c, 64, 10, 0, 8, 16, OCC_CTAS);
	/* 33 threads are 2 warps */
	check(&c, 33, 10, 0, 8, 16, OCC_CTAS);
}

/* Maxwell (CC 5.2) and Hopper (CC 9.0): 65536 registers, 256-register
   units, warps in fours, 64 warps, 32 CTAs */
TEST(occupancy_maxwell_hopper)
{
	Config mx = cfg_named("maxwell-ltrf"), h = cfg_named("hopper-h100");
	/* 37 regs: 1184 -> 1280 per warp; 65536/1280 = 51 -> 48 warps -> 6 CTAs of 8 */
	check(&mx, 256, 37, 0, 6, 48, OCC_REGISTERS);
	/* 32 regs: 1024 per warp, 64 warps: 8 CTAs, as many as threads allow */
	check(&mx, 256, 32, 0, 8, 64, OCC_THREADS);
	/* 20000 bytes shared in 256-byte units: 20224; 65536/20224 = 3 CTAs */
	check(&mx, 128, 16, 20000, 3, 12, OCC_SHARED);
	/* Hopper: 64 regs -> 2048 per warp, 32 warps -> 8 CTAs of 4; shared
	   2448 + 1024 reserved = 3472 -> 3584, 233472/3584 = 65 CTAs */
	check(&h, 128, 64, 2448, 8, 32, OCC_REGISTERS);
	Occupancy o;
	occupancy_compute(&h, 128, 64, 2448, &o);
	CHECK_EQ(o.by[OCC_SHARED], 65);
	CHECK_EQ(o.by[OCC_THREADS], 16);
	CHECK_EQ(o.shared_per_cta, 3584);
	CHECK_EQ(o.regs_per_cta, 8192);
	CHECK(o.occupancy == 0.5);
	/* no shared memory, but the runtime's 1 KB per CTA still counts: 228 */
	occupancy_compute(&h, 32, 8, 0, &o);
	CHECK_EQ(o.by[OCC_SHARED], 228);
	CHECK_EQ(o.ctas_per_sm, 32);
	CHECK_EQ(o.limiter, OCC_CTAS);
}

/* block granularity (CC 1.x) and thread granularity */
TEST(occupancy_granularities)
{
	Config c = cfg_named(NULL);
	CHECK_EQ(config_set(&c, "sm.reg_alloc_granularity", "block"), RF_OK);
	CHECK_EQ(config_set(&c, "sm.reg_alloc_unit", "512"), RF_OK);
	/* 3 warps -> 4 (pairs) * 10 * 32 = 1280 -> 1536 per CTA; 32768/1536 = 21 */
	CHECK_EQ(occupancy_by_regs(&c, 96, 10), 21);
	CHECK_EQ(config_set(&c, "sm.reg_alloc_granularity", "thread"), RF_OK);
	CHECK_EQ(config_set(&c, "sm.reg_alloc_unit", "4"), RF_OK);
	/* 10 -> 12 per thread, 96 threads: 1152; 32768/1152 = 28 */
	CHECK_EQ(occupancy_by_regs(&c, 96, 10), 28);
}

/* __launch_bounds__(threads, min CTAs) -> registers per thread, as nvcc */
TEST(occupancy_launch_bounds_cap)
{
	Config h = cfg_named("hopper-h100"), f = cfg_named(NULL);
	CHECK_EQ(occupancy_launch_cap(&h, 256, 2), 128);   /* 16 warps of 4096 regs */
	CHECK_EQ(occupancy_launch_cap(&h, 192, 4), 80);    /* 24 warps of 2560 */
	CHECK_EQ(occupancy_launch_cap(&h, 1024, 1), 64);   /* 32 warps of 2048 */
	CHECK_EQ(occupancy_launch_cap(&h, 128, 0), 255);   /* the architecture's limit */
	CHECK_EQ(occupancy_launch_cap(&f, 256, 3), 42);    /* 24 warps of 1344 */
	CHECK_EQ(occupancy_launch_cap(&f, 1024, 2), 16);   /* 64 warps of 512 (registers
	                                                      only: warps do not fit) */
	CHECK_EQ(occupancy_launch_cap(&f, 1024, 3), 10);   /* 96 warps of 320 */
}
