/*
 * lib.c -- host side of lib (see lib.cu): LIBOR market model paths and
 * the value of a swaption portfolio along each path.
 *
 * Sizes (paths, steps): 384, 8 (small); 100,000, 8 (default); 400,000, 8
 * (large), with 24 forward rates, delta = 0.25, all rates starting at
 * 5%.  Blocks of 128 threads, one path each: 3, 782 and 3,125 blocks.
 * Volatilities 0.15..0.25 by time to fixing and swap rates 4.6%..5.8% by
 * maturity go to constant memory.  The Gaussians are made on the host
 * (Box-Muller on the seeded generator), 8 per path.
 *
 * Tolerance.  The reference follows each path in double and, beside
 * every value, a running bound on the error the GPU's float computation
 * of that value can have (Wilkinson's running error analysis, Higham
 * section 3.3): a sum or product adds u*|result| to the propagated
 * errors of its operands (a*b: |a|e_b + |b|e_a + e_a e_b; a/b:
 * (e_a + |a/b| e_b)/(|b| - e_b)), sqrtf rounds once, expf is within
 * 2 ulp (<= 4u relative; CUDA Math API guide) of exp of its perturbed
 * argument, and max(0, x) never increases an error.  Each rounding is
 * counted even where the GPU fuses a multiply-add, so the bound holds
 * with or without contraction.  A path passes when |got - want| is within
 * twice its bound (the factor covers the higher-order terms the running
 * bound leaves out); the bounds come to ~1e-5 of values ~1-10, while a
 * wrong rate, volatility or step changes a value by ~1e-2.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { NN = 24, BLOCK = 128 };

/* a value of the reference and a bound on the error of its float twin */
typedef struct Ev {
	double v, e;
} Ev;

static const double U = WL_ULP_F32;

static Ev ev(double v)  /* a float input: exact */
{
	return (Ev){ v, 0 };
}

static Ev ev_add(Ev a, Ev b)
{
	double v = a.v + b.v;
	return (Ev){ v, a.e + b.e + U * fabs(v) };
}

static Ev ev_sub(Ev a, Ev b)
{
	return ev_add(a, (Ev){ -b.v, b.e });
}

static Ev ev_mul(Ev a, Ev b)
{
	double v = a.v * b.v;
	return (Ev){ v, fabs(a.v) * b.e + fabs(b.v) * a.e + a.e * b.e + U * fabs(v) };
}

static Ev ev_div(Ev a, Ev b)
{
	double v = a.v / b.v;
	return (Ev){ v, (a.e + fabs(v) * b.e) / (fabs(b.v) - b.e) + U * fabs(v) };
}

static Ev ev_exp(Ev a)
{
	double v = exp(a.v), grow = expm1(a.e);
	return (Ev){ v, v * grow + 4 * U * v * (1 + grow) };
}

/* one path, as lib_paths computes it; returns the value and its bound */
static Ev ref_path(int nmat, float delta, float l0, const float *lambda, const float *sr,
                   const float *z, int npath, int path)
{
	Ev L[NN], dl = ev(delta), sqd = { sqrt((double)delta), U * sqrt((double)delta) };
	Ev one = ev(1), b = ev(1), s = ev(0), total = ev(0);

	for (int i = 0; i < NN; i++)
		L[i] = ev(l0);
	for (int n = 0; n < nmat; n++) {
		Ev sqez = ev_mul(sqd, ev(z[(size_t)n * npath + path])), v = ev(0);
		for (int i = n + 1; i < NN; i++) {
			Ev lam = ev(lambda[i - n - 1]), con1 = ev_mul(dl, lam);
			v = ev_add(v, ev_div(ev_mul(con1, L[i]), ev_add(one, ev_mul(dl, L[i]))));
			Ev arg = ev_add(ev_mul(con1, v),
			                ev_mul(lam, ev_sub(sqez, ev_mul(ev(0.5), con1))));
			L[i] = ev_mul(L[i], ev_exp(arg));
		}
	}
	for (int m = nmat; m < NN; m++) {
		b = ev_div(b, ev_add(one, ev_mul(dl, L[m])));
		s = ev_add(s, ev_mul(dl, b));
		Ev p = ev_sub(ev_sub(one, b), ev_mul(ev(sr[m]), s));
		p.v = p.v > 0 ? p.v : 0;  /* max(0, p): the error bound stays */
		total = ev_add(total, ev_mul(ev(100), p));
	}
	for (int m = 0; m < nmat; m++)
		total = ev_div(total, ev_add(one, ev_mul(dl, L[m])));
	return total;
}

