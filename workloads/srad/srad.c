/*
 * srad.c -- host side of srad (see srad.cu): a few iterations of speckle
 * reducing anisotropic diffusion on a synthetic speckled image, each
 * iteration's three kernels checked against a CPU reference computed from
 * the same inputs the GPU had.
 *
 * The image: a dark background with a brighter disc and a horizontal
 * ramp, times multiplicative speckle uniform in [0.6, 1.4]; every pixel
 * is positive, as the filter needs.  lambda = 0.5.
 *
 * Sizes (rows x cols, iterations): 48 x 80, 2 (small); 480 x 512, 4
 * (default); 960 x 1,024, 4 (large).  16 x 8 blocks on grids of 5 x 6,
 * 32 x 60 and 64 x 120 (x by y), three launches per iteration.
 *
 * Checks.  Each iteration is checked from the GPU's own input image, so
 * errors do not compound across iterations and each bound stays local:
 *  - partial sums: 128 values (squares: one rounding each) added by a
 *    7-level tree of shuffles, so at most 7 (8) roundings per term, and
 *    |error| <= h*u*sum|x| to first order (Higham, Accuracy and Stability
 *    of Numerical Algorithms, 2nd ed., section 4.2); checked with
 *    (h + 2)*u.  The host then forms q0^2 from them in double;
 *  - coefficient and update: these are short nonlinear formulas with
 *    cancellations (q^2 - q0^2, neighbour differences), for which no
 *    single relative tolerance is right.  The reference therefore runs
 *    each formula in double carrying a rigorous bound on the float
 *    computation's error (running error analysis, Higham section 3.3): an
 *    operation on inputs with bounds ea, eb propagates them exactly
 *    (|a|eb + |b|ea + ea*eb for a product, (ea + |q|eb)/(|b| - eb) for a
 *    quotient q) and adds u*(|result| + its bound) for its own rounding;
 *    clamping adds nothing.  Modelling each multiply-add as two roundings
 *    also bounds nvcc's fused form.  Each value must lie within twice its
 *    bound of the reference, the factor 2 absorbing the reference's own
 *    double rounding.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { TX = 16, TY = 8 };
static const float LAMBDA = 0.5f;

/* a value of a float formula: exact value and a bound on the float error */
typedef struct Ev {
	double v, e;
} Ev;

static Ev ev(double x)
{
	return (Ev){ x, 0 };
}

/* the rounding of a result with value v and propagated bound e */
static Ev rnd(double v, double e)
{
	return (Ev){ v, e + WL_ULP_F32 * (fabs(v) + e) };
}

static Ev add(Ev a, Ev b)
{
	return rnd(a.v + b.v, a.e + b.e);
}

static Ev sub(Ev a, Ev b)
{
	return rnd(a.v - b.v, a.e + b.e);
}

static Ev mul(Ev a, Ev b)
{
	return rnd(a.v * b.v, fabs(a.v) * b.e + fabs(b.v) * a.e + a.e * b.e);
}

static Ev dvd(Ev a, Ev b)
{
	double q = a.v / b.v, m = fabs(b.v) - b.e;

	return m > 0 ? rnd(q, (a.e + fabs(q) * b.e) / m) : (Ev){ q, INFINITY };
}

typedef struct Img {
	int rows, cols;
	float *J, *C, *Jout;      /* GPU results of one iteration (J: its input) */
	float *part;              /* 2 per block */
	double *want, *mag;       /* reference and error bound per pixel */
} Img;

static float pix(const float *a, const Img *m, int r, int c)
{
	r = r < 0 ? 0 : r >= m->rows ? m->rows - 1 : r;
	c = c < 0 ? 0 : c >= m->cols ? m->cols - 1 : c;
	return a[r * m->cols + c];
}

/* the four differences, in the kernels' order N, S, W, E */
static void diffs(const Img *m, int r, int c, Ev d[4])
{
	Ev jc = ev(pix(m->J, m, r, c));

	d[0] = sub(ev(pix(m->J, m, r - 1, c)), jc);
	d[1] = sub(ev(pix(m->J, m, r + 1, c)), jc);
	d[2] = sub(ev(pix(m->J, m, r, c - 1)), jc);
	d[3] = sub(ev(pix(m->J, m, r, c + 1)), jc);
}

