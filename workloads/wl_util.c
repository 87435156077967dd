/*
 * wl_util.c -- inputs, error reporting, context handling and result
 * checks shared by the workloads' host code (see wl_util.h).  Written
 * against the driver-API subset only, so it builds for rfsim and for a
 * real GPU alike.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl_util.h"

/* ---- splitmix64 ---- */

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void wl_rng_init(WlRng *r, uint64_t seed, uint64_t stream)
{
	/* distinct streams of one seed start far apart and uncorrelated */
	r->s = mix64(seed) ^ mix64(stream + 0x632be59bd9b4e019ull);
}

uint64_t wl_rng_u64(WlRng *r)
{
	r->s += 0x9e3779b97f4a7c15ull;
	return mix64(r->s);
}

uint32_t wl_rng_u32(WlRng *r)
{
	return (uint32_t)(wl_rng_u64(r) >> 32);
}

uint32_t wl_rng_below(WlRng *r, uint32_t n)
{
	/* Lemire's multiply-shift; the bias (< n/2^32) is irrelevant for inputs */
	return (uint32_t)(((uint64_t)wl_rng_u32(r) * n) >> 32);
}

float wl_rng_f32(WlRng *r, float lo, float hi)
{
	double k = (double)(wl_rng_u64(r) >> 40);  /* 24 random bits */
	return (float)(lo + ((double)hi - lo) * k * (1.0 / 16777216.0));
}

/* ---- driver calls ---- */

void wl_cu_fail(char *msg, size_t msgn, const char *call, CUresult r,
                const char *file, int line)
{
	const char *name = NULL, *str = NULL;
	const char *base = strrchr(file, '/');
	int fnlen = (int)strcspn(call, "( ");  /* "cuMemAlloc(&d, n)" -> "cuMemAlloc" */

	if (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
		name = "unknown CUresult";
	if (cuGetErrorString(r, &str) != CUDA_SUCCESS || !str)
		str = "?";
	snprintf(msg, msgn, "%.*s: %s (%d: %s) [%s:%d]", fnlen, call, name, (int)r, str,
	         base ? base + 1 : file, line);
}

int wl_oom(char *msg, size_t msgn)
{
	snprintf(msg, msgn, "out of host memory");
	return 2;
}

int wl_open(WlGpu *g, const char *ptx, char *msg, size_t msgn)
{
	int rc = 0;

	g->dev = 0;
	g->ctx = NULL;
	g->mod = NULL;
	CHECK_CU(cuInit(0));
	CHECK_CU(cuDeviceGet(&g->dev, 0));
#if CUDA_VERSION >= 13000
	CHECK_CU(cuCtxCreate(&g->ctx, NULL, 0, g->dev));
#else
	CHECK_CU(cuCtxCreate(&g->ctx, 0, g->dev));
#endif
	CHECK_CU(cuModuleLoadData(&g->mod, ptx));
out:
	if (rc)
		wl_close(g);
	return rc;
}

void wl_close(WlGpu *g)
{
	if (g->mod)
		(void)cuModuleUnload(g->mod);
	if (g->ctx)
		(void)cuCtxDestroy(g->ctx);
	g->mod = NULL;
	g->ctx = NULL;
}

void wl_free(CUdeviceptr *d)
{
	if (*d)
		(void)cuMemFree(*d);
	*d = 0;
}

/* ---- checking ---- */

/* the float check of wl_check_f32/f64: got[i] read as double through get */
static int check_float(const char *what, const void *got, double (*get)(const void *, size_t),
                       int digits, const double *want, const double *mag, size_t n,
                       size_t cols, double atol, double rtol, char *msg, size_t msgn)
{
	size_t bad = 0, first = 0;
	double first_tol = 0;
	char where[48];

	for (size_t i = 0; i < n; i++) {
		double tol = atol + rtol * (mag ? mag[i] : fabs(want[i]));
		if (fabs(get(got, i) - want[i]) <= tol)  /* false for NaN */
			continue;
		if (!bad++) {
			first = i;
			first_tol = tol;
		}
	}
	if (!bad)
		return 0;
	if (cols)
		snprintf(where, sizeof where, "[%zu][%zu]", first / cols, first % cols);
	else
		snprintf(where, sizeof where, "[%zu]", first);
	snprintf(msg, msgn, "%s%s: got %.*g, expected %.*g (tolerance %.3g); "
	         "%zu of %zu elements differ", what, where, digits, get(got, first), digits,
	         want[first], first_tol, bad, n);
	return 1;
}

static double get_f32(const void *p, size_t i) { return ((const float *)p)[i]; }
static double get_f64(const void *p, size_t i) { return ((const double *)p)[i]; }

int wl_check_f32(const char *what, const float *got, const double *want,
                 const double *mag, size_t n, size_t cols, double atol, double rtol,
                 char *msg, size_t msgn)
{
	return check_float(what, got, get_f32, 9, want, mag, n, cols, atol, rtol, msg, msgn);
}

int wl_check_f64(const char *what, const double *got, const double *want,
                 const double *mag, size_t n, size_t cols, double atol, double rtol,
                 char *msg, size_t msgn)
{
	return check_float(what, got, get_f64, 17, want, mag, n, cols, atol, rtol, msg, msgn);
}

int wl_check_u32(const char *what, const uint32_t *got, const uint32_t *want,
                 size_t n, char *msg, size_t msgn)
{
	size_t bad = 0, first = 0;

	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i] && !bad++)
			first = i;
	if (!bad)
		return 0;
	snprintf(msg, msgn, "%s[%zu]: got %u (0x%x), expected %u (0x%x); "
	         "%zu of %zu elements differ", what, first, (unsigned)got[first],
	         (unsigned)got[first], (unsigned)want[first], (unsigned)want[first], bad, n);
	return 1;
}