static void make_gaussians(float *z, size_t n, uint64_t seed)
{
	WlRng rng;

	wl_rng_init(&rng, seed, 1);
	for (size_t i = 0; i < n; i++) {
		double u1 = ((wl_rng_u64(&rng) >> 11) + 1) * (1.0 / 9007199254740992.0);  /* (0,1] */
		double u2 = (wl_rng_u64(&rng) >> 11) * (1.0 / 9007199254740992.0);
		z[i] = (float)(sqrt(-2 * log(u1)) * cos(2 * M_PI * u2));
	}
}

/* copy host array src (bytes) into the module's __constant__ `name` */
static int set_const(const WlGpu *g, const char *name, const void *src, size_t bytes,
                     char *msg, size_t msgn)
{
	CUdeviceptr d;
	size_t have;
	int rc = 0;

	CHECK_CU(cuModuleGetGlobal(&d, &have, g->mod, name));
	if (have != bytes) {
		snprintf(msg, msgn, "%s is %zu bytes, expected %zu", name, have, bytes);
		return 2;
	}
	CHECK_CU(cuMemcpyHtoD(d, src, bytes));
out:
	return rc;
}

int wl_lib_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int sizes[] = { 384, 100000, 400000 };
	int npath = sizes[args->size], nmat = 8;
	float delta = 0.25f, l0 = 0.05f, lambda[NN], sr[NN];
	size_t nz = (size_t)nmat * npath;
	float *z = malloc(nz * sizeof(float)), *out = malloc((size_t)npath * sizeof(float));
	double *want = malloc((size_t)npath * sizeof(double));
	double *bound = malloc((size_t)npath * sizeof(double));
	WlGpu g = { 0 };
	CUdeviceptr d_z = 0, d_v = 0;
	CUfunction f;
	int rc;
	unsigned grid = wl_cdiv((size_t)npath, BLOCK);

	if (!z || !out || !want || !bound) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	for (int i = 0; i < NN; i++) {
		lambda[i] = 0.15f + 0.1f * (float)i / NN;
		sr[i] = 0.046f + 0.0005f * (float)i;
	}
	make_gaussians(z, nz, args->seed);
	for (int p = 0; p < npath; p++) {
		Ev r = ref_path(nmat, delta, l0, lambda, sr, z, npath, p);
		want[p] = r.v;
		bound[p] = r.e;
	}

	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&f, g.mod, "lib_paths"));
	if ((rc = set_const(&g, "lib_lambda", lambda, sizeof lambda, msg, msgn)) ||
	    (rc = set_const(&g, "lib_swaprate", sr, sizeof sr, msg, msgn)))
		goto out;
	CHECK_CU(cuMemAlloc(&d_z, nz * sizeof(float)));
	CHECK_CU(cuMemAlloc(&d_v, (size_t)npath * sizeof(float)));
	CHECK_CU(cuMemcpyHtoD(d_z, z, nz * sizeof(float)));
	void *params[] = { &npath, &nmat, &delta, &l0, &d_z, &d_v };
	CHECK_CU(cuLaunchKernel(f, grid, 1, 1, BLOCK, 1, 1, 0, NULL, params, NULL));
	CHECK_CU(cuMemcpyDtoH(out, d_v, (size_t)npath * sizeof(float)));

	rc = wl_check_f32("value", out, want, bound, (size_t)npath, 0, 0.0, 2.0, msg, msgn);
	if (!rc) {
		double sum = 0;
		for (int p = 0; p < npath; p++)
			sum += out[p];
		snprintf(msg, msgn, "%d paths x %d steps, %d rates, %u blocks of %d; "
		         "portfolio %.4f", npath, nmat, NN, grid, BLOCK, sum / npath);
	}
out:
	wl_free(&d_z);
	wl_free(&d_v);
	wl_close(&g);
	free(z);
	free(out);
	free(want);
	free(bound);
	return rc;
}
