/*
 * gaussian.c -- host side of gaussian (see gaussian.cu): forward
 * elimination of A x = b, two launches per pivot, checked by the
 * residual of the LU factorisation it amounts to.
 *
 * The matrix: off-diagonal elements uniform in [-1, 1), each diagonal
 * element 1 + the sum of its row's off-diagonal magnitudes, so A is
 * strictly diagonally dominant by rows.  Then elimination without pivoting
 * never meets a zero pivot, its growth factor is at most 2 (Higham,
 * Accuracy and Stability of Numerical Algorithms, 2nd ed., Theorem 9.9),
 * and |L||U| stays of the order of |A|, so the check below is tight.
 *
 * Sizes: n = 48 (small), 288 (default), 512 (large).  Fan1 runs blocks of
 * 256 threads over the rows below the pivot; Fan2 16 x 16 blocks over the
 * trailing block, ceil((n-t)/16) x ceil((n-1-t)/16) of them for pivot t:
 * 9, 324 and 1,024 blocks at the first pivot, 1 at the last;
 * 2(n-1) launches in all.
 *
 * Check.  Elimination computes L (the multipliers m) and U (the reduced
 * a, with the reduced b as an extra column) such that L*U = [A | b] +
 * dA with |dA| <= gamma_n |L||U|, gamma_n = n*u/(1 - n*u), for any order
 * of the updates and with or without fused multiply-adds (Higham, Theorem
 * 9.3, applied to the augmented matrix).  wl_check_lu checks that
 * residual, in double, against (n + 2) * u * |L||U| (>= gamma_n for
 * n < 5,000): a wrong multiplier, update or pivot order shows up as a
 * residual of the order of the data, far above it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { BLOCK1 = 256, TILE = 16 };

static void make_system(float *a, float *b, int n, uint64_t seed)
{
	WlRng rng;

	wl_rng_init(&rng, seed, 1);
	wl_dominant_matrix(a, n, &rng);
	for (int i = 0; i < n; i++)
		b[i] = wl_rng_f32(&rng, -1.0f, 1.0f);
}

/* [A | b] and [L\U | b'] as n x (n+1) matrices for wl_check_lu */
static void augment(const float *a, const float *b, const float *m, int n, int lower_from_m,
                    float *out)
{
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++)
			out[i * (n + 1) + j] = lower_from_m && j < i ? m[i * n + j] : a[i * n + j];
		out[i * (n + 1) + n] = b[i];
	}
}

int wl_gaussian_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int sizes[] = { 48, 288, 512 };
	int n = sizes[args->size], rc;
	size_t nn = (size_t)n * n, na = (size_t)n * (n + 1);
	float *a = malloc(nn * sizeof(float)), *b = malloc((size_t)n * sizeof(float));
	float *ra = malloc(nn * sizeof(float)), *rb = malloc((size_t)n * sizeof(float));
	float *m = malloc(nn * sizeof(float));
	float *aug = malloc(na * sizeof(float)), *lu = malloc(na * sizeof(float));
	WlGpu g = { 0 };
	CUdeviceptr d_a = 0, d_b = 0, d_m = 0;
	CUfunction f1, f2;

	if (!a || !b || !ra || !rb || !m || !aug || !lu) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	make_system(a, b, n, args->seed);
	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&f1, g.mod, "gauss_fan1"));
	CHECK_CU(cuModuleGetFunction(&f2, g.mod, "gauss_fan2"));
	CHECK_CU(cuMemAlloc(&d_a, nn * sizeof(float)));
	CHECK_CU(cuMemAlloc(&d_b, (size_t)n * sizeof(float)));
	CHECK_CU(cuMemAlloc(&d_m, nn * sizeof(float)));
	CHECK_CU(cuMemcpyHtoD(d_a, a, nn * sizeof(float)));
	CHECK_CU(cuMemcpyHtoD(d_b, b, (size_t)n * sizeof(float)));
	CHECK_CU(cuMemsetD32(d_m, 0, nn));
	for (int t = 0; t < n - 1; t++) {
		void *p1[] = { &n, &t, &d_a, &d_m };
		void *p2[] = { &n, &t, &d_a, &d_b, &d_m };
		unsigned below = (unsigned)(n - 1 - t), right = (unsigned)(n - t);
		CHECK_CU(cuLaunchKernel(f1, wl_cdiv(below, BLOCK1), 1, 1, BLOCK1, 1, 1, 0, NULL, p1,
		                        NULL));
		CHECK_CU(cuLaunchKernel(f2, wl_cdiv(right, TILE), wl_cdiv(below, TILE), 1, TILE,
		                        TILE, 1, 0, NULL, p2, NULL));
	}
	CHECK_CU(cuMemcpyDtoH(ra, d_a, nn * sizeof(float)));
	CHECK_CU(cuMemcpyDtoH(rb, d_b, (size_t)n * sizeof(float)));
	CHECK_CU(cuMemcpyDtoH(m, d_m, nn * sizeof(float)));
	augment(a, b, NULL, n, 0, aug);
	augment(ra, rb, m, n, 1, lu);
	if ((rc = wl_check_lu("LU", aug, lu, n, n + 1, (n + 2) * WL_ULP_F32, msg, msgn)))
		goto out;
	snprintf(msg, msgn, "n=%d, %d launches; Fan2 %ux%u blocks of %dx%d at the first pivot",
	         n, 2 * (n - 1), wl_cdiv((size_t)n, TILE), wl_cdiv((size_t)n - 1, TILE), TILE,
	         TILE);
out:
	wl_free(&d_a);
	wl_free(&d_b);
	wl_free(&d_m);
	wl_close(&g);
	free(a);
	free(b);
	free(ra);
	free(rb);
	free(m);
	free(aug);
	free(lu);
	return rc;
}
