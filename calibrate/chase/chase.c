/*
 * chase.c -- host side of the pointer chase (chase.cu): load-to-use
 * latency against footprint, and the L1, L2 and DRAM latencies.
 *
 * The chain is built once over the largest footprint: the first word of
 * line i (128 bytes apart) holds the index of line i+1's first word.  A
 * footprint of N lines closes the chain by pointing line N-1 back to line
 * 0 for its run (one 4-byte copy, undone afterwards).
 *
 * Footprints: powers of two from 1 KB to the larger of 64 MB and twice
 * the L2 (--size small: 1 KB, 16 KB, an L2-resident size, twice the L2).
 * A footprint that fits the L2 is walked once untimed (warm) and then
 * timed over `steps` loads, which is what a cyclic walk settles to with
 * LRU caches.  A larger one would miss the L2 on every load of such a
 * walk, and walking it whole only costs simulation time, so outside
 * --size large it is timed cold: `steps` loads over lines no earlier
 * footprint touched (first touches miss every cache, as the steady state
 * does).  --size large walks every footprint whole, for real GPUs whose
 * caches are not LRU.
 *
 * Reported: chase.l1 at 1 KB (where the device caches global loads in an
 * L1), chase.l2 at the largest power of two at or below min(L2 / 4, 2 MB)
 * (beyond any L1 of the built-in configs and of NVIDIA's GPUs, inside
 * their L2), chase.dram at the largest footprint; the curve `latency`.
 * Check: every run ends where the chain says.
 */
#include <math.h>
#include <stdlib.h>

#include "../cal.h"
#include "../../workloads/wl_util.h"

enum { STRIDE = 128 };

static const char *const what_l1 = "one-thread pointer chase at 1 KB: L1 hit latency";
static const char *const what_l2 = "one-thread pointer chase inside the L2: L2 hit latency";
static const char *const what_dram = "one-thread pointer chase at the largest footprint: DRAM";

static uint64_t pow2_at_least(uint64_t v)
{
	uint64_t p = 1;
	while (p < v)
		p <<= 1;
	return p;
}

static uint64_t pow2_at_most(uint64_t v)
{
	uint64_t p = 1;
	while (p * 2 <= v)
		p <<= 1;
	return p;
}

/* the footprints to run, ascending; returns how many */
static int footprints(const CalDev *d, CalSize size, uint64_t l2pt, uint64_t *fp)
{
	uint64_t l2 = d->l2_bytes > 0 ? (uint64_t)d->l2_bytes : 0;
	uint64_t big = pow2_at_least(2 * l2);
	int n = 0;

	if (size == CAL_SMALL) {
		uint64_t want[] = { 1024, 16384, l2pt, big > 4096 ? big : 4096 };
		for (int i = 0; i < 4; i++)
			if (want[i] && (n == 0 || want[i] > fp[n - 1]))
				fp[n++] = want[i];
		return n;
	}
	if (big < (64u << 20))
		big = 64u << 20;
	for (uint64_t f = 1024; f <= big && n < CAL_MAX_POINTS; f <<= 1)
		fp[n++] = f;
	return n;
}

typedef struct Chain {
	CUfunction f;
	CUdeviceptr a, out;
	uint64_t lines;          /* the chain's length */
	uint64_t hw;             /* lines touched so far, from 0 */
	unsigned steps;
} Chain;

/* word index of line i */
static unsigned word(uint64_t i)
{
	return (unsigned)(i * (STRIDE / 4));
}

