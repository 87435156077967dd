/*
 * occupancy.c -- CTAs per SM, the arithmetic of NVIDIA's CUDA Occupancy
 * Calculator (and of cuda_occupancy.h / cudaOccupancyMaxActiveBlocks-
 * PerMultiprocessor) over rfsim's config keys.
 *
 * Each resource allows some number of CTAs; the SM holds the smallest:
 *   threads    floor(sm.max_warps / warps per CTA), and
 *              floor(sm.max_threads / (warps per CTA * 32))
 *   ctas       sm.max_ctas
 *   shared     floor(sm.shared_bytes / roundup(static + dynamic +
 *              sm.shared_reserved_bytes, sm.shared_alloc_unit));
 *              sm.max_ctas when the CTA needs none (and nothing is reserved)
 *   registers  by sm.reg_alloc_granularity --
 *              warp:   registers per warp = roundup(regs * 32,
 *                      sm.reg_alloc_unit); warps per SM = floor(
 *                      sm.registers / per warp) rounded down to a multiple
 *                      of sm.warp_alloc_granularity; CTAs = floor(warps per
 *                      SM / warps per CTA)
 *              block:  registers per CTA = roundup(roundup(warps per CTA,
 *                      sm.warp_alloc_granularity) * regs * 32, unit);
 *                      CTAs = floor(sm.registers / per CTA)   (CC 1.x)
 *              thread: regs rounded up to the unit, times the CTA's
 *                      threads (rounded to warps)
 *              0 CTAs when regs > sm.max_regs_per_thread; sm.max_ctas when 0.
 * The limiter is the resource giving the fewest CTAs; on a tie the first
 * of threads, ctas, shared, registers, so "registers" means that fewer
 * registers alone would raise occupancy (the papers' register-limited).
 *
 * The launch-bounds cap inverts the register rule as nvcc does for
 * __launch_bounds__(maxThreads, minBlocks): the most registers per thread
 * at which minBlocks CTAs of maxThreads threads still fit -- with the
 * unit and granularity above, so on a 64K-register SM with 256-register
 * units, (256, 2) gives 128 and (192, 4) gives 80.
 */
#include "analysis/occupancy.h"
#include "base/rftech.h"

const char *const occ_limit_name[NOCCLIMIT] = {
	[OCC_THREADS] = "threads", [OCC_CTAS] = "ctas", [OCC_SHARED] = "shared",
	[OCC_REGISTERS] = "registers",
};

static int64_t round_up(int64_t v, int64_t u)
{
	return u > 1 ? (v + u - 1) / u * u : v;
}

/* registers allocated to one CTA (for reports), or 0 with regs = 0 */
static int32_t regs_per_cta(const Config *c, int32_t wpc, int32_t regs)
{
	int64_t unit = c->sm_reg_alloc_unit, g = c->sm_warp_alloc_granularity;
	switch (c->sm_reg_alloc_granularity) {
	case REG_GRAN_BLOCK: return (int32_t)round_up(round_up(wpc, g) * regs * 32, unit);
	case REG_GRAN_THREAD: return (int32_t)(round_up(regs, unit) * wpc * 32);
	default: return (int32_t)(round_up((int64_t)regs * 32, unit) * wpc);
	}
}

int32_t occupancy_by_regs(const Config *c, int32_t threads, int32_t regs)
{
	if (regs <= 0) return (int32_t)c->sm_max_ctas;
	if (regs > c->sm_max_regs_per_thread || threads <= 0) return 0;
	int64_t wpc = (threads + 31) / 32, unit = c->sm_reg_alloc_unit;
	int64_t g = c->sm_warp_alloc_granularity, file = rftech_registers(c);
	switch (c->sm_reg_alloc_granularity) {
	case REG_GRAN_BLOCK:
		return (int32_t)(file / round_up(round_up(wpc, g) * regs * 32, unit));
	case REG_GRAN_THREAD:
		return (int32_t)(file / (round_up(regs, unit) * wpc * 32));
	default: {
		int64_t per_warp = round_up((int64_t)regs * 32, unit);
		int64_t warps = file / per_warp / g * g;
		return (int32_t)(warps / wpc);
	}
	}
}

void occupancy_compute(const Config *c, int32_t threads, int32_t regs, int64_t shared,
                       Occupancy *o)
{
	o->threads = threads;
	o->regs = regs;
	o->shared = shared;
	o->warps_per_cta = threads > 0 ? (threads + 31) / 32 : 0;
	int32_t wpc = o->warps_per_cta;
	int64_t byw = wpc ? c->sm_max_warps / wpc : 0;
	int64_t byt = wpc ? c->sm_max_threads / ((int64_t)wpc * 32) : 0;
	o->by[OCC_THREADS] = (int32_t)(byw < byt ? byw : byt);
	o->by[OCC_CTAS] = (int32_t)c->sm_max_ctas;
	int64_t need = shared + c->sm_shared_reserved_bytes;
	o->shared_per_cta = round_up(need, c->sm_shared_alloc_unit);
	if (shared > c->block_max_shared_bytes) o->by[OCC_SHARED] = 0;
	else o->by[OCC_SHARED] = need ? (int32_t)(c->sm_shared_bytes / o->shared_per_cta)
	                              : (int32_t)c->sm_max_ctas;
	o->by[OCC_REGISTERS] = occupancy_by_regs(c, threads, regs);
	o->regs_per_cta = regs > 0 ? regs_per_cta(c, wpc, regs) : 0;
	if (threads > c->block_max_threads) o->by[OCC_THREADS] = 0;
	o->limiter = OCC_THREADS;
	for (int k = 1; k < NOCCLIMIT; k++)
		if (o->by[k] < o->by[o->limiter]) o->limiter = (OccLimit)k;
	o->ctas_per_sm = o->by[o->limiter];
	o->warps_per_sm = o->ctas_per_sm * wpc;
	o->occupancy = c->sm_max_warps ? (double)o->warps_per_sm / (double)c->sm_max_warps : 0;
}

int32_t occupancy_launch_cap(const Config *c, int32_t threads, int32_t min_ctas)
{
	if (min_ctas < 1) min_ctas = 1;
	for (int32_t r = (int32_t)c->sm_max_regs_per_thread; r > 0; r--)
		if (occupancy_by_regs(c, threads, r) >= min_ctas) return r;
	return 0;
}
