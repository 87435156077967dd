/*
 * reduce.c -- host side of reduce (see reduce.cu): the sum of a vector,
 * once in unsigned 32-bit arithmetic finished with atomicAdd, once in float
 * finished by a second single-block launch over the per-block partials.
 *
 * Sizes: n = 65,000 (small), 1,000,000 (default), 4,000,000 (large).
 * Blocks of 256 threads (halved while the kernel's limit is lower) with
 * 256 words of dynamic shared memory, each thread about 8 elements: 32,
 * 489 and 1,954 blocks; the float finish is one more block of 256.
 *
 * Tolerance.  The unsigned sum is exact (mod 2^32) in any order, so it is
 * compared exactly; its inputs are full 32-bit values, so a lost or
 * doubled element cannot cancel out.  Float addition is not associative,
 * so the kernel's order (a sequential per-thread sum of k terms, then a
 * tree of log2(block) levels) differs from the reference's; but in any
 * summation tree of height h each term passes through at most h roundings,
 * so |sum - exact| <= h*u*sum(|x|) to first order (Higham, Accuracy and
 * Stability of Numerical Algorithms, 2nd ed., section 4.2).  The reference
 * is in double (exact to ~1e-16); each block's partial is checked with
 * h = k + log2(block), the total with the heights of both passes added,
 * and rtol = (h + 1) * u leaves room for the second-order term.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { MAX_BLOCK = 256, PER_THREAD = 8 };

typedef struct Shape {
	int n;          /* elements */
	int block;      /* threads per block, power of two >= 64 */
	unsigned grid;  /* blocks of the first pass */
} Shape;

static int ilog2(int x)
{
	int l = 0;
	while (x > 1) {
		x /= 2;
		l++;
	}
	return l;
}

/* sum in u32 with one atomicAdd per block; exact check */
static int run_u32(const WlGpu *g, const Shape *s, uint64_t seed, char *msg, size_t msgn)
{
	size_t bytes = (size_t)s->n * sizeof(uint32_t);
	uint32_t *in = malloc(bytes), want = 0, got = 0;
	CUdeviceptr d_in = 0, d_sum = 0;
	CUfunction f;
	WlRng rng;
	int n = s->n, rc;

	if (!in)
		return wl_oom(msg, msgn);
	wl_rng_init(&rng, seed, 1);
	for (int i = 0; i < n; i++) {
		in[i] = wl_rng_u32(&rng);
		want += in[i];
	}
	CHECK_CU(cuModuleGetFunction(&f, g->mod, "reduce_u32"));
	CHECK_CU(cuMemAlloc(&d_in, bytes));
	CHECK_CU(cuMemAlloc(&d_sum, sizeof(uint32_t)));
	CHECK_CU(cuMemcpyHtoD(d_in, in, bytes));
	CHECK_CU(cuMemsetD32(d_sum, 0, 1));
	void *params[] = { &d_in, &n, &d_sum };
	CHECK_CU(cuLaunchKernel(f, s->grid, 1, 1, (unsigned)s->block, 1, 1,
	                        (unsigned)(s->block * sizeof(uint32_t)), NULL, params, NULL));
	CHECK_CU(cuMemcpyDtoH(&got, d_sum, sizeof got));
	rc = wl_check_u32("sum_u32", &got, &want, 1, msg, msgn);
out:
	wl_free(&d_in);
	wl_free(&d_sum);
	free(in);
	return rc;
}

/* reference for reduce_f32: each block's partial and the total, in double */
static void ref_f32(const float *in, const Shape *s, double *part, double *pmag,
                    double *total, double *tmag)
{
	*total = *tmag = 0;
	for (unsigned b = 0; b < s->grid; b++)
		part[b] = pmag[b] = 0;
	for (int i = 0; i < s->n; i++) {
		unsigned b = (unsigned)(i / s->block) % s->grid;  /* grid-stride owner */
		part[b] += in[i];
		pmag[b] += fabs((double)in[i]);
	}
	for (unsigned b = 0; b < s->grid; b++) {
		*total += part[b];
		*tmag += pmag[b];
	}
}

