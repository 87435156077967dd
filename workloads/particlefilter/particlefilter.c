/*
 * particlefilter.c -- host side of particlefilter (see particlefilter.cu):
 * track a bright disc moving (+1, -2) pixels per frame through a noisy
 * video, three launches per frame, every step checked.
 *
 * Sizes (particles, frame, frames): 512, 64x64, 3 (small); 409,600,
 * 256x256, 2 (default); 1,638,400, 256x256, 2 (large).  pf_likelihood runs
 * blocks of 128 threads x 4 particles: 1, 800 and 3,200 blocks; pf_cdf the
 * same number of blocks of 512 threads, pf_resample blocks of 256.
 * Video: background 100, disc of radius 5 at 228, uniform noise +-30;
 * target histogram (0.05, 0.1, 0.15, 0.7) over the bins I >> 6.
 * Particles start on the disc; steps are 1 + 2g across and -2 + 2g down
 * (g Gaussian, drawn here), u0 uniform per frame.
 *
 * Checking.  Resampling makes the particle set a discontinuous function of
 * the weights, so each frame is checked against what the GPU was given:
 * positions after the step exactly (one float addition);
 * weights against a double reference with |err| <= 150u|w|: p_b = n_b/13
 * rounds once, sqrt(p_b q_b) is then within 2u, rho (four terms) within
 * 5u, so 1 - rho is off by at most 6u, the exponent -20(1 - rho) by 140u
 * absolutely, expf adds 2 ulp (4u) and the product with the old weight u;
 * the CDF (from the GPU's weights, in double) relative to its value,
 * within (2 + 2*ceil(parts/512) + 60)u: the offsets and the total are
 * sums of positive terms through the per-thread loops, a 9-level tree and
 * the 10 levels of the partial sums, the scan adds 9 levels, then one
 * addition and one division;
 * resampling exactly: u_j = (j + u0)/n is correctly rounded on both
 * sides, and the index found by binary search in the GPU's own CDF must
 * select exactly the particle whose position was copied.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { NOFF = 13, NBIN = 4, BLOCK = 128, PPT = 4, PART = BLOCK * PPT, RBLOCK = 256 };

static const float Q[NBIN] = { 0.05f, 0.1f, 0.15f, 0.7f };

typedef struct Pf {
	int n, w, h, nframes, nparts;
	int off[NOFF][2];
	float *x, *y, *step, *wt, *cdf, *xn, *yn;  /* host copies of the device state */
	unsigned char *frame;
	double *want, *bound;
} Pf;