int wl_check_i32(const char *what, const int32_t *got, const int32_t *want,
                 size_t n, char *msg, size_t msgn)
{
	size_t bad = 0, first = 0;

	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i] && !bad++)
			first = i;
	if (!bad)
		return 0;
	snprintf(msg, msgn, "%s[%zu]: got %d, expected %d; %zu of %zu elements differ",
	         what, first, (int)got[first], (int)want[first], bad, n);
	return 1;
}

int wl_check_lu(const char *what, const float *a, const float *lu, int n, int cols,
                double rtol, char *msg, size_t msgn)
{
	double *acc = malloc((size_t)cols * sizeof(double));
	double *mag = malloc((size_t)cols * sizeof(double));
	size_t bad = 0;
	int rc = 0;

	if (!acc || !mag) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	for (int i = 0; i < n; i++) {
		const float *li = &lu[(size_t)i * cols];
		for (int j = 0; j < cols; j++)
			acc[j] = mag[j] = 0;
		for (int k = 0; k <= i; k++) {  /* row i of L*U = sum_k L[i][k] * U[k][k..] */
			const float *uk = &lu[(size_t)k * cols];
			double l = k < i ? li[k] : 1.0;
			for (int j = k; j < cols; j++) {
				double t = l * uk[j];
				acc[j] += t;
				mag[j] += fabs(t);
			}
		}
		for (int j = 0; j < cols; j++) {
			double r = (double)a[(size_t)i * cols + j] - acc[j], tol = rtol * mag[j];
			if (fabs(r) <= tol)  /* false for NaN */
				continue;
			if (bad++)
				continue;
			snprintf(msg, msgn, "%s[%d][%d]: residual of A - L*U is %.3g, tolerance "
			         "%.3g (L*U = %.9g, A = %.9g)", what, i, j, r, tol, acc[j],
			         (double)a[(size_t)i * cols + j]);
		}
	}
	if (bad) {
		size_t l = strlen(msg);
		snprintf(msg + l, msgn - l, "; %zu of %zu elements differ", bad,
		         (size_t)n * cols);
		rc = 1;
	}
out:
	free(acc);
	free(mag);
	return rc;
}

void wl_dominant_matrix(float *a, int n, WlRng *rng)
{
	for (int i = 0; i < n; i++) {
		double off = 0;
		for (int j = 0; j < n; j++) {
			if (j == i)
				continue;
			a[i * n + j] = wl_rng_f32(rng, -1.0f, 1.0f);
			off += fabsf(a[i * n + j]);
		}
		a[i * n + i] = (float)(off + 1.0);
	}
}
