/*
 * occupancy.c -- host side of occupancy.cu: the coalesced pointer chase
 * over 8 MB at 1, 2, ... CTAs of 8 warps per SM, up to as many as an SM
 * holds (its thread and CTA limits: 6 on Fermi's 48 warps, 8 on 64).
 *
 * On GPUs whose L2 holds the 8 MB, a first kernel reads it once, so that
 * every run finds it there.  Each run is one wave: SMs x c CTAs, all
 * resident at once, each warp taking the same number of steps (8 at
 * --size small, 32 at default, 128 large; halved, down to 4, 8 or 32, while
 * the sweep would take more than 2^16, 2^19 or 2^23 warp-steps in all: on
 * a 132-SM GPU a default sweep of 32 steps costs a minute of simulation),
 * so c times the work in the time T(c): the
 * speedup over one CTA per SM is c T(1) / T(c), with T the kernels'
 * %globaltimer span (and, sim, the cycles rfsim counted).  The mean
 * latency of a step at c CTAs is the warps' clock64 cycles per step,
 * averaged; issue 21 compares it at 8 warps per SM (c = 1) and at the most
 * (48 on Fermi).  c runs 1, 2, 3, 4, then even numbers, and the most
 * (--size small: 1, 2 and the most).  A step is a load and the index
 * arithmetic before it (shift, or, widening multiply, add).  Check: each
 * warp ends on the line the permutation gives after its steps.
 *
 * Reported: occupancy.speedup (most CTAs per SM against one),
 * occupancy.lat_min and occupancy.lat_max (mean cycles per load at one and
 * at the most CTAs per SM); curves of speedup and of mean latency.  Inside
 * a simulator that counts it (rfsim's gload_cycles / gload_count: from the
 * load/store unit taking a load to its answer), also occupancy.fetch_min
 * and .fetch_max, that statistic at one and at the most CTAs per SM: the
 * figure GPGPU-Sim reports as its mean memory fetch latency, which issue
 * 21 compares; a kernel's clock64 also counts the issue, the address
 * arithmetic and the wait in the SM, so lat_* exceed fetch_*.
 */
#include <math.h>
#include <stdlib.h>

#include "../cal.h"
#include "../../workloads/wl_util.h"

enum { LINES = 65536, CTA_THREADS = 256 };   /* 8 MB of 128-byte lines; 8 warps */

typedef struct Occ {
	CUfunction f;
	CUdeviceptr next, ends, cycles, times, sink;
	unsigned *perm, *h_ends;
	unsigned long long *h_cycles, *h_times;
	unsigned steps;
	const CalEnv *env;
} Occ;

/* one run's figures */
typedef struct Point {
	double ns;               /* %globaltimer span */
	double sim;              /* rfsim's cycles for the launch, else NaN */
	double lat;              /* mean clock64 cycles per step */
	double fetch;            /* rfsim's mean global-load latency statistic, else NaN */
} Point;