static double gauss(WlRng *r)
{
	double u1 = ((wl_rng_u64(r) >> 11) + 1) * 0x1p-53, u2 = (wl_rng_u64(r) >> 11) * 0x1p-53;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

static void make_frame(Pf *p, int f, WlRng *r)
{
	double ox = p->w / 4.0 + f, oy = p->h * 3 / 4.0 - 2.0 * f;

	for (int y = 0; y < p->h; y++)
		for (int x = 0; x < p->w; x++) {
			int in = (x - ox) * (x - ox) + (y - oy) * (y - oy) <= 25;
			int v = (in ? 228 : 100) + (int)wl_rng_below(r, 61) - 30;
			p->frame[y * p->w + x] = (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : v);
		}
}

/* expected weights after pf_likelihood, from the GPU's new positions */
static void ref_weights(Pf *p, const float *wold)
{
	for (int i = 0; i < p->n; i++) {
		int cx = (int)lrintf(p->x[i]), cy = (int)lrintf(p->y[i]), cnt[NBIN] = { 0 };
		for (int k = 0; k < NOFF; k++) {
			int px = cx + p->off[k][0], py = cy + p->off[k][1];
			px = px < 0 ? 0 : px >= p->w ? p->w - 1 : px;
			py = py < 0 ? 0 : py >= p->h ? p->h - 1 : py;
			cnt[p->frame[py * p->w + px] >> 6]++;
		}
		double rho = 0;
		for (int b = 0; b < NBIN; b++)
			rho += sqrt((double)cnt[b] / NOFF * Q[b]);
		p->want[i] = wold[i] * exp(-20 * (1 - rho));
		p->bound[i] = 150 * WL_ULP_F32 * p->want[i];
	}
}

/* the CDF from the GPU's weights, and its tolerance */
static void ref_cdf(Pf *p)
{
	double total = 0, run = 0;
	double rtol = (2 + 2 * wl_cdiv((size_t)p->nparts, PART) + 60) * WL_ULP_F32;

	for (int i = 0; i < p->n; i++)
		total += p->wt[i];
	for (int i = 0; i < p->n; i++) {
		run += p->wt[i];
		p->want[i] = run / total;
		p->bound[i] = rtol * p->want[i];
	}
}

static int find_index(const float *cdf, int n, float u)
{
	int lo = 0, hi = n - 1;

	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (cdf[mid] >= u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static int check_resample(const Pf *p, float u0, char *msg, size_t msgn)
{
	for (int j = 0; j < p->n; j++) {
		int i = find_index(p->cdf, p->n, ((float)j + u0) / (float)p->n);
		if (p->xn[j] != p->x[i] || p->yn[j] != p->y[i] || p->wt[j] != 1.0f / (float)p->n) {
			snprintf(msg, msgn, "resample[%d]: got (%g, %g) weight %g, expected particle %d "
			         "(%g, %g) weight %g", j, p->xn[j], p->yn[j], p->wt[j], i, p->x[i],
			         p->y[i], 1.0f / (float)p->n);
			return 1;
		}
	}
	return 0;
}

/* one frame: launch, download and check each of the three kernels */
static int run_frame(Pf *p, CUfunction *fn, CUdeviceptr *d, float u0, char *msg,
                     size_t msgn)
{
	size_t fb = (size_t)p->n * sizeof(float);
	unsigned gl = (unsigned)p->nparts, gr = wl_cdiv((size_t)p->n, RBLOCK);
	float *xo = p->xn, *yo = p->yn;  /* the old positions, kept for the step check */
	int rc = 0;

	memcpy(xo, p->x, fb);
	memcpy(yo, p->y, fb);
	void *pl[] = { &d[0], &p->w, &p->h, &p->n, &d[1], &d[2], &d[3], &d[4], &d[5] };
	CHECK_CU(cuLaunchKernel(fn[0], gl, 1, 1, BLOCK, 1, 1, 0, NULL, pl, NULL));
	CHECK_CU(cuMemcpyDtoH(p->x, d[1], fb));
	CHECK_CU(cuMemcpyDtoH(p->y, d[2], fb));
	for (int i = 0; i < p->n; i++)
		if (p->x[i] != xo[i] + p->step[2 * i] || p->y[i] != yo[i] + p->step[2 * i + 1]) {
			snprintf(msg, msgn, "step[%d]: got (%g, %g), expected (%g, %g)", i, p->x[i],
			         p->y[i], xo[i] + p->step[2 * i], yo[i] + p->step[2 * i + 1]);
			return 1;
		}
	ref_weights(p, p->wt);
	CHECK_CU(cuMemcpyDtoH(p->wt, d[4], fb));
	if ((rc = wl_check_f32("weight", p->wt, p->want, p->bound, (size_t)p->n, 0, 0.0, 1.0,
	                       msg, msgn)))
		return rc;

	void *pc[] = { &d[4], &p->n, &d[5], &p->nparts, &d[6] };
	CHECK_CU(cuLaunchKernel(fn[1], gl, 1, 1, PART, 1, 1, 2 * PART * sizeof(float), NULL, pc,
	                        NULL));
	CHECK_CU(cuMemcpyDtoH(p->cdf, d[6], fb));
	ref_cdf(p);
	if ((rc = wl_check_f32("cdf", p->cdf, p->want, p->bound, (size_t)p->n, 0, 0.0, 1.0, msg,
	                       msgn)))
		return rc;

	void *pr[] = { &d[6], &p->n, &d[1], &d[2], &u0, &d[7], &d[8], &d[4] };
	CHECK_CU(cuLaunchKernel(fn[2], gr, 1, 1, RBLOCK, 1, 1, 0, NULL, pr, NULL));
	CHECK_CU(cuMemcpyDtoH(p->xn, d[7], fb));
	CHECK_CU(cuMemcpyDtoH(p->yn, d[8], fb));
	CHECK_CU(cuMemcpyDtoH(p->wt, d[4], fb));
	if ((rc = check_resample(p, u0, msg, msgn)))
		return rc;
	/* the new generation becomes the current one, here and on the device */
	CHECK_CU(cuMemcpyDtoD(d[1], d[7], fb));
	CHECK_CU(cuMemcpyDtoD(d[2], d[8], fb));
	memcpy(p->x, p->xn, fb);
	memcpy(p->y, p->yn, fb);
out:
	return rc;
}

/* module constants: the disc's offsets and the target histogram */
static int set_constants(const WlGpu *g, Pf *p, char *msg, size_t msgn)
{
	CUdeviceptr d_off, d_q;
	size_t b_off, b_q;
	int k = 0, rc = 0;

	for (int dy = -2; dy <= 2; dy++)
		for (int dx = -2; dx <= 2; dx++)
			if (dx * dx + dy * dy <= 4) {
				p->off[k][0] = dx;
				p->off[k++][1] = dy;
			}
	CHECK_CU(cuModuleGetGlobal(&d_off, &b_off, g->mod, "pf_off"));
	CHECK_CU(cuModuleGetGlobal(&d_q, &b_q, g->mod, "pf_q"));
	if (k != NOFF || b_off != sizeof p->off || b_q != sizeof Q) {
		snprintf(msg, msgn, "pf_off/pf_q: %zu/%zu bytes, expected %zu/%zu", b_off, b_q,
		         sizeof p->off, sizeof Q);
		return 2;
	}
	CHECK_CU(cuMemcpyHtoD(d_off, p->off, sizeof p->off));
	CHECK_CU(cuMemcpyHtoD(d_q, Q, sizeof Q));
out:
	return rc;
}

int wl_particlefilter_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int dims[][3] = { { 512, 64, 3 }, { 409600, 256, 2 }, { 1638400, 256, 2 } };
	Pf p = { .n = dims[args->size][0], .w = dims[args->size][1], .h = dims[args->size][1],
	         .nframes = dims[args->size][2] };
	size_t fb = (size_t)p.n * sizeof(float), npix = (size_t)p.w * p.h;
	WlGpu g = { 0 };
	CUdeviceptr d[9] = { 0 };  /* frame, x, y, step, wt, partial, cdf, xn, yn */
	CUfunction fn[3];
	WlRng rng;
	int rc = 0;
	double ex = 0, ey = 0;

	p.nparts = (int)wl_cdiv((size_t)p.n, PART);
	p.x = malloc(fb);
	p.y = malloc(fb);
	p.step = malloc(2 * fb);
	p.wt = malloc(fb);
	p.cdf = malloc(fb);
	p.xn = malloc(fb);
	p.yn = malloc(fb);
	p.frame = malloc(npix);
	p.want = malloc((size_t)p.n * sizeof(double));
	p.bound = malloc((size_t)p.n * sizeof(double));
	if (!p.x || !p.y || !p.step || !p.wt || !p.cdf || !p.xn || !p.yn || !p.frame ||
	    !p.want || !p.bound) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	for (int i = 0; i < p.n; i++) {
		p.x[i] = p.w / 4.0f;
		p.y[i] = p.h * 3 / 4.0f;
		p.wt[i] = 1.0f / (float)p.n;
	}

	if ((rc = wl_open(&g, args->ptx, msg, msgn)) || (rc = set_constants(&g, &p, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&fn[0], g.mod, "pf_likelihood"));
	CHECK_CU(cuModuleGetFunction(&fn[1], g.mod, "pf_cdf"));
	CHECK_CU(cuModuleGetFunction(&fn[2], g.mod, "pf_resample"));
	CHECK_CU(cuMemAlloc(&d[0], npix));
	for (int i = 1; i < 9; i++)
		CHECK_CU(cuMemAlloc(&d[i], i == 3 ? 2 * fb : i == 5 ? p.nparts * sizeof(float) : fb));
	CHECK_CU(cuMemcpyHtoD(d[1], p.x, fb));
	CHECK_CU(cuMemcpyHtoD(d[2], p.y, fb));
	CHECK_CU(cuMemcpyHtoD(d[4], p.wt, fb));
	wl_rng_init(&rng, args->seed, 1);
	for (int f = 0; f < p.nframes && !rc; f++) {
		make_frame(&p, f, &rng);
		for (int i = 0; i < 2 * p.n; i++)
			p.step[i] = (float)((i % 2 ? -2.0 : 1.0) + 2 * gauss(&rng));
		float u0 = (float)((wl_rng_u64(&rng) >> 40) * 0x1p-24);
		CHECK_CU(cuMemcpyHtoD(d[0], p.frame, npix));
		CHECK_CU(cuMemcpyHtoD(d[3], p.step, 2 * fb));
		rc = run_frame(&p, fn, d, u0, msg, msgn);
	}
	if (!rc) {
		for (int i = 0; i < p.n; i++) {  /* resampled: equal weights */
			ex += p.x[i] / p.n;
			ey += p.y[i] / p.n;
		}
		snprintf(msg, msgn, "%d particles, %dx%d video, %d frames of 3 launches (%d blocks); "
		         "estimate (%.1f, %.1f), object (%.1f, %.1f)", p.n, p.w, p.h, p.nframes,
		         p.nparts, ex, ey, p.w / 4.0 + p.nframes - 1, p.h * 3 / 4.0 - 2.0 * (p.nframes - 1));
	}
out:
	for (int i = 0; i < 9; i++)
		wl_free(&d[i]);
	wl_close(&g);
	free(p.x);
	free(p.y);
	free(p.step);
	free(p.wt);
	free(p.cdf);
	free(p.xn);
	free(p.yn);
	free(p.frame);
	free(p.want);
	free(p.bound);
	return rc;
}
