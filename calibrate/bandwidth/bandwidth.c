/*
 * bandwidth.c -- host side of bandwidth.cu: DRAM read bandwidth against
 * resident warps per SM, for lines read in order (stream) and scattered.
 *
 * Warps per SM: 1, 2, 4, 8, 16, 32 and the SM's maximum (--size small: 1,
 * 4 and the maximum), as CTAs of up to
 * 8 warps (W < 8: one CTA of W warps; else W / 8 CTAs of 8), sm_count
 * times as many CTAs as an SM takes, so that every SM holds W warps while
 * the kernel runs (a CTA's %smid is not checked: the block scheduler of
 * rfsim and of NVIDIA's GPUs spread one wave evenly).
 *
 * Each run reads 16 whole lines per warp (small: 4, large: 64), at most
 * 2^18 lines in all (small: 2^13, large: 2^20; a large GPU's runs at many
 * warps would otherwise cost minutes of simulation), from a region of the
 * buffer no run touched before, so that every line misses
 * the L2 as a cold DRAM read (the buffer is written once, by one copy,
 * before the first run; on a real GPU the copy's last lines may sit in the
 * L2 only for the runs that come last, whose regions it wrote first).
 * Word i of the buffer holds i, so every thread's sum is known: the check.
 *
 * Reported: bandwidth.stream and bandwidth.random in GB/s at the maximum
 * warps per SM, and as fractions of the device's peak (2 x memory clock x
 * bus width); from the kernels' %globaltimer stamps, and (sim) from the
 * cycles rfsim counted for the launch.  Curves: GB/s against warps/SM.
 */
#include <math.h>
#include <stdlib.h>

#include "../cal.h"
#include "../../workloads/wl_util.h"

enum { NW = 8, CTA_WARPS = 8 };

typedef struct Bw {
	CUfunction f[2];         /* stream, scattered */
	CUdeviceptr a, sums, times;
	unsigned per_warp;       /* lines each warp reads */
	unsigned cap;            /* at most this many lines per run */
	unsigned *h_sums;
	unsigned long long *h_times;
	double clock_ghz;
	CalEnv env;
} Bw;

/* the kernels' scatter(): a bijection of [0, n) by cycle walking in [0, mask] */
static unsigned scatter(unsigned t, unsigned n, unsigned mask, unsigned half)
{
	do {
		t = (t * 0x9e3779b1u) & mask;
		t ^= t >> half;
		t = (t * 0x85ebca6bu) & mask;
		t ^= t >> half;
	} while (t >= n);
	return t;
}

/* what thread (warp gw, lane) of a run over `lines` lines from word `base` summed:
 * it read lines t = gw, gw + warps, ... (scattered: their images) */
static unsigned want_sum(int kind, unsigned base, unsigned lines, unsigned mask, unsigned half,
                         unsigned gw, unsigned warps, unsigned lane)
{
	unsigned s = 0;
	for (unsigned t = gw; t < lines; t += warps)
		s += base + (kind ? scatter(t, lines, mask, half) : t) * 32 + lane;
	return s;
}

/* one run: kind 0 stream, 1 scattered; from word *base (advanced past it); w warps
 * per SM on sms SMs */
static int run_one(Bw *b, int kind, unsigned *base, int w, int sms, double *gbs, double *sim,
                   char *msg, size_t msgn)
{
	unsigned cw = w < CTA_WARPS ? (unsigned)w : CTA_WARPS, ctas = (unsigned)(sms * (w / (int)cw));
	unsigned threads = cw * 32, warps = ctas * cw, lines = warps * b->per_warp;
	if (lines > b->cap)
		lines = b->cap;
	unsigned k = 0, mask, half, at = *base;
	while ((1u << k) < lines)
		k++;
	mask = (1u << k) - 1;
	half = (k + 1) / 2;
	*base += lines * 32;
	CUdeviceptr region = b->a + (CUdeviceptr)at * 4;
	void *p0[] = { &region, &lines, &b->sums, &b->times };
	void *p1[] = { &region, &lines, &mask, &half, &b->sums, &b->times };
	int rc = 0;

	CHECK_CU(cuLaunchKernel(b->f[kind], ctas, 1, 1, threads, 1, 1, 0, NULL, kind ? p1 : p0,
	                        NULL));
	CHECK_CU(cuCtxSynchronize());
	*sim = cal_stat(&b->env, "cycles");
	CHECK_CU(cuMemcpyDtoH(b->h_sums, b->sums, (size_t)ctas * threads * 4));
	CHECK_CU(cuMemcpyDtoH(b->h_times, b->times, (size_t)ctas * 16));
	unsigned long long t0 = b->h_times[0], t1 = b->h_times[1];
	for (unsigned c = 1; c < ctas; c++) {
		t0 = b->h_times[2 * c] < t0 ? b->h_times[2 * c] : t0;
		t1 = b->h_times[2 * c + 1] > t1 ? b->h_times[2 * c + 1] : t1;
	}
	double bytes = (double)lines * 128;
	*gbs = t1 > t0 ? bytes / (double)(t1 - t0) : NAN;
	*sim = bytes / (*sim / b->clock_ghz);
	for (unsigned i = 0; i < ctas * threads; i++) {
		unsigned want = want_sum(kind, at, lines, mask, half, i / 32, warps, i % 32);
		if (b->h_sums[i] != want) {
			snprintf(msg, msgn, "%s at %d warps/SM: thread %u summed %u, expected %u",
			         kind ? "random" : "stream", w, i, b->h_sums[i], want);
			return 1;
		}
	}
out:
	return rc;
}

