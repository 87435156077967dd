/*
 * saxpy.c -- host side of saxpy (see saxpy.cu): y = a*x + y.
 *
 * Sizes: n = 262,000 (small), 1,000,000 (default), 4,000,000 (large);
 * none is a multiple of the block, so the last block runs partly idle.
 * Blocks of 256 threads, each thread about 4 elements: 256, 977 and 3,907
 * blocks.  The small size is tens of DRAM round trips long, not one: at
 * 65,000 (64 blocks, 7,600 cycles on fermi-gtx480) which warp's load
 * reached DRAM first decided the run, and the ideal register file came
 * out 2.6-4.5% slower than the baseline's.
 *
 * Tolerance.  The reference is computed in double, so it is the exact
 * result r = a*x + y up to ~1e-16 relative.  The GPU computes either
 * fma(a, x, y), one rounding: |err| <= u|r|, or, uncontracted, two
 * roundings: |err| <= u|ax| + u(|ax| + |y|)(1 + u).  Both are within
 * 3u(|ax| + |y|), u = 2^-24, which is the bound checked (mag = |ax| + |y|,
 * rtol = 3u); |r| alone would not do where ax and y cancel.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { BLOCK = 256, PER_THREAD = 4 };

int wl_saxpy_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int sizes[] = { 262000, 1000000, 4000000 };
	int n = sizes[args->size];
	float alpha = 2.5f;
	size_t bytes = (size_t)n * sizeof(float);
	float *x = malloc(bytes), *y = malloc(bytes), *out = malloc(bytes);
	double *want = malloc((size_t)n * sizeof(double));
	double *mag = malloc((size_t)n * sizeof(double));
	WlGpu g = { 0 };
	CUdeviceptr d_x = 0, d_y = 0;
	CUfunction f;
	WlRng rng;
	int rc;

	if (!x || !y || !out || !want || !mag) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	wl_rng_init(&rng, args->seed, 1);
	for (int i = 0; i < n; i++) {
		x[i] = wl_rng_f32(&rng, -1.0f, 1.0f);
		y[i] = wl_rng_f32(&rng, -2.0f, 2.0f);
		want[i] = (double)alpha * x[i] + y[i];
		mag[i] = fabs((double)alpha * x[i]) + fabs((double)y[i]);
	}

	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&f, g.mod, "saxpy"));
	CHECK_CU(cuMemAlloc(&d_x, bytes));
	CHECK_CU(cuMemAlloc(&d_y, bytes));
	CHECK_CU(cuMemcpyHtoD(d_x, x, bytes));
	CHECK_CU(cuMemcpyHtoD(d_y, y, bytes));

	unsigned grid = wl_cdiv((size_t)n, BLOCK * PER_THREAD);
	void *params[] = { &n, &alpha, &d_x, &d_y };
	CHECK_CU(cuLaunchKernel(f, grid, 1, 1, BLOCK, 1, 1, 0, NULL, params, NULL));
	CHECK_CU(cuCtxSynchronize());
	CHECK_CU(cuMemcpyDtoH(out, d_y, bytes));

	rc = wl_check_f32("y", out, want, mag, (size_t)n, 0, 0.0, 3 * WL_ULP_F32, msg, msgn);
	if (!rc)
		snprintf(msg, msgn, "n=%d, %u blocks of %d", n, grid, BLOCK);
out:
	wl_free(&d_x);
	wl_free(&d_y);
	wl_close(&g);
	free(x);
	free(y);
	free(out);
	free(want);
	free(mag);
	return rc;
}