/* sum in float: partials per block, then one block sums the partials */
static int run_f32(const WlGpu *g, const Shape *s, uint64_t seed, char *msg, size_t msgn)
{
	size_t bytes = (size_t)s->n * sizeof(float);
	float *in = malloc(bytes), *part = malloc(s->grid * sizeof(float)), total = 0;
	double *want = malloc(s->grid * sizeof(double)), *mag = malloc(s->grid * sizeof(double));
	double want_total, mag_total;
	CUdeviceptr d_in = 0, d_part = 0, d_total = 0;
	CUfunction f;
	WlRng rng;
	int n = s->n, np = (int)s->grid, rc;
	unsigned smem = (unsigned)(s->block * sizeof(float));

	if (!in || !part || !want || !mag) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	wl_rng_init(&rng, seed, 2);
	for (int i = 0; i < n; i++)
		in[i] = wl_rng_f32(&rng, -1.0f, 1.0f);
	ref_f32(in, s, want, mag, &want_total, &mag_total);

	CHECK_CU(cuModuleGetFunction(&f, g->mod, "reduce_f32"));
	CHECK_CU(cuMemAlloc(&d_in, bytes));
	CHECK_CU(cuMemAlloc(&d_part, s->grid * sizeof(float)));
	CHECK_CU(cuMemAlloc(&d_total, sizeof(float)));
	CHECK_CU(cuMemcpyHtoD(d_in, in, bytes));
	void *pass1[] = { &d_in, &n, &d_part };
	CHECK_CU(cuLaunchKernel(f, s->grid, 1, 1, (unsigned)s->block, 1, 1, smem, NULL,
	                        pass1, NULL));
	void *pass2[] = { &d_part, &np, &d_total };
	CHECK_CU(cuLaunchKernel(f, 1, 1, 1, (unsigned)s->block, 1, 1, smem, NULL, pass2, NULL));
	CHECK_CU(cuMemcpyDtoH(part, d_part, s->grid * sizeof(float)));
	CHECK_CU(cuMemcpyDtoH(&total, d_total, sizeof total));

	int h1 = (int)wl_cdiv((size_t)n, (size_t)s->block * s->grid) + ilog2(s->block);
	int h2 = (int)wl_cdiv(s->grid, (size_t)s->block) + ilog2(s->block);
	rc = wl_check_f32("partial_f32", part, want, mag, s->grid, 0, 0.0,
	                  (h1 + 1) * WL_ULP_F32, msg, msgn);
	if (!rc)
		rc = wl_check_f32("sum_f32", &total, &want_total, &mag_total, 1, 0, 0.0,
		                  (h1 + h2 + 1) * WL_ULP_F32, msg, msgn);
out:
	wl_free(&d_in);
	wl_free(&d_part);
	wl_free(&d_total);
	free(in);
	free(part);
	free(want);
	free(mag);
	return rc;
}

int wl_reduce_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int sizes[] = { 65000, 1000000, 4000000 };
	WlGpu g = { 0 };
	Shape s = { sizes[args->size], MAX_BLOCK, 0 };
	CUfunction fu, ff;
	int warp, maxu, maxf, rc;

	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, g.dev));
	CHECK_CU(cuModuleGetFunction(&fu, g.mod, "reduce_u32"));
	CHECK_CU(cuModuleGetFunction(&ff, g.mod, "reduce_f32"));
	CHECK_CU(cuFuncGetAttribute(&maxu, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fu));
	CHECK_CU(cuFuncGetAttribute(&maxf, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, ff));
	while (s.block > maxu || s.block > maxf)
		s.block /= 2;
	if (warp != 32 || s.block < 64) {
		snprintf(msg, msgn, "reduce needs 32-thread warps and blocks of 64 "
		         "(device: warp %d, kernel limits %d/%d threads)", warp, maxu, maxf);
		rc = 2;
		goto out;
	}
	s.grid = wl_cdiv((size_t)s.n, (size_t)s.block * PER_THREAD);
	if ((rc = run_u32(&g, &s, args->seed, msg, msgn)) ||
	    (rc = run_f32(&g, &s, args->seed, msg, msgn)))
		goto out;
	snprintf(msg, msgn, "n=%d, %u blocks of %d, u32 and f32", s.n, s.grid, s.block);
out:
	wl_close(&g);
	return rc;
}