/* run `ctas` CTAs (c per SM) into *pt */
static int run_one(Occ *o, unsigned ctas, Point *pt, char *msg, size_t msgn)
{
	unsigned lines = LINES, warps = ctas * (CTA_THREADS / 32);
	void *params[] = { &o->next, &lines, &o->steps, &o->ends, &o->cycles, &o->times };
	int rc = 0;

	CHECK_CU(cuLaunchKernel(o->f, ctas, 1, 1, CTA_THREADS, 1, 1, 0, NULL, params, NULL));
	CHECK_CU(cuCtxSynchronize());
	pt->sim = cal_stat(o->env, "cycles");
	pt->fetch = cal_stat(o->env, "gload_cycles") / cal_stat(o->env, "gload_count");
	CHECK_CU(cuMemcpyDtoH(o->h_ends, o->ends, (size_t)warps * 4));
	CHECK_CU(cuMemcpyDtoH(o->h_cycles, o->cycles, (size_t)warps * 8));
	CHECK_CU(cuMemcpyDtoH(o->h_times, o->times, (size_t)ctas * 16));
	double sum = 0;
	for (unsigned w = 0; w < warps; w++) {
		unsigned line = (w * 2654435761u) & (LINES - 1);
		for (unsigned s = 0; s < o->steps; s++)
			line = o->perm[line];
		if (o->h_ends[w] != line) {
			snprintf(msg, msgn, "%u CTAs: warp %u ended on line %u, expected %u", ctas, w,
			         o->h_ends[w], line);
			return 1;
		}
		sum += (double)o->h_cycles[w] / o->steps;
	}
	pt->lat = sum / warps;
	unsigned long long t0 = o->h_times[0], t1 = o->h_times[1];
	for (unsigned c = 1; c < ctas; c++) {
		t0 = o->h_times[2 * c] < t0 ? o->h_times[2 * c] : t0;
		t1 = o->h_times[2 * c + 1] > t1 ? o->h_times[2 * c + 1] : t1;
	}
	pt->ns = t1 > t0 ? (double)(t1 - t0) : NAN;
out:
	return rc;
}

/* CTAs per SM the sweep runs: 1, 2, 3, 4, then even numbers, and the most (small:
 * 1, 2 and the most) */
static int in_sweep(int c, int cmax, CalSize size)
{
	if (size == CAL_SMALL)
		return c <= 2 || c == cmax;
	return c <= 4 || c % 2 == 0 || c == cmax;
}

