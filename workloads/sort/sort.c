/*
 * sort.c -- host side of sort (see sort.cu): a stable LSD radix sort of
 * (key, value) pairs on the GPU, 8 passes of 4 bits, each pass a
 * histogram, a scan and a scatter launch; the result is compared exactly
 * with a CPU sort.
 *
 * Keys: three in four are uniform 32-bit values, one in four comes from a
 * pool of 64 values, so many keys repeat.  Values are the input
 * positions, so the output shows whether the sort kept equal keys in
 * input order: the expected result is the pairs ordered by (key, value),
 * unique whatever the algorithm, and a sort that is not stable fails.
 *
 * Sizes: 3,000 (small), 262,144 (default), 1,048,576 (large) pairs; tiles
 * of 1,024 (128 threads x 8), so 3, 256 and 1,024 blocks for the histogram
 * and scatter kernels, one block of 256 for the scan of 16 x blocks
 * counts; 24 launches.  The small size is not a multiple of the tile.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../workloads.h"
#include "../wl_util.h"

enum { BLOCK = 128, ITEMS = 8, TILE = BLOCK * ITEMS, RADIX = 16, BITS = 4, POOL = 64 };
enum { SCAN_BLOCK = 256 };

static int cmp_pair(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/* pairs[2i] = key, pairs[2i+1] = i */
static void make_pairs(uint32_t *pairs, int n, uint64_t seed)
{
	uint32_t pool[POOL];
	WlRng rng;

	wl_rng_init(&rng, seed, 1);
	for (int i = 0; i < POOL; i++)
		pool[i] = wl_rng_u32(&rng);
	for (int i = 0; i < n; i++) {
		pairs[2 * i] = wl_rng_below(&rng, 4) ? wl_rng_u32(&rng)
		                                     : pool[wl_rng_below(&rng, POOL)];
		pairs[2 * i + 1] = (uint32_t)i;
	}
}

/* split interleaved pairs into keys and values for wl_check_u32 */
static void split(const uint32_t *pairs, int n, uint32_t *keys, uint32_t *vals)
{
	for (int i = 0; i < n; i++) {
		keys[i] = pairs[2 * i];
		vals[i] = pairs[2 * i + 1];
	}
}

int wl_sort_run(const WlArgs *args, char *msg, size_t msgn)
{
	static const int sizes[] = { 3000, 262144, 1048576 };
	int n = sizes[args->size], nblk = (int)wl_cdiv((size_t)n, TILE), len = RADIX * nblk, rc;
	size_t bytes = (size_t)n * 2 * sizeof(uint32_t);
	uint32_t *in = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes);
	uint32_t *gk = malloc((size_t)n * 4), *gv = malloc((size_t)n * 4);
	uint32_t *wk = malloc((size_t)n * 4), *wv = malloc((size_t)n * 4);
	WlGpu g = { 0 };
	CUdeviceptr d_a = 0, d_b = 0, d_hist = 0;
	CUfunction fh, fs, fx;

	if (!in || !want || !got || !gk || !gv || !wk || !wv) {
		rc = wl_oom(msg, msgn);
		goto out;
	}
	make_pairs(in, n, args->seed);
	for (size_t i = 0; i < 2 * (size_t)n; i++)
		want[i] = in[i];
	qsort(want, (size_t)n, 2 * sizeof(uint32_t), cmp_pair);

	if ((rc = wl_open(&g, args->ptx, msg, msgn)))
		goto out;
	CHECK_CU(cuModuleGetFunction(&fh, g.mod, "radix_hist"));
	CHECK_CU(cuModuleGetFunction(&fs, g.mod, "radix_scan"));
	CHECK_CU(cuModuleGetFunction(&fx, g.mod, "radix_scatter"));
	CHECK_CU(cuMemAlloc(&d_a, bytes));
	CHECK_CU(cuMemAlloc(&d_b, bytes));
	CHECK_CU(cuMemAlloc(&d_hist, (size_t)len * sizeof(uint32_t)));
	CHECK_CU(cuMemcpyHtoD(d_a, in, bytes));
	for (int shift = 0; shift < 32; shift += BITS) {
		void *ph[] = { &n, &shift, &d_a, &d_hist };
		void *ps[] = { &len, &d_hist };
		void *px[] = { &n, &shift, &d_hist, &d_a, &d_b };
		CHECK_CU(cuLaunchKernel(fh, (unsigned)nblk, 1, 1, BLOCK, 1, 1, 0, NULL, ph, NULL));
		CHECK_CU(cuLaunchKernel(fs, 1, 1, 1, SCAN_BLOCK, 1, 1, 0, NULL, ps, NULL));
		CHECK_CU(cuLaunchKernel(fx, (unsigned)nblk, 1, 1, BLOCK, 1, 1, 0, NULL, px, NULL));
		CUdeviceptr t = d_a;
		d_a = d_b;
		d_b = t;
	}
	CHECK_CU(cuMemcpyDtoH(got, d_a, bytes));
	split(got, n, gk, gv);
	split(want, n, wk, wv);
	if ((rc = wl_check_u32("key", gk, wk, (size_t)n, msg, msgn)) ||
	    (rc = wl_check_u32("value", gv, wv, (size_t)n, msg, msgn)))
		goto out;
	snprintf(msg, msgn, "%d pairs, %d passes of %d bits, %d blocks of %d x %d items", n,
	         32 / BITS, BITS, nblk, BLOCK, ITEMS);
out:
	wl_free(&d_a);
	wl_free(&d_b);
	wl_free(&d_hist);
	wl_close(&g);
	free(in);
	free(want);
	free(got);
	free(gk);
	free(gv);
	free(wk);
	free(wv);
	return rc;
}