/* run a footprint of n lines: *cyc = cycles per load; 1 if the chain ended wrong */
static int run_one(Chain *c, uint64_t n, int warm_all, double *cyc, char *msg, size_t msgn)
{
	unsigned long long res[2];
	unsigned home = 0, next = word(n % c->lines);
	uint64_t start = 0, warm = n;
	int rc = 0;

	if (!warm_all && c->hw + c->steps <= n) {
		start = c->hw;        /* cold: lines no run has touched */
		warm = 0;
	}
	/* close the chain at n lines, run, reopen it */
	CHECK_CU(cuMemcpyHtoD(c->a + (n - 1) * STRIDE, &home, sizeof home));
	unsigned j0 = word(start), w = (unsigned)warm, s = c->steps;
	void *params[] = { &c->a, &j0, &w, &s, &c->out };
	CHECK_CU(cuLaunchKernel(c->f, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL));
	CHECK_CU(cuCtxSynchronize());
	CHECK_CU(cuMemcpyDtoH(res, c->out, sizeof res));
	CHECK_CU(cuMemcpyHtoD(c->a + (n - 1) * STRIDE, &next, sizeof next));
	*cyc = (double)res[0] / c->steps;
	uint64_t want = (start + warm + c->steps) % n;
	if (res[1] != word(want)) {
		snprintf(msg, msgn, "chase over %llu lines ended at word %llu, expected line %llu",
		         (unsigned long long)n, res[1], (unsigned long long)want);
		return 1;
	}
	uint64_t end = warm ? n : start + c->steps;
	if (end > c->hw)
		c->hw = end;
out:
	return rc;
}

int cal_chase_run(const CalEnv *env, CalOut *out, char *msg, size_t msgn)
{
	static const unsigned steps[] = { 128, 512, 2048 };
	WlGpu g = { 0 };
	Chain c = { 0 };
	CalDev d;
	uint64_t fp[CAL_MAX_POINTS];
	unsigned *chain = NULL;
	int rc, nfp;

	if ((rc = wl_open(&g, env->ptx, msg, msgn)))
		return rc;
	CHECK_CU(cal_dev_query(g.dev, &d));
	CHECK_CU(cuModuleGetFunction(&c.f, g.mod, "chase"));
	uint64_t l2pt = d.l2_bytes >= 16384 ? pow2_at_most(d.l2_bytes / 4 < (2 << 20) ?
	                                                   (uint64_t)d.l2_bytes / 4 : 2 << 20) : 0;
	nfp = footprints(&d, env->size, l2pt, fp);
	uint64_t lines = c.lines = fp[nfp - 1] / STRIDE;
	c.steps = steps[env->size];
	if (!(chain = calloc(lines, STRIDE))) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	for (uint64_t i = 0; i < lines; i++)
		chain[word(i)] = word((i + 1) % lines);
	CHECK_CU(cuMemAlloc(&c.a, lines * STRIDE));
	CHECK_CU(cuMemAlloc(&c.out, 2 * sizeof(unsigned long long)));
	CHECK_CU(cuMemcpyHtoD(c.a, chain, lines * STRIDE));

	CalCurve *cv = cal_curve(out, "latency", "chase", "footprint (bytes)", "cycles per load");
	cv->log2x = 1;
	double l1 = NAN, l2 = NAN, dram = NAN;
	for (int i = 0; i < nfp; i++) {
		double y;
		uint64_t n = fp[i] / STRIDE ? fp[i] / STRIDE : 1;
		int fits = fp[i] <= (uint64_t)d.l2_bytes;
		if ((rc = run_one(&c, n, fits || env->size == CAL_LARGE, &y, msg, msgn)))
			goto out;
		cal_point(cv, (double)fp[i], y);
		if (i == 0) l1 = y;
		if (fp[i] == l2pt) l2 = y;
		if (i == nfp - 1) dram = y;
	}
	if (d.l1_global)
		cal_metric(out, "chase.l1", l1, "cycles", what_l1);
	if (l2pt)
		cal_metric(out, "chase.l2", l2, "cycles", what_l2);
	cal_metric(out, "chase.dram", dram, "cycles", what_dram);
	snprintf(msg, msgn, "%d footprints 1K..%lluM, %u timed loads each", nfp,
	         (unsigned long long)(fp[nfp - 1] >> 20), c.steps);
out:
	wl_free(&c.a);
	wl_free(&c.out);
	wl_close(&g);
	free(chain);
	return rc;
}