/* the warps-per-SM sweep: 1, 2, 4, ... 32 and the maximum (small: 1, 4, maximum) */
static int sweep(int max_warps, CalSize size, int *w)
{
	int n = 0;
	for (int v = 1; v < max_warps && v <= 32; v *= size == CAL_SMALL ? 4 : 2)
		w[n++] = v;
	w[n++] = max_warps;
	return n;
}

/* the buffer (`words` words, word i holding i, copied once) and the per-run
 * outputs for up to max_warps warps on every SM */
static int setup(Bw *b, const CalDev *d, int max_warps, size_t words, char *msg, size_t msgn)
{
	size_t threads = (size_t)d->sms * max_warps * 32;
	unsigned *host = malloc(words * 4);
	int rc = 0;

	if (!host || !(b->h_sums = malloc(threads * 4)) || !(b->h_times = malloc(threads / 2))) {
		free(host);
		return wl_oom(msg, msgn);
	}
	for (size_t i = 0; i < words; i++)
		host[i] = (unsigned)i;
	CHECK_CU(cuMemAlloc(&b->a, words * 4));
	CHECK_CU(cuMemAlloc(&b->sums, threads * 4));
	CHECK_CU(cuMemAlloc(&b->times, threads / 2));
	CHECK_CU(cuMemcpyHtoD(b->a, host, words * 4));
out:
	free(host);
	return rc;
}

int cal_bandwidth_run(const CalEnv *env, CalOut *out, char *msg, size_t msgn)
{
	static const unsigned per_warp[] = { 4, 16, 64 }, cap[] = { 1u << 13, 1u << 18, 1u << 20 };
	static const char *const what[2][2] = {
		{ "lines read in order at the most warps per SM, GB/s",
		  "lines read in order at the most warps per SM, share of peak" },
		{ "128-byte lines read scattered at the most warps per SM, GB/s",
		  "128-byte lines read scattered at the most warps per SM, share of peak" } };
	static const char *const names[2][2] = { { "bandwidth.stream", "bandwidth.stream_frac" },
	                                         { "bandwidth.random", "bandwidth.random_frac" } };
	WlGpu g = { 0 };
	Bw b = { 0 };
	CalDev d;
	int rc, w[NW], nw;

	b.env = *env;
	if ((rc = wl_open(&g, env->ptx, msg, msgn)))
		return rc;
	CHECK_CU(cal_dev_query(g.dev, &d));
	CHECK_CU(cuModuleGetFunction(&b.f[0], g.mod, "stream"));
	CHECK_CU(cuModuleGetFunction(&b.f[1], g.mod, "scattered"));
	b.clock_ghz = d.clock_mhz / 1000;
	int max_warps = d.max_threads_sm / 32;
	if (max_warps > CTA_WARPS)
		max_warps -= max_warps % CTA_WARPS;
	nw = sweep(max_warps, env->size, w);
	b.per_warp = per_warp[env->size];
	b.cap = cap[env->size];
	size_t words = 0;
	for (int i = 0; i < nw; i++) {
		size_t lines = (size_t)d.sms * w[i] * b.per_warp;
		words += 2 * 32 * (lines < b.cap ? lines : b.cap);
	}
	if ((rc = setup(&b, &d, max_warps, words, msg, msgn)))
		goto out;

	unsigned base = 0;
	for (int kind = 0; kind < 2; kind++) {
		CalCurve *c = cal_curve(out, "bandwidth", kind ? "random" : "stream", "warps per SM",
		                        "GB/s");
		double gbs = NAN, sim = NAN;
		for (int i = 0; i < nw; i++) {
			if ((rc = run_one(&b, kind, &base, w[i], d.sms, &gbs, &sim, msg, msgn)))
				goto out;
			cal_point(c, w[i], gbs);
		}
		CalMetric *m = cal_metric(out, names[kind][0], gbs, "GB/s", what[kind][0]);
		m->sim = sim;
		m = cal_metric(out, names[kind][1], gbs / d.peak_gbs, "of peak", what[kind][1]);
		m->sim = sim / d.peak_gbs;
	}
	snprintf(msg, msgn, "%d steps of warps/SM up to %d, %u lines per warp (at most %u a run), "
	         "peak %.1f GB/s", nw, max_warps, b.per_warp, b.cap, d.peak_gbs);
out:
	wl_free(&b.a);
	wl_free(&b.sums);
	wl_free(&b.times);
	wl_close(&g);
	free(b.h_sums);
	free(b.h_times);
	return rc;
}