static Ev coeff(const Img *m, int r, int c, float q0sqr)
{
	Ev d[4], jc = ev(pix(m->J, m, r, c)), q0 = ev(q0sqr), one = ev(1.0);

	diffs(m, r, c, d);
	Ev g2 = dvd(add(add(add(mul(d[0], d[0]), mul(d[1], d[1])), mul(d[2], d[2])),
	                mul(d[3], d[3])), mul(jc, jc));
	Ev l = dvd(add(add(add(d[0], d[1]), d[2]), d[3]), jc);
	Ev num = sub(mul(ev(0.5), g2), mul(ev(0.0625), mul(l, l)));
	Ev den = add(one, mul(ev(0.25), l));
	Ev qsqr = dvd(num, mul(den, den));
	Ev cv = dvd(one, add(one, dvd(sub(qsqr, q0), mul(q0, add(one, q0)))));
	cv.v = cv.v < 0 ? 0 : cv.v > 1 ? 1 : cv.v;
	return cv;
}

static Ev update(const Img *m, int r, int c)
{
	Ev d[4], jc = ev(pix(m->J, m, r, c));
	Ev cn = ev(pix(m->C, m, r, c)), cs = ev(pix(m->C, m, r + 1, c));
	Ev ce = ev(pix(m->C, m, r, c + 1));

	diffs(m, r, c, d);
	Ev div = add(add(add(mul(cn, d[0]), mul(cs, d[1])), mul(cn, d[2])), mul(ce, d[3]));
	return add(jc, mul(ev(0.25f * LAMBDA), div));
}

/* check the block partials of m->J; returns q0^2 from them in *q0sqr */
static int check_stats(const Img *m, unsigned gx, unsigned gy, float *q0sqr, char *msg,
                       size_t msgn)
{
	double sum = 0, sq = 0, n = (double)m->rows * m->cols, mean, var;
	int nb = (int)(gx * gy), rc;

	for (int b = 0; b < nb; b++) {
		int r0 = b / (int)gx * TY, c0 = b % (int)gx * TX;
		double s = 0, s2 = 0;
		for (int r = r0; r < r0 + TY && r < m->rows; r++)
			for (int c = c0; c < c0 + TX && c < m->cols; c++) {
				double v = m->J[r * m->cols + c];
				s += v;
				s2 += v * v;
			}
		/* pixels are positive, so sum|x| = sum x; bounds (h + 2)*u*sum|x| with h = 7
		 * levels for the sums, 8 roundings for the squares' */
		m->want[2 * b] = s;
		m->mag[2 * b] = 9 * s;
		m->want[2 * b + 1] = s2;
		m->mag[2 * b + 1] = 10 * s2;
		sum += m->part[2 * b];
		sq += m->part[2 * b + 1];
	}
	/* partial[b][0] is block b's sum, partial[b][1] its sum of squares */
	if ((rc = wl_check_f32("partial", m->part, m->want, m->mag, 2 * (size_t)nb, 2, 0.0,
	                       WL_ULP_F32, msg, msgn)))
		return rc;
	mean = sum / n;
	var = sq / n - mean * mean;
	*q0sqr = (float)(var / (mean * mean));
	return 0;
}

/* check C (from J, q0sqr) or Jout (from J, C) against the error-bounded reference */
static int check_pixels(const Img *m, int which, float q0sqr, char *msg, size_t msgn)
{
	for (int r = 0; r < m->rows; r++)
		for (int c = 0; c < m->cols; c++) {
			Ev x = which ? update(m, r, c) : coeff(m, r, c, q0sqr);
			m->want[r * m->cols + c] = x.v;
			m->mag[r * m->cols + c] = x.e;
		}
	return wl_check_f32(which ? "J" : "c", which ? m->Jout : m->C, m->want, m->mag,
	                    (size_t)m->rows * m->cols, (size_t)m->cols, 0.0, 2.0, msg, msgn);
}

static void make_image(float *J, int rows, int cols, uint64_t seed)
{
	WlRng rng;

	wl_rng_init(&rng, seed, 1);
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++) {
			double y = (r - rows / 2.0) / rows, x = (c - cols / 2.0) / cols;
			double base = 0.3 + 0.4 * c / cols + (x * x + y * y < 0.06 ? 0.5 : 0.0);
			J[r * cols + c] = (float)(base * wl_rng_f32(&rng, 0.6f, 1.4f));
		}
}

typedef struct Dev {
	CUdeviceptr J, C, Jout, part;
	CUfunction stats, coeff, update;
} Dev;