/* Sattolo's shuffle: a random permutation that is one cycle through every line */
static void make_cycle(unsigned *perm)
{
	WlRng rng;
	wl_rng_init(&rng, 1, 21);
	for (unsigned i = 0; i < LINES; i++)
		perm[i] = i;
	for (unsigned i = LINES - 1; i > 0; i--) {
		unsigned j = wl_rng_below(&rng, i), t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
}

/* buffers for up to cmax CTAs per SM, the array on the device, and the warm-up
 * pass where the L2 holds it (SMs x cmax CTAs reading every line once; its sums
 * are not checked) */
static int setup(Occ *o, CUmodule mod, const CalDev *d, int cmax, char *msg, size_t msgn)
{
	size_t warps = (size_t)d->sms * cmax * (CTA_THREADS / 32);
	unsigned lines = LINES, tctas = (unsigned)(d->sms * cmax), *words;
	void *tp[] = { &o->next, &lines, &o->sink };
	CUfunction touch;
	int rc = 0;

	if (!(o->perm = malloc(LINES * 4)) || !(o->h_ends = malloc(warps * 4)) ||
	    !(o->h_cycles = malloc(warps * 8)) || !(o->h_times = malloc(tctas * 16ull)))
		return wl_oom(msg, msgn);
	if (!(words = malloc((size_t)LINES * 128)))
		return wl_oom(msg, msgn);
	make_cycle(o->perm);
	for (unsigned i = 0; i < LINES; i++)
		for (unsigned l = 0; l < 32; l++)
			words[i * 32 + l] = o->perm[i];
	CHECK_CU(cuMemAlloc(&o->next, (size_t)LINES * 128));
	CHECK_CU(cuMemAlloc(&o->ends, warps * 4));
	CHECK_CU(cuMemAlloc(&o->cycles, warps * 8));
	CHECK_CU(cuMemAlloc(&o->times, tctas * 16ull));
	CHECK_CU(cuMemAlloc(&o->sink, (size_t)tctas * CTA_THREADS * 4));
	CHECK_CU(cuMemcpyHtoD(o->next, words, (size_t)LINES * 128));
	CHECK_CU(cuModuleGetFunction(&touch, mod, "touch"));
	if (d->l2_bytes >= (int64_t)LINES * 128) {
		CHECK_CU(cuLaunchKernel(touch, tctas, 1, 1, CTA_THREADS, 1, 1, 0, NULL, tp, NULL));
		CHECK_CU(cuCtxSynchronize());
	}
out:
	free(words);
	return rc;
}

static void release(Occ *o)
{
	wl_free(&o->next);
	wl_free(&o->ends);
	wl_free(&o->cycles);
	wl_free(&o->times);
	wl_free(&o->sink);
	free(o->perm);
	free(o->h_ends);
	free(o->h_cycles);
	free(o->h_times);
}

int cal_occupancy_run(const CalEnv *env, CalOut *out, char *msg, size_t msgn)
{
	static const unsigned steps[] = { 8, 32, 128 }, least[] = { 4, 8, 32 };
	static const double budget[] = { 1 << 16, 1 << 19, 1 << 23 };
	WlGpu g = { 0 };
	Occ o = { 0 };
	CalDev d;
	int rc;

	o.env = env;
	o.steps = steps[env->size];
	if ((rc = wl_open(&g, env->ptx, msg, msgn)))
		return rc;
	CHECK_CU(cal_dev_query(g.dev, &d));
	CHECK_CU(cuModuleGetFunction(&o.f, g.mod, "cchase"));
	int cmax = d.max_threads_sm / CTA_THREADS;
	if (cmax > d.max_ctas_sm)
		cmax = d.max_ctas_sm;
	if ((rc = setup(&o, g.mod, &d, cmax, msg, msgn)))
		goto out;
	int ctas = 0;
	for (int c = 1; c <= cmax; c++)
		ctas += in_sweep(c, cmax, env->size) ? c : 0;
	while (o.steps > least[env->size] &&
	       (double)d.sms * ctas * (CTA_THREADS / 32) * o.steps > budget[env->size])
		o.steps /= 2;

	CalCurve *cs = cal_curve(out, "occupancy", "speedup", "CTAs (8 warps) per SM",
	                         "speedup over 1 CTA per SM");
	CalCurve *cl = cal_curve(out, "loaded-latency", "clock64", "warps per SM",
	                         "mean cycles per load");
	CalCurve *cf = NULL;
	Point one = { NAN, NAN, NAN, NAN }, pt = one;
	double sp = NAN, spsim = NAN;
	for (int c = 1; c <= cmax; c++) {
		if (!in_sweep(c, cmax, env->size))
			continue;
		if ((rc = run_one(&o, (unsigned)(d.sms * c), &pt, msg, msgn)))
			goto out;
		if (c == 1)
			one = pt;
		sp = c * one.ns / pt.ns;
		spsim = c * one.sim / pt.sim;
		cal_point(cs, c, sp);
		cal_point(cl, c * (CTA_THREADS / 32), pt.lat);
		if (!isnan(pt.fetch) && !cf)
			cf = cal_curve(out, "loaded-latency", "rfsim gload_latency", "warps per SM",
			               "mean cycles per load");
		cal_point(cf, c * (CTA_THREADS / 32), pt.fetch);
	}
	CalMetric *m = cal_metric(out, "occupancy.speedup", sp, "x",
	                          "coalesced chase over 8 MB: speedup, most CTAs/SM against 1");
	m->sim = spsim;
	cal_metric(out, "occupancy.lat_min", one.lat, "cycles",
	           "its mean clock64 cycles per load at 1 CTA (8 warps) per SM");
	cal_metric(out, "occupancy.lat_max", pt.lat, "cycles",
	           "its mean clock64 cycles per load at the most CTAs per SM");
	if (cf) {
		cal_metric(out, "occupancy.fetch_min", one.fetch, "cycles",
		           "the simulator's mean global-load latency at 1 CTA per SM");
		cal_metric(out, "occupancy.fetch_max", pt.fetch, "cycles",
		           "the simulator's mean global-load latency at the most CTAs per SM");
	}
	snprintf(msg, msgn, "1..%d CTAs of 8 warps per SM, %u steps per warp", cmax, o.steps);
out:
	release(&o);
	wl_close(&g);
	return rc;
}