/* one iteration: three launches, each checked; then J <- Jout on both sides */
static int iterate(Img *m, Dev *d, int it, char *msg, size_t msgn)
{
	size_t bytes = (size_t)m->rows * m->cols * sizeof(float);
	unsigned gx = wl_cdiv((size_t)m->cols, TX), gy = wl_cdiv((size_t)m->rows, TY);
	float q0sqr, lambda = LAMBDA;
	int rc = 0;

	void *ps[] = { &m->rows, &m->cols, &d->J, &d->part };
	CHECK_CU(cuLaunchKernel(d->stats, gx, gy, 1, TX, TY, 1, 0, NULL, ps, NULL));
	CHECK_CU(cuMemcpyDtoH(m->part, d->part, 2 * gx * gy * sizeof(float)));
	if ((rc = check_stats(m, gx, gy, &q0sqr, msg, msgn)))
		goto fail;
	void *pc[] = { &m->rows, &m->cols, &q0sqr, &d->J, &d->C };
	void *pu[] = { &m->rows, &m->cols, &lambda, &d->J, &d->C, &d->Jout };
	CHECK_CU(cuLaunchKernel(d->coeff, gx, gy, 1, TX, TY, 1, 0, NULL, pc, NULL));
	CHECK_CU(cuLaunchKernel(d->update, gx, gy, 1, TX, TY, 1, 0, NULL, pu, NULL));
	CHECK_CU(cuMemcpyDtoH(m->C, d->C, bytes));
	CHECK_CU(cuMemcpyDtoH(m->Jout, d->Jout, bytes));
	if ((rc = check_pixels(m, 0, q0sqr, msg, msgn)) ||
	    (rc = check_pixels(m, 1, q0sqr, msg, msgn)))
		goto fail;
	float *t = m->J;
	m->J = m->Jout;
	m->Jout = t;
	CUdeviceptr dt = d->J;
	d->J = d->Jout;
	d->Jout = dt;
	return 0;
fail: {
	size_t l = strlen(msg);
	snprintf(msg + l, msgn - l, " (iteration %d)", it);
}
out:
	return rc;
}

int wl_srad_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int nrows[] = { 48, 480, 960 }, ncols[] = { 80, 512, 1024 };
	static const int niters[] = { 2, 4, 4 };
	Img m = { .rows = nrows[args->size], .cols = ncols[args->size] };
	size_t npix = (size_t)m.rows * m.cols, bytes = npix * sizeof(float);
	unsigned gx = wl_cdiv((size_t)m.cols, TX), gy = wl_cdiv((size_t)m.rows, TY);
	WlGpu g = { 0 };
	Dev d = { 0 };
	int rc;

	m.J = malloc(bytes);
	m.C = malloc(bytes);
	m.Jout = malloc(bytes);
	m.part = malloc(2 * gx * gy * sizeof(float));
	m.want = malloc(npix * sizeof(double));
	m.mag = malloc(npix * sizeof(double));
	if (!m.J || !m.C || !m.Jout || !m.part || !m.want || !m.mag) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	make_image(m.J, m.rows, m.cols, args->seed);
	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&d.stats, g.mod, "srad_stats"));
	CHECK_CU(cuModuleGetFunction(&d.coeff, g.mod, "srad_coeff"));
	CHECK_CU(cuModuleGetFunction(&d.update, g.mod, "srad_update"));
	CHECK_CU(cuMemAlloc(&d.J, bytes));
	CHECK_CU(cuMemAlloc(&d.C, bytes));
	CHECK_CU(cuMemAlloc(&d.Jout, bytes));
	CHECK_CU(cuMemAlloc(&d.part, 2 * gx * gy * sizeof(float)));
	CHECK_CU(cuMemcpyHtoD(d.J, m.J, bytes));
	for (int it = 0; it < niters[args->size]; it++)
		if ((rc = iterate(&m, &d, it, msg, msgn)))
			goto out;
	snprintf(msg, msgn, "%dx%d image, %d iterations of 3 launches, %ux%u blocks of %dx%d",
	         m.rows, m.cols, niters[args->size], gx, gy, TX, TY);
out:
	wl_free(&d.J);
	wl_free(&d.C);
	wl_free(&d.Jout);
	wl_free(&d.part);
	wl_close(&g);
	free(m.J);
	free(m.C);
	free(m.Jout);
	free(m.part);
	free(m.want);
	free(m.mag);
	return rc;
}
